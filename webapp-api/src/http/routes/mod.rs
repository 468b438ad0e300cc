//! One file per area, each with its routes and its part of the OpenAPI document; `api()` is
//! everything under `/api/v1`.
pub mod cases;
pub mod fair;
pub mod feed;
pub mod inventory;
pub mod payments;
pub mod promo;
pub mod public;
pub mod responsible;
pub mod rewards;
pub mod support;
pub mod users;

use axum::routing::get;
use axum::Router;
use utoipa::OpenApi;

use crate::http::openapi::{self, Document};
use crate::http::state::AppState;

/// The OpenAPI document of every route under `/api/v1`, as `GET /api/v1/openapi.json` serves it
/// and `fragbox openapi` prints it (the mini app's types are generated from it).
pub fn document() -> Document {
    Document::build([
        public::Doc::openapi(),
        users::Doc::openapi(),
        cases::Doc::openapi(),
        fair::Doc::openapi(),
        inventory::Doc::openapi(),
        rewards::Doc::openapi(),
        payments::Doc::openapi(),
        support::Doc::openapi(),
        feed::Doc::openapi(),
        promo::Doc::openapi(),
        responsible::Doc::openapi(),
    ])
}

/// Every route under `/api/v1`, and the OpenAPI document that describes them.
pub fn api() -> Router<AppState> {
    Router::new()
        .route("/openapi.json", get(openapi::document_endpoint).with_state(document()))
        .merge(public::routes())
        .merge(users::routes())
        .merge(cases::routes())
        .merge(fair::routes())
        .merge(inventory::routes())
        .merge(rewards::routes())
        .merge(payments::routes())
        .merge(support::routes())
        .merge(feed::routes())
        .merge(promo::routes())
        .merge(responsible::routes())
}
