//! The port through which the rules buy skins for players on a P2P market. One adapter per
//! market (`marketcsgo` today); the domain sees only these types, never a market's JSON, error
//! texts or units. Never called inside a database transaction.
//!
//! The conversation with a market is durable on our side: the `CustomId` of a purchase is stored
//! before `buy` is called, and any answer other than `Bought` or `Refused` (`Lost`) is resolved by
//! `look_up` with that id before anything is retried, so one purchase is never made twice.
pub mod connect;
pub mod marketcsgo;

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// What the port's calls answer: a boxed future, so `Market` stays usable as `dyn Market`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub use crate::domain::money::Usd;

/// Our idempotency key for one purchase attempt: 1..=50 of `[A-Za-z0-9_-]` (market.csgo.com takes
/// at most 50 characters; the same alphabet is safe in any market's query string).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CustomId(String);

impl CustomId {
    pub const MAX_LEN: usize = 50;

    pub fn parse(raw: &str) -> Option<CustomId> {
        let ok = !raw.is_empty() && raw.len() <= Self::MAX_LEN && raw.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        ok.then(|| CustomId(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CustomId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One purchase: the market buys the cheapest offer of `market_hash_name` at or below `max_price`
/// and sends it to the Steam account of the trade link's `partner`/`token`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Purchase {
    /// Steam-exact name, e.g. `AK-47 | Redline (Field-Tested)`.
    pub market_hash_name: String,
    /// The `partner` of the player's trade link (Steam account id).
    pub partner: u32,
    /// The `token` of the player's trade link.
    pub token: String,
    pub max_price: Usd,
    /// Stored before `buy` is called.
    pub custom_id: CustomId,
}

/// What a `buy` call came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuyOutcome {
    /// The market took the purchase; it goes on through `statuses`.
    Bought { market_id: String },
    /// The market answered that it did not buy.
    Refused(Refusal),
    /// No usable answer (timeout, dropped connection, 5xx, 429, 401, a page that is not the
    /// market's JSON): the purchase may or may not exist. Look the `custom_id` up before
    /// anything else; never call `buy` again for it blindly.
    Lost(String),
}

/// Why the market did not buy. `is_players()` tells the player's fault (the item goes back to
/// them with `code()`) from the shop's (the withdrawal waits for the admins).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The market could not check the trade link, or it is malformed.
    TradeUrlInvalid,
    /// The player's Steam inventory is private.
    InventoryPrivate,
    /// The player's account cannot trade (banned, no mobile authenticator).
    TradeRestricted,
    /// The player's Steam inventory is full.
    InventoryFull,
    /// No offer of that name at or below the cap.
    NoOffer,
    /// The shop's side: money, the market's own bots, anything unexplained.
    ShopSide(ShopRefusal),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShopRefusal {
    /// The market account's balance is below the price.
    NotEnoughMoney,
    /// The market's checking bot is banned in Steam.
    MarketBotBanned,
    /// Anything else (the market's code if it gave one, and its text for the logs). Such a
    /// refusal may have bought after all: look the `custom_id` up before another attempt.
    Unknown { code: Option<i64>, text: String },
}

impl Refusal {
    /// The stable reason code the mini app translates and the admins see.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::TradeUrlInvalid => "trade_url_invalid",
            Refusal::InventoryPrivate => "inventory_private",
            Refusal::TradeRestricted => "trade_restricted",
            Refusal::InventoryFull => "inventory_full",
            Refusal::NoOffer => "no_offer",
            Refusal::ShopSide(ShopRefusal::NotEnoughMoney) => "market_balance_low",
            Refusal::ShopSide(ShopRefusal::MarketBotBanned) => "market_bot_banned",
            Refusal::ShopSide(ShopRefusal::Unknown { .. }) => "market_error",
        }
    }

    /// True when the player can fix it (or try again later): the item goes back to them.
    pub fn is_players(&self) -> bool {
        !matches!(self, Refusal::ShopSide(_))
    }

    /// True when the refusal does not prove that nothing was bought.
    pub fn needs_look_up(&self) -> bool {
        matches!(self, Refusal::ShopSide(ShopRefusal::Unknown { .. }))
    }
}

/// Who ended a trade that did not complete (or reversed one that had).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Causer {
    /// We (the buyer side: the player did not accept, or reversed).
    Buyer,
    Seller,
    Unknown,
}

