//! Automatic delivery (issue #23): the worker that buys a withdrawal on a P2P market for the
//! player, follows the purchase to the player's Steam account, and settles it after Steam's
//! trade protection.
//!
//! The life of an automatic withdrawal (`withdrawals.market_state`):
//! ```text
//! queued ─claim (lease)─► buying ─Bought─► bought ─trade id─► offer_sent ─stage 2─► settling ─time─► settled
//!    │                      │ Refused: player's ─► bounced (item back, reason code)    │ seller reversal ─► reversed (item back)
//!    │                      │ Refused: shop's   ─► manual (admins' queue, reason)      └ player reversal ─► player_reversed
//!    │                      │ Lost / lease ran out ─► the attempt is unknown: looked up over the window
//!    │                      │     known ─► bought; still unknown after the window ─► queued (a new attempt)
//!    └ budget spent, no price, bounce limit ─► manual   bought/offer_sent + stage 5 ─► bounced (offer_expired)
//! ```
//! Every step is one conditional write (`WHERE market_state = <the state it leaves>`), durable
//! before the next market call leaves the process. A purchase attempt's `custom_id` is written
//! (with its budget reservation) before `buy` is called. An attempt whose outcome we do not know
//! (a timeout, a dropped answer, a 5xx, a crash, an answer we do not understand) is `unknown`: it
//! is looked up again until a look-up made `lookup_window` after that moment still does not know
//! it, and no new attempt of its withdrawal starts while any attempt is `buying` or `unknown`, so
//! a market that answers late or shows a purchase late never gets a second one. A worker acts on
//! a withdrawal only under that withdrawal's own lease, checked in the write that starts the
//! attempt (the fence). The API key's request pace is shared by every replica (`SharedPace`).
pub mod meter;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use crate::domain::clock::{random_hex, utc_day};
use crate::domain::goods::Exterior;
use crate::domain::market::{self, BuyOutcome, Causer, CustomId, Market, MarketConfig, Purchase, PurchaseStatus, Stage, Usd};
use crate::domain::notifications::Notice;
use crate::domain::outbox::{self, tell_admins};
use crate::domain::store::{self, query, Exec};
use crate::domain::trade_url::TradeUrl;
use crate::domain::withdrawals::{has_open_attempt, move_item, transition, Cond, From, ItemStatus, MarketState, Move, Outcome};
use crate::domain::{inventory, ledger, Domain, DomainError, DomainResult, Tokens};

pub use meter::{Call, Meter};

/// Withdrawals claimed per tick.
const CLAIM_BATCH: i64 = 10;
/// Settling purchases are polled every this many ticks (they change rarely), and always when due.
const SETTLING_EVERY: u64 = 10;
/// The named lease of the poller across replicas.
const POLL_LEASE: &str = "market-poll";

/// How the worker runs (the binary builds it from `MARKET_*`).
#[derive(Clone, Debug)]
pub struct Settings {
    pub market: MarketConfig,
    /// Tokens per US dollar (hundredths), to turn a variant's token price into dollars.
    pub tokens_per_usd: Tokens,
    /// New purchases start. False when the provider is switched off: purchases in flight are
    /// still resolved, followed and settled, nothing new is bought.
    pub buying: bool,
    /// How long a claim keeps a withdrawal from other workers; longer than a buy call can take.
    pub lease: Duration,
    /// No progress for this long raises the withdrawal to the admins (once).
    pub stuck_after: Duration,
    /// Admin chats told about bounces, the manual queue, reversals and stuck ones.
    pub admins: Vec<i64>,
    /// Attempts (each proven not bought before the next) before the admins take over.
    pub max_attempts: i64,
    /// How long an attempt of unknown outcome is looked up before it counts as not bought.
    pub lookup_window: Duration,
    /// Bounces of one skin within `bounce_window` after which its next withdrawal waits for the admins.
    pub bounce_limit: i64,
    pub bounce_window: Duration,
}

impl Settings {
    pub const DEFAULT_LEASE_SECS: u64 = 120;
    pub const DEFAULT_STUCK_AFTER_SECS: u64 = 3600;
    pub const DEFAULT_MAX_ATTEMPTS: i64 = 5;
    pub const DEFAULT_LOOKUP_WINDOW_SECS: u64 = 180;
    pub const DEFAULT_BOUNCE_LIMIT: i64 = 3;
    pub const DEFAULT_BOUNCE_WINDOW_HOURS: u64 = 24;
}

/// The API key's request pace, shared by every process on the database: the next free slot is a
/// row (`market_pace`), taken in one conditional write per request, so replicas together never
/// send more than `per_sec` requests a second whatever each of them does.
pub struct SharedPace {
    domain: Domain,
    name: &'static str,
    interval_ms: i64,
}

impl SharedPace {
    pub fn new(domain: Domain, name: &'static str, per_sec: u32) -> SharedPace {
        SharedPace { domain, name, interval_ms: 1_000 / i64::from(per_sec.max(1)) }
    }

    /// Takes the next free slot at or after `now_ms` (Unix milliseconds) and answers it; every
    /// slot taken is `interval_ms` after the one before, whichever process took it.
    pub async fn take_slot(&self, now_ms: i64) -> DomainResult<i64> {
        let (name, interval) = (self.name, self.interval_ms);
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    query("INSERT INTO market_pace(name, next_at_ms) VALUES ($1, 0) ON CONFLICT(name) DO NOTHING")
                        .bind(name)
                        .execute(tx)
                        .await?;
                    let (next,): (i64,) = query(
                        "UPDATE market_pace SET next_at_ms = CASE WHEN next_at_ms > $2 THEN next_at_ms ELSE $2 END + $3
                         WHERE name = $1 RETURNING next_at_ms",
                    )
                    .bind(name)
                    .bind(now_ms)
                    .bind(interval)
                    .fetch_one(tx)
                    .await?;
                    Ok(next - interval)
                })
            })
            .await
    }
}

/// The configured market, pacing every request at the API key's shared pace. Every caller that
/// talks to the market (the worker, the CLI, the audit) connects through here.
pub fn connect_market(domain: &Domain, config: &MarketConfig) -> market::MarketResult<Arc<dyn Market>> {
    let pace = Arc::new(SharedPace::new(domain.clone(), config.provider.name(), config.requests_per_sec));
    market::connect::connect(config, pace)
}

/// Wall-clock milliseconds: the pace is about real time between requests, not the domain's
/// (injectable) clock of business time.
fn wall_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

