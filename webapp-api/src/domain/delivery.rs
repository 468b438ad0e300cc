//! Automatic delivery (issue #23): the worker that buys a withdrawal on a P2P market for the
//! player, follows the purchase to the player's Steam account, and settles it after Steam's
//! trade protection.
//!
//! The life of an automatic withdrawal (`withdrawals.market_state`):
//! ```text
//! queued ─claim (lease)─► buying ─Bought─► bought ─trade id─► offer_sent ─stage 2─► settling ─time─► settled
//!    │                      │ Refused: player's ─► bounced (item back, reason code)    │ seller reversal ─► reversed (item back)
//!    │                      │ Refused: shop's   ─► manual (admins' queue, reason)      └ player reversal ─► player_reversed
//!    │                      │ Lost / restart ─► look-up: known ─► bought; unknown ─► queued (a new attempt)
//!    └ budget spent, no price ─► manual           bought/offer_sent + stage 5 ─► bounced (offer_expired)
//! ```
//! Every step is one conditional write (`WHERE market_state = <the state it leaves>`), durable
//! before the next market call leaves the process. A purchase attempt's `custom_id` is written
//! (with its budget reservation) before `buy` is called; any answer that does not prove what
//! happened is resolved by looking that id up before anything is retried, so one withdrawal never
//! buys twice. At most one worker works a withdrawal at a time (a lease in its row), and one
//! replica polls at a time (the `market-poll` named lease).
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use crate::domain::clock::{random_hex, utc_day};
use crate::domain::goods::Exterior;
pub use crate::domain::market::meter::{Call, Meter};
use crate::domain::market::{self, BuyOutcome, Causer, CustomId, Market, MarketConfig, Purchase, PurchaseStatus, Refusal, Stage, Usd};
use crate::domain::notifications::{self, Notice};
use crate::domain::store::{self, query, Exec};
use crate::domain::trade_url::TradeUrl;
use crate::domain::{inventory, ledger, Domain, DomainError, DomainResult, Tokens};

/// States in which a market purchase may be live (no take-over by hand, no refund cancel).
pub const LIVE_STATES: &[&str] = &["buying", "bought", "offer_sent"];
/// States polled on the market.
const POLLED: &str = "('bought', 'offer_sent')";
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
    /// Attempts (each looked up as unknown before the next) before the admins take over.
    pub max_attempts: i64,
}

impl Settings {
    pub const DEFAULT_LEASE_SECS: u64 = 120;
    pub const DEFAULT_STUCK_AFTER_SECS: u64 = 3600;
    pub const DEFAULT_MAX_ATTEMPTS: i64 = 5;
}

/// The UTC day (`YYYY-MM-DD`) a spend at `unix` counts against.
pub fn budget_day(unix: i64) -> String {
    utc_day(unix).format("%Y-%m-%d").to_string()
}

/// What the shop spent on the market on the UTC day of `now`, in cents.
pub async fn spent_on(pool: &store::Pool, day: &str) -> DomainResult<Usd> {
    let row: Option<(i64,)> = sqlx::query_as("SELECT spent_cents FROM market_spend WHERE day = $1").bind(day).fetch_optional(pool).await?;
    Ok(Usd::from_cents(row.map_or(0, |r| r.0)))
}

/// Settling withdrawals (delivered, still reversible): how many, and their token value.
pub async fn settling(pool: &store::Pool) -> DomainResult<(i64, Tokens)> {
    let (n, value): (i64, i64) = sqlx::query_as(
        "SELECT COUNT(*), CAST(COALESCE(SUM(i.token_price), 0) AS BIGINT) FROM withdrawals w
         JOIN inventory_items i ON i.id = w.inventory_item_id WHERE w.market_state = 'settling'",
    )
    .fetch_one(pool)
    .await?;
    Ok((n, Tokens(value)))
}

/// What the market charged in total (every purchase whose price is known), in cents.
pub async fn total_paid(pool: &store::Pool) -> DomainResult<Usd> {
    let (paid,): (i64,) =
        sqlx::query_as("SELECT CAST(COALESCE(SUM(price_paid_cents), 0) AS BIGINT) FROM withdrawals").fetch_one(pool).await?;
    Ok(Usd::from_cents(paid))
}

