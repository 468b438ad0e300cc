//! The signed-in player's profile, settings, trade link and agreement.
use axum::extract::State;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::domain::users;
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AuthUser, OptionalJson};
use crate::http::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/me", get(me))
        .route("/user/settings", put(settings))
        .route("/user/trade-url", get(trade_url).put(set_trade_url))
        .route("/user/check-agreements", get(check_agreements))
        .route("/user/agreements", post(agree))
}

async fn me(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "status": "success", "data": users::profile(&app.domain, id).await? })))
}

#[derive(Deserialize)]
struct Settings {
    language: String,
}

async fn settings(State(app): State<AppState>, AuthUser(id): AuthUser, AppJson(b): AppJson<Settings>) -> Result<Json<Value>, ApiError> {
    users::set_language(&app.domain, id, &b.language).await?;
    Ok(Json(json!({ "success": true })))
}

async fn trade_url(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "tradeUrl": users::trade_url(&app.domain, id).await? })))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TradeUrlBody {
    trade_url: String,
}

async fn set_trade_url(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<TradeUrlBody>,
) -> Result<Json<Value>, ApiError> {
    let url = users::set_trade_url(&app.domain, id, &b.trade_url).await?;
    Ok(Json(json!({ "success": true, "tradeUrl": url.to_string() })))
}

async fn check_agreements(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "agreed": users::has_agreed(&app.domain, id).await? })))
}

async fn agree(State(app): State<AppState>, AuthUser(id): AuthUser, _body: OptionalJson<Value>) -> Result<Json<Value>, ApiError> {
    users::agree(&app.domain, id).await?;
    Ok(Json(json!({ "success": true, "agreed": true })))
}
