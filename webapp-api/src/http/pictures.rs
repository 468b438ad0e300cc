//! `GET /img/<hash>.webp`: the catalog's pictures from the shop's own origin
//! (`domain::pictures`). Outside `/api`: a picture is a file, not an API answer.
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::domain::pictures::PictureName;
use crate::http::state::AppState;

/// The name is the content's hash: a picture never changes under it.
const FOREVER: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");

pub async fn picture(State(state): State<AppState>, Path(file): Path<String>) -> Response {
    let Some(name) = PictureName::parse(&file) else {
        return not_found();
    };
    match state.pictures.get(&name).await {
        Ok(bytes) => {
            ([(header::CONTENT_TYPE, HeaderValue::from_static("image/webp")), (header::CACHE_CONTROL, FOREVER)], bytes).into_response()
        }
        Err(_) => not_found(),
    }
}

/// A clean 404 the browser asks again later (the app draws the item type's silhouette meanwhile).
fn not_found() -> Response {
    (StatusCode::NOT_FOUND, [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))]).into_response()
}
