//! Rate limits per user and per client address on every endpoint that writes or calls Telegram
//! (any method but GET, HEAD and OPTIONS), grouped into actions with their own budgets. Token buckets in memory: one process serves the API, so
//! there is nothing to share; a restart forgets the buckets, which only errs on the player's side.
//!
//! Behind the HTTPS proxy every connection comes from the proxy, so `X-Forwarded-For` is read
//! only when the peer is one of `TRUSTED_PROXIES`; otherwise a client could name any address.
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;
use std::sync::Mutex;
use std::time::Instant;

use axum::extract::{ConnectInfo, MatchedPath, Request};
use axum::http::{HeaderMap, Method};
use axum::response::{IntoResponse, Response};

use crate::domain::{auth, DomainError};
use crate::http::error::ApiError;
use crate::http::extract::{self, AuthUser};
use crate::http::AppState;

/// `burst` requests at once, refilled at `burst` per `per_secs` seconds. `burst == 0` is off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub burst: u32,
    pub per_secs: u32,
}

impl Limit {
    pub const OFF: Limit = Limit { burst: 0, per_secs: 1 };

    pub const fn new(burst: u32, per_secs: u32) -> Limit {
        Limit { burst, per_secs }
    }

    pub fn is_off(&self) -> bool {
        self.burst == 0
    }
}

impl FromStr for Limit {
    type Err = String;

    /// `"30/60"` (30 per 60 s), `"30"` (30 per minute), or `"off"`.
    fn from_str(s: &str) -> Result<Limit, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("off") || s == "0" {
            return Ok(Limit::OFF);
        }
        let (n, secs) = s.split_once('/').unwrap_or((s, "60"));
        let burst: u32 = n.trim().parse().map_err(|_| format!("{s:?}: expected <count>/<seconds> or off"))?;
        let per_secs: u32 = secs.trim().trim_end_matches('s').parse().map_err(|_| format!("{s:?}: expected <count>/<seconds> or off"))?;
        if per_secs == 0 {
            return Err(format!("{s:?}: the period must be at least 1 second"));
        }
        Ok(Limit { burst, per_secs })
    }
}

/// The limits for each action, per signed-in user and per client address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimits {
    pub sign_in_ip: Limit,
    pub open_user: Limit,
    pub open_ip: Limit,
    pub claim_user: Limit,
    pub claim_ip: Limit,
    pub ticket_user: Limit,
    pub ticket_ip: Limit,
    /// Provably fair: client seed and rotation (each writes a seed row).
    pub fair_user: Limit,
    pub fair_ip: Limit,
    /// Selling and withdrawing an item.
    pub item_user: Limit,
    pub item_ip: Limit,
    /// Calls that reach Telegram: invoice links (and demo payments), sharing a skin.
    pub telegram_user: Limit,
    pub telegram_ip: Limit,
    /// Every other write: settings, trade link, agreement, logout.
    pub account_user: Limit,
    pub account_ip: Limit,
    /// Attempts at the dev gate's password.
    pub dev_gate_ip: Limit,
}

impl Default for RateLimits {
    /// Generous for a person tapping in the mini app, tight for a script. Per-address limits are
    /// ten times the per-user ones: mobile carriers put many players behind one address.
    fn default() -> Self {
        RateLimits {
            sign_in_ip: Limit::new(300, 60),
            open_user: Limit::new(60, 60),
            open_ip: Limit::new(600, 60),
            claim_user: Limit::new(10, 60),
            claim_ip: Limit::new(100, 60),
            ticket_user: Limit::new(10, 60),
            ticket_ip: Limit::new(100, 60),
            fair_user: Limit::new(10, 60),
            fair_ip: Limit::new(100, 60),
            item_user: Limit::new(60, 60),
            item_ip: Limit::new(600, 60),
            telegram_user: Limit::new(10, 60),
            telegram_ip: Limit::new(100, 60),
            account_user: Limit::new(30, 60),
            account_ip: Limit::new(300, 60),
            dev_gate_ip: Limit::new(10, 60),
        }
    }
}

impl RateLimits {
    pub const OFF: RateLimits = RateLimits {
        sign_in_ip: Limit::OFF,
        open_user: Limit::OFF,
        open_ip: Limit::OFF,
        claim_user: Limit::OFF,
        claim_ip: Limit::OFF,
        ticket_user: Limit::OFF,
        ticket_ip: Limit::OFF,
        fair_user: Limit::OFF,
        fair_ip: Limit::OFF,
        item_user: Limit::OFF,
        item_ip: Limit::OFF,
        telegram_user: Limit::OFF,
        telegram_ip: Limit::OFF,
        account_user: Limit::OFF,
        account_ip: Limit::OFF,
        dev_gate_ip: Limit::OFF,
    };
}

