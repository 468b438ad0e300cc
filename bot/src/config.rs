//! The settings: one clap struct, each field read from its flag or its environment variable
//! (an optional `.env` is loaded into the environment first). Parsed once in `main`.
//!
//! A blank variable (`KEY=` in `.env`) counts as unset, as `.env.example` expects. Secrets
//! (the bot token, the webhook secret, the dev-gate password, the metrics token) are plain
//! strings checked in [`Config::finish`]: clap quotes a refused value in its error, and a
//! secret must not reach the terminal or a log that way.
use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::builder::{BoolishValueParser, RangedI64ValueParser, RangedU64ValueParser};
use clap::{ArgAction, Args, FromArgMatches, ValueEnum};
use std::time::Duration;

use webapp_api::domain::catalog::{RTP_MAX_BP, RTP_MIN_BP};
use webapp_api::domain::feed::Limits as FeedLimits;
use webapp_api::domain::market::{self, MarketConfig, Provider, Usd};
use webapp_api::domain::money::StarUsd;
use webapp_api::domain::Tokens;
use webapp_api::domain::{delivery, economics, finance};
use webapp_api::http::metrics::MetricsAccess;
use webapp_api::http::ratelimit::{IpNet, Limit, RateLimits};

/// Every setting of the process. The field name is the variable's name in lower case (clap
/// shows it as the value name, so an error names the variable).
#[derive(Args, Clone)]
#[command(next_help_heading = "Settings (each also read from the environment variable shown)")]
pub struct Config {
    /// HTTP listen address; without a token (demo mode) it must be loopback unless DEMO_PUBLIC=true.
    #[arg(long, env = "BIND_ADDR", default_value = "127.0.0.1:8080")]
    pub bind_addr: SocketAddr,
    /// The shop's database: an SQLite file (sqlite://path) or postgres://user:password@host/db.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://data/fragbox.db")]
    pub database_url: String,
    /// The bot's token from @BotFather (<bot id>:<secret>); unset = demo mode.
    #[arg(long = "telegram-bot-token", env = "TELEGRAM_BOT_TOKEN", value_name = "TELEGRAM_BOT_TOKEN", hide_env_values = true)]
    pub bot_token: Option<String>,
    /// Bot API server (a local Bot API server, or a test fake).
    #[arg(long, env = "TELEGRAM_API_URL", default_value = "https://api.telegram.org", value_parser = a_url)]
    pub telegram_api_url: String,
    /// Public https:// URL Telegram posts updates to; unset = long polling. Needs a token.
    #[arg(long, env = "TELEGRAM_WEBHOOK_URL")]
    pub telegram_webhook_url: Option<String>,
    /// Required with TELEGRAM_WEBHOOK_URL: 1-256 of A-Z a-z 0-9 _ -.
    #[arg(long, env = "TELEGRAM_WEBHOOK_SECRET", hide_env_values = true)]
    pub telegram_webhook_secret: Option<String>,
    /// Public URL of the mini app, for bot buttons; default http://<BIND_ADDR>; https:// with a token.
    #[arg(long, env = "WEBAPP_URL", value_parser = a_url)]
    pub webapp_url: Option<String>,
    /// Comma-separated Telegram user ids of the operators.
    #[arg(long, env = "ADMIN_IDS", default_value = "", value_parser = admin_ids)]
    pub admin_ids: std::vec::Vec<i64>,
    /// Channel of the subscribe task (@name or -100… id); default @fragbox_news in demo mode.
    #[arg(long, env = "CHANNEL_ID")]
    pub channel_id: Option<String>,
    /// The community chat link on the profile.
    #[arg(long, env = "COMMUNITY_URL", default_value = "https://t.me/fragbox_chat")]
    pub community_url: String,
    /// The channel's public link.
    #[arg(long, env = "CHANNEL_URL", default_value = "https://t.me/fragbox_news")]
    pub channel_url: String,
    /// The terms the onboarding links to.
    #[arg(long, env = "TERMS_URL", default_value = "/legal/terms.html")]
    pub terms_url: String,
    /// The privacy policy the onboarding links to.
    #[arg(long, env = "PRIVACY_URL", default_value = "/legal/privacy.html")]
    pub privacy_url: String,
    /// Used for links in demo mode; taken from getMe with a token.
    #[arg(long, env = "BOT_USERNAME", default_value = "fragbox_bot")]
    pub bot_username: String,
    /// Password of the /login development gate; unset = no gate.
    #[arg(long, env = "DEV_GATE_PASSWORD", hide_env_values = true)]
    pub dev_gate_password: Option<String>,
    /// Oldest init data accepted at sign-in, in seconds; 0 turns the age check off.
    #[arg(long, env = "AUTH_MAX_AGE_SECS", default_value_t = 86_400, value_parser = RangedI64ValueParser::<i64>::new().range(0..))]
    pub auth_max_age_secs: i64,
    /// Session token lifetime in seconds.
    #[arg(long, env = "SESSION_TTL_SECS", default_value_t = 7 * 86_400, value_parser = RangedI64ValueParser::<i64>::new().range(1..))]
    pub session_ttl_secs: i64,
    /// Cases, items, packages and their artwork.
    #[arg(long, env = "CATALOG_DIR", default_value = "data/catalog")]
    pub catalog_dir: PathBuf,
    /// Origin the shop fetches the library's pictures (/images/<hash>.webp) from into CATALOG_IMAGES_DIR; players never reach it. http only on loopback.
    #[arg(long, env = "CATALOG_ASSETS_URL", default_value = "https://cdn.cstrike.app", value_parser = an_https_origin)]
    pub catalog_assets_url: String,
    /// The cache of the catalog's pictures, served at /img/<hash>.webp (filled on first use or by `fragbox catalog images`).
    #[arg(long, env = "CATALOG_IMAGES_DIR", default_value = "data/image-cache")]
    pub catalog_images_dir: PathBuf,
    /// The built mini app.
    #[arg(long, env = "WEBAPP_DIST", default_value = "webapp/dist")]
    pub webapp_dist: PathBuf,
    /// The legal documents served at /legal/.
    #[arg(long, env = "LEGAL_DIR", default_value = "data/legal")]
    pub legal_dir: PathBuf,
    /// Log lines as text, or as JSON (with request ids; never tokens or init data).
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// `off` turns every rate limit off (tests, the benchmark).
    #[arg(long = "rate-limits", env = "RATE_LIMITS", value_name = "RATE_LIMITS", value_enum, default_value_t = Switch::On)]
    pub rate_limits_switch: Switch,
    /// Sign-ins per client address: <count>/<seconds> or off.
    #[arg(long, env = "RATE_LIMIT_SIGN_IN_IP")]
    pub rate_limit_sign_in_ip: Option<Limit>,
    /// Case opens per player.
    #[arg(long, env = "RATE_LIMIT_OPEN_USER")]
    pub rate_limit_open_user: Option<Limit>,
    /// Case opens per client address.
    #[arg(long, env = "RATE_LIMIT_OPEN_IP")]
    pub rate_limit_open_ip: Option<Limit>,
    /// Daily reward, streak chest, subscription check, per player.
    #[arg(long, env = "RATE_LIMIT_CLAIM_USER")]
    pub rate_limit_claim_user: Option<Limit>,
    /// The same claims per client address.
    #[arg(long, env = "RATE_LIMIT_CLAIM_IP")]
    pub rate_limit_claim_ip: Option<Limit>,
    /// New tickets, ticket messages, closing a ticket, per player.
    #[arg(long, env = "RATE_LIMIT_TICKET_USER")]
    pub rate_limit_ticket_user: Option<Limit>,
    /// The same ticket writes per client address.
    #[arg(long, env = "RATE_LIMIT_TICKET_IP")]
    pub rate_limit_ticket_ip: Option<Limit>,
    /// Provably-fair seed writes per player.
    #[arg(long, env = "RATE_LIMIT_FAIR_USER")]
    pub rate_limit_fair_user: Option<Limit>,
    /// Provably-fair seed writes per client address.
    #[arg(long, env = "RATE_LIMIT_FAIR_IP")]
    pub rate_limit_fair_ip: Option<Limit>,
    /// Selling an item, asking for a withdrawal, per player.
    #[arg(long, env = "RATE_LIMIT_ITEM_USER")]
    pub rate_limit_item_user: Option<Limit>,
    /// The same item actions per client address.
    #[arg(long, env = "RATE_LIMIT_ITEM_IP")]
    pub rate_limit_item_ip: Option<Limit>,
    /// Calls that reach Telegram (invoice links, sharing a skin) per player.
    #[arg(long, env = "RATE_LIMIT_TELEGRAM_USER")]
    pub rate_limit_telegram_user: Option<Limit>,
    /// Calls that reach Telegram per client address.
    #[arg(long, env = "RATE_LIMIT_TELEGRAM_IP")]
    pub rate_limit_telegram_ip: Option<Limit>,
    /// Every other write (language, trade link, agreement, logout) per player.
    #[arg(long, env = "RATE_LIMIT_ACCOUNT_USER")]
    pub rate_limit_account_user: Option<Limit>,
    /// Every other write per client address.
    #[arg(long, env = "RATE_LIMIT_ACCOUNT_IP")]
    pub rate_limit_account_ip: Option<Limit>,
    /// Dev-gate password attempts per client address.
    #[arg(long, env = "RATE_LIMIT_DEV_GATE_IP")]
    pub rate_limit_dev_gate_ip: Option<Limit>,
    /// Reads of a shared skin's public card per client address.
    #[arg(long, env = "RATE_LIMIT_PUBLIC_CARD_IP")]
    pub rate_limit_public_card_ip: Option<Limit>,
    /// Addresses or CIDR blocks (comma-separated) whose X-Forwarded-For is believed; they are
    /// also exempt from HTTP_MAX_CONNECTIONS_PER_IP (a proxy carries many players).
    #[arg(long, env = "TRUSTED_PROXIES", default_value = "", value_parser = ip_nets)]
    pub trusted_proxies: std::vec::Vec<IpNet>,
    /// GET /metrics with Authorization: Bearer <token> (16+ characters).
    #[arg(long, env = "METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// true serves /metrics without a token (bind privately).
    #[arg(long, env = "METRICS_ENABLED", action = ArgAction::Set, value_parser = BoolishValueParser::new(), default_value_t = false)]
    pub metrics_enabled: bool,
    /// How long a write waits for the SQLite lock (PostgreSQL: a row lock), in ms, before 503 busy.
    #[arg(long, env = "DB_BUSY_TIMEOUT_MS", default_value_t = 5_000, value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
    pub db_busy_timeout_ms: u64,
    /// Connections in this process's pool (1-1000; default 8 on SQLite, 16 on PostgreSQL).
    #[arg(long, env = "DB_MAX_CONNECTIONS", value_parser = RangedU64ValueParser::<u32>::new().range(1..=1000))]
    pub db_max_connections: Option<u32>,
    /// How long a player's request waits on a Telegram call, in ms.
    #[arg(long, env = "TELEGRAM_TIMEOUT_MS", default_value_t = 5_000, value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
    pub telegram_timeout_ms: u64,
    /// Lifetime paid Stars (net of refunds) that unlock withdrawals; unset = the smallest
    /// package's Stars, 0 = no such rule.
    #[arg(long, env = "WITHDRAW_MIN_STARS", value_parser = RangedI64ValueParser::<i64>::new().range(0..))]
    pub withdraw_min_stars: Option<i64>,
    /// true: only skins won with paid tokens (bought with Stars) may be withdrawn; false lets
    /// skins won with bonus tokens (rewards, referrals, promo codes, grants) leave too. Unset:
    /// true with a bot token, false in demo mode (whose free tokens are all bonus, and whose
    /// withdrawals never reach Steam: the showcase shows the whole withdraw flow).
    #[arg(long, env = "WITHDRAW_PAID_ONLY", action = ArgAction::Set, value_parser = BoolishValueParser::new())]
    pub withdraw_paid_only: Option<bool>,
    /// true lets demo mode (free tokens for anyone) serve on a non-loopback BIND_ADDR on purpose.
    #[arg(long, env = "DEMO_PUBLIC", action = ArgAction::Set, value_parser = BoolishValueParser::new(), default_value_t = false)]
    pub demo_public: bool,
    /// Seconds a client has to send a request's head (the first one counted from connecting).
    #[arg(long, env = "HTTP_HEADER_TIMEOUT_SECS", default_value_t = 10, value_parser = RangedU64ValueParser::<u64>::new().range(1..=3600))]
    pub http_header_timeout_secs: u64,
    /// Seconds a kept-alive connection may sit without a request before it is closed.
    #[arg(long, env = "HTTP_IDLE_TIMEOUT_SECS", default_value_t = 60, value_parser = RangedU64ValueParser::<u64>::new().range(1..=86_400))]
    pub http_idle_timeout_secs: u64,
    /// Open HTTP connections in all; past it a new one gets 503 with Retry-After.
    #[arg(long, env = "HTTP_MAX_CONNECTIONS", default_value_t = 4096, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub http_max_connections: usize,
    /// Open HTTP connections per client address (an IPv6 /64 counts as one address).
    #[arg(long, env = "HTTP_MAX_CONNECTIONS_PER_IP", default_value_t = 256, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub http_max_connections_per_ip: usize,
    /// Seconds a client may take none of what is sent to it before its connection is closed
    /// (a stalled reader, such as a live feed nobody reads).
    #[arg(long, env = "HTTP_SEND_TIMEOUT_SECS", default_value_t = 30, value_parser = RangedU64ValueParser::<u64>::new().range(1..=3600))]
    pub http_send_timeout_secs: u64,
    /// Live feed streams one player may hold; one more ends the player's oldest.
    #[arg(long, env = "FEED_STREAMS_PER_PLAYER", default_value_t = FeedLimits::DEFAULT.per_player, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub feed_streams_per_player: usize,
    /// Live feed streams one client address may hold (after TRUSTED_PROXIES; an IPv6 /64 counts
    /// as one); one more is refused with 429 too_many_streams.
    #[arg(long, env = "FEED_STREAMS_PER_IP", default_value_t = FeedLimits::DEFAULT.per_address, value_parser = RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub feed_streams_per_ip: usize,
    /// Seconds a live feed stream runs at most (a random tenth less); the client resumes with
    /// Last-Event-ID.
    #[arg(long, env = "FEED_STREAM_MAX_SECS", default_value_t = FeedLimits::DEFAULT.max_age.as_secs(), value_parser = RangedU64ValueParser::<u64>::new().range(1..=86_400))]
    pub feed_stream_max_secs: u64,
    /// The market price feed: Skinport's /v1/items (or a compatible server); with MARKET_PROVIDER, the cross-check of the market's own prices.
    #[arg(long, env = "PRICE_FEED_URL", default_value = "https://api.skinport.com/v1/items", value_parser = a_url)]
    pub price_feed_url: String,
    /// How long a reprice waits for the price feed's answer, in ms.
    #[arg(long, env = "PRICE_FEED_TIMEOUT_MS", default_value_t = 30_000, value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
    pub price_feed_timeout_ms: u64,
    /// Tokens per US dollar when market prices become token prices (at most 2 decimals).
    #[arg(long, env = "TOKENS_PER_USD", default_value = "100", value_parser = a_rate)]
    pub tokens_per_usd: Tokens,
    /// What one Telegram Star pays the operator after Telegram's share, in US dollars (at most 6 decimals).
    #[arg(long, env = "STAR_USD", default_value = "0.013", value_parser = a_star_usd)]
    pub star_usd: StarUsd,
    /// true starts serving even when a package can pay out more than its Stars earn (logged at every start).
    #[arg(long, env = "ALLOW_LOSS", action = ArgAction::Set, value_parser = BoolishValueParser::new(), default_value_t = false)]
    pub allow_loss: bool,
    /// Return to player computed case prices aim at: 0.80-0.95.
    #[arg(long, env = "CASE_RTP", default_value = "0.90", value_parser = a_case_rtp)]
    pub case_rtp: i64,
    /// true reprices once a day inside the process (the market's list with MARKET_PROVIDER, else PRICE_FEED_URL); default true with a bot token, false in demo mode.
    #[arg(long, env = "REPRICE_DAILY", action = ArgAction::Set, value_parser = BoolishValueParser::new())]
    pub reprice_daily: Option<bool>,
    /// The P2P market that buys withdrawals for players: none (operators send them by hand) or marketcsgo.
    #[arg(long, env = "MARKET_PROVIDER", value_enum, default_value_t = MarketProviderArg::None)]
    pub market_provider: MarketProviderArg,
    /// The market account's API key (required with MARKET_PROVIDER; kept with none so purchases in flight finish).
    #[arg(long, env = "MARKET_API_KEY", hide_env_values = true)]
    pub market_api_key: Option<String>,
    /// The market's base URL; default the provider's own address.
    #[arg(long, env = "MARKET_API_URL", value_parser = a_url)]
    pub market_api_url: Option<String>,
    /// The most paid over the variant's USD market price, as a fraction (0.10 = 10 %).
    #[arg(long, env = "MARKET_MAX_OVERPAY", default_value = "0.10", value_parser = a_fraction)]
    pub market_max_overpay: u32,
    /// What may be spent on the market per UTC day, in US dollars; unset = no limit.
    #[arg(long, env = "MARKET_DAILY_BUDGET_USD", value_parser = a_usd)]
    pub market_daily_budget_usd: Option<Usd>,
    /// Seconds between two rounds of the delivery worker (decimals allowed).
    #[arg(long, env = "MARKET_POLL_SECS", default_value = "30", value_parser = a_duration_secs)]
    pub market_poll_secs: Duration,
    /// Hours a delivered withdrawal stays settling (Steam's trade protection) before it is final.
    #[arg(long, env = "MARKET_SETTLE_HOURS", default_value = "192", value_parser = a_duration_hours)]
    pub market_settle_hours: Duration,
    /// Minutes without progress after which an automatic withdrawal is raised to the admins.
    #[arg(long, env = "MARKET_STUCK_AFTER_MINUTES", default_value = "60", value_parser = a_duration_minutes)]
    pub market_stuck_after_minutes: Duration,
    /// Seconds one market call may take before its answer counts as lost.
    #[arg(long, env = "MARKET_TIMEOUT_SECS", default_value = "20", value_parser = a_duration_secs)]
    pub market_timeout_secs: Duration,
    /// Seconds a worker's claim on a withdrawal lasts; more than twice MARKET_TIMEOUT_SECS.
    #[arg(long, env = "MARKET_LEASE_SECS", default_value = "120", value_parser = a_duration_secs)]
    pub market_lease_secs: Duration,
    /// Market requests per second of the API key, every replica together (shared through the database; the market allows about 5 per key).
    #[arg(long, env = "MARKET_REQUESTS_PER_SEC", default_value_t = 5, value_parser = RangedU64ValueParser::<u32>::new().range(1..=50))]
    pub market_requests_per_sec: u32,
    /// Seconds an attempt whose outcome is unknown is looked up again before it counts as not bought (at least 60 with a real market).
    #[arg(long, env = "MARKET_LOOKUP_WINDOW_SECS", default_value = "180", value_parser = a_duration_secs)]
    pub market_lookup_window_secs: Duration,
    /// Bounces of one skin (offers declined or expired, private inventory...) within MARKET_BOUNCE_WINDOW_HOURS after which its next withdrawal waits for the admins.
    #[arg(long, env = "MARKET_BOUNCE_LIMIT", default_value_t = 3, value_parser = RangedU64ValueParser::<i64>::new().range(1..=100))]
    pub market_bounce_limit: i64,
    /// The window, in hours, over which MARKET_BOUNCE_LIMIT counts a skin's bounces.
    #[arg(long, env = "MARKET_BOUNCE_WINDOW_HOURS", default_value = "24", value_parser = a_duration_hours)]
    pub market_bounce_window_hours: Duration,

