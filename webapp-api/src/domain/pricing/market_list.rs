//! The delivery market's own price list as a `PriceFeed`: with a market configured, a variant is
//! priced at what that market's cheapest offer costs, so the price a player sees is what a
//! withdrawal pays. The request goes through the `Market` port (`Market::prices`), so it keeps
//! the API key's pace like every other call to that market.
use std::sync::Arc;

use crate::domain::market::{Market, MarketError};
use crate::domain::pricing::{FeedError, FeedFuture, PriceFeed, Quotes};

/// The market's price list, read through its port.
pub struct MarketList {
    market: Arc<dyn Market>,
}

impl MarketList {
    pub fn new(market: Arc<dyn Market>) -> MarketList {
        MarketList { market }
    }
}

impl PriceFeed for MarketList {
    fn source(&self) -> &'static str {
        self.market.provider()
    }

    fn fetch(&self) -> FeedFuture<'_> {
        Box::pin(async move {
            let prices = self.market.prices().await.map_err(|e| match e {
                MarketError::Unavailable(why) => FeedError::Unreachable(why),
                other => FeedError::Unreadable(other.to_string()),
            })?;
            Ok(Quotes { prices })
        })
    }
}
