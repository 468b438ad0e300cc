//! The append-only ledger. `users.balance` is a cache of the sum of a user's entries; this module
//! is the only code that changes it, always inside the caller's write transaction.
//!
//! Debts live here too: `users.debt` is a cache of the sum of the user's `debt_entries`. A debt
//! is opened only by a refund that found the balance and the skins short, and `post` repays it
//! from every credit before the credit can be spent: whatever path credits a player (purchase,
//! reward, sale, grant), it comes through here, so none can skip the repayment.

use crate::domain::store::{query, Exec};
use crate::domain::{Domain, DomainError, DomainResult, Tokens};

/// What a posting did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Posted {
    /// Applied; the balance after it.
    Applied(Tokens),
    /// An entry with this idempotency key exists: nothing changed.
    Duplicate,
}

const ROW: &str = "SELECT balance, bonus_balance, debt FROM users WHERE id = $1";
/// Conditional on the values read: a change between the read and the write (another replica's
/// write to this player) makes it change nothing, and the posting reads again.
const SET: &str =
    "UPDATE users SET balance = $1, bonus_balance = $2, updated_at = $3 WHERE id = $4 AND balance = $5 AND bonus_balance = $6";
const KEY_POSTED: &str = "SELECT id FROM ledger_entries WHERE idempotency_key = $1";
const INSERT_ENTRY: &str = "INSERT INTO ledger_entries(user_id, amount, balance_after, reason, idempotency_key, created_at, bonus_amount)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (idempotency_key) DO NOTHING";
const REPAY: &str = "UPDATE users SET balance = balance - $1, bonus_balance = bonus_balance - $3, debt = debt - $1
     WHERE id = $2 AND balance >= $1 AND debt >= $1 AND bonus_balance >= $3 RETURNING balance, debt";
const INSERT_DEBT_ENTRY: &str =
    "INSERT INTO debt_entries(user_id, amount, debt_after, reason, idempotency_key, created_at) VALUES ($1, $2, $3, $4, $5, $6)";

/// How many times a posting reads again when the player's row changed under it.
const RETRIES: usize = 5;

/// Whose value a credit is. Tokens bought with Stars, and what a skin won with them sells for,
/// are paid; rewards, referrals, promo codes, grants and the demo grant are bonus. Only skins
/// won with paid tokens may leave as withdrawals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Funds {
    Paid,
    Bonus,
    /// Part of the amount (`bonus`) is bonus, the rest paid (a sale of a mixed-funded skin).
    Split {
        bonus: Tokens,
    },
}

/// What a debit did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Debited {
    /// Applied: the balance after it and how much of the debit was bonus (paid is spent first).
    Applied { balance: Tokens, bonus: Tokens },
    /// An entry with this idempotency key exists: nothing changed.
    Duplicate,
}

/// Credits a user's balance and records the entry, once per key; an open debt is repaid first.
pub async fn credit(
    tx: &mut dyn Exec,
    user_id: i64,
    amount: Tokens,
    funds: Funds,
    reason: &str,
    key: &str,
    now: i64,
) -> DomainResult<Posted> {
    if amount.0 <= 0 {
        return Err(DomainError::Internal(format!("a credit must be positive: {key}")));
    }
    let bonus = match funds {
        Funds::Paid => 0,
        Funds::Bonus => amount.0,
        Funds::Split { bonus } => bonus.0.clamp(0, amount.0),
    };
    Ok(match apply(tx, user_id, amount.0, Part::Bonus(bonus), reason, key, now).await? {
        Some((balance, _)) => Posted::Applied(balance),
        None => Posted::Duplicate,
    })
}

/// Debits `amount` (positive) from a user's balance, paid tokens first, then bonus, and records
/// the entry once per key. A debit that would take the balance below zero fails with
/// `InsufficientTokens`.
pub async fn debit(tx: &mut dyn Exec, user_id: i64, amount: Tokens, reason: &str, key: &str, now: i64) -> DomainResult<Debited> {
    if amount.0 <= 0 {
        return Err(DomainError::Internal(format!("a debit must be positive: {key}")));
    }
    Ok(match apply(tx, user_id, -amount.0, Part::PaidFirst, reason, key, now).await? {
        Some((balance, bonus)) => Debited::Applied { balance, bonus: Tokens(-bonus) },
        None => Debited::Duplicate,
    })
}

/// Debits `amount` (positive) from the paid part of a user's balance only, and records the entry
/// once per key: a refund takes back paid value, and bonus tokens never pay for it. A debit
/// larger than the paid part fails with `InsufficientTokens`.
pub async fn debit_paid(tx: &mut dyn Exec, user_id: i64, amount: Tokens, reason: &str, key: &str, now: i64) -> DomainResult<Posted> {
    if amount.0 <= 0 {
        return Err(DomainError::Internal(format!("a debit must be positive: {key}")));
    }
    Ok(match apply(tx, user_id, -amount.0, Part::PaidOnly, reason, key, now).await? {
        Some((balance, _)) => Posted::Applied(balance),
        None => Posted::Duplicate,
    })
}

/// The bonus part of a change.
#[derive(Clone, Copy)]
enum Part {
    /// A credit's bonus part.
    Bonus(i64),
    /// A debit spends the paid part of the balance first.
    PaidFirst,
    /// A debit of the paid part alone (a refund).
    PaidOnly,
}

