//! A fake picture CDN on 127.0.0.1, in the library CDN's shape (`GET /images/<hash>.webp`,
//! `image/webp`): it counts every request per path, and can be told to answer slowly, to be down
//! (503 to everything), or to answer one name with something else (a status or a content type).
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

/// A small valid-looking WebP: the RIFF/WEBP header the shop checks, then filler.
pub fn webp(tag: &str) -> Vec<u8> {
    let mut body = b"VP8L".to_vec();
    body.extend_from_slice(tag.as_bytes());
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&((body.len() + 4) as u32).to_le_bytes());
    out.extend_from_slice(b"WEBP");
    out.extend_from_slice(&body);
    out
}

#[derive(Default)]
struct Inner {
    hits: Mutex<HashMap<String, usize>>,
    /// Per file name: answer this status (and no picture) instead.
    broken: Mutex<HashMap<String, (u16, &'static str)>>,
    down: AtomicBool,
    delay_ms: AtomicU64,
}

#[derive(Clone)]
pub struct FakeCdn {
    pub url: String,
    inner: Arc<Inner>,
}

impl FakeCdn {
    pub async fn start() -> FakeCdn {
        let inner = Arc::new(Inner::default());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind fake cdn");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let app = Router::new().route("/images/{file}", get(image)).with_state(inner.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.ok() });
        FakeCdn { url, inner }
    }

    /// Requests seen for `/images/<file>`.
    pub fn hits(&self, file: &str) -> usize {
        self.inner.hits.lock().unwrap().get(file).copied().unwrap_or(0)
    }

    pub fn total_hits(&self) -> usize {
        self.inner.hits.lock().unwrap().values().sum()
    }

    pub fn set_down(&self, down: bool) {
        self.inner.down.store(down, Ordering::SeqCst);
    }

    pub fn set_delay(&self, delay: Duration) {
        self.inner.delay_ms.store(delay.as_millis() as u64, Ordering::SeqCst);
    }

    /// `file` is answered with `status` and `content_type` (a text body) from now on.
    pub fn break_file(&self, file: &str, status: u16, content_type: &'static str) {
        self.inner.broken.lock().unwrap().insert(file.to_owned(), (status, content_type));
    }

    pub fn mend_file(&self, file: &str) {
        self.inner.broken.lock().unwrap().remove(file);
    }
}

async fn image(State(inner): State<Arc<Inner>>, Path(file): Path<String>) -> Response {
    *inner.hits.lock().unwrap().entry(file.clone()).or_default() += 1;
    let delay = inner.delay_ms.load(Ordering::SeqCst);
    if delay > 0 {
        tokio::time::sleep(Duration::from_millis(delay)).await;
    }
    if inner.down.load(Ordering::SeqCst) {
        return (StatusCode::SERVICE_UNAVAILABLE, [(header::CONTENT_TYPE, "text/html")], "<h1>down</h1>").into_response();
    }
    let broken = inner.broken.lock().unwrap().get(&file).copied();
    if let Some((status, kind)) = broken {
        return (StatusCode::from_u16(status).unwrap(), [(header::CONTENT_TYPE, kind)], "<html>not a picture</html>").into_response();
    }
    ([(header::CONTENT_TYPE, "image/webp")], webp(&file)).into_response()
}
