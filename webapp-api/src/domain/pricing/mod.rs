//! Prices follow the market: the `PriceFeed` port and the reprice rule.
//!
//! A reprice asks the feed once for every price (Steam market hash name → US cents), converts to
//! tokens at `TOKENS_PER_USD`, and in one write sets each catalog variant the feed priced
//! (`catalog_prices`, one `catalog_price_history` row per change). Case prices follow from the
//! variant prices and `CASE_RTP` when a catalog is served (`served_catalog`): running servers
//! pick the new prices up at their next start.
//!
//! Never a zero or wild price: a feed that fails (status, timeout, unreadable body) writes
//! nothing; a variant the feed lacks or prices at zero keeps its price (a variant never priced
//! keeps the committed default); a change over ×`JUMP_FACTOR` either way is held unless the
//! operator accepts it (`fragbox catalog reprice --accept`); the daily run holds it and queues a
//! notice to the admins (`admin_notices`, drained by the bot).
pub mod skinport;

use std::collections::HashMap;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::time::Duration;

use crate::domain::catalog::Catalog;
use crate::domain::goods;
use crate::domain::money::Usd;
use crate::domain::notifications::{claim_leased, Outbox};
use crate::domain::store::{self, query, Exec};
use crate::domain::{Domain, DomainError, Tokens};

/// What a feed answered: each Steam market hash name's price (0 when the feed gave none).
#[derive(Clone, Debug, Default)]
pub struct Quotes {
    pub prices: HashMap<String, Usd>,
}

/// Why a feed gave no prices.
#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    #[error("the price feed answered HTTP {0}")]
    Status(u16),
    #[error("the price feed did not answer within {0} ms")]
    Timeout(u64),
    #[error("the price feed's answer does not parse: {0}")]
    Unreadable(String),
    #[error("the price feed cannot be reached: {0}")]
    Unreachable(String),
}

/// The answer of `PriceFeed::fetch`.
pub type FeedFuture<'a> = Pin<Box<dyn Future<Output = Result<Quotes, FeedError>> + Send + 'a>>;

/// The market's prices, as the domain needs them. One adapter: `skinport::Skinport`.
pub trait PriceFeed: Send + Sync {
    /// Recorded with every price it sets (`catalog_prices.source`): `skinport`.
    fn source(&self) -> &'static str;
    /// Every price, in one request.
    fn fetch(&self) -> FeedFuture<'_>;
}

/// A reprice that wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum RepriceError {
    #[error("{0}; no price changed")]
    Feed(#[from] FeedError),
    #[error("the price feed priced no variant of the catalog; no price changed")]
    NothingPriced,
    #[error("{0}")]
    Domain(#[from] DomainError),
}

/// A change over this factor (up or down) in one run waits for the operator.
pub const JUMP_FACTOR: i64 = 3;
/// The daily run runs when the last reprice is at least this old.
pub const DAILY_EVERY_SECS: i64 = 24 * 3600;
/// How often the daily job looks whether a reprice is due (and how long it waits after start).
pub const DAILY_CHECK_EVERY: Duration = Duration::from_secs(3600);
/// `settings` key of the last reprice's time (unix seconds).
const LAST_REPRICE_KEY: &str = "last_reprice_at";
/// The lease name of the daily job across replicas.
const LEASE: &str = "daily-reprice";

/// How a reprice runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Tokens per US dollar (hundredths: 100 tokens = `Tokens(10_000)`).
    pub tokens_per_usd: Tokens,
    /// Apply changes over ×`JUMP_FACTOR` too (`--accept`).
    pub accept_jumps: bool,
    /// Admin chats told about held changes (the daily run); empty = nobody (the CLI prints them).
    pub notify: Vec<i64>,
}

/// One variant's price move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub variant: String,
    pub market_hash_name: String,
    pub old: Tokens,
    pub new: Tokens,
}

/// What a reprice did.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// Written, with a history row each.
    pub applied: Vec<Change>,
    /// Over ×`JUMP_FACTOR` and not accepted: the old price stays.
    pub held: Vec<Change>,
    /// Variants the feed did not price (missing, or at zero): their price stays.
    pub missing: Vec<String>,
    /// Priced by the feed at the price they already have.
    pub unchanged: usize,
}

