//! market.csgo.com: the `Market` adapter (`buy-for`, `get-list-buy-info-by-custom-id`,
//! `get-money`, `check-if-reversed-by-custom-id`, and the public price list `prices/USD.json`).
//! Every call is a GET with a `User-Agent` header (the proxy in front refuses write calls without
//! one) and, but for the price list, `key` in the query. Normal errors come as HTTP 200 with
//! `success: false`; any other status or a body that is not the market's JSON is a transport
//! failure. Prices on the wire are thousandths of the account currency (or decimal strings of
//! dollars in the price list); they never leave here.
use std::collections::HashMap;
use std::time::Duration;

use std::sync::Arc;

use crate::domain::market::{
    Balance, BoxFuture, BuyOutcome, CustomId, Market, MarketConfig, MarketError, MarketResult, Pace, Purchase, PurchaseStatus, Usd,
};

/// Ids per `get-list-buy-info-by-custom-id` call: keeps the URL well under common 8 KB limits
/// (50-character ids, `custom_id[]=` each).
const MAX_BATCH: usize = 100;
const USER_AGENT: &str = concat!("fragbox/", env!("CARGO_PKG_VERSION"));
/// The price list is the whole catalogue (tens of thousands of names, megabytes): it may take
/// longer than a status call.
const PRICE_LIST_TIMEOUT: Duration = Duration::from_secs(90);

pub struct MarketCsgo {
    http: reqwest::Client,
    base: url::Url,
    key: String,
    pace: Arc<dyn Pace>,
}

impl MarketCsgo {
    pub fn new(config: &MarketConfig, pace: Arc<dyn Pace>) -> MarketResult<MarketCsgo> {
        let base =
            url::Url::parse(config.api_url.trim_end_matches('/')).map_err(|e| MarketError::Unavailable(format!("MARKET_API_URL: {e}")))?;
        let http = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .connect_timeout(config.request_timeout.min(Duration::from_secs(5)))
            .timeout(config.request_timeout)
            .build()
            .map_err(|e| MarketError::Unavailable(format!("http client: {e}")))?;
        Ok(MarketCsgo { http, base, key: config.api_key.clone(), pace })
    }

    fn url(&self, method: &str, params: &[(&str, &str)]) -> url::Url {
        let mut url = self.base.clone();
        url.set_path(&format!("/api/v2/{method}"));
        {
            let mut query = url.query_pairs_mut();
            query.append_pair("key", &self.key);
            for (name, value) in params {
                query.append_pair(name, value);
            }
        }
        url
    }

    /// A public file of the market (no key): `prices/USD.json`.
    fn public_url(&self, path: &str) -> url::Url {
        let mut url = self.base.clone();
        url.set_path(&format!("/api/v2/{path}"));
        url.set_query(None);
        url
    }

    /// One paced GET; answers the body of an HTTP 200, or why there is none.
    async fn get(&self, url: url::Url) -> Result<Vec<u8>, transformers::Failure> {
        self.get_within(url, None).await
    }

    /// `get`, with a longer timeout than the client's for a large answer.
    async fn get_within(&self, url: url::Url, timeout: Option<Duration>) -> Result<Vec<u8>, transformers::Failure> {
        self.pace.wait_turn().await;
        let mut request = self.http.get(url);
        if let Some(t) = timeout {
            request = request.timeout(t);
        }
        let answer = request.send().await.map_err(|e| transformers::Failure::Transport(without_url(e)))?;
        let status = answer.status().as_u16();
        let body = answer.bytes().await.map_err(|e| transformers::Failure::Transport(without_url(e)))?;
        if status != 200 {
            return Err(transformers::Failure::Status(status));
        }
        Ok(body.to_vec())
    }
}

/// reqwest's errors quote the URL, which carries the key: keep only the kind.
fn without_url(error: reqwest::Error) -> String {
    let kind = if error.is_timeout() {
        "timeout"
    } else if error.is_connect() {
        "connect"
    } else if error.is_body() || error.is_decode() {
        "body"
    } else {
        "request"
    };
    format!("{kind}: {}", error.without_url())
}

