//! Picks the adapter for the configured provider (apart from the port, so the port's module
//! does not depend on its adapters).
use std::sync::Arc;

use crate::domain::market::marketcsgo::MarketCsgo;
use crate::domain::market::{Market, MarketConfig, MarketResult, Pace, Provider};

/// The market of `config`, ready to call, sending every request at `pace` (the API key's pace
/// across replicas: `delivery::SharedPace`). Builds the HTTP client; calls nothing yet
/// (`check_account` is the start-up call).
pub fn connect(config: &MarketConfig, pace: Arc<dyn Pace>) -> MarketResult<Arc<dyn Market>> {
    match config.provider {
        Provider::MarketCsgo => Ok(Arc::new(MarketCsgo::new(config, pace)?)),
    }
}
