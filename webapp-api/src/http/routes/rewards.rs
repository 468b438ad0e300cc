//! Earning: daily reward and streak, channel subscription, referrals, sharing a skin.
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::{OpenApi, ToSchema};

use crate::domain::{inventory, referrals, rewards};
use crate::http::dto::{ErrorBody, PageQuery};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AppQuery, AuthUser};
use crate::http::state::AppState;

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(check, streak, claim, claim_bonus, subscription, referral_page, share))]
pub struct Doc;

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

/// Whether today's reward can be claimed.
#[utoipa::path(get, path = "/daily-reward/check", tag = "rewards", security(("bearer" = [])),
    responses((status = 200, description = "`{success, data}`", body = Object), (status = 401, description = "`unauthorized`", body = ErrorBody)))]
pub async fn check(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": rewards::check(&app.domain, id).await? })))
}

/// The daily streak.
#[utoipa::path(get, path = "/daily-reward/streak", tag = "rewards", security(("bearer" = [])),
    responses((status = 200, description = "`{success, data}`", body = Object), (status = 401, description = "`unauthorized`", body = ErrorBody)))]
pub async fn streak(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": rewards::streak(&app.domain, id).await? })))
}

/// Claims today's reward.
#[utoipa::path(post, path = "/daily-reward/claim", tag = "rewards", security(("bearer" = [])),
    responses((status = 200, description = "`{success, data}`", body = Object), (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 409, description = "`already_claimed`", body = ErrorBody), (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 503, description = "`maintenance`", body = ErrorBody)))]
pub async fn claim(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": rewards::claim_daily(&app.domain, id).await? })))
}

/// Claims the streak bonus.
#[utoipa::path(post, path = "/daily-reward/claim-streak-bonus", tag = "rewards", security(("bearer" = [])),
    responses((status = 200, description = "`{success, data}`", body = Object), (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 409, description = "`bonus_not_available`", body = ErrorBody), (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 503, description = "`maintenance`", body = ErrorBody)))]
pub async fn claim_bonus(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": rewards::claim_streak_bonus(&app.domain, id).await? })))
}

/// Checks the channel subscription with Telegram and pays its reward once.
#[utoipa::path(post, path = "/subscription/check-subscription", tag = "rewards", security(("bearer" = [])),
    responses((status = 200, description = "`{success, data}`", body = Object), (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 409, description = "`already_claimed`", body = ErrorBody), (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 502, description = "`subscription_check_failed`", body = ErrorBody), (status = 503, description = "`maintenance`", body = ErrorBody)))]
pub async fn subscription(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": rewards::check_subscription(&app.domain, id).await? })))
}

/// The player's invitees and earnings, a page at a time.
#[utoipa::path(get, path = "/user/referrals", tag = "rewards", params(PageQuery), security(("bearer" = [])),
    responses((status = 200, description = "`{data}`", body = Object), (status = 400, description = "`bad_request`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody)))]
pub async fn referral_page(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppQuery(q): AppQuery<PageQuery>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "data": referrals::page(&app.domain, id, q.page()?).await? })))
}

#[derive(Deserialize, ToSchema)]
pub struct Share {
    #[serde(deserialize_with = "crate::http::extract::int::required")]
    item_id: i64,
}

#[derive(serde::Serialize, ToSchema)]
pub struct Prepared {
    success: bool,
    /// The prepared message's id for `shareMessage`.
    id: String,
}

/// Prepares a Telegram message showing one of the player's skins.
#[utoipa::path(post, path = "/savePreparedInlineMessage", tag = "rewards", request_body = Share, security(("bearer" = [])),
    responses((status = 200, body = Prepared), (status = 400, description = "`bad_request`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody), (status = 409, description = "`share_unavailable`", body = ErrorBody),
        (status = 415, description = "`unsupported_media_type`", body = ErrorBody), (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 502, description = "`telegram_unavailable`", body = ErrorBody), (status = 503, description = "`maintenance`", body = ErrorBody)))]
pub async fn share(State(app): State<AppState>, AuthUser(id): AuthUser, AppJson(b): AppJson<Share>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "id": inventory::share(&app.domain, id, b.item_id).await? })))
}
