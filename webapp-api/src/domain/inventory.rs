//! Won skins: listing, the public card of a shared skin, and selling back.
use serde::Serialize;

use crate::domain::clock::rfc3339;
use crate::domain::ledger::{self, Posted};
use crate::domain::store::{query, Exec};
use crate::domain::users::display_name;
use crate::domain::{store, Domain, DomainError, DomainResult, Tokens};

/// Selling pays this share (basis points) of an item's token price.
pub const SELL_BACK_RATE_BP: i64 = 10_000;

/// An inventory item as the mini app reads it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    pub id: i64,
    pub weapon_id: String,
    pub name: String,
    pub variant: String,
    pub icon_url: String,
    pub market_hash_name: String,
    pub token_price: Tokens,
    pub rarity: String,
    pub condition: String,
    pub status: String,
    /// Why a withdrawal failed (status `error`): one of `withdrawals::REASON_CODES`.
    pub status_reason_code: Option<String>,
    /// The operator's optional note with that code.
    pub status_reason: Option<String>,
    pub owner: String,
    pub case_id: Option<String>,
    pub opened_at: String,
}

/// What anyone may see of a shared skin.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PublicItem {
    pub id: i64,
    pub weapon_id: String,
    pub name: String,
    pub variant: String,
    pub market_hash_name: String,
    pub icon_url: String,
    pub rarity: String,
    pub condition: String,
    pub token_price: Tokens,
    pub owner: String,
}

const ITEM_COLUMNS: &str = "i.id, i.catalog_item_id, i.weapon, i.finish, i.image, i.token_price, i.rarity, i.condition,
    i.status, i.status_reason, u.first_name, u.last_name, u.username, i.case_id, i.created_at, i.status_reason_code";

type ItemRow = (
    i64,
    String,
    String,
    String,
    String,
    i64,
    String,
    String,
    String,
    Option<String>,
    String,
    String,
    Option<String>,
    Option<String>,
    i64,
    Option<String>,
);

fn to_item(r: ItemRow) -> Item {
    Item {
        id: r.0,
        weapon_id: r.1,
        market_hash_name: format!("{} | {}", r.2, r.3),
        name: r.2,
        variant: r.3,
        icon_url: r.4,
        token_price: Tokens(r.5),
        rarity: r.6,
        condition: r.7,
        status: r.8,
        status_reason: r.9,
        status_reason_code: r.15,
        owner: display_name(&r.10, &r.11, r.12.as_deref()),
        case_id: r.13,
        opened_at: rfc3339(r.14),
    }
}

/// One item of `user_id` (any status but sold or revoked), read inside the caller's connection.
pub async fn item_in(conn: &mut dyn Exec, user_id: i64, item_id: i64) -> DomainResult<Item> {
    let sql = format!(
        "SELECT {ITEM_COLUMNS} FROM inventory_items i JOIN users u ON u.id = i.user_id
         WHERE i.id = $1 AND i.user_id = $2 AND i.status NOT IN ('sold', 'revoked')"
    );
    let row: Option<ItemRow> = query(&sql).bind(item_id).bind(user_id).fetch_optional(conn).await?;
    row.map(to_item).ok_or(DomainError::ItemNotFound)
}

/// Whether `item_id` is (or was) one of `user_id`'s items, in any status.
pub async fn owns(conn: &mut dyn Exec, user_id: i64, item_id: i64) -> DomainResult<bool> {
    let row: Option<(i64,)> =
        query("SELECT id FROM inventory_items WHERE id = $1 AND user_id = $2").bind(item_id).bind(user_id).fetch_optional(conn).await?;
    Ok(row.is_some())
}

pub async fn item(domain: &Domain, user_id: i64, item_id: i64) -> DomainResult<Item> {
    let mut conn = domain.db.acquire().await?;
    item_in(&mut conn, user_id, item_id).await
}

/// The user's skins, newest first; sold and revoked ones are gone from the inventory.
pub async fn list(domain: &Domain, user_id: i64) -> DomainResult<Vec<Item>> {
    let sql = format!(
        "SELECT {ITEM_COLUMNS} FROM inventory_items i JOIN users u ON u.id = i.user_id
         WHERE i.user_id = $1 AND i.status NOT IN ('sold', 'revoked') ORDER BY i.id DESC LIMIT 1000"
    );
    let rows: Vec<ItemRow> = sqlx::query_as(&sql).bind(user_id).fetch_all(&domain.db).await?;
    Ok(rows.into_iter().map(to_item).collect())
}

