//! The Skinport connector: `GET /v1/items?app_id=730&currency=USD&tradable=1`, one request for
//! every CS2 item (Skinport allows 8 per 5 minutes). Skinport answers only with Brotli (reqwest's
//! `brotli` feature decodes it) and wants a `User-Agent`. Its JSON, its dollars-as-floats and its
//! error texts stay here: `transformers` turns them into `Quotes` in US cents.
use std::time::Duration;

use crate::domain::money::Usd;
use crate::domain::pricing::{FeedError, FeedFuture, PriceFeed, Quotes};

/// Skinport's public items endpoint (the default of `PRICE_FEED_URL`).
pub const DEFAULT_URL: &str = "https://api.skinport.com/v1/items";

/// The one real `PriceFeed`.
pub struct Skinport {
    url: url::Url,
    timeout: Duration,
    http: reqwest::Client,
}

impl Skinport {
    /// A connector to `base` (Skinport's `/v1/items`, or a test's fake) giving up after `timeout`.
    pub fn new(base: &str, timeout: Duration) -> Result<Skinport, String> {
        let mut url = url::Url::parse(base).map_err(|e| format!("PRICE_FEED_URL: {e}"))?;
        url.query_pairs_mut().append_pair("app_id", "730").append_pair("currency", "USD").append_pair("tradable", "1");
        let http = reqwest::Client::builder()
            .user_agent(concat!("fragbox/", env!("CARGO_PKG_VERSION")))
            .timeout(timeout)
            .build()
            .map_err(|e| format!("price feed client: {e}"))?;
        Ok(Skinport { url, timeout, http })
    }

    async fn items(&self) -> Result<Quotes, FeedError> {
        let res = self.http.get(self.url.clone()).send().await.map_err(|e| self.failure(&e))?;
        let status = res.status();
        if !status.is_success() {
            return Err(FeedError::Status(status.as_u16()));
        }
        let body = res.bytes().await.map_err(|e| self.failure(&e))?;
        let items: Vec<wire::Item> = serde_json::from_slice(&body).map_err(|e| FeedError::Unreadable(e.to_string()))?;
        Ok(transformers::quotes(items))
    }

    fn failure(&self, e: &reqwest::Error) -> FeedError {
        if e.is_timeout() {
            FeedError::Timeout(self.timeout.as_millis() as u64)
        } else if e.is_decode() || e.is_body() {
            FeedError::Unreadable(e.to_string())
        } else {
            FeedError::Unreachable(e.to_string())
        }
    }
}

impl PriceFeed for Skinport {
    fn source(&self) -> &'static str {
        "skinport"
    }

    fn fetch(&self) -> FeedFuture<'_> {
        Box::pin(self.items())
    }
}

/// Skinport's answer as it is on the wire (fields we do not use are ignored).
mod wire {
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub struct Item {
        pub market_hash_name: String,
        /// The cheapest tradable listing now, in dollars; null without listings.
        pub min_price: Option<f64>,
        /// Skinport's own reference price, in dollars.
        pub suggested_price: Option<f64>,
    }
}

mod transformers {
    use super::*;

    /// Each name's price in cents: the cheapest listing (`min_price`), or Skinport's suggested
    /// price when nothing is listed. A name listed twice keeps its lower price. A price that is
    /// missing, not finite or not positive becomes 0, which the reprice refuses to write.
    pub fn quotes(items: Vec<wire::Item>) -> Quotes {
        let mut out = Quotes::default();
        for item in items {
            let dollars = item.min_price.filter(|p| *p > 0.0).or(item.suggested_price).unwrap_or(0.0);
            let cents = if dollars.is_finite() && dollars > 0.0 { (dollars * 100.0).round().min(i64::MAX as f64) as i64 } else { 0 };
            out.prices
                .entry(item.market_hash_name)
                .and_modify(|c: &mut Usd| {
                    if cents > 0 && (c.cents() == 0 || cents < c.cents()) {
                        *c = Usd::from_cents(cents);
                    }
                })
                .or_insert(Usd::from_cents(cents));
        }
        out
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        fn item(name: &str, min: Option<f64>, suggested: Option<f64>) -> wire::Item {
            wire::Item { market_hash_name: name.into(), min_price: min, suggested_price: suggested }
        }

        #[test]
        fn the_cheapest_listing_wins_and_suggested_fills_in_for_no_listing() {
            let q = quotes(vec![item("A", Some(12.34), Some(15.0)), item("B", None, Some(3.5)), item("C", None, None)]);
            assert_eq!(q.prices["A"], Usd::from_cents(1234));
            assert_eq!(q.prices["B"], Usd::from_cents(350));
            assert_eq!(q.prices["C"], Usd::from_cents(0));
        }

        #[test]
        fn a_name_listed_twice_keeps_its_lower_positive_price() {
            let q = quotes(vec![item("A", Some(5.0), None), item("A", Some(4.0), None), item("A", Some(0.0), None)]);
            assert_eq!(q.prices["A"], Usd::from_cents(400));
        }
    }
}