impl market::Pace for SharedPace {
    fn wait_turn(&self) -> market::BoxFuture<'_, ()> {
        Box::pin(async move {
            loop {
                let now = wall_ms();
                match self.take_slot(now).await {
                    Ok(slot) => {
                        tokio::time::sleep(Duration::from_millis((slot - now).max(0) as u64)).await;
                        return;
                    }
                    // Without the shared slot no request leaves: waiting is safe, going over is not.
                    Err(e) => {
                        tracing::warn!(error = %e, "the market's pace could not be taken; waiting");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        })
    }
}

/// The UTC day (`YYYY-MM-DD`) a spend at `unix` counts against.
pub fn budget_day(unix: i64) -> String {
    utc_day(unix).format("%Y-%m-%d").to_string()
}

/// What the shop spent on the market on the UTC day `day` (`budget_day`), in cents.
pub async fn spent_on(domain: &Domain, day: &str) -> DomainResult<Usd> {
    let day = day.to_owned();
    domain.read(move |c| Box::pin(async move { spent_on_in(c, &day).await })).await
}

/// `spent_on` inside a read or a write.
pub async fn spent_on_in(tx: &mut dyn Exec, day: &str) -> DomainResult<Usd> {
    let row: Option<(i64,)> = query("SELECT spent_cents FROM market_spend WHERE day = $1").bind(day).fetch_optional(tx).await?;
    Ok(Usd::from_cents(row.map_or(0, |r| r.0)))
}

/// Settling withdrawals (delivered, still reversible): how many, and their token value.
pub async fn settling(domain: &Domain) -> DomainResult<(i64, Tokens)> {
    let (n, value): (i64, i64) = domain
        .read(|c| {
            Box::pin(async move {
                query(
                    "SELECT COUNT(*), CAST(COALESCE(SUM(i.token_price), 0) AS BIGINT) FROM withdrawals w
                     JOIN inventory_items i ON i.id = w.inventory_item_id WHERE w.market_state = 'settling'",
                )
                .fetch_one(c)
                .await
            })
        })
        .await?;
    Ok((n, Tokens(value)))
}

/// Withdrawals in the market's hands (queued, being bought, offered, settling): what a process
/// without a market key would leave waiting.
pub async fn in_flight(domain: &Domain) -> DomainResult<i64> {
    let (n,): (i64,) = domain
        .read(|c| {
            Box::pin(async move {
                query("SELECT COUNT(*) FROM withdrawals WHERE market_state IN ('queued', 'buying', 'bought', 'offer_sent', 'settling')")
                    .fetch_one(c)
                    .await
            })
        })
        .await?;
    Ok(n)
}

/// What the market charged in total (every purchase whose price is known), in cents.
pub async fn total_paid_in(tx: &mut dyn Exec) -> DomainResult<Usd> {
    let (paid,): (i64,) = query("SELECT CAST(COALESCE(SUM(price_paid_cents), 0) AS BIGINT) FROM withdrawals").fetch_one(tx).await?;
    Ok(Usd::from_cents(paid))
}

/// An operator puts a withdrawal of the manual queue back in the market's hands (after topping
/// the balance up, a new budget day...). Only a `manual` one that is still pending and has no
/// attempt of unknown outcome (it may have bought: it is looked up until it is known).
pub async fn requeue(domain: &Domain, withdrawal_id: i64) -> DomainResult<()> {
    let now = domain.now();
    domain
        .write(move |tx| {
            Box::pin(async move {
                // Asked first: an attempt never becomes unresolved again, so none found here stays
                // none for the move below, and a refusal names the right reason.
                if has_open_attempt(tx, withdrawal_id).await? {
                    return Err(DomainError::PurchaseLive);
                }
                let moved = transition(
                    tx,
                    Move {
                        id: withdrawal_id,
                        from: From::In(&[MarketState::Manual]),
                        to: MarketState::Queued,
                        when: vec![Cond::Pending, Cond::NoOpenAttempt],
                        set: vec![
                            ("market_reason", None::<String>.into()),
                            ("market_updated_at", now.into()),
                            ("stuck_notified_at", None::<i64>.into()),
                            ("lease_holder", None::<String>.into()),
                            ("lease_until", None::<i64>.into()),
                        ],
                    },
                )
                .await?;
                if moved {
                    Ok(())
                } else {
                    Err(DomainError::NotFound)
                }
            })
        })
        .await
}

/// Runs the worker until `stop`: one tick at once, then one every `MARKET_POLL_SECS`. A tick
/// finishes what it started (a buy call included) before the stop is seen.
pub async fn run(domain: Domain, market: Arc<dyn Market>, settings: Settings, account_checked: bool, stop: impl Future<Output = ()>) {
    domain.delivery.enable();
    let holder = format!("{}-{}", std::process::id(), random_hex(domain.random.as_ref(), 4));
    let mut worker = Worker { domain, market, settings, holder, account_ok: account_checked };
    tokio::pin!(stop);
    let mut n: u64 = 0;
    loop {
        if let Err(e) = worker.tick(n).await {
            tracing::warn!(error = %e, "delivery tick failed");
        }
        n = n.wrapping_add(1);
        tokio::select! {
            _ = &mut stop => return,
            _ = tokio::time::sleep(worker.settings.market.poll) => {}
        }
    }
}

/// One worker of this process (tests drive it tick by tick).
pub struct Worker {
    pub domain: Domain,
    pub market: Arc<dyn Market>,
    pub settings: Settings,
    /// This worker's name in the leases it holds.
    pub holder: String,
    /// The account's currency was checked (USD); buying waits until it is.
    pub account_ok: bool,
}

/// A claimed withdrawal, with what a purchase needs.
#[derive(Debug)]
struct Claimed {
    id: i64,
    item_id: i64,
    attempt: i64,
    trade_url: String,
    market_hash_name: String,
    catalog_item_id: String,
    stat_trak: bool,
    exterior: Option<String>,
    token_price: i64,
}

/// A withdrawal whose purchase is followed on the market.
struct Followed {
    id: i64,
    state: String,
    custom_id: CustomId,
    settle_until: Option<i64>,
    price_paid_cents: Option<i64>,
    max_price_cents: Option<i64>,
}

impl Worker {
    /// Claims and works what waits, polls what is in flight, settles what is due, raises what is stuck.
    pub async fn tick(&mut self, n: u64) -> DomainResult<()> {
        if self.settings.buying && !self.account_ok {
            // Start-up could not reach the market: the currency is checked before the first buy.
            let balance = market::check_account(&*self.market).await;
            self.domain.delivery.count(Call::Balance, balance.is_ok());
            match balance {
                Ok(_) => self.account_ok = true,
                Err(e) => tracing::error!(error = %e, "market account check failed; nothing is bought until it passes"),
            }
        }
        self.recover().await?;
        if self.settings.buying && self.account_ok {
            // One lease per withdrawal, taken right before its purchase: a lease never has to
            // outlive a batch of calls.
            for _ in 0..CLAIM_BATCH {
                let Some(id) = self.claim_one().await? else { break };
                if let Err(e) = self.work(id).await {
                    tracing::warn!(withdrawal = id, error = %e, "delivery step failed; it is tried again next tick");
                    // Whatever the step reached is durable: an attempt left `buying` is recovered
                    // as unknown once its lease runs out, a `queued` one starts again.
                    let _ = self.release(id).await;
                }
            }
        }
        self.poll(n).await?;
        self.raise_stuck().await
    }

    /// An attempt still `buying` whose withdrawal's lease ran out: the worker that started it
    /// stopped (a crash, a kill, a hang) and its call may have bought. From now on it is unknown,
    /// looked up over the window like any lost answer.
    async fn recover(&self) -> DomainResult<()> {
        let now = self.domain.now();
        let recovered = self
            .domain
            .write(move |tx| {
                Box::pin(async move {
                    query(
                        "UPDATE market_attempts SET outcome = 'unknown', unknown_since = $1
                         WHERE outcome = 'buying' AND custom_id IN (
                             SELECT custom_id FROM withdrawals
                             WHERE market_state = 'buying' AND custom_id IS NOT NULL AND (lease_until IS NULL OR lease_until <= $1))",
                    )
                    .bind(now)
                    .execute(tx)
                    .await
                })
            })
            .await?;
        if recovered > 0 {
            tracing::warn!(recovered, "purchase attempts whose worker stopped are unknown now; they are looked up before anything else");
        }
        Ok(())
    }

    /// Takes the lease of the oldest queued withdrawal (one), for `lease`.
    pub async fn claim_one(&self) -> DomainResult<Option<i64>> {
        let now = self.domain.now();
        let me = self.holder.clone();
        let until = now + self.settings.lease.as_secs().max(1) as i64;
        let row: Option<(i64,)> = self
            .domain
            .write(move |tx| {
                Box::pin(async move {
                    let sql = format!(
                        "UPDATE withdrawals SET lease_holder = $1, lease_until = $2
                         WHERE id IN (SELECT id FROM withdrawals WHERE status = 'pending' AND market_state = 'queued'
                                        AND (lease_until IS NULL OR lease_until <= $3) ORDER BY id LIMIT 1{})
                           AND status = 'pending' AND market_state = 'queued' AND (lease_until IS NULL OR lease_until <= $3)
                         RETURNING id",
                        store::claim_suffix(tx)
                    );
                    query(&sql).bind(me).bind(until).bind(now).fetch_optional(tx).await
                })
            })
            .await?;
        Ok(row.map(|r| r.0))
    }

    async fn claimed(&self, id: i64) -> DomainResult<Option<Claimed>> {
        type Row = (i64, i64, i64, String, String, String, i64, Option<String>, i64, Option<String>, String);
        let row: Option<Row> = self
            .domain
            .read(move |c| {
                Box::pin(async move {
                    query(
                        "SELECT w.id, w.inventory_item_id, w.attempt, w.trade_url,
                    COALESCE(i.market_hash_name, i.weapon || ' | ' || i.finish), i.catalog_item_id, i.stat_trak, i.exterior,
                    i.token_price, w.lease_holder, w.market_state
             FROM withdrawals w JOIN inventory_items i ON i.id = w.inventory_item_id WHERE w.id = $1 AND w.status = 'pending'",
                    )
                    .bind(id)
                    .fetch_optional(c)
                    .await
                })
            })
            .await?;
        Ok(row.filter(|r| r.9.as_deref() == Some(self.holder.as_str()) && r.10 == "queued").map(|r| Claimed {
            id: r.0,
            item_id: r.1,
            attempt: r.2,
            trade_url: r.3,
            market_hash_name: r.4,
            catalog_item_id: r.5,
            stat_trak: r.6 != 0,
            exterior: r.7,
            token_price: r.8,
        }))
    }

    /// Works a withdrawal this worker claimed: starts its next purchase attempt. Public for the
    /// tests that drive two workers by hand.
    pub async fn work(&self, id: i64) -> DomainResult<()> {
        let Some(c) = self.claimed(id).await? else { return Ok(()) };
        self.buy(&c).await
    }

    /// The variant's USD market price: its token price now (the served catalog, or the price
    /// the skin dropped at) at `TOKENS_PER_USD`, by the money module's one conversion.
    fn variant_usd(&self, c: &Claimed) -> Option<Usd> {
        let exterior = c.exterior.as_deref().and_then(Exterior::from_steam_name);
        let tokens = self
            .domain
            .catalog
            .item(&c.catalog_item_id)
            .and_then(|it| it.price(c.stat_trak, exterior))
            .filter(|t| t.0 > 0)
            .unwrap_or(Tokens(c.token_price));
        Usd::from_tokens(tokens, self.settings.tokens_per_usd).filter(|usd| usd.cents() > 0)
    }

    async fn buy(&self, c: &Claimed) -> DomainResult<()> {
        let Some(price) = self.variant_usd(c) else { return self.write_manual(c.id, &[MarketState::Queued], None, "no_price").await };
        let cap = self.settings.market.cap(price);
        if c.attempt >= self.settings.max_attempts {
            return self.write_manual(c.id, &[MarketState::Queued], None, "market_unavailable").await;
        }
        let Ok(url) = TradeUrl::parse(&c.trade_url) else {
            return self
                .write_back_to_player(c.id, &[MarketState::Queued], None, MarketState::Bounced, "trade_url_invalid")
                .await
                .map(|_| ());
        };
        let attempt = c.attempt + 1;
        let cid = CustomId::parse(&format!("fb{}-{}-{}", c.id, attempt, random_hex(self.domain.random.as_ref(), 4)))
            .ok_or_else(|| DomainError::Internal("custom id".into()))?;
        if !self.start_attempt(c, attempt, &cid, cap).await? {
            return Ok(());
        }
        let purchase = Purchase {
            market_hash_name: c.market_hash_name.clone(),
            partner: url.partner,
            token: url.token,
            max_price: cap,
            custom_id: cid.clone(),
        };
        let outcome = self.market.buy(&purchase).await;
        self.domain.delivery.count(Call::Buy, matches!(outcome, BuyOutcome::Bought { .. }));
        match outcome {
            BuyOutcome::Bought { market_id } => {
                self.write_bought(c.id, &cid, Some(market_id).filter(|m| !m.is_empty())).await?;
                Ok(())
            }
            BuyOutcome::Refused(r) if r.needs_look_up() => {
                // An answer we do not understand: the shop's problem, never the player's and never
                // a retry. It may have bought, so the attempt is looked up like a lost answer.
                tracing::warn!(withdrawal = c.id, refusal = ?r, "market answered what we do not understand: manual queue, looked up");
                self.write_unknown(c.id, &cid, Some(r.code())).await
            }
            BuyOutcome::Refused(r) if r.is_players() => {
                tracing::info!(withdrawal = c.id, reason = r.code(), "market refused: back to the player");
                self.write_back_to_player(c.id, &[MarketState::Buying], Some(&cid), MarketState::Bounced, r.code()).await.map(|_| ())
            }
            BuyOutcome::Refused(r) => {
                tracing::warn!(withdrawal = c.id, refusal = ?r, "market refused on the shop's side: manual queue");
                self.write_manual(c.id, &[MarketState::Buying], Some(&cid), r.code()).await
            }
            BuyOutcome::Lost(why) => {
                tracing::warn!(withdrawal = c.id, custom_id = %cid, why, "buy answer lost; the attempt is unknown until the market says");
                self.write_unknown(c.id, &cid, None).await
            }
        }
    }

    /// Gives this worker's claim on `id` back (the next tick claims it again).
    async fn release(&self, id: i64) -> DomainResult<()> {
        let me = self.holder.clone();
        self.domain
            .execute(
                query("UPDATE withdrawals SET lease_holder = NULL, lease_until = NULL WHERE id = $1 AND lease_holder = $2")
                    .bind(id)
                    .bind(me),
            )
            .await?;
        Ok(())
    }

    /// queued → buying, with the attempt's custom id and budget reservation, in one write.
    /// The fence: it moves only while this worker's lease on the withdrawal still covers the call
    /// (renewed for it here), and only when no earlier attempt of the withdrawal is in flight,
    /// unknown or bought. A skin that bounced `bounce_limit` times within `bounce_window`, or a cap
    /// the day's budget cannot reserve, goes to the admins instead. False when nothing is to be
    /// bought now.
    async fn start_attempt(&self, c: &Claimed, attempt: i64, cid: &CustomId, cap: Usd) -> DomainResult<bool> {
        let now = self.domain.now();
        let day = budget_day(now);
        let budget = self.settings.market.daily_budget;
        let (id, item_id, me, cid, admins) = (c.id, c.item_id, self.holder.clone(), cid.as_str().to_owned(), self.settings.admins.clone());
        let item = c.market_hash_name.clone();
        // The lease must outlast the call it covers: one request's limit and a margin for the pace.
        let call_secs = self.settings.market.request_timeout.as_secs() as i64 + 2;
        let until = now + (self.settings.lease.as_secs() as i64).max(call_secs);
        let (bounce_limit, bounce_since) = (self.settings.bounce_limit, now - self.settings.bounce_window.as_secs() as i64);
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    let fenced = query(
                        "UPDATE withdrawals SET lease_until = $1
                         WHERE id = $2 AND status = 'pending' AND market_state = 'queued' AND lease_holder = $3 AND lease_until >= $4
                           AND NOT EXISTS (SELECT 1 FROM market_attempts a
                                           WHERE a.withdrawal_id = $2 AND a.outcome IN ('buying', 'unknown', 'bought'))",
                    )
                    .bind(until)
                    .bind(id)
                    .bind(&me)
                    .bind(now + call_secs)
                    .execute(tx)
                    .await?;
                    if fenced != 1 {
                        return Ok(false);
                    }
                    let (bounces,): (i64,) = query(
                        "SELECT COUNT(*) FROM withdrawals
                         WHERE inventory_item_id = $1 AND market_state = 'bounced' AND market_reason <> 'no_offer' AND resolved_at > $2",
                    )
                    .bind(item_id)
                    .bind(bounce_since)
                    .fetch_one(tx)
                    .await?;
                    if bounces >= bounce_limit {
                        if to_manual(tx, id, &[MarketState::Queued], None, "bounce_limit", now).await? {
                            let body = format!(
                                "🛒 Withdrawal #{id} ({item}) waits in the manual queue: this skin came back {bounces} times recently (offers declined or expired, or the player's account refused). Check with the player before /sent, /fail or `fragbox withdrawals retry {id}`."
                            );
                            tell_admins(tx, &admins, &body, now).await?;
                        }
                        return Ok(false);
                    }
                    let reserved = match budget {
                        Some(budget) => reserve(tx, &day, cap.cents(), budget.cents()).await?,
                        None => {
                            add_spend(tx, &day, cap.cents()).await?;
                            true
                        }
                    };
                    if !reserved {
                        if to_manual(tx, id, &[MarketState::Queued], None, "daily_budget", now).await? {
                            let body = format!(
                                "🛒 Withdrawal #{id} ({item}) waits in the manual queue: today's market budget ({}) would be exceeded by its cap {cap}.",
                                budget.unwrap_or(Usd::ZERO)
                            );
                            tell_admins(tx, &admins, &body, now).await?;
                        }
                        return Ok(false);
                    }
                    let moved = transition(
                        tx,
                        Move {
                            id,
                            from: From::In(&[MarketState::Queued]),
                            to: MarketState::Buying,
                            when: vec![Cond::Pending, Cond::LeaseHolder(me.clone())],
                            set: vec![
                                ("attempt", attempt.into()),
                                ("custom_id", cid.clone().into()),
                                ("max_price_cents", cap.cents().into()),
                                ("market_updated_at", now.into()),
                                ("stuck_notified_at", None::<i64>.into()),
                            ],
                        },
                    )
                    .await?;
                    if !moved {
                        return Err(DomainError::Internal(format!("withdrawal {id}: fenced but not moved")));
                    }
                    query(
                        "INSERT INTO market_attempts(custom_id, withdrawal_id, attempt, max_price_cents, spent_cents, day, outcome, created_at)
                         VALUES ($1, $2, $3, $4, $5, $6, 'buying', $7)",
                    )
                    .bind(&cid)
                    .bind(id)
                    .bind(attempt)
                    .bind(cap.cents())
                    .bind(cap.cents())
                    .bind(&day)
                    .bind(now)
                    .execute(tx)
                    .await?;
                    Ok(true)
                })
            })
            .await
    }

    async fn write_bought(&self, id: i64, cid: &CustomId, market_id: Option<String>) -> DomainResult<bool> {
        let now = self.domain.now();
        let (cid, admins) = (cid.as_str().to_owned(), self.settings.admins.clone());
        self.domain.write(move |tx| Box::pin(bought(tx, id, cid, market_id, now, admins))).await
    }

    /// The attempt's outcome is unknown from now: it stays the withdrawal's attempt and is looked
    /// up by the poller until the market knows it or the window passes. `manual` (an answer we
    /// do not understand) sends the withdrawal to the admins meanwhile; otherwise it stays
    /// `buying`. The lease is given back either way: looking up needs none.
    async fn write_unknown(&self, id: i64, cid: &CustomId, manual: Option<&'static str>) -> DomainResult<()> {
        let now = self.domain.now();
        let (cid, admins) = (cid.as_str().to_owned(), self.settings.admins.clone());
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    query("UPDATE market_attempts SET outcome = 'unknown', unknown_since = $1 WHERE custom_id = $2 AND outcome = 'buying'")
                        .bind(now)
                        .bind(&cid)
                        .execute(tx)
                        .await?;
                    let mut set: Vec<(&'static str, store::Param)> =
                        vec![("market_updated_at", now.into()), ("lease_holder", None::<String>.into()), ("lease_until", None::<i64>.into())];
                    if let Some(reason) = manual {
                        set.push(("market_reason", reason.into()));
                    }
                    let to = if manual.is_some() { MarketState::Manual } else { MarketState::Buying };
                    let moved = transition(
                        tx,
                        Move { id, from: From::In(&[MarketState::Buying]), to, when: vec![Cond::Pending, Cond::Attempt(cid.clone())], set },
                    )
                    .await?;
                    if let (Some(reason), true) = (manual, moved) {
                        let body = format!(
                            "🛒 Withdrawal #{id} waits in the manual queue: the market answered what we do not understand ({reason}). Its purchase {cid} is looked up until it is known; do not send it by hand before then."
                        );
                        tell_admins(tx, &admins, &body, now).await?;
                    }
                    Ok(())
                })
            })
            .await
    }

    async fn write_manual(&self, id: i64, from: &'static [MarketState], cid: Option<&CustomId>, reason: &'static str) -> DomainResult<()> {
        let now = self.domain.now();
        let cid = cid.map(|c| c.as_str().to_owned());
        let admins = self.settings.admins.clone();
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    if to_manual(tx, id, from, cid.as_deref(), reason, now).await? {
                        let body = format!("🛒 Withdrawal #{id} waits in the manual queue: {reason}. Resolve it with /sent or /fail, or `fragbox withdrawals retry {id}`.");
                        tell_admins(tx, &admins, &body, now).await?;
                    }
                    Ok(())
                })
            })
            .await
    }

    async fn write_back_to_player(
        &self,
        id: i64,
        from: &'static [MarketState],
        cid: Option<&CustomId>,
        to: MarketState,
        code: &'static str,
    ) -> DomainResult<bool> {
        let now = self.domain.now();
        let cid = cid.map(|c| c.as_str().to_owned());
        let admins = self.settings.admins.clone();
        self.domain.write(move |tx| Box::pin(back_to_player(tx, id, from, cid, to, code, now, admins))).await
    }

    /// The withdrawal as the poller follows it (`None` once it left the followed states).
    async fn followed(&self, id: i64) -> DomainResult<Option<Followed>> {
        type Row = (i64, String, Option<String>, Option<i64>, Option<i64>, Option<i64>);
        let row: Option<Row> = self
            .domain
            .read(move |c| {
                Box::pin(async move {
                    query(&format!(
                        "SELECT id, market_state, custom_id, settle_until, price_paid_cents, max_price_cents FROM withdrawals
             WHERE id = $1 AND (market_state IN {} OR market_state = 'settling')",
                        MarketState::sql_list(MarketState::IN_FLIGHT)
                    ))
                    .bind(id)
                    .fetch_optional(c)
                    .await
                })
            })
            .await?;
        Ok(row.and_then(followed_of))
    }

    /// Polls purchases in flight (and settling ones now and then) and every attempt of unknown
    /// outcome, in batches, from one replica at a time.
    async fn poll(&self, n: u64) -> DomainResult<()> {
        let Some(lease) = store::try_lease(&self.domain.db, POLL_LEASE).await? else { return Ok(()) };
        // What the market does not know at `asked` it did not know at any earlier moment either:
        // an unknown attempt is given up only by a look-up asked after its whole window.
        let asked = self.domain.now();
        type Row = (i64, String, Option<String>, Option<i64>, Option<i64>, Option<i64>);
        let rows: Vec<Row> = self
            .domain
            .read(move |c| {
                Box::pin(async move {
                    query(&format!(
                        "SELECT id, market_state, custom_id, settle_until, price_paid_cents, max_price_cents FROM withdrawals
             WHERE market_state IN {} OR (market_state = 'settling' AND ($1 = 1 OR settle_until <= $2)) ORDER BY id",
                        MarketState::sql_list(MarketState::IN_FLIGHT)
                    ))
                    .bind(i64::from(n.is_multiple_of(SETTLING_EVERY)))
                    .bind(asked)
                    .fetch_all(c)
                    .await
                })
            })
            .await?;
        let followed: Vec<Followed> = rows.into_iter().filter_map(followed_of).collect();
        let unknown: Vec<(String, i64, i64)> = self.domain.read(move |c| Box::pin(async move { query(
            "SELECT custom_id, withdrawal_id, COALESCE(unknown_since, created_at) FROM market_attempts WHERE outcome = 'unknown' ORDER BY custom_id",
        )
        .fetch_all(c)
        .await })).await?;
        let unknown: Vec<(CustomId, i64, i64)> =
            unknown.into_iter().filter_map(|(c, w, since)| CustomId::parse(&c).map(|c| (c, w, since))).collect();
        if followed.is_empty() && unknown.is_empty() {
            lease.release().await;
            return Ok(());
        }
        let ids: Vec<CustomId> = followed.iter().map(|f| f.custom_id.clone()).chain(unknown.iter().map(|u| u.0.clone())).collect();
        let answer = market::statuses_batched(&*self.market, &ids).await;
        let batches = ids.len().div_ceil(self.market.max_batch().max(1));
        for _ in 0..batches {
            self.domain.delivery.count(Call::Status, answer.is_ok());
        }
        let statuses = match answer {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(error = %e, "market status poll failed; trying again next tick");
                lease.release().await;
                return Ok(());
            }
        };
        let window = self.settings.lookup_window.as_secs() as i64;
        for (cid, wid, since) in &unknown {
            let step = match statuses.get(cid) {
                Some(status) => self.found(*wid, cid, status).await,
                None if asked >= since + window => self.write_not_bought(*wid, cid, asked).await,
                None => Ok(()),
            };
            if let Err(e) = step {
                tracing::warn!(withdrawal = wid, custom_id = %cid, error = %e, "resolving an unknown attempt failed");
            }
        }
        for f in &followed {
            if let Some(status) = statuses.get(&f.custom_id) {
                if let Err(e) = self.apply(f, status).await {
                    tracing::warn!(withdrawal = f.id, error = %e, "applying a market status failed");
                }
            }
            if f.state == "settling" && f.settle_until.is_some_and(|t| t <= asked) {
                self.write_settled(f.id).await?;
            }
        }
        lease.release().await;
        Ok(())
    }

    /// The market knows an attempt we did not: bought, never again; its status is applied.
    async fn found(&self, wid: i64, cid: &CustomId, status: &PurchaseStatus) -> DomainResult<()> {
        self.write_bought(wid, cid, None).await?;
        if let Some(f) = self.followed(wid).await?.filter(|f| &f.custom_id == cid) {
            self.apply(&f, status).await?;
        }
        Ok(())
    }

    /// A look-up asked after the whole window still does not know the attempt: nothing was bought
    /// under it. Its reservation goes back, and a withdrawal still `buying` under it is queued for
    /// a new attempt (one in the manual queue stays there, for the admins).
    async fn write_not_bought(&self, wid: i64, cid: &CustomId, asked: i64) -> DomainResult<()> {
        let cid = cid.as_str().to_owned();
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    let given_up = query(
                        "UPDATE market_attempts SET outcome = 'not_bought', looked_up_at = $1 WHERE custom_id = $2 AND outcome = 'unknown'",
                    )
                    .bind(asked)
                    .bind(&cid)
                    .execute(tx)
                    .await?;
                    if given_up != 1 {
                        return Ok(());
                    }
                    set_attempt_spend(tx, &cid, 0).await?;
                    transition(
                        tx,
                        Move {
                            id: wid,
                            from: From::In(&[MarketState::Buying]),
                            to: MarketState::Queued,
                            when: vec![Cond::Pending, Cond::Attempt(cid.clone())],
                            set: vec![
                                ("market_updated_at", asked.into()),
                                ("lease_holder", None::<String>.into()),
                                ("lease_until", None::<i64>.into()),
                            ],
                        },
                    )
                    .await?;
                    Ok(())
                })
            })
            .await
    }

    /// One purchase's status from the market, applied to its withdrawal.
    async fn apply(&self, f: &Followed, status: &PurchaseStatus) -> DomainResult<()> {
        if let (Some(paid), None) = (status.paid, f.price_paid_cents) {
            self.write_paid(f, paid).await?;
        }
        let delivered_or_in_flight = matches!(f.state.as_str(), "bought" | "offer_sent");
        match (&status.stage, f.state.as_str()) {
            (Stage::Delivered, _) if delivered_or_in_flight => self.write_delivered(f.id, status).await,
            (Stage::New, "bought") if status.trade_id.is_some() => self.write_offer_sent(f.id, status.trade_id.clone()).await,
            (Stage::TimedOut { .. }, _) if delivered_or_in_flight => self
                .write_back_to_player(f.id, MarketState::IN_FLIGHT, Some(&f.custom_id), MarketState::Bounced, "offer_expired")
                .await
                .map(|_| ()),
            (Stage::TimedOut { causer: Causer::Seller }, "settling") => self
                .write_back_to_player(f.id, &[MarketState::Settling], Some(&f.custom_id), MarketState::Reversed, "seller_reversed")
                .await
                .map(|_| ()),
            (Stage::TimedOut { .. }, "settling") => self.write_player_reversed(f.id).await,
            _ => Ok(()),
        }
    }

    /// What the market charged, against the withdrawal and the attempt's day (the reservation was the cap).
    async fn write_paid(&self, f: &Followed, paid: Usd) -> DomainResult<()> {
        let (id, cid, now, admins, cap) =
            (f.id, f.custom_id.as_str().to_owned(), self.domain.now(), self.settings.admins.clone(), f.max_price_cents);
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    let moved =
                        query("UPDATE withdrawals SET price_paid_cents = $1 WHERE id = $2 AND custom_id = $3 AND price_paid_cents IS NULL")
                            .bind(paid.cents())
                            .bind(id)
                            .bind(&cid)
                            .execute(tx)
                            .await?;
                    if moved != 1 {
                        return Ok(());
                    }
                    set_attempt_spend(tx, &cid, paid.cents()).await?;
                    if cap.is_some_and(|c| paid.cents() > c) {
                        let body =
                            format!("⚠️ Withdrawal #{id}: the market charged {paid}, over the cap {}.", Usd::from_cents(cap.unwrap_or(0)));
                        tell_admins(tx, &admins, &body, now).await?;
                    }
                    Ok(())
                })
            })
            .await
    }

    async fn write_offer_sent(&self, id: i64, trade_id: Option<String>) -> DomainResult<()> {
        let now = self.domain.now();
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    let moved = transition(
                        tx,
                        Move {
                            id,
                            from: From::In(&[MarketState::Bought]),
                            to: MarketState::OfferSent,
                            when: vec![],
                            set: vec![
                                ("trade_id", trade_id.clone().into()),
                                ("offer_sent_at", now.into()),
                                ("market_updated_at", now.into()),
                                ("stuck_notified_at", None::<i64>.into()),
                            ],
                        },
                    )
                    .await?;
                    if moved {
                        let (user_id, _, item) = owner_and_item(tx, id).await?;
                        outbox::tell_player(tx, user_id, &Notice::WithdrawalOfferSent { item, trade_id }, now).await?;
                    }
                    Ok(())
                })
            })
            .await
    }

    async fn write_delivered(&self, id: i64, status: &PurchaseStatus) -> DomainResult<()> {
        let now = self.domain.now();
        let settle_until = now + self.settings.market.settle.as_secs() as i64;
        let trade_id = status.trade_id.clone();
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    let mut set: Vec<(&'static str, store::Param)> = vec![
                        ("status", "sent".into()),
                        ("resolved_at", now.into()),
                        ("delivered_at", now.into()),
                        ("settle_until", settle_until.into()),
                        ("market_updated_at", now.into()),
                        ("stuck_notified_at", None::<i64>.into()),
                    ];
                    if let Some(trade_id) = trade_id {
                        set.push(("trade_id", trade_id.into()));
                    }
                    let moved = transition(
                        tx,
                        Move { id, from: From::In(MarketState::IN_FLIGHT), to: MarketState::Settling, when: vec![Cond::Pending], set },
                    )
                    .await?;
                    if !moved {
                        return Ok(());
                    }
                    let (user_id, item_id, item) = owner_and_item(tx, id).await?;
                    move_item(tx, item_id, &[ItemStatus::Pending], ItemStatus::Sent, None, None, now).await?;
                    outbox::tell_player(tx, user_id, &Notice::WithdrawalDelivered { item }, now).await?;
                    Ok(())
                })
            })
            .await
    }

    async fn write_player_reversed(&self, id: i64) -> DomainResult<()> {
        let now = self.domain.now();
        let admins = self.settings.admins.clone();
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    let moved = transition(
                        tx,
                        Move {
                            id,
                            from: From::In(&[MarketState::Settling]),
                            to: MarketState::PlayerReversed,
                            when: vec![],
                            set: vec![("market_reason", "player_reversed".into()), ("market_updated_at", now.into())],
                        },
                    )
                    .await?;
                    if moved {
                        let body =
                            format!("↩️ Withdrawal #{id}: the player reversed the delivered trade in Steam. Nothing goes back to them.");
                        tell_admins(tx, &admins, &body, now).await?;
                    }
                    Ok(())
                })
            })
            .await
    }

    async fn write_settled(&self, id: i64) -> DomainResult<()> {
        let now = self.domain.now();
        self.domain
            .write(move |tx| {
                Box::pin(transition(
                    tx,
                    Move {
                        id,
                        from: From::In(&[MarketState::Settling]),
                        to: MarketState::Settled,
                        when: vec![Cond::SettledBy(now)],
                        set: vec![("settled_at", now.into()), ("market_updated_at", now.into())],
                    },
                ))
            })
            .await?;
        Ok(())
    }

    /// No progress for `stuck_after`: told to the admins once (until it moves again).
    async fn raise_stuck(&self) -> DomainResult<()> {
        let now = self.domain.now();
        let before = now - self.settings.stuck_after.as_secs() as i64;
        let admins = self.settings.admins.clone();
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    let sql = format!(
                        "UPDATE withdrawals SET stuck_notified_at = $1
                         WHERE status = 'pending' AND market_state IN {}
                           AND stuck_notified_at IS NULL AND market_updated_at <= $2
                         RETURNING id, market_state",
                        MarketState::sql_list(MarketState::OPEN)
                    );
                    let stuck: Vec<(i64, String)> = query(&sql).bind(now).bind(before).fetch_all(tx).await?;
                    for (id, state) in stuck {
                        let body = format!(
                            "⏳ Withdrawal #{id} is stuck in {state}: no progress on the market for a while. Check it with /withdrawals."
                        );
                        tell_admins(tx, &admins, &body, now).await?;
                    }
                    Ok(())
                })
            })
            .await
    }
}