    /// Built by [`Config::finish`] from the `RATE_LIMIT*` settings.
    #[arg(skip)]
    pub rate_limits: RateLimits,
    /// Built by [`Config::finish`] from `METRICS_TOKEN` and `METRICS_ENABLED`.
    #[arg(skip)]
    pub metrics: MetricsAccess,
    /// Built by [`Config::finish`] from `TELEGRAM_WEBHOOK_URL` and `TELEGRAM_WEBHOOK_SECRET`.
    #[arg(skip)]
    pub webhook: Option<Webhook>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MarketProviderArg {
    None,
    Marketcsgo,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

/// Where Telegram delivers updates when the bot runs on webhooks.
#[derive(Clone)]
pub struct Webhook {
    /// The public https URL given to `setWebhook`.
    pub url: url::Url,
    /// The URL's path, served on `BIND_ADDR` by our own router.
    pub path: String,
    /// Sent back by Telegram in `X-Telegram-Bot-Api-Secret-Token` with every update.
    pub secret: String,
}

impl std::fmt::Debug for Webhook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Webhook").field("url", &self.url.as_str()).field("secret", &"<redacted>").finish()
    }
}

/// Paths our router serves itself; a webhook path must not shadow them.
const RESERVED_PATHS: &[&str] = &["/api", "/healthz", "/readyz", "/metrics", "/catalog", "/legal"];

