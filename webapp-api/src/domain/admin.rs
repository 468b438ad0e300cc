//! Operator actions: who may run them, what they do, and the audit trail each one leaves.
//! The bot's admin commands and the `fragbox` CLI both come here.

use crate::domain::admin_audit;
use crate::domain::clock::{random_hex, rfc3339, utc_day};
use crate::domain::finance;
use crate::domain::ledger::{self, Debited, Funds, LedgerLine, Posted};
use crate::domain::settings;
use crate::domain::store::query;
use crate::domain::withdrawals::{self, Resolution};
use crate::domain::{store, users, Domain, DomainError, DomainResult, Tokens};

/// The start of a paid grant's ledger reason; `fragbox audit` checks such entries are paid value.
pub const PAID_GRANT: &str = "grant:paid: ";

/// Largest single grant (either sign): a typo guard, not a business rule.
pub const MAX_GRANT: Tokens = Tokens::whole(1_000_000);

/// Who runs an operator action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// The `fragbox` command line (whoever can run it owns the box); audited as id 0.
    Cli,
    /// A Telegram user who claims to be an admin; checked against `ADMIN_IDS`.
    Admin(i64),
}

impl Actor {
    /// The id written to `admin_audit`.
    pub fn audit_id(self) -> i64 {
        match self {
            Actor::Cli => 0,
            Actor::Admin(id) => id,
        }
    }
}

/// Refuses anyone who is not the CLI or listed in `ADMIN_IDS`.
pub fn ensure(domain: &Domain, actor: Actor) -> DomainResult<()> {
    match actor {
        Actor::Cli => Ok(()),
        Actor::Admin(id) if domain.config.is_admin(id) => Ok(()),
        Actor::Admin(_) => Err(DomainError::Forbidden),
    }
}

/// Records an action that changes nothing (a read) in its own short transaction.
async fn audit_read(domain: &Domain, actor: Actor, action: &str, detail: &str) -> DomainResult<()> {
    let (operator, action, detail, now) = (actor.audit_id(), action.to_owned(), detail.to_owned(), domain.now());
    domain.write(move |tx| Box::pin(async move { admin_audit::record(tx, operator, &action, &detail, now).await })).await
}

/// Credits (or, negative, debits down to zero at most) a user's balance by hand, with a reason.
/// Answers the balance after it.
/// A grant is bonus value (it may be kept, sold and opened, never withdrawn as a won skin)
/// unless `paid`: compensation that counts as paid, real value a player may withdraw as the
/// skins it wins. A paid grant is marked as such wherever it is kept: the ledger's reason
/// (`grant:paid: <reason>`, where a bonus grant's is `grant: <reason>`) and the admin audit
/// log, and `fragbox audit` counts it as paid value apart from purchases. Only a credit can be
/// paid: a debit takes paid tokens first whatever it is called. `once`: an idempotency key for
/// the grant (the bot passes its message's, so a replayed update grants once); `None` makes a
/// fresh one.
pub async fn grant(
    domain: &Domain,
    actor: Actor,
    user_id: i64,
    amount: Tokens,
    reason: &str,
    paid: bool,
    once: Option<String>,
) -> DomainResult<Tokens> {
    ensure(domain, actor)?;
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(DomainError::BadRequest("a reason is required".into()));
    }
    if amount.0 == 0 || amount.0.abs() > MAX_GRANT.0 {
        return Err(DomainError::BadRequest(format!("amount must be non-zero and at most {MAX_GRANT} tokens")));
    }
    if paid && amount.0 < 0 {
        return Err(DomainError::BadRequest("only a credit can be paid: a negative grant takes paid tokens first anyway".into()));
    }
    let now = domain.now();
    // Every grant is its own event: the key only has to be unique.
    let key = match once {
        Some(once) => format!("grant:{user_id}:{once}"),
        None => format!("grant:{user_id}:{now}:{}", random_hex(domain.random.as_ref(), 8)),
    };
    let (reason, operator) = (reason.to_owned(), actor.audit_id());
    domain
        .write(move |tx| {
            Box::pin(async move {
                store::lock_users(tx, &[user_id]).await?;
                let what = if paid { format!("{PAID_GRANT}{reason}") } else { format!("grant: {reason}") };
                let funds = if paid { Funds::Paid } else { Funds::Bonus };
                let applied = if amount.0 > 0 {
                    match ledger::credit(tx, user_id, amount, funds, &what, &key, now).await? {
                        Posted::Applied(b) => Some(b),
                        Posted::Duplicate => None,
                    }
                } else {
                    match ledger::debit(tx, user_id, Tokens(-amount.0), &what, &key, now).await? {
                        Debited::Applied { balance, .. } => Some(balance),
                        Debited::Duplicate => None,
                    }
                };
                // The same grant again (a replayed update): nothing more is written.
                let Some(balance) = applied else { return ledger::balance(tx, user_id).await };
                let kind = if paid { "paid" } else { "bonus" };
                admin_audit::record(tx, operator, "grant", &format!("{user_id} {amount} {kind} {reason}"), now).await?;
                Ok(balance)
            })
        })
        .await
}

