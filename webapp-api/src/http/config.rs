//! What the HTTP layer is told at start, beyond the domain.
use std::path::PathBuf;

use axum::Router;

use crate::http::metrics::MetricsAccess;
use crate::http::ratelimit::{IpNet, RateLimits};

/// What the HTTP layer needs beyond the domain.
#[derive(Clone, Default)]
pub struct HttpConfig {
    pub channel_url: String,
    pub community_url: String,
    pub terms_url: String,
    pub privacy_url: String,
    pub dev_gate_password: Option<String>,
    pub webapp_dist: PathBuf,
    pub catalog_dir: PathBuf,
    /// Origin the shop fetches the library's pictures from (`CATALOG_ASSETS_URL`); players never
    /// reach it. Empty: only pictures already in the cache are served.
    pub catalog_assets_url: String,
    /// The pictures' cache (`CATALOG_IMAGES_DIR`), served at `/img/<hash>.webp`.
    pub catalog_images_dir: PathBuf,
    pub legal_dir: PathBuf,
    /// Origin allowed by CORS (the mini app's), if it is served from elsewhere.
    pub cors_origin: Option<String>,
    /// Send `Strict-Transport-Security` (only when the app is served over https).
    pub hsts: bool,
    pub rate_limits: RateLimits,
    /// Peers whose `X-Forwarded-For` is believed (the HTTPS proxy).
    pub trusted_proxies: Vec<IpNet>,
    pub metrics: MetricsAccess,
    /// The bot's webhook route (its path and a router serving it), when the bot takes webhooks:
    /// served outside `/api/v1` with the same request ids, metrics and headers as the rest.
    pub webhook: Option<(String, Router)>,
}

impl std::fmt::Debug for HttpConfig {
    /// Secrets (the dev-gate password, the metrics token) never reach a log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpConfig")
            .field("webapp_dist", &self.webapp_dist)
            .field("cors_origin", &self.cors_origin)
            .field("dev_gate", &self.dev_gate_password.is_some())
            .field("hsts", &self.hsts)
            .field("rate_limits", &self.rate_limits)
            .field("trusted_proxies", &self.trusted_proxies)
            .field("metrics", &self.metrics)
            .field("webhook", &self.webhook.as_ref().map(|(path, _)| path))
            .finish_non_exhaustive()
    }
}
