//! The API's gate: every request under `/api/v1` passes here, in order: JSON bodies only, the
//! rate limits, maintenance. One layer rather than three: each `from_fn` layer costs a boxed
//! clone of the inner service and a boxed future per request.
//!
//! The refusals the gate and the bearer extractor give are declared here once too
//! (`CommonErrors`), from the same rules, for every operation of the OpenAPI document they apply
//! to; a route's annotation lists only its own answers.
use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use utoipa::openapi::path::Operation;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};

use crate::domain::{auth, settings, DomainError};
use crate::http::error::ApiError;
use crate::http::extract::{self, AuthUser};
use crate::http::ratelimit;
use crate::http::state::AppState;

/// The middleware.
pub async fn api_gate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if let Some(refused) = non_json_body(&req) {
        return refused;
    }
    let req = match rate_limit(&state, req).await {
        Ok(req) => req,
        Err(refused) => return refused,
    };
    match maintenance(&state, req).await {
        Ok(req) => next.run(req).await,
        Err(refused) => refused,
    }
}

/// A request that carries a body must say it is JSON, whatever the route does with it: `415`
/// otherwise.
fn non_json_body(req: &Request) -> Option<Response> {
    let has_body = req.headers().contains_key(header::TRANSFER_ENCODING)
        || req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().parse::<u64>().map_or(true, |n| n > 0));
    (has_body && !extract::is_json(req.headers())).then(|| ApiError::UnsupportedMediaType.into_response())
}

/// The rate limit of a request: `Ok` with the request (the signed-in player's id attached when
/// the token was checked here), or the `429` to answer. Limited routes resolve the bearer token
/// here (from the in-memory session cache) so the per-user bucket is known; the handler reuses
/// the resolved user.
async fn rate_limit(state: &AppState, req: Request) -> Result<Request, Response> {
    // Only matched routes: an unknown path or method is refused without touching a bucket.
    let Some(route) = req.extensions().get::<MatchedPath>().cloned() else { return Ok(req) };
    let Some(action) = ratelimit::action(req.method(), route.as_str()) else { return Ok(req) };
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()).unwrap_or(IpAddr::from([0, 0, 0, 0]));
    let ip = ratelimit::client_ip(peer, req.headers(), &state.config.trusted_proxies);
    let (mut parts, body) = req.into_parts();
    let mut user = None;
    if action.per_user() {
        if let Some(token) = extract::bearer(&parts) {
            if let Ok(id) = auth::authenticate(&state.domain, token).await {
                parts.extensions.insert(AuthUser(id));
                user = Some(id);
            }
        }
    }
    if let Err(secs) = state.limiter.take(action, ip, user) {
        tracing::info!(?action, route = route.as_str(), retry_after = secs, "rate limited");
        return Err(ApiError::Domain(DomainError::RateLimited(secs)).into_response());
    }
    if action == ratelimit::Action::Open {
        parts.extensions.insert(ratelimit::ClientAddr(ip));
    }
    Ok(Request::from_parts(parts, body))
}

/// While maintenance is on, state changes answer 503 for everyone but the admins.
async fn maintenance(state: &AppState, req: Request) -> Result<Request, Response> {
    if !maintenance_applies(req.method(), req.uri().path()) {
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

/// Whether the maintenance switch refuses a request: every state change but signing in and the
/// demo's own calls (reads are always served).
pub fn maintenance_applies(method: &Method, path: &str) -> bool {
    let exempt =
        method == Method::GET || method == Method::HEAD || path.ends_with("/auth") || path.ends_with("/dev-gate") || path.contains("/dev/");
    !exempt
}

/// The common refusals, added to each operation they apply to (an operation's own description
/// of the same status, naming more codes, is kept): `401 unauthorized` where a bearer token is
/// required, `400 bad_request` where a JSON body is read, `415 unsupported_media_type` on every
/// write (`non_json_body`: whatever body a write carries must be JSON), `429 rate_limited` where
/// `ratelimit::action` limits the route, `503 maintenance` where `maintenance_applies`.
pub struct CommonErrors;

impl utoipa::Modify for CommonErrors {
    fn modify(&self, api: &mut utoipa::openapi::OpenApi) {
        for (path, item) in api.paths.paths.iter_mut() {
            let ops = [
                (Method::GET, item.get.as_mut()),
                (Method::PUT, item.put.as_mut()),
                (Method::POST, item.post.as_mut()),
                (Method::DELETE, item.delete.as_mut()),
                (Method::PATCH, item.patch.as_mut()),
            ];
            for (method, op) in ops {
                let Some(op) = op else { continue };
                if needs_bearer(op) {
                    add(op, "401", "`unauthorized`");
                }
                if op.request_body.is_some() {
                    add(op, "400", "`bad_request`");
                }
                if method != Method::GET {
                    add(op, "415", "`unsupported_media_type`");
                }
                if ratelimit::action(&method, path).is_some() {
                    add(op, "429", "`rate_limited`");
                }
                if maintenance_applies(&method, path) {
                    add(op, "503", "`maintenance`");
                }
            }
        }
    }
}

/// An operation whose only ways in carry the bearer token.
fn needs_bearer(op: &Operation) -> bool {
    let Some(security) = &op.security else { return false };
    let Ok(serde_json::Value::Array(ways)) = serde_json::to_value(security) else { return false };
    !ways.is_empty() && ways.iter().all(|w| w.get("bearer").is_some())
}

fn add(op: &mut Operation, status: &str, codes: &str) {
    op.responses.responses.entry(status.to_owned()).or_insert_with(|| {
        let body = ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build();
        RefOr::T(ResponseBuilder::new().description(codes).content("application/json", body).build())
    });
}
