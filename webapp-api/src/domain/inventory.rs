//! Won skins: listing, the public card of a shared skin, and selling back.

use crate::domain::catalog::Catalog;
use crate::domain::clock::rfc3339;
use crate::domain::lang::Lang;
use crate::domain::ledger::{self, Funds, Posted};
use crate::domain::store::{query, Exec};
use crate::domain::users::display_name;
use crate::domain::{store, Domain, DomainError, DomainResult, Tokens};

/// Selling pays this share (basis points) of an item's token price.
pub const SELL_BACK_RATE_BP: i64 = 10_000;

/// An inventory item as the mini app reads it.
#[derive(Clone, Debug)]
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
    /// The drawn float; `None` for a vanilla ★ knife and for skins from before real goods.
    pub float: Option<f64>,
    /// Steam's exterior name (`Field-Tested`); `None` as for `float`.
    pub exterior: Option<String>,
    pub stat_trak: bool,
    /// A ★ knife or gloves.
    pub special: bool,
    /// The skin's float range (for the wear bar); `None` for a vanilla knife or an old skin.
    pub wear_min: Option<f64>,
    pub wear_max: Option<f64>,
    /// False for a skin won with bonus tokens while only paid value may leave: it can be kept
    /// and sold, not withdrawn.
    pub withdrawable: bool,
    /// Automatic delivery of its latest withdrawal, when a market handles it: `queued`,
    /// `buying`, `bought`, `offer_sent` (accept the offer in Steam), `settling`, `settled`,
    /// `bounced`, `reversed`, `player_reversed`, `manual`; `None` for a manual withdrawal or none.
    pub delivery_state: Option<String>,
    /// Bonus tokens the open spent on it (0: won with paid tokens only).
    pub bonus_cost: i64,
}

impl Item {
    /// Names in the player's language, and the wear range, from the catalog (rows keep the
    /// English names the Steam market uses).
    pub fn localize(&mut self, catalog: &Catalog, lang: Lang) {
        let Some(skin) = catalog.item(&self.weapon_id) else { return };
        self.special = skin.rarity == "extraordinary";
        self.wear_min = skin.wear_min;
        self.wear_max = skin.wear_max;
        if lang == Lang::Ru {
            self.name = skin.weapon_ru.clone();
            self.variant = skin.finish_ru.clone();
        }
    }
}

const ITEM_COLUMNS: &str = "i.id, i.catalog_item_id, i.weapon, i.finish, i.image, i.token_price, i.rarity, i.condition,
    i.status, i.status_reason, u.first_name, u.last_name, u.username, i.case_id, i.created_at, i.status_reason_code,
    i.float, i.exterior, i.stat_trak, i.market_hash_name, i.bonus_cost,
    (SELECT w.market_state FROM withdrawals w WHERE w.inventory_item_id = i.id ORDER BY w.id DESC LIMIT 1)";

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
    Option<f64>,
    Option<String>,
    i64,
    Option<String>,
    i64,
    Option<String>,
);

fn to_item(r: ItemRow) -> Item {
    let (float, exterior, stat_trak, market_hash_name, bonus_cost) = (r.16, r.17, r.18 != 0, r.19, r.20);
    Item {
        id: r.0,
        weapon_id: r.1,
        // Skins from before real goods have no Steam name of their own.
        market_hash_name: market_hash_name.unwrap_or_else(|| format!("{} | {}", r.2, r.3)),
        name: r.2,
        variant: r.3,
        // Rows won while pictures came from the CDN hold its absolute URL: served by the shop too.
        icon_url: crate::domain::pictures::served_path(&r.4),
        token_price: Tokens(r.5),
        rarity: r.6,
        condition: r.7,
        status: r.8,
        status_reason: r.9,
        status_reason_code: r.15,
        owner: display_name(&r.10, &r.11, r.12.as_deref()),
        case_id: r.13,
        opened_at: rfc3339(r.14),
        float,
        exterior,
        stat_trak,
        special: false,
        wear_min: None,
        wear_max: None,
        withdrawable: bonus_cost == 0,
        delivery_state: r.21,
        bonus_cost,
    }
}

