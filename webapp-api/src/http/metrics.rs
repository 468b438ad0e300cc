//! Request ids, the access log and the Prometheus exposition served at `GET /metrics` (the text
//! format 0.0.4, written by `prometheus-client`).
//!
//! HTTP figures (requests by route, method and status; latency; error codes) are counted in
//! memory as responses leave. Money and game figures (opens, tokens credited and debited, Stars
//! received) are read from the database at scrape time, incrementally past the last row seen,
//! so they count what was committed, by anyone (API, bot or CLI), and cost O(new rows).
//!
//! Names, types, help texts and labels are what dashboards and alerts read: they do not change
//! (`bot/tests/it/abuse.rs` holds the list).
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderValue, Method};
use axum::response::Response;
use prometheus_client::encoding::{prometheus_text, EncodeLabelSet, EncodeLabelValue, LabelValueEncoder};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use tracing::Instrument;

use crate::domain::delivery::meter::Call;
use crate::domain::figures;
use crate::domain::store::writer::StatsSnapshot;
use crate::domain::{Domain, DomainResult};
use crate::http::error::ErrorCode;
use crate::http::health::BotHealth;

/// Upper bounds of the latency histogram, in seconds.
const BUCKETS: [f64; 13] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

fn latency_histogram() -> Histogram {
    Histogram::new(BUCKETS)
}

/// A route pattern as a label value: shared, so counting a request clones a pointer, not the text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Route(Arc<str>);

impl EncodeLabelValue for Route {
    fn encode(&self, encoder: &mut LabelValueEncoder) -> std::fmt::Result {
        encoder.write_str(&self.0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, EncodeLabelSet)]
struct RequestLabels {
    route: Route,
    method: &'static str,
    status: u16,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, EncodeLabelSet)]
struct RouteLabels {
    route: Route,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, EncodeLabelSet)]
struct ErrorLabels {
    code: &'static str,
}

#[derive(Clone, Copy, Default)]
struct DbTotals {
    ledger_cursor: i64,
    credited: i64,
    debited: i64,
    opens_cursor: i64,
    opens: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, EncodeLabelSet)]
struct CallLabels {
    call: &'static str,
}

/// The delivery worker's figures, where it runs.
struct MarketFigures {
    /// (call, calls, failures)
    calls: Vec<(&'static str, u64, u64)>,
    /// What the market charged in total, and what counts against today's budget (US cents).
    paid_cents: i64,
    today_cents: i64,
}

/// What a scrape reads outside the in-memory counters.
struct Scraped {
    totals: DbTotals,
    stars: i64,
    paid: i64,
    writer: Option<StatsSnapshot>,
    /// Current and peak resident memory, where the system tells.
    memory: Option<(u64, u64)>,
    market: Option<MarketFigures>,
}

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

/// Counters of one process. Cheap to share: every update is an atomic add under a read lock
/// (a family takes its write lock only the first time it sees a label set).
pub struct Metrics {
    started: Instant,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabels, Histogram, fn() -> Histogram>,
    errors: Family<ErrorLabels, Counter>,
    bot_updates: Counter,
    /// The bot's link to Telegram (`fragbox_bot_up`, `/readyz`).
    pub bot: BotHealth,
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
            requests: Family::default(),
            latency: Family::new_with_constructor(latency_histogram),
            errors: Family::default(),
            bot_updates: Counter::default(),
            bot: BotHealth::default(),
            db: tokio::sync::Mutex::default(),
            request_seq: AtomicU64::new(0),
            request_prefix: u32::from_be_bytes(prefix),
        }
    }
}

impl Metrics {
    /// One Telegram update went through the dispatcher.
    pub fn bot_update(&self) {
        self.bot_updates.inc();
    }

    fn record(&self, route: Arc<str>, method: &'static str, status: u16, elapsed: Duration, error: Option<ErrorCode>) {
        let route = Route(route);
        self.latency.get_or_create(&RouteLabels { route: route.clone() }).observe(elapsed.as_secs_f64());
        self.requests.get_or_create(&RequestLabels { route, method, status }).inc();
        if let Some(ErrorCode(code)) = error {
            self.errors.get_or_create(&ErrorLabels { code }).inc();
        }
    }

    fn next_request_id(&self) -> String {
        format!("{:08x}-{:x}", self.request_prefix, self.request_seq.fetch_add(1, Ordering::Relaxed))
    }

