//! Provably fair: seeds, rotation, past opens and public verification.
use axum::extract::State;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::domain::fair;
use crate::http::dto::{ErrorBody, PageQuery};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AppQuery, AuthUser};
use crate::http::state::AppState;

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(state, client_seed, rotate, verify, opens))]
pub struct Doc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/fair", get(state))
        .route("/fair/client-seed", put(client_seed))
        .route("/fair/rotate", post(rotate))
        .route("/fair/verify", get(verify))
        .route("/fair/opens", get(opens))
}

/// The active seed's hash, the client seed, the nonce, and revealed seeds.
#[utoipa::path(get, path = "/fair", tag = "fair", security(("bearer" = [])),
    responses((status = 200, description = "`{success, data}`", body = Object), (status = 401, description = "`unauthorized`", body = ErrorBody)))]
pub async fn state(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": fair::state(&app.domain, id).await? })))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClientSeed {
    /// 1 to 64 of `[A-Za-z0-9_-]`.
    #[schema(pattern = "^[A-Za-z0-9_-]{1,64}$")]
    client_seed: String,
}

/// Reveals the active seed and starts a new one with this client seed.
#[utoipa::path(put, path = "/fair/client-seed", tag = "fair", request_body = ClientSeed, security(("bearer" = [])),
    responses((status = 200, description = "`{success, data}`", body = Object), (status = 400, description = "`bad_request`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody), (status = 415, description = "`unsupported_media_type`", body = ErrorBody),
        (status = 422, description = "`invalid_client_seed`", body = ErrorBody), (status = 429, description = "`rate_limited`", body = ErrorBody),
        (status = 503, description = "`maintenance`", body = ErrorBody)))]
pub async fn client_seed(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<ClientSeed>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": fair::rotate(&app.domain, id, Some(&b.client_seed)).await? })))
}

/// Reveals the active seed and starts a new one.
#[utoipa::path(post, path = "/fair/rotate", tag = "fair", security(("bearer" = [])),
    responses((status = 200, description = "`{success, data}`", body = Object), (status = 401, description = "`unauthorized`", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody), (status = 503, description = "`maintenance`", body = ErrorBody)))]
pub async fn rotate(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": fair::rotate(&app.domain, id, None).await? })))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VerifyQuery {
    server_seed: String,
    client_seed: String,
    nonce: i64,
    case_id: String,
}

/// Recomputes an open from its seeds (public).
#[utoipa::path(get, path = "/fair/verify", tag = "fair", params(VerifyQuery),
    responses((status = 200, description = "`{success, data}`", body = Object), (status = 400, description = "`bad_request`", body = ErrorBody),
        (status = 404, description = "`case_not_found`", body = ErrorBody), (status = 422, description = "`invalid_client_seed`", body = ErrorBody)))]
pub async fn verify(State(app): State<AppState>, AppQuery(q): AppQuery<VerifyQuery>) -> Result<Json<Value>, ApiError> {
    let v = fair::verify(&app.domain, &q.server_seed, &q.client_seed, q.nonce, &q.case_id)?;
    Ok(Json(json!({ "success": true, "data": v })))
}

/// The player's past opens, newest first, with what verifies them.
#[utoipa::path(get, path = "/fair/opens", tag = "fair", params(PageQuery), security(("bearer" = [])),
    responses((status = 200, description = "`{data}`", body = Object), (status = 400, description = "`bad_request`", body = ErrorBody),
        (status = 401, description = "`unauthorized`", body = ErrorBody)))]
pub async fn opens(State(app): State<AppState>, AuthUser(id): AuthUser, AppQuery(q): AppQuery<PageQuery>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "data": fair::opens(&app.domain, id, q.page()?).await? })))
}