pub async fn set_maintenance(domain: &Domain, actor: Actor, on: bool) -> DomainResult<()> {
    ensure(domain, actor)?;
    settings::set_maintenance_by_admin(domain, actor.audit_id(), on).await
}

pub async fn maintenance_status(domain: &Domain, actor: Actor) -> DomainResult<bool> {
    ensure(domain, actor)?;
    let on = settings::maintenance(domain).await?;
    audit_read(domain, actor, "maintenance_status", if on { "on" } else { "off" }).await?;
    Ok(on)
}

pub async fn pending_withdrawals(domain: &Domain, actor: Actor) -> DomainResult<Vec<withdrawals::Pending>> {
    ensure(domain, actor)?;
    let list = withdrawals::pending(domain).await?;
    audit_read(domain, actor, "withdrawals_list", &format!("{} pending", list.len())).await?;
    Ok(list)
}

/// Marks a withdrawal sent or failed (with a reason); the player is told through the outbox.
pub async fn resolve_withdrawal(domain: &Domain, actor: Actor, withdrawal_id: i64, resolution: Resolution) -> DomainResult<()> {
    ensure(domain, actor)?;
    withdrawals::resolve(domain, withdrawal_id, resolution, actor.audit_id()).await
}

/// Realised figures of one case over every open so far.
#[derive(Clone, Debug)]
pub struct CaseStats {
    pub case_id: String,
    pub opens: i64,
    pub spent: Tokens,
    /// Catalog value of what those opens dropped.
    pub dropped: Tokens,
    /// `dropped / spent` in basis points (0 without opens).
    pub realised_rtp_bp: i64,
    /// What the catalog's weights promise, in basis points.
    pub expected_rtp_bp: Option<i64>,
}

#[derive(Clone, Debug)]
pub struct Stats {
    pub users: i64,
    pub opens_today: i64,
    pub opens_total: i64,
    /// Sum of every balance.
    pub tokens_in_circulation: Tokens,
    /// Stars of payments that stand (success); refunded ones are counted apart.
    pub stars_received: i64,
    pub stars_refunded: i64,
    pub orphan_payments: i64,
    pub open_tickets: i64,
    pub pending_withdrawals: i64,
    /// Automatic withdrawals delivered but still reversible in Steam (settling), and their token value.
    pub settling_withdrawals: i64,
    pub settling_value: Tokens,
    pub cases: Vec<CaseStats>,
    /// When the last market reprice ran (unix seconds); `None`: never repriced (default prices).
    pub repriced_at: Option<i64>,
    /// The books of the last `STATS_BOOK_DAYS` UTC days, as `fragbox finance` prints them.
    pub books: finance::Books,
}

/// How many UTC days of books `/stats` shows (`fragbox finance`'s default).
pub const STATS_BOOK_DAYS: u32 = 7;

