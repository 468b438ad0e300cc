//! The `fragbox` process: wiring of config, database, domain, the axum server and the bot.
pub mod cli;
pub mod config;
pub mod handlers;
pub mod outbox;
pub mod runtime;
pub mod schema;
pub mod serve;
pub mod telegram;
pub mod texts;
pub mod webhook;

use std::sync::Arc;

use teloxide::prelude::*;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use webapp_api::domain::catalog::Catalog;
use webapp_api::domain::clock::{random_hex, Clock, OsRandom, SystemClock};
use webapp_api::domain::demo::DemoTelegram;
use webapp_api::domain::telegram::Telegram;
use webapp_api::domain::{economics, pricing, store, Domain, DomainConfig};
use webapp_api::http::{self, HttpConfig};

pub use config::Config;

/// Opens the database, applies the schema and loads the catalog: what every command needs.
pub async fn open_store(config: &Config) -> Result<(webapp_api::domain::store::Pool, Catalog), String> {
    let busy = std::time::Duration::from_millis(config.db_busy_timeout_ms);
    let pool = store::open_sized(&config.database_url, busy, config.db_max_connections)
        .await
        .map_err(|e| format!("DATABASE_URL ({}): {e}", config::redact_password(&config.database_url)))?;
    store::migrate(&pool).await.map_err(|e| format!("migrations: {e}"))?;
    // Market prices a reprice stored win over the committed defaults (read at start only); a
    // stored price the shop cannot use takes its cases off sale, never stops the process.
    let catalog = pricing::served_catalog(&pool, &config.catalog_dir, config.case_rtp, config.tokens_per_usd).await?.with_served_pictures();
    Ok((pool, catalog))
}

/// The cache of the catalog's pictures (`CATALOG_IMAGES_DIR`, filled from `CATALOG_ASSETS_URL`).
pub fn pictures(config: &Config, catalog: &Catalog) -> webapp_api::domain::pictures::Pictures {
    use webapp_api::domain::pictures::Pictures;
    Pictures::new(&config.catalog_images_dir, &config.catalog_assets_url, catalog.pictures())
}

/// The feeds a reprice reads: with a delivery market (`MARKET_PROVIDER` set, with its key) the
/// market's own price list, cross-checked by `PRICE_FEED_URL`; without one, `PRICE_FEED_URL`
/// alone. The market's list is asked through `delivery::connect_market` (the key's shared pace).
pub fn price_feeds(config: &Config, domain: &Domain) -> Result<pricing::Feeds, String> {
    let timeout = std::time::Duration::from_millis(config.price_feed_timeout_ms);
    let skinport = pricing::skinport::Skinport::new(&config.price_feed_url, timeout)?;
    Ok(match config.market() {
        Some((market, true)) => {
            let market = webapp_api::domain::delivery::connect_market(domain, &market).map_err(|e| format!("MARKET_API_URL: {e}"))?;
            pricing::Feeds { price: Box::new(pricing::market_list::MarketList::new(market)), cross: Some(Box::new(skinport)) }
        }
        _ => pricing::Feeds { price: Box::new(skinport), cross: None },
    })
}

/// `WITHDRAW_MIN_STARS`, or when unset the smallest package's Stars, so one purchase unlocks
/// withdrawals. A player who bought a smaller package that is no longer sold keeps what that
/// purchase unlocked: the default is then the smallest Stars of any standing purchase, since no
/// new player can reach it without buying a package on sale anyway.
pub async fn withdraw_min_stars(config: &Config, pool: &webapp_api::domain::store::Pool, catalog: &Catalog) -> Result<i64, String> {
    if let Some(min) = config.withdraw_min_stars {
        return Ok(min);
    }
    let smallest = catalog.packages.iter().map(|p| p.stars).min().unwrap_or(0);
    let bought = webapp_api::domain::payments::smallest_purchase(pool).await.map_err(|e| format!("payments: {e}"))?;
    Ok(match bought {
        Some(b) if b > 0 && b < smallest => b,
        _ => smallest,
    })
}

