//! The axum side: routes, middleware, static files. Translation only: each handler makes one
//! domain call and maps its result.
pub mod error;
pub mod extract;
pub mod health;
pub mod metrics;
pub mod openapi;
pub mod ratelimit;
pub mod routes;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use tower_http::compression::{CompressionLayer, CompressionLevel};
use tower_http::cors::CorsLayer;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

use crate::domain::lang::Lang;
use crate::domain::{auth, settings, Domain, DomainError};
use error::{ApiError, REQUEST_LANG};

/// Bodies over this are refused with 413 in our error shape.
pub const BODY_LIMIT_BYTES: usize = 64 * 1024;
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

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
    pub legal_dir: PathBuf,
    /// Origin allowed by CORS (the mini app's), if it is served from elsewhere.
    pub cors_origin: Option<String>,
    /// Send `Strict-Transport-Security` (only when the app is served over https).
    pub hsts: bool,
    pub rate_limits: ratelimit::RateLimits,
    /// Peers whose `X-Forwarded-For` is believed (the HTTPS proxy).
    pub trusted_proxies: Vec<ratelimit::IpNet>,
    pub metrics: metrics::MetricsAccess,
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

/// The mini app is a same-origin SPA: scripts and API calls stay on our origin; images may come
/// from Steam's CDN and Telegram (avatars); Telegram's web clients may frame it.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self'; media-src 'self' data: blob:; \
object-src 'none'; base-uri 'self'; form-action 'self'; \
frame-ancestors 'self' https://web.telegram.org https://webk.telegram.org https://webz.telegram.org";

/// The router's state: one `Arc`, so the per-request clones (one per middleware and handler)
/// cost one reference count, not one per field.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

pub struct Shared {
    pub domain: Domain,
    pub config: Arc<HttpConfig>,
    pub metrics: Arc<metrics::Metrics>,
    pub limiter: Arc<ratelimit::Limiter>,
}

impl std::ops::Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

pub fn router(domain: Domain, config: HttpConfig) -> Router {
    router_with_metrics(domain, config, Arc::default())
}

/// The router, counting into `metrics` (shared with the bot, which counts its updates there).
pub fn router_with_metrics(domain: Domain, config: HttpConfig, metrics: Arc<metrics::Metrics>) -> Router {
    let limiter = Arc::new(ratelimit::Limiter::new(config.rate_limits));
    let state = AppState(Arc::new(Shared { domain, config: Arc::new(config), metrics, limiter }));
    let api = routes::api()
        .route("/openapi.json", get(openapi::document_endpoint))
        .fallback(|| async { ApiError::Domain(DomainError::NotFound) })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(middleware::from_fn_with_state(state.clone(), api_gate))
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT_BYTES));

    let dist = &state.config.webapp_dist;
    // The build writes `.br` and `.gz` beside every script, style, SVG and JSON file (best
    // compression, done once); the compression layer below covers everything else.
    let index = ServeFile::new(dist.join("index.html")).precompressed_br().precompressed_gzip();
    let spa = ServeDir::new(dist).precompressed_br().precompressed_gzip().fallback(index);
    let mut app = Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(health::readyz))
        .route("/robots.txt", get(robots))
        .route("/metrics", get(metrics::endpoint));
    if let Some((path, hook)) = state.config.webhook.clone() {
        app = app.route_service(&path, hook);
    }
    app = app
        .nest("/api/v1", api)
        // Any other `/api` path is an API 404, never the mini app's page.
        .route("/api", axum::routing::any(api_not_found))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .nest_service("/catalog/images", ServeDir::new(state.config.catalog_dir.join("images")))
        .nest_service("/legal", ServeDir::new(&state.config.legal_dir))
        .fallback_service(spa)
        // Fast levels for answers compressed on the fly (API JSON, catalog SVGs); files with a
        // precompressed twin already carry their `Content-Encoding` and pass untouched.
        .layer(CompressionLayer::new().br(true).gzip(true).quality(CompressionLevel::Precise(4)))
        .layer(TimeoutLayer::with_status_code(StatusCode::GATEWAY_TIMEOUT, REQUEST_TIMEOUT))
        .layer(SetResponseHeaderLayer::if_not_present(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .layer(SetResponseHeaderLayer::if_not_present(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin")))
        .layer(SetResponseHeaderLayer::if_not_present(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY)))
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

/// A request that carries a body must say it is JSON (415 otherwise), whatever the route does
/// with it.
/// A request with a body that is not JSON: `415`.
fn non_json_body(req: &Request) -> Option<Response> {
    let has_body = req.headers().contains_key(header::TRANSFER_ENCODING)
        || req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().parse::<u64>().map_or(true, |n| n > 0));
    (has_body && !extract::is_json(req.headers())).then(|| ApiError::UnsupportedMediaType.into_response())
}

/// Every API request passes here, in order: JSON bodies only, the rate limits, maintenance. One
/// layer rather than three: each `from_fn` layer costs a boxed clone of the inner service and a
/// boxed future per request.
async fn api_gate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if let Some(refused) = non_json_body(&req) {
        return refused;
    }
    let req = match ratelimit::admit(&state, req).await {
        Ok(req) => req,
        Err(refused) => return refused,
    };
    match maintenance_gate(&state, req).await {
        Ok(req) => next.run(req).await,
        Err(refused) => refused,
    }
}

/// Outermost, one layer for what every response gets: a request id and its count
/// (`metrics::observe`), error texts in the client's language, and the cache policy of the
/// mini app's files.
async fn edge(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let lang = request_language(&req);
    let file_path = (!req.uri().path().starts_with("/api/")).then(|| req.uri().path().to_owned());
    let res = metrics::observe(&state, req, |req| REQUEST_LANG.scope(lang, next.run(req))).await;
    match file_path {
        Some(path) => static_cache_control(&path, res),
        None => res,
    }
}

async fn healthz(State(state): State<AppState>) -> Response {
    match sqlx::query("SELECT 1").execute(&state.domain.db).await {
        Ok(_) => "ok".into_response(),
        Err(e) => {
            tracing::error!(error = %e, "health check: database");
            (StatusCode::SERVICE_UNAVAILABLE, "database unavailable").into_response()
        }
    }
}

/// A real `robots.txt` (not the app's HTML): the API is per-player and stays out of indexes.
const ROBOTS_TXT: &str = "User-agent: *\nDisallow: /api/\n";

async fn robots() -> Response {
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8"), (header::CACHE_CONTROL, "public, max-age=86400")], ROBOTS_TXT).into_response()
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

/// While maintenance is on, state changes answer 503 for everyone but the admins.
async fn maintenance_gate(state: &AppState, req: Request) -> Result<Request, Response> {
    let path = req.uri().path();
    let exempt = req.method() == Method::GET
        || req.method() == Method::HEAD
        || path.ends_with("/auth")
        || path.ends_with("/dev-gate")
        || path.contains("/dev/");
    if exempt {
        return Ok(req);
    }
    match settings::maintenance(&state.domain).await {
        Ok(false) => Ok(req),
        Ok(true) => {
            let (parts, body) = req.into_parts();
            let admin = match extract::bearer(&parts) {
                Some(token) => auth::authenticate(&state.domain, token).await.map(|id| state.domain.config.is_admin(id)).unwrap_or(false),
                None => false,
            };
            if !admin {
                return Err(ApiError::Domain(DomainError::Maintenance).into_response());
            }
            Ok(Request::from_parts(parts, body))
        }
        Err(e) => Err(ApiError::Domain(e).into_response()),
    }
}