/// What the books read from the domain's settings.
pub fn finance_settings(domain: &Domain) -> finance::Settings {
    finance::Settings {
        star_usd: domain.config.star_usd,
        tokens_per_usd: domain.config.tokens_per_usd,
        paid_only: domain.config.withdraw_paid_only,
        demo: domain.config.demo,
    }
}

pub async fn stats(domain: &Domain, actor: Actor) -> DomainResult<Stats> {
    ensure(domain, actor)?;
    let now = domain.now();
    let day_start = utc_day(now).and_hms_opt(0, 0, 0).map(|t| t.and_utc().timestamp()).unwrap_or(now);
    // With a bot token, demo users (left by demo mode on this database) are not players: they
    // count nowhere. `$1` is 1 in demo mode, where everyone is one.
    let demo: i64 = i64::from(domain.config.demo);
    let count = |sql: &'static str| async move {
        let (n,): (i64,) = domain.read(move |c| Box::pin(async move { query(sql).bind(demo).fetch_one(c).await })).await?;
        Ok::<i64, DomainError>(n)
    };
    let users = count("SELECT COUNT(*) FROM users WHERE is_demo = 0 OR $1 = 1").await?;
    let opens_total = count("SELECT COUNT(*) FROM case_opens o JOIN users u ON u.id = o.user_id WHERE u.is_demo = 0 OR $1 = 1").await?;
    let tokens = count("SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM users WHERE is_demo = 0 OR $1 = 1").await?;
    let stars_received = count(
        "SELECT CAST(COALESCE(SUM(p.stars), 0) AS BIGINT) FROM payments p JOIN users u ON u.id = p.user_id
         WHERE p.status = 'success' AND (u.is_demo = 0 OR $1 = 1)",
    )
    .await?;
    let stars_refunded = count(
        "SELECT CAST(COALESCE(SUM(p.stars), 0) AS BIGINT) FROM payments p JOIN users u ON u.id = p.user_id
         WHERE p.status = 'refunded' AND (u.is_demo = 0 OR $1 = 1)",
    )
    .await?;
    let (orphan_payments,): (i64,) =
        domain.read(move |c| Box::pin(async move { query("SELECT COUNT(*) FROM orphan_payments").fetch_one(c).await })).await?;
    let open_tickets =
        count("SELECT COUNT(*) FROM tickets t JOIN users u ON u.id = t.user_id WHERE t.status = 'open' AND (u.is_demo = 0 OR $1 = 1)")
            .await?;
    let pending_withdrawals = count(
        "SELECT COUNT(*) FROM withdrawals w JOIN users u ON u.id = w.user_id WHERE w.status = 'pending' AND (u.is_demo = 0 OR $1 = 1)",
    )
    .await?;
    let (opens_today,): (i64,) = domain
        .read(move |c| {
            Box::pin(async move {
                query(
        "SELECT COUNT(*) FROM case_opens o JOIN users u ON u.id = o.user_id WHERE o.created_at >= $1 AND (u.is_demo = 0 OR $2 = 1)",
    )
    .bind(day_start)
    .bind(demo)
    .fetch_one(c)
    .await
            })
        })
        .await?;
    let rows: Vec<(String, i64, i64, i64)> = domain
        .read(move |c| {
            Box::pin(async move {
                query(
                    "SELECT o.case_id, COUNT(*), CAST(SUM(o.price) AS BIGINT), CAST(COALESCE(SUM(i.token_price), 0) AS BIGINT)
         FROM case_opens o JOIN users u ON u.id = o.user_id LEFT JOIN inventory_items i ON i.open_id = o.id
         WHERE u.is_demo = 0 OR $1 = 1 GROUP BY o.case_id ORDER BY o.case_id",
                )
                .bind(demo)
                .fetch_all(c)
                .await
            })
        })
        .await?;
    let cases = rows
        .into_iter()
        .map(|(case_id, opens, spent, dropped)| CaseStats {
            expected_rtp_bp: domain.catalog.case(&case_id).and_then(|c| domain.catalog.rtp_bp(c)),
            realised_rtp_bp: if spent > 0 { (i128::from(dropped) * 10_000 / i128::from(spent)) as i64 } else { 0 },
            case_id,
            opens,
            spent: Tokens(spent),
            dropped: Tokens(dropped),
        })
        .collect();
    let repriced_at = crate::domain::pricing::last_reprice(&domain.db).await?;
    let (settling_withdrawals, settling_value) = crate::domain::delivery::settling(domain).await?;
    let books = finance::books(&domain.db, finance_settings(domain), now, STATS_BOOK_DAYS).await?;
    audit_read(domain, actor, "stats", "").await?;
    Ok(Stats {
        books,
        settling_withdrawals,
        settling_value,
        repriced_at,
        users,
        opens_today,
        opens_total,
        tokens_in_circulation: Tokens(tokens),
        stars_received,
        stars_refunded,
        orphan_payments,
        open_tickets,
        pending_withdrawals,
        cases,
    })
}

