//! Request ids, the access log and `GET /metrics` in the Prometheus text format.
//!
//! HTTP figures (requests by route, method and status; latency; error codes) are counted in
//! memory as responses leave. Money and game figures (opens, tokens credited and debited, Stars
//! received) are read from the database at scrape time, incrementally past the last row seen,
//! so they count what was committed, by anyone (API, bot or CLI), and cost O(new rows).
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq;
use tracing::Instrument;

use crate::domain::store::Pool;
use crate::domain::{DomainError, Tokens};
use crate::http::error::ApiError;
use crate::http::{extract, AppState};

/// The error code an error response carried (set by `ApiError`, read by the metrics).
#[derive(Clone, Copy, Debug)]
pub struct ErrorCode(pub &'static str);

/// Upper bounds of the latency histogram, in seconds.
const BUCKETS: [f64; 13] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

#[derive(Default)]
struct Histogram {
    buckets: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        if let Some(i) = BUCKETS.iter().position(|b| secs <= *b) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros.fetch_add(d.as_micros() as u64, Ordering::Relaxed);
    }
}

#[derive(Clone, Copy, Default)]
struct DbTotals {
    ledger_cursor: i64,
    credited: i64,
    debited: i64,
    opens_cursor: i64,
    opens: i64,
}

/// Route pattern, method label, status.
type RequestKey = (Arc<str>, &'static str, u16);

/// The method as a label: the standard methods by name, anything else `OTHER`, so made-up
/// methods cannot grow the label set (or the memory that holds it).
pub fn method_label(m: &Method) -> &'static str {
    match *m {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "OTHER",
    }
}

/// Counters of one process. Cheap to share; every update is an atomic add under a read lock
/// (the write lock is taken only the first time a label set is seen).
pub struct Metrics {
    started: Instant,
    requests: RwLock<HashMap<RequestKey, AtomicU64>>,
    latency: RwLock<HashMap<Arc<str>, Histogram>>,
    errors: RwLock<HashMap<&'static str, AtomicU64>>,
    bot_updates: AtomicU64,
    /// The bot's link to Telegram (`fragbox_bot_up`, `/readyz`).
    pub bot: crate::http::health::BotHealth,
    db: tokio::sync::Mutex<DbTotals>,
    request_seq: AtomicU64,
    request_prefix: u32,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut prefix = [0u8; 4];
        let _ = getrandom::getrandom(&mut prefix);
        Metrics {
            started: Instant::now(),
            requests: RwLock::default(),
            latency: RwLock::default(),
            errors: RwLock::default(),
            bot_updates: AtomicU64::new(0),
            bot: Default::default(),
            db: tokio::sync::Mutex::default(),
            request_seq: AtomicU64::new(0),
            request_prefix: u32::from_be_bytes(prefix),
        }
    }
}

fn bump<K: std::hash::Hash + Eq>(map: &RwLock<HashMap<K, AtomicU64>>, key: K) {
    if let Some(c) = map.read().unwrap_or_else(|p| p.into_inner()).get(&key) {
        c.fetch_add(1, Ordering::Relaxed);
        return;
    }
    map.write().unwrap_or_else(|p| p.into_inner()).entry(key).or_default().fetch_add(1, Ordering::Relaxed);
}

impl Metrics {
    /// One Telegram update went through the dispatcher.
    pub fn bot_update(&self) {
        self.bot_updates.fetch_add(1, Ordering::Relaxed);
    }

    fn record(&self, route: Arc<str>, method: &'static str, status: u16, elapsed: Duration, error: Option<ErrorCode>) {
        {
            let found = self.latency.read().unwrap_or_else(|p| p.into_inner()).get(&route).map(|h| h.observe(elapsed)).is_some();
            if !found {
                self.latency.write().unwrap_or_else(|p| p.into_inner()).entry(route.clone()).or_default().observe(elapsed);
            }
        }
        bump(&self.requests, (route, method, status));
        if let Some(ErrorCode(code)) = error {
            bump(&self.errors, code);
        }
    }

    fn next_request_id(&self) -> String {
        format!("{:08x}-{:x}", self.request_prefix, self.request_seq.fetch_add(1, Ordering::Relaxed))
    }

