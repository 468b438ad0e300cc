//! The operator's endpoints outside `/api/v1`: `/healthz`, `/readyz`, `/metrics` and
//! `/robots.txt`.
//!
//! `/healthz` says the process answers; `/readyz` says it can do its job: the database answers
//! and, with a bot token, the bot has reached Telegram recently. A proxy or an orchestrator
//! sends players only to ready replicas.
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use prometheus_client::encoding::prometheus_text;
use serde_json::json;
use subtle::ConstantTimeEq;

use crate::domain::{pricing, DomainError};
use crate::http::error::ApiError;
use crate::http::extract;
use crate::http::metrics::MetricsAccess;
use crate::http::state::AppState;

/// How long `/readyz` waits for the database.
pub const DB_CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// `GET /healthz`.
pub async fn healthz(State(state): State<AppState>) -> Response {
    match state.domain.ping().await {
        Ok(_) => "ok".into_response(),
        Err(e) => {
            tracing::error!(error = %e, "health check: database");
            (StatusCode::SERVICE_UNAVAILABLE, "database unavailable").into_response()
        }
    }
}

/// `GET /readyz`: 200 when every part is up, else 503; the body names each part's state
/// (`up`, `down`, or `off` for a bot in demo mode) and lists the parts that are down.
pub async fn readyz(State(state): State<AppState>) -> Response {
    let db_up = matches!(tokio::time::timeout(DB_CHECK_TIMEOUT, state.domain.ping()).await, Ok(Ok(_)));
    let bot = &state.metrics.bot;
    let bot_state = match (bot.enabled(), bot.is_up()) {
        (false, _) => "off",
        (true, true) => "up",
        (true, false) => "down",
    };
    let mut down = Vec::new();
    if !db_up {
        down.push("database");
    }
    if bot_state == "down" {
        down.push("bot");
    }
    let status = if down.is_empty() { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    // Reported, not a readiness condition: a shop on its committed default prices still serves.
    let (prices, repriced) = match tokio::time::timeout(DB_CHECK_TIMEOUT, pricing::last_reprice(&state.domain.db)).await {
        Ok(Ok(Some(at))) => ("market", Some(at)),
        Ok(Ok(None)) => ("never repriced", None),
        _ => ("unknown", None),
    };
    let body = json!({
        "ready": down.is_empty(),
        "database": if db_up { "up" } else { "down" },
        "bot": bot_state,
        "down": down,
        "prices": prices,
        "repricedAt": repriced.and_then(|t| chrono::DateTime::from_timestamp(t, 0)).map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string()),
    });
    (status, Json(body)).into_response()
}

/// A real `robots.txt` (not the app's HTML): the API is per-player and stays out of indexes.
const ROBOTS_TXT: &str = "User-agent: *\nDisallow: /api/\n";

/// `GET /robots.txt`.
pub async fn robots() -> Response {
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=86400")], ROBOTS_TXT).into_response()
}

/// `GET /metrics`, as `METRICS_TOKEN` / `METRICS_ENABLED` allow.
pub async fn metrics(State(state): State<AppState>, req: Request) -> Response {
    match &state.config.metrics {
        MetricsAccess::Off => return ApiError::Domain(DomainError::NotFound).into_response(),
        MetricsAccess::Open => {}
        MetricsAccess::Token(expected) => {
            let (parts, _) = req.into_parts();
            let given = extract::bearer(&parts).unwrap_or("");
            if !bool::from(given.as_bytes().ct_eq(expected.as_bytes())) {
                return ApiError::Domain(DomainError::Unauthorized).into_response();
            }
        }
    }
    match state.metrics.render(&state.domain).await {
        Ok(text) => {
            (StatusCode::OK, [(header::CONTENT_TYPE, HeaderValue::from_static(prometheus_text::CONTENT_TYPE))], text).into_response()
        }
        Err(e) => ApiError::Domain(e).into_response(),
    }
}