/// Where a purchase stands on the market.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Bought; the seller has to send the trade (an offer is out once `trade_id` is set).
    New,
    /// The trade was accepted in Steam. Still reversible until the protection window closes.
    Delivered,
    /// Timed out or cancelled: the market refunds us. After `Delivered` with `Causer::Seller`
    /// it is a seller's reversal (the domain knows what came before; the market does not say).
    TimedOut { causer: Causer },
    /// A stage this adapter does not know (kept for the logs; treat as still in progress).
    Other(String),
}

/// One purchase as the market reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PurchaseStatus {
    pub stage: Stage,
    /// The Steam trade offer, once sent.
    pub trade_id: Option<String>,
    /// What the market charged (rounded up to a cent if the market counts finer).
    pub paid: Option<Usd>,
    /// Unix time at which the market made the purchase final; `None` until then.
    pub settled_at: Option<i64>,
}

/// The market account's balance, in hundredths of its currency.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Balance {
    /// The currency code as the market names it (`USD`, `RUB`, `EUR`).
    pub currency: String,
    pub hundredths: i64,
}

impl Balance {
    /// The balance in dollars, if the account counts in dollars.
    pub fn usd(&self) -> Option<Usd> {
        (self.currency == "USD").then_some(Usd::from_cents(self.hundredths))
    }
}

/// A failure of a call that spends nothing (status, balance).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MarketError {
    /// Timeout, transport error, 5xx, 429, a page that is not the market's JSON: retry later.
    #[error("market unavailable: {0}")]
    Unavailable(String),
    /// The key is wrong or the market refuses us (401, "bad key"): an operator must act.
    #[error("market refused the key: {0}")]
    Unauthorized(String),
    /// The market answered with an error of its own.
    #[error("market error: {0}")]
    Refused(String),
    /// The account does not count in US dollars; the shop cannot price caps for it.
    #[error("the market account counts in {0}, not USD")]
    WrongCurrency(String),
}

pub type MarketResult<T> = Result<T, MarketError>;

/// The pace of the market's API key. The market counts requests per key, across every process
/// that uses it, and may delete a key that goes over (and a deleted key loses the look-ups of
/// its purchases), so an adapter waits for its turn before every request. The shop's pace is
/// shared through the database (`delivery::SharedPace`); `LocalPace` paces one process alone.
pub trait Pace: Send + Sync {
    /// Resolves when the caller may send one request.
    fn wait_turn(&self) -> BoxFuture<'_, ()>;
}

/// Spaces requests evenly at a rate across every task of one process. No burst: being early is
/// never worth a deleted key. For a single process (unit tests, a market without a database).
pub struct LocalPace {
    interval: Duration,
    next: tokio::sync::Mutex<Option<tokio::time::Instant>>,
}

impl LocalPace {
    pub fn new(per_sec: u32) -> LocalPace {
        LocalPace { interval: Duration::from_secs(1) / per_sec.max(1), next: tokio::sync::Mutex::new(None) }
    }
}

impl Pace for LocalPace {
    fn wait_turn(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let slot = {
                let mut next = self.next.lock().await;
                let now = tokio::time::Instant::now();
                let slot = next.map_or(now, |n| n.max(now));
                *next = Some(slot + self.interval);
                slot
            };
            tokio::time::sleep_until(slot).await;
        })
    }
}

/// A P2P market that buys a skin for someone else's Steam account.
pub trait Market: Send + Sync {
    /// The provider's name (`marketcsgo`), for logs, metrics and operators' screens.
    fn provider(&self) -> &'static str;

    /// Most ids one `statuses` call takes; callers split longer lists.
    fn max_batch(&self) -> usize;

    /// Buys once. Never retried inside: a lost answer comes back as `Lost`.
    fn buy<'a>(&'a self, purchase: &'a Purchase) -> BoxFuture<'a, BuyOutcome>;

    /// The status of each id the market knows; an id missing from the answer is unknown to the
    /// market, which means nothing was bought (or charged) under it. At most `max_batch` ids.
    fn statuses<'a>(&'a self, ids: &'a [CustomId]) -> BoxFuture<'a, MarketResult<HashMap<CustomId, PurchaseStatus>>>;

    fn balance(&self) -> BoxFuture<'_, MarketResult<Balance>>;

