//! The catalog (public, from memory) and opening a case.
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::domain::{cases, DomainError};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AuthUser};
use crate::http::AppState;

pub fn routes() -> Router<AppState> {
    Router::new().route("/cases", get(list)).route("/cases/{id}", get(one)).route("/cases/{id}/open", post(open))
}

/// The catalog's JSON, shared with the response instead of copied into it.
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

async fn list(State(app): State<AppState>, headers: HeaderMap) -> Response {
    let catalog = &app.domain.catalog;
    let etag = HeaderValue::from_str(&catalog.cases_etag).expect("etag is ascii");
    if headers.get(header::IF_NONE_MATCH).is_some_and(|v| v == etag) {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response();
    }
    let mut res = json_body(catalog.cases_json.clone());
    res.headers_mut().insert(header::ETAG, etag);
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    res
}

async fn one(State(app): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let body = app.domain.catalog.case_json(&id).ok_or(DomainError::CaseNotFound)?;
    Ok(json_body(body))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OpenCase {
    telegram_id: Option<i64>,
    request_id: Option<String>,
}

async fn open(
    State(app): State<AppState>,
    AuthUser(user_id): AuthUser,
    Path(case_id): Path<String>,
    AppJson(body): AppJson<OpenCase>,
) -> Result<Json<Box<RawValue>>, ApiError> {
    if body.telegram_id.is_some_and(|t| t != user_id) {
        return Err(DomainError::Forbidden.into());
    }
    Ok(Json(cases::open(&app.domain, user_id, &case_id, body.request_id.as_deref()).await?))
}
