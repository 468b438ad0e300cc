//! One file per area; `api()` is everything under `/api/v1`.
mod cases;
mod fair;
mod inventory;
mod payments;
mod public;
mod rewards;
mod support;
mod users;

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