fn followed_of(r: (i64, String, Option<String>, Option<i64>, Option<i64>, Option<i64>)) -> Option<Followed> {
    let custom_id = r.2.as_deref().and_then(CustomId::parse)?;
    Some(Followed { id: r.0, state: r.1, custom_id, settle_until: r.3, price_paid_cents: r.4, max_price_cents: r.5 })
}

/// The withdrawal's player, skin id and skin name, in one read.
async fn owner_and_item(tx: &mut dyn Exec, id: i64) -> DomainResult<(i64, i64, String)> {
    let row: (i64, i64, String) = query(
        "SELECT w.user_id, w.inventory_item_id, COALESCE(i.market_hash_name, i.weapon || ' | ' || i.finish) FROM withdrawals w
         JOIN inventory_items i ON i.id = w.inventory_item_id WHERE w.id = $1",
    )
    .bind(id)
    .fetch_one(tx)
    .await?;
    Ok(row)
}

/// The market knows attempt `cid`: bought, never again. The attempt is `bought` whatever it was
/// (`buying` or `unknown`); its withdrawal follows the purchase from `buying`, or from `manual`
/// when an answer we did not understand had sent it there (the admins are told). A purchase found
/// for a withdrawal that moved on meanwhile is told to the admins: the audit counts it too.
async fn bought(tx: &mut dyn Exec, id: i64, cid: String, market_id: Option<String>, now: i64, admins: Vec<i64>) -> DomainResult<bool> {
    let was: Option<(String,)> = query("SELECT outcome FROM market_attempts WHERE custom_id = $1").bind(&cid).fetch_optional(tx).await?;
    query("UPDATE market_attempts SET outcome = 'bought', looked_up_at = $1 WHERE custom_id = $2 AND outcome IN ('buying', 'unknown')")
        .bind(now)
        .bind(&cid)
        .execute(tx)
        .await?;
    let state: Option<(String,)> = query(&format!(
        "SELECT market_state FROM withdrawals WHERE id = $1 AND custom_id = $2 AND status = 'pending' AND market_state IN {}",
        MarketState::sql_list(&[MarketState::Buying, MarketState::Manual])
    ))
    .bind(id)
    .bind(&cid)
    .fetch_optional(tx)
    .await?;
    let mut set: Vec<(&'static str, store::Param)> = vec![
        ("market_updated_at", now.into()),
        ("stuck_notified_at", None::<i64>.into()),
        ("lease_holder", None::<String>.into()),
        ("lease_until", None::<i64>.into()),
    ];
    if let Some(market_id) = market_id {
        set.push(("market_id", market_id.into()));
    }
    let moved = transition(
        tx,
        Move {
            id,
            from: From::In(&[MarketState::Buying, MarketState::Manual]),
            to: MarketState::Bought,
            when: vec![Cond::Pending, Cond::Attempt(cid.clone())],
            set,
        },
    )
    .await?;
    match (moved, state) {
        (true, Some((from,))) if from == MarketState::Manual.as_str() => {
            let body = format!("🛒 Withdrawal #{id}: its purchase {cid} was made after all; it is followed to the player now.");
            tell_admins(tx, &admins, &body, now).await?;
        }
        (false, _) if was.is_some_and(|(o,)| o == Outcome::Unknown.as_str()) => {
            let body = format!(
                "⚠️ The market holds purchase {cid} of withdrawal #{id}, which has moved on meanwhile. Check it on the market; `fragbox audit` counts it."
            );
            tell_admins(tx, &admins, &body, now).await?;
        }
        _ => {}
    }
    Ok(moved)
}