fn a_url(s: &str) -> Result<String, String> {
    url::Url::parse(s.trim()).map(|_| s.trim().to_owned()).map_err(|_| format!("not a URL: {s:?}"))
}

fn a_fraction(s: &str) -> Result<u32, String> {
    market::parse_fraction_bp(s).ok_or_else(|| format!("not a fraction such as 0.10 (at most 4 decimals, 0 to 10): {s:?}"))
}

fn a_usd(s: &str) -> Result<Usd, String> {
    market::parse_usd(s).filter(|u| u.cents() > 0).ok_or_else(|| format!("not a positive dollar amount such as 250 or 12.50: {s:?}"))
}

/// A positive number of `unit` seconds with at most 3 decimals, as a duration.
fn a_duration(s: &str, unit_ms: u64) -> Result<Duration, String> {
    let t = s.trim();
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    let ok = !int.is_empty() && int.len() <= 9 && frac.len() <= 3 && int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit());
    if !ok || t.ends_with('.') {
        return Err(format!("not a positive number with at most 3 decimals: {s:?}"));
    }
    let thousandths =
        int.parse::<u64>().map_err(|e| e.to_string())? * 1000 + format!("{frac:0<3}").parse::<u64>().map_err(|e| e.to_string())?;
    let ms = thousandths * unit_ms / 1000;
    if ms == 0 {
        return Err(format!("must be more than zero: {s:?}"));
    }
    Ok(Duration::from_millis(ms))
}