    /// The Prometheus text exposition.
    pub async fn render(&self, domain: &Domain) -> DomainResult<String> {
        let totals = self.db_totals(domain).await?;
        let (stars, paid) = figures::stars_received(domain).await?;
        let writer = domain.writer.as_deref().map(|w| w.stats());
        let market = if domain.delivery.is_enabled() {
            let (spent, today) = figures::market_spend(domain, domain.now()).await?;
            let calls = Call::ALL.iter().map(|c| (c.name(), domain.delivery.figures(*c).0, domain.delivery.figures(*c).1)).collect();
            Some(MarketFigures { calls, paid_cents: spent.cents(), today_cents: today.cents() })
        } else {
            None
        };
        Ok(self.encode(&Scraped { totals, stars, paid, writer, memory: memory(), market }))
    }

    /// Every family, in the order of the exposition. A registry per scrape: the in-memory
    /// families are registered by handle (their counts live on), the scraped figures as
    /// constants; a scrape every few seconds makes the few allocations nothing.
    fn registry(&self, s: &Scraped) -> Registry {
        // prometheus-client ends each help text with the full stop itself.
        let mut r = Registry::default();
        r.register("fragbox_http_requests", "HTTP requests answered, by route, method and status", self.requests.clone());
        r.register("fragbox_http_request_duration_seconds", "Time to answer, by route", self.latency.clone());
        r.register("fragbox_errors", "Error responses, by error code", self.errors.clone());
        r.register("fragbox_case_opens", "Cases opened (committed)", ConstCounter::new(nonnegative(s.totals.opens)));
        r.register(
            "fragbox_tokens_credited",
            "Tokens credited to players (ledger entries > 0)",
            ConstCounter::new(tokens(s.totals.credited)),
        );
        r.register(
            "fragbox_tokens_debited",
            "Tokens debited from players (ledger entries < 0)",
            ConstCounter::new(tokens(s.totals.debited)),
        );
        r.register("fragbox_stars_received", "Telegram Stars received in successful payments", ConstCounter::new(nonnegative(s.stars)));
        r.register("fragbox_payments", "Successful Stars payments", ConstCounter::new(nonnegative(s.paid)));
        r.register("fragbox_bot_updates", "Telegram updates handled by the dispatcher", self.bot_updates.clone());
        r.register("fragbox_uptime_seconds", "Seconds since the process started", ConstGauge::new(self.started.elapsed().as_secs()));
        r.register(
            "fragbox_bot_up",
            "1 while the bot reaches Telegram (0 when it does not, or in demo mode)",
            ConstGauge::new(u32::from(self.bot.is_up())),
        );
        if let Some(w) = s.writer {
            r.register("fragbox_sqlite_writer_requests", "Writes handed to the SQLite writer thread", ConstCounter::new(w.requests));
            r.register(
                "fragbox_sqlite_writer_batches",
                "Transactions the SQLite writer ran (group commit: several writes each)",
                ConstCounter::new(w.batches),
            );
            r.register(
                "fragbox_sqlite_writer_committed",
                "Writes whose SQLite writer transaction committed",
                ConstCounter::new(w.committed),
            );
            r.register(
                "fragbox_sqlite_checkpoint_turns",
                "Times the checkpoint held the SQLite write turn so the WAL could start over",
                ConstCounter::new(w.checkpoint_turns),
            );
            r.register(
                "fragbox_sqlite_checkpoint_turn_seconds",
                "Time the checkpoint held the SQLite write turn (writes waited meanwhile)",
                ConstCounter::new(w.checkpoint_turn_micros as f64 / 1e6),
            );
        }
        if let Some(m) = &s.market {
            let calls = Family::<CallLabels, Counter>::default();
            let failures = Family::<CallLabels, Counter>::default();
            for (call, n, failed) in &m.calls {
                calls.get_or_create(&CallLabels { call }).inc_by(*n);
                failures.get_or_create(&CallLabels { call }).inc_by(*failed);
            }
            r.register("fragbox_market_calls", "Calls this process made to the P2P market, by call", calls);
            r.register("fragbox_market_failures", "Market calls that bought nothing or had no usable answer, by call", failures);
            r.register(
                "fragbox_market_spend_usd",
                "US dollars the market charged for withdrawals",
                ConstCounter::new(m.paid_cents as f64 / 100.0),
            );
            r.register(
                "fragbox_market_spent_today_usd",
                "US dollars counted against today's market budget (UTC day)",
                ConstGauge::new(m.today_cents as f64 / 100.0),
            );
        }
        if let Some((rss, hwm)) = s.memory {
            r.register("fragbox_resident_memory_bytes", "Resident set size", ConstGauge::new(rss));
            r.register("fragbox_resident_memory_peak_bytes", "Peak resident set size", ConstGauge::new(hwm));
        }
        r
    }

    fn encode(&self, scraped: &Scraped) -> String {
        let mut out = String::with_capacity(8 * 1024);
        // Writing to a String cannot fail.
        let _ = prometheus_text::encode(&mut out, &self.registry(scraped));
        out
    }

