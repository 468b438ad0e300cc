//! The player's skins: list, one, the public card, selling and withdrawing.
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::domain::{inventory, withdrawals};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AuthUser};
use crate::http::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/user/items", get(list))
        .route("/user/item/{id}", get(one))
        .route("/user/item/{id}/request-withdrawal", post(withdraw))
        .route("/items/{id}/public", get(public))
        .route("/sales/sell", post(sell))
}

async fn list(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "data": inventory::list(&app.domain, id).await? })))
}

async fn one(State(app): State<AppState>, AuthUser(id): AuthUser, Path(item): Path<i64>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "item": inventory::item(&app.domain, id, item).await? })))
}

async fn public(State(app): State<AppState>, Path(item): Path<i64>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "item": inventory::public(&app.domain, item).await? })))
}

#[derive(Deserialize)]
struct Sell {
    item_id: i64,
}

async fn sell(State(app): State<AppState>, AuthUser(id): AuthUser, AppJson(b): AppJson<Sell>) -> Result<Json<Value>, ApiError> {
    let sold = inventory::sell(&app.domain, id, b.item_id).await?;
    Ok(Json(json!({ "success": true, "tokensAwarded": sold.tokens_awarded, "balance": sold.balance })))
}

#[derive(Deserialize)]
struct Withdraw {
    trade_url: String,
}

async fn withdraw(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    Path(item): Path<i64>,
    AppJson(b): AppJson<Withdraw>,
) -> Result<Json<Value>, ApiError> {
    let r = withdrawals::request(&app.domain, id, item, &b.trade_url).await?;
    Ok(Json(json!({ "success": true, "item": r.item, "withdrawalId": r.withdrawal_id })))
}