#[derive(Clone, Debug)]
pub struct UserItem {
    pub id: i64,
    pub name: String,
    pub status: String,
    pub token_price: Tokens,
}

#[derive(Clone, Debug)]
pub struct UserReport {
    pub id: i64,
    pub name: String,
    pub username: Option<String>,
    pub balance: Tokens,
    /// Owed after a refunded purchase (0 when none).
    pub debt: Tokens,
    pub demo: bool,
    pub language: &'static str,
    pub bot_blocked: bool,
    pub created_at: String,
    /// Items by status (sold included), e.g. `[("received", 3)]`.
    pub item_counts: Vec<(String, i64)>,
    /// The newest items still in the inventory (at most 10).
    pub items: Vec<UserItem>,
    /// The newest ledger lines (at most 10).
    pub ledger: Vec<LedgerLine>,
    pub payments: i64,
}

pub async fn user_report(domain: &Domain, actor: Actor, user_id: i64) -> DomainResult<UserReport> {
    ensure(domain, actor)?;
    type Row = (String, String, Option<String>, i64, i64, i64, i64, i64);
    let row: Option<Row> = domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT first_name, last_name, username, balance, bot_blocked, created_at, debt, is_demo FROM users WHERE id = $1")
                    .bind(user_id)
                    .fetch_optional(c)
                    .await
            })
        })
        .await?;
    let (first, last, username, balance, bot_blocked, created_at, debt, demo) = row.ok_or(DomainError::NotFound)?;
    let item_counts: Vec<(String, i64)> = domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT status, COUNT(*) FROM inventory_items WHERE user_id = $1 GROUP BY status ORDER BY status")
                    .bind(user_id)
                    .fetch_all(c)
                    .await
            })
        })
        .await?;
    let items: Vec<(i64, String, String, i64)> = domain
        .read(move |c| {
            Box::pin(async move {
                query(
                    "SELECT id, weapon || ' | ' || finish, status, token_price FROM inventory_items
         WHERE user_id = $1 AND status <> 'sold' ORDER BY id DESC LIMIT 10",
                )
                .bind(user_id)
                .fetch_all(c)
                .await
            })
        })
        .await?;
    let (payments,): (i64,) = domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT COUNT(*) FROM payments WHERE user_id = $1 AND status <> 'pending'").bind(user_id).fetch_one(c).await
            })
        })
        .await?;
    let ledger = ledger::recent(domain, user_id, 10).await?;
    audit_read(domain, actor, "user", &user_id.to_string()).await?;
    Ok(UserReport {
        id: user_id,
        name: users::display_name(&first, &last, None),
        username,
        balance: Tokens(balance),
        debt: Tokens(debt),
        demo: demo != 0,
        language: users::language(domain, user_id).await.as_str(),
        bot_blocked: bot_blocked != 0,
        created_at: rfc3339(created_at),
        item_counts,
        items: items.into_iter().map(|(id, name, status, price)| UserItem { id, name, status, token_price: Tokens(price) }).collect(),
        ledger,
        payments,
    })
}