impl Market for MarketCsgo {
    fn provider(&self) -> &'static str {
        "marketcsgo"
    }

    fn max_batch(&self) -> usize {
        MAX_BATCH
    }

    fn buy<'a>(&'a self, purchase: &'a Purchase) -> BoxFuture<'a, BuyOutcome> {
        Box::pin(async move {
            let price = transformers::mills_of(purchase.max_price).to_string();
            let partner = purchase.partner.to_string();
            let url = self.url(
                "buy-for",
                &[
                    ("hash_name", purchase.market_hash_name.as_str()),
                    ("price", price.as_str()),
                    ("partner", partner.as_str()),
                    ("token", purchase.token.as_str()),
                    ("custom_id", purchase.custom_id.as_str()),
                ],
            );
            match self.get(url).await {
                Ok(body) => transformers::buy_outcome(&body),
                Err(failure) => BuyOutcome::Lost(failure.to_string()),
            }
        })
    }

    fn statuses<'a>(&'a self, ids: &'a [CustomId]) -> BoxFuture<'a, MarketResult<HashMap<CustomId, PurchaseStatus>>> {
        Box::pin(async move {
            if ids.is_empty() {
                return Ok(HashMap::new());
            }
            let params: Vec<(&str, &str)> = ids.iter().map(|id| ("custom_id[]", id.as_str())).collect();
            let url = self.url("get-list-buy-info-by-custom-id", &params);
            let body = self.get(url).await.map_err(transformers::Failure::into_error)?;
            transformers::statuses(&body, ids)
        })
    }

    fn balance(&self) -> BoxFuture<'_, MarketResult<Balance>> {
        Box::pin(async move {
            let body = self.get(self.url("get-money", &[])).await.map_err(transformers::Failure::into_error)?;
            transformers::balance(&body)
        })
    }

    fn prices(&self) -> BoxFuture<'_, MarketResult<HashMap<String, Usd>>> {
        Box::pin(async move {
            let url = self.public_url("prices/USD.json");
            let body = self.get_within(url, Some(PRICE_LIST_TIMEOUT)).await.map_err(transformers::Failure::into_error)?;
            transformers::price_list(&body)
        })
    }

    fn ask_reversal_check<'a>(&'a self, id: &'a CustomId) -> BoxFuture<'a, MarketResult<()>> {
        Box::pin(async move {
            let url = self.url("check-if-reversed-by-custom-id", &[("custom_id", id.as_str())]);
            let body = self.get(url).await.map_err(transformers::Failure::into_error)?;
            transformers::acknowledged(&body)
        })
    }
}

/// The market's JSON, as it comes.
mod wire {
    use serde::Deserialize;
    use serde_json::value::RawValue;

    #[derive(Deserialize)]
    pub struct Envelope {
        pub success: Option<bool>,
        pub error: Option<String>,
        pub code: Option<Code>,
    }

    /// Codes come as numbers; tolerate strings.
    #[derive(Deserialize)]
    #[serde(untagged)]
    pub enum Code {
        Number(i64),
        Text(String),
    }

    #[derive(Deserialize)]
    pub struct Bought {
        pub id: Option<IdOrNumber>,
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    pub enum IdOrNumber {
        Text(String),
        Number(u64),
    }

    /// One purchase in `get-(list-)buy-info-by-custom-id`. Numbers are kept raw so money is read
    /// from its decimal text, never through a float.
    #[derive(Deserialize)]
    pub struct BuyInfo {
        pub stage: Option<Box<RawValue>>,
        pub settlement: Option<Box<RawValue>>,
        pub paid: Option<Box<RawValue>>,
        pub trade_id: Option<Box<RawValue>>,
        pub causer: Option<String>,
    }

    #[derive(Deserialize)]
    pub struct List {
        pub success: bool,
        pub error: Option<String>,
        /// An object keyed by custom id; an empty answer may come as `[]` (PHP's empty array).
        pub data: Option<Box<RawValue>>,
    }

    /// `prices/USD.json`: `{"success": true, "time": …, "currency": "USD", "items": [{
    /// "market_hash_name": "…", "volume": "…", "price": "32.393"}]}` (prices as decimal strings;
    /// numbers tolerated).
    #[derive(Deserialize)]
    pub struct PriceList {
        pub success: Option<bool>,
        pub error: Option<String>,
        pub currency: Option<String>,
        pub items: Option<Vec<PriceItem>>,
    }

    #[derive(Deserialize)]
    pub struct PriceItem {
        pub market_hash_name: Option<String>,
        pub price: Option<Box<RawValue>>,
    }

    #[derive(Deserialize)]
    pub struct Money {
        pub success: Option<bool>,
        pub error: Option<String>,
        pub money: Option<Box<RawValue>>,
        pub currency: Option<String>,
    }
}

/// Wire → domain, at the edge. Pure functions over the body bytes, so they are tested alone.
mod transformers {
    use std::collections::HashMap;
    use std::fmt;

