//! The figures `/metrics` reads from the store, each one read (`Domain::read`): the money and
//! opens past a cursor (the exposition adds them up, so a scrape reads only what is new), the
//! Stars received and the market's spend.
use crate::domain::delivery;
use crate::domain::money::Usd;
use crate::domain::store::query;
use crate::domain::{Domain, DomainResult};

/// Ledger entries past `cursor` (ids grow in commit order, so "past the cursor" is "new"): the
/// hundredths credited, the hundredths debited, and the new cursor.
pub async fn ledger_since(domain: &Domain, cursor: i64) -> DomainResult<(i64, i64, i64)> {
    domain
        .read(move |c| {
            Box::pin(async move {
                query(
                    "SELECT CAST(COALESCE(SUM(CASE WHEN amount > 0 THEN amount ELSE 0 END), 0) AS BIGINT),
                            CAST(COALESCE(SUM(CASE WHEN amount < 0 THEN -amount ELSE 0 END), 0) AS BIGINT),
                            COALESCE(MAX(id), $1)
                     FROM ledger_entries WHERE id > $1",
                )
                .bind(cursor)
                .fetch_one(c)
                .await
            })
        })
        .await
}

/// Case opens past `cursor`: how many, and the new cursor.
pub async fn opens_since(domain: &Domain, cursor: i64) -> DomainResult<(i64, i64)> {
    domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT COUNT(*), COALESCE(MAX(id), $1) FROM case_opens WHERE id > $1").bind(cursor).fetch_one(c).await
            })
        })
        .await
}

/// Stars received in payments that succeeded (refunded ones included: they were received),
/// and how many such payments.
pub async fn stars_received(domain: &Domain) -> DomainResult<(i64, i64)> {
    domain
        .read(|c| {
            Box::pin(async move {
                query("SELECT CAST(COALESCE(SUM(stars), 0) AS BIGINT), COUNT(*) FROM payments WHERE status IN ('success', 'refunded')")
                    .fetch_one(c)
                    .await
            })
        })
        .await
}

/// What the market charged for withdrawals: in all, and against the budget of the UTC day of
/// `now`.
pub async fn market_spend(domain: &Domain, now: i64) -> DomainResult<(Usd, Usd)> {
    let day = delivery::budget_day(now);
    domain
        .read(move |c| {
            Box::pin(async move {
                let paid = delivery::total_paid_in(&mut *c).await?;
                Ok((paid, delivery::spent_on_in(c, &day).await?))
            })
        })
        .await
}