fn a_duration_secs(s: &str) -> Result<Duration, String> {
    a_duration(s, 1_000)
}

fn a_duration_minutes(s: &str) -> Result<Duration, String> {
    a_duration(s, 60_000)
}

fn a_duration_hours(s: &str) -> Result<Duration, String> {
    a_duration(s, 3_600_000)
}

fn a_star_usd(s: &str) -> Result<StarUsd, String> {
    StarUsd::parse(s).ok_or_else(|| format!("not a positive dollar amount with at most 6 decimals such as 0.013: {s:?}"))
}

fn a_rate(s: &str) -> Result<Tokens, String> {
    Tokens::parse(s.trim()).filter(|t| t.0 > 0).ok_or_else(|| format!("not a positive number with at most 2 decimals: {s:?}"))
}

/// `CASE_RTP` as basis points: `0.90` -> 9000; accepted 0.80-0.95.
fn a_case_rtp(s: &str) -> Result<i64, String> {
    let refused = || format!("{s:?}: give a return to player from 0.80 to 0.95, e.g. 0.90");
    let (whole, frac) = s.trim().split_once('.').unwrap_or((s.trim(), ""));
    if whole != "0" || frac.is_empty() || frac.len() > 4 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(refused());
    }
    let bp: i64 = format!("{frac:0<4}").parse().map_err(|_| refused())?;
    if !(RTP_MIN_BP..=RTP_MAX_BP).contains(&bp) {
        return Err(refused());
    }
    Ok(bp)
}

/// An `https://host[:port]` (or `http://` for a local test) with no path: it becomes a CSP source.
fn an_https_origin(s: &str) -> Result<String, String> {
    let u = url::Url::parse(s.trim()).map_err(|_| format!("not a URL: {s:?}"))?;
    let origin = u.origin().ascii_serialization();
    let bare = u.path() == "/" && u.query().is_none() && u.fragment().is_none();
    // Plain http only to this machine (a test's fake CDN, a local mirror): over the network a
    // picture could be swapped on the way.
    let loopback = match u.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d == "localhost",
        None => false,
    };
    if origin == "null" || !bare || !(u.scheme() == "https" || (u.scheme() == "http" && loopback)) {
        return Err(format!("expected an origin such as https://cdn.example.com (no path): {s:?}"));
    }
    Ok(origin)
}

fn admin_ids(s: &str) -> Result<Vec<i64>, String> {
    s.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<i64>().map_err(|_| format!("{p:?} is not a Telegram user id")))
        .collect()
}

fn ip_nets(s: &str) -> Result<Vec<IpNet>, String> {
    s.split(',').map(str::trim).filter(|p| !p.is_empty()).map(str::parse::<IpNet>).collect()
}

/// Secrets (the bot token, the dev-gate password, the metrics token) never reach `Debug`.
impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("bind_addr", &self.bind_addr)
            .field("database_url", &redact_password(&self.database_url))
            .field("bot_token", &self.bot_token.as_ref().map(|_| "<redacted>"))
            .field("telegram_api_url", &self.telegram_api_url)
            .field("webapp_url", &self.webapp_url)
            .field("admin_ids", &self.admin_ids)
            .field("channel_id", &self.channel_id)
            .field("dev_gate", &self.dev_gate_password.is_some())
            .field("rate_limits", &self.rate_limits)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("metrics", &self.metrics)
            .field("webhook", &self.webhook)
            .field("http_header_timeout_secs", &self.http_header_timeout_secs)
            .field("http_idle_timeout_secs", &self.http_idle_timeout_secs)
            .field("http_max_connections", &self.http_max_connections)
            .field("http_max_connections_per_ip", &self.http_max_connections_per_ip)
            .field("http_send_timeout_secs", &self.http_send_timeout_secs)
            .field("feed_streams_per_player", &self.feed_streams_per_player)
            .field("feed_streams_per_ip", &self.feed_streams_per_ip)
            .field("feed_stream_max_secs", &self.feed_stream_max_secs)
            .field("market_provider", &self.market_provider)
            .field("market_api_key", &self.market_api_key.as_ref().map(|_| "<redacted>"))
            .finish_non_exhaustive()
    }
}

/// A database URL as it may be logged: a PostgreSQL password becomes `***`.
pub fn redact_password(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut u) if u.password().is_some() => {
            let _ = u.set_password(Some("***"));
            u.to_string()
        }
        _ => url.to_owned(),
    }
}

