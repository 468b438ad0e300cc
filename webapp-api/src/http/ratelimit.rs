//! Rate limits per user and per client address on every endpoint that writes or calls Telegram
//! (any method but GET, HEAD and OPTIONS), grouped into actions with their own budgets. Token
//! buckets in memory (governor's keyed limiters, GCRA): one process serves the API, so there is
//! nothing to share; a restart forgets the buckets, which only errs on the player's side.
//!
//! Behind the HTTPS proxy every connection comes from the proxy, so `X-Forwarded-For` is read
//! only when the peer is one of `TRUSTED_PROXIES`; otherwise a client could name any address.
//!
//! An IPv6 client is its /64: providers hand one to each subscriber, so the addresses inside it
//! are one client's to rotate through at will.
//!
//! This module is a leaf of the HTTP layer: the middleware that applies it lives in `gate`.
use std::net::{IpAddr, Ipv4Addr};
use std::num::NonZeroU32;
use std::str::FromStr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use axum::http::{HeaderMap, Method};
use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

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
    /// Reads of a shared skin's public card per client address (the one limited read).
    pub public_card_ip: Limit,
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
            public_card_ip: Limit::new(60, 60),
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
        public_card_ip: Limit::OFF,
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

/// The address a per-address bound counts for a request from `peer`: the client's
/// (`client_ip`), an IPv6 one by its /64 (as `AddressKey` does); `None` when that is a
/// trusted proxy itself (it named no client), which carries many players and is never bounded.
pub fn bounded_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> Option<IpAddr> {
    let ip = client_ip(peer, headers, trusted);
    if trusted.iter().any(|n| n.contains(ip)) {
        return None;
    }
    Some(match AddressKey::from(ip) {
        AddressKey::V4(v4) => IpAddr::V4(v4),
        AddressKey::V6Net(net) => IpAddr::V6(std::net::Ipv6Addr::from(u128::from(net) << 64)),
    })
}

/// The client's address as the rate limits count it, left on an open's request by the gate so
/// that the handler can count an open of several cases as that many opens (`Limiter::take_more`).
#[derive(Clone, Copy, Debug)]
pub struct ClientAddr(pub IpAddr);

/// A group of routes sharing one budget.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    SignIn,
    Open,
    Claim,
    Ticket,
    Fair,
    Item,
    Telegram,
    Account,
    DevGate,
    PublicCard,
}

impl Action {
    const ALL: [Action; 10] = [
        Action::SignIn,
        Action::Open,
        Action::Claim,
        Action::Ticket,
        Action::Fair,
        Action::Item,
        Action::Telegram,
        Action::Account,
        Action::DevGate,
        Action::PublicCard,
    ];

    /// Whether the action is also limited per signed-in player (signing in and the dev gate
    /// come before there is one).
    pub fn per_user(self) -> bool {
        !matches!(self, Action::SignIn | Action::DevGate | Action::PublicCard)
    }

    /// `(per user, per address)`.
    fn limits(self, l: &RateLimits) -> (Limit, Limit) {
        match self {
            Action::SignIn => (Limit::OFF, l.sign_in_ip),
            Action::Open => (l.open_user, l.open_ip),
            Action::Claim => (l.claim_user, l.claim_ip),
            Action::Ticket => (l.ticket_user, l.ticket_ip),
            Action::Fair => (l.fair_user, l.fair_ip),
            Action::Item => (l.item_user, l.item_ip),
            Action::Telegram => (l.telegram_user, l.telegram_ip),
            Action::Account => (l.account_user, l.account_ip),
            Action::DevGate => (Limit::OFF, l.dev_gate_ip),
            Action::PublicCard => (Limit::OFF, l.public_card_ip),
        }
    }
}

