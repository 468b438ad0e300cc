//! Sign-in and the endpoints a signed-out client needs.
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use subtle::ConstantTimeEq;
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::domain::{auth, demo, settings, users, DomainError};
use crate::http::dto::{ErrorBody, Ok as OkBody, ProfileBody};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AppQuery};
use crate::http::state::AppState;

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(status, config, dev_gate, demo_init_data, sign_in, logout))]
pub struct Doc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/status", get(status))
        .route("/config", get(config))
        .route("/dev-gate", post(dev_gate))
        .route("/dev/init-data", get(demo_init_data))
        .route("/auth", post(sign_in))
        .route("/auth/logout", post(logout))
}

#[derive(Serialize, ToSchema)]
pub struct StatusBody {
    maintenance: bool,
}

/// Whether maintenance is on.
#[utoipa::path(get, path = "/status", tag = "public", operation_id = "get_status", responses((status = 200, body = StatusBody)))]
pub async fn status(State(app): State<AppState>) -> Result<Json<StatusBody>, ApiError> {
    Ok(Json(StatusBody { maintenance: settings::maintenance(&app.domain).await? }))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfigBody {
    bot_username: String,
    invite_link_base: String,
    channel_url: String,
    community_url: String,
    terms_url: String,
    privacy_url: String,
    dev_gate: bool,
    demo: bool,
    withdraw_min_stars: i64,
    /// `WITHDRAW_PAID_ONLY`: whether a skin won with bonus tokens stays in the shop (keep or
    /// sell, not withdraw). The mini app says so before an open that would spend bonus tokens.
    withdraw_paid_only: bool,
    version: String,
}

/// What the mini app needs before sign-in.
#[utoipa::path(get, path = "/config", tag = "public", responses((status = 200, body = ConfigBody)))]
pub async fn config(State(app): State<AppState>) -> Json<ConfigBody> {
    let d = &app.domain.config;
    let c = &app.config;
    Json(ConfigBody {
        bot_username: d.bot_username.clone(),
        invite_link_base: format!("https://t.me/{}", d.bot_username),
        channel_url: c.channel_url.clone(),
        community_url: c.community_url.clone(),
        terms_url: c.terms_url.clone(),
        privacy_url: c.privacy_url.clone(),
        dev_gate: c.dev_gate_password.is_some(),
        demo: d.demo,
        withdraw_min_stars: d.withdraw_min_stars,
        withdraw_paid_only: d.withdraw_paid_only,
        version: env!("CARGO_PKG_VERSION").to_owned(),
    })
}

#[derive(Deserialize, ToSchema)]
pub struct Password {
    password: String,
}

/// How long a dev-gate proof is good for.
pub const DEV_GATE_PROOF_SECS: i64 = 3600;

/// The proof's key: the password and the bot token (in demo mode, the process's signing
/// secret), so every replica with the same configuration accepts it and nothing is stored;
/// changing the password ends every proof.
fn dev_gate_mac(app: &AppState, password: &str, expires_at: i64) -> Vec<u8> {
    use hmac::{Hmac, Mac};
    let mut key = Hmac::<sha2::Sha256>::new_from_slice(app.domain.config.bot_token.as_bytes()).expect("hmac accepts any key");
    key.update(b"fragbox dev gate\0");
    key.update(password.as_bytes());
    let key = key.finalize().into_bytes();
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&key).expect("hmac accepts any key");
    mac.update(expires_at.to_string().as_bytes());
    mac.finalize().into_bytes().to_vec()
}

/// With `DEV_GATE_PASSWORD` set, the request must carry a valid `X-Dev-Gate` proof.
pub fn require_dev_gate(app: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(password) = &app.config.dev_gate_password else { return Ok(()) };
    let proof = headers.get("x-dev-gate").and_then(|v| v.to_str().ok()).unwrap_or("");
    let now = app.domain.now();
    let valid = proof.split_once('.').is_some_and(|(exp, mac)| {
        let Ok(expires_at) = exp.parse::<i64>() else { return false };
        let Ok(mac) = hex::decode(mac) else { return false };
        expires_at > now
            && expires_at <= now + DEV_GATE_PROOF_SECS + 300
            && bool::from(mac.as_slice().ct_eq(&dev_gate_mac(app, password, expires_at)))
    });
    if valid {
        Ok(())
    } else {
        Err(DomainError::DevGateRequired.into())
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DevGatePassed {
    success: bool,
    /// Send it as `X-Dev-Gate` on `GET /dev/init-data` and `POST /auth`. Absent when no gate is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    proof: Option<String>,
    /// Unix seconds. Absent when no gate is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    expires_at: Option<i64>,
}

/// Checks the dev-gate password and hands out a short-lived proof of it.
#[utoipa::path(post, path = "/dev-gate", tag = "public", request_body = Password,
    responses((status = 200, body = DevGatePassed), (status = 403, description = "`wrong_password`", body = ErrorBody), (status = 429, description = "`rate_limited` (wrong guesses per address)", body = ErrorBody)))]
