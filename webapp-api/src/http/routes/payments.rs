//! Telegram Stars: packages, invoice links, transaction status, and demo mode's payment.
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{OpenApi, ToSchema};

use crate::domain::{catalog, payments};
use crate::http::dto::{Data, ErrorBody};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AppPath, AuthUser, OptionalJson};
use crate::http::state::AppState;

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(packages, create_invoice_link, status, demo_pay))]
pub struct Doc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/payments/packages", get(packages))
        .route("/payments/create-invoice-link", post(create_invoice_link))
        .route("/payments/transaction-status/{id}", get(status))
        .route("/dev/pay/{id}", post(demo_pay))
}

/// A token package for Stars.
#[derive(Serialize, ToSchema)]
pub struct Package {
    id: String,
    /// Whole tokens.
    tokens: i64,
    /// Whole bonus tokens on top.
    bonus: i64,
    stars: i64,
}

impl From<&catalog::Package> for Package {
    fn from(p: &catalog::Package) -> Package {
        Package { id: p.id.clone(), tokens: p.tokens, bonus: p.bonus, stars: p.stars }
    }
}

/// The token packages for Stars (needs a token, like every player endpoint).
#[utoipa::path(get, path = "/payments/packages", tag = "payments", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<Package>>)))]
pub async fn packages(State(app): State<AppState>, _user: AuthUser) -> Json<Data<Vec<Package>>> {
    Json(Data { data: payments::packages(&app.domain).iter().map(Package::from).collect() })
}

#[derive(Deserialize, ToSchema)]
pub struct CreateInvoice {
    pack_id: String,
    #[serde(deserialize_with = "crate::http::extract::int::required")]
    telegram_id: i64,
    init_data: String,
}

#[derive(Serialize, ToSchema)]
pub struct InvoiceCreated {
    success: bool,
    invoice_link: String,
    transaction_id: String,
}

/// Creates a Stars invoice link for a package (calls Telegram).
#[utoipa::path(post, path = "/payments/create-invoice-link", tag = "payments", request_body = CreateInvoice, security(("bearer" = [])),
    responses((status = 200, body = InvoiceCreated, links(
            ("status" = (operation_id = "transaction_status", parameters(("id" = "$response.body#/transaction_id")))),
            ("pay" = (operation_id = "demo_pay", parameters(("id" = "$response.body#/transaction_id")))))),
        (status = 401, description = "`unauthorized`, `invalid_init_data`, `init_data_expired`", body = ErrorBody),
        (status = 403, description = "`forbidden`, `self_excluded` (with `until`)", body = ErrorBody), (status = 404, description = "`pack_not_found`", body = ErrorBody),
        (status = 502, description = "`telegram_unavailable`", body = ErrorBody)))]
pub async fn create_invoice_link(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<CreateInvoice>,
) -> Result<Json<InvoiceCreated>, ApiError> {
    let created = payments::create_invoice(&app.domain, id, &b.pack_id, b.telegram_id, &b.init_data).await?;
    Ok(Json(InvoiceCreated { success: true, invoice_link: created.invoice_link, transaction_id: created.transaction_id }))
}

#[derive(Serialize, ToSchema)]
pub struct PaymentStatus {
    success: bool,
    /// `pending`, `success`, `failed` or `refunded`.
    status: String,
}

/// A payment's status.
#[utoipa::path(get, path = "/payments/transaction-status/{id}", tag = "payments", operation_id = "transaction_status", params(("id" = String, Path, description = "Transaction id")),
    security(("bearer" = [])),
    responses((status = 200, body = PaymentStatus),
        (status = 404, description = "`transaction_not_found`", body = ErrorBody)))]
pub async fn status(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppPath(tx): AppPath<String>,
) -> Result<Json<PaymentStatus>, ApiError> {
    Ok(Json(PaymentStatus { success: true, status: payments::status(&app.domain, id, &tx).await? }))
}

/// Demo mode only: pays a pending invoice (404 `not_found` with a bot token).
#[utoipa::path(post, path = "/dev/pay/{id}", tag = "payments", params(("id" = String, Path, description = "Transaction id")),
    security(("bearer" = [])),
    responses((status = 200, body = PaymentStatus), (status = 400, description = "`bad_request`", body = ErrorBody), (status = 403, description = "`self_excluded` (with `until`)", body = ErrorBody),
        (status = 404, description = "`not_found`, `transaction_not_found`", body = ErrorBody), (status = 409, description = "conflict", body = ErrorBody),
        (status = 503, description = "`maintenance` (a payment is a state change)", body = ErrorBody)))]
pub async fn demo_pay(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppPath(tx): AppPath<String>,
    _body: OptionalJson<Value>,
) -> Result<Json<PaymentStatus>, ApiError> {
    payments::demo_pay(&app.domain, id, &tx).await?;
    Ok(Json(PaymentStatus { success: true, status: payments::status(&app.domain, id, &tx).await? }))
}
