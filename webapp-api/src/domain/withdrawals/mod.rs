//! Withdrawal requests: an item goes `pending` with the trade link; an operator resolves it to
//! `sent` (final) or `error` (available again, with a reason code and an optional note shown to
//! the player).
//!
//! A request needs: a player who is not a demo user on a server with a bot token, no open debt,
//! and lifetime paid Stars (net of refunds) of at least `withdraw_min_stars`. Free tokens alone
//! never leave FragBox as skins.
pub mod state;

pub use state::{has_open_attempt, move_item, transition, Cond, From, ItemStatus, MarketState, Move, Outcome};

use crate::domain::admin_audit;
use crate::domain::clock::rfc3339;
use crate::domain::inventory::{self, Item};
use crate::domain::lang::Lang;
use crate::domain::notifications::Notice;
use crate::domain::outbox;
use crate::domain::store::{query, Exec};
use crate::domain::trade_url::{self, TradeUrl};
use crate::domain::{store, users, Domain, DomainError, DomainResult, Tokens};

/// Why a withdrawal failed, as a machine code the player's texts translate.
pub const REASON_CODES: &[&str] =
    &["trade_url_invalid", "inventory_private", "trade_restricted", "item_unavailable", "steam_unavailable", "other"];

/// Why an automatic withdrawal came back to the player (the mini app and the bot translate each):
/// the market's refusals about the player's account, no offer under the cap, a trade offer that
/// expired, and a seller's reversal after delivery.
pub const MARKET_REASON_CODES: &[&str] =
    &["trade_url_invalid", "inventory_private", "trade_restricted", "inventory_full", "no_offer", "offer_expired", "seller_reversed"];

/// The operator's words for a failure: `<code> [note]`, or a free text alone (= `other` with
/// that note). `None` when empty.
pub fn parse_failure(text: &str) -> Option<(String, Option<String>)> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let (first, rest) = match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], text[i..].trim()),
        None => (text, ""),
    };
    let first_lc = first.to_ascii_lowercase();
    if REASON_CODES.contains(&first_lc.as_str()) {
        return Some((first_lc, Some(rest.to_owned()).filter(|r| !r.is_empty())));
    }
    Some(("other".into(), Some(text.to_owned())))
}

#[derive(Debug)]
pub struct Requested {
    pub item: Item,
    pub withdrawal_id: i64,
}

pub async fn request(domain: &Domain, user_id: i64, item_id: i64, trade_url: &str, lang: Lang) -> DomainResult<Requested> {
    let url = TradeUrl::parse(trade_url)?;
    let now = domain.now();
    let (demo_mode, min_stars, paid_only) = (domain.config.demo, domain.config.withdraw_min_stars, domain.config.withdraw_paid_only);
    let market = domain.config.market_delivery;
    let mut requested =
        domain.write(move |tx| Box::pin(request_in(tx, demo_mode, min_stars, paid_only, market, user_id, item_id, url, now))).await?;
    requested.item = inventory::present(requested.item, &domain.catalog, lang, paid_only);
    Ok(requested)
}

