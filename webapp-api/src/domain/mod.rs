//! The economy and everything that touches the database. Neither axum nor teloxide is known here.
pub mod admin;
pub mod audit;
pub mod auth;
pub mod bot_updates;
pub mod cases;
pub mod catalog;
pub mod clock;
pub mod db;
pub mod demo;
pub mod error;
pub mod fair;
pub mod goods;
pub mod inventory;
pub mod lang;
pub mod ledger;
pub mod money;
pub mod notifications;
pub mod payments;
pub mod referrals;
pub mod rewards;
pub mod settings;
pub mod telegram;
pub mod tickets;
pub mod trade_url;
pub mod transfer;
pub mod users;
pub mod withdrawals;
pub mod writer;

use crate::domain::db::Pool;
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
    pub sessions: Arc<auth::SessionCache>,
    pub maintenance: Arc<settings::MaintenanceCache>,
    /// SQLite's writer thread (group commit) for the hot writes; `None` on PostgreSQL.
    pub writer: Option<Arc<writer::Writer>>,
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
        let writer = writer::Writer::start(&db);
        Domain {
            writer,
            db,
            config: Arc::new(config),
            catalog: Arc::new(catalog),
            clock,
            random,
            telegram,
            sessions: Arc::new(auth::SessionCache::default()),
            maintenance: Arc::new(settings::MaintenanceCache::default()),
        }
    }

    pub fn now(&self) -> i64 {
        self.clock.now().timestamp()
    }
}
