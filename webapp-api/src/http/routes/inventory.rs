//! The player's skins: list, one, the public card, selling and withdrawing.
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::domain::inventory::{self, Item};
use crate::domain::{withdrawals, Tokens};
use crate::http::dto::{Data, ErrorBody, ItemBody};
use crate::http::error::{request_lang, ApiError};
use crate::http::extract::{AppJson, AppPath, AppQuery, AuthUser};
use crate::http::state::AppState;

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(list, one, withdraw, public, sell))]
pub struct Doc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/user/items", get(list))
        .route("/user/item/{id}", get(one))
        .route("/user/item/{id}/request-withdrawal", post(withdraw))
        .route("/items/{id}/public", get(public))
        .route("/sales/sell", post(sell))
}

/// `{success, item}`: one of the player's skins, or the public card of one.
#[derive(Serialize, ToSchema)]
pub struct OneItem<T> {
    success: bool,
    item: T,
}

/// What anyone may see of a shared skin: a projection of the item (no status, no delivery, the
/// owner's first name only).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicItem {
    id: i64,
    weapon_id: String,
    name: String,
    variant: String,
    market_hash_name: String,
    icon_url: String,
    rarity: String,
    condition: String,
    #[schema(value_type = f64)]
    token_price: Tokens,
    /// The owner's first name.
    owner: String,
    float: Option<f64>,
    exterior: Option<String>,
    stat_trak: bool,
    special: bool,
    wear_min: Option<f64>,
    wear_max: Option<f64>,
}

impl From<Item> for PublicItem {
    fn from(i: Item) -> PublicItem {
        PublicItem {
            id: i.id,
            weapon_id: i.weapon_id,
            name: i.name,
            variant: i.variant,
            market_hash_name: i.market_hash_name,
            icon_url: i.icon_url,
            rarity: i.rarity,
            condition: i.condition,
            token_price: i.token_price,
            owner: i.owner,
            float: i.float,
            exterior: i.exterior,
            stat_trak: i.stat_trak,
            special: i.special,
            wear_min: i.wear_min,
            wear_max: i.wear_max,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Requested {
    success: bool,
    /// The skin, now `pending`.
    item: ItemBody,
    withdrawal_id: i64,
}

/// The player's skins (sold ones are gone), newest first.
#[utoipa::path(get, path = "/user/items", tag = "inventory", operation_id = "list_items", security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<ItemBody>>)))]
pub async fn list(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Data<Vec<ItemBody>>>, ApiError> {
    let items = inventory::list(&app.domain, id, request_lang()).await?;
    Ok(Json(Data { data: items.into_iter().map(ItemBody::from).collect() }))
}

/// One of the player's skins.
#[utoipa::path(get, path = "/user/item/{id}", tag = "inventory", operation_id = "get_item", params(("id" = i64, Path, description = "Item id")), security(("bearer" = [])),
    responses((status = 200, body = OneItem<ItemBody>), (status = 400, description = "`bad_request`", body = ErrorBody), (status = 404, description = "`item_not_found`", body = ErrorBody)))]
pub async fn one(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppPath(item): AppPath<i64>,
) -> Result<Json<OneItem<ItemBody>>, ApiError> {
    Ok(Json(OneItem { success: true, item: inventory::item(&app.domain, id, item, request_lang()).await?.into() }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RefQuery {
    /// The owner's referral code, as the shared link carries it.
    #[serde(rename = "ref")]
    #[param(rename = "ref")]
    code: String,
}

/// The public card of a shared skin: only after its owner shared it, while it can be shown (not
/// sold or revoked) and with its owner's referral code; anything else is 404 `item_not_found`.
/// Limited per address (the one limited read).
#[utoipa::path(get, path = "/items/{id}/public", tag = "inventory", params(("id" = i64, Path, description = "Item id"), RefQuery),
    responses((status = 200, body = OneItem<PublicItem>), (status = 400, description = "`bad_request`", body = ErrorBody),
        (status = 404, description = "`item_not_found`", body = ErrorBody)))]
pub async fn public(
    State(app): State<AppState>,
    AppPath(item): AppPath<i64>,
    AppQuery(q): AppQuery<RefQuery>,
) -> Result<Json<OneItem<PublicItem>>, ApiError> {
    Ok(Json(OneItem { success: true, item: inventory::public(&app.domain, item, &q.code, request_lang()).await?.into() }))
}

#[derive(Deserialize, ToSchema)]
pub struct Sell {
    #[serde(deserialize_with = "crate::http::extract::int::required")]
    item_id: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SoldBody {
    success: bool,
    /// Tokens (decimal, at most 2 places).
    #[schema(value_type = f64)]
    tokens_awarded: Tokens,
    #[schema(value_type = f64)]
    balance: Tokens,
}

/// Sells a `received` or `error` skin back for tokens.
#[utoipa::path(post, path = "/sales/sell", tag = "inventory", request_body = Sell, security(("bearer" = [])),
    responses((status = 200, body = SoldBody), (status = 404, description = "`item_not_found` (not the player's)", body = ErrorBody),
        (status = 409, description = "`item_not_available` (the player's, but sold, pending, sent or revoked)", body = ErrorBody)))]
pub async fn sell(State(app): State<AppState>, AuthUser(id): AuthUser, AppJson(b): AppJson<Sell>) -> Result<Json<SoldBody>, ApiError> {
    let sold = inventory::sell(&app.domain, id, b.item_id).await?;
    Ok(Json(SoldBody { success: true, tokens_awarded: sold.tokens_awarded, balance: sold.balance }))
}

#[derive(Deserialize, ToSchema)]
pub struct Withdraw {
    #[schema(pattern = r"^https://steamcommunity\.com/tradeoffer/new/\?partner=[1-9][0-9]{0,8}&token=[A-Za-z0-9_-]{1,64}$")]
    trade_url: String,
}

/// Asks for a skin to be sent to a Steam trade link.
#[utoipa::path(post, path = "/user/item/{id}/request-withdrawal", tag = "inventory", params(("id" = i64, Path, description = "Item id")),
    request_body = Withdraw, security(("bearer" = [])),
    responses((status = 200, body = Requested), (status = 404, description = "`item_not_found` (not the player's)", body = ErrorBody),
        (status = 409, description = "`item_not_available` (the player's, but sold, pending, sent or revoked), `debt_outstanding`, `bonus_item` (won with bonus tokens), `deposit_required`", body = ErrorBody), (status = 422, description = "`invalid_trade_url`", body = ErrorBody)))]
pub async fn withdraw(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppPath(item): AppPath<i64>,
    AppJson(b): AppJson<Withdraw>,
) -> Result<Json<Requested>, ApiError> {
    let r = withdrawals::request(&app.domain, id, item, &b.trade_url, request_lang()).await?;
    Ok(Json(Requested { success: true, item: r.item.into(), withdrawal_id: r.withdrawal_id }))
}