#[derive(Debug)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `arg`'s variable is set to something other than blanks.
fn set_in_environment(arg: &clap::Arg) -> bool {
    arg.get_env().and_then(std::env::var_os).is_some_and(|v| !v.to_string_lossy().trim().is_empty())
}

/// A blank variable counts as unset: clap would otherwise hand `""` to the value parser.
pub fn blank_variables_unset(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|a| if a.get_env().is_some() && !set_in_environment(&a) { a.env(None) } else { a })
}

impl Config {
    /// The settings from the process's environment only (no flags).
    pub fn from_env() -> Result<Config, ConfigError> {
        let cmd = blank_variables_unset(Config::augment_args(clap::Command::new("fragbox")));
        let matches = cmd.try_get_matches_from(["fragbox"]).map_err(|e| ConfigError(clap_message(&e)))?;
        Config::from_arg_matches(&matches).map_err(|e| ConfigError(clap_message(&e)))?.finish()
    }

    /// Parses from any lookup (tests pass a map): each variable the lookup answers becomes
    /// its flag, and the process's own environment is not read at all.
    pub fn from_lookup(get: &dyn Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let mut args: Vec<OsString> = vec!["fragbox".into()];
        let cmd = Config::augment_args(clap::Command::new("fragbox")).mut_args(|a| {
            let value = a.get_env().and_then(|v| v.to_str()).and_then(get).filter(|v| !v.trim().is_empty());
            if let (Some(long), Some(value)) = (a.get_long(), value) {
                args.push(format!("--{long}={}", value.trim()).into());
            }
            a.env(None)
        });
        let matches = cmd.try_get_matches_from(args).map_err(|e| ConfigError(clap_message(&e)))?;
        Config::from_arg_matches(&matches).map_err(|e| ConfigError(clap_message(&e)))?.finish()
    }