/// An operator puts a withdrawal of the manual queue back in the market's hands (after topping
/// the balance up, a new budget day...). Only a `manual` one that is still pending.
pub async fn requeue(domain: &Domain, withdrawal_id: i64) -> DomainResult<()> {
    let now = domain.now();
    let moved = domain
        .execute(
            query(
                "UPDATE withdrawals SET market_state = 'queued', market_reason = NULL, market_updated_at = $1, stuck_notified_at = NULL,
                        lease_holder = NULL, lease_until = NULL
                 WHERE id = $2 AND status = 'pending' AND market_state = 'manual'",
            )
            .bind(now)
            .bind(withdrawal_id),
        )
        .await?;
    if moved != 1 {
        return Err(DomainError::NotFound);
    }
    Ok(())
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
    state: String,
    custom_id: Option<String>,
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
        for id in self.claim().await? {
            if let Err(e) = self.work(id).await {
                tracing::warn!(withdrawal = id, error = %e, "delivery step failed; it is tried again next tick");
                // Whatever the step reached is durable: a purchase attempt left in `buying` is
                // looked up by the next claim, a `queued` one starts again.
                let _ = self.release(id).await;
            }
        }
        self.poll(n).await?;
        self.raise_stuck().await
    }

    async fn claim(&self) -> DomainResult<Vec<i64>> {
        let now = self.domain.now();
        let states = if self.settings.buying && self.account_ok { "('queued', 'buying')" } else { "('buying')" };
        let me = self.holder.clone();
        let until = now + self.settings.lease.as_secs().max(1) as i64;
        let rows: Vec<(i64,)> = self
            .domain
            .write(move |tx| {
                Box::pin(async move {
                    let sql = format!(
                        "UPDATE withdrawals SET lease_holder = $1, lease_until = $2
                         WHERE id IN (SELECT id FROM withdrawals WHERE status = 'pending' AND market_state IN {states}
                                        AND (lease_until IS NULL OR lease_until <= $3) ORDER BY id LIMIT $4{})
                           AND status = 'pending' AND market_state IN {states} AND (lease_until IS NULL OR lease_until <= $3)
                         RETURNING id",
                        store::claim_suffix(tx)
                    );
                    query(&sql).bind(me).bind(until).bind(now).bind(CLAIM_BATCH).fetch_all(tx).await
                })
            })
            .await?;
        let mut ids: Vec<i64> = rows.into_iter().map(|r| r.0).collect();
        ids.sort_unstable();
        Ok(ids)
    }

    async fn claimed(&self, id: i64) -> DomainResult<Option<Claimed>> {
        type Row = (i64, String, Option<String>, i64, String, String, String, i64, Option<String>, i64, Option<String>);
        let row: Option<Row> = sqlx::query_as(
            "SELECT w.id, w.market_state, w.custom_id, w.attempt, w.trade_url,
                    COALESCE(i.market_hash_name, i.weapon || ' | ' || i.finish), i.catalog_item_id, i.stat_trak, i.exterior,
                    i.token_price, w.lease_holder
             FROM withdrawals w JOIN inventory_items i ON i.id = w.inventory_item_id WHERE w.id = $1 AND w.status = 'pending'",
        )
        .bind(id)
        .fetch_optional(&self.domain.db)
        .await?;
        Ok(row.filter(|r| r.10.as_deref() == Some(self.holder.as_str())).map(|r| Claimed {
            id: r.0,
            state: r.1,
            custom_id: r.2,
            attempt: r.3,
            trade_url: r.4,
            market_hash_name: r.5,
            catalog_item_id: r.6,
            stat_trak: r.7 != 0,
            exterior: r.8,
            token_price: r.9,
        }))
    }

    async fn work(&self, id: i64) -> DomainResult<()> {
        let Some(c) = self.claimed(id).await? else { return Ok(()) };
        match c.state.as_str() {
            "queued" => self.buy(&c).await,
            "buying" => {
                // A purchase whose answer this or another process never recorded (a lost answer,
                // a crash, an expired lease): the market says what happened.
                let Some(cid) = c.custom_id.as_deref().and_then(CustomId::parse) else {
                    return self.write_manual(c.id, "('buying')", None, "market_error").await;
                };
                self.resolve(&c, &cid, None).await
            }
            _ => Ok(()),
        }
    }

    /// The variant's USD market price: its token price now (the served catalog, or the price
    /// the skin dropped at) at `TOKENS_PER_USD`, rounded down to a cent.
    fn variant_usd(&self, c: &Claimed) -> Option<Usd> {
        let exterior = c.exterior.as_deref().and_then(Exterior::from_steam_name);
        let tokens = self
            .domain
            .catalog
            .item(&c.catalog_item_id)
            .and_then(|it| it.price(c.stat_trak, exterior))
            .filter(|t| t.0 > 0)
            .unwrap_or(Tokens(c.token_price));
        let cents = i128::from(tokens.0) * 100 / i128::from(self.settings.tokens_per_usd.0.max(1));
        (cents > 0).then(|| Usd::from_cents(i64::try_from(cents).unwrap_or(i64::MAX)))
    }

    async fn buy(&self, c: &Claimed) -> DomainResult<()> {
        let Some(price) = self.variant_usd(c) else { return self.write_manual(c.id, "('queued')", None, "no_price").await };
        let cap = self.settings.market.cap(price);
        if c.attempt >= self.settings.max_attempts {
            return self.write_manual(c.id, "('queued')", None, "market_unavailable").await;
        }
        let Ok(url) = TradeUrl::parse(&c.trade_url) else {
            return self.write_back_to_player(c.id, "('queued')", None, "bounced", "trade_url_invalid").await.map(|_| ());
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
            BuyOutcome::Refused(r) if r.needs_look_up() => self.resolve(c, &cid, Some(r)).await,
            BuyOutcome::Refused(r) if r.is_players() => {
                tracing::info!(withdrawal = c.id, reason = r.code(), "market refused: back to the player");
                self.write_back_to_player(c.id, "('buying')", Some(&cid), "bounced", r.code()).await.map(|_| ())
            }
            BuyOutcome::Refused(r) => {
                tracing::warn!(withdrawal = c.id, refusal = ?r, "market refused on the shop's side: manual queue");
                self.write_manual(c.id, "('buying')", Some(&cid), r.code()).await
            }
            BuyOutcome::Lost(why) => {
                tracing::warn!(withdrawal = c.id, custom_id = %cid, why, "buy answer lost; looking the purchase up");
                self.resolve(c, &cid, None).await
            }
        }
    }

    /// Resolves an attempt whose outcome is unknown by looking its id up: the market knows it
    /// (bought: never again), or does not (nothing bought: a new attempt), or cannot say now
    /// (the lease is given back; the next tick looks again).
    async fn resolve(&self, c: &Claimed, cid: &CustomId, refusal: Option<Refusal>) -> DomainResult<()> {
        let found = market::look_up(&*self.market, cid).await;
        self.domain.delivery.count(Call::Status, found.is_ok());
        match found {
            Ok(Some(status)) => {
                self.write_bought(c.id, cid, None).await?;
                let followed = self.followed(c.id).await?;
                if let Some(f) = followed {
                    self.apply(&f, &status).await?;
                }
                Ok(())
            }
            Ok(None) => match refusal {
                // An unexplained refusal that bought nothing: the shop's problem.
                Some(r) => self.write_manual(c.id, "('buying')", Some(cid), r.code()).await,
                None => self.write_requeue(c.id, cid).await,
            },
            Err(e) => {
                tracing::warn!(withdrawal = c.id, custom_id = %cid, error = %e, "look-up failed; trying again next tick");
                self.release(c.id).await
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
    /// False when the budget is spent (the withdrawal went to the manual queue) or the claim was lost.
    async fn start_attempt(&self, c: &Claimed, attempt: i64, cid: &CustomId, cap: Usd) -> DomainResult<bool> {
        let now = self.domain.now();
        let day = budget_day(now);
        let budget = self.settings.market.daily_budget;
        let (id, me, cid, admins) = (c.id, self.holder.clone(), cid.as_str().to_owned(), self.settings.admins.clone());
        let item = c.market_hash_name.clone();
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    if let Some(budget) = budget {
                        let spent: Option<(i64,)> =
                            query("SELECT spent_cents FROM market_spend WHERE day = $1").bind(&day).fetch_optional(tx).await?;
                        if spent.map_or(0, |s| s.0) + cap.cents() > budget.cents() {
                            if to_manual(tx, id, "('queued')", None, "daily_budget", now).await? {
                                let body = format!(
                                    "🛒 Withdrawal #{id} ({item}) waits in the manual queue: today's market budget ({budget}) would be exceeded by its cap {cap}."
                                );
                                tell_admins(tx, &admins, &body, now).await?;
                            }
                            return Ok(false);
                        }
                    }
                    let moved = query(
                        "UPDATE withdrawals SET market_state = 'buying', attempt = $1, custom_id = $2, max_price_cents = $3,
                                market_updated_at = $4, stuck_notified_at = NULL
                         WHERE id = $5 AND status = 'pending' AND market_state = 'queued' AND lease_holder = $6",
                    )
                    .bind(attempt)
                    .bind(&cid)
                    .bind(cap.cents())
                    .bind(now)
                    .bind(id)
                    .bind(&me)
                    .execute(tx)
                    .await?;
                    if moved != 1 {
                        return Ok(false);
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
                    add_spend(tx, &day, cap.cents()).await?;
                    Ok(true)
                })
            })
            .await
    }

    async fn write_bought(&self, id: i64, cid: &CustomId, market_id: Option<String>) -> DomainResult<bool> {
        let now = self.domain.now();
        let cid = cid.as_str().to_owned();
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    let moved = query(
                        "UPDATE withdrawals SET market_state = 'bought', market_id = COALESCE($1, market_id), market_updated_at = $2,
                                stuck_notified_at = NULL, lease_holder = NULL, lease_until = NULL
                         WHERE id = $3 AND market_state = 'buying' AND custom_id = $4",
                    )
                    .bind(market_id)
                    .bind(now)
                    .bind(id)
                    .bind(&cid)
                    .execute(tx)
                    .await?;
                    query("UPDATE market_attempts SET outcome = 'bought' WHERE custom_id = $1").bind(&cid).execute(tx).await?;
                    Ok(moved == 1)
                })
            })
            .await
    }

    async fn write_requeue(&self, id: i64, cid: &CustomId) -> DomainResult<()> {
        let now = self.domain.now();
        let cid = cid.as_str().to_owned();
        self.domain
            .write(move |tx| {
                Box::pin(async move {
                    let moved = query(
                        "UPDATE withdrawals SET market_state = 'queued', market_updated_at = $1, lease_holder = NULL, lease_until = NULL
                         WHERE id = $2 AND market_state = 'buying' AND custom_id = $3",
                    )
                    .bind(now)
                    .bind(id)
                    .bind(&cid)
                    .execute(tx)
                    .await?;
                    if moved == 1 {
                        not_bought(tx, &cid).await?;
                    }
                    Ok(())
                })
            })
            .await
    }

    async fn write_manual(&self, id: i64, from: &'static str, cid: Option<&CustomId>, reason: &'static str) -> DomainResult<()> {
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
        from: &'static str,
        cid: Option<&CustomId>,
        to: &'static str,
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
        let row: Option<Row> = sqlx::query_as(&format!(
            "SELECT id, market_state, custom_id, settle_until, price_paid_cents, max_price_cents FROM withdrawals
             WHERE id = $1 AND (market_state IN {POLLED} OR market_state = 'settling')"
        ))
        .bind(id)
        .fetch_optional(&self.domain.db)
        .await?;
        Ok(row.and_then(followed_of))
    }

    /// Polls purchases in flight (and settling ones now and then), in batches, from one replica at a time.
    async fn poll(&self, n: u64) -> DomainResult<()> {
        let Some(lease) = store::try_lease(&self.domain.db, POLL_LEASE).await? else { return Ok(()) };
        let now = self.domain.now();
        type Row = (i64, String, Option<String>, Option<i64>, Option<i64>, Option<i64>);
        let rows: Vec<Row> = sqlx::query_as(&format!(
            "SELECT id, market_state, custom_id, settle_until, price_paid_cents, max_price_cents FROM withdrawals
             WHERE market_state IN {POLLED} OR (market_state = 'settling' AND ($1 = 1 OR settle_until <= $2)) ORDER BY id"
        ))
        .bind(i64::from(n.is_multiple_of(SETTLING_EVERY)))
        .bind(now)
        .fetch_all(&self.domain.db)
        .await?;
        let followed: Vec<Followed> = rows.into_iter().filter_map(followed_of).collect();
        if followed.is_empty() {
            lease.release().await;
            return Ok(());
        }
        let ids: Vec<CustomId> = followed.iter().map(|f| f.custom_id.clone()).collect();
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
        for f in &followed {
            if let Some(status) = statuses.get(&f.custom_id) {
                if let Err(e) = self.apply(f, status).await {
                    tracing::warn!(withdrawal = f.id, error = %e, "applying a market status failed");
                }
            }
            if f.state == "settling" && f.settle_until.is_some_and(|t| t <= now) {
                self.write_settled(f.id).await?;
            }
        }
        lease.release().await;
        Ok(())
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
            (Stage::TimedOut { .. }, _) if delivered_or_in_flight => {
                self.write_back_to_player(f.id, POLLED, Some(&f.custom_id), "bounced", "offer_expired").await.map(|_| ())
            }
            (Stage::TimedOut { causer: Causer::Seller }, "settling") => {
                self.write_back_to_player(f.id, "('settling')", Some(&f.custom_id), "reversed", "seller_reversed").await.map(|_| ())
            }
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
                    let moved = query(
                        "UPDATE withdrawals SET market_state = 'offer_sent', trade_id = $1, offer_sent_at = $2, market_updated_at = $2,
                                stuck_notified_at = NULL
                         WHERE id = $3 AND market_state = 'bought'",
                    )
                    .bind(&trade_id)
                    .bind(now)
                    .bind(id)
                    .execute(tx)
                    .await?;
                    if moved == 1 {
                        let (user_id, _, item) = owner_and_item(tx, id).await?;
                        notifications::enqueue(tx, user_id, &Notice::WithdrawalOfferSent { item, trade_id }, now).await?;
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
                    let moved = query(&format!(
                        "UPDATE withdrawals SET status = 'sent', resolved_at = $1, market_state = 'settling', delivered_at = $1,
                                settle_until = $2, trade_id = COALESCE($3, trade_id), market_updated_at = $1, stuck_notified_at = NULL
                         WHERE id = $4 AND status = 'pending' AND market_state IN {POLLED}"
                    ))
                    .bind(now)
                    .bind(settle_until)
                    .bind(trade_id)
                    .bind(id)
                    .execute(tx)
                    .await?;
                    if moved != 1 {
                        return Ok(());
                    }
                    let (user_id, _, item) = move_item(tx, id, "('pending')", "sent", None, now).await?;
                    notifications::enqueue(tx, user_id, &Notice::WithdrawalDelivered { item }, now).await?;
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
                    let moved = query(
                        "UPDATE withdrawals SET market_state = 'player_reversed', market_reason = 'player_reversed', market_updated_at = $1
                         WHERE id = $2 AND market_state = 'settling'",
                    )
                    .bind(now)
                    .bind(id)
                    .execute(tx)
                    .await?;
                    if moved == 1 {
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
            .execute(
                query(
                    "UPDATE withdrawals SET market_state = 'settled', settled_at = $1, market_updated_at = $1
                     WHERE id = $2 AND market_state = 'settling' AND settle_until <= $1",
                )
                .bind(now)
                .bind(id),
            )
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
                    let stuck: Vec<(i64, String)> = query(
                        "UPDATE withdrawals SET stuck_notified_at = $1
                         WHERE status = 'pending' AND market_state IN ('queued', 'buying', 'bought', 'offer_sent')
                           AND stuck_notified_at IS NULL AND market_updated_at <= $2
                         RETURNING id, market_state",
                    )
                    .bind(now)
                    .bind(before)
                    .fetch_all(tx)
                    .await?;
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

/// The withdrawal's skin moves from one of `from` (an SQL list) to `to`, with the player's reason
/// code; answers its player, id and name. A skin that is not where the withdrawal's state says is
/// an internal error: nothing of the write is kept.
async fn move_item(
    tx: &mut dyn Exec,
    id: i64,
    from: &'static str,
    to: &'static str,
    code: Option<&str>,
    now: i64,
) -> DomainResult<(i64, i64, String)> {
    let (user_id, item_id, item) = owner_and_item(tx, id).await?;
    let moved = query(&format!(
        "UPDATE inventory_items SET status = $1, status_reason = NULL, status_reason_code = $2, updated_at = $3
         WHERE id = $4 AND status IN {from}"
    ))
    .bind(to)
    .bind(code)
    .bind(now)
    .bind(item_id)
    .execute(tx)
    .await?;
    if moved != 1 {
        return Err(DomainError::Internal(format!("withdrawal {id}: its item was not in {from}")));
    }
    Ok((user_id, item_id, item))
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
async fn to_manual(tx: &mut dyn Exec, id: i64, from: &str, cid: Option<&str>, reason: &str, now: i64) -> DomainResult<bool> {
    let same_attempt = if cid.is_some() { " AND custom_id = $4" } else { "" };
    let sql = format!(
        "UPDATE withdrawals SET market_state = 'manual', market_reason = $1, market_updated_at = $2, lease_holder = NULL, lease_until = NULL
         WHERE id = $3 AND status = 'pending' AND market_state IN {from}{same_attempt}"
    );
    let mut q = query(&sql).bind(reason).bind(now).bind(id);
    if let Some(c) = cid {
        q = q.bind(c);
    }
    let moved = q.execute(tx).await? == 1;
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
    from: &'static str,
    cid: Option<String>,
    to: &'static str,
    code: &'static str,
    now: i64,
    admins: Vec<i64>,
) -> DomainResult<bool> {
    let same_attempt = if cid.is_some() { " AND custom_id = $5" } else { "" };
    let sql = format!(
        "UPDATE withdrawals SET status = 'error', reason = NULL, reason_code = $1, resolved_at = $2, market_state = $3, market_reason = $1,
                market_updated_at = $2, lease_holder = NULL, lease_until = NULL
         WHERE id = $4 AND market_state IN {from}{same_attempt}"
    );
    let mut q = query(&sql).bind(code).bind(now).bind(to).bind(id);
    if let Some(c) = &cid {
        q = q.bind(c.as_str());
    }
    if q.execute(tx).await? != 1 {
        return Ok(false);
    }
    // A bounce before anything was bought gives the attempt's reservation back; a purchase that
    // was made and refunded by the market (offer expired, reversal) stays spent on its day.
    if to == "bounced" && from == "('buying')" {
        if let Some(c) = &cid {
            not_bought(tx, c).await?;
        }
    }
    let (user_id, item_id, item) = move_item(tx, id, "('pending', 'sent')", "error", Some(code), now).await?;
    notifications::enqueue(tx, user_id, &Notice::WithdrawalFailed { item: item.clone(), code: Some(code.to_owned()), reason: None }, now)
        .await?;
    let body = if to == "reversed" {
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

/// Queues `body` for every admin chat, in the caller's write (the bot's outbox drains it).
async fn tell_admins(tx: &mut dyn Exec, admins: &[i64], body: &str, now: i64) -> DomainResult<()> {
    for admin in admins {
        query("INSERT INTO admin_notices(admin_chat_id, body, next_attempt_at, created_at) VALUES ($1, $2, $3, $4)")
            .bind(*admin)
            .bind(body)
            .bind(now)
            .bind(now)
            .execute(tx)
            .await?;
    }
    Ok(())
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