    /// The Prometheus text exposition.
    pub async fn render(&self, db: &Pool, writer: Option<&crate::domain::store::writer::Writer>) -> Result<String, sqlx::Error> {
        let totals = self.db_totals(db).await?;
        let (stars, paid): (i64, i64) = sqlx::query_as(
            "SELECT CAST(COALESCE(SUM(stars), 0) AS BIGINT), COUNT(*) FROM payments WHERE status IN ('success', 'refunded')",
        )
        .fetch_one(db)
        .await?;
        let mut out = String::with_capacity(8 * 1024);
        let w = &mut out;

        let _ = writeln!(w, "# HELP fragbox_http_requests_total HTTP requests answered, by route, method and status.");
        let _ = writeln!(w, "# TYPE fragbox_http_requests_total counter");
        let mut rows: Vec<(String, u64)> = self
            .requests
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .iter()
            .map(|((route, method, status), c)| {
                (format!("route=\"{}\",method=\"{method}\",status=\"{status}\"", escape(route)), c.load(Ordering::Relaxed))
            })
            .collect();
        rows.sort();
        for (labels, v) in rows {
            let _ = writeln!(w, "fragbox_http_requests_total{{{labels}}} {v}");
        }

        let _ = writeln!(w, "# HELP fragbox_http_request_duration_seconds Time to answer, by route.");
        let _ = writeln!(w, "# TYPE fragbox_http_request_duration_seconds histogram");
        {
            let latency = self.latency.read().unwrap_or_else(|p| p.into_inner());
            let mut routes: Vec<&Arc<str>> = latency.keys().collect();
            routes.sort();
            for route in routes {
                let h = &latency[route];
                let r = escape(route);
                let mut cumulative = 0;
                for (i, bound) in BUCKETS.iter().enumerate() {
                    cumulative += h.buckets[i].load(Ordering::Relaxed);
                    let _ = writeln!(w, "fragbox_http_request_duration_seconds_bucket{{route=\"{r}\",le=\"{bound}\"}} {cumulative}");
                }
                let count = h.count.load(Ordering::Relaxed);
                let _ = writeln!(w, "fragbox_http_request_duration_seconds_bucket{{route=\"{r}\",le=\"+Inf\"}} {count}");
                let sum = h.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
                let _ = writeln!(w, "fragbox_http_request_duration_seconds_sum{{route=\"{r}\"}} {sum}");
                let _ = writeln!(w, "fragbox_http_request_duration_seconds_count{{route=\"{r}\"}} {count}");
            }
        }

        let _ = writeln!(w, "# HELP fragbox_errors_total Error responses, by error code.");
        let _ = writeln!(w, "# TYPE fragbox_errors_total counter");
        let mut errors: Vec<(&'static str, u64)> =
            self.errors.read().unwrap_or_else(|p| p.into_inner()).iter().map(|(k, v)| (*k, v.load(Ordering::Relaxed))).collect();
        errors.sort();
        for (code, v) in errors {
            let _ = writeln!(w, "fragbox_errors_total{{code=\"{code}\"}} {v}");
        }

        let counters: [(&str, &str, String); 6] = [
            ("fragbox_case_opens_total", "Cases opened (committed).", totals.opens.to_string()),
            ("fragbox_tokens_credited_total", "Tokens credited to players (ledger entries > 0).", Tokens(totals.credited).to_string()),
            ("fragbox_tokens_debited_total", "Tokens debited from players (ledger entries < 0).", Tokens(totals.debited).to_string()),
            ("fragbox_stars_received_total", "Telegram Stars received in successful payments.", stars.to_string()),
            ("fragbox_payments_total", "Successful Stars payments.", paid.to_string()),
            (
                "fragbox_bot_updates_total",
                "Telegram updates handled by the dispatcher.",
                self.bot_updates.load(Ordering::Relaxed).to_string(),
            ),
        ];
        for (name, help, v) in counters {
            let _ = writeln!(w, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {v}");
        }
        let _ = writeln!(w, "# HELP fragbox_uptime_seconds Seconds since the process started.\n# TYPE fragbox_uptime_seconds gauge");
        let _ = writeln!(w, "fragbox_uptime_seconds {}", self.started.elapsed().as_secs());
        let _ = writeln!(w, "# HELP fragbox_bot_up 1 while the bot reaches Telegram (0 when it does not, or in demo mode).");
        let _ = writeln!(w, "# TYPE fragbox_bot_up gauge\nfragbox_bot_up {}", u8::from(self.bot.is_up()));
        if let Some(writer) = writer {
            let s = writer.stats();
            let lines: [(&str, &str, u64); 3] = [
                ("fragbox_sqlite_writer_requests_total", "Writes handed to the SQLite writer thread.", s.requests),
                (
                    "fragbox_sqlite_writer_batches_total",
                    "Transactions the SQLite writer ran (group commit: several writes each).",
                    s.batches,
                ),
                ("fragbox_sqlite_writer_committed_total", "Writes whose SQLite writer transaction committed.", s.committed),
            ];
            for (name, help, v) in lines {
                let _ = writeln!(w, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {v}");
            }
        }
        if let Some((rss, hwm)) = memory() {
            let _ = writeln!(w, "# HELP fragbox_resident_memory_bytes Resident set size.\n# TYPE fragbox_resident_memory_bytes gauge");
            let _ = writeln!(w, "fragbox_resident_memory_bytes {rss}");
            let _ = writeln!(
                w,
                "# HELP fragbox_resident_memory_peak_bytes Peak resident set size.\n# TYPE fragbox_resident_memory_peak_bytes gauge"
            );
            let _ = writeln!(w, "fragbox_resident_memory_peak_bytes {hwm}");
        }
        Ok(out)
    }

    async fn db_totals(&self, db: &Pool) -> Result<DbTotals, sqlx::Error> {
        let mut t = self.db.lock().await;
        // Ids grow in commit order (one writer at a time), so "past the cursor" is exactly "new".
        let (credited, debited, cursor): (i64, i64, i64) = sqlx::query_as(
            "SELECT CAST(COALESCE(SUM(CASE WHEN amount > 0 THEN amount ELSE 0 END), 0) AS BIGINT),
                    CAST(COALESCE(SUM(CASE WHEN amount < 0 THEN -amount ELSE 0 END), 0) AS BIGINT),
                    COALESCE(MAX(id), $1)
             FROM ledger_entries WHERE id > $1",
        )
        .bind(t.ledger_cursor)
        .fetch_one(db)
        .await?;
        let (opens, opens_cursor): (i64, i64) = sqlx::query_as("SELECT COUNT(*), COALESCE(MAX(id), $1) FROM case_opens WHERE id > $1")
            .bind(t.opens_cursor)
            .fetch_one(db)
            .await?;
        t.credited += credited;
        t.debited += debited;
        t.ledger_cursor = cursor;
        t.opens += opens;
        t.opens_cursor = opens_cursor;
        Ok(*t)
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Current and peak resident memory in bytes (Linux).
fn memory() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line[name.len()..].trim().trim_end_matches("kB").trim().parse::<u64>().ok().map(|kb| kb * 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// A request id from the client (or the proxy) is kept when it is short and plain.
fn incoming_request_id(req: &Request) -> Option<String> {
    let v = req.headers().get("x-request-id")?.to_str().ok()?;
    let ok = !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    ok.then(|| v.to_owned())
}

/// The label for a request's route: its route pattern, never the raw path (ids and query strings
/// would blow up the label set and may carry what must not be logged).
fn route_label(req: &Request) -> Arc<str> {
    if let Some(m) = req.extensions().get::<MatchedPath>() {
        let p = m.as_str();
        // Nested services report their catch-all tail; the prefix is the useful part.
        return match p.find("/{") {
            Some(i) if p.contains("{*") => Arc::from(&p[..i]),
            _ => Arc::from(p),
        };
    }
    Arc::from(if req.uri().path().starts_with("/api/") { "/api (unmatched)" } else { "static" })
}

/// Gives every request an id (the response's `x-request-id`, and a span around everything
/// logged while answering), counts it, and logs failures. Logs carry the route pattern, never
/// the path, query, headers or body: init data, tokens and trade links stay out of the logs.
pub async fn observe<F, Fut>(state: &AppState, req: Request, inner: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: std::future::Future<Output = Response>,
{
    let start = Instant::now();
    let id = incoming_request_id(&req).unwrap_or_else(|| state.metrics.next_request_id());
    let route = route_label(&req);
    let method = method_label(req.method());
    let span = tracing::info_span!("request", id = %id, method = method, route = %route);
    let mut res = inner(req).instrument(span.clone()).await;
    let elapsed = start.elapsed();
    let status = res.status();
    let code = res.extensions().get::<ErrorCode>().copied();
    state.metrics.record(route, method, status.as_u16(), elapsed, code);
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert("x-request-id", v);
    }
    let ms = elapsed.as_secs_f64() * 1e3;
    let code = code.map(|c| c.0).unwrap_or("");
    span.in_scope(|| {
        if status.is_server_error() {
            tracing::warn!(status = status.as_u16(), code, ms, "request failed");
        } else {
            tracing::debug!(status = status.as_u16(), code, ms, "request");
        }
    });
    res
}

/// Who may read `/metrics`.
#[derive(Clone, Default, PartialEq, Eq)]
pub enum MetricsAccess {
    /// `/metrics` is 404 (the default).
    #[default]
    Off,
    /// Anyone who can reach the port (bind it to a private address).
    Open,
    /// `Authorization: Bearer <token>`.
    Token(String),
}

impl std::fmt::Debug for MetricsAccess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MetricsAccess::Off => f.write_str("Off"),
            MetricsAccess::Open => f.write_str("Open"),
            MetricsAccess::Token(_) => f.write_str("Token(<redacted>)"),
        }
    }
}

/// `GET /metrics`.
pub async fn endpoint(State(state): State<AppState>, req: Request) -> Response {
    match &state.config.metrics {
        MetricsAccess::Off => return ApiError::Domain(DomainError::NotFound).into_response(),
        MetricsAccess::Open => {}
        MetricsAccess::Token(expected) => {
            let (parts, _) = req.into_parts();
            let given = extract::bearer(&parts).unwrap_or("");
            if !bool::from(given.as_bytes().ct_eq(expected.as_bytes())) {
                return ApiError::Domain(DomainError::Unauthorized).into_response();
            }
        }
    }
    match state.metrics.render(&state.domain.db, state.domain.writer.as_deref()).await {
        Ok(text) => (StatusCode::OK, [(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"))], text)
            .into_response(),
        Err(e) => ApiError::Domain(DomainError::Database(e)).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_puts_each_duration_in_its_first_fitting_bucket() {
        let h = Histogram::default();
        h.observe(Duration::from_micros(900));
        h.observe(Duration::from_millis(3));
        h.observe(Duration::from_secs(60));
        assert_eq!(h.buckets[0].load(Ordering::Relaxed), 1);
        assert_eq!(h.buckets[2].load(Ordering::Relaxed), 1);
        assert_eq!(h.count.load(Ordering::Relaxed), 3);
        assert_eq!(h.buckets.iter().map(|b| b.load(Ordering::Relaxed)).sum::<u64>(), 2);
    }

    #[test]
    fn made_up_methods_share_one_label_and_add_no_series() {
        let m = Metrics::default();
        let route: Arc<str> = Arc::from("/api (unmatched)");
        m.record(route.clone(), method_label(&Method::GET), 404, Duration::from_millis(1), None);
        m.record(route.clone(), method_label(&Method::from_bytes(b"FIRST").unwrap()), 404, Duration::from_millis(1), None);
        let before = m.requests.read().unwrap().len();
        for i in 0..1000 {
            let method = Method::from_bytes(format!("M{i:04}{}", "X".repeat(i % 50)).as_bytes()).unwrap();
            m.record(route.clone(), method_label(&method), 404, Duration::from_millis(1), None);
        }
        assert_eq!(m.requests.read().unwrap().len(), before);
        assert_eq!(method_label(&Method::from_bytes(b"PROPFIND").unwrap()), "OTHER");
    }

    #[test]
    fn request_ids_are_unique_within_a_process() {
        let m = Metrics::default();
        let a = m.next_request_id();
        let b = m.next_request_id();
        assert_ne!(a, b);
        assert!(a.len() >= 10);
    }
}