/// Reserves `cents` of `day`'s `budget` in one conditional write: true when it fits. Of two
/// replicas reserving at once, the second's condition is checked against the first's result.
pub async fn reserve(tx: &mut dyn Exec, day: &str, cents: i64, budget: i64) -> DomainResult<bool> {
    query("INSERT INTO market_spend(day, spent_cents) VALUES ($1, 0) ON CONFLICT(day) DO NOTHING").bind(day).execute(tx).await?;
    let moved = query("UPDATE market_spend SET spent_cents = spent_cents + $1 WHERE day = $2 AND spent_cents + $1 <= $3")
        .bind(cents)
        .bind(day)
        .bind(budget)
        .execute(tx)
        .await?;
    Ok(moved == 1)
}

/// `market_spend` of `day` moves by `delta` cents.
async fn add_spend(tx: &mut dyn Exec, day: &str, delta: i64) -> DomainResult<()> {
    if delta < 0 {
        // A reservation given back: the day's row exists (the reservation made it).
        query("UPDATE market_spend SET spent_cents = spent_cents + $1 WHERE day = $2").bind(delta).bind(day).execute(tx).await?;
        return Ok(());
    }
    query(
        "INSERT INTO market_spend(day, spent_cents) VALUES ($1, $2)
         ON CONFLICT(day) DO UPDATE SET spent_cents = market_spend.spent_cents + excluded.spent_cents",
    )
    .bind(day)
    .bind(delta)
    .execute(tx)
    .await?;
    Ok(())
}