    /// The rules that span several settings, and the values built from them. Runs once, right
    /// after clap has parsed each setting on its own.
    pub fn finish(mut self) -> Result<Config, ConfigError> {
        if let Some(t) = &self.bot_token {
            let ok = t
                .split_once(':')
                .is_some_and(|(id, secret)| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) && !secret.is_empty());
            if !ok {
                return Err(ConfigError("TELEGRAM_BOT_TOKEN: expected <bot id>:<secret> from BotFather".into()));
            }
        }
        let webapp_url = self.webapp_url.take().unwrap_or_else(|| format!("http://{}", self.bind_addr));
        if self.bot_token.is_some() && !webapp_url.starts_with("https://") {
            return Err(ConfigError(
                "WEBAPP_URL: must be https:// when TELEGRAM_BOT_TOKEN is set (Telegram refuses web-app buttons otherwise)".into(),
            ));
        }
        self.webapp_url = Some(webapp_url);
        if self.channel_id.is_none() && self.bot_token.is_none() {
            self.channel_id = Some("@fragbox_news".into());
        }
        self.rate_limits = self.rate_limits();
        self.metrics = match (&self.metrics_token, self.metrics_enabled) {
            (Some(t), _) if t.len() < 16 => return Err(ConfigError("METRICS_TOKEN: use at least 16 characters".into())),
            (Some(t), _) => MetricsAccess::Token(t.clone()),
            (None, true) => MetricsAccess::Open,
            (None, false) => MetricsAccess::Off,
        };
        self.webhook = self.webhook()?;
        if self.market_provider != MarketProviderArg::None && self.market_api_key.as_deref().is_none_or(|k| k.trim().is_empty()) {
            return Err(ConfigError("MARKET_API_KEY: required with MARKET_PROVIDER".into()));
        }
        if self.market_lease_secs < self.market_timeout_secs * 2 {
            return Err(ConfigError(
                "MARKET_LEASE_SECS: must be at least twice MARKET_TIMEOUT_SECS (a claim outlives the buy call it covers)".into(),
            ));
        }
        Ok(self)
    }

    /// The market settings: `Some` with a provider, and also with `MARKET_PROVIDER=none` while
    /// a key is kept (the provider switched off: purchases in flight finish, nothing new is bought).
    pub fn market(&self) -> Option<(MarketConfig, bool)> {
        let key = self.market_api_key.clone().filter(|k| !k.trim().is_empty())?;
        let (provider, buying) = match self.market_provider {
            MarketProviderArg::Marketcsgo => (Provider::MarketCsgo, true),
            // The one provider there is: purchases in flight were made there.
            MarketProviderArg::None => (Provider::MarketCsgo, false),
        };
        let mut m = MarketConfig::new(provider, key);
        if let Some(url) = &self.market_api_url {
            m.api_url = url.clone();
        }
        m.max_overpay_bp = self.market_max_overpay;
        m.daily_budget = self.market_daily_budget_usd;
        m.poll = self.market_poll_secs;
        m.settle = self.market_settle_hours;
        m.request_timeout = self.market_timeout_secs;
        m.requests_per_sec = self.market_requests_per_sec;
        Some((m, buying))
    }

    /// WITHDRAW_PAID_ONLY as the server applies it: unset, on with a bot token and off in demo mode.
    pub fn withdraw_paid_only(&self) -> bool {
        self.withdraw_paid_only.unwrap_or(!self.demo())
    }

    /// What the margin check reads (`domain::economics`).
    pub fn economics(&self) -> economics::Settings {
        economics::Settings {
            star_usd: self.star_usd,
            tokens_per_usd: self.tokens_per_usd,
            max_overpay_bp: self.market_max_overpay,
            paid_only: self.withdraw_paid_only(),
        }
    }

    /// What the books read (`domain::finance`).
    pub fn finance(&self) -> finance::Settings {
        finance::Settings {
            star_usd: self.star_usd,
            tokens_per_usd: self.tokens_per_usd,
            paid_only: self.withdraw_paid_only(),
            demo: self.demo(),
        }
    }

    /// The delivery worker's settings (with `market()`).
    pub fn delivery(&self) -> Option<delivery::Settings> {
        let (market, buying) = self.market()?;
        Some(delivery::Settings {
            market,
            tokens_per_usd: self.tokens_per_usd,
            buying,
            lease: self.market_lease_secs,
            stuck_after: self.market_stuck_after_minutes,
            admins: self.admin_ids.clone(),
            max_attempts: delivery::Settings::DEFAULT_MAX_ATTEMPTS,
            lookup_window: self.market_lookup_window_secs,
            bounce_limit: self.market_bounce_limit,
            bounce_window: self.market_bounce_window_hours,
        })
    }

    /// The `RATE_LIMIT_*` settings over the defaults.
    fn rate_limits(&self) -> RateLimits {
        if self.rate_limits_switch == Switch::Off {
            return RateLimits::OFF;
        }
        let d = RateLimits::default();
        RateLimits {
            sign_in_ip: self.rate_limit_sign_in_ip.unwrap_or(d.sign_in_ip),
            open_user: self.rate_limit_open_user.unwrap_or(d.open_user),
            open_ip: self.rate_limit_open_ip.unwrap_or(d.open_ip),
            claim_user: self.rate_limit_claim_user.unwrap_or(d.claim_user),
            claim_ip: self.rate_limit_claim_ip.unwrap_or(d.claim_ip),
            ticket_user: self.rate_limit_ticket_user.unwrap_or(d.ticket_user),
            ticket_ip: self.rate_limit_ticket_ip.unwrap_or(d.ticket_ip),
            fair_user: self.rate_limit_fair_user.unwrap_or(d.fair_user),
            fair_ip: self.rate_limit_fair_ip.unwrap_or(d.fair_ip),
            item_user: self.rate_limit_item_user.unwrap_or(d.item_user),
            item_ip: self.rate_limit_item_ip.unwrap_or(d.item_ip),
            telegram_user: self.rate_limit_telegram_user.unwrap_or(d.telegram_user),
            telegram_ip: self.rate_limit_telegram_ip.unwrap_or(d.telegram_ip),
            account_user: self.rate_limit_account_user.unwrap_or(d.account_user),
            account_ip: self.rate_limit_account_ip.unwrap_or(d.account_ip),
            dev_gate_ip: self.rate_limit_dev_gate_ip.unwrap_or(d.dev_gate_ip),
            public_card_ip: self.rate_limit_public_card_ip.unwrap_or(d.public_card_ip),
        }
    }

    /// `TELEGRAM_WEBHOOK_URL` and `TELEGRAM_WEBHOOK_SECRET`: both or neither, and only with a token.
    fn webhook(&self) -> Result<Option<Webhook>, ConfigError> {
        let (url, secret) = match (&self.telegram_webhook_url, &self.telegram_webhook_secret) {
            (None, None) => return Ok(None),
            (None, Some(_)) => return Err(ConfigError("TELEGRAM_WEBHOOK_SECRET: set it only together with TELEGRAM_WEBHOOK_URL".into())),
            (Some(_), None) => {
                return Err(ConfigError("TELEGRAM_WEBHOOK_SECRET: required with TELEGRAM_WEBHOOK_URL (1-256 of A-Z a-z 0-9 _ -)".into()))
            }
            (Some(u), Some(s)) => (u, s),
        };
        if self.bot_token.is_none() {
            return Err(ConfigError("TELEGRAM_WEBHOOK_URL: needs TELEGRAM_BOT_TOKEN (demo mode has no bot)".into()));
        }
        let parsed = url::Url::parse(url).map_err(|_| ConfigError(format!("TELEGRAM_WEBHOOK_URL: not a URL: {url:?}")))?;
        if parsed.scheme() != "https" || parsed.host_str().is_none_or(str::is_empty) {
            return Err(ConfigError("TELEGRAM_WEBHOOK_URL: must be an https:// URL (Telegram delivers webhooks over HTTPS only)".into()));
        }
        let path = parsed.path().to_owned();
        let reserved = RESERVED_PATHS.iter().any(|r| path == *r || path.starts_with(&format!("{r}/")));
        if path == "/" || reserved {
            return Err(ConfigError(format!(
                "TELEGRAM_WEBHOOK_URL: its path {path:?} must be a path of its own, e.g. /telegram/webhook (not / nor under {})",
                RESERVED_PATHS.join(", ")
            )));
        }
        let secret_ok = (1..=256).contains(&secret.len()) && secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        if !secret_ok {
            return Err(ConfigError("TELEGRAM_WEBHOOK_SECRET: 1-256 characters of A-Z a-z 0-9 _ -".into()));
        }
        Ok(Some(Webhook { url: parsed, path, secret: secret.clone() }))
    }

    pub fn demo(&self) -> bool {
        self.bot_token.is_none()
    }

    /// Whether the daily reprice runs in this process: `REPRICE_DAILY`, else on with a bot token.
    pub fn reprice_daily(&self) -> bool {
        self.reprice_daily.unwrap_or(!self.demo())
    }

    /// The public URL of the mini app (`http://<BIND_ADDR>` unless `WEBAPP_URL` says otherwise).
    pub fn webapp_url(&self) -> String {
        self.webapp_url.clone().unwrap_or_else(|| format!("http://{}", self.bind_addr))
    }

    /// Why serving must not start: demo mode (free tokens for anyone who asks) on an address
    /// other than loopback, unless `DEMO_PUBLIC=true` says it is meant. Operator commands, which
    /// bind nothing, are not concerned.
    pub fn demo_exposure(&self) -> Option<String> {
        (self.demo() && !self.bind_addr.ip().is_loopback() && !self.demo_public).then(|| {
            format!(
                "BIND_ADDR {} is not a loopback address and TELEGRAM_BOT_TOKEN is not set: demo mode (free tokens for anyone) \
                 would be public. Set TELEGRAM_BOT_TOKEN, bind 127.0.0.1, or set DEMO_PUBLIC=true to serve the demo on purpose",
                self.bind_addr
            )
        })
    }
}