/// An address or a CIDR block (`10.0.0.0/8`, `::1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IpNet {
    addr: IpAddr,
    prefix: u8,
}

impl FromStr for IpNet {
    type Err = String;

    fn from_str(s: &str) -> Result<IpNet, String> {
        let s = s.trim();
        let (a, p) = match s.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s, None),
        };
        let addr: IpAddr = a.parse().map_err(|_| format!("{s:?} is not an IP address or CIDR block"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match p {
            Some(p) => p.parse::<u8>().ok().filter(|p| *p <= max).ok_or_else(|| format!("{s:?}: bad prefix length"))?,
            None => max,
        };
        Ok(IpNet { addr, prefix })
    }
}

impl IpNet {
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = if self.prefix == 0 { 0 } else { u32::MAX << (32 - u32::from(self.prefix)) };
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = if self.prefix == 0 { 0 } else { u128::MAX << (128 - u32::from(self.prefix)) };
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// `::ffff:1.2.3.4` is `1.2.3.4` (a dual-stack listener reports v4 peers that way).
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(ip),
        v4 => v4,
    }
}

/// The client's address: the peer, or — when the peer is a trusted proxy — the rightmost
/// `X-Forwarded-For` entry that is not itself a trusted proxy.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let peer = canonical(peer);
    if !trusted.iter().any(|n| n.contains(peer)) {
        return peer;
    }
    let mut hops: Vec<IpAddr> = Vec::new();
    for value in headers.get_all("x-forwarded-for") {
        let Ok(value) = value.to_str() else { return peer };
        for part in value.split(',') {
            match part.trim().parse::<IpAddr>() {
                Ok(ip) => hops.push(canonical(ip)),
                // A hop we cannot read: stop trusting what lies to its left.
                Err(_) => hops.clear(),
            }
        }
    }
    let mut client = peer;
    for ip in hops.into_iter().rev() {
        client = ip;
        if !trusted.iter().any(|n| n.contains(ip)) {
            break;
        }
    }
    client
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Action {
    SignIn,
    Open,
    Claim,
    Ticket,
    Fair,
    Item,
    Telegram,
    Account,
    DevGate,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Who {
    User(i64),
    Ip(IpAddr),
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The buckets of one process.
pub struct Limiter {
    limits: RateLimits,
    buckets: Mutex<HashMap<(Action, Who), Bucket>>,
}

/// Buckets kept before idle (full) ones are swept.
const SWEEP_AT: usize = 50_000;

impl Limiter {
    pub fn new(limits: RateLimits) -> Limiter {
        Limiter { limits, buckets: Mutex::new(HashMap::new()) }
    }

    fn limit(&self, action: Action, who: &Who) -> Limit {
        limit_for(&self.limits, action, who)
    }

    /// Takes one token from each bucket, or answers the seconds until the emptiest one has a
    /// token again (nothing is taken then).
    fn take(&self, action: Action, keys: &[Who], now: Instant) -> Result<(), u64> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() > SWEEP_AT {
            let limits = self.limits;
            buckets.retain(|(a, w), b| {
                let l = limit_for(&limits, *a, w);
                refill(b, l, now) < f64::from(l.burst)
            });
        }
        let mut wait = 0u64;
        for who in keys {
            let limit = self.limit(action, who);
            if limit.is_off() {
                continue;
            }
            let b = buckets.entry((action, *who)).or_insert(Bucket { tokens: f64::from(limit.burst), at: now });
            let tokens = refill(b, limit, now);
            if tokens < 1.0 {
                let rate = f64::from(limit.burst) / f64::from(limit.per_secs);
                wait = wait.max(((1.0 - tokens) / rate).ceil().max(1.0) as u64);
            }
        }
        if wait > 0 {
            return Err(wait);
        }
        for who in keys {
            if let Some(b) = buckets.get_mut(&(action, *who)) {
                b.tokens -= 1.0;
            }
        }
        Ok(())
    }
}

fn limit_for(l: &RateLimits, action: Action, who: &Who) -> Limit {
    match (action, who) {
        (Action::SignIn, Who::Ip(_)) => l.sign_in_ip,
        (Action::SignIn, Who::User(_)) => Limit::OFF,
        (Action::Open, Who::User(_)) => l.open_user,
        (Action::Open, Who::Ip(_)) => l.open_ip,
        (Action::Claim, Who::User(_)) => l.claim_user,
        (Action::Claim, Who::Ip(_)) => l.claim_ip,
        (Action::Ticket, Who::User(_)) => l.ticket_user,
        (Action::Ticket, Who::Ip(_)) => l.ticket_ip,
        (Action::Fair, Who::User(_)) => l.fair_user,
        (Action::Fair, Who::Ip(_)) => l.fair_ip,
        (Action::Item, Who::User(_)) => l.item_user,
        (Action::Item, Who::Ip(_)) => l.item_ip,
        (Action::Telegram, Who::User(_)) => l.telegram_user,
        (Action::Telegram, Who::Ip(_)) => l.telegram_ip,
        (Action::Account, Who::User(_)) => l.account_user,
        (Action::Account, Who::Ip(_)) => l.account_ip,
        (Action::DevGate, Who::Ip(_)) => l.dev_gate_ip,
        (Action::DevGate, Who::User(_)) => Limit::OFF,
    }
}

/// Brings a bucket up to date; answers its tokens.
fn refill(b: &mut Bucket, limit: Limit, now: Instant) -> f64 {
    let rate = f64::from(limit.burst) / f64::from(limit.per_secs);
    let elapsed = now.saturating_duration_since(b.at).as_secs_f64();
    b.tokens = (b.tokens + elapsed * rate).min(f64::from(limit.burst));
    b.at = now;
    b.tokens
}

/// Which limited action a request is, from its method and route: every method but GET, HEAD
/// and OPTIONS is limited (a write, or a call to Telegram); unlisted writes count as `Account`.
fn action(method: &Method, route: &str) -> Option<Action> {
    if method == Method::GET || method == Method::HEAD || method == Method::OPTIONS {
        return None;
    }
    let route = route.strip_prefix("/api/v1").unwrap_or(route);
    Some(match route {
        "/auth" => Action::SignIn,
        "/dev-gate" => Action::DevGate,
        "/cases/{id}/open" => Action::Open,
        "/daily-reward/claim" | "/daily-reward/claim-streak-bonus" | "/subscription/check-subscription" => Action::Claim,
        "/support/tickets" | "/support/tickets/{id}/messages" | "/support/tickets/{id}/close" => Action::Ticket,
        "/fair/rotate" | "/fair/client-seed" => Action::Fair,
        "/sales/sell" | "/user/item/{id}/request-withdrawal" => Action::Item,
        "/payments/create-invoice-link" | "/dev/pay/{id}" | "/savePreparedInlineMessage" => Action::Telegram,
        _ => Action::Account,
    })
}

/// The middleware. Limited routes resolve the bearer token here (from the in-memory session
/// cache) so the per-user bucket is known; the handler reuses the resolved user.
/// The rate limit of a request: `Ok` with the request (the signed-in player's id attached when
/// the token was checked here), or the `429` to answer.
pub async fn admit(state: &AppState, req: Request) -> Result<Request, Response> {
    // Only matched routes: an unknown path or method is refused without touching a bucket.
    let route = req.extensions().get::<MatchedPath>().map(|m| m.as_str().to_owned());
    let Some(action) = route.as_deref().and_then(|r| action(req.method(), r)) else {
        return Ok(req);
    };
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()).unwrap_or(IpAddr::from([0, 0, 0, 0]));
    let ip = client_ip(peer, req.headers(), &state.config.trusted_proxies);
    let (mut parts, body) = req.into_parts();
    let mut keys = vec![Who::Ip(ip)];
    if action != Action::SignIn && action != Action::DevGate {
        if let Some(token) = extract::bearer(&parts) {
            if let Ok(id) = auth::authenticate(&state.domain, token).await {
                parts.extensions.insert(AuthUser(id));
                keys.push(Who::User(id));
            }
        }
    }
    if let Err(secs) = state.limiter.take(action, &keys, Instant::now()) {
        tracing::info!(?action, route = route.as_deref().unwrap_or(""), retry_after = secs, "rate limited");
        return Err(ApiError::Domain(DomainError::RateLimited(secs)).into_response());
    }
    Ok(Request::from_parts(parts, body))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn every_write_route_is_limited_and_no_read_is() {
        for route in [
            "/api/v1/fair/rotate",
            "/api/v1/fair/client-seed",
            "/api/v1/payments/create-invoice-link",
            "/api/v1/savePreparedInlineMessage",
            "/api/v1/sales/sell",
            "/api/v1/user/settings",
            "/api/v1/dev-gate",
            "/api/v1/auth/logout",
        ] {
            assert!(action(&Method::POST, route).is_some(), "{route}");
            assert!(action(&Method::PUT, route).is_some(), "{route}");
        }
        assert_eq!(action(&Method::POST, "/api/v1/fair/rotate"), Some(Action::Fair));
        assert_eq!(action(&Method::POST, "/api/v1/payments/create-invoice-link"), Some(Action::Telegram));
        assert_eq!(action(&Method::GET, "/api/v1/fair"), None);
        assert_eq!(action(&Method::HEAD, "/api/v1/me"), None);
    }

    #[test]
    fn limits_parse_from_config_text() {
        assert_eq!("30/60".parse::<Limit>().unwrap(), Limit::new(30, 60));
        assert_eq!("5/1s".parse::<Limit>().unwrap(), Limit::new(5, 1));
        assert_eq!("20".parse::<Limit>().unwrap(), Limit::new(20, 60));
        assert!("off".parse::<Limit>().unwrap().is_off());
        assert!("x/1".parse::<Limit>().is_err());
        assert!("1/0".parse::<Limit>().is_err());
    }

    #[test]
    fn a_bucket_allows_its_burst_then_refuses_until_it_refills() {
        let limiter = Limiter::new(RateLimits { open_user: Limit::new(3, 3), ..RateLimits::OFF });
        let t0 = Instant::now();
        let me = [Who::User(1)];
        for _ in 0..3 {
            assert!(limiter.take(Action::Open, &me, t0).is_ok());
        }
        assert_eq!(limiter.take(Action::Open, &me, t0), Err(1));
        // Another user has their own bucket.
        assert!(limiter.take(Action::Open, &[Who::User(2)], t0).is_ok());
        assert!(limiter.take(Action::Open, &me, t0 + Duration::from_millis(1100)).is_ok());
    }

    #[test]
    fn a_refusal_by_one_bucket_takes_nothing_from_the_others() {
        let limiter = Limiter::new(RateLimits { open_user: Limit::new(1, 60), open_ip: Limit::new(2, 60), ..RateLimits::OFF });
        let t0 = Instant::now();
        let ip = Who::Ip(IpAddr::from([1, 2, 3, 4]));
        assert!(limiter.take(Action::Open, &[ip, Who::User(1)], t0).is_ok());
        assert_eq!(limiter.take(Action::Open, &[ip, Who::User(1)], t0), Err(60));
        // The address still has one token: user 1's refusal did not spend it.
        assert!(limiter.take(Action::Open, &[ip, Who::User(2)], t0).is_ok());
        assert!(limiter.take(Action::Open, &[ip, Who::User(3)], t0).is_err());
    }

    #[test]
    fn forwarded_for_counts_only_from_a_trusted_proxy() {
        let trusted: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap(), "::1".parse().unwrap()];
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", "6.6.6.6, 203.0.113.9, 10.1.1.1".parse().unwrap());
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        assert_eq!(client_ip(proxy, &h, &trusted), "203.0.113.9".parse::<IpAddr>().unwrap());
        let stranger: IpAddr = "198.51.100.7".parse().unwrap();
        assert_eq!(client_ip(stranger, &h, &trusted), stranger);
        assert_eq!(client_ip("::1".parse().unwrap(), &HeaderMap::new(), &trusted), "::1".parse::<IpAddr>().unwrap());
        let mapped: IpAddr = "::ffff:10.0.0.2".parse().unwrap();
        assert_eq!(client_ip(mapped, &h, &trusted), "203.0.113.9".parse::<IpAddr>().unwrap());
        let mut garbage = HeaderMap::new();
        garbage.insert("x-forwarded-for", "nonsense".parse().unwrap());
        assert_eq!(client_ip(proxy, &garbage, &trusted), proxy);
    }

    #[test]
    fn cidr_blocks_match_their_addresses_only() {
        let net: IpNet = "192.168.0.0/16".parse().unwrap();
        assert!(net.contains("192.168.44.1".parse().unwrap()));
        assert!(!net.contains("192.169.0.1".parse().unwrap()));
        assert!(!net.contains("::1".parse().unwrap()));
        assert!("1.2.3.4/33".parse::<IpNet>().is_err());
        assert!("nope".parse::<IpNet>().is_err());
        assert!("0.0.0.0/0".parse::<IpNet>().unwrap().contains("8.8.8.8".parse().unwrap()));
    }
}
