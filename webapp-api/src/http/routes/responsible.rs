//! Responsible play: the player's daily spend limit, self-exclusion and own statistics.
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{OpenApi, ToSchema};

use crate::domain::responsible::{self, Period};
use crate::domain::{DomainError, Tokens};
use crate::http::dto::{Answer, ErrorBody, ItemBody};
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
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    /// The daily spend limit in force, in tokens (null: none).
    #[schema(value_type = Option<f64>)]
    daily_limit: Option<Tokens>,
    /// A raise or removal waiting: the limit it sets (null: no limit) and when.
    pending_change: Option<PendingChange>,
    /// Tokens opens debited today (UTC day).
    #[schema(value_type = f64)]
    spent_today: Tokens,
    /// When today's spending starts again from zero (next 00:00 UTC, RFC 3339).
    day_resets_at: String,
    self_exclusion: SelfExclusion,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingChange {
    #[schema(value_type = Option<f64>)]
    daily_limit: Option<Tokens>,
    /// RFC 3339.
    effective_at: String,
}

#[derive(Serialize, ToSchema)]
pub struct SelfExclusion {
    active: bool,
    /// The end (RFC 3339); null while none runs or for a permanent one.
    until: Option<String>,
    permanent: bool,
}

impl From<responsible::Limits> for Limits {
    fn from(l: responsible::Limits) -> Limits {
        Limits {
            daily_limit: l.daily_limit,
            pending_change: l.pending_change.map(|p| PendingChange { daily_limit: p.daily_limit, effective_at: p.effective_at }),
            spent_today: l.spent_today,
            day_resets_at: l.day_resets_at,
            self_exclusion: SelfExclusion {
                active: l.self_exclusion.active,
                until: l.self_exclusion.until,
                permanent: l.self_exclusion.permanent,
            },
        }
    }
}

/// The player's own figures.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    cases_opened: i64,
    /// Tokens debited by opens.
    #[schema(value_type = f64)]
    tokens_spent: Tokens,
    /// Tokens credited by selling skins back.
    #[schema(value_type = f64)]
    tokens_won_back: Tokens,
    /// The most valuable skin the player ever dropped (null before the first open).
    best_drop: Option<ItemBody>,
}

impl From<responsible::Stats> for Stats {
    fn from(s: responsible::Stats) -> Stats {
        Stats {
            cases_opened: s.cases_opened,
            tokens_spent: s.tokens_spent,
            tokens_won_back: s.tokens_won_back,
            best_drop: s.best_drop.map(ItemBody::from),
        }
    }
}

/// The daily spend limit (with a waiting raise), today's spending and the self-exclusion.
#[utoipa::path(get, path = "/me/limits", tag = "responsible", security(("bearer" = [])),
    responses((status = 200, body = Answer<Limits>)))]
pub async fn limits(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Answer<Limits>>, ApiError> {
    Ok(Json(Answer::new(responsible::limits(&app.domain, id).await?.into())))
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
    responses((status = 200, body = Answer<Limits>), (status = 422, description = "`invalid_limit`", body = ErrorBody)))]
pub async fn set_limits(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<Value>,
) -> Result<Json<Answer<Limits>>, ApiError> {
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
    Ok(Json(Answer::new(responsible::set_daily_limit(&app.domain, id, limit).await?.into())))
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
    responses((status = 200, body = Answer<Limits>),
        (status = 409, description = "`self_exclusion_active` (with `until`)", body = ErrorBody)))]
pub async fn self_exclusion(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<SelfExclusionBody>,
) -> Result<Json<Answer<Limits>>, ApiError> {
    let period = Period::parse(&b.period).ok_or_else(|| DomainError::BadRequest("period must be 24h, 7d, 30d or permanent".into()))?;
    Ok(Json(Answer::new(responsible::self_exclude(&app.domain, id, period).await?.into())))
}

/// The player's own statistics: cases opened, tokens spent, tokens won back by selling, best drop.
#[utoipa::path(get, path = "/me/stats", tag = "responsible", security(("bearer" = [])),
    responses((status = 200, body = Answer<Stats>)))]
pub async fn stats(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Answer<Stats>>, ApiError> {
    Ok(Json(Answer::new(responsible::stats(&app.domain, id).await?.into())))
}
