//! Sign-in and the endpoints a signed-out client needs.
use axum::extract::{Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use subtle::ConstantTimeEq;

use crate::domain::{auth, demo, settings, users, DomainError};
use crate::http::error::ApiError;
use crate::http::extract::AppJson;
use crate::http::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/status", get(status))
        .route("/config", get(config))
        .route("/dev-gate", post(dev_gate))
        .route("/dev/init-data", get(demo_init_data))
        .route("/auth", post(sign_in))
        .route("/auth/logout", post(logout))
}

async fn status(State(app): State<AppState>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "maintenance": settings::maintenance(&app.domain).await? })))
}

async fn config(State(app): State<AppState>) -> Json<Value> {
    let d = &app.domain.config;
    let c = &app.config;
    Json(json!({
        "botUsername": d.bot_username,
        "inviteLinkBase": format!("https://t.me/{}", d.bot_username),
        "channelUrl": c.channel_url,
        "communityUrl": c.community_url,
        "termsUrl": c.terms_url,
        "privacyUrl": c.privacy_url,
        "devGate": c.dev_gate_password.is_some(),
        "demo": d.demo,
        "withdrawMinStars": d.withdraw_min_stars,
        "version": env!("CARGO_PKG_VERSION"),
    }))
}

#[derive(Deserialize)]
struct Password {
    password: String,
}

async fn dev_gate(State(app): State<AppState>, AppJson(body): AppJson<Password>) -> Result<Json<Value>, ApiError> {
    if let Some(expected) = &app.config.dev_gate_password {
        let same: bool = body.password.as_bytes().ct_eq(expected.as_bytes()).into();
        if !same {
            return Err(DomainError::WrongPassword.into());
        }
    }
    Ok(Json(json!({ "success": true })))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DemoQuery {
    demo_id: Option<i64>,
    start_param: Option<String>,
}

async fn demo_init_data(State(app): State<AppState>, Query(q): Query<DemoQuery>) -> Result<Json<Value>, ApiError> {
    let (init_data, id) = demo::init_data(&app.domain, q.demo_id, q.start_param.as_deref())?;
    Ok(Json(json!({ "initData": init_data, "demoId": id })))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SignIn {
    init_data: String,
}

async fn sign_in(State(app): State<AppState>, AppJson(body): AppJson<SignIn>) -> Result<Json<Value>, ApiError> {
    let (token, user_id) = auth::sign_in(&app.domain, &body.init_data).await?;
    let user = users::profile(&app.domain, user_id).await?;
    Ok(Json(json!({ "token": token, "user": user })))
}

/// Revokes the bearer token of the request (the mini app's logout).
async fn logout(State(app): State<AppState>, headers: axum::http::HeaderMap) -> Result<Json<Value>, ApiError> {
    let token = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .ok_or(DomainError::Unauthorized)?;
    auth::authenticate(&app.domain, token.trim()).await?;
    auth::revoke(&app.domain, token.trim()).await?;
    Ok(Json(json!({ "success": true })))
}