    use super::wire;
    use crate::domain::market::{
        Balance, BuyOutcome, Causer, CustomId, MarketError, MarketResult, PurchaseStatus, Refusal, ShopRefusal, Stage, Usd,
    };

    /// A price-list price (`"32.393"`, `"7"`, or a JSON number written the same way) in cents,
    /// rounded up: the shop prices a variant at no less than the offer delivery buys. Digits and
    /// one point only (no sign, no exponent): anything else is `None`. Past `i64` cents it
    /// saturates: an absurd quote stays absurd, for the price rules to refuse, and never wraps.
    pub fn cents_from_decimal_up(raw: &str) -> Option<Usd> {
        let text = raw.trim().trim_matches('"');
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        if int.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) || text.ends_with('.') {
            return None;
        }
        let digits = int.trim_start_matches('0');
        if digits.len() > 19 {
            return Some(Usd::from_cents(i64::MAX));
        }
        let whole: u128 = if digits.is_empty() { 0 } else { digits.parse().ok()? };
        let mut cents = whole * 100;
        let f = frac.as_bytes();
        for (i, b) in f.iter().take(2).enumerate() {
            cents += u128::from(b - b'0') * if i == 0 { 10 } else { 1 };
        }
        if f.iter().skip(2).any(|b| *b != b'0') {
            cents += 1;
        }
        Some(Usd::from_cents(i64::try_from(cents).unwrap_or(i64::MAX)))
    }

    /// The price list: each name's price in cents. A name without a usable price (missing, zero,
    /// not a decimal) is left out; a name listed twice keeps its lower price.
    pub fn price_list(body: &[u8]) -> MarketResult<HashMap<String, Usd>> {
        let list: wire::PriceList =
            serde_json::from_slice(body).map_err(|_| MarketError::Unavailable("the price list is not the market's JSON".into()))?;
        if list.success == Some(false) {
            return Err(error_of(list.error.unwrap_or_default()));
        }
        if let Some(currency) = list.currency.filter(|c| c != "USD") {
            return Err(MarketError::WrongCurrency(currency));
        }
        let items = list.items.ok_or_else(|| MarketError::Unavailable("the price list has no items".into()))?;
        let mut out: HashMap<String, Usd> = HashMap::with_capacity(items.len());
        for item in items {
            let Some(name) = item.market_hash_name.filter(|n| !n.is_empty()) else { continue };
            let Some(price) = raw_text(&item.price).and_then(|p| cents_from_decimal_up(&p)).filter(|p| p.cents() > 0) else {
                continue;
            };
            out.entry(name).and_modify(|p| *p = (*p).min(price)).or_insert(price);
        }
        Ok(out)
    }

    /// Why a call has no answer to read.
    pub enum Failure {
        Transport(String),
        Status(u16),
    }

