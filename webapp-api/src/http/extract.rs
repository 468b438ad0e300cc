//! Extractors: the signed-in user, and JSON bodies whose rejections use our error shape.
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;

use crate::domain::{auth, DomainError};
use crate::http::error::ApiError;
use crate::http::AppState;

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

/// `Json<T>` whose failures answer 400/413/415 in our JSON error shape.
pub struct AppJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for AppJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(AppJson(v)),
            Err(rejection) => Err(match rejection {
                JsonRejection::MissingJsonContentType(_) => ApiError::UnsupportedMediaType,
                other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::PayloadTooLarge,
                other => ApiError::Domain(DomainError::BadRequest(other.body_text())),
            }),
        }
    }
}

/// An optional JSON body: empty is `T::default()`, anything else must be valid JSON.
pub struct OptionalJson<T>(pub T);

impl<T: DeserializeOwned + Default, S: Send + Sync> FromRequest<S> for OptionalJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = axum::body::Bytes::from_request(req, state).await.map_err(|_| ApiError::PayloadTooLarge)?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(OptionalJson(T::default()));
        }
        serde_json::from_slice(&bytes).map(OptionalJson).map_err(|e| ApiError::Domain(DomainError::BadRequest(e.to_string())))
    }
}
