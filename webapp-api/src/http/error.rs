//! The one mapping from errors to HTTP: status, and `{"success":false,"error","message","code"}`.
//!
//! A leaf of the HTTP layer: it uses nothing else of `crate::http`, so every other module may
//! use it.
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::domain::lang::Lang;
use crate::domain::DomainError;

tokio::task_local! {
    /// The language of the request being answered (set by the `language` middleware).
    pub static REQUEST_LANG: Lang;
}

/// The language of the request being answered (Russian outside a request, as the spec's default).
pub fn request_lang() -> Lang {
    REQUEST_LANG.try_with(|l| *l).unwrap_or(Lang::Ru)
}

/// What `too_many_streams` asks a client to wait: a place on the address frees only when one
/// of its streams ends, which is rarely sooner.
pub const TOO_MANY_STREAMS_RETRY_SECS: u64 = 30;

/// The error code an error response carried (set here, read by the metrics as the response
/// leaves).
#[derive(Clone, Copy, Debug)]
pub struct ErrorCode(pub &'static str);

#[derive(Debug)]
pub enum ApiError {
    Domain(DomainError),
    UnsupportedMediaType,
    PayloadTooLarge,
    MethodNotAllowed,
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        ApiError::Domain(e)
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        ApiError::Domain(DomainError::Database(e))
    }
}

pub fn status_of(e: &DomainError) -> StatusCode {
    use DomainError::*;
    match e {
        BadRequest(_) => StatusCode::BAD_REQUEST,
        Unauthorized | InvalidInitData(_) | InitDataExpired => StatusCode::UNAUTHORIZED,
        Forbidden | WrongPassword | DevGateRequired => StatusCode::FORBIDDEN,
        NotFound | CaseNotFound | ItemNotFound | TicketNotFound | TransactionNotFound | PackNotFound => StatusCode::NOT_FOUND,
        InsufficientTokens
        | ItemNotAvailable
        | AlreadyClaimed
        | BonusNotAvailable
        | TicketClosed
        | TooManyOpenTickets
        | ShareUnavailable
        | RefundRefused(_)
        | DebtOutstanding(_)
        | DepositRequired { .. }
        | BonusItem
        | PromoExhausted
        | PromoAlreadyRedeemed
        | PromoDepositRequired
        | PromoExists
        | SelfExclusionActive { .. }
        | PurchaseLive => StatusCode::CONFLICT,
        PromoNotFound => StatusCode::NOT_FOUND,
        PromoExpired => StatusCode::GONE,
        SelfExcluded { .. } | SpendLimit { .. } => StatusCode::FORBIDDEN,
        InvalidPromoCode | InvalidLimit => StatusCode::UNPROCESSABLE_ENTITY,
        InvalidTradeUrl | InvalidClientSeed | InvalidLanguage | EmptyMessage | ItemRequired | InvalidTheme | TooLong(_) => {
            StatusCode::UNPROCESSABLE_ENTITY
        }
        RateLimited(_) | TooManyStreams => StatusCode::TOO_MANY_REQUESTS,
        TelegramUnavailable(_) | SubscriptionCheckFailed(_) => StatusCode::BAD_GATEWAY,
        Maintenance => StatusCode::SERVICE_UNAVAILABLE,
        Database(_) | Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

pub fn error_body(code: &str, text: &str) -> String {
    serde_json::json!({ "success": false, "error": text, "message": text, "code": code }).to_string()
}

/// The envelope with the fields a refusal carries besides its text: a self-exclusion's end
/// (`until`, RFC 3339; null for a permanent one, with `permanent: true`), a spend limit's figures.
fn error_body_of(e: &DomainError, text: &str) -> String {
    let mut body = serde_json::json!({ "success": false, "error": text, "message": text, "code": e.code() });
    match e {
        DomainError::SelfExcluded { until } | DomainError::SelfExclusionActive { until } => {
            body["until"] = until.map(crate::domain::clock::rfc3339).into();
            body["permanent"] = until.is_none().into();
        }
        DomainError::SpendLimit { limit, spent, resets_at } => {
            body["limit"] = serde_json::to_value(limit).unwrap_or_default();
            body["spent"] = serde_json::to_value(spent).unwrap_or_default();
            body["resetsAt"] = crate::domain::clock::rfc3339(*resets_at).into();
        }
        _ => {}
    }
    body.to_string()
}

fn json_response(status: StatusCode, code: &'static str, text: &str) -> Response {
    with_body(status, code, error_body(code, text))
}

fn with_body(status: StatusCode, code: &'static str, body: String) -> Response {
    let mut res = (status, body).into_response();
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res.extensions_mut().insert(ErrorCode(code));
    res
}

/// The store could not take the request right now — busy past its timeout (a long writer, a
/// lock wait; `store::unavailable` knows each engine's codes), the disk full, or no pooled connection in
/// time. Nothing was written; retrying later is right, so these answer 503 with `Retry-After`
/// instead of a bare 500.
fn unavailable(e: &DomainError) -> Option<&'static str> {
    let DomainError::Database(db) = e else { return None };
    crate::domain::store::unavailable(db)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let lang = REQUEST_LANG.try_with(|l| *l).unwrap_or(Lang::Ru);
        let ru = lang == Lang::Ru;
        match self {
            ApiError::UnsupportedMediaType => {
                let text = if ru { "Нужен Content-Type: application/json" } else { "Expected Content-Type: application/json" };
                json_response(StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type", text)
            }
            ApiError::MethodNotAllowed => {
                let text = if ru {
                    "Метод не поддерживается для этого адреса"
                } else {
                    "Method not allowed for this path"
                };
                json_response(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", text)
            }
            ApiError::PayloadTooLarge => {
                let text = if ru { "Слишком большой запрос" } else { "Request body is too large" };
                json_response(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", text)
            }
            ApiError::Domain(e) => {
                if let Some(code) = unavailable(&e) {
                    tracing::warn!(error = %e, code, "storage unavailable");
                    let text = match (code, ru) {
                        ("storage_full", true) => "Сервер временно не может сохранить данные. Попробуйте позже",
                        ("storage_full", false) => "The server cannot save data right now. Try again later",
                        (_, true) => "Сервер занят. Попробуйте ещё раз через секунду",
                        (_, false) => "The server is busy. Try again in a second",
                    };
                    let mut res = json_response(StatusCode::SERVICE_UNAVAILABLE, code, text);
                    res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(1));
                    return res;
                }
                if e.is_internal() {
                    tracing::error!(error = %e, "internal error");
                }
                let mut res = with_body(status_of(&e), e.code(), error_body_of(&e, &e.text(lang)));
                match e {
                    DomainError::RateLimited(secs) => {
                        res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
                    }
                    DomainError::TooManyStreams => {
                        res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(TOO_MANY_STREAMS_RETRY_SECS));
                    }
                    _ => {}
                }
                res
            }
        }
    }
}
