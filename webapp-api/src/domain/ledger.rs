//! The append-only ledger. `users.balance` is a cache of the sum of a user's entries; this module
//! is the only code that changes it, always inside the caller's write transaction.
//!
//! Debts live here too: `users.debt` is a cache of the sum of the user's `debt_entries`. A debt
//! is opened only by a refund that found the balance and the skins short, and `post` repays it
//! from every credit before the credit can be spent: whatever path credits a player (purchase,
//! reward, sale, grant), it comes through here, so none can skip the repayment.

use crate::domain::store::{query, Exec, Pool};
use crate::domain::{DomainError, DomainResult, Tokens};

/// What a posting did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posted {
    /// Applied; the balance after it.
    Applied(Tokens),
    /// An entry with this idempotency key exists: nothing changed.
    Duplicate,
}

const APPLY: &str = "UPDATE users SET balance = balance + $1, updated_at = $3 WHERE id = $2 AND balance + $1 >= 0 RETURNING balance, debt";
const UNDO: &str = "UPDATE users SET balance = balance - $1 WHERE id = $2";
const USER_EXISTS: &str = "SELECT id FROM users WHERE id = $1";
const KEY_POSTED: &str = "SELECT id FROM ledger_entries WHERE idempotency_key = $1";
const INSERT_ENTRY: &str =
    "INSERT INTO ledger_entries(user_id, amount, balance_after, reason, idempotency_key, created_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (idempotency_key) DO NOTHING";
const REPAY: &str = "UPDATE users SET balance = balance - $1, debt = debt - $1 WHERE id = $2 AND balance >= $1 AND debt >= $1
     RETURNING balance, debt";
const INSERT_DEBT_ENTRY: &str =
    "INSERT INTO debt_entries(user_id, amount, debt_after, reason, idempotency_key, created_at) VALUES ($1, $2, $3, $4, $5, $6)";

/// Credits (positive) or debits (negative) a user's balance and records the entry, once per key.
/// A debit that would take the balance below zero fails with `InsufficientTokens`. The one
/// place a balance changes, on every store and every connection alike (`store::Exec`).
pub async fn post(tx: &mut dyn Exec, user_id: i64, amount: Tokens, reason: &str, idempotency_key: &str, now: i64) -> DomainResult<Posted> {
    if amount.0 == 0 {
        return Err(DomainError::Internal("zero ledger amount".into()));
    }
    // The change decides first (the conditional update); the entry's unique key then catches a
    // repeated key, and only that rare case undoes the change. No key lookup before the write.
    let row: Option<(i64, i64)> = query(APPLY).bind(amount.0).bind(user_id).bind(now).fetch_optional(tx).await?;
    let Some((balance, debt)) = row else {
        // Refused: a key already posted is still a duplicate, whatever the balance.
        if query(KEY_POSTED).bind(idempotency_key).fetch_optional::<(i64,)>(tx).await?.is_some() {
            return Ok(Posted::Duplicate);
        }
        let exists: Option<(i64,)> = query(USER_EXISTS).bind(user_id).fetch_optional(tx).await?;
        return Err(if exists.is_some() { DomainError::InsufficientTokens } else { DomainError::NotFound });
    };
    if !insert_entry(tx, user_id, amount.0, balance, reason, idempotency_key, now).await? {
        query(UNDO).bind(amount.0).bind(user_id).execute(tx).await?;
        return Ok(Posted::Duplicate);
    }
    if amount.0 > 0 && debt > 0 {
        // A credit repays an open debt first: one more entry, under a key derived from the
        // credit's, mirrored by a debt entry with the same key.
        let repay = amount.0.min(debt);
        let key = format!("debt-repay:{idempotency_key}");
        let (balance, debt_after): (i64, i64) = query(REPAY).bind(repay).bind(user_id).fetch_one(tx).await?;
        if !insert_entry(tx, user_id, -repay, balance, "debt_repayment", &key, now).await? {
            return Err(DomainError::Internal(format!("ledger key {key} posted twice")));
        }
        insert_debt_entry(tx, user_id, -repay, debt_after, "repaid", &key, now).await?;
        return Ok(Posted::Applied(Tokens(balance)));
    }
    Ok(Posted::Applied(Tokens(balance)))
}