/// The item as a player reads it: names in `lang`, and every skin withdrawable when the shop
/// lets bonus-won skins leave (`WITHDRAW_PAID_ONLY=false`).
pub fn present(mut item: Item, catalog: &Catalog, lang: Lang, paid_only: bool) -> Item {
    item.localize(catalog, lang);
    if !paid_only {
        item.withdrawable = true;
    }
    item
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

/// The most valuable skin `user_id` ever dropped from a case, in any status (sold too), or `None`
/// before the first open: the player's own statistics show it.
pub async fn best_drop(conn: &mut dyn Exec, user_id: i64) -> DomainResult<Option<Item>> {
    let sql = format!(
        "SELECT {ITEM_COLUMNS} FROM inventory_items i JOIN users u ON u.id = i.user_id
         WHERE i.user_id = $1 AND i.open_id IS NOT NULL ORDER BY i.token_price DESC, i.id ASC LIMIT 1"
    );
    let row: Option<ItemRow> = query(&sql).bind(user_id).fetch_optional(conn).await?;
    Ok(row.map(to_item))
}

/// Whether `item_id` is (or was) one of `user_id`'s items, in any status.
pub async fn owns(conn: &mut dyn Exec, user_id: i64, item_id: i64) -> DomainResult<bool> {
    let row: Option<(i64,)> =
        query("SELECT id FROM inventory_items WHERE id = $1 AND user_id = $2").bind(item_id).bind(user_id).fetch_optional(conn).await?;
    Ok(row.is_some())
}

pub async fn item(domain: &Domain, user_id: i64, item_id: i64, lang: Lang) -> DomainResult<Item> {
    let item = domain.read(move |c| Box::pin(item_in(c, user_id, item_id))).await?;
    Ok(present(item, &domain.catalog, lang, domain.config.withdraw_paid_only))
}

/// The list's query: its condition is the `inventory_live` index's own (migration 0015), which
/// on SQLite also carries every column it reads, so the list is read from that index alone.
pub(crate) fn list_sql() -> String {
    format!(
        "SELECT {ITEM_COLUMNS} FROM inventory_items i JOIN users u ON u.id = i.user_id
         WHERE i.user_id = $1 AND i.status NOT IN ('sold', 'revoked') ORDER BY i.id DESC LIMIT 1000"
    )
}

/// The user's skins, newest first; sold and revoked ones are gone from the inventory.
pub async fn list(domain: &Domain, user_id: i64, lang: Lang) -> DomainResult<Vec<Item>> {
    let sql = list_sql();
    let rows: Vec<ItemRow> = domain.read(move |c| Box::pin(async move { query(&sql).bind(user_id).fetch_all(c).await })).await?;
    Ok(rows.into_iter().map(|r| present(to_item(r), &domain.catalog, lang, domain.config.withdraw_paid_only)).collect())
}

/// The public card of a shared skin. Shown only after its owner shared it (the share action
/// marks it), while it can be shown (not sold, not revoked), and only to a link that carries
/// its owner's referral code: an invite link cannot walk the owner's other skins, and anything
/// else is `ItemNotFound`, whichever check failed. The API and the bot's deep link both come here.
/// Answers the item with its owner's first name only; the HTTP edge projects the card's fields.
pub async fn public(domain: &Domain, item_id: i64, ref_code: &str, lang: Lang) -> DomainResult<Item> {
    if ref_code.is_empty() || ref_code.len() > 64 {
        return Err(DomainError::ItemNotFound);
    }
    let sql = format!(
        "SELECT {ITEM_COLUMNS} FROM inventory_items i JOIN users u ON u.id = i.user_id
         WHERE i.id = $1 AND i.status NOT IN ('sold', 'revoked') AND u.ref_code = $2 AND i.shared_at IS NOT NULL"
    );
    let ref_code = ref_code.to_owned();
    let row: Option<ItemRow> =
        domain.read(move |c| Box::pin(async move { query(&sql).bind(item_id).bind(ref_code).fetch_optional(c).await })).await?;
    let r = row.ok_or(DomainError::ItemNotFound)?;
    let first = r.10.clone();
    let it = present(to_item(r), &domain.catalog, lang, true);
    // The card shows the owner's first name only, never the full name the inventory shows.
    Ok(Item { owner: if first.trim().is_empty() { "Player".into() } else { first }, ..it })
}

/// `amount × bonus_cost / open_price` in integers (0 when the open spent no bonus).
pub fn bonus_share(amount: i64, bonus_cost: i64, open_price: i64) -> i64 {
    if bonus_cost <= 0 || open_price <= 0 {
        return 0;
    }
    (i128::from(amount) * i128::from(bonus_cost.min(open_price)) / i128::from(open_price)) as i64
}

pub fn sell_price(token_price: Tokens) -> Tokens {
    Tokens(token_price.0 * SELL_BACK_RATE_BP / 10_000)
}

#[derive(Debug)]
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
pub(crate) async fn sell_in(tx: &mut dyn Exec, user_id: i64, item_id: i64, now: i64) -> DomainResult<Sold> {
    store::lock_users(tx, &[user_id]).await?;
    let row: Option<(i64, String, i64, Option<i64>)> = query(
        "SELECT i.token_price, i.status, i.bonus_cost, o.price FROM inventory_items i LEFT JOIN case_opens o ON o.id = i.open_id
         WHERE i.id = $1 AND i.user_id = $2",
    )
    .bind(item_id)
    .bind(user_id)
    .fetch_optional(tx)
    .await?;
    let (price, status, bonus_cost, open_price) = row.ok_or(DomainError::ItemNotFound)?;
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
    // The sale pays back in the kind the open spent: the bonus share of the open's price is the
    // bonus share of the sale (rounded down: a remainder is paid).
    let bonus = Tokens(bonus_share(amount.0, bonus_cost, open_price.unwrap_or(0)));
    let balance = match ledger::credit(tx, user_id, amount, Funds::Split { bonus }, "sell", &format!("sell:{item_id}"), now).await? {
        Posted::Applied(b) => b,
        Posted::Duplicate => return Err(DomainError::ItemNotAvailable),
    };
    Ok(Sold { tokens_awarded: amount, balance })
}

/// Prepares a message showing one of the user's skins for `shareMessage`; answers its id.
/// The button opens the skin in the mini app and carries the sharer's referral code.
pub async fn share(domain: &Domain, user_id: i64, item_id: i64) -> DomainResult<String> {
    let lang = crate::domain::users::language(domain, user_id).await;
    let it = match item(domain, user_id, item_id, lang).await {
        Ok(it) => it,
        Err(DomainError::ItemNotFound) => return Err(DomainError::ShareUnavailable),
        Err(e) => return Err(e),
    };
    let (code,): (String,) = domain
        .read(move |c| Box::pin(async move { query("SELECT ref_code FROM users WHERE id = $1").bind(user_id).fetch_one(c).await }))
        .await?;
    let ru = lang == Lang::Ru;
    // Pictures are the shop's own paths (`domain::pictures::served_path`): Telegram fetches them here.
    let photo_url = if it.icon_url.is_empty() {
        None
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
    // Shared from here on: the public card shows it to whoever opens the link (never before).
    let now = domain.now();
    domain
        .execute(
            query("UPDATE inventory_items SET shared_at = COALESCE(shared_at, $1) WHERE id = $2 AND user_id = $3")
                .bind(now)
                .bind(item_id)
                .bind(user_id),
        )
        .await?;
    domain.telegram.save_prepared_inline_message(skin).await.map_err(|e| {
        tracing::warn!(error = %e, "savePreparedInlineMessage failed");
        DomainError::TelegramUnavailable(e.to_string())
    })
}
