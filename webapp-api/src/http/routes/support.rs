//! Support tickets. The lists are bare arrays, as the spec's client reads them.
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::domain::tickets::{self, NewTicket};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AuthUser, OptionalJson};
use crate::http::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/support/tickets", get(list).post(create))
        .route("/support/tickets/{id}", get(one))
        .route("/support/tickets/{id}/messages", get(messages).post(add_message))
        .route("/support/tickets/{id}/close", post(close))
}

async fn list(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(tickets::list(&app.domain, id).await?)))
}

#[derive(Deserialize)]
struct Create {
    theme: String,
    item_id: Option<i64>,
    title: Option<String>,
    #[serde(default)]
    message: String,
}

async fn create(State(app): State<AppState>, AuthUser(id): AuthUser, AppJson(b): AppJson<Create>) -> Result<Json<Value>, ApiError> {
    let new = NewTicket { theme: b.theme, item_id: b.item_id, title: b.title, message: b.message };
    Ok(Json(json!({ "success": true, "ticket": tickets::create(&app.domain, id, new).await? })))
}

async fn one(State(app): State<AppState>, AuthUser(id): AuthUser, Path(ticket): Path<i64>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(tickets::get(&app.domain, id, ticket).await?)))
}

async fn messages(State(app): State<AppState>, AuthUser(id): AuthUser, Path(ticket): Path<i64>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!(tickets::messages(&app.domain, id, ticket).await?)))
}

#[derive(Deserialize)]
struct NewMessage {
    #[serde(default)]
    message: String,
}

async fn add_message(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    Path(ticket): Path<i64>,
    AppJson(b): AppJson<NewMessage>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "message": tickets::add_message(&app.domain, id, ticket, &b.message).await? })))
}

async fn close(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    Path(ticket): Path<i64>,
    _b: OptionalJson<Value>,
) -> Result<Json<Value>, ApiError> {
    tickets::close(&app.domain, id, ticket).await?;
    Ok(Json(json!({ "success": true })))
}
