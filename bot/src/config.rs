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
            bot_token,
        })
    }

    pub fn demo(&self) -> bool {
        self.bot_token.is_none()
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
    fn a_real_token_needs_an_https_webapp_url() {
        assert!(cfg(&[("TELEGRAM_BOT_TOKEN", "1:x"), ("WEBAPP_URL", "http://x")]).unwrap_err().0.contains("WEBAPP_URL"));
        let c = cfg(&[("TELEGRAM_BOT_TOKEN", "1:x"), ("WEBAPP_URL", "https://x.io"), ("ADMIN_IDS", "5, 6")]).unwrap();
        assert_eq!(c.admin_ids, vec![5, 6]);
        assert!(!c.demo());
    }
}