/// Records an entry; false when an entry with this key exists (nothing written).
async fn insert_entry(
    tx: &mut dyn Exec,
    user_id: i64,
    amount: i64,
    balance_after: i64,
    reason: &str,
    key: &str,
    now: i64,
) -> DomainResult<bool> {
    let inserted = query(INSERT_ENTRY).bind(user_id).bind(amount).bind(balance_after).bind(reason).bind(key).bind(now).execute(tx).await?;
    Ok(inserted == 1)
}

async fn insert_debt_entry(
    tx: &mut dyn Exec,
    user_id: i64,
    amount: i64,
    debt_after: i64,
    reason: &str,
    key: &str,
    now: i64,
) -> DomainResult<()> {
    query(INSERT_DEBT_ENTRY).bind(user_id).bind(amount).bind(debt_after).bind(reason).bind(key).bind(now).execute(tx).await?;
    Ok(())
}

/// Opens (adds to) a user's debt, once per key. Only a refund that could not take its tokens
/// back from the balance and the skins calls this. Answers the debt after it.
pub async fn open_debt(
    tx: &mut dyn Exec,
    user_id: i64,
    amount: Tokens,
    reason: &str,
    idempotency_key: &str,
    now: i64,
) -> DomainResult<Tokens> {
    if amount.0 <= 0 {
        return Err(DomainError::Internal("a debt must be positive".into()));
    }
    let seen: Option<(i64,)> =
        query("SELECT debt_after FROM debt_entries WHERE idempotency_key = $1").bind(idempotency_key).fetch_optional(tx).await?;
    if let Some((after,)) = seen {
        return Ok(Tokens(after));
    }
    let (debt,): (i64,) = query("UPDATE users SET debt = debt + $1, updated_at = $3 WHERE id = $2 RETURNING debt")
        .bind(amount.0)
        .bind(user_id)
        .bind(now)
        .fetch_one(tx)
        .await?;
    insert_debt_entry(tx, user_id, amount.0, debt, reason, idempotency_key, now).await?;
    Ok(Tokens(debt))
}

/// A user's open debt (zero when none).
pub async fn debt(tx: &mut dyn Exec, user_id: i64) -> DomainResult<Tokens> {
    let row: Option<(i64,)> = query("SELECT debt FROM users WHERE id = $1").bind(user_id).fetch_optional(tx).await?;
    row.map(|(d,)| Tokens(d)).ok_or(DomainError::NotFound)
}

/// A user's current balance.
pub async fn balance(tx: &mut dyn Exec, user_id: i64) -> DomainResult<Tokens> {
    let row: Option<(i64,)> = query("SELECT balance FROM users WHERE id = $1").bind(user_id).fetch_optional(tx).await?;
    row.map(|(b,)| Tokens(b)).ok_or(DomainError::NotFound)
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct LedgerLine {
    pub amount: Tokens,
    pub balance_after: Tokens,
    pub reason: String,
    pub created_at: i64,
}

pub async fn recent(pool: &Pool, user_id: i64, limit: i64) -> DomainResult<Vec<LedgerLine>> {
    let rows: Vec<(i64, i64, String, i64)> =
        sqlx::query_as("SELECT amount, balance_after, reason, created_at FROM ledger_entries WHERE user_id = $1 ORDER BY id DESC LIMIT $2")
            .bind(user_id)
            .bind(limit)
            .fetch_all(pool)
            .await?;
    Ok(rows
        .into_iter()
        .map(|(a, b, reason, created_at)| LedgerLine { amount: Tokens(a), balance_after: Tokens(b), reason, created_at })
        .collect())
}