/// The one place a balance changes, on every store and every connection alike (`store::Exec`):
/// the player's row is read, the change decided, then written on the condition that the row is
/// still what was read; the entry's unique key catches a repeated key, and only that rare case
/// undoes the change. Answers the balance after and the entry's bonus part, or `None` for a
/// key already posted.
async fn apply(
    tx: &mut dyn Exec,
    user_id: i64,
    amount: i64,
    part: Part,
    reason: &str,
    key: &str,
    now: i64,
) -> DomainResult<Option<(Tokens, i64)>> {
    for _ in 0..RETRIES {
        let row: Option<(i64, i64, i64)> = query(ROW).bind(user_id).fetch_optional(tx).await?;
        let Some((balance, bonus, debt)) = row else { return Err(DomainError::NotFound) };
        let after = balance + amount;
        let paid_short = matches!(part, Part::PaidOnly) && balance - bonus + amount < 0;
        if after < 0 || paid_short {
            // Refused: a key already posted is still a duplicate, whatever the balance.
            if query(KEY_POSTED).bind(key).fetch_optional::<(i64,)>(tx).await?.is_some() {
                return Ok(None);
            }
            return Err(DomainError::InsufficientTokens);
        }
        let bonus_part = match part {
            Part::Bonus(b) => b,
            // What the paid part cannot cover comes from the bonus part.
            Part::PaidFirst => -((-amount) - (balance - bonus)).max(0),
            Part::PaidOnly => 0,
        };
        let bonus_after = bonus + bonus_part;
        if bonus_after < 0 || bonus_after > after {
            return Err(DomainError::Internal(format!("ledger: bonus part {bonus_part} of {amount} does not fit user {user_id}")));
        }
        let set = query(SET).bind(after).bind(bonus_after).bind(now).bind(user_id).bind(balance).bind(bonus).execute(tx).await?;
        if set != 1 {
            continue;
        }
        let inserted = query(INSERT_ENTRY)
            .bind(user_id)
            .bind(amount)
            .bind(after)
            .bind(reason)
            .bind(key)
            .bind(now)
            .bind(bonus_part)
            .execute(tx)
            .await?;
        if inserted != 1 {
            query(SET).bind(balance).bind(bonus).bind(now).bind(user_id).bind(after).bind(bonus_after).execute(tx).await?;
            return Ok(None);
        }
        if amount > 0 && debt > 0 {
            // A credit repays an open debt first: one more entry, under a key derived from the
            // credit's, mirrored by a debt entry with the same key. The debt is value that left
            // unpaid, so the paid part of the balance repays it first.
            let repay = amount.min(debt);
            let from_bonus = (repay - (after - bonus_after)).max(0);
            let key = format!("debt-repay:{key}");
            let (balance, debt_after): (i64, i64) = query(REPAY).bind(repay).bind(user_id).bind(from_bonus).fetch_one(tx).await?;
            let inserted = query(INSERT_ENTRY)
                .bind(user_id)
                .bind(-repay)
                .bind(balance)
                .bind("debt_repayment")
                .bind(&key)
                .bind(now)
                .bind(-from_bonus)
                .execute(tx)
                .await?;
            if inserted != 1 {
                return Err(DomainError::Internal(format!("ledger key {key} posted twice")));
            }
            insert_debt_entry(tx, user_id, -repay, debt_after, "repaid", &key, now).await?;
            return Ok(Some((Tokens(balance), bonus_part)));
        }
        return Ok(Some((Tokens(after), bonus_part)));
    }
    Err(DomainError::Database(sqlx::Error::PoolTimedOut))
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

/// The paid part of a user's balance: what purchases, paid grants and sales of paid skins left
/// in it (`balance - bonus_balance`).
pub async fn paid_balance(tx: &mut dyn Exec, user_id: i64) -> DomainResult<Tokens> {
    let row: Option<(i64,)> = query("SELECT balance - bonus_balance FROM users WHERE id = $1").bind(user_id).fetch_optional(tx).await?;
    row.map(|(b,)| Tokens(b)).ok_or(DomainError::NotFound)
}

/// A user's current balance.
pub async fn balance(tx: &mut dyn Exec, user_id: i64) -> DomainResult<Tokens> {
    let row: Option<(i64,)> = query("SELECT balance FROM users WHERE id = $1").bind(user_id).fetch_optional(tx).await?;
    row.map(|(b,)| Tokens(b)).ok_or(DomainError::NotFound)
}

#[derive(Clone, Debug)]
pub struct LedgerLine {
    pub amount: Tokens,
    pub balance_after: Tokens,
    pub reason: String,
    pub created_at: i64,
}

pub async fn recent(domain: &Domain, user_id: i64, limit: i64) -> DomainResult<Vec<LedgerLine>> {
    let rows: Vec<(i64, i64, String, i64)> = domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT amount, balance_after, reason, created_at FROM ledger_entries WHERE user_id = $1 ORDER BY id DESC LIMIT $2")
                    .bind(user_id)
                    .bind(limit)
                    .fetch_all(c)
                    .await
            })
        })
        .await?;
    Ok(rows
        .into_iter()
        .map(|(a, b, reason, created_at)| LedgerLine { amount: Tokens(a), balance_after: Tokens(b), reason, created_at })
        .collect())
}
