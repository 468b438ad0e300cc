//! The economy and everything that touches the database. Neither axum nor teloxide is known here.
pub mod admin;
pub mod admin_audit;
pub mod audit;
pub mod auth;
pub mod bot_updates;
pub mod caches;
pub mod cases;
pub mod catalog;
pub mod clock;
pub mod delivery;
pub mod demo;
pub mod economics;
pub mod error;
pub mod fair;
pub mod feed;
pub mod figures;
pub mod finance;
pub mod goods;
pub mod inventory;
pub mod lang;
pub mod ledger;
pub mod market;
pub mod money;
pub mod moving;
pub mod notifications;
pub mod outbox;
pub mod payments;
pub mod pictures;
pub mod pricing;
pub mod promo;
pub mod referrals;
pub mod registration;
pub mod responsible;
pub mod rewards;
pub mod settings;
pub mod store;
pub mod telegram;
pub mod tickets;
pub mod trade_url;
pub mod users;
pub mod withdrawals;

use crate::domain::store::{Pool, WriteFn, Writer};
use std::sync::Arc;

pub use error::{DomainError, DomainResult};
pub use money::Tokens;

use clock::{Clock, Random};

/// Settings the rules need, parsed once by the binary and handed down.
#[derive(Clone, Debug)]
pub struct DomainConfig {
    /// Bot token used to verify init data (in demo mode: a random secret).
    pub bot_token: String,
    pub demo: bool,
    pub bot_username: String,
    pub admin_ids: Vec<i64>,
    pub channel_id: Option<String>,
    pub auth_max_age_secs: i64,
    pub session_ttl_secs: i64,
    pub webapp_url: String,
    /// How long a player's request waits on one Telegram call before answering `telegram_unavailable`.
    pub telegram_timeout: std::time::Duration,
    /// Lifetime paid Stars (net of refunds) a player needs before requesting a withdrawal; 0 = off.
    pub withdraw_min_stars: i64,
    /// Only skins won with paid tokens may be withdrawn (`WITHDRAW_PAID_ONLY`, default true).
    pub withdraw_paid_only: bool,
    /// A market buys new withdrawals (`MARKET_PROVIDER` set): a request is queued for the
    /// delivery worker instead of waiting for an operator.
    pub market_delivery: bool,
    /// How many feed streams a player and an address may hold, and for how long (`FEED_*`).
    pub feed: feed::Limits,
    /// What one Star pays the operator (`STAR_USD`): the books count Stars in dollars with it.
    pub star_usd: money::StarUsd,
    /// Tokens per US dollar (`TOKENS_PER_USD`): the books value what players hold with it.
    pub tokens_per_usd: Tokens,
}

impl DomainConfig {
    pub fn is_admin(&self, user_id: i64) -> bool {
        self.admin_ids.contains(&user_id)
    }
}

/// The one entry point to every rule. Cheap to clone.
#[derive(Clone)]
pub struct Domain {
    pub db: Pool,
    pub config: Arc<DomainConfig>,
    pub catalog: Arc<catalog::Catalog>,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
    pub telegram: Arc<dyn telegram::Telegram>,
    pub sessions: Arc<caches::SessionCache>,
    pub maintenance: Arc<caches::MaintenanceCache>,
    /// The store's writer thread (group commit), through which every write runs when the store
    /// has one (`store::Writer::start`); `None` otherwise.
    pub writer: Option<Arc<Writer>>,
    /// The store's reader threads (`store::Readers::start`), on which `read` runs; `None`
    /// otherwise.
    pub readers: Option<Arc<store::Readers>>,
    /// The live drop feed's hub of this process (`feed`).
    pub feed: Arc<feed::Hub>,
    /// Counters of the delivery worker's market calls (for `/metrics`).
    pub delivery: Arc<delivery::meter::Meter>,
}

impl Domain {
    pub fn new(
        db: Pool,
        config: DomainConfig,
        catalog: catalog::Catalog,
        clock: Arc<dyn Clock>,
        random: Arc<dyn Random>,
        telegram: Arc<dyn telegram::Telegram>,
    ) -> Self {
        let writer = Writer::start(&db);
        let readers = store::Readers::start(&db);
        Domain {
            writer,
            readers,
            db,
            config: Arc::new(config),
            catalog: Arc::new(catalog),
            clock,
            random,
            telegram,
            sessions: Arc::new(caches::SessionCache::default()),
            maintenance: Arc::new(caches::MaintenanceCache::default()),
            feed: Arc::default(),
            delivery: Arc::default(),
        }
    }

    pub fn now(&self) -> i64 {
        self.clock.now().timestamp()
    }

    /// Runs one write (`store::write`): every write that moves money goes through here, on
    /// either store, and commits when `work` answers `Ok`.
    pub async fn write<T: Send + 'static>(&self, work: impl WriteFn<T>) -> DomainResult<T> {
        store::write(&self.db, self.writer.as_deref(), work).await
    }

    /// Runs one read (`store::read`): on SQLite's reader threads when the store has them, in
    /// one read transaction; on a pooled connection otherwise.
    pub async fn read<T: Send + 'static>(&self, work: impl store::ReadFn<T>) -> DomainResult<T> {
        store::read(&self.db, self.readers.as_deref(), work).await
    }

    /// Whether the store answers (`GET /healthz`, `GET /readyz`).
    pub async fn ping(&self) -> DomainResult<()> {
        store::ping(&self.db).await
    }

    /// A write of one statement (`write` with nothing else in it); answers the rows it changed.
    pub async fn execute(&self, statement: store::Query<'static>) -> DomainResult<u64> {
        self.write(move |tx| Box::pin(statement.execute(tx))).await
    }
}
