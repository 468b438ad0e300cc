//! The catalog (public, from memory) and opening a case.
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::{OpenApi, ToSchema};

use crate::domain::{cases, DomainError, Tokens};
use crate::http::catalog::{CaseBody, CaseOdds, CaseSkin};
use crate::http::dto::{Data, ErrorBody, ItemBody};
use crate::http::encoded;
use crate::http::error::{request_lang, ApiError};
use crate::http::extract::{AppJson, AppPath, AuthUser};
use crate::http::ratelimit::{Action, ClientAddr};
use crate::http::state::AppState;

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(list, one, open))]
pub struct Doc;

pub fn routes() -> Router<AppState> {
    Router::new().route("/cases", get(list)).route("/cases/{id}", get(one)).route("/cases/{id}/open", post(open))
}

/// The store's JSON (`http::catalog`, written once), shared with the response instead of copied
/// into it. Its schema is `Data<CaseBody<…>>`, the types that wrote it.
struct Shared(std::sync::Arc<str>);

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

fn json_body(body: std::sync::Arc<str>) -> Response {
    let bytes = axum::body::Bytes::from_owner(Shared(body));
    ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], bytes).into_response()
}

/// The catalog's cases (public). Honors `If-None-Match`.
#[utoipa::path(get, path = "/cases", tag = "cases", operation_id = "list_cases",
    responses((status = 200, body = Data<Vec<CaseBody<CaseOdds>>>, links(
            ("case" = (operation_id = "get_case", parameters(("id" = "$response.body#/data/0/id")))),
            ("open" = (operation_id = "open", parameters(("id" = "$response.body#/data/0/id")))))), (status = 304, description = "Not modified")))]
pub async fn list(State(app): State<AppState>, headers: HeaderMap) -> Response {
    let store = &app.store;
    let etag = HeaderValue::from_str(&store.etag).expect("etag is ascii");
    if headers.get(header::IF_NONE_MATCH).is_some_and(|v| v == etag) {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response();
    }
    let mut res = match encoded::preferred(&headers) {
        Some(encoding) => {
            let forms = app.cases_encoded.get(&store.list);
            let bytes = if encoding == "br" { forms.br.clone() } else { forms.gzip.clone() };
            (
                [
                    (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
                    (header::CONTENT_ENCODING, HeaderValue::from_static(encoding)),
                ],
                bytes,
            )
                .into_response()
        }
        None => json_body(store.list.clone()),
    };
    res.headers_mut().insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    res.headers_mut().insert(header::ETAG, etag);
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    res
}

/// One case with its items and drop chances (public).
#[utoipa::path(get, path = "/cases/{id}", tag = "cases", operation_id = "get_case", params(("id" = String, Path, description = "Case id")),
    responses((status = 200, body = Data<CaseBody<CaseSkin>>), (status = 404, description = "`case_not_found`", body = ErrorBody)))]
pub async fn one(State(app): State<AppState>, AppPath(id): AppPath<String>) -> Result<Response, ApiError> {
    let body = app.store.page(&id).ok_or(DomainError::CaseNotFound)?;
    Ok(json_body(body))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenCase {
    /// If sent, must be the signed-in user's id.
    #[serde(default, deserialize_with = "crate::http::extract::int::optional")]
    telegram_id: Option<i64>,
    /// Idempotency key: a retried request answers the first result.
    #[schema(pattern = "^[A-Za-z0-9-]{1,64}$")]
    request_id: Option<String>,
    /// How many of this case to open at once (absent: 1). One debit of `count` × price, all or
    /// none; above 1 the answer lists every item in `items`. Counts as `count` opens for the
    /// rate limit.
    #[serde(default, deserialize_with = "crate::http::extract::int::optional")]
    #[schema(minimum = 1, maximum = 5)]
    count: Option<i64>,
}

/// The proof of one draw: recompute it with `GET /fair/verify`.
#[derive(Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FairProof {
    server_seed_hash: String,
    client_seed: String,
    nonce: i64,
    roll: u64,
}

impl From<&cases::FairProof> for FairProof {
    fn from(f: &cases::FairProof) -> FairProof {
        FairProof { server_seed_hash: f.server_seed_hash.clone(), client_seed: f.client_seed.clone(), nonce: f.nonce, roll: f.roll }
    }
}

