//! Withdrawal requests: an item goes `pending` with the trade link; an operator resolves it to
//! `sent` (final) or `error` (available again, with the reason shown to the player).
use serde::Serialize;

use crate::domain::clock::rfc3339;
use crate::domain::inventory::{self, Item};
use crate::domain::notifications::{self, Notice};
use crate::domain::settings::audit_admin;
use crate::domain::trade_url::TradeUrl;
use crate::domain::{db, users, Domain, DomainError, DomainResult};

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Requested {
    pub item: Item,
    pub withdrawal_id: i64,
}

pub async fn request(domain: &Domain, user_id: i64, item_id: i64, trade_url: &str) -> DomainResult<Requested> {
    let url = TradeUrl::parse(trade_url)?;
    let now = domain.now();
    let mut tx = db::begin_write_for(&domain.db, &[user_id]).await?;
    let item = inventory::item_in(&mut tx, user_id, item_id).await?;
    if item.status != "received" && item.status != "error" {
        return Err(DomainError::ItemNotAvailable);
    }
    let moved = sqlx::query(
        "UPDATE inventory_items SET status = 'pending', status_reason = NULL, updated_at = $1
         WHERE id = $2 AND status IN ('received', 'error')",
    )
    .bind(now)
    .bind(item_id)
    .execute(&mut *tx)
    .await?;
    if moved.rows_affected() != 1 {
        return Err(DomainError::ItemNotAvailable);
    }
    let (withdrawal_id,): (i64,) =
        sqlx::query_as("INSERT INTO withdrawals(user_id, inventory_item_id, trade_url, created_at) VALUES ($1, $2, $3, $4) RETURNING id")
            .bind(user_id)
            .bind(item_id)
            .bind(url.to_string())
            .bind(now)
            .fetch_one(&mut *tx)
            .await?;
    users::save_trade_url(&mut tx, user_id, &url, now).await?;
    let item = inventory::item_in(&mut tx, user_id, item_id).await?;
    tx.commit().await?;
    Ok(Requested { item, withdrawal_id })
}

/// Everything an operator needs to make the trade by hand.
#[derive(Debug, Serialize)]
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
}

pub async fn pending(domain: &Domain) -> DomainResult<Vec<Pending>> {
    type Row = (i64, i64, String, String, Option<String>, i64, String, String, String, i64, String, i64);
    let rows: Vec<Row> = sqlx::query_as(
        "SELECT w.id, w.user_id, u.first_name, u.last_name, u.username, i.id, i.weapon || ' | ' || i.finish, i.condition,
                w.trade_url, i.token_price, w.trade_url, w.created_at
         FROM withdrawals w JOIN inventory_items i ON i.id = w.inventory_item_id JOIN users u ON u.id = w.user_id
         WHERE w.status = 'pending' ORDER BY w.id",
    )
    .fetch_all(&domain.db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| Pending {
            id: r.0,
            user_id: r.1,
            user: users::display_name(&r.2, &r.3, r.4.as_deref()),
            item_id: r.5,
            item: r.6,
            condition: r.7,
            steam_id64: TradeUrl::parse(&r.8).ok().map(|u| u.steam_id64()),
            trade_url: r.10,
            token_price: crate::domain::Tokens(r.9),
            created_at: rfc3339(r.11),
        })
        .collect())
}

/// How an operator resolves a request.
#[derive(Clone, Debug)]
pub enum Resolution {
    Sent,
    Failed { reason: String },
}

/// Resolves a pending request; the item follows (sent, or back to available with the reason),
/// the player is notified through the outbox, and the admin action is recorded.
pub async fn resolve(domain: &Domain, withdrawal_id: i64, resolution: Resolution, admin_id: i64) -> DomainResult<()> {
    let now = domain.now();
    let mut tx = db::begin_write(&domain.db).await?;
    let row: Option<(i64, i64, String)> = sqlx::query_as(
        "SELECT w.user_id, w.inventory_item_id, i.weapon || ' | ' || i.finish FROM withdrawals w
         JOIN inventory_items i ON i.id = w.inventory_item_id WHERE w.id = $1 AND w.status = 'pending'",
    )
    .bind(withdrawal_id)
    .fetch_optional(&mut *tx)
    .await?;
    let (user_id, item_id, item_name) = row.ok_or(DomainError::NotFound)?;
    let (w_status, i_status, reason, notice) = match &resolution {
        Resolution::Sent => ("sent", "sent", None, Notice::WithdrawalSent { item: item_name }),
        Resolution::Failed { reason } => {
            let reason = reason.trim();
            if reason.is_empty() {
                return Err(DomainError::BadRequest("a reason is required".into()));
            }
            ("error", "error", Some(reason.to_owned()), Notice::WithdrawalFailed { item: item_name, reason: reason.to_owned() })
        }
    };
    // Conditional: of two operators resolving at once (two replicas), one wins, the other finds
    // nothing pending.
    let resolved = sqlx::query(
        "UPDATE withdrawals SET status = $1, reason = $2, resolved_by = $3, resolved_at = $4 WHERE id = $5 AND status = 'pending'",
    )
    .bind(w_status)
    .bind(&reason)
    .bind(admin_id)
    .bind(now)
    .bind(withdrawal_id)
    .execute(&mut *tx)
    .await?;
    if resolved.rows_affected() != 1 {
        return Err(DomainError::NotFound);
    }
    sqlx::query("UPDATE inventory_items SET status = $1, status_reason = $2, updated_at = $3 WHERE id = $4 AND status = 'pending'")
        .bind(i_status)
        .bind(&reason)
        .bind(now)
        .bind(item_id)
        .execute(&mut *tx)
        .await?;
    notifications::enqueue(&mut tx, user_id, &notice, now).await?;
    audit_admin(&mut tx, admin_id, &format!("withdrawal_{w_status}"), &format!("withdrawal {withdrawal_id}: {reason:?}"), now).await?;
    tx.commit().await?;
    Ok(())
}
