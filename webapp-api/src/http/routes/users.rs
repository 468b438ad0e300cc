//! The signed-in player's profile, settings, trade link and agreement.
use axum::extract::State;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::Value;
use utoipa::{OpenApi, ToSchema};

use crate::domain::{users, DomainError};
use crate::http::dto::{ErrorBody, Ok as OkBody, ProfileBody, Success};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AuthUser, OptionalJson};
use crate::http::state::AppState;

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(me, settings, trade_url, set_trade_url, check_agreements, agree))]
pub struct Doc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/me", get(me))
        .route("/user/settings", put(settings))
        .route("/user/trade-url", get(trade_url).put(set_trade_url))
        .route("/user/check-agreements", get(check_agreements))
        .route("/user/agreements", post(agree))
}

/// The signed-in player's profile.
#[utoipa::path(get, path = "/me", tag = "users", security(("bearer" = [])),
    responses((status = 200, body = Success<ProfileBody>)))]
pub async fn me(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Success<ProfileBody>>, ApiError> {
    Ok(Json(Success::new(users::profile(&app.domain, id).await?.into())))
}

#[derive(Deserialize, ToSchema)]
pub struct Settings {
    /// `ru` or `en`.
    #[schema(pattern = "^(ru|en)$")]
    language: String,
}

/// Sets the player's language.
#[utoipa::path(put, path = "/user/settings", tag = "users", request_body = Settings, security(("bearer" = [])),
    responses((status = 200, body = OkBody),
        (status = 422, description = "`invalid_language`", body = ErrorBody)))]
pub async fn settings(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<Settings>,
) -> Result<Json<OkBody>, ApiError> {
    users::set_language(&app.domain, id, &b.language).await?;
    Ok(Json(OkBody::YES))
}

#[derive(serde::Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TradeUrlAnswer {
    success: bool,
    trade_url: Option<String>,
}

/// The player's saved Steam trade link (null when none).
#[utoipa::path(get, path = "/user/trade-url", tag = "users", security(("bearer" = [])),
    responses((status = 200, body = TradeUrlAnswer)))]
pub async fn trade_url(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<TradeUrlAnswer>, ApiError> {
    Ok(Json(TradeUrlAnswer { success: true, trade_url: users::trade_url(&app.domain, id).await? }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TradeUrlBody {
    #[schema(pattern = r"^https://steamcommunity\.com/tradeoffer/new/\?partner=[1-9][0-9]{0,8}&token=[A-Za-z0-9_-]{1,64}$")]
    trade_url: String,
}

/// Saves the player's Steam trade link.
#[utoipa::path(put, path = "/user/trade-url", tag = "users", request_body = TradeUrlBody, security(("bearer" = [])),
    responses((status = 200, body = TradeUrlAnswer),
        (status = 422, description = "`invalid_trade_url`", body = ErrorBody)))]
pub async fn set_trade_url(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<TradeUrlBody>,
) -> Result<Json<TradeUrlAnswer>, ApiError> {
    let url = users::set_trade_url(&app.domain, id, &b.trade_url).await?;
    Ok(Json(TradeUrlAnswer { success: true, trade_url: Some(url.to_string()) }))
}

#[derive(serde::Serialize, ToSchema)]
pub struct Agreed {
    success: bool,
    agreed: bool,
    /// The player confirmed they are 18 or older (asked beside the terms).
    adult: bool,
}

impl From<users::Agreement> for Agreed {
    fn from(a: users::Agreement) -> Agreed {
        Agreed { success: true, agreed: a.agreed, adult: a.adult }
    }
}

/// Whether the player accepted the terms and confirmed they are 18 or older.
#[utoipa::path(get, path = "/user/check-agreements", tag = "users", security(("bearer" = [])),
    responses((status = 200, body = Agreed)))]
pub async fn check_agreements(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Agreed>, ApiError> {
    Ok(Json(users::agreement(&app.domain, id).await?.into()))
}

/// The documented body; the handler reads it from any JSON (older clients send `{}` or nothing).
#[derive(Deserialize, ToSchema)]
#[allow(dead_code)]
pub struct AgreementBody {
    /// `true`: the player confirms they are 18 or older (recorded once).
    #[serde(default)]
    #[schema(nullable = false)]
    adult: Option<bool>,
}

/// Records that the player accepted the terms and, with `{"adult": true}`, that they are 18 or
/// older. The body is optional (an empty or absent one agrees to the terms only) but must be JSON.
#[utoipa::path(post, path = "/user/agreements", tag = "users", request_body = Option<AgreementBody>, security(("bearer" = [])),
    responses((status = 200, body = Agreed)))]
pub async fn agree(State(app): State<AppState>, AuthUser(id): AuthUser, body: OptionalJson<Value>) -> Result<Json<Agreed>, ApiError> {
    // None, `{}` or an object with a boolean `adult`; `"adult": false` leaves the confirmation as it was.
    let adult = match &body.0 {
        Value::Null => false,
        Value::Object(o) => match o.get("adult") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(DomainError::BadRequest("adult must be true or false".into()).into()),
        },
        _ => return Err(DomainError::BadRequest("the body must be a JSON object".into()).into()),
    };
    Ok(Json(users::agree(&app.domain, id, adult).await?.into()))
}
