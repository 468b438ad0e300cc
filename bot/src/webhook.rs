//! The webhook route: Telegram posts each update to `TELEGRAM_WEBHOOK_URL`'s path on our own
//! server. The route checks the secret header, queues the update for the dispatcher and answers
//! at once (the dispatcher answers pre-checkout queries well within Telegram's 10 s); an
//! update it cannot queue gets a 503, so Telegram delivers it again.
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::json;
use subtle::ConstantTimeEq;
use teloxide::types::Update;
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{mpsc, watch};

/// The header Telegram sends the webhook's `secret_token` in.
pub const SECRET_HEADER: &str = "x-telegram-bot-api-secret-token";

#[derive(Clone)]
struct Hook {
    secret: Arc<str>,
    queue: mpsc::Sender<Update>,
    /// Set once the bot has reached Telegram and its dispatcher runs. Before that an update is
    /// refused (503), not held: a replica that cannot reach Telegram (a wrong token, no way out)
    /// must not swallow updates that a healthy replica would handle.
    dispatching: Arc<AtomicBool>,
    stop: watch::Receiver<bool>,
}

/// A router with the one route, for the app's router to serve.
pub fn router(path: &str, secret: &str, queue: mpsc::Sender<Update>, dispatching: Arc<AtomicBool>, stop: watch::Receiver<bool>) -> Router {
    Router::new().route(path, post(receive)).with_state(Hook { secret: Arc::from(secret), queue, dispatching, stop })
}

fn refuse(status: StatusCode, code: &str, text: &str) -> Response {
    (status, Json(json!({"success": false, "error": text, "message": text, "code": code}))).into_response()
}

async fn receive(State(hook): State<Hook>, headers: HeaderMap, body: Bytes) -> Response {
    let given = headers.get(SECRET_HEADER).map(|v| v.as_bytes()).unwrap_or_default();
    if !bool::from(given.ct_eq(hook.secret.as_bytes())) {
        tracing::warn!("webhook call without the right secret header: refused");
        return refuse(StatusCode::UNAUTHORIZED, "unauthorized", "Missing or wrong secret token.");
    }
    if *hook.stop.borrow() {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "unavailable", "Stopping; deliver again.");
    }
    if !hook.dispatching.load(Ordering::Acquire) {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "unavailable", "The bot has not reached Telegram yet; deliver again.");
    }
    let update: Update = match serde_json::from_slice(&body) {
        Ok(u) => u,
        Err(e) => {
            tracing::warn!(error = %e, "webhook body is not an update");
            return refuse(StatusCode::BAD_REQUEST, "bad_request", "Not a Telegram update.");
        }
    };
    match hook.queue.try_send(update) {
        Ok(()) => StatusCode::OK.into_response(),
        Err(TrySendError::Full(u)) => {
            tracing::warn!(update_id = u.id.0, "update queue full: Telegram will deliver again");
            refuse(StatusCode::SERVICE_UNAVAILABLE, "busy", "Busy; deliver again.")
        }
        Err(TrySendError::Closed(_)) => refuse(StatusCode::SERVICE_UNAVAILABLE, "unavailable", "Stopping; deliver again."),
    }
}