    async fn db_totals(&self, domain: &Domain) -> DomainResult<DbTotals> {
        let mut t = self.db.lock().await;
        let (credited, debited, cursor) = figures::ledger_since(domain, t.ledger_cursor).await?;
        let (opens, opens_cursor) = figures::opens_since(domain, t.opens_cursor).await?;
        t.credited += credited;
        t.debited += debited;
        t.ledger_cursor = cursor;
        t.opens += opens;
        t.opens_cursor = opens_cursor;
        Ok(*t)
    }
}

/// Tokens are counted in hundredths; the exposition shows whole tokens.
fn tokens(hundredths: i64) -> f64 {
    hundredths as f64 / 100.0
}

/// A count from the database as a counter value (a sum or count of rows is never negative).
fn nonnegative(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
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
pub async fn observe<F, Fut>(metrics: &Metrics, req: Request, inner: F) -> Response
where
    F: FnOnce(Request) -> Fut,
    Fut: std::future::Future<Output = Response>,
{
    let start = Instant::now();
    let id = incoming_request_id(&req).unwrap_or_else(|| metrics.next_request_id());
    let route = route_label(&req);
    let method = method_label(req.method());
    let span = tracing::info_span!("request", id = %id, method = method, route = %route);
    let mut res = inner(req).instrument(span.clone()).await;
    let elapsed = start.elapsed();
    let status = res.status();
    let code = res.extensions().get::<ErrorCode>().copied();
    metrics.record(route, method, status.as_u16(), elapsed, code);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn scraped() -> Scraped {
        Scraped {
            totals: DbTotals { credited: 20_050, debited: 1_200, opens: 3, ..DbTotals::default() },
            stars: 150,
            paid: 2,
            writer: Some(StatsSnapshot { requests: 7, batches: 4, committed: 6, checkpoint_turns: 3, checkpoint_turn_micros: 12_500 }),
            memory: Some((1024, 2048)),
            market: None,
        }
    }

    #[test]
    fn the_exposition_keeps_each_familys_name_type_help_and_labels() {
        let m = Metrics::default();
        let route: Arc<str> = Arc::from("/api/v1/cases/{id}/open");
        m.record(route.clone(), "POST", 200, Duration::from_millis(250), None);
        m.record(route, "POST", 409, Duration::from_millis(500), Some(ErrorCode("insufficient_tokens")));
        m.bot_update();

        let text = m.encode(&scraped());

        for block in [
            "# HELP fragbox_http_requests_total HTTP requests answered, by route, method and status.\n\
             # TYPE fragbox_http_requests_total counter\n",
            "fragbox_http_requests_total{route=\"/api/v1/cases/{id}/open\",method=\"POST\",status=\"200\"} 1\n",
            "fragbox_http_requests_total{route=\"/api/v1/cases/{id}/open\",method=\"POST\",status=\"409\"} 1\n",
            "# HELP fragbox_http_request_duration_seconds Time to answer, by route.\n\
             # TYPE fragbox_http_request_duration_seconds histogram\n\
             fragbox_http_request_duration_seconds_bucket{route=\"/api/v1/cases/{id}/open\",le=\"0.001\"} 0\n\
             fragbox_http_request_duration_seconds_bucket{route=\"/api/v1/cases/{id}/open\",le=\"0.0025\"} 0\n\
             fragbox_http_request_duration_seconds_bucket{route=\"/api/v1/cases/{id}/open\",le=\"0.005\"} 0\n",
            "fragbox_http_request_duration_seconds_bucket{route=\"/api/v1/cases/{id}/open\",le=\"0.1\"} 0\n\
             fragbox_http_request_duration_seconds_bucket{route=\"/api/v1/cases/{id}/open\",le=\"0.25\"} 1\n\
             fragbox_http_request_duration_seconds_bucket{route=\"/api/v1/cases/{id}/open\",le=\"0.5\"} 2\n",
            "fragbox_http_request_duration_seconds_bucket{route=\"/api/v1/cases/{id}/open\",le=\"10\"} 2\n\
             fragbox_http_request_duration_seconds_bucket{route=\"/api/v1/cases/{id}/open\",le=\"+Inf\"} 2\n\
             fragbox_http_request_duration_seconds_sum{route=\"/api/v1/cases/{id}/open\"} 0.75\n\
             fragbox_http_request_duration_seconds_count{route=\"/api/v1/cases/{id}/open\"} 2\n",
            "# HELP fragbox_errors_total Error responses, by error code.\n\
             # TYPE fragbox_errors_total counter\n\
             fragbox_errors_total{code=\"insufficient_tokens\"} 1\n",
            "# HELP fragbox_case_opens_total Cases opened (committed).\n# TYPE fragbox_case_opens_total counter\nfragbox_case_opens_total 3\n",
            "# HELP fragbox_tokens_credited_total Tokens credited to players (ledger entries > 0).\n\
             # TYPE fragbox_tokens_credited_total counter\nfragbox_tokens_credited_total 200.5\n",
            "# HELP fragbox_tokens_debited_total Tokens debited from players (ledger entries < 0).\n\
             # TYPE fragbox_tokens_debited_total counter\nfragbox_tokens_debited_total 12.0\n",
            "# HELP fragbox_stars_received_total Telegram Stars received in successful payments.\n\
             # TYPE fragbox_stars_received_total counter\nfragbox_stars_received_total 150\n",
            "# HELP fragbox_payments_total Successful Stars payments.\n# TYPE fragbox_payments_total counter\nfragbox_payments_total 2\n",
            "# HELP fragbox_bot_updates_total Telegram updates handled by the dispatcher.\n\
             # TYPE fragbox_bot_updates_total counter\nfragbox_bot_updates_total 1\n",
            "# HELP fragbox_uptime_seconds Seconds since the process started.\n# TYPE fragbox_uptime_seconds gauge\nfragbox_uptime_seconds ",
            "# HELP fragbox_bot_up 1 while the bot reaches Telegram (0 when it does not, or in demo mode).\n\
             # TYPE fragbox_bot_up gauge\nfragbox_bot_up 0\n",
            "# HELP fragbox_sqlite_writer_requests_total Writes handed to the SQLite writer thread.\n\
             # TYPE fragbox_sqlite_writer_requests_total counter\nfragbox_sqlite_writer_requests_total 7\n",
            "# HELP fragbox_sqlite_writer_batches_total Transactions the SQLite writer ran (group commit: several writes each).\n\
             # TYPE fragbox_sqlite_writer_batches_total counter\nfragbox_sqlite_writer_batches_total 4\n",
            "# HELP fragbox_sqlite_writer_committed_total Writes whose SQLite writer transaction committed.\n\
             # TYPE fragbox_sqlite_writer_committed_total counter\nfragbox_sqlite_writer_committed_total 6\n",
            "# HELP fragbox_sqlite_checkpoint_turns_total Times the checkpoint held the SQLite write turn so the WAL could start over.\n\
             # TYPE fragbox_sqlite_checkpoint_turns_total counter\nfragbox_sqlite_checkpoint_turns_total 3\n",
            "# HELP fragbox_sqlite_checkpoint_turn_seconds_total Time the checkpoint held the SQLite write turn (writes waited meanwhile).\n\
             # TYPE fragbox_sqlite_checkpoint_turn_seconds_total counter\nfragbox_sqlite_checkpoint_turn_seconds_total 0.0125\n",
            "# HELP fragbox_resident_memory_bytes Resident set size.\n# TYPE fragbox_resident_memory_bytes gauge\nfragbox_resident_memory_bytes 1024\n",
            "# HELP fragbox_resident_memory_peak_bytes Peak resident set size.\n\
             # TYPE fragbox_resident_memory_peak_bytes gauge\nfragbox_resident_memory_peak_bytes 2048\n",
        ] {
            assert!(text.contains(block), "missing:\n{block}\nin:\n{text}");
        }
        assert_eq!(text.lines().filter(|l| l.starts_with("# TYPE ")).count(), 18, "{text}");
    }

    #[test]
    fn without_a_writer_thread_its_families_are_left_out() {
        let m = Metrics::default();
        let text = m.encode(&Scraped { writer: None, ..scraped() });
        assert!(!text.contains("fragbox_sqlite_writer") && !text.contains("fragbox_sqlite_checkpoint"), "{text}");
        assert!(text.contains("fragbox_case_opens_total 3\n"), "{text}");
    }

    #[test]
    fn made_up_methods_share_one_label_and_add_no_series() {
        let m = Metrics::default();
        let route: Arc<str> = Arc::from("/api (unmatched)");
        m.record(route.clone(), method_label(&Method::GET), 404, Duration::from_millis(1), None);
        m.record(route.clone(), method_label(&Method::from_bytes(b"FIRST").unwrap()), 404, Duration::from_millis(1), None);
        let series = |m: &Metrics| m.encode(&scraped()).lines().filter(|l| l.starts_with("fragbox_http_requests_total{")).count();
        let before = series(&m);
        for i in 0..1000 {
            let method = Method::from_bytes(format!("M{i:04}{}", "X".repeat(i % 50)).as_bytes()).unwrap();
            m.record(route.clone(), method_label(&method), 404, Duration::from_millis(1), None);
        }
        assert_eq!(series(&m), before);
        assert_eq!(before, 2);
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