/// Which limited action a request is, from its method and route: every method but GET, HEAD
/// and OPTIONS is limited (a write, or a call to Telegram); unlisted writes count as `Account`.
/// One read is limited too, per address: a shared skin's public card, the only read anyone may
/// make without signing in by guessing ids.
pub fn action(method: &Method, route: &str) -> Option<Action> {
    let route = route.strip_prefix("/api/v1").unwrap_or(route);
    if method == Method::GET || method == Method::HEAD || method == Method::OPTIONS {
        return (route == "/items/{id}/public").then_some(Action::PublicCard);
    }
    Some(match route {
        "/auth" => Action::SignIn,
        "/dev-gate" => Action::DevGate,
        "/cases/{id}/open" => Action::Open,
        // A promo code shares the claims' budget per player and address: guessing codes is
        // limited as tightly as claiming rewards.
        "/daily-reward/claim" | "/daily-reward/claim-streak-bonus" | "/subscription/check-subscription" | "/promo/redeem" => Action::Claim,
        "/support/tickets" | "/support/tickets/{id}/messages" | "/support/tickets/{id}/close" => Action::Ticket,
        "/fair/rotate" | "/fair/client-seed" => Action::Fair,
        "/sales/sell" | "/user/item/{id}/request-withdrawal" => Action::Item,
        "/payments/create-invoice-link" | "/dev/pay/{id}" | "/savePreparedInlineMessage" => Action::Telegram,
        _ => Action::Account,
    })
}

/// Whom a per-address bucket belongs to: an IPv4 address, or the /64 network of an IPv6 one
/// (its upper 64 bits). An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) is its IPv4 address.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AddressKey {
    V4(Ipv4Addr),
    V6Net(u64),
}

impl From<IpAddr> for AddressKey {
    fn from(ip: IpAddr) -> AddressKey {
        match canonical(ip) {
            IpAddr::V4(v4) => AddressKey::V4(v4),
            IpAddr::V6(v6) => AddressKey::V6Net((u128::from(v6) >> 64) as u64),
        }
    }
}

/// Checks between two sweeps of a keyed limiter's idle keys.
///
/// governor keeps one entry per key ever seen until `retain_recent` drops those whose bucket is
/// full again (a key's bucket is full at most one period — `per_secs` — after its last request).
/// Sweeping every this many checks keeps a limiter at the keys of the last period plus at most
/// this many, whatever the number of addresses a flood comes from, at the cost of one pass over
/// the map per this many requests.
const SWEEP_EVERY: u32 = 4096;

/// governor's keyed limiter (`DefaultKeyedRateLimiter` when `C` is the default clock).
type Keyed<K, C> = RateLimiter<K, DefaultKeyedStateStore<K>, C, NoOpMiddleware<<C as Clock>::Instant>>;

/// One budget (an action, per user or per address) over all its keys.
struct Buckets<K: std::hash::Hash + Eq + Clone, C: Clock> {
    limiter: Keyed<K, C>,
    checks: AtomicU32,
}

impl<K: std::hash::Hash + Eq + Clone, C: Clock + Clone> Buckets<K, C> {
    /// `None` when the limit is off.
    fn new(limit: Limit, clock: &C) -> Option<Self> {
        let burst = NonZeroU32::new(limit.burst)?;
        // One token back every `per_secs / burst` (at least a nanosecond, which governor needs).
        let period = (Duration::from_secs(u64::from(limit.per_secs)) / burst.get()).max(Duration::from_nanos(1));
        let quota = Quota::with_period(period)?.allow_burst(burst);
        Some(Buckets { limiter: RateLimiter::dashmap_with_clock(quota, clock.clone()), checks: AtomicU32::new(0) })
    }

    /// Takes a token of `key`'s bucket, or answers the whole seconds until it has one (at least 1).
    fn take(&self, key: &K) -> Result<(), u64> {
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            self.limiter.retain_recent();
            self.limiter.shrink_to_fit();
        }
        self.limiter.check_key(key).map_err(|refused| {
            let wait = refused.wait_time_from(self.limiter.clock().now());
            (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
        })
    }

    /// Takes `n` tokens of `key`'s bucket at once, or none and answers the whole seconds until it
    /// has them; more than the bucket ever holds waits a whole period.
    fn take_n(&self, key: &K, n: NonZeroU32, per_secs: u32) -> Result<(), u64> {
        match self.limiter.check_key_n(key, n) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(refused)) => {
                let wait = refused.wait_time_from(self.limiter.clock().now());
                Err((wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1))
            }
            Err(_) => Err(u64::from(per_secs).max(1)),
        }
    }
}

