//! The axum side: routes, middleware, static files. Translation only: each handler makes one
//! domain call and maps its result.
//!
//! The modules form layers; each uses only modules of the layers before it, and none uses this
//! file (`bot/tests/it/hardening.rs` checks there is no circle):
//! - `error`, `health`, `ratelimit` (no other `http` module), `dto` (error), `openapi` (dto),
//!   `catalog` (dto: the store's answers);
//! - `metrics` (error, health), `config` (metrics, ratelimit), `state` (catalog, config, metrics,
//!   ratelimit), `extract` (error, state);
//! - what serves requests: `gate`, `ops`, `pictures` (state), `routes` (each area: dto, error,
//!   extract, state; `routes::api` also the document: openapi, and the common refusals the gate
//!   declares, `gate::CommonErrors`);
//! - this file: the router and its outermost layer.
pub mod catalog;
pub mod config;
pub mod dto;
pub mod encoded;
pub mod error;
pub mod extract;
pub mod gate;
pub mod health;
pub mod metrics;
pub mod openapi;
pub mod ops;
pub mod pictures;
pub mod ratelimit;
pub mod routes;
pub mod state;

pub use config::HttpConfig;
use state::AppState;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::cors::CorsLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

use crate::domain::lang::Lang;
use crate::domain::{Domain, DomainError};
use error::{ApiError, REQUEST_LANG};

/// Bodies over this are refused with 413 in our error shape.
pub const BODY_LIMIT_BYTES: usize = 64 * 1024;
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

/// The mini app is a same-origin SPA: scripts and API calls stay on our origin; pictures come
/// from our origin (the catalog's are served at `/img/`, `http::pictures`) and Telegram's avatar
/// host (`https://t.me/i/userpic/...`) only; Telegram's web clients may frame it.
pub fn content_security_policy() -> String {
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: blob: https://t.me; font-src 'self' data:; connect-src 'self'; media-src 'self' data: blob:; \
object-src 'none'; base-uri 'self'; form-action 'self'; \
frame-ancestors 'self' https://web.telegram.org https://webk.telegram.org https://webz.telegram.org"
        .to_owned()
}

pub fn router(domain: Domain, config: HttpConfig) -> Router {
    router_with_metrics(domain, config, Arc::default())
}

/// The router, counting into `metrics` (shared with the bot, which counts its updates there).
pub fn router_with_metrics(domain: Domain, config: HttpConfig, metrics: Arc<metrics::Metrics>) -> Router {
    let state = AppState::new(domain, config, metrics);
    let api = routes::api()
        .fallback(|| async { ApiError::Domain(DomainError::NotFound) })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(middleware::from_fn_with_state(state.clone(), gate::api_gate))
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT_BYTES));

    let csp = HeaderValue::from_str(&content_security_policy())
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'; img-src 'self' data: blob:; frame-ancestors 'self'"));
    let dist = &state.config.webapp_dist;
    // The build writes `.br` and `.gz` beside every script, style, SVG and JSON file (best
    // compression, done once); the compression layer below covers everything else.
    let index = ServeFile::new(dist.join("index.html")).precompressed_br().precompressed_gzip();
    let spa = ServeDir::new(dist).precompressed_br().precompressed_gzip().fallback(index);
    let mut app = Router::new()
        .route("/healthz", get(ops::healthz))
        .route("/readyz", get(ops::readyz))
        .route("/robots.txt", get(ops::robots))
        .route("/metrics", get(ops::metrics));
    if let Some((path, hook)) = state.config.webhook.clone() {
        app = app.route_service(&path, hook);
    }
    app = app
        .nest("/api/v1", api)
        // Any other `/api` path is an API 404, never the mini app's page.
        .route("/api", axum::routing::any(api_not_found))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .nest_service("/catalog/images", ServeDir::new(state.config.catalog_dir.join("images")))
        .route("/img/{file}", get(pictures::picture))
        .nest_service("/legal", ServeDir::new(&state.config.legal_dir))
        .fallback_service(spa)
        // Fast levels for answers compressed on the fly (API JSON, catalog SVGs); files with a
        // precompressed twin already carry their `Content-Encoding` and pass untouched.
        .layer(CompressionLayer::new().br(true).gzip(true).quality(CompressionLevel::Precise(4)))
        .layer(TimeoutLayer::with_status_code(StatusCode::GATEWAY_TIMEOUT, REQUEST_TIMEOUT))
        // Added after the timeout and compression layers, so neither wraps the endless stream.
        .merge(routes::feed::stream_routes())
        .layer(SetResponseHeaderLayer::if_not_present(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .layer(SetResponseHeaderLayer::if_not_present(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin")))
        .layer(SetResponseHeaderLayer::if_not_present(header::CONTENT_SECURITY_POLICY, csp))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::HeaderName::from_static("permissions-policy"),
            HeaderValue::from_static("camera=(), microphone=(), geolocation=(), payment=()"),
        ));
    if state.config.hsts {
        app = app.layer(SetResponseHeaderLayer::if_not_present(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000; includeSubDomains"),
        ));
    }
    if let Some(origin) = state.config.cors_origin.as_deref().and_then(|o| HeaderValue::from_str(o).ok()) {
        app = app.layer(CorsLayer::new().allow_origin(origin).allow_methods([Method::GET, Method::POST, Method::PUT]).allow_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::ACCEPT_LANGUAGE,
            header::HeaderName::from_static("x-dev-gate"),
            header::HeaderName::from_static("x-request-id"),
        ]));
    }
    // Outermost: every response (CORS preflights and timeouts included) gets its request id
    // and is counted.
    app.layer(middleware::from_fn_with_state(state.clone(), edge)).with_state(state)
}