/// A catalog variant as the reprice sees it (owned: the write may run on the writer thread).
struct Candidate {
    key: String,
    name: String,
    /// The committed default (`prices.json`), used when no market price was stored yet.
    default: Tokens,
    /// The feed's price in tokens; `None` when missing or zero.
    quoted: Option<Tokens>,
}

/// Whether `new` is more than ×`JUMP_FACTOR` away from `old`, either way.
pub fn is_jump(old: Tokens, new: Tokens) -> bool {
    let (o, n) = (i128::from(old.0), i128::from(new.0));
    n > o * i128::from(JUMP_FACTOR) || n * i128::from(JUMP_FACTOR) < o
}

/// Asks the feed once and writes the prices it gives, under the rules of this module. Nothing is
/// written when the feed fails or prices no variant of `catalog` (the committed catalog: names
/// and defaults).
pub async fn reprice(domain: &Domain, catalog: &Catalog, feed: &dyn PriceFeed, settings: &Settings) -> Result<Outcome, RepriceError> {
    let quotes = feed.fetch().await?;
    let mut candidates = Vec::new();
    for item in &catalog.items {
        for vp in &item.prices {
            let name = goods::market_hash_name(item, vp.variant.stat_trak, vp.variant.exterior);
            let quoted =
                quotes.prices.get(&name).filter(|c| c.cents() > 0).and_then(|c| c.to_tokens(settings.tokens_per_usd)).filter(|t| t.0 > 0);
            candidates.push(Candidate { key: vp.variant.key(&item.id), name, default: vp.price, quoted });
        }
    }
    if candidates.iter().all(|c| c.quoted.is_none()) {
        return Err(RepriceError::NothingPriced);
    }
    let (source, accept, notify, now) = (feed.source(), settings.accept_jumps, settings.notify.clone(), domain.now());
    let outcome = domain.write(move |tx| Box::pin(write_prices(tx, candidates, source, accept, notify, now))).await?;
    Ok(outcome)
}