    /// The market's own price of every Steam name it lists, in US dollars: the cheapest current
    /// offer, which is what `buy` pays at best. One request for the whole list. A name listed
    /// without a usable price is absent; an absurd price stays absurd (saturated, never wrapped),
    /// so the price rules can refuse it.
    fn prices(&self) -> BoxFuture<'_, MarketResult<HashMap<String, Usd>>>;

    /// Asks the market to look again whether a delivered trade was reversed in Steam; the answer
    /// shows later in `statuses`. Scarce (market.csgo.com allows about 100 a day): for a purchase
    /// that looks stuck while it settles, never the only signal. A market without such a call
    /// does nothing.
    fn ask_reversal_check<'a>(&'a self, id: &'a CustomId) -> BoxFuture<'a, MarketResult<()>> {
        let _ = id;
        Box::pin(async { Ok(()) })
    }
}

/// The look-up before a retry: `Some` if the market made the purchase under `id` (so it must not
/// be bought again), `None` if it never did (a new attempt is safe).
pub async fn look_up(market: &dyn Market, id: &CustomId) -> MarketResult<Option<PurchaseStatus>> {
    let mut found = market.statuses(std::slice::from_ref(id)).await?;
    Ok(found.remove(id))
}

/// Statuses of any number of ids, in batches of the market's size (one request per batch).
pub async fn statuses_batched(market: &dyn Market, ids: &[CustomId]) -> MarketResult<HashMap<CustomId, PurchaseStatus>> {
    let mut all = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(market.max_batch().max(1)) {
        all.extend(market.statuses(chunk).await?);
    }
    Ok(all)
}

/// The start-up check: the account must count in US dollars. Answers its balance.
pub async fn check_account(market: &dyn Market) -> MarketResult<Usd> {
    let balance = market.balance().await?;
    balance.usd().ok_or(MarketError::WrongCurrency(balance.currency))
}

/// Which market adapter to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    /// market.csgo.com (`buy-for`).
    MarketCsgo,
}

impl Provider {
    pub fn parse(raw: &str) -> Option<Provider> {
        match raw.trim() {
            "marketcsgo" => Some(Provider::MarketCsgo),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Provider::MarketCsgo => "marketcsgo",
        }
    }

    pub fn default_url(self) -> &'static str {
        match self {
            Provider::MarketCsgo => "https://market.csgo.com",
        }
    }
}

/// Settings of automatic delivery, parsed once by the binary (`MARKET_*`).
#[derive(Clone)]
pub struct MarketConfig {
    pub provider: Provider,
    /// Secret: kept out of `Debug`.
    pub api_key: String,
    /// The market's base URL (tests point it at a fake).
    pub api_url: String,
    /// The most we pay over the variant's USD market price, in basis points (`0.10` = 1000).
    pub max_overpay_bp: u32,
    /// What the shop may spend on the market per UTC day; `None` = no limit.
    pub daily_budget: Option<Usd>,
    /// How often the worker polls purchases in flight.
    pub poll: Duration,
    /// How long a delivered purchase stays settling (Steam's trade protection), default 192 h.
    pub settle: Duration,
    /// The longest one call may take before its answer counts as lost.
    pub request_timeout: Duration,
    /// Requests per second the API key sends, all replicas together (the market allows about 5
    /// per key); shared through the database.
    pub requests_per_sec: u32,
}

impl MarketConfig {
    pub const DEFAULT_MAX_OVERPAY_BP: u32 = 1_000;
    pub const DEFAULT_POLL_SECS: u64 = 30;
    pub const DEFAULT_SETTLE_HOURS: u64 = 192;
    pub const DEFAULT_TIMEOUT_SECS: u64 = 20;
    pub const DEFAULT_REQUESTS_PER_SEC: u32 = 5;

    /// The defaults for `provider` with `api_key`; the binary overrides what is set.
    pub fn new(provider: Provider, api_key: String) -> MarketConfig {
        MarketConfig {
            provider,
            api_key,
            api_url: provider.default_url().to_owned(),
            max_overpay_bp: Self::DEFAULT_MAX_OVERPAY_BP,
            daily_budget: None,
            poll: Duration::from_secs(Self::DEFAULT_POLL_SECS),
            settle: Duration::from_secs(Self::DEFAULT_SETTLE_HOURS * 3600),
            request_timeout: Duration::from_secs(Self::DEFAULT_TIMEOUT_SECS),
            requests_per_sec: Self::DEFAULT_REQUESTS_PER_SEC,
        }
    }