/// Builds the one `Domain`. With a token, Telegram is reached through teloxide; without, demo mode.
/// `withdraw_min_stars` is [`withdraw_min_stars`]'s answer.
#[allow(clippy::too_many_arguments)]
pub fn build_domain(
    config: &Config,
    pool: webapp_api::domain::store::Pool,
    catalog: Catalog,
    bot: Option<&Bot>,
    bot_username: String,
    clock: Arc<dyn Clock>,
    withdraw_min_stars: i64,
) -> Domain {
    let random = Arc::new(OsRandom);
    let (secret, telegram): (String, Arc<dyn Telegram>) = match (bot, &config.bot_token) {
        (Some(bot), Some(token)) => (token.clone(), Arc::new(telegram::TeloxideTelegram { bot: bot.clone() })),
        _ => (format!("demo:{}", random_hex(random.as_ref(), 32)), Arc::new(DemoTelegram::default())),
    };
    let domain_config = DomainConfig {
        bot_token: secret,
        demo: config.demo(),
        bot_username,
        admin_ids: config.admin_ids.clone(),
        channel_id: config.channel_id.clone(),
        auth_max_age_secs: config.auth_max_age_secs,
        session_ttl_secs: config.session_ttl_secs,
        webapp_url: config.webapp_url(),
        telegram_timeout: std::time::Duration::from_millis(config.telegram_timeout_ms),
        withdraw_min_stars,
        withdraw_paid_only: config.withdraw_paid_only(),
        star_usd: config.star_usd,
        tokens_per_usd: config.tokens_per_usd,
        market_delivery: config.market_provider != config::MarketProviderArg::None,
        feed: webapp_api::domain::feed::Limits {
            per_player: config.feed_streams_per_player,
            per_address: config.feed_streams_per_ip,
            max_age: std::time::Duration::from_secs(config.feed_stream_max_secs),
        },
    };
    Domain::new(pool, domain_config, catalog, clock, random, telegram)
}

pub fn http_config(config: &Config) -> HttpConfig {
    let origin = url::Url::parse(&config.webapp_url()).ok().map(|u| u.origin().ascii_serialization());
    HttpConfig {
        channel_url: config.channel_url.clone(),
        community_url: config.community_url.clone(),
        terms_url: config.terms_url.clone(),
        privacy_url: config.privacy_url.clone(),
        dev_gate_password: config.dev_gate_password.clone(),
        webapp_dist: config.webapp_dist.clone(),
        catalog_dir: config.catalog_dir.clone(),
        catalog_assets_url: config.catalog_assets_url.clone(),
        catalog_images_dir: config.catalog_images_dir.clone(),
        legal_dir: config.legal_dir.clone(),
        cors_origin: origin.filter(|o| o != "null"),
        hsts: config.webapp_url().starts_with("https://"),
        rate_limits: config.rate_limits,
        trusted_proxies: config.trusted_proxies.clone(),
        metrics: config.metrics.clone(),
        webhook: None,
    }
}

/// A running process: its address, its domain, and the switch that stops it.
pub struct Running {
    pub addr: std::net::SocketAddr,
    pub domain: Domain,
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl Running {
    /// Stops the server, the bot and the outbox, and waits for them.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        for t in self.tasks {
            let _ = t.await;
        }
        self.domain.db.close().await;
    }
}

async fn stopped(mut rx: watch::Receiver<bool>) {
    while !*rx.borrow() {
        if rx.changed().await.is_err() {
            return;
        }
    }
}

