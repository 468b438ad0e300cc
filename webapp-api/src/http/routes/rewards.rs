//! Earning: daily reward and streak, channel subscription, referrals, sharing a skin.
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::domain::{inventory, referrals, rewards, Tokens};
use crate::http::dto::{Answer, Awarded, Data, ErrorBody, PageQuery};
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
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Check {
    available: bool,
    /// RFC 3339.
    next_claim_at: String,
}

impl From<rewards::Check> for Check {
    fn from(c: rewards::Check) -> Check {
        Check { available: c.available, next_claim_at: c.next_claim_at }
    }
}

/// The daily streak.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Streak {
    current_streak: i64,
    has_streak: bool,
    /// The last claim's day (`YYYY-MM-DD`), null before the first.
    last_claim: Option<String>,
    next_reward_available: bool,
    can_claim_bonus: bool,
    bonus_already_claimed: bool,
    /// Tokens the streak bonus pays.
    #[schema(value_type = f64)]
    streak_bonus_tokens: Tokens,
    streak_days: Vec<StreakDay>,
}

/// One day of the streak's cycle.
#[derive(Serialize, ToSchema)]
pub struct StreakDay {
    /// `YYYY-MM-DD`.
    date: String,
    claimed: bool,
}

impl From<rewards::Streak> for Streak {
    fn from(s: rewards::Streak) -> Streak {
        Streak {
            current_streak: s.current_streak,
            has_streak: s.has_streak,
            last_claim: s.last_claim,
            next_reward_available: s.next_reward_available,
            can_claim_bonus: s.can_claim_bonus,
            bonus_already_claimed: s.bonus_already_claimed,
            streak_bonus_tokens: s.streak_bonus_tokens,
            streak_days: s.streak_days.into_iter().map(|d| StreakDay { date: d.date, claimed: d.claimed }).collect(),
        }
    }
}

/// The channel check's outcome.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    subscribed: bool,
    /// Tokens paid by this check (0 when not subscribed).
    #[schema(value_type = f64)]
    tokens_awarded: Tokens,
}

impl From<rewards::Subscription> for Subscription {
    fn from(s: rewards::Subscription) -> Subscription {
        Subscription { subscribed: s.subscribed, tokens_awarded: s.tokens_awarded }
    }
}

/// The player's invitees and earnings, one page.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReferralPage {
    referral_code: String,
    invite_link: String,
    stats: ReferralStats,
    referrals: Vec<Referral>,
    pagination: Pagination,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReferralStats {
    invited_count: i64,
    /// Invitees who opened a case.
    active_users: i64,
    #[schema(value_type = f64)]
    total_earned: Tokens,
}

/// One invitee.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Referral {
    telegram_id: i64,
    first_name: String,
    last_name: String,
    username: Option<String>,
    avatar_url: Option<String>,
    /// RFC 3339.
    joined_at: String,
    /// RFC 3339; null before their first open.
    first_case_opened_at: Option<String>,
    #[schema(value_type = f64)]
    tokens_earned: Tokens,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    page: i64,
    limit: i64,
    total: i64,
    total_pages: i64,
}

impl From<referrals::ReferralPage> for ReferralPage {
    fn from(p: referrals::ReferralPage) -> ReferralPage {
        ReferralPage {
            referral_code: p.referral_code,
            invite_link: p.invite_link,
            stats: ReferralStats {
                invited_count: p.stats.invited_count,
                active_users: p.stats.active_users,
                total_earned: p.stats.total_earned,
            },
            referrals: p
                .referrals
                .into_iter()
                .map(|r| Referral {
                    telegram_id: r.telegram_id,
                    first_name: r.first_name,
                    last_name: r.last_name,
                    username: r.username,
                    avatar_url: r.avatar_url,
                    joined_at: r.joined_at,
                    first_case_opened_at: r.first_case_opened_at,
                    tokens_earned: r.tokens_earned,
                })
                .collect(),
            pagination: Pagination {
                page: p.pagination.page,
                limit: p.pagination.limit,
                total: p.pagination.total,
                total_pages: p.pagination.total_pages,
            },
        }
    }
}

/// Whether today's reward can be claimed.
#[utoipa::path(get, path = "/daily-reward/check", tag = "rewards", security(("bearer" = [])),
    responses((status = 200, body = Answer<Check>)))]
pub async fn check(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Answer<Check>>, ApiError> {
    Ok(Json(Answer::new(rewards::check(&app.domain, id).await?.into())))
}

/// The daily streak.
#[utoipa::path(get, path = "/daily-reward/streak", tag = "rewards", security(("bearer" = [])),
    responses((status = 200, body = Answer<Streak>)))]
pub async fn streak(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Answer<Streak>>, ApiError> {
    Ok(Json(Answer::new(rewards::streak(&app.domain, id).await?.into())))
}

/// Claims today's reward.
#[utoipa::path(post, path = "/daily-reward/claim", tag = "rewards", security(("bearer" = [])),
    responses((status = 200, body = Answer<Awarded>),
        (status = 409, description = "`already_claimed`", body = ErrorBody)))]
pub async fn claim(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Answer<Awarded>>, ApiError> {
    Ok(Json(Answer::new(rewards::claim_daily(&app.domain, id).await?.into())))
}

/// Claims the streak bonus.
#[utoipa::path(post, path = "/daily-reward/claim-streak-bonus", tag = "rewards", security(("bearer" = [])),
    responses((status = 200, body = Answer<Awarded>),
        (status = 409, description = "`bonus_not_available`", body = ErrorBody)))]
pub async fn claim_bonus(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Answer<Awarded>>, ApiError> {
    Ok(Json(Answer::new(rewards::claim_streak_bonus(&app.domain, id).await?.into())))
}

/// Checks the channel subscription with Telegram and pays its reward once.
#[utoipa::path(post, path = "/subscription/check-subscription", tag = "rewards", security(("bearer" = [])),
    responses((status = 200, body = Answer<Subscription>),
        (status = 409, description = "`already_claimed`", body = ErrorBody),
        (status = 502, description = "`subscription_check_failed`", body = ErrorBody)))]
pub async fn subscription(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Answer<Subscription>>, ApiError> {
    Ok(Json(Answer::new(rewards::check_subscription(&app.domain, id).await?.into())))
}

/// The player's invitees and earnings, a page at a time.
#[utoipa::path(get, path = "/user/referrals", tag = "rewards", params(PageQuery), security(("bearer" = [])),
    responses((status = 200, body = Data<ReferralPage>), (status = 400, description = "`bad_request`", body = ErrorBody)))]
pub async fn referral_page(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppQuery(q): AppQuery<PageQuery>,
) -> Result<Json<Data<ReferralPage>>, ApiError> {
    Ok(Json(Data { data: referrals::page(&app.domain, id, q.page()?).await?.into() }))
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
    responses((status = 200, body = Prepared), (status = 409, description = "`share_unavailable`", body = ErrorBody),
        (status = 502, description = "`telegram_unavailable`", body = ErrorBody)))]
pub async fn share(State(app): State<AppState>, AuthUser(id): AuthUser, AppJson(b): AppJson<Share>) -> Result<Json<Prepared>, ApiError> {
    Ok(Json(Prepared { success: true, id: inventory::share(&app.domain, id, b.item_id).await? }))
}
