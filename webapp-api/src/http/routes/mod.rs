//! One file per area; `api()` is everything under `/api/v1`.
pub mod cases;
pub mod fair;
pub mod inventory;
pub mod payments;
pub mod public;
pub mod rewards;
pub mod support;
pub mod users;

use axum::Router;

use crate::http::AppState;

pub fn api() -> Router<AppState> {
    Router::new()
        .merge(public::routes())
        .merge(users::routes())
        .merge(cases::routes())
        .merge(fair::routes())
        .merge(inventory::routes())
        .merge(rewards::routes())
        .merge(payments::routes())
        .merge(support::routes())
}