/// The public card of a shared skin. Shown only while the skin can be shown (not sold, not
/// revoked) and only to a link that carries its owner's referral code, so ids cannot be walked:
/// anything else is `ItemNotFound`, whichever check failed. The API and the bot's deep link both
/// come here.
pub async fn public(domain: &Domain, item_id: i64, ref_code: &str) -> DomainResult<PublicItem> {
    if ref_code.is_empty() || ref_code.len() > 64 {
        return Err(DomainError::ItemNotFound);
    }
    let sql = format!(
        "SELECT {ITEM_COLUMNS} FROM inventory_items i JOIN users u ON u.id = i.user_id
         WHERE i.id = $1 AND i.status NOT IN ('sold', 'revoked') AND u.ref_code = $2"
    );
    let row: Option<ItemRow> = sqlx::query_as(&sql).bind(item_id).bind(ref_code).fetch_optional(&domain.db).await?;
    let r = row.ok_or(DomainError::ItemNotFound)?;
    let first = r.10.clone();
    let it = to_item(r);
    Ok(PublicItem {
        id: it.id,
        weapon_id: it.weapon_id,
        name: it.name,
        variant: it.variant,
        market_hash_name: it.market_hash_name,
        icon_url: it.icon_url,
        rarity: it.rarity,
        condition: it.condition,
        token_price: it.token_price,
        owner: if first.trim().is_empty() { "Player".into() } else { first },
    })
}

pub fn sell_price(token_price: Tokens) -> Tokens {
    Tokens(token_price.0 * SELL_BACK_RATE_BP / 10_000)
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sold {
    pub tokens_awarded: Tokens,
    pub balance: Tokens,
}

/// Sells a `received` or `error` item of the user: one transaction marks it sold, records the
/// sale and credits the ledger. Any other state, or someone else's item, changes nothing.
pub async fn sell(domain: &Domain, user_id: i64, item_id: i64) -> DomainResult<Sold> {
    let now = domain.now();
    domain.write(move |tx| Box::pin(sell_in(tx, user_id, item_id, now))).await
}

/// `sell` inside the caller's write.
async fn sell_in(tx: &mut dyn Exec, user_id: i64, item_id: i64, now: i64) -> DomainResult<Sold> {
    store::lock_users(tx, &[user_id]).await?;
    let row: Option<(i64, String)> = query("SELECT token_price, status FROM inventory_items WHERE id = $1 AND user_id = $2")
        .bind(item_id)
        .bind(user_id)
        .fetch_optional(tx)
        .await?;
    let (price, status) = row.ok_or(DomainError::ItemNotFound)?;
    if status != "received" && status != "error" {
        return Err(DomainError::ItemNotAvailable);
    }
    let amount = sell_price(Tokens(price));
    let changed = query("UPDATE inventory_items SET status = 'sold', updated_at = $1 WHERE id = $2 AND status IN ('received', 'error')")
        .bind(now)
        .bind(item_id)
        .execute(tx)
        .await?;
    if changed != 1 {
        return Err(DomainError::ItemNotAvailable);
    }
    query("INSERT INTO sales(user_id, inventory_item_id, amount, created_at) VALUES ($1, $2, $3, $4)")
        .bind(user_id)
        .bind(item_id)
        .bind(amount.0)
        .bind(now)
        .execute(tx)
        .await?;
    let balance = match ledger::post(tx, user_id, amount, "sell", &format!("sell:{item_id}"), now).await? {
        Posted::Applied(b) => b,
        Posted::Duplicate => return Err(DomainError::ItemNotAvailable),
    };
    Ok(Sold { tokens_awarded: amount, balance })
}

/// Prepares a message showing one of the user's skins for `shareMessage`; answers its id.
/// The button opens the skin in the mini app and carries the sharer's referral code.
pub async fn share(domain: &Domain, user_id: i64, item_id: i64) -> DomainResult<String> {
    let it = match item(domain, user_id, item_id).await {
        Ok(it) => it,
        Err(DomainError::ItemNotFound) => return Err(DomainError::ShareUnavailable),
        Err(e) => return Err(e),
    };
    let (code,): (String,) = sqlx::query_as("SELECT ref_code FROM users WHERE id = $1").bind(user_id).fetch_one(&domain.db).await?;
    let lang = crate::domain::users::language(domain, user_id).await;
    let ru = lang == crate::domain::lang::Lang::Ru;
    let photo_url = if it.icon_url.starts_with("https://") {
        Some(it.icon_url.clone())
    } else if domain.config.webapp_url.starts_with("https://") {
        Some(format!("{}{}", domain.config.webapp_url.trim_end_matches('/'), it.icon_url))
    } else {
        None
    };
    let skin = crate::domain::telegram::SharedSkin {
        user_id,
        result_id: format!("item{}{}", it.id, crate::domain::clock::random_hex(domain.random.as_ref(), 4)),
        title: it.market_hash_name.clone(),
        description: format!("{} · {} · {}", it.condition, it.rarity, it.token_price),
        photo_url,
        button_text: if ru { "Открыть в FragBox".into() } else { "Open in FragBox".into() },
        button_url: format!("https://t.me/{}?startapp=item_{}_ref{}", domain.config.bot_username, it.id, code),
    };
    domain.telegram.save_prepared_inline_message(skin).await.map_err(|e| {
        tracing::warn!(error = %e, "savePreparedInlineMessage failed");
        DomainError::TelegramUnavailable(e.to_string())
    })
}