async fn api_not_found() -> ApiError {
    ApiError::Domain(DomainError::NotFound)
}

/// Outermost, one layer for what every response gets: a request id and its count
/// (`metrics::observe`), error texts in the client's language, and the cache policy of the
/// mini app's files.
async fn edge(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let lang = request_language(&req);
    let file_path = (!req.uri().path().starts_with("/api/")).then(|| req.uri().path().to_owned());
    let res = metrics::observe(&state.metrics, req, |req| REQUEST_LANG.scope(lang, next.run(req))).await;
    match file_path {
        Some(path) => static_cache_control(&path, res),
        None => res,
    }
}

/// Vite names everything under `/assets/` by its content hash, so those files never change
/// under their name: cache them for a year. `index.html` (and the SPA fallback) must be
/// revalidated so a deploy is seen at once; catalog pictures are edited in place by operators.
/// The cache policy of a file of the mini app (not the API, which sets its own).
fn static_cache_control(path: &str, mut res: Response) -> Response {
    if path == "/robots.txt" || res.headers().contains_key(header::CACHE_CONTROL) {
        return res;
    }
    let value = if !res.status().is_success() && res.status() != StatusCode::NOT_MODIFIED {
        return res;
    } else if path.starts_with("/assets/") && !is_html(&res) {
        "public, max-age=31536000, immutable"
    } else if path.starts_with("/catalog/images/") {
        "public, max-age=86400, stale-while-revalidate=604800"
    } else if path.starts_with("/legal/") || path == "/healthz" || path == "/readyz" || path == "/metrics" {
        return res;
    } else {
        // index.html, the SPA fallback, and the few unhashed files of `public/`.
        "no-cache"
    };
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    res
}

fn is_html(res: &Response) -> bool {
    res.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("text/html"))
}

/// Error texts follow the client's `Accept-Language` (the mini app sends its chosen language).
fn request_language(req: &Request) -> Lang {
    req.headers()
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map(|v| Lang::from_telegram_code(v.split([',', ';']).next()))
        .unwrap_or(Lang::Ru)
}

#[cfg(test)]
mod tests {
    use super::content_security_policy;

    #[test]
    fn pictures_come_from_the_shop_and_telegrams_avatars_only() {
        let csp = content_security_policy();
        let img = csp.split(';').find(|d| d.trim_start().starts_with("img-src")).unwrap();
        assert_eq!(img.trim(), "img-src 'self' data: blob: https://t.me");
    }
}