    /// The cap for a variant whose market price is `price`.
    pub fn cap(&self, price: Usd) -> Usd {
        price.cap(self.max_overpay_bp)
    }
}

impl fmt::Debug for MarketConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MarketConfig")
            .field("provider", &self.provider)
            .field("api_key", &"<hidden>")
            .field("api_url", &self.api_url)
            .field("max_overpay_bp", &self.max_overpay_bp)
            .field("daily_budget", &self.daily_budget)
            .field("poll", &self.poll)
            .field("settle", &self.settle)
            .field("request_timeout", &self.request_timeout)
            .field("requests_per_sec", &self.requests_per_sec)
            .finish()
    }
}

/// Parses a fraction such as `0.10` or `0.075` into basis points (at most 4 decimals, 0..=10),
/// without floats.
pub fn parse_fraction_bp(raw: &str) -> Option<u32> {
    let raw = raw.trim();
    let (int, frac) = raw.split_once('.').unwrap_or((raw, ""));
    if int.is_empty() || int.len() > 2 || frac.len() > 4 || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    if raw.ends_with('.') {
        return None;
    }
    let whole: u32 = int.parse().ok()?;
    let mut bp = whole.checked_mul(10_000)?;
    for (i, b) in frac.bytes().enumerate() {
        bp += u32::from(b - b'0') * 10u32.pow(3 - i as u32);
    }
    (bp <= 100_000).then_some(bp)
}

/// Parses a dollar amount such as `250` or `12.50` (at most 2 decimals) into `Usd`.
pub fn parse_usd(raw: &str) -> Option<Usd> {
    let raw = raw.trim();
    let (int, frac) = raw.split_once('.').unwrap_or((raw, ""));
    if int.is_empty() || int.len() > 12 || frac.len() > 2 || raw.ends_with('.') {
        return None;
    }
    if !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole: i64 = int.parse().ok()?;
    let mut cents = whole * 100;
    for (i, b) in frac.bytes().enumerate() {
        cents += i64::from(b - b'0') * if i == 0 { 10 } else { 1 };
    }
    Some(Usd::from_cents(cents))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_adds_the_overpay_and_rounds_down() {
        assert_eq!(Usd::from_cents(550).cap(1_000), Usd::from_cents(605));
        assert_eq!(Usd::from_cents(999).cap(1_000), Usd::from_cents(1098));
        assert_eq!(Usd::from_cents(100).cap(0), Usd::from_cents(100));
    }

    #[test]
    fn fractions_parse_to_basis_points_without_floats() {
        assert_eq!(parse_fraction_bp("0.10"), Some(1_000));
        assert_eq!(parse_fraction_bp("0.075"), Some(750));
        assert_eq!(parse_fraction_bp("1"), Some(10_000));
        assert_eq!(parse_fraction_bp("0"), Some(0));
        for bad in ["", ".1", "0.", "-0.1", "0.00001", "abc", "11"] {
            assert_eq!(parse_fraction_bp(bad), None, "{bad}");
        }
    }

    #[test]
    fn dollar_amounts_parse_to_cents() {
        assert_eq!(parse_usd("250"), Some(Usd::from_cents(25_000)));
        assert_eq!(parse_usd("12.5"), Some(Usd::from_cents(1_250)));
        assert_eq!(parse_usd("0.05"), Some(Usd::from_cents(5)));
        for bad in ["", "1.234", "-1", "1.", "x"] {
            assert_eq!(parse_usd(bad), None, "{bad}");
        }
        assert_eq!(Usd::from_cents(1_205).to_string(), "$12.05");
    }

    #[test]
    fn a_custom_id_is_short_and_plain() {
        assert!(CustomId::parse("wd-12-a1").is_some());
        assert!(CustomId::parse(&"a".repeat(50)).is_some());
        assert!(CustomId::parse(&"a".repeat(51)).is_none());
        assert!(CustomId::parse("").is_none());
        assert!(CustomId::parse("a&b").is_none());
    }

    #[test]
    fn only_the_players_refusals_go_back_to_the_player() {
        assert!(Refusal::InventoryFull.is_players());
        assert!(Refusal::NoOffer.is_players());
        assert!(!Refusal::ShopSide(ShopRefusal::NotEnoughMoney).is_players());
        assert!(Refusal::ShopSide(ShopRefusal::Unknown { code: Some(2), text: String::new() }).needs_look_up());
        assert!(!Refusal::TradeUrlInvalid.needs_look_up());
    }
}