/// An attempt now counts `cents` against its day (the cap while unknown, the price once paid, 0 when nothing was bought).
async fn set_attempt_spend(tx: &mut dyn Exec, cid: &str, cents: i64) -> DomainResult<()> {
    let row: Option<(i64, String)> =
        query("SELECT spent_cents, day FROM market_attempts WHERE custom_id = $1").bind(cid).fetch_optional(tx).await?;
    let Some((old, day)) = row else { return Ok(()) };
    if old == cents {
        return Ok(());
    }
    query("UPDATE market_attempts SET spent_cents = $1 WHERE custom_id = $2").bind(cents).bind(cid).execute(tx).await?;
    add_spend(tx, &day, cents - old).await
}

/// The attempt bought nothing: its reservation goes back to its day's budget.
async fn not_bought(tx: &mut dyn Exec, cid: &str) -> DomainResult<()> {
    set_attempt_spend(tx, cid, 0).await?;
    query("UPDATE market_attempts SET outcome = 'not_bought' WHERE custom_id = $1").bind(cid).execute(tx).await?;
    Ok(())
}

/// `from` → manual (the admins' queue) with `reason`; the attempt, if one is named, bought nothing.
async fn to_manual(tx: &mut dyn Exec, id: i64, from: &[MarketState], cid: Option<&str>, reason: &str, now: i64) -> DomainResult<bool> {
    let mut when = vec![Cond::Pending];
    when.extend(cid.map(|c| Cond::Attempt(c.to_owned())));
    let set = vec![
        ("market_reason", reason.into()),
        ("market_updated_at", now.into()),
        ("lease_holder", None::<String>.into()),
        ("lease_until", None::<i64>.into()),
    ];
    let moved = transition(tx, Move { id, from: From::In(from), to: MarketState::Manual, when, set }).await?;
    if moved {
        if let Some(c) = cid {
            not_bought(tx, c).await?;
        }
    }
    Ok(moved)
}

