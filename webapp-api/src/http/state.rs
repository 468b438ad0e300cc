//! The router's state. Below every handler and middleware, above the parts it holds (config,
//! metrics, limiter, the store's rendered answers), so that none of those needs the router to
//! name it.
use std::sync::Arc;

use crate::domain::pictures::Pictures;
use crate::domain::Domain;
use crate::http::catalog::Rendered;
use crate::http::config::HttpConfig;
use crate::http::encoded::Precompressed;
use crate::http::metrics::Metrics;
use crate::http::ratelimit::Limiter;

/// The router's state: one `Arc`, so the per-request clones (one per middleware and handler)
/// cost one reference count, not one per field.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

pub struct Shared {
    pub domain: Domain,
    pub config: Arc<HttpConfig>,
    pub metrics: Arc<Metrics>,
    pub limiter: Arc<Limiter>,
    /// The store's answers (`GET /cases`, `GET /cases/{id}`), written once (`catalog`).
    pub store: Rendered,
    /// The case list, compressed once (`encoded`).
    pub cases_encoded: Precompressed,
    /// The catalog's pictures, served at `/img/<hash>.webp` (`http::pictures`).
    pub pictures: Arc<Pictures>,
}

impl AppState {
    /// The state of one router; the rate limits' buckets start empty.
    pub fn new(domain: Domain, config: HttpConfig, metrics: Arc<Metrics>) -> AppState {
        let limiter = Arc::new(Limiter::new(config.rate_limits));
        let names = domain.catalog.pictures();
        let pictures = Arc::new(Pictures::new(&config.catalog_images_dir, &config.catalog_assets_url, names));
        let store = Rendered::of(&domain.catalog);
        AppState(Arc::new(Shared {
            domain,
            config: Arc::new(config),
            metrics,
            limiter,
            store,
            cases_encoded: Precompressed::default(),
            pictures,
        }))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}