pub async fn dev_gate(State(app): State<AppState>, AppJson(body): AppJson<Password>) -> Result<Json<DevGatePassed>, ApiError> {
    let Some(expected) = &app.config.dev_gate_password else {
        return Ok(Json(DevGatePassed { success: true, proof: None, expires_at: None }));
    };
    let same: bool = body.password.as_bytes().ct_eq(expected.as_bytes()).into();
    if !same {
        return Err(DomainError::WrongPassword.into());
    }
    let expires_at = app.domain.now() + DEV_GATE_PROOF_SECS;
    let proof = format!("{expires_at}.{}", hex::encode(dev_gate_mac(&app, expected, expires_at)));
    Ok(Json(DevGatePassed { success: true, proof: Some(proof), expires_at: Some(expires_at) }))
}

#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct DemoQuery {
    /// A demo user's id to sign in again (any other value: a new demo user).
    demo_id: Option<i64>,
    /// Up to 512 of `[A-Za-z0-9_-]`.
    #[param(pattern = "^[A-Za-z0-9_-]{0,512}$")]
    start_param: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DemoInitData {
    init_data: String,
    demo_id: i64,
}

/// Demo mode only: signed init data for a demo user (404 `not_found` with a bot token).
#[utoipa::path(get, path = "/dev/init-data", tag = "public", params(DemoQuery), security((), ("devGate" = [])),
    responses((status = 200, body = DemoInitData), (status = 400, description = "`bad_request`", body = ErrorBody),
        (status = 403, description = "`dev_gate_required`", body = ErrorBody), (status = 404, description = "`not_found` (not demo mode)", body = ErrorBody)))]
pub async fn demo_init_data(
    State(app): State<AppState>,
    headers: HeaderMap,
    AppQuery(q): AppQuery<DemoQuery>,
) -> Result<Json<DemoInitData>, ApiError> {
    require_dev_gate(&app, &headers)?;
    let (init_data, id) = demo::init_data(&app.domain, q.demo_id, q.start_param.as_deref())?;
    Ok(Json(DemoInitData { init_data, demo_id: id }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignIn {
    init_data: String,
}

#[derive(Serialize, ToSchema)]
pub struct SignedIn {
    /// The bearer token for `Authorization: Bearer`.
    token: String,
    /// The profile, as `GET /me` answers it.
    user: ProfileBody,
}

/// Signs in with Telegram's init data; answers a bearer token.
#[utoipa::path(post, path = "/auth", tag = "public", request_body = SignIn, security((), ("devGate" = [])),
    responses((status = 200, body = SignedIn),
        (status = 401, description = "`invalid_init_data`, `init_data_expired`", body = ErrorBody),
        (status = 403, description = "`dev_gate_required`", body = ErrorBody)))]
pub async fn sign_in(State(app): State<AppState>, headers: HeaderMap, AppJson(body): AppJson<SignIn>) -> Result<Json<SignedIn>, ApiError> {
    require_dev_gate(&app, &headers)?;
    let (token, user_id) = auth::sign_in(&app.domain, &body.init_data).await?;
    let user = users::profile(&app.domain, user_id).await?.into();
    Ok(Json(SignedIn { token, user }))
}

/// Revokes the bearer token of the request (the mini app's logout).
#[utoipa::path(post, path = "/auth/logout", tag = "public", security(("bearer" = [])),
    responses((status = 200, body = OkBody)))]
pub async fn logout(State(app): State<AppState>, headers: axum::http::HeaderMap) -> Result<Json<OkBody>, ApiError> {
    let token = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
        .ok_or(DomainError::Unauthorized)?;
    auth::authenticate(&app.domain, token.trim()).await?;
    auth::revoke(&app.domain, token.trim()).await?;
    Ok(Json(OkBody::YES))
}
