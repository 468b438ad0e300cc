//! Promo codes: a player redeems one for bonus tokens.
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use utoipa::{OpenApi, ToSchema};

use crate::domain::promo;
use crate::http::dto::{Answer, Awarded, ErrorBody};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AuthUser};
use crate::http::state::AppState;

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(redeem))]
pub struct Doc;

pub fn routes() -> Router<AppState> {
    Router::new().route("/promo/redeem", post(redeem))
}

#[derive(Deserialize, ToSchema)]
pub struct Redeem {
    /// The code, in any case (matched case-insensitively).
    #[schema(max_length = 64)]
    code: String,
}

/// Redeems a promo code: its tokens are credited as bonus tokens, once per player. Answers in the
/// daily claim's envelope: `{success, data: {tokensAwarded, balance}}`.
#[utoipa::path(post, path = "/promo/redeem", tag = "rewards", request_body = Redeem, security(("bearer" = [])),
    responses((status = 200, body = Answer<Awarded>),
        (status = 403, description = "`self_excluded` (with `until`)", body = ErrorBody),
        (status = 404, description = "`promo_not_found` (a disabled code too)", body = ErrorBody),
        (status = 409, description = "`promo_exhausted`, `promo_already_redeemed`, `deposit_required`", body = ErrorBody),
        (status = 410, description = "`promo_expired`", body = ErrorBody)))]
pub async fn redeem(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<Redeem>,
) -> Result<Json<Answer<Awarded>>, ApiError> {
    Ok(Json(Answer::new(promo::redeem(&app.domain, id, &b.code).await?.into())))
}
