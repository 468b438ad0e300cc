//! Earning: daily reward and streak, channel subscription, referrals, sharing a skin.
use axum::extract::{Query, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::domain::{inventory, referrals, rewards};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AuthUser};
use crate::http::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/daily-reward/check", get(check))
        .route("/daily-reward/streak", get(streak))
        .route("/daily-reward/claim", post(claim))
        .route("/daily-reward/claim-streak-bonus", post(claim_bonus))
        .route("/subscription/check-subscription", post(subscription))
        .route("/user/referrals", get(referral_page))
        .route("/savePreparedInlineMessage", post(share))
}

async fn check(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": rewards::check(&app.domain, id).await? })))
}

async fn streak(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": rewards::streak(&app.domain, id).await? })))
}

async fn claim(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": rewards::claim_daily(&app.domain, id).await? })))
}

async fn claim_bonus(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": rewards::claim_streak_bonus(&app.domain, id).await? })))
}

async fn subscription(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": rewards::check_subscription(&app.domain, id).await? })))
}

#[derive(Deserialize)]
struct PageQuery {
    page: Option<i64>,
}

async fn referral_page(State(app): State<AppState>, AuthUser(id): AuthUser, Query(q): Query<PageQuery>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "data": referrals::page(&app.domain, id, q.page.unwrap_or(1)).await? })))
}

#[derive(Deserialize)]
struct Share {
    item_id: i64,
}

async fn share(State(app): State<AppState>, AuthUser(id): AuthUser, AppJson(b): AppJson<Share>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "id": inventory::share(&app.domain, id, b.item_id).await? })))
}