async fn write_prices(
    tx: &mut dyn Exec,
    candidates: Vec<Candidate>,
    source: &'static str,
    accept: bool,
    notify: Vec<i64>,
    now: i64,
) -> Result<Outcome, DomainError> {
    // One reprice at a time: where writers lock rows, a named lock; a single writer needs none.
    store::lock_key(tx, "catalog-prices").await?;
    let stored: HashMap<String, i64> = query("SELECT variant, price FROM catalog_prices").fetch_all(tx).await?.into_iter().collect();
    let mut out = Outcome::default();
    for c in candidates {
        let Some(new) = c.quoted else {
            out.missing.push(c.name);
            continue;
        };
        let stored_price = stored.get(&c.key).map(|p| Tokens(*p));
        if stored_price == Some(new) {
            out.unchanged += 1;
            continue;
        }
        // Never priced by the market: the move is measured from the committed default.
        let old = stored_price.unwrap_or(c.default);
        if new == old {
            // The market confirms the default: stored, so it is a market price from now on.
            set_price(tx, &c.key, new, source, now).await?;
            out.unchanged += 1;
            continue;
        }
        let change = Change { variant: c.key, market_hash_name: c.name, old, new };
        if is_jump(old, new) && !accept {
            out.held.push(change);
            continue;
        }
        set_price(tx, &change.variant, new, source, now).await?;
        out.applied.push(change);
    }
    query("INSERT INTO settings(key, value) VALUES ($1, $2) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        .bind(LAST_REPRICE_KEY)
        .bind(now.to_string())
        .execute(tx)
        .await?;
    if !out.held.is_empty() {
        let body = held_notice(&out.held);
        for admin in notify {
            query("INSERT INTO admin_notices(admin_chat_id, body, next_attempt_at, created_at) VALUES ($1, $2, $3, $4)")
                .bind(admin)
                .bind(&body)
                .bind(now)
                .bind(now)
                .execute(tx)
                .await?;
        }
    }
    Ok(out)
}

/// Sets a variant's market price and records it in the history.
async fn set_price(tx: &mut dyn Exec, key: &str, price: Tokens, source: &str, now: i64) -> Result<(), DomainError> {
    query(
        "INSERT INTO catalog_prices(variant, price, source, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT(variant) DO UPDATE SET price = excluded.price, source = excluded.source, updated_at = excluded.updated_at",
    )
    .bind(key)
    .bind(price.0)
    .bind(source)
    .bind(now)
    .execute(tx)
    .await?;
    query("INSERT INTO catalog_price_history(variant, price, source, created_at) VALUES ($1, $2, $3, $4)")
        .bind(key)
        .bind(price.0)
        .bind(source)
        .bind(now)
        .execute(tx)
        .await?;
    Ok(())
}

/// The admins' message about held jumps (the first few named).
pub fn held_notice(held: &[Change]) -> String {
    const SHOWN: usize = 10;
    let mut body = format!("⚠️ Reprice: {} price change(s) over ×{JUMP_FACTOR} held; the old prices stay.\n", held.len());
    for c in held.iter().take(SHOWN) {
        body.push_str(&format!("{}: {} → {}\n", c.market_hash_name, c.old, c.new));
    }
    if held.len() > SHOWN {
        body.push_str(&format!("… and {} more\n", held.len() - SHOWN));
    }
    body.push_str("Check them, then run `fragbox catalog reprice --accept` to apply them.");
    body
}

/// When the last reprice ran (unix seconds); `None`: never repriced.
pub async fn last_reprice(pool: &store::Pool) -> Result<Option<i64>, sqlx::Error> {
    let row: Option<(String,)> =
        sqlx::query_as("SELECT value FROM settings WHERE key = $1").bind(LAST_REPRICE_KEY).fetch_optional(pool).await?;
    Ok(row.and_then(|r| r.0.parse().ok()))
}

/// The catalog a process serves: the files in `dir`, every price a reprice stored over the
/// committed defaults, and case prices for `rtp_bp`.
pub async fn served_catalog(pool: &store::Pool, dir: &Path, rtp_bp: i64) -> Result<Catalog, String> {
    let mut catalog = Catalog::load_with_rtp(dir, rtp_bp).map_err(|e| format!("CATALOG_DIR: {e}"))?;
    let stored = goods::stored_prices(pool).await.map_err(|e| format!("stored prices: {e}"))?;
    if !stored.is_empty() {
        catalog.apply_prices(&stored, rtp_bp);
    }
    Ok(catalog)
}

/// One turn of the daily job: when the last reprice is a day old and no other replica holds the
/// job, reprice (jumps held, admins told). `None`: not due, or another replica has it.
pub async fn daily_once(
    domain: &Domain,
    catalog: &Catalog,
    feed: &dyn PriceFeed,
    settings: &Settings,
) -> Result<Option<Outcome>, RepriceError> {
    let Some(lease) = store::try_lease(&domain.db, LEASE).await? else { return Ok(None) };
    let due = match last_reprice(&domain.db).await.map_err(DomainError::from)? {
        Some(at) => domain.now() - at >= DAILY_EVERY_SECS,
        None => true,
    };
    let result = if due { reprice(domain, catalog, feed, settings).await.map(Some) } else { Ok(None) };
    lease.release().await;
    result
}

/// The daily job: looks every `DAILY_CHECK_EVERY` (the first time that long after start) and
/// reprices once a day, on one replica at a time; stops with `stop`. A failed run is logged and
/// tried again at the next look.
pub async fn run_daily(domain: Domain, feed: Box<dyn PriceFeed>, settings: Settings, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    // The served catalog: its names are the committed ones; a variant without a stored price
    // still carries its committed default.
    let catalog = domain.catalog.clone();
    loop {
        tokio::select! {
            _ = &mut stop => return,
            _ = tokio::time::sleep(DAILY_CHECK_EVERY) => {}
        }
        let turn = tokio::select! {
            _ = &mut stop => return,
            r = daily_once(&domain, &catalog, feed.as_ref(), &settings) => r,
        };
        match turn {
            Ok(None) => {}
            Ok(Some(o)) => tracing::info!(
                applied = o.applied.len(),
                held = o.held.len(),
                missing = o.missing.len(),
                "daily reprice done; servers charge the new prices from their next start"
            ),
            Err(e) => tracing::error!(error = %e, "daily reprice failed"),
        }
    }
}

/// A queued notice to an admin's chat.
#[derive(Debug)]
pub struct PendingNotice {
    pub id: i64,
    pub admin_chat_id: i64,
    pub body: String,
    pub attempts: i64,
}

/// Claims admin notices due now, oldest first, leased like the other outboxes
/// (`notifications::claim_leased`).
pub async fn claim_due_notices(domain: &Domain, limit: i64) -> Result<Vec<PendingNotice>, DomainError> {
    static NOTICES: Outbox = Outbox { table: "admin_notices", also: "", returning: "id, admin_chat_id, body, attempts" };
    let rows: Vec<(i64, i64, String, i64)> = claim_leased(domain, &NOTICES, limit).await?;
    let mut out: Vec<PendingNotice> =
        rows.into_iter().map(|(id, admin_chat_id, body, attempts)| PendingNotice { id, admin_chat_id, body, attempts }).collect();
    out.sort_by_key(|n| n.id);
    Ok(out)
}

/// Most tries of one admin notice before it is given up.
pub const NOTICE_MAX_ATTEMPTS: i64 = 20;

/// A notice reached its admin.
pub async fn notice_sent(domain: &Domain, id: i64) -> Result<(), DomainError> {
    let now = domain.now();
    domain
        .execute(query("UPDATE admin_notices SET status = 'sent', sent_at = $1, attempts = attempts + 1 WHERE id = $2").bind(now).bind(id))
        .await?;
    Ok(())
}

/// A notice did not reach its admin: tried again later (back-off), or given up when `final_` or
/// after `NOTICE_MAX_ATTEMPTS`.
pub async fn notice_failed(domain: &Domain, notice: &PendingNotice, why: &str, final_: bool) -> Result<(), DomainError> {
    let attempts = notice.attempts + 1;
    let give_up = final_ || attempts >= NOTICE_MAX_ATTEMPTS;
    let next = domain.now() + (30 * attempts).min(3600);
    domain
        .execute(
            query("UPDATE admin_notices SET status = $1, attempts = $2, next_attempt_at = $3, last_error = $4 WHERE id = $5")
                .bind(if give_up { "failed" } else { "pending" })
                .bind(attempts)
                .bind(next)
                .bind(why)
                .bind(notice.id),
        )
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cents_become_tokens_at_the_rate_rounded_to_a_hundredth() {
        assert_eq!(Usd::from_cents(1234).to_tokens(Tokens(10_000)), Some(Tokens(123_400)));
        assert_eq!(Usd::from_cents(3).to_tokens(Tokens(12_345)), Some(Tokens(370)));
        assert_eq!(Usd::from_cents(0).to_tokens(Tokens(10_000)), Some(Tokens(0)));
        assert_eq!(Usd::from_cents(i64::MAX).to_tokens(Tokens(10_000)), None, "an absurd quote is refused, never wrapped");
        // One rounding rule both ways: a price converted and back is where it started.
        for (cents, per_usd) in [(521, 117), (1, 117), (99_999, 10_000), (7, 5_000)] {
            let tokens = Usd::from_cents(cents).to_tokens(Tokens(per_usd)).unwrap();
            assert_eq!(Usd::from_tokens(tokens, Tokens(per_usd)), Some(Usd::from_cents(cents)), "{cents} at {per_usd}");
        }
    }

    #[test]
    fn a_jump_is_over_three_times_either_way() {
        assert!(!is_jump(Tokens(100), Tokens(300)));
        assert!(is_jump(Tokens(100), Tokens(301)));
        assert!(!is_jump(Tokens(300), Tokens(100)));
        assert!(is_jump(Tokens(301), Tokens(100)));
    }
}