    impl fmt::Display for Failure {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match self {
                Failure::Transport(e) => write!(f, "transport: {e}"),
                Failure::Status(s) => write!(f, "http {s}"),
            }
        }
    }

    impl Failure {
        /// For calls that spend nothing: 401/403 are the key's problem, the rest passes.
        pub fn into_error(self) -> MarketError {
            match self {
                Failure::Status(s @ (401 | 403)) => MarketError::Unauthorized(format!("http {s}")),
                other => MarketError::Unavailable(other.to_string()),
            }
        }
    }

    /// The wire's price: thousandths of a dollar.
    pub fn mills_of(usd: Usd) -> i64 {
        usd.cents().saturating_mul(10)
    }

    /// A JSON number or numeric string of dollars, read as thousandths (at most 3 decimals).
    pub fn mills_from_decimal(raw: &str) -> Option<i64> {
        let text = raw.trim().trim_matches('"');
        let (int, frac) = text.split_once('.').unwrap_or((text, ""));
        if int.is_empty() || int.len() > 12 || frac.len() > 3 || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut mills = int.parse::<i64>().ok()? * 1000;
        for (i, b) in frac.bytes().enumerate() {
            mills += i64::from(b - b'0') * 10i64.pow(2 - i as u32);
        }
        Some(mills)
    }

    /// Thousandths → cents, rounded up: a spend is never recorded below what was charged.
    fn usd_of_mills(mills: i64) -> Usd {
        Usd::from_cents((mills + 9).div_euclid(10))
    }

    /// Lower-cased text matching: the market words its refusals in English or Russian.
    fn says(text: &str, phrases: &[&str]) -> bool {
        let text = text.to_lowercase();
        phrases.iter().any(|p| text.contains(p))
    }

    const NO_OFFER: &[&str] = &["no offer", "not found", "нет предложени", "не найден"];
    const NO_MONEY: &[&str] = &["not enough money", "insufficient", "недостаточно средств"];

    pub fn refusal(code: Option<i64>, text: &str) -> Refusal {
        match code {
            Some(3 | 8 | 12) => Refusal::TradeUrlInvalid,
            Some(5) => Refusal::InventoryPrivate,
            Some(6 | 7) => Refusal::TradeRestricted,
            Some(21) => Refusal::InventoryFull,
            Some(20) => Refusal::ShopSide(ShopRefusal::MarketBotBanned),
            // Texts first only where no code says otherwise (code 2 is "unknown", which the
            // market also uses with such texts).
            _ if says(text, NO_MONEY) => Refusal::ShopSide(ShopRefusal::NotEnoughMoney),
            _ if says(text, NO_OFFER) => Refusal::NoOffer,
            _ => Refusal::ShopSide(ShopRefusal::Unknown { code, text: text.chars().take(200).collect() }),
        }
    }

    fn code_number(code: Option<wire::Code>) -> Option<i64> {
        match code? {
            wire::Code::Number(n) => Some(n),
            wire::Code::Text(t) => t.trim().parse().ok(),
        }
    }

    pub fn buy_outcome(body: &[u8]) -> BuyOutcome {
        let Ok(envelope) = serde_json::from_slice::<wire::Envelope>(body) else {
            return BuyOutcome::Lost("answer is not the market's JSON".into());
        };
        match envelope.success {
            Some(true) => match serde_json::from_slice::<wire::Bought>(body).ok().and_then(|b| b.id) {
                Some(wire::IdOrNumber::Text(id)) if !id.is_empty() => BuyOutcome::Bought { market_id: id },
                Some(wire::IdOrNumber::Number(id)) => BuyOutcome::Bought { market_id: id.to_string() },
                // Bought, but without an id: the status call will tell the rest.
                _ => BuyOutcome::Bought { market_id: String::new() },
            },
            Some(false) => {
                let text = envelope.error.unwrap_or_default();
                BuyOutcome::Refused(refusal(code_number(envelope.code), &text))
            }
            None => BuyOutcome::Lost("answer without success".into()),
        }
    }

    fn raw_text(raw: &Option<Box<serde_json::value::RawValue>>) -> Option<String> {
        let raw = raw.as_ref()?.get().trim();
        if raw == "null" {
            return None;
        }
        Some(raw.trim_matches('"').to_owned())
    }

    pub fn status(info: wire::BuyInfo) -> PurchaseStatus {
        let causer = match info.causer.as_deref() {
            Some("buyer") => Causer::Buyer,
            Some("seller") => Causer::Seller,
            _ => Causer::Unknown,
        };
        let stage = match raw_text(&info.stage).as_deref() {
            Some("1") => Stage::New,
            Some("2") => Stage::Delivered,
            Some("5") => Stage::TimedOut { causer },
            Some(other) => Stage::Other(other.to_owned()),
            None => Stage::Other(String::new()),
        };
        let settled_at = raw_text(&info.settlement).and_then(|s| s.parse::<i64>().ok()).filter(|t| *t > 0);
        let trade_id = raw_text(&info.trade_id).filter(|t| !t.is_empty() && t != "0");
        let paid = raw_text(&info.paid).and_then(|p| mills_from_decimal(&p)).map(usd_of_mills);
        PurchaseStatus { stage, trade_id, paid, settled_at }
    }

    pub fn statuses(body: &[u8], asked: &[CustomId]) -> MarketResult<HashMap<CustomId, PurchaseStatus>> {
        let list: wire::List =
            serde_json::from_slice(body).map_err(|_| MarketError::Unavailable("answer is not the market's JSON".into()))?;
        if !list.success {
            return Err(error_of(list.error.unwrap_or_default()));
        }
        let Some(data) = list.data else { return Ok(HashMap::new()) };
        // `[]` or `{}` when none is known; otherwise an object keyed by our ids.
        let entries: HashMap<String, wire::BuyInfo> = match serde_json::from_str(data.get()) {
            Ok(map) => map,
            Err(_) if data.get().trim_start().starts_with('[') => HashMap::new(),
            Err(e) => return Err(MarketError::Unavailable(format!("unreadable purchase list: {e}"))),
        };
        let mut out = HashMap::with_capacity(entries.len());
        for (key, info) in entries {
            // Only ids we asked for: an answer can never make us believe in a purchase of another.
            if let Some(id) = asked.iter().find(|id| id.as_str() == key) {
                out.insert(id.clone(), status(info));
            }
        }
        Ok(out)
    }

    fn error_of(text: String) -> MarketError {
        if says(&text, &["bad key", "api key", "wrong key"]) {
            MarketError::Unauthorized(text)
        } else {
            MarketError::Refused(text.chars().take(200).collect())
        }
    }

    /// An answer that only says yes or no.
    pub fn acknowledged(body: &[u8]) -> MarketResult<()> {
        let envelope: wire::Envelope =
            serde_json::from_slice(body).map_err(|_| MarketError::Unavailable("answer is not the market's JSON".into()))?;
        match envelope.success {
            Some(true) => Ok(()),
            _ => Err(error_of(envelope.error.unwrap_or_default())),
        }
    }

    pub fn balance(body: &[u8]) -> MarketResult<Balance> {
        let money: wire::Money =
            serde_json::from_slice(body).map_err(|_| MarketError::Unavailable("answer is not the market's JSON".into()))?;
        if money.success == Some(false) {
            return Err(error_of(money.error.unwrap_or_default()));
        }
        let currency = money.currency.unwrap_or_default();
        let raw = raw_text(&money.money).ok_or_else(|| MarketError::Refused("balance without money".into()))?;
        let mills = mills_from_decimal(&raw).ok_or_else(|| MarketError::Refused(format!("unreadable balance {raw}")))?;
        // The balance is shown, not spent from: hundredths rounded down.
        Ok(Balance { currency, hundredths: mills.div_euclid(10) })
    }
}