/// The item goes back to the player's skins with `code` (a bounce, or a seller's reversal after
/// delivery), exactly once: the conditional write that leaves `from` decides. The player and the
/// admins are told. A player who owes a debt (a refund while the purchase was live) gets the skin
/// sold back at once: its price repays the debt first.
#[allow(clippy::too_many_arguments)]
async fn back_to_player(
    tx: &mut dyn Exec,
    id: i64,
    from: &'static [MarketState],
    cid: Option<String>,
    to: MarketState,
    code: &'static str,
    now: i64,
    admins: Vec<i64>,
) -> DomainResult<bool> {
    let set = vec![
        ("status", "error".into()),
        ("reason", None::<String>.into()),
        ("reason_code", code.into()),
        ("resolved_at", now.into()),
        ("market_reason", code.into()),
        ("market_updated_at", now.into()),
        ("lease_holder", None::<String>.into()),
        ("lease_until", None::<i64>.into()),
    ];
    let when = cid.iter().map(|c| Cond::Attempt(c.clone())).collect();
    if !transition(tx, Move { id, from: From::In(from), to, when, set }).await? {
        return Ok(false);
    }
    // A bounce before anything was bought gives the attempt's reservation back; a purchase that
    // was made and refunded by the market (offer expired, reversal) stays spent on its day.
    if to == MarketState::Bounced && from == [MarketState::Buying] {
        if let Some(c) = &cid {
            not_bought(tx, c).await?;
        }
    }
    let (user_id, item_id, item) = owner_and_item(tx, id).await?;
    move_item(tx, item_id, &[ItemStatus::Pending, ItemStatus::Sent], ItemStatus::Error, Some(code), None, now).await?;
    outbox::tell_player(tx, user_id, &Notice::WithdrawalFailed { item: item.clone(), code: Some(code.to_owned()), reason: None }, now)
        .await?;
    let body = if to == MarketState::Reversed {
        format!("↩️ Withdrawal #{id} ({item}): the seller reversed the delivered trade; the skin is back in the player's inventory.")
    } else {
        format!("↩️ Withdrawal #{id} ({item}) came back to the player: {code}.")
    };
    tell_admins(tx, &admins, &body, now).await?;
    store::lock_users(tx, &[user_id]).await?;
    if ledger::debt(tx, user_id).await?.0 > 0 {
        inventory::sell_in(tx, user_id, item_id, now).await?;
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_day_is_the_utc_day() {
        assert_eq!(budget_day(0), "1970-01-01");
        assert_eq!(budget_day(86_399), "1970-01-01");
        assert_eq!(budget_day(86_400), "1970-01-02");
    }
}
