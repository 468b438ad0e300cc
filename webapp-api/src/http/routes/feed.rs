//! The live drop feed (Server-Sent Events) and the player's feed setting.
use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Version};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Extension, Json, Router};
use futures_util::Stream;
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::domain::feed;
use crate::domain::lang::Lang;
use crate::http::dto::ErrorBody;
use crate::http::error::{request_lang, ApiError};
use crate::http::extract::{AppJson, AuthUser};
use crate::http::ratelimit;
use crate::http::state::AppState;

/// The stream's full path. Its connections live for minutes or hours: the router mounts it
/// outside the request timeout (`stream_routes`), and a connection limit can tell feed
/// connections from ordinary requests by this path.
pub const STREAM_PATH: &str = "/api/v1/feed";
/// A comment line this often keeps proxies and the client's reader from timing the stream out.
pub const HEARTBEAT: Duration = Duration::from_secs(15);

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(stream, settings, set_settings))]
pub struct Doc;

/// The setting, under `/api/v1` with every other call.
pub fn routes() -> Router<AppState> {
    Router::new().route("/settings/feed", get(settings).put(set_settings))
}

/// The stream, mounted by the router outside the request timeout and the compression layer.
pub fn stream_routes() -> Router<AppState> {
    Router::new().route(STREAM_PATH, get(stream))
}

/// The live drop feed: `text/event-stream`. On connect the last 20 drops (or, with
/// `Last-Event-ID`, every drop after that id), then each new drop as it happens: one event per
/// drop, `id:` its id, `data:` `{id, item: {name, marketHashName, rarity, image, exterior?,
/// statTrak?}, case: {id, name}, firstName?, openedAt}`, the names in the language the request's
/// `Accept-Language` asks for (Russian when absent). A comment line every 15 s. The stream ends
/// (and its connection closes) when the client falls more than 128 drops behind, when the
/// player opens more streams than they may hold (their oldest ends), and after at most 30
/// minutes; the client resumes with `Last-Event-ID`. An address holding as many streams as it
/// may is refused with 429.
#[utoipa::path(get, path = "/feed", tag = "feed", security(("bearer" = [])),
    params(("Last-Event-ID" = Option<i64>, Header, description = "The id of the last event received: resume after it")),
    responses((status = 200, description = "A stream of drops (Server-Sent Events), ended after at most 30 minutes", content_type = "text/event-stream", body = String),
        (status = 429, description = "`too_many_streams`: the client's address holds as many streams as it may; `Retry-After`", body = ErrorBody)))]
pub async fn stream(
    State(app): State<AppState>,
    AuthUser(player): AuthUser,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    version: Version,
    headers: HeaderMap,
) -> Result<impl IntoResponse, ApiError> {
    let after = headers.get("last-event-id").and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<i64>().ok());
    let peer = peer.map_or(std::net::IpAddr::from([0, 0, 0, 0]), |Extension(ConnectInfo(p))| p.ip());
    let address = ratelimit::bounded_address(peer, &headers, &app.config.trusted_proxies);
    let subscription = feed::subscribe(&app.domain, feed::Viewer { player, address }, after).await?;
    // Names in the viewer's language (the mini app sends its chosen one), whoever opened.
    let sse = Sse::new(events(subscription, request_lang())).keep_alive(KeepAlive::new().interval(HEARTBEAT));
    // Proxies that buffer responses (nginx) would hold the events back.
    let mut res = (
        [
            (HeaderName::from_static("x-accel-buffering"), HeaderValue::from_static("no")),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        sse,
    )
        .into_response();
    // When the stream ends, so does its HTTP/1 connection: a stream is what holds it, and a
    // connection left idle after a replaced or expired stream would keep its place under the
    // server's connection caps until the idle timeout. (HTTP/2 has no such header: there the
    // stream ends and the connection's idle timeout applies.)
    if version <= Version::HTTP_11 {
        res.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    Ok(res)
}

fn events(subscription: feed::Subscription, lang: Lang) -> impl Stream<Item = Result<Event, Infallible>> + Send + 'static {
    futures_util::stream::unfold(subscription, move |mut sub| async move {
        match sub.next().await {
            Ok(e) => Some((Ok(Event::default().id(e.id.to_string()).data(e.data(lang))), sub)),
            Err(feed::Ended::TooSlow) => {
                tracing::info!("feed: a client fell behind and is disconnected");
                None
            }
            Err(feed::Ended::Replaced | feed::Ended::Expired | feed::Ended::Closed) => None,
        }
    })
}

#[derive(Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedSettings {
    /// True: the player's drops show in the feed without their name.
    hide_name: bool,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeedSettingsAnswer {
    success: bool,
    hide_name: bool,
}

/// The player's feed setting.
#[utoipa::path(get, path = "/settings/feed", tag = "feed", operation_id = "feed_settings", security(("bearer" = [])),
    responses((status = 200, body = FeedSettingsAnswer)))]
pub async fn settings(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<FeedSettingsAnswer>, ApiError> {
    Ok(Json(FeedSettingsAnswer { success: true, hide_name: feed::hides_name(&app.domain, id).await? }))
}

/// Hides or shows the player's first name on their drops in the feed (shown by default).
#[utoipa::path(put, path = "/settings/feed", tag = "feed", operation_id = "set_feed_settings", request_body = FeedSettings, security(("bearer" = [])),
    responses((status = 200, body = FeedSettingsAnswer)))]
pub async fn set_settings(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(body): AppJson<FeedSettings>,
) -> Result<Json<FeedSettingsAnswer>, ApiError> {
    let hide_name = feed::set_hide_name(&app.domain, id, body.hide_name).await?;
    Ok(Json(FeedSettingsAnswer { success: true, hide_name }))
}