struct ActionBuckets<C: Clock> {
    user: Option<Buckets<i64, C>>,
    address: Option<Buckets<AddressKey, C>>,
    /// The periods of the two budgets (`per_secs`).
    periods: (u32, u32),
}

/// The buckets of one process: per action, one keyed limiter per user and one per address
/// (either absent when its limit is off).
pub struct Limiter<C: Clock = DefaultClock> {
    actions: Vec<ActionBuckets<C>>,
}

impl Limiter {
    pub fn new(limits: RateLimits) -> Limiter {
        Limiter::with_clock(limits, DefaultClock::default())
    }
}

impl<C: Clock + Clone> Limiter<C> {
    /// Buckets timed by `clock` (tests move a fake one).
    pub fn with_clock(limits: RateLimits, clock: C) -> Limiter<C> {
        let actions = Action::ALL
            .iter()
            .map(|a| {
                let (user, address) = a.limits(&limits);
                ActionBuckets {
                    user: Buckets::new(user, &clock),
                    address: Buckets::new(address, &clock),
                    periods: (user.per_secs, address.per_secs),
                }
            })
            .collect();
        Limiter { actions }
    }

    /// Takes one token from the player's bucket and one from the address's, or answers the
    /// seconds to wait. The player's bucket is asked first, so a player over their own limit
    /// spends nothing of the budget they share with everyone behind the same address (a mobile
    /// carrier's NAT); governor cannot give a token back, so a refusal by the address's bucket
    /// does spend the player's token.
    pub fn take(&self, action: Action, ip: IpAddr, user: Option<i64>) -> Result<(), u64> {
        let Some(buckets) = self.actions.get(action as usize) else { return Ok(()) };
        if let (Some(b), Some(id)) = (&buckets.user, user) {
            b.take(&id)?;
        }
        if let Some(b) = &buckets.address {
            b.take(&AddressKey::from(ip))?;
        }
        Ok(())
    }

    /// Takes `more` tokens beyond the one the gate took, for a request that counts as several
    /// (an open of several cases: `count - 1`), from the player's bucket, then the address's:
    /// all of them or none from each, as `take` does with one.
    pub fn take_more(&self, action: Action, ip: IpAddr, user: Option<i64>, more: u32) -> Result<(), u64> {
        let Some(more) = NonZeroU32::new(more) else { return Ok(()) };
        let Some(buckets) = self.actions.get(action as usize) else { return Ok(()) };
        if let (Some(b), Some(id)) = (&buckets.user, user) {
            b.take_n(&id, more, buckets.periods.0)?;
        }
        if let Some(b) = &buckets.address {
            b.take_n(&AddressKey::from(ip), more, buckets.periods.1)?;
        }
        Ok(())
    }