/// The delivery worker's market, settings and whether the account was checked, when a market is
/// configured. The account must count in US dollars (`get-money`): anything else, or a key the
/// market refuses, stops start-up. A market that does not answer now delays only the first buy.
async fn start_delivery(
    config: &Config,
    domain: &Domain,
) -> Result<Option<(Arc<dyn webapp_api::domain::market::Market>, webapp_api::domain::delivery::Settings, bool)>, String> {
    use webapp_api::domain::market::{self, MarketError};
    let Some(settings) = config.delivery() else {
        let live = webapp_api::domain::delivery::in_flight(domain).await.map_err(|e| e.to_string())?;
        if live > 0 {
            tracing::warn!(live, "automatic withdrawals are in flight but no MARKET_API_KEY is set: they wait until it is");
        }
        return Ok(None);
    };
    let market = webapp_api::domain::delivery::connect_market(domain, &settings.market).map_err(|e| format!("MARKET_API_URL: {e}"))?;
    if !settings.buying {
        tracing::warn!("MARKET_PROVIDER=none with MARKET_API_KEY: purchases in flight are followed to the end, nothing new is bought");
        return Ok(Some((market, settings, true)));
    }
    let checked = match market::check_account(&*market).await {
        Ok(balance) => {
            tracing::info!(provider = market.provider(), %balance, "market account checked (USD)");
            true
        }
        Err(MarketError::WrongCurrency(currency)) => {
            return Err(format!(
                "MARKET_PROVIDER: the market account counts in {currency}, not USD; caps are priced in dollars, so switch the account to USD (or unset MARKET_PROVIDER)"
            ))
        }
        Err(MarketError::Unauthorized(why)) => return Err(format!("MARKET_API_KEY: the market refused the key ({why})")),
        Err(e) => {
            tracing::error!(error = %e, "the market did not answer the start-up check; buying waits until it does");
            false
        }
    };
    Ok(Some((market, settings, checked)))
}