#[cfg(test)]
mod tests {
    use super::transformers::*;
    use crate::domain::market::{BuyOutcome, Causer, CustomId, MarketError, Refusal, ShopRefusal, Stage, Usd};

    #[test]
    fn dollars_go_out_as_thousandths_and_come_back_as_cents_rounded_up() {
        assert_eq!(mills_of(Usd::from_cents(550)), 5_500);
        assert_eq!(mills_from_decimal("5.21"), Some(5_210));
        assert_eq!(mills_from_decimal("\"5.215\""), Some(5_215));
        assert_eq!(mills_from_decimal("7"), Some(7_000));
        assert_eq!(mills_from_decimal("1e3"), None);
        assert_eq!(mills_from_decimal("-1"), None);
    }

    #[test]
    fn each_buy_for_code_maps_to_its_reason() {
        let cases = [
            (3, Refusal::TradeUrlInvalid),
            (8, Refusal::TradeUrlInvalid),
            (12, Refusal::TradeUrlInvalid),
            (5, Refusal::InventoryPrivate),
            (6, Refusal::TradeRestricted),
            (7, Refusal::TradeRestricted),
            (21, Refusal::InventoryFull),
            (20, Refusal::ShopSide(ShopRefusal::MarketBotBanned)),
        ];
        for (code, want) in cases {
            let body = format!(r#"{{"success":false,"error":"x","code":{code}}}"#);
            assert_eq!(buy_outcome(body.as_bytes()), BuyOutcome::Refused(want), "code {code}");
        }
        let unknown = buy_outcome(br#"{"success":false,"error":"boom","code":2}"#);
        assert_eq!(unknown, BuyOutcome::Refused(Refusal::ShopSide(ShopRefusal::Unknown { code: Some(2), text: "boom".into() })));
    }

    #[test]
    fn refusal_texts_without_a_code_are_read() {
        assert_eq!(refusal(None, "No offers under that price"), Refusal::NoOffer);
        assert_eq!(refusal(None, "Not enough money"), Refusal::ShopSide(ShopRefusal::NotEnoughMoney));
        assert_eq!(refusal(None, "Недостаточно средств на счету"), Refusal::ShopSide(ShopRefusal::NotEnoughMoney));
    }

    #[test]
    fn an_answer_that_is_not_the_markets_json_is_lost() {
        assert!(matches!(buy_outcome(b"<html>502</html>"), BuyOutcome::Lost(_)));
        assert!(matches!(buy_outcome(b"{}"), BuyOutcome::Lost(_)));
        assert_eq!(buy_outcome(br#"{"success":true,"id":"123"}"#), BuyOutcome::Bought { market_id: "123".into() });
        assert_eq!(buy_outcome(br#"{"success":true,"id":123}"#), BuyOutcome::Bought { market_id: "123".into() });
    }

    #[test]
    fn stages_come_as_strings_or_numbers() {
        let a = CustomId::parse("a").unwrap();
        let b = CustomId::parse("b").unwrap();
        let body = br#"{"success":true,"data":{
            "a":{"stage":"1","settlement":0,"paid":5.21,"trade_id":null,"causer":null},
            "b":{"stage":5,"settlement":"1767225600","paid":"5.2","trade_id":"991","causer":"seller"},
            "c":{"stage":2}}}"#;
        let got = statuses(body, &[a.clone(), b.clone()]).unwrap();
        assert_eq!(got.len(), 2, "an id we did not ask for is ignored");
        assert_eq!(got[&a].stage, Stage::New);
        assert_eq!(got[&a].paid, Some(Usd::from_cents(521)));
        assert_eq!(got[&a].trade_id, None);
        assert_eq!(got[&a].settled_at, None);
        assert_eq!(got[&b].stage, Stage::TimedOut { causer: Causer::Seller });
        assert_eq!(got[&b].trade_id.as_deref(), Some("991"));
        assert_eq!(got[&b].settled_at, Some(1_767_225_600));
        assert!(statuses(br#"{"success":true,"data":[]}"#, &[a]).unwrap().is_empty());
    }

    #[test]
    fn the_price_list_reads_decimal_strings_into_cents_rounded_up() {
        let body = br#"{"success":true,"time":1767225600,"currency":"USD","items":[
            {"market_hash_name":"AK-47 | Redline (Field-Tested)","volume":"120","price":"32.393"},
            {"market_hash_name":"P250 | Sand Dune (Field-Tested)","volume":"5","price":"0.03"},
            {"market_hash_name":"Twice","volume":"1","price":"5"},
            {"market_hash_name":"Twice","volume":"1","price":"4.5"},
            {"market_hash_name":"Number","price":7.1},
            {"market_hash_name":"Zero","price":"0"},
            {"market_hash_name":"Negative","price":"-3"},
            {"market_hash_name":"Exponent","price":"1e3"},
            {"market_hash_name":"Absurd","price":"100000000000000000"},
            {"price":"1.00"}]}"#;
        let list = price_list(body).unwrap();
        assert_eq!(list["AK-47 | Redline (Field-Tested)"], Usd::from_cents(3240));
        assert_eq!(list["P250 | Sand Dune (Field-Tested)"], Usd::from_cents(3));
        assert_eq!(list["Twice"], Usd::from_cents(450));
        assert_eq!(list["Number"], Usd::from_cents(710));
        assert_eq!(list["Absurd"], Usd::from_cents(i64::MAX), "saturated, never wrapped");
        for gone in ["Zero", "Negative", "Exponent"] {
            assert!(!list.contains_key(gone), "{gone}");
        }
        assert_eq!(list.len(), 5);
        assert_eq!(cents_from_decimal_up("12.340"), Some(Usd::from_cents(1234)));
        assert_eq!(cents_from_decimal_up("12.3401"), Some(Usd::from_cents(1235)));
        assert_eq!(cents_from_decimal_up("12."), None);
        assert_eq!(cents_from_decimal_up("92233720368547758.07"), Some(Usd::from_cents(i64::MAX)));
        assert!(matches!(price_list(br#"{"success":true,"currency":"RUB","items":[]}"#), Err(MarketError::WrongCurrency(_))));
        assert!(matches!(price_list(b"<html>"), Err(MarketError::Unavailable(_))));
        assert!(matches!(price_list(br#"{"success":true}"#), Err(MarketError::Unavailable(_))));
    }

    #[test]
    fn a_balance_reads_its_currency() {
        let b = balance(br#"{"money":12.34,"currency":"USD"}"#).unwrap();
        assert_eq!(b.usd(), Some(Usd::from_cents(1234)));
        let r = balance(br#"{"money":1000,"currency":"RUB"}"#).unwrap();
        assert_eq!(r.usd(), None);
        assert!(matches!(balance(br#"{"success":false,"error":"Bad KEY"}"#), Err(crate::domain::market::MarketError::Unauthorized(_))));
    }
}