    /// Keys held over all buckets.
    #[cfg(test)]
    fn keys_held(&self) -> usize {
        self.actions
            .iter()
            .map(|a| a.user.as_ref().map_or(0, |b| b.limiter.len()) + a.address.as_ref().map_or(0, |b| b.limiter.len()))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use governor::clock::FakeRelativeClock;

    use super::*;

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
        assert_eq!(action(&Method::POST, "/api/v1/promo/redeem"), Some(Action::Claim));
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

    fn fake_limiter(limits: RateLimits) -> (Limiter<FakeRelativeClock>, FakeRelativeClock) {
        let clock = FakeRelativeClock::default();
        (Limiter::with_clock(limits, clock.clone()), clock)
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    /// Production runs governor's default keyed limiter; only the tests swap the clock.
    #[allow(dead_code)]
    fn the_default_clock_gives_governors_default_keyed_limiter(
        l: Keyed<AddressKey, DefaultClock>,
    ) -> governor::DefaultKeyedRateLimiter<AddressKey> {
        l
    }

    #[test]
    fn an_open_of_several_counts_as_that_many_opens_and_takes_all_or_none() {
        let (limiter, clock) = fake_limiter(RateLimits { open_user: Limit::new(10, 10), ..RateLimits::OFF });
        let here = ip("10.0.0.1");
        // An open of five: the gate's one, then four more.
        assert!(limiter.take(Action::Open, here, Some(1)).is_ok());
        assert!(limiter.take_more(Action::Open, here, Some(1), 4).is_ok());
        assert!(limiter.take(Action::Open, here, Some(1)).is_ok());
        assert!(limiter.take_more(Action::Open, here, Some(1), 4).is_ok());
        // Ten taken: a third open of five is refused, and its refusal took nothing more.
        assert!(limiter.take_more(Action::Open, here, Some(1), 4).is_err());
        clock.advance(Duration::from_secs(1));
        assert!(limiter.take(Action::Open, here, Some(1)).is_ok());
        // More than the bucket ever holds waits a whole period.
        assert_eq!(limiter.take_more(Action::Open, here, Some(2), 11), Err(10));
        assert!(limiter.take_more(Action::Open, here, Some(2), 0).is_ok());
    }

    #[test]
    fn every_action_finds_its_own_buckets() {
        for (i, a) in Action::ALL.iter().enumerate() {
            assert_eq!(*a as usize, i, "{a:?}");
        }
    }

    #[test]
    fn a_bucket_allows_its_burst_then_refuses_until_it_refills() {
        let (limiter, clock) = fake_limiter(RateLimits { open_user: Limit::new(3, 3), ..RateLimits::OFF });
        let here = ip("1.2.3.4");
        for _ in 0..3 {
            assert!(limiter.take(Action::Open, here, Some(1)).is_ok());
        }
        assert_eq!(limiter.take(Action::Open, here, Some(1)), Err(1));
        // Another user has their own bucket.
        assert!(limiter.take(Action::Open, here, Some(2)).is_ok());
        clock.advance(Duration::from_millis(1100));
        assert!(limiter.take(Action::Open, here, Some(1)).is_ok());
    }

    #[test]
    fn retry_after_is_the_whole_seconds_until_the_next_token() {
        let (limiter, clock) = fake_limiter(RateLimits { sign_in_ip: Limit::new(1, 60), ..RateLimits::OFF });
        let here = ip("1.2.3.4");
        assert!(limiter.take(Action::SignIn, here, None).is_ok());
        assert_eq!(limiter.take(Action::SignIn, here, None), Err(60));
        clock.advance(Duration::from_millis(59_500));
        assert_eq!(limiter.take(Action::SignIn, here, None), Err(1));
        clock.advance(Duration::from_millis(500));
        assert!(limiter.take(Action::SignIn, here, None).is_ok());
    }

    #[test]
    fn a_refusal_by_the_players_bucket_spends_nothing_of_the_addresss() {
        let (limiter, _) = fake_limiter(RateLimits { open_user: Limit::new(1, 60), open_ip: Limit::new(2, 60), ..RateLimits::OFF });
        let shared = ip("1.2.3.4");
        assert!(limiter.take(Action::Open, shared, Some(1)).is_ok());
        assert_eq!(limiter.take(Action::Open, shared, Some(1)), Err(60));
        // The address still has one token: user 1's refusal did not spend it.
        assert!(limiter.take(Action::Open, shared, Some(2)).is_ok());
        assert!(limiter.take(Action::Open, shared, Some(3)).is_err());
    }

    #[test]
    fn actions_have_separate_budgets_and_an_off_limit_refuses_nothing() {
        let (limiter, _) = fake_limiter(RateLimits { claim_user: Limit::new(1, 60), ..RateLimits::OFF });
        let here = ip("1.2.3.4");
        assert!(limiter.take(Action::Claim, here, Some(1)).is_ok());
        assert!(limiter.take(Action::Claim, here, Some(1)).is_err());
        for _ in 0..100 {
            assert!(limiter.take(Action::Ticket, here, Some(1)).is_ok());
        }
    }

    #[test]
    fn ipv6_addresses_in_one_slash_64_share_a_bucket() {
        let (limiter, _) = fake_limiter(RateLimits { sign_in_ip: Limit::new(2, 60), ..RateLimits::OFF });
        assert!(limiter.take(Action::SignIn, ip("2001:db8:1:2::1"), None).is_ok());
        assert!(limiter.take(Action::SignIn, ip("2001:db8:1:2:ffff:ffff:ffff:fffe"), None).is_ok());
        assert!(limiter.take(Action::SignIn, ip("2001:db8:1:2:dead:beef:0:7"), None).is_err());
        // The next /64 is another client.
        assert!(limiter.take(Action::SignIn, ip("2001:db8:1:3::1"), None).is_ok());
        assert_eq!(AddressKey::from(ip("2001:db8:1:2::1")), AddressKey::from(ip("2001:db8:1:2:abcd::")));
        assert_ne!(AddressKey::from(ip("2001:db8:1:2::1")), AddressKey::from(ip("2001:db8:1:3::1")));
    }

    #[test]
    fn ipv4_addresses_are_limited_one_by_one() {
        let (limiter, _) = fake_limiter(RateLimits { sign_in_ip: Limit::new(1, 60), ..RateLimits::OFF });
        assert!(limiter.take(Action::SignIn, ip("198.51.100.1"), None).is_ok());
        assert!(limiter.take(Action::SignIn, ip("198.51.100.2"), None).is_ok());
        assert!(limiter.take(Action::SignIn, ip("198.51.100.1"), None).is_err());
        assert_ne!(AddressKey::from(ip("198.51.100.1")), AddressKey::from(ip("198.51.100.2")));
    }

    #[test]
    fn an_ipv4_mapped_ipv6_address_counts_as_its_ipv4_address() {
        let (limiter, _) = fake_limiter(RateLimits { sign_in_ip: Limit::new(1, 60), ..RateLimits::OFF });
        assert!(limiter.take(Action::SignIn, ip("203.0.113.9"), None).is_ok());
        assert!(limiter.take(Action::SignIn, ip("::ffff:203.0.113.9"), None).is_err());
        assert_eq!(AddressKey::from(ip("::ffff:203.0.113.9")), AddressKey::V4("203.0.113.9".parse().unwrap()));
        // Another mapped address is another IPv4 client, not the same "/64" (all mapped
        // addresses share their upper 64 bits).
        assert!(limiter.take(Action::SignIn, ip("::ffff:203.0.113.10"), None).is_ok());
    }

    #[test]
    fn idle_keys_are_swept_so_a_flood_of_addresses_holds_bounded_memory() {
        let (limiter, clock) = fake_limiter(RateLimits { sign_in_ip: Limit::new(5, 60), ..RateLimits::OFF });
        let flood = |from: u32| {
            for n in from..from + SWEEP_EVERY {
                let _ = limiter.take(Action::SignIn, IpAddr::from(Ipv4Addr::from(n)), None);
            }
        };
        flood(0);
        assert_eq!(limiter.keys_held(), SWEEP_EVERY as usize, "every key is still in its period");
        // A period later the first flood's buckets are full again: the next sweep drops them.
        clock.advance(Duration::from_secs(61));
        flood(1 << 20);
        assert!(limiter.keys_held() <= SWEEP_EVERY as usize, "{} keys held", limiter.keys_held());
        // A key still inside its period survives a sweep (its budget is not handed back).
        let busy = ip("192.0.2.1");
        for _ in 0..5 {
            assert!(limiter.take(Action::SignIn, busy, None).is_ok());
        }
        flood(2 << 20);
        assert!(limiter.take(Action::SignIn, busy, None).is_err());
    }

    #[test]
    fn the_bounded_address_is_the_client_behind_the_proxy_and_never_the_proxy() {
        let trusted: Vec<IpNet> = vec!["10.0.0.0/8".parse().unwrap()];
        let proxy: IpAddr = "10.1.1.1".parse().unwrap();
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", "203.0.113.9".parse().unwrap());
        assert_eq!(bounded_address(proxy, &h, &trusted), Some("203.0.113.9".parse().unwrap()));
        assert_eq!(bounded_address(proxy, &HeaderMap::new(), &trusted), None);
        let mut v6 = HeaderMap::new();
        v6.insert("x-forwarded-for", "2001:db8:1:2:aaaa::1".parse().unwrap());
        assert_eq!(bounded_address(proxy, &v6, &trusted), Some("2001:db8:1:2::".parse().unwrap()));
        let stranger: IpAddr = "198.51.100.7".parse().unwrap();
        assert_eq!(bounded_address(stranger, &h, &trusted), Some(stranger));
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
