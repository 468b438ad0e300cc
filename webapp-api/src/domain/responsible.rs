//! Responsible play: the player's own self-exclusion and daily spend limit, and their own
//! statistics. Rules (recorded in `docs/decisions.md`, "Promo codes and responsible play"):
//!
//! - A self-exclusion runs 24 h, 7 d, 30 d or for good. While it runs, opens, invoices, the bot's
//!   pre-checkout and promo codes answer `self_excluded` with its end. A new one may only end
//!   later than the running one (`self_exclusion_active` otherwise); only an admin lifts one,
//!   through the CLI, into the admin audit log.
//! - The daily spend limit counts the tokens debited by opens (ledger reason `case_open`) within
//!   the UTC day. Lowering it (or setting one where none was) takes effect at once; raising or
//!   removing it waits 24 hours (`pending_limit`, `pending_at`).
//! - The spend is summed from the ledger in the open's own write, where the player's row is
//!   locked (PostgreSQL) or the one writer runs (SQLite): exact under any concurrency.

use crate::domain::admin::{self, Actor};
use crate::domain::admin_audit;
use crate::domain::clock::{rfc3339, utc_day};
use crate::domain::inventory::{self, Item};
use crate::domain::store::{query, Exec};
use crate::domain::{store, Domain, DomainError, DomainResult, Tokens};

/// How long a raise or a removal of the daily limit waits.
pub const RAISE_DELAY_SECS: i64 = 24 * 3600;
/// The largest daily limit a player may set (a typo guard): 10 million tokens.
pub const MAX_DAILY_LIMIT: Tokens = Tokens::whole(10_000_000);

/// The self-exclusion periods a player may choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Period {
    Day,
    Week,
    Month,
    Permanent,
}

impl Period {
    /// `24h`, `7d`, `30d` or `permanent`.
    pub fn parse(s: &str) -> Option<Period> {
        Some(match s {
            "24h" => Period::Day,
            "7d" => Period::Week,
            "30d" => Period::Month,
            "permanent" => Period::Permanent,
            _ => return None,
        })
    }

    /// The length in seconds (`None`: for good).
    pub fn secs(self) -> Option<i64> {
        match self {
            Period::Day => Some(24 * 3600),
            Period::Week => Some(7 * 24 * 3600),
            Period::Month => Some(30 * 24 * 3600),
            Period::Permanent => None,
        }
    }
}

/// One player's row (absent: nothing set).
#[derive(Clone, Copy, Debug, Default)]
struct Row {
    excluded_until: Option<i64>,
    excluded_permanent: bool,
    daily_limit: Option<i64>,
    pending_limit: Option<i64>,
    pending_at: Option<i64>,
}

type RowTuple = (Option<i64>, i64, Option<i64>, Option<i64>, Option<i64>);

const ROW: &str =
    "SELECT excluded_until, excluded_permanent, daily_limit, pending_limit, pending_at FROM responsible_play WHERE user_id = $1";

async fn row(tx: &mut dyn Exec, user_id: i64) -> DomainResult<Option<Row>> {
    let r: Option<RowTuple> = query(ROW).bind(user_id).fetch_optional(tx).await?;
    Ok(r.map(|(excluded_until, permanent, daily_limit, pending_limit, pending_at)| Row {
        excluded_until,
        excluded_permanent: permanent != 0,
        daily_limit,
        pending_limit,
        pending_at,
    }))
}

impl Row {
    /// `Some(until)` while a self-exclusion runs at `now` (`until` is `None` for a permanent one).
    fn exclusion(&self, now: i64) -> Option<Option<i64>> {
        if self.excluded_permanent {
            return Some(None);
        }
        self.excluded_until.filter(|u| *u > now).map(Some)
    }

    /// The daily limit in force at `now` (a pending change counts from its time on).
    fn limit_at(&self, now: i64) -> Option<i64> {
        match self.pending_at {
            Some(at) if at <= now => self.pending_limit,
            _ => self.daily_limit,
        }
    }

    /// The raise or removal still waiting at `now`: `Some((limit, at))`.
    fn pending(&self, now: i64) -> Option<(Option<i64>, i64)> {
        self.pending_at.filter(|at| *at > now).map(|at| (self.pending_limit, at))
    }
}

/// The start of the UTC day `now` is in, and of the next.
pub fn day_bounds(now: i64) -> (i64, i64) {
    let start = utc_day(now).and_hms_opt(0, 0, 0).map(|t| t.and_utc().timestamp()).unwrap_or(now);
    (start, start + 24 * 3600)
}

/// Tokens the player's opens debited in the UTC day of `now` (what the limit counts).
pub async fn spent_today(tx: &mut dyn Exec, user_id: i64, now: i64) -> DomainResult<Tokens> {
    let (start, _) = day_bounds(now);
    let (spent,): (i64,) = query(
        "SELECT CAST(COALESCE(SUM(-amount), 0) AS BIGINT) FROM ledger_entries WHERE user_id = $1 AND reason = 'case_open' AND created_at >= $2",
    )
    .bind(user_id)
    .bind(start)
    .fetch_one(tx)
    .await?;
    Ok(Tokens(spent))
}

