//! Configuration from the environment (and an optional `.env`), parsed once in `main`.
use std::net::SocketAddr;
use std::path::PathBuf;

use webapp_api::http::metrics::MetricsAccess;
use webapp_api::http::ratelimit::{IpNet, Limit, RateLimits};

#[derive(Clone)]
pub struct Config {
    pub bind_addr: SocketAddr,
    pub database_url: String,
    pub bot_token: Option<String>,
    pub telegram_api_url: String,
    pub webapp_url: String,
    pub admin_ids: Vec<i64>,
    pub channel_id: Option<String>,
    pub community_url: String,
    pub channel_url: String,
    pub terms_url: String,
    pub privacy_url: String,
    pub bot_username: String,
    pub dev_gate_password: Option<String>,
    pub auth_max_age_secs: i64,
    pub session_ttl_secs: i64,
    pub catalog_dir: PathBuf,
    pub webapp_dist: PathBuf,
    pub legal_dir: PathBuf,
    pub log_format_json: bool,
    /// `RATE_LIMIT_*`: per user and per client address; `RATE_LIMITS=off` turns all off.
    pub rate_limits: RateLimits,
    /// `TRUSTED_PROXIES`: addresses or CIDR blocks whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<IpNet>,
    /// `METRICS_TOKEN` (bearer) or `METRICS_ENABLED=true` (open); else `/metrics` is 404.
    pub metrics: MetricsAccess,
    /// `DB_BUSY_TIMEOUT_MS`: how long a write waits for SQLite's lock (PostgreSQL: a row lock)
    /// before answering 503 busy.
    pub db_busy_timeout_ms: u64,
    /// `DB_MAX_CONNECTIONS`: the pool size of this process (default 8 on SQLite, 16 on PostgreSQL).
    pub db_max_connections: Option<u32>,
    /// `TELEGRAM_TIMEOUT_MS`: how long a player's request waits on a Telegram call.
    pub telegram_timeout_ms: u64,
    /// `WITHDRAW_MIN_STARS`: lifetime paid Stars (net of refunds) that unlock withdrawals;
    /// unset = the smallest package's Stars, 0 = no such rule.
    pub withdraw_min_stars: Option<i64>,
    /// `DEMO_PUBLIC=true`: allow demo mode (no token) on a non-loopback `BIND_ADDR`.
    pub demo_public: bool,
    /// `TELEGRAM_WEBHOOK_URL` with `TELEGRAM_WEBHOOK_SECRET`: Telegram posts updates to us; else long polling.
    pub webhook: Option<Webhook>,
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

/// `TELEGRAM_WEBHOOK_URL` and `TELEGRAM_WEBHOOK_SECRET`: both or neither, and only with a token.
fn webhook(get: &dyn Fn(&str) -> Option<String>, has_token: bool) -> Result<Option<Webhook>, ConfigError> {
    let (url, secret) = match (var(get, "TELEGRAM_WEBHOOK_URL"), var(get, "TELEGRAM_WEBHOOK_SECRET")) {
        (None, None) => return Ok(None),
        (None, Some(_)) => return Err(ConfigError("TELEGRAM_WEBHOOK_SECRET: set it only together with TELEGRAM_WEBHOOK_URL".into())),
        (Some(_), None) => {
            return Err(ConfigError("TELEGRAM_WEBHOOK_SECRET: required with TELEGRAM_WEBHOOK_URL (1-256 of A-Z a-z 0-9 _ -)".into()))
        }
        (Some(u), Some(s)) => (u, s),
    };
    if !has_token {
        return Err(ConfigError("TELEGRAM_WEBHOOK_URL: needs TELEGRAM_BOT_TOKEN (demo mode has no bot)".into()));
    }
    let parsed = url::Url::parse(&url).map_err(|_| ConfigError(format!("TELEGRAM_WEBHOOK_URL: not a URL: {url:?}")))?;
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
    Ok(Some(Webhook { url: parsed, path, secret }))
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

fn var(get: &dyn Fn(&str) -> Option<String>, name: &str) -> Option<String> {
    get(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

fn parse<T: std::str::FromStr>(get: &dyn Fn(&str) -> Option<String>, name: &str, default: T) -> Result<T, ConfigError> {
    match var(get, name) {
        None => Ok(default),
        Some(v) => v.parse().map_err(|_| ConfigError(format!("{name}: cannot parse {v:?}"))),
    }
}

/// The `RATE_LIMIT_*` variables over the defaults; each is `<count>/<seconds>` or `off`.
fn rate_limits(get: &dyn Fn(&str) -> Option<String>) -> Result<RateLimits, ConfigError> {
    if var(get, "RATE_LIMITS").is_some_and(|v| v.eq_ignore_ascii_case("off")) {
        return Ok(RateLimits::OFF);
    }
    let mut l = RateLimits::default();
    for (name, slot) in [
        ("RATE_LIMIT_SIGN_IN_IP", &mut l.sign_in_ip),
        ("RATE_LIMIT_OPEN_USER", &mut l.open_user),
        ("RATE_LIMIT_OPEN_IP", &mut l.open_ip),
        ("RATE_LIMIT_CLAIM_USER", &mut l.claim_user),
        ("RATE_LIMIT_CLAIM_IP", &mut l.claim_ip),
        ("RATE_LIMIT_TICKET_USER", &mut l.ticket_user),
        ("RATE_LIMIT_TICKET_IP", &mut l.ticket_ip),
        ("RATE_LIMIT_FAIR_USER", &mut l.fair_user),
        ("RATE_LIMIT_FAIR_IP", &mut l.fair_ip),
        ("RATE_LIMIT_ITEM_USER", &mut l.item_user),
        ("RATE_LIMIT_ITEM_IP", &mut l.item_ip),
        ("RATE_LIMIT_TELEGRAM_USER", &mut l.telegram_user),
        ("RATE_LIMIT_TELEGRAM_IP", &mut l.telegram_ip),
        ("RATE_LIMIT_ACCOUNT_USER", &mut l.account_user),
        ("RATE_LIMIT_ACCOUNT_IP", &mut l.account_ip),
        ("RATE_LIMIT_DEV_GATE_IP", &mut l.dev_gate_ip),
    ] {
        if let Some(v) = var(get, name) {
            *slot = v.parse::<Limit>().map_err(|e| ConfigError(format!("{name}: {e}")))?;
        }
    }
    Ok(l)
}

impl Config {
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_lookup(&|k| std::env::var(k).ok())
    }

    /// Parses from any lookup (tests pass a map).
    pub fn from_lookup(get: &dyn Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let bot_token = var(get, "TELEGRAM_BOT_TOKEN");
        if let Some(t) = &bot_token {
            let ok = t
                .split_once(':')
                .is_some_and(|(id, secret)| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) && !secret.is_empty());
            if !ok {
                return Err(ConfigError("TELEGRAM_BOT_TOKEN: expected <bot id>:<secret> from BotFather".into()));
            }
        }
        let bind_addr = parse(get, "BIND_ADDR", SocketAddr::from(([127, 0, 0, 1], 8080)))?;
        let webapp_url = var(get, "WEBAPP_URL").unwrap_or_else(|| format!("http://{bind_addr}"));
        if url::Url::parse(&webapp_url).is_err() {
            return Err(ConfigError(format!("WEBAPP_URL: not a URL: {webapp_url:?}")));
        }
        if bot_token.is_some() && !webapp_url.starts_with("https://") {
            return Err(ConfigError(
                "WEBAPP_URL: must be https:// when TELEGRAM_BOT_TOKEN is set (Telegram refuses web-app buttons otherwise)".into(),
            ));
        }
        let mut admin_ids = Vec::new();
        if let Some(list) = var(get, "ADMIN_IDS") {
            for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                admin_ids.push(part.parse::<i64>().map_err(|_| ConfigError(format!("ADMIN_IDS: {part:?} is not a Telegram user id")))?);
            }
        }
        let telegram_api_url = var(get, "TELEGRAM_API_URL").unwrap_or_else(|| "https://api.telegram.org".into());
        if url::Url::parse(&telegram_api_url).is_err() {
            return Err(ConfigError(format!("TELEGRAM_API_URL: not a URL: {telegram_api_url:?}")));
        }
        let auth_max_age_secs = parse(get, "AUTH_MAX_AGE_SECS", 86_400i64)?;
        let session_ttl_secs = parse(get, "SESSION_TTL_SECS", 7 * 86_400i64)?;
        if auth_max_age_secs < 0 || session_ttl_secs <= 0 {
            return Err(ConfigError("AUTH_MAX_AGE_SECS must be >= 0 and SESSION_TTL_SECS > 0".into()));
        }
        let rate_limits = rate_limits(get)?;
        let mut trusted_proxies = Vec::new();
        for part in var(get, "TRUSTED_PROXIES").unwrap_or_default().split(',').map(str::trim).filter(|p| !p.is_empty()) {
            trusted_proxies.push(part.parse::<IpNet>().map_err(|e| ConfigError(format!("TRUSTED_PROXIES: {e}")))?);
        }
        let metrics = match (var(get, "METRICS_TOKEN"), var(get, "METRICS_ENABLED").as_deref()) {
            (Some(t), _) if t.len() < 16 => return Err(ConfigError("METRICS_TOKEN: use at least 16 characters".into())),
            (Some(t), _) => MetricsAccess::Token(t),
            (None, Some("true" | "1" | "yes")) => MetricsAccess::Open,
            (None, None | Some("false" | "0" | "no")) => MetricsAccess::Off,
            (None, Some(v)) => return Err(ConfigError(format!("METRICS_ENABLED: true or false, not {v:?}"))),
        };
        let db_busy_timeout_ms = parse(get, "DB_BUSY_TIMEOUT_MS", 5_000u64)?;
        let db_max_connections = match var(get, "DB_MAX_CONNECTIONS") {
            None => None,
            Some(v) => Some(
                v.parse::<u32>()
                    .ok()
                    .filter(|n| (1..=1000).contains(n))
                    .ok_or_else(|| ConfigError(format!("DB_MAX_CONNECTIONS: a number from 1 to 1000, not {v:?}")))?,
            ),
        };
        let telegram_timeout_ms = parse(get, "TELEGRAM_TIMEOUT_MS", 5_000u64)?;
        if db_busy_timeout_ms == 0 || telegram_timeout_ms == 0 {
            return Err(ConfigError("DB_BUSY_TIMEOUT_MS and TELEGRAM_TIMEOUT_MS must be > 0".into()));
        }
        let withdraw_min_stars = match var(get, "WITHDRAW_MIN_STARS") {
            None => None,
            Some(v) => match v.parse::<i64>() {
                Ok(n) if n >= 0 => Some(n),
                _ => return Err(ConfigError(format!("WITHDRAW_MIN_STARS: a whole number of Stars >= 0, not {v:?}"))),
            },
        };
        let demo_public = match var(get, "DEMO_PUBLIC").as_deref() {
            None | Some("false" | "0" | "no") => false,
            Some("true" | "1" | "yes") => true,
            Some(v) => return Err(ConfigError(format!("DEMO_PUBLIC: true or false, not {v:?}"))),
        };
        let webhook = webhook(get, bot_token.is_some())?;
        let log_format = var(get, "LOG_FORMAT").unwrap_or_else(|| "text".into());
        if log_format != "text" && log_format != "json" {
            return Err(ConfigError("LOG_FORMAT: text or json".into()));
        }
        Ok(Config {
            bind_addr,
            database_url: var(get, "DATABASE_URL").unwrap_or_else(|| "sqlite://data/fragbox.db".into()),
            telegram_api_url,
            webapp_url,
            admin_ids,
            channel_id: var(get, "CHANNEL_ID").or_else(|| bot_token.is_none().then(|| "@fragbox_news".into())),
            community_url: var(get, "COMMUNITY_URL").unwrap_or_else(|| "https://t.me/fragbox_chat".into()),
            channel_url: var(get, "CHANNEL_URL").unwrap_or_else(|| "https://t.me/fragbox_news".into()),
            terms_url: var(get, "TERMS_URL").unwrap_or_else(|| "/legal/terms.html".into()),
            privacy_url: var(get, "PRIVACY_URL").unwrap_or_else(|| "/legal/privacy.html".into()),
            bot_username: var(get, "BOT_USERNAME").unwrap_or_else(|| "fragbox_bot".into()),
            dev_gate_password: var(get, "DEV_GATE_PASSWORD"),
            auth_max_age_secs,
            session_ttl_secs,
            catalog_dir: var(get, "CATALOG_DIR").unwrap_or_else(|| "data/catalog".into()).into(),
            webapp_dist: var(get, "WEBAPP_DIST").unwrap_or_else(|| "webapp/dist".into()).into(),
            legal_dir: var(get, "LEGAL_DIR").unwrap_or_else(|| "data/legal".into()).into(),
            log_format_json: log_format == "json",
            rate_limits,
            trusted_proxies,
            metrics,
            db_busy_timeout_ms,
            db_max_connections,
            telegram_timeout_ms,
            withdraw_min_stars,
            demo_public,
            webhook,
            bot_token,
        })
    }

    pub fn demo(&self) -> bool {
        self.bot_token.is_none()
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
    }

    #[test]
    fn a_bad_value_names_its_variable() {
        for (k, v) in [("BIND_ADDR", "nope"), ("ADMIN_IDS", "1,x"), ("AUTH_MAX_AGE_SECS", "-1"), ("TELEGRAM_BOT_TOKEN", "abc")] {
            let err = cfg(&[(k, v)]).unwrap_err();
            assert!(err.0.contains(k), "{k}: {}", err.0);
        }
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
        for (k, v) in
            [("RATE_LIMIT_OPEN_IP", "lots"), ("TRUSTED_PROXIES", "proxy"), ("METRICS_TOKEN", "short"), ("DB_BUSY_TIMEOUT_MS", "0")]
        {
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
        ])
        .unwrap();
        let shown = format!("{c:?}");
        for secret in ["supersecret", "gatepass", "metricsmetrics123"] {
            assert!(!shown.contains(secret), "{shown}");
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
    }
}
