//! Telegram Stars: packages, invoice links, transaction status, and demo mode's payment.
use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::domain::payments;
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AuthUser, OptionalJson};
use crate::http::AppState;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/payments/packages", get(packages))
        .route("/payments/create-invoice-link", post(create_invoice_link))
        .route("/payments/transaction-status/{id}", get(status))
        .route("/dev/pay/{id}", post(demo_pay))
}

async fn packages(State(app): State<AppState>) -> Json<Value> {
    Json(json!({ "data": payments::packages(&app.domain) }))
}

#[derive(Deserialize)]
struct CreateInvoice {
    pack_id: String,
    telegram_id: i64,
    init_data: String,
}

async fn create_invoice_link(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<CreateInvoice>,
) -> Result<Json<Value>, ApiError> {
    let created = payments::create_invoice(&app.domain, id, &b.pack_id, b.telegram_id, &b.init_data).await?;
    Ok(Json(json!({ "success": true, "invoice_link": created.invoice_link, "transaction_id": created.transaction_id })))
}

async fn status(State(app): State<AppState>, AuthUser(id): AuthUser, Path(tx): Path<String>) -> Result<Json<Value>, ApiError> {
    Ok(Json(json!({ "success": true, "status": payments::status(&app.domain, id, &tx).await? })))
}

async fn demo_pay(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    Path(tx): Path<String>,
    _body: OptionalJson<Value>,
) -> Result<Json<Value>, ApiError> {
    payments::demo_pay(&app.domain, id, &tx).await?;
    Ok(Json(json!({ "success": true, "status": payments::status(&app.domain, id, &tx).await? })))
}
