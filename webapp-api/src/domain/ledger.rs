//! The append-only ledger. `users.balance` is a cache of the sum of a user's entries; this module
//! is the only code that changes it, always inside the caller's write transaction.

use crate::domain::db::{Conn, Pool};
use crate::domain::{DomainError, DomainResult, Tokens};

/// What a posting did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posted {
    /// Applied; the balance after it.
    Applied(Tokens),
    /// An entry with this idempotency key exists: nothing changed.
    Duplicate,
}

/// Credits (positive) or debits (negative) a user's balance and records the entry, once per key.
/// A debit that would take the balance below zero fails with `InsufficientTokens`.
pub async fn post(conn: &mut Conn, user_id: i64, amount: Tokens, reason: &str, idempotency_key: &str, now: i64) -> DomainResult<Posted> {
    if amount.0 == 0 {
        return Err(DomainError::Internal("zero ledger amount".into()));
    }
    let seen: Option<(i64,)> =
        sqlx::query_as("SELECT id FROM ledger_entries WHERE idempotency_key = $1").bind(idempotency_key).fetch_optional(&mut *conn).await?;
    if seen.is_some() {
        return Ok(Posted::Duplicate);
    }
    let balance: Option<(i64,)> =
        sqlx::query_as("UPDATE users SET balance = balance + $1, updated_at = $3 WHERE id = $2 AND balance + $1 >= 0 RETURNING balance")
            .bind(amount.0)
            .bind(user_id)
            .bind(now)
            .fetch_optional(&mut *conn)
            .await?;
    let Some((balance,)) = balance else {
        let exists: Option<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE id = $1").bind(user_id).fetch_optional(&mut *conn).await?;
        return Err(if exists.is_some() { DomainError::InsufficientTokens } else { DomainError::NotFound });
    };
    sqlx::query(
        "INSERT INTO ledger_entries(user_id, amount, balance_after, reason, idempotency_key, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(user_id)
    .bind(amount.0)
    .bind(balance)
    .bind(reason)
    .bind(idempotency_key)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    Ok(Posted::Applied(Tokens(balance)))
}

/// A user's current balance.
pub async fn balance(conn: &mut Conn, user_id: i64) -> DomainResult<Tokens> {
    let row: Option<(i64,)> = sqlx::query_as("SELECT balance FROM users WHERE id = $1").bind(user_id).fetch_optional(&mut *conn).await?;
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