/// Why the process did not start, and the exit status it ends with.
#[derive(Debug)]
pub struct StartError {
    /// 2: the settings or the catalog are refused (a package that loses money, a first purchase
    /// that cannot open a case); 1: anything else (the database, the address, the market).
    pub exit_code: i32,
    pub message: String,
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for StartError {
    fn from(message: String) -> StartError {
        StartError { exit_code: 1, message }
    }
}

/// The economics of the served catalog (`domain::economics`): refuses to serve at a loss unless
/// `ALLOW_LOSS=true` (then says so, at every start), and a smallest package whose paid tokens
/// cannot open the cheapest case. Logs each package's margin.
pub fn check_economics(config: &Config, catalog: &Catalog) -> Result<(), StartError> {
    let report = economics::check(catalog, config.economics());
    for line in report.lines() {
        tracing::info!("{line}");
    }
    if let Some(why) = report.first_open_message() {
        return Err(StartError { exit_code: 2, message: format!("CATALOG_DIR: {why}") });
    }
    if let Some(why) = report.loss_message() {
        if !config.allow_loss {
            return Err(StartError { exit_code: 2, message: why });
        }
        tracing::warn!("ALLOW_LOSS=true: serving at a loss on purpose: {why}");
    } else if config.allow_loss {
        tracing::warn!("ALLOW_LOSS=true is set, and no package pays out more than its Stars earn");
    }
    Ok(())
}

/// Starts everything: the HTTP server on `config.bind_addr` (port 0 picks one), and with a
/// token the bot (long polling, or the webhook route on the same server) and its start-up calls.
/// Telegram being unreachable delays nothing here: the bot keeps trying in the background.
pub async fn start(config: Config) -> Result<Running, StartError> {
    start_with_clock(config, Arc::new(SystemClock)).await
}

/// How long start-up waits for `getMe` to learn the bot's username before using `BOT_USERNAME`.
const GET_ME_AT_START: std::time::Duration = std::time::Duration::from_secs(5);

/// `start` with an injected clock (tests fix time with it).
pub async fn start_with_clock(config: Config, clock: Arc<dyn Clock>) -> Result<Running, StartError> {
    if let Some(why) = config.demo_exposure() {
        return Err(why.into());
    }
    let (pool, catalog) = open_store(&config).await?;
    // Before anything is written: a refused catalog changes nothing in the shop.
    if let Err(e) = check_economics(&config, &catalog) {
        pool.close().await;
        return Err(e);
    }
    for p in &catalog.price_problems {
        tracing::error!(case = %p.case_id, detail = %p.detail, "a stored price cannot be used: the case is off sale");
    }
    // Recorded before the upsert, which keeps what is off sale inactive.
    pricing::sale::record_price_problems(&pool, &catalog.price_problems, &config.admin_ids, clock.now().timestamp())
        .await
        .map_err(|e| format!("cases off sale: {e}"))?;
    catalog.upsert(&pool).await.map_err(|e| format!("catalog upsert: {e}"))?;
    let min_stars = withdraw_min_stars(&config, &pool, &catalog).await?;
    if !catalog.check_report().1 {
        tracing::warn!("a case is outside the 80-95 % return band: run `fragbox catalog check`");
    }

    let bot = match &config.bot_token {
        Some(token) => {
            let url = config.telegram_api_url.parse().map_err(|e| format!("TELEGRAM_API_URL: {e}"))?;
            Some(Bot::new(token).set_api_url(url))
        }
        None => None,
    };
    let mut bot_username = config.bot_username.clone();
    if let Some(bot) = &bot {
        match tokio::time::timeout(GET_ME_AT_START, bot.get_me()).await {
            Ok(Ok(me)) => bot_username = me.username().to_owned(),
            Ok(Err(e)) => tracing::error!(error = %e, "getMe failed; links use BOT_USERNAME {bot_username}"),
            Err(_) => tracing::error!("getMe did not answer; links use BOT_USERNAME {bot_username}"),
        }
    } else {
        tracing::warn!("DEMO MODE: no TELEGRAM_BOT_TOKEN. No bot loop, a random signing secret, demo users with free tokens. Never expose this to players.");
    }
    let domain = build_domain(&config, pool, catalog, bot.as_ref(), bot_username, clock, min_stars);
    let delivery = start_delivery(&config, &domain).await?;

    let listener = tokio::net::TcpListener::bind(config.bind_addr).await.map_err(|e| format!("BIND_ADDR {}: {e}", config.bind_addr))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let (stop, stop_rx) = watch::channel(false);
    let mut tasks = Vec::new();

    let metrics = Arc::new(http::metrics::Metrics::default());
    if bot.is_some() {
        // Before the server answers its first `/readyz`.
        metrics.bot.enable();
    }
    let (queue_tx, queue_rx) = runtime::queue();
    let dispatching = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut http = http_config(&config);
    if let (Some(_), Some(hook)) = (&bot, &config.webhook) {
        let route = webhook::router(&hook.path, &hook.secret, queue_tx.clone(), dispatching.clone(), stop_rx.clone());
        http.webhook = Some((hook.path.clone(), route));
    }
    let app = http::router_with_metrics(domain.clone(), http, metrics.clone());
    let rx = stop_rx.clone();
    tasks.push(tokio::spawn(serve::serve(listener, app, serve::Limits::from_config(&config), stopped(rx))));
    tasks.push(tokio::spawn(outbox::run(domain.clone(), config.webapp_url(), stopped(stop_rx.clone()))));
    if config.reprice_daily() {
        let feeds = price_feeds(&config, &domain)?;
        // The committed catalog: its defaults are the baseline of a variant never priced.
        let committed = Catalog::load_with_rtp(&config.catalog_dir, config.case_rtp).map_err(|e| format!("CATALOG_DIR: {e}"))?;
        let settings = pricing::Settings { tokens_per_usd: config.tokens_per_usd, accept_jumps: false, notify: config.admin_ids.clone() };
        tasks.push(tokio::spawn(pricing::run_daily(domain.clone(), committed, feeds, settings, stopped(stop_rx.clone()))));
    }
    tasks.push(tokio::spawn(webapp_api::domain::feed::run(domain.clone(), stopped(stop_rx.clone()))));
    tasks.push(tokio::spawn(webapp_api::domain::feed::run_pruning(domain.clone(), stopped(stop_rx.clone()))));
    if let Some((market, settings, checked)) = delivery {
        tasks.push(tokio::spawn(webapp_api::domain::delivery::run(domain.clone(), market, settings, checked, stopped(stop_rx.clone()))));
    }

    if let Some(bot) = bot {
        let bot_runtime = runtime::BotRuntime {
            bot,
            config: Arc::new(config.clone()),
            domain: domain.clone(),
            metrics,
            tx: queue_tx,
            rx: queue_rx,
            dispatching,
        };
        tasks.push(tokio::spawn(bot_runtime.run(stop_rx.clone())));
    }
    tracing::info!(%addr, "fragbox listening");
    Ok(Running { addr, domain, stop, tasks })
}