/// clap's error as one line for `ConfigError` (its usage hint and help pointer are for a terminal).
fn clap_message(e: &clap::Error) -> String {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or_default();
    first.trim_start_matches("error: ").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn cfg(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_lookup(&move |k| map.get(k).cloned())
    }

    #[test]
    fn defaults_work_on_a_laptop_in_demo_mode() {
        let c = cfg(&[]).unwrap();
        assert!(c.demo());
        assert_eq!(c.bind_addr.to_string(), "127.0.0.1:8080");
        assert_eq!(c.auth_max_age_secs, 86400);
        assert_eq!(c.webapp_url(), "http://127.0.0.1:8080");
        assert_eq!(c.channel_id.as_deref(), Some("@fragbox_news"));
        assert_eq!((c.http_header_timeout_secs, c.http_idle_timeout_secs), (10, 60));
        assert_eq!(c.http_send_timeout_secs, 30);
        assert_eq!((c.feed_streams_per_player, c.feed_streams_per_ip, c.feed_stream_max_secs), (3, 32, 1800));
    }

    #[test]
    fn a_bad_value_names_its_variable() {
        for (k, v) in [
            ("BIND_ADDR", "nope"),
            ("ADMIN_IDS", "1,x"),
            ("AUTH_MAX_AGE_SECS", "-1"),
            ("SESSION_TTL_SECS", "0"),
            ("TELEGRAM_BOT_TOKEN", "abc"),
            ("TELEGRAM_API_URL", "not a url"),
            ("LOG_FORMAT", "xml"),
            ("DB_MAX_CONNECTIONS", "0"),
            ("TELEGRAM_TIMEOUT_MS", "0"),
            ("HTTP_HEADER_TIMEOUT_SECS", "0"),
            ("HTTP_IDLE_TIMEOUT_SECS", "soon"),
            ("HTTP_MAX_CONNECTIONS", "-3"),
            ("HTTP_MAX_CONNECTIONS_PER_IP", "0"),
            ("HTTP_SEND_TIMEOUT_SECS", "0"),
            ("FEED_STREAMS_PER_PLAYER", "0"),
            ("FEED_STREAMS_PER_IP", "many"),
            ("FEED_STREAM_MAX_SECS", "0"),
            ("RATE_LIMITS", "maybe"),
        ] {
            let err = cfg(&[(k, v)]).unwrap_err();
            assert!(err.0.contains(k), "{k}: {}", err.0);
        }
    }

    #[test]
    fn the_catalog_assets_url_is_an_origin_defaulting_to_the_librarys_cdn() {
        assert_eq!(cfg(&[]).unwrap().catalog_assets_url, "https://cdn.cstrike.app");
        assert_eq!(cfg(&[("CATALOG_ASSETS_URL", "https://img.example.com/")]).unwrap().catalog_assets_url, "https://img.example.com");
        assert_eq!(cfg(&[("CATALOG_ASSETS_URL", "http://127.0.0.1:9000")]).unwrap().catalog_assets_url, "http://127.0.0.1:9000");
        for bad in ["https://img.example.com/images", "ftp://img.example.com", "http://img.example.com", "not a url"] {
            let err = cfg(&[("CATALOG_ASSETS_URL", bad)]).unwrap_err();
            assert!(err.0.contains("CATALOG_ASSETS_URL"), "{bad}: {}", err.0);
        }
    }

    #[test]
    fn a_blank_variable_counts_as_unset() {
        let c = cfg(&[("TELEGRAM_BOT_TOKEN", ""), ("BIND_ADDR", "  "), ("WITHDRAW_MIN_STARS", "")]).unwrap();
        assert!(c.demo());
        assert_eq!(c.bind_addr.to_string(), "127.0.0.1:8080");
        assert_eq!(c.withdraw_min_stars, None);
    }

    #[test]
    fn a_refused_secret_is_not_quoted_back() {
        let err = cfg(&[("TELEGRAM_BOT_TOKEN", "topsecretwithoutcolon")]).unwrap_err();
        assert!(err.0.contains("TELEGRAM_BOT_TOKEN") && !err.0.contains("topsecret"), "{}", err.0);
        let err = cfg(&[("METRICS_TOKEN", "shortsecret")]).unwrap_err();
        assert!(err.0.contains("METRICS_TOKEN") && !err.0.contains("shortsecret"), "{}", err.0);
    }

    #[test]
    fn limits_proxies_and_metrics_come_from_the_environment() {
        let c = cfg(&[]).unwrap();
        assert_eq!(c.rate_limits, RateLimits::default());
        assert_eq!(c.metrics, MetricsAccess::Off);
        let c =
            cfg(&[("RATE_LIMIT_OPEN_USER", "5/1"), ("TRUSTED_PROXIES", "10.0.0.0/8, ::1"), ("METRICS_TOKEN", "0123456789abcdef")]).unwrap();
        assert_eq!(c.rate_limits.open_user, Limit::new(5, 1));
        assert_eq!(c.trusted_proxies.len(), 2);
        assert_eq!(c.metrics, MetricsAccess::Token("0123456789abcdef".into()));
        assert_eq!(cfg(&[("RATE_LIMITS", "off")]).unwrap().rate_limits, RateLimits::OFF);
        assert_eq!(cfg(&[("METRICS_ENABLED", "true")]).unwrap().metrics, MetricsAccess::Open);
        for (k, v) in [
            ("RATE_LIMIT_OPEN_IP", "lots"),
            ("TRUSTED_PROXIES", "proxy"),
            ("METRICS_TOKEN", "short"),
            ("DB_BUSY_TIMEOUT_MS", "0"),
            ("METRICS_ENABLED", "perhaps"),
        ] {
            assert!(cfg(&[(k, v)]).unwrap_err().0.contains(k), "{k}");
        }
    }

    #[test]
    fn demo_mode_refuses_a_public_address_unless_told() {
        let err = cfg(&[("BIND_ADDR", "0.0.0.0:8080")]).unwrap().demo_exposure().unwrap();
        assert!(err.contains("TELEGRAM_BOT_TOKEN") && err.contains("DEMO_PUBLIC"), "{err}");
        assert!(cfg(&[("BIND_ADDR", "0.0.0.0:8080"), ("DEMO_PUBLIC", "true")]).unwrap().demo_exposure().is_none());
        assert!(cfg(&[("BIND_ADDR", "[::1]:8080")]).unwrap().demo_exposure().is_none());
        assert!(cfg(&[("BIND_ADDR", "127.0.0.1:8080")]).unwrap().demo_exposure().is_none());
        let with_token = cfg(&[("BIND_ADDR", "0.0.0.0:8080"), ("TELEGRAM_BOT_TOKEN", "1:x"), ("WEBAPP_URL", "https://x.io")]);
        assert!(with_token.unwrap().demo_exposure().is_none());
        assert!(cfg(&[("DEMO_PUBLIC", "maybe")]).unwrap_err().0.contains("DEMO_PUBLIC"));
    }

    #[test]
    fn pricing_settings_have_defaults_and_refuse_a_return_outside_the_band() {
        let c = cfg(&[]).unwrap();
        assert_eq!((c.case_rtp, c.tokens_per_usd, c.reprice_daily()), (9000, Tokens(10_000), false));
        assert_eq!(c.price_feed_url, "https://api.skinport.com/v1/items");
        let with_token = cfg(&[("TELEGRAM_BOT_TOKEN", "1:x"), ("WEBAPP_URL", "https://x.io")]).unwrap();
        assert!(with_token.reprice_daily());
        assert!(cfg(&[("REPRICE_DAILY", "true")]).unwrap().reprice_daily());
        assert_eq!(cfg(&[("CASE_RTP", "0.8")]).unwrap().case_rtp, 8000);
        assert_eq!(cfg(&[("CASE_RTP", "0.95")]).unwrap().case_rtp, 9500);
        assert_eq!(cfg(&[("TOKENS_PER_USD", "150.5")]).unwrap().tokens_per_usd, Tokens(15_050));
        for (k, v) in [
            ("CASE_RTP", "0.5"),
            ("CASE_RTP", "0.96"),
            ("CASE_RTP", "90"),
            ("CASE_RTP", "1.0"),
            ("TOKENS_PER_USD", "0"),
            ("TOKENS_PER_USD", "cheap"),
            ("PRICE_FEED_URL", "nowhere"),
            ("REPRICE_DAILY", "sometimes"),
        ] {
            let err = cfg(&[(k, v)]).unwrap_err();
            assert!(err.0.contains(k), "{k}={v}: {}", err.0);
        }
    }

    #[test]
    fn a_star_pays_thirteen_tenths_of_a_cent_unless_told_and_losses_are_refused_unless_allowed() {
        let c = cfg(&[]).unwrap();
        assert_eq!((c.star_usd, c.allow_loss), (StarUsd::from_micros(13_000), false));
        let c = cfg(&[("STAR_USD", "0.0125"), ("ALLOW_LOSS", "true")]).unwrap();
        assert_eq!((c.star_usd, c.allow_loss), (StarUsd::from_micros(12_500), true));
        for (k, v) in [("STAR_USD", "0"), ("STAR_USD", "-0.01"), ("STAR_USD", "0.0000001"), ("STAR_USD", "cheap"), ("ALLOW_LOSS", "maybe")]
        {
            let err = cfg(&[(k, v)]).unwrap_err();
            assert!(err.0.contains(k), "{k}={v}: {}", err.0);
        }
    }

    #[test]
    fn withdraw_min_stars_is_a_whole_number_or_unset() {
        assert_eq!(cfg(&[]).unwrap().withdraw_min_stars, None);
        assert_eq!(cfg(&[("WITHDRAW_MIN_STARS", "0")]).unwrap().withdraw_min_stars, Some(0));
        assert!(cfg(&[("WITHDRAW_MIN_STARS", "-5")]).unwrap_err().0.contains("WITHDRAW_MIN_STARS"));
    }

    #[test]
    fn secrets_never_reach_debug() {
        let c = cfg(&[
            ("TELEGRAM_BOT_TOKEN", "1:supersecret"),
            ("WEBAPP_URL", "https://x.io"),
            ("DEV_GATE_PASSWORD", "gatepass"),
            ("METRICS_TOKEN", "metricsmetrics123"),
            ("TELEGRAM_WEBHOOK_URL", "https://bot.x.io/tg/hook"),
            ("TELEGRAM_WEBHOOK_SECRET", "hooksecret"),
        ])
        .unwrap();
        let shown = format!("{c:?}");
        for secret in ["supersecret", "gatepass", "metricsmetrics123", "hooksecret"] {
            assert!(!shown.contains(secret), "{shown}");
        }
    }

    #[test]
    fn every_setting_has_a_variable_and_a_line_of_help() {
        let cmd = Config::augment_args(clap::Command::new("fragbox"));
        for arg in cmd.get_arguments() {
            assert!(arg.get_env().is_some(), "{} has no env", arg.get_id());
            assert!(arg.get_help().is_some(), "{} has no help", arg.get_id());
            let env = arg.get_env().and_then(|e| e.to_str()).unwrap_or_default();
            let shown = arg.get_value_names().and_then(|v| v.first()).map(|v| v.to_string()).unwrap_or_default();
            assert_eq!(shown, env, "an error about {} must name its variable", arg.get_id());
        }
    }

    #[test]
    fn every_setting_is_listed_in_env_example_and_the_readme() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let example = std::fs::read_to_string(root.join(".env.example")).unwrap();
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
        for arg in Config::augment_args(clap::Command::new("fragbox")).get_arguments() {
            let var = arg.get_env().and_then(|e| e.to_str()).unwrap_or_default();
            assert!(example.contains(&format!("{var}=")), ".env.example lacks {var}");
            assert!(readme.contains(&format!("`{var}`")), "README's table lacks {var}");
        }
    }

    #[test]
    fn a_webhook_needs_an_https_url_of_its_own_path_and_a_plain_secret() {
        let base = [("TELEGRAM_BOT_TOKEN", "1:x"), ("WEBAPP_URL", "https://x.io")];
        let with = |extra: &[(&'static str, &'static str)]| {
            let mut pairs = base.to_vec();
            pairs.extend_from_slice(extra);
            cfg(&pairs)
        };
        assert!(with(&[]).unwrap().webhook.is_none());
        let c = with(&[("TELEGRAM_WEBHOOK_URL", "https://bot.x.io/tg/hook"), ("TELEGRAM_WEBHOOK_SECRET", "s3cret_-X")]).unwrap();
        let w = c.webhook.unwrap();
        assert_eq!((w.path.as_str(), w.secret.as_str()), ("/tg/hook", "s3cret_-X"));
        assert!(!format!("{w:?}").contains("s3cret"));
        let long = "a".repeat(257);
        let long: &'static str = Box::leak(long.into_boxed_str());
        for (url, secret, names) in [
            (Some("https://bot.x.io/tg"), None, "TELEGRAM_WEBHOOK_SECRET"),
            (None, Some("abc"), "TELEGRAM_WEBHOOK_SECRET"),
            (Some("http://bot.x.io/tg"), Some("abc"), "TELEGRAM_WEBHOOK_URL"),
            (Some("not a url"), Some("abc"), "TELEGRAM_WEBHOOK_URL"),
            (Some("https://bot.x.io/"), Some("abc"), "TELEGRAM_WEBHOOK_URL"),
            (Some("https://bot.x.io/api/v1/hook"), Some("abc"), "TELEGRAM_WEBHOOK_URL"),
            (Some("https://bot.x.io/tg"), Some("has space"), "TELEGRAM_WEBHOOK_SECRET"),
            (Some("https://bot.x.io/tg"), Some("ключ"), "TELEGRAM_WEBHOOK_SECRET"),
            (Some("https://bot.x.io/tg"), Some(long), "TELEGRAM_WEBHOOK_SECRET"),
        ] {
            let mut extra = Vec::new();
            extra.extend(url.map(|u| ("TELEGRAM_WEBHOOK_URL", u)));
            extra.extend(secret.map(|s| ("TELEGRAM_WEBHOOK_SECRET", s)));
            let err = with(&extra).unwrap_err();
            assert!(err.0.contains(names), "{url:?} {secret:?}: {}", err.0);
        }
        let demo = cfg(&[("TELEGRAM_WEBHOOK_URL", "https://bot.x.io/tg"), ("TELEGRAM_WEBHOOK_SECRET", "abc")]).unwrap_err();
        assert!(demo.0.contains("TELEGRAM_WEBHOOK_URL"), "{}", demo.0);
    }

    #[test]
    fn a_real_token_needs_an_https_webapp_url() {
        assert!(cfg(&[("TELEGRAM_BOT_TOKEN", "1:x"), ("WEBAPP_URL", "http://x")]).unwrap_err().0.contains("WEBAPP_URL"));
        let c = cfg(&[("TELEGRAM_BOT_TOKEN", "1:x"), ("WEBAPP_URL", "https://x.io"), ("ADMIN_IDS", "5, 6")]).unwrap();
        assert_eq!(c.admin_ids, vec![5, 6]);
        assert!(!c.demo());
        assert_eq!(c.channel_id, None);
    }
}
