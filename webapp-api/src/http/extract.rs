//! Extractors: the signed-in user, and JSON bodies whose rejections use our error shape.
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;

use crate::domain::{auth, DomainError};
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// The Telegram id of the user behind the request's bearer token.
#[derive(Clone, Copy, Debug)]
pub struct AuthUser(pub i64);

pub fn bearer(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

impl FromRequestParts<AppState> for AuthUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if let Some(user) = parts.extensions.get::<AuthUser>() {
            return Ok(*user);
        }
        let token = bearer(parts).ok_or(DomainError::Unauthorized)?;
        let id = auth::authenticate(&state.domain, token).await?;
        parts.extensions.insert(AuthUser(id));
        Ok(AuthUser(id))
    }
}

/// Whether a request says its body is JSON (`application/json`, or any `+json` type).
pub fn is_json(headers: &axum::http::HeaderMap) -> bool {
    let Some(ct) = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else { return false };
    let essence = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// Decodes a body that must be one JSON object. Arrays and scalars are refused before serde
/// sees them: serde would otherwise fill a struct from an array by position.
fn object_from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        return Err(ApiError::Domain(DomainError::BadRequest("the body must be a JSON object".into())));
    }
    serde_json::from_slice(bytes).map_err(|e| ApiError::Domain(DomainError::BadRequest(e.to_string())))
}

async fn body_bytes<S: Send + Sync>(req: Request, state: &S) -> Result<axum::body::Bytes, ApiError> {
    axum::body::Bytes::from_request(req, state).await.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge
        } else {
            ApiError::Domain(DomainError::BadRequest(rejection.body_text()))
        }
    })
}

/// An integer field of a JSON body: JSON has one number type, so `7.0` is the integer 7 (as
/// JSON Schema says); a fraction or a value past i64 is refused.
pub mod int {
    use serde::{Deserialize, Deserializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Num {
        I(i64),
        F(f64),
    }

    fn exact<E: serde::de::Error>(n: Num) -> Result<i64, E> {
        match n {
            Num::I(i) => Ok(i),
            Num::F(f) if f.fract() == 0.0 && (-9.2e18..=9.2e18).contains(&f) => Ok(f as i64),
            Num::F(f) => Err(E::custom(format!("expected an integer, got {f}"))),
        }
    }

    pub fn required<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        exact(Num::deserialize(d)?)
    }

    pub fn optional<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        Option::<Num>::deserialize(d)?.map(exact).transpose()
    }
}

/// A JSON object body whose failures answer 400/413/415 in our JSON error shape.
pub struct AppJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for AppJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers()) {
            return Err(ApiError::UnsupportedMediaType);
        }
        let bytes = body_bytes(req, state).await?;
        object_from_slice(&bytes).map(AppJson)
    }
}

/// An optional JSON object body: empty (or JSON `null`) is `T::default()`, anything else must be a JSON object
/// sent as JSON.
pub struct OptionalJson<T>(pub T);

impl<T: DeserializeOwned + Default, S: Send + Sync> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = is_json(req.headers());
        let bytes = body_bytes(req, state).await?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        if !json {
            return Err(ApiError::UnsupportedMediaType);
        }
        // JSON `null` is no body too (an optional body's schema is nullable).
        if bytes.trim_ascii() == b"null" {
            return Ok(OptionalJson(T::default()));
        }
        object_from_slice(&bytes).map(OptionalJson)
    }
}

/// `Path<T>` whose failures (a non-number id, an id past i64) answer 400 `bad_request`.
pub struct AppPath<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for AppPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(AppPath(v)),
            Err(rejection) => Err(ApiError::Domain(DomainError::BadRequest(rejection.body_text()))),
        }
    }
}

/// `Query<T>` whose failures (a missing or malformed parameter) answer 400 `bad_request`.
pub struct AppQuery<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for AppQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(AppQuery(v)),
            Err(rejection) => Err(ApiError::Domain(DomainError::BadRequest(rejection.body_text()))),
        }
    }
}
