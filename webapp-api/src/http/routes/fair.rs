//! Provably fair: seeds, rotation, past opens and public verification.
use axum::extract::{Query, State};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::domain::fair;
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AuthUser};
use crate::http::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/fair", get(state))
        .route("/fair/client-seed", put(client_seed))
        .route("/fair/rotate", post(rotate))
        .route("/fair/verify", get(verify))
        .route("/fair/opens", get(opens))
}

async fn state(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": fair::state(&app.domain, id).await? })))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClientSeed {
    client_seed: String,
}

async fn client_seed(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<ClientSeed>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": fair::rotate(&app.domain, id, Some(&b.client_seed)).await? })))
}

async fn rotate(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "data": fair::rotate(&app.domain, id, None).await? })))
}

#[derive(Deserialize)]
struct VerifyQuery {
    server_seed: String,
    client_seed: String,
    nonce: i64,
    case_id: String,
}

async fn verify(State(app): State<AppState>, Query(q): Query<VerifyQuery>) -> Result<Json<Value>, ApiError> {
    let v = fair::verify(&app.domain, &q.server_seed, &q.client_seed, q.nonce, &q.case_id)?;
    Ok(Json(json!({ "success": true, "data": v })))
}

#[derive(Deserialize)]
pub struct PageQuery {
    pub page: Option<i64>,
}

async fn opens(State(app): State<AppState>, AuthUser(id): AuthUser, Query(q): Query<PageQuery>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "data": fair::opens(&app.domain, id, q.page.unwrap_or(1)).await? })))
}
