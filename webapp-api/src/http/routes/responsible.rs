//! Responsible play: the player's daily spend limit, self-exclusion and own statistics.
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::{OpenApi, ToSchema};

use crate::domain::responsible::{self, Period};
use crate::domain::{DomainError, Tokens};
use crate::http::dto::ErrorBody;
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AuthUser};
use crate::http::state::AppState;

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(limits, set_limits, self_exclusion, stats))]
pub struct Doc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/me/limits", get(limits).put(set_limits))
        .route("/me/self-exclusion", post(self_exclusion))
        .route("/me/stats", get(stats))
}

/// The daily spend limit (with a waiting raise), today's spending and the self-exclusion.
#[utoipa::path(get, path = "/me/limits", tag = "responsible", security(("bearer" = [])),
    responses((status = 200, description = "`{success, data: {dailyLimit, pendingChange, spentToday, dayResetsAt, selfExclusion: {active, until, permanent}}}`", body = Object),
        (status = 401, description = "`unauthorized`", body = ErrorBody)))]
pub async fn limits(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": responsible::limits(&app.domain, id).await? })))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetLimits {
    /// Tokens per UTC day, a whole number from 1; null removes the limit. Lowering takes effect
    /// at once; raising or removing after 24 hours.
    #[schema(value_type = Option<i64>, required = true, nullable, minimum = 1, maximum = 10000000)]
    #[allow(dead_code)]
    daily_limit: Option<i64>,
}

/// Sets or removes the daily spend limit: lower at once, higher or none after 24 hours.
#[utoipa::path(put, path = "/me/limits", tag = "responsible", request_body = SetLimits, security(("bearer" = [])),
    responses((status = 200, description = "`{success, data: limits}` as `GET /me/limits`", body = Object),
        (status = 400, description = "`bad_request`", body = ErrorBody), (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 415, description = "`unsupported_media_type`", body = ErrorBody), (status = 422, description = "`invalid_limit`", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody), (status = 503, description = "`maintenance`", body = ErrorBody)))]
pub async fn set_limits(State(app): State<AppState>, AuthUser(id): AuthUser, AppJson(b): AppJson<Value>) -> Result<Json<Value>, ApiError> {
    // `dailyLimit` must be there: `null` removes the limit, a missing field is a mistake.
    let Value::Object(body) = &b else { return Err(DomainError::BadRequest("the body must be a JSON object".into()).into()) };
    let limit = match body.get("dailyLimit") {
        None => return Err(DomainError::BadRequest("dailyLimit is required (null removes the limit)".into()).into()),
        Some(Value::Null) => None,
        Some(v) => Some(
            v.as_i64()
                .filter(|n| (1..=responsible::MAX_DAILY_LIMIT.0 / 100).contains(n))
                .map(Tokens::whole)
                .ok_or(DomainError::InvalidLimit)?,
        ),
    };
    Ok(Json(json!({ "success": true, "data": responsible::set_daily_limit(&app.domain, id, limit).await? })))
}

#[derive(Deserialize, ToSchema)]
pub struct SelfExclusionBody {
    /// How long: `24h`, `7d`, `30d` or `permanent` (a permanent one is lifted only by an admin).
    #[schema(pattern = "^(24h|7d|30d|permanent)$")]
    period: String,
}

/// Starts a self-exclusion (a break from opens, purchases and promo codes). It cannot be
/// shortened: one ending before the running one answers `409 self_exclusion_active`.
#[utoipa::path(post, path = "/me/self-exclusion", tag = "responsible", request_body = SelfExclusionBody, security(("bearer" = [])),
    responses((status = 200, description = "`{success, data: limits}` as `GET /me/limits`", body = Object),
        (status = 400, description = "`bad_request`", body = ErrorBody), (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 409, description = "`self_exclusion_active` (with `until`)", body = ErrorBody),
        (status = 415, description = "`unsupported_media_type`", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody), (status = 503, description = "`maintenance`", body = ErrorBody)))]
pub async fn self_exclusion(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<SelfExclusionBody>,
) -> Result<Json<Value>, ApiError> {
    let period = Period::parse(&b.period).ok_or_else(|| DomainError::BadRequest("period must be 24h, 7d, 30d or permanent".into()))?;
    Ok(Json(json!({ "success": true, "data": responsible::self_exclude(&app.domain, id, period).await? })))
}

/// The player's own statistics: cases opened, tokens spent, tokens won back by selling, best drop.
#[utoipa::path(get, path = "/me/stats", tag = "responsible", security(("bearer" = [])),
    responses((status = 200, description = "`{success, data: {casesOpened, tokensSpent, tokensWonBack, bestDrop}}`", body = Object),
        (status = 401, description = "`unauthorized`", body = ErrorBody)))]
pub async fn stats(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": responsible::stats(&app.domain, id).await? })))
}