/// The refusal of a running self-exclusion, if any (opens, invoices, pre-checkout, promo codes).
pub async fn ensure_not_excluded(tx: &mut dyn Exec, user_id: i64, now: i64) -> DomainResult<()> {
    match row(tx, user_id).await?.and_then(|r| r.exclusion(now)) {
        Some(until) => Err(DomainError::SelfExcluded { until }),
        None => Ok(()),
    }
}

/// The open's check, inside its write right before its debit: `cost` is the whole debit of this
/// open. Refuses with `self_excluded` while a self-exclusion runs, and with `spend_limit` when
/// the debit would take the UTC day's open spending over the player's daily limit.
pub async fn check_open(tx: &mut dyn Exec, user_id: i64, cost: Tokens, now: i64) -> DomainResult<()> {
    let Some(r) = row(tx, user_id).await? else { return Ok(()) };
    if let Some(until) = r.exclusion(now) {
        return Err(DomainError::SelfExcluded { until });
    }
    let Some(limit) = r.limit_at(now) else { return Ok(()) };
    let spent = spent_today(tx, user_id, now).await?;
    if spent.0 + cost.0 > limit {
        return Err(DomainError::SpendLimit { limit: Tokens(limit), spent, resets_at: day_bounds(now).1 });
    }
    Ok(())
}