/// One drawn item of an open and its proof.
#[derive(Serialize, ToSchema)]
pub struct OpenedItem {
    /// The won item, as in `GET /user/items`.
    item: ItemBody,
    fair: FairProof,
}

/// The answer to an open. `item` and `fair` describe the first case opened. A retried request
/// (the same `requestId`) answers the first answer again, as it was then.
#[derive(Serialize, ToSchema)]
pub struct OpenedBody {
    success: bool,
    item: ItemBody,
    /// The balance after the open, in tokens.
    #[schema(value_type = f64)]
    balance: Tokens,
    fair: FairProof,
    /// Only when `count` was above 1: every case opened, in draw order (consecutive nonces).
    #[serde(skip_serializing_if = "Option::is_none")]
    items: Option<Vec<OpenedItem>>,
}

impl OpenedBody {
    /// The answer to a new open, written once: `cases::open` stores these bytes for a replay and
    /// the handler sends them as they are (`cases::Render`).
    pub fn render(drawn: &[cases::Drawn], balance: Tokens) -> Result<String, DomainError> {
        let mut items: Vec<OpenedItem> =
            drawn.iter().map(|d| OpenedItem { item: d.item.clone().into(), fair: FairProof::from(&d.fair) }).collect();
        let (item, fair) = match items.len() {
            0 => return Err(DomainError::Internal("an open drew nothing".into())),
            // One open: its item and proof at the top, moved.
            1 => items.pop().map(|f| (f.item, f.fair)).ok_or_else(|| DomainError::Internal("an open drew nothing".into()))?,
            _ => (items[0].item.clone(), items[0].fair.clone()),
        };
        let body = OpenedBody { success: true, item, balance, fair, items: (!items.is_empty()).then_some(items) };
        serde_json::to_string(&body).map_err(|e| DomainError::Internal(e.to_string()))
    }
}

/// Opens a case, or `count` (1-5) of it at once: charges the price of all in one debit and
/// answers the won items.
#[utoipa::path(post, path = "/cases/{id}/open", tag = "cases", params(("id" = String, Path, description = "Case id")), request_body = OpenCase,
    security(("bearer" = [])),
    responses((status = 200, description = "The open: `{success, item, balance, fair}`, and `items` for several", body = OpenedBody, links(
            ("item" = (operation_id = "get_item", parameters(("id" = "$response.body#/item/id")))),
            ("withdraw" = (operation_id = "withdraw", parameters(("id" = "$response.body#/item/id")))),
            ("sell" = (operation_id = "sell", request_body = json!({"item_id": "$response.body#/item/id"}))),
            ("share" = (operation_id = "share", request_body = json!({"item_id": "$response.body#/item/id"}))))),
        (status = 403, description = "`forbidden`, `self_excluded` (with `until`), `spend_limit` (with `limit`, `spent`, `resetsAt`)", body = ErrorBody), (status = 404, description = "`case_not_found`", body = ErrorBody),
        (status = 409, description = "`insufficient_tokens`", body = ErrorBody)))]
pub async fn open(
    State(app): State<AppState>,
    AuthUser(user_id): AuthUser,
    addr: Option<Extension<ClientAddr>>,
    AppPath(case_id): AppPath<String>,
    AppJson(body): AppJson<OpenCase>,
) -> Result<Response, ApiError> {
    if body.telegram_id.is_some_and(|t| t != user_id) {
        return Err(DomainError::Forbidden.into());
    }
    let count = cases::Count::parse(body.count)?;
    // The gate counted this request as one open; an open of several counts as that many.
    if let Some(Extension(ClientAddr(ip))) = addr {
        app.limiter.take_more(Action::Open, ip, Some(user_id), count.get() - 1).map_err(DomainError::RateLimited)?;
    }
    match cases::open(&app.domain, user_id, &case_id, body.request_id.as_deref(), count, request_lang(), OpenedBody::render).await? {
        // A new open's answer as written when it was stored; a retried request's, the first
        // answer as stored then: each sent as it was written.
        cases::Opened::Fresh(written) | cases::Opened::Replayed(written) => Ok(Json(written).into_response()),
    }
}