#[allow(clippy::too_many_arguments)]
async fn request_in(
    tx: &mut dyn Exec,
    demo_mode: bool,
    min_stars: i64,
    paid_only: bool,
    market: bool,
    user_id: i64,
    item_id: i64,
    url: TradeUrl,
    now: i64,
) -> DomainResult<Requested> {
    store::lock_users(tx, &[user_id]).await?;
    let who: Option<(i64, i64)> = query("SELECT is_demo, debt FROM users WHERE id = $1").bind(user_id).fetch_optional(tx).await?;
    let (is_demo, debt) = who.ok_or(DomainError::Unauthorized)?;
    if is_demo != 0 && !demo_mode {
        return Err(DomainError::Unauthorized);
    }
    // One rule with selling: the player's own item that can no longer move (sold or revoked
    // included) is `item_not_available`; an id that is not theirs is `item_not_found`.
    let item = match inventory::item_in(tx, user_id, item_id).await {
        Err(DomainError::ItemNotFound) if inventory::owns(tx, user_id, item_id).await? => return Err(DomainError::ItemNotAvailable),
        other => other?,
    };
    if item.status != "received" && item.status != "error" {
        return Err(DomainError::ItemNotAvailable);
    }
    if debt > 0 {
        return Err(DomainError::DebtOutstanding(Tokens(debt)));
    }
    // Only paid value leaves: a skin whose open spent bonus tokens stays in the shop.
    if paid_only && item.bonus_cost > 0 {
        return Err(DomainError::BonusItem);
    }
    let left = users::stars_to_unlock(min_stars, tx, user_id).await?;
    if left > 0 {
        return Err(DomainError::DepositRequired { min_stars, stars_left: left });
    }
    let moved = query(
        "UPDATE inventory_items SET status = 'pending', status_reason = NULL, status_reason_code = NULL, updated_at = $1
         WHERE id = $2 AND status IN ('received', 'error')",
    )
    .bind(now)
    .bind(item_id)
    .execute(tx)
    .await?;
    if moved != 1 {
        return Err(DomainError::ItemNotAvailable);
    }
    let (withdrawal_id,): (i64,) =
        // With a market, the delivery worker takes it from `queued`; without, an operator does.
        query(
            "INSERT INTO withdrawals(user_id, inventory_item_id, trade_url, created_at, market_state, market_updated_at)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(user_id)
        .bind(item_id)
        .bind(url.to_string())
        .bind(now)
        .bind(market.then_some("queued"))
        .bind(market.then_some(now))
        .fetch_one(tx)
        .await?;
    trade_url::save(tx, user_id, &url, now).await?;
    let item = inventory::item_in(tx, user_id, item_id).await?;
    Ok(Requested { item, withdrawal_id })
}

/// What an operator should weigh before sending a skin that cannot be taken back.
#[derive(Clone, Debug, Default)]
pub struct Risk {
    /// Whole days since the account was first seen.
    pub account_age_days: i64,
    pub stars_paid: i64,
    pub stars_refunded: i64,
    /// Tokens credited without a purchase: daily, streak, subscription, first case, referrals,
    /// grants (and the demo grant).
    pub free_tokens: Tokens,
    pub invited_friends: i64,
    pub opens: i64,
    /// Token value of the skins already sent to Steam.
    pub withdrawn_value: Tokens,
    pub debt: Tokens,
    /// This item failed a withdrawal before (a Steam offer may still be open for it).
    pub item_failed_before: bool,
    pub demo: bool,
}

/// Everything an operator needs to make the trade by hand, and the risk of making it.
#[derive(Debug)]
pub struct Pending {
    pub id: i64,
    pub user_id: i64,
    pub user: String,
    pub item_id: i64,
    pub item: String,
    pub condition: String,
    pub token_price: crate::domain::Tokens,
    pub trade_url: String,
    pub steam_id64: Option<u64>,
    pub created_at: String,
    pub risk: Risk,
    /// Automatic delivery, when the withdrawal has a market state.
    pub market: Option<MarketView>,
}

/// An automatic withdrawal as the operators see it.
#[derive(Clone, Debug, Default)]
pub struct MarketView {
    /// `queued`, `buying`, `bought`, `offer_sent`, `settling`, `manual`...
    pub state: String,
    /// Why it is in the manual queue (or came back), as a code.
    pub reason: Option<String>,
    pub custom_id: Option<String>,
    pub attempt: i64,
    /// US cents.
    pub max_price_cents: Option<i64>,
    pub price_paid_cents: Option<i64>,
    pub trade_id: Option<String>,
    /// A purchase may be live: the withdrawal cannot be taken over by hand now.
    pub live: bool,
}

/// The ledger reasons of tokens that no purchase paid for.
const FREE_REASONS: &str = "l.reason IN ('daily', 'streak_bonus', 'subscribe', 'first_case', 'referral', 'demo_grant')
     OR (l.reason LIKE 'grant:%' AND l.amount > 0)";

pub async fn pending(domain: &Domain) -> DomainResult<Vec<Pending>> {
    let (demo, now) = (domain.config.demo, domain.now());
    domain.read(move |c| Box::pin(pending_in(c, demo, now))).await
}

/// `pending`, in one snapshot.
async fn pending_in(conn: &mut dyn Exec, demo: bool, now: i64) -> DomainResult<Vec<Pending>> {
    type Row = (i64, i64, String, String, Option<String>, i64, String, String, String, i64, i64, i64, i64, i64);
    // Waiting ones, and automatic ones still settling (Steam's trade protection).
    let rows: Vec<Row> = query(
        "SELECT w.id, w.user_id, u.first_name, u.last_name, u.username, i.id, i.weapon || ' | ' || i.finish, i.condition,
                w.trade_url, i.token_price, w.created_at, u.created_at, u.is_demo, u.debt
         FROM withdrawals w JOIN inventory_items i ON i.id = w.inventory_item_id JOIN users u ON u.id = w.user_id
         WHERE (w.status = 'pending' OR w.market_state = 'settling') AND (u.is_demo = 0 OR $1 = 1) ORDER BY w.id",
    )
    .bind(i64::from(demo))
    .fetch_all(&mut *conn)
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in rows {
        let (user_id, item_id) = (r.1, r.5);
        let (stars_paid, stars_refunded): (i64, i64) = query(
            "SELECT CAST(COALESCE(SUM(CASE WHEN status = 'success' THEN stars ELSE 0 END), 0) AS BIGINT),
                    CAST(COALESCE(SUM(CASE WHEN status = 'refunded' THEN stars ELSE 0 END), 0) AS BIGINT)
             FROM payments WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_one(&mut *conn)
        .await?;
        let (free,): (i64,) = query(&format!(
            "SELECT CAST(COALESCE(SUM(l.amount), 0) AS BIGINT) FROM ledger_entries l WHERE l.user_id = $1 AND ({FREE_REASONS})"
        ))
        .bind(user_id)
        .fetch_one(&mut *conn)
        .await?;
        let (invited,): (i64,) = query("SELECT COUNT(*) FROM users WHERE referred_by = $1").bind(user_id).fetch_one(&mut *conn).await?;
        let (opens,): (i64,) = query("SELECT COUNT(*) FROM case_opens WHERE user_id = $1").bind(user_id).fetch_one(&mut *conn).await?;
        let (withdrawn,): (i64,) =
            query("SELECT CAST(COALESCE(SUM(token_price), 0) AS BIGINT) FROM inventory_items WHERE user_id = $1 AND status = 'sent'")
                .bind(user_id)
                .fetch_one(&mut *conn)
                .await?;
        let (failed,): (i64,) = query("SELECT COUNT(*) FROM withdrawals WHERE inventory_item_id = $1 AND status = 'error'")
            .bind(item_id)
            .fetch_one(&mut *conn)
            .await?;
        let market = market_view(&mut *conn, r.0).await?;
        out.push(Pending {
            id: r.0,
            user_id,
            user: users::display_name(&r.2, &r.3, r.4.as_deref()),
            item_id,
            item: r.6,
            condition: r.7,
            steam_id64: TradeUrl::parse(&r.8).ok().map(|u| u.steam_id64()),
            trade_url: r.8,
            token_price: Tokens(r.9),
            created_at: rfc3339(r.10),
            risk: Risk {
                account_age_days: ((now - r.11) / 86_400).max(0),
                stars_paid,
                stars_refunded,
                free_tokens: Tokens(free),
                invited_friends: invited,
                opens,
                withdrawn_value: Tokens(withdrawn),
                debt: Tokens(r.13),
                item_failed_before: failed > 0,
                demo: r.12 != 0,
            },
            market,
        });
    }
    Ok(out)
}

/// The market side of withdrawal `id` (`None` for a manual one).
pub async fn market_view(conn: &mut dyn Exec, id: i64) -> DomainResult<Option<MarketView>> {
    type Row = (Option<String>, Option<String>, Option<String>, i64, Option<i64>, Option<i64>, Option<String>);
    let row: Option<Row> = query(
        "SELECT market_state, market_reason, custom_id, attempt, max_price_cents, price_paid_cents, trade_id FROM withdrawals WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(conn)
    .await?;
    Ok(row.and_then(|r| {
        let state = r.0?;
        let live = matches!(state.as_str(), "buying" | "bought" | "offer_sent");
        Some(MarketView {
            state,
            reason: r.1,
            custom_id: r.2,
            attempt: r.3,
            max_price_cents: r.4,
            price_paid_cents: r.5,
            trade_id: r.6,
            live,
        })
    }))
}

/// How an operator resolves a request.
#[derive(Clone, Debug)]
pub enum Resolution {
    Sent,
    /// `code` is one of `REASON_CODES`; `note` is the operator's optional text for the player.
    Failed {
        code: String,
        note: Option<String>,
    },
}

/// Resolves a pending request; the item follows (sent, or back to available with the reason),
/// the player is notified through the outbox, and the admin action is recorded.
pub async fn resolve(domain: &Domain, withdrawal_id: i64, resolution: Resolution, admin_id: i64) -> DomainResult<()> {
    let now = domain.now();
    let (w_status, code, note) = match &resolution {
        Resolution::Sent => ("sent", None, None),
        Resolution::Failed { code, note } => {
            let code = code.trim().to_ascii_lowercase();
            if !REASON_CODES.contains(&code.as_str()) {
                return Err(DomainError::BadRequest(format!("reason code: one of {}", REASON_CODES.join(", "))));
            }
            let note = note.as_deref().map(str::trim).filter(|n| !n.is_empty()).map(str::to_owned);
            if note.as_ref().is_some_and(|n| n.chars().count() > 500) {
                return Err(DomainError::TooLong("note"));
            }
            ("error", Some(code), note)
        }
    };
    domain.write(move |tx| Box::pin(resolve_in(tx, admin_id, withdrawal_id, resolution, w_status, code, note, now))).await
}

/// A pending withdrawal as an operator's resolution reads it: player, skin, Steam name, the
/// player's debt, market state and reason.
type PendingRow = (i64, i64, String, i64, Option<String>, Option<String>);

#[allow(clippy::too_many_arguments)]
async fn resolve_in(
    tx: &mut dyn Exec,
    admin_id: i64,
    withdrawal_id: i64,
    resolution: Resolution,
    w_status: &'static str,
    code: Option<String>,
    note: Option<String>,
    now: i64,
) -> DomainResult<()> {
    let row: Option<PendingRow> = query(
        "SELECT w.user_id, w.inventory_item_id, COALESCE(i.market_hash_name, i.weapon || ' | ' || i.finish), u.debt, w.market_state,
                w.market_reason
         FROM withdrawals w JOIN inventory_items i ON i.id = w.inventory_item_id JOIN users u ON u.id = w.user_id
         WHERE w.id = $1 AND w.status = 'pending'",
    )
    .bind(withdrawal_id)
    .fetch_optional(tx)
    .await?;
    let (user_id, item_id, item_name, _, market_state, market_reason) = row.ok_or(DomainError::NotFound)?;
    // An automatic withdrawal is taken over by hand only while no purchase is live, and none of
    // its attempts may still have bought (an unknown one is looked up until the market says).
    if market_state.as_deref().and_then(MarketState::parse).is_some_and(MarketState::is_live) {
        return Err(DomainError::PurchaseLive);
    }
    if has_open_attempt(tx, withdrawal_id).await? {
        return Err(DomainError::PurchaseLive);
    }
    // Where writers lock rows, the player is held while the debt decides (a refund meanwhile waits).
    store::lock_users(tx, &[user_id]).await?;
    let debt = crate::domain::ledger::debt(tx, user_id).await?.0;
    // A skin does not leave while its player owes a debt from a refunded purchase (it may be the
    // very value the refund took back); failing the withdrawal stays possible.
    if matches!(resolution, Resolution::Sent) && debt > 0 {
        return Err(DomainError::DebtOutstanding(Tokens(debt)));
    }
    let notice = match &resolution {
        Resolution::Sent => Notice::WithdrawalSent { item: item_name },
        Resolution::Failed { .. } => Notice::WithdrawalFailed { item: item_name, code: code.clone(), reason: note.clone() },
    };
    // Conditional: of two operators resolving at once (two replicas), one wins, the other finds
    // nothing pending. An automatic one goes to `manual` (taken over) in the same write, so the
    // worker, which claims only `queued` ones, can never start a purchase of it afterwards.
    let mut set: Vec<(&'static str, store::Param)> = vec![
        ("status", w_status.into()),
        ("reason", note.clone().into()),
        ("reason_code", code.clone().into()),
        ("resolved_by", admin_id.into()),
        ("resolved_at", now.into()),
        ("lease_holder", None::<String>.into()),
        ("lease_until", None::<i64>.into()),
    ];
    if market_state.is_some() && market_reason.is_none() {
        set.push(("market_reason", "taken_over".into()));
    }
    let moved = transition(
        tx,
        Move { id: withdrawal_id, from: From::NotLive, to: MarketState::Manual, when: vec![Cond::Pending, Cond::NoOpenAttempt], set },
    )
    .await?;
    if !moved {
        return Err(DomainError::NotFound);
    }
    let to = if w_status == "sent" { ItemStatus::Sent } else { ItemStatus::Error };
    move_item(tx, item_id, &[ItemStatus::Pending], to, code.as_deref(), note.as_deref(), now).await?;
    outbox::tell_player(tx, user_id, &notice, now).await?;
    admin_audit::record(tx, admin_id, &format!("withdrawal_{w_status}"), &format!("withdrawal {withdrawal_id}: {code:?} {note:?}"), now)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_a_known_code_with_an_optional_note_or_free_text_as_other() {
        assert_eq!(parse_failure("inventory_private"), Some(("inventory_private".into(), None)));
        assert_eq!(parse_failure("TRADE_RESTRICTED  7 days left"), Some(("trade_restricted".into(), Some("7 days left".into()))));
        assert_eq!(parse_failure("Inventory is private"), Some(("other".into(), Some("Inventory is private".into()))));
        assert_eq!(parse_failure("   "), None);
    }
}