/// What `GET /me/limits` answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The daily spend limit in force (null: none).
    pub daily_limit: Option<Tokens>,
    /// A raise or removal waiting: the limit it sets (null: no limit) and when.
    pub pending_change: Option<PendingChange>,
    /// Tokens opens debited today (UTC day).
    pub spent_today: Tokens,
    /// When today's spending starts again from zero (next 00:00 UTC).
    pub day_resets_at: String,
    pub self_exclusion: SelfExclusion,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingChange {
    pub daily_limit: Option<Tokens>,
    pub effective_at: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfExclusion {
    pub active: bool,
    /// The end (RFC 3339); null while none runs or for a permanent one.
    pub until: Option<String>,
    pub permanent: bool,
}

async fn limits_in(tx: &mut dyn Exec, user_id: i64, now: i64) -> DomainResult<Limits> {
    let r = row(tx, user_id).await?.unwrap_or_default();
    let exclusion = r.exclusion(now);
    Ok(Limits {
        daily_limit: r.limit_at(now).map(Tokens),
        pending_change: r.pending(now).map(|(l, at)| PendingChange { daily_limit: l.map(Tokens), effective_at: rfc3339(at) }),
        spent_today: spent_today(tx, user_id, now).await?,
        day_resets_at: rfc3339(day_bounds(now).1),
        self_exclusion: SelfExclusion {
            active: exclusion.is_some(),
            until: exclusion.flatten().map(rfc3339),
            permanent: matches!(exclusion, Some(None)),
        },
    })
}

pub async fn limits(domain: &Domain, user_id: i64) -> DomainResult<Limits> {
    let now = domain.now();
    domain.read(move |c| Box::pin(limits_in(c, user_id, now))).await
}

/// Makes sure the player has a row, and locks the player where rows are locked.
async fn own_row(tx: &mut dyn Exec, user_id: i64, now: i64) -> DomainResult<Row> {
    store::lock_users(tx, &[user_id]).await?;
    query("INSERT INTO responsible_play(user_id, updated_at) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING")
        .bind(user_id)
        .bind(now)
        .execute(tx)
        .await?;
    row(tx, user_id).await?.ok_or(DomainError::NotFound)
}

/// Sets (or, `None`, removes) the daily spend limit: lower at once, higher or none after 24 h.
pub async fn set_daily_limit(domain: &Domain, user_id: i64, limit: Option<Tokens>) -> DomainResult<Limits> {
    if let Some(l) = limit {
        if l.0 <= 0 || l.0 % 100 != 0 || l.0 > MAX_DAILY_LIMIT.0 {
            return Err(DomainError::InvalidLimit);
        }
    }
    let now = domain.now();
    domain
        .write(move |tx| {
            Box::pin(async move {
                let r = own_row(tx, user_id, now).await?;
                let current = r.limit_at(now);
                let lowers = match (limit, current) {
                    (Some(new), Some(cur)) => new.0 <= cur,
                    (Some(_), None) => true,
                    (None, None) => true,
                    (None, Some(_)) => false,
                };
                let (daily, pending, at) =
                    if lowers { (limit.map(|l| l.0), None, None) } else { (current, limit.map(|l| l.0), Some(now + RAISE_DELAY_SECS)) };
                query(
                    "UPDATE responsible_play SET daily_limit = $1, pending_limit = $2, pending_at = $3, updated_at = $4 WHERE user_id = $5",
                )
                .bind(daily)
                .bind(pending)
                .bind(at)
                .bind(now)
                .bind(user_id)
                .execute(tx)
                .await?;
                limits_in(tx, user_id, now).await
            })
        })
        .await
}

/// Starts (or lengthens) a self-exclusion. One that would end before the running one is refused.
pub async fn self_exclude(domain: &Domain, user_id: i64, period: Period) -> DomainResult<Limits> {
    let now = domain.now();
    domain
        .write(move |tx| {
            Box::pin(async move {
                let r = own_row(tx, user_id, now).await?;
                let running = r.exclusion(now);
                let until = period.secs().map(|s| now + s);
                match (running, until) {
                    // Permanent already, or a dated one ending later than asked.
                    (Some(None), _) => return Err(DomainError::SelfExclusionActive { until: None }),
                    (Some(Some(cur)), Some(new)) if new < cur => return Err(DomainError::SelfExclusionActive { until: Some(cur) }),
                    _ => {}
                }
                query("UPDATE responsible_play SET excluded_at = $1, excluded_until = $2, excluded_permanent = $3, updated_at = $4 WHERE user_id = $5")
                    .bind(now)
                    .bind(until)
                    .bind(i64::from(until.is_none()))
                    .bind(now)
                    .bind(user_id)
                    .execute(tx)
                    .await?;
                limits_in(tx, user_id, now).await
            })
        })
        .await
}

/// An admin ends a player's self-exclusion (the only way to end a permanent one), with a reason
/// kept in the admin audit log. Answers whether one was running.
pub async fn lift(domain: &Domain, actor: Actor, user_id: i64, reason: &str) -> DomainResult<bool> {
    admin::ensure(domain, actor)?;
    let reason = reason.trim().to_owned();
    if reason.is_empty() {
        return Err(DomainError::BadRequest("a reason is required".into()));
    }
    let (now, operator) = (domain.now(), actor.audit_id());
    domain
        .write(move |tx| {
            Box::pin(async move {
                store::lock_users(tx, &[user_id]).await?;
                let Some(r) = row(tx, user_id).await? else { return Ok(false) };
                let Some(until) = r.exclusion(now) else { return Ok(false) };
                query("UPDATE responsible_play SET excluded_until = NULL, excluded_permanent = 0, updated_at = $1 WHERE user_id = $2")
                    .bind(now)
                    .bind(user_id)
                    .execute(tx)
                    .await?;
                let was = until.map(rfc3339).unwrap_or_else(|| "permanent".into());
                admin_audit::record(tx, operator, "self_exclusion_lift", &format!("{user_id} (was {was}): {reason}"), now).await?;
                Ok(true)
            })
        })
        .await
}

/// The player's own figures.
#[derive(Clone, Debug)]
pub struct Stats {
    pub cases_opened: i64,
    /// Tokens debited by opens.
    pub tokens_spent: Tokens,
    /// Tokens credited by selling skins back.
    pub tokens_won_back: Tokens,
    /// The most valuable skin the player ever dropped, as the inventory shows an item (null
    /// before the first open).
    pub best_drop: Option<Item>,
}

pub async fn stats(domain: &Domain, user_id: i64) -> DomainResult<Stats> {
    let (spent, items, sold, best) = domain.read(move |c| Box::pin(stats_in(c, user_id))).await?;
    let lang = crate::domain::users::language(domain, user_id).await;
    Ok(Stats {
        cases_opened: items,
        tokens_spent: Tokens(spent),
        tokens_won_back: Tokens(sold),
        best_drop: best.map(|item| inventory::present(item, &domain.catalog, lang, domain.config.withdraw_paid_only)),
    })
}

/// The figures of `stats` in one snapshot: spent, skins dropped, won back, the best drop.
async fn stats_in(conn: &mut dyn Exec, user_id: i64) -> DomainResult<(i64, i64, i64, Option<Item>)> {
    let (spent,): (i64,) =
        query("SELECT CAST(COALESCE(SUM(-amount), 0) AS BIGINT) FROM ledger_entries WHERE user_id = $1 AND reason = 'case_open'")
            .bind(user_id)
            .fetch_one(&mut *conn)
            .await?;
    // Counted from the items cases dropped: a multi-open is one debit of several items.
    let (items,): (i64,) = query("SELECT COUNT(*) FROM inventory_items WHERE user_id = $1 AND open_id IS NOT NULL")
        .bind(user_id)
        .fetch_one(&mut *conn)
        .await?;
    let (sold,): (i64,) =
        query("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM sales WHERE user_id = $1").bind(user_id).fetch_one(&mut *conn).await?;
    let best = inventory::best_drop(&mut *conn, user_id).await?;
    Ok((spent, items, sold, best))
}
