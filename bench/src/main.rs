//! `fragbox-bench`: the load benchmark of docs/performance.md and docs/scaling.md. Not a test.
//!
//! Starts the real `fragbox` binary (the one next to this one) in demo mode on a fresh database
//! (an SQLite file, or a new PostgreSQL database with `--store postgres`), as `--replicas N`
//! processes on that database (PostgreSQL only) with the load spread over them as a proxy would,
//! signs in users, grants them tokens with `fragbox grant`, then drives:
//!   (a) case opens from many concurrent connections (closed loop: the maximum rate);
//!   (b) a player mix: 70 % reads (cases, items, me), 20 % opens, 10 % sells;
//!   (c) `GET /cases`;
//!   (d) opens at a fixed offered rate, half of (a)'s, latency measured from each request's
//!       scheduled start (an open loop, so queueing behind a slow request counts against us),
//!       sent from as many connections as the closed loops use;
//! (b) and (d) use a second set of players, so their figures do not depend on how many items (a)
//! left in its players' inventories;
//! prints rate, p50/p99/max and errors for each, the server's peak RSS, then `fragbox audit`.
//! In the same run, before the server starts, the raw bound: the domain's own open
//! (`domain::cases::Open::run`, imported, so its statements can never drift from the server's),
//! no HTTP, JSON or auth —
//!   SQLite: on the writer thread's kind of connection (rusqlite, cached statements), driven
//!   synchronously with no async runtime, one open per transaction and 32 per transaction;
//!   PostgreSQL: through sqlx on as many connections as the replicas' pools hold, one player per
//!   connection, each open locking its player's row as the domain does.
//!
//! With `--sessions N` it measures sign-ins instead: sign-ins per second (closed loop, players
//! already at their session cap, so each sign-in also ends one) with 10 000 live sessions and
//! with N, filled by real sign-ins of players holding 10 sessions each (SQLite).
//!
//! With `--feed N` it measures the live drop feed instead (`feed_bench`): N open
//! `GET /api/v1/feed` connections, `--opens M` opens (default 50) fired one every `--every MS`
//! milliseconds (default 100: drops arrive one at a time, as players open them), each
//! drop's delivery latency to every connection (from the moment its open was sent) and the
//! server's peak RSS. The N connections are one player's: the server's stream bounds
//! (`FEED_STREAMS_PER_PLAYER`, `FEED_STREAMS_PER_IP`) are raised to N unless set.
//!
//! Usage: fragbox-bench [--store sqlite|postgres] [--replicas N] [--postgres-url URL] [--pool N]
//!                      [--duration SECS] [--conns N] [--users N] [--sessions N] [--fragbox PATH]
//!                      [--only cases|mixed] [--feed N [--opens M] [--every MS]]
//! `--postgres-url`: a server where the user may CREATE DATABASE (scripts/bench.sh starts one).
//! Run from the repository root (it reads data/catalog), release build: scripts/bench.sh.
use std::future::Future;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use webapp_api::domain::cases::{Count, Open};
use webapp_api::domain::catalog::Catalog;
use webapp_api::domain::clock::OsRandom;
use webapp_api::domain::lang::Lang;
use webapp_api::domain::store;
use webapp_api::domain::store::exec::complete_now;
use webapp_api::domain::store::writer::{self, SqliteExec};

type Res<T> = Result<T, String>;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Store {
    Sqlite,
    Postgres,
}

struct Args {
    duration: Duration,
    conns: usize,
    users: usize,
    sessions: Option<usize>,
    fragbox: PathBuf,
    store: Store,
    replicas: usize,
    postgres_url: Option<String>,
    /// Connections in each replica's pool (`DB_MAX_CONNECTIONS`; the app's default when unset).
    pool: Option<u32>,
    /// `--only cases` / `--only mixed`: only (c) or (b), no raw bound (to profile one workload).
    only: Option<Workload>,
    /// `--feed N`: N open feed connections instead of the workloads.
    feed: Option<usize>,
    /// Opens fired while the feed connections listen (`--opens`).
    feed_opens: usize,
    /// Between two opens of the feed benchmark (`--every`, milliseconds).
    feed_every: Duration,
}

fn args() -> Res<Args> {
    let mut a = Args {
        duration: Duration::from_secs(10),
        conns: 64,
        users: 64,
        sessions: None,
        fragbox: std::env::current_exe().map_err(|e| e.to_string())?.with_file_name("fragbox"),
        store: Store::Sqlite,
        replicas: 1,
        postgres_url: std::env::var("FRAGBOX_BENCH_POSTGRES_URL").ok(),
        pool: None,
        only: None,
        feed: None,
        feed_opens: 50,
        feed_every: Duration::from_millis(100),
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let v = argv.get(i + 1).cloned().ok_or_else(|| format!("{} needs a value", argv[i]))?;
        match argv[i].as_str() {
            "--duration" => a.duration = Duration::from_secs(v.parse().map_err(|_| "--duration: seconds")?),
            "--conns" => a.conns = v.parse().map_err(|_| "--conns: a number")?,
            "--users" => a.users = v.parse().map_err(|_| "--users: a number")?,
            "--sessions" => a.sessions = Some(v.parse().map_err(|_| "--sessions: a number")?),
            "--fragbox" => a.fragbox = v.into(),
            "--store" => {
                a.store = match v.as_str() {
                    "sqlite" => Store::Sqlite,
                    "postgres" | "postgresql" => Store::Postgres,
                    _ => return Err("--store: sqlite or postgres".into()),
                }
            }
            "--replicas" => a.replicas = v.parse().ok().filter(|n| *n >= 1).ok_or("--replicas: a number >= 1")?,
            "--postgres-url" => a.postgres_url = Some(v),
            "--pool" => a.pool = Some(v.parse().map_err(|_| "--pool: a number")?),
            "--only" if v == "cases" => a.only = Some(Workload::Cases),
            "--only" if v == "mixed" => a.only = Some(Workload::Mixed),
            "--feed" => a.feed = Some(v.parse().map_err(|_| "--feed: a number of connections")?),
            "--every" => a.feed_every = Duration::from_millis(v.parse().ok().filter(|n| *n >= 1).ok_or("--every: milliseconds >= 1")?),
            "--opens" => a.feed_opens = v.parse().ok().filter(|n| *n >= 1).ok_or("--opens: a number >= 1")?,
            other => return Err(format!("unknown argument {other}")),
        }
        i += 2;
    }
    if a.store == Store::Sqlite && a.replicas > 1 {
        return Err("several replicas share one database only on PostgreSQL: --store postgres".into());
    }
    if a.store == Store::Postgres && a.postgres_url.is_none() {
        return Err("--store postgres needs --postgres-url (or FRAGBOX_BENCH_POSTGRES_URL); scripts/bench.sh starts a server".into());
    }
    Ok(a)
}

/// Latencies in microseconds, and failures.
#[derive(Default)]
struct Sample {
    lat: Vec<u32>,
    /// What each latency of `lat` was (an index of [`KINDS`]).
    kinds: Vec<u8>,
    errors: u64,
    first_error: Option<String>,
}

impl Sample {
    fn merge(&mut self, o: Sample) {
        self.lat.extend(o.lat);
        self.kinds.extend(o.kinds);
        self.errors += o.errors;
        if self.first_error.is_none() {
            self.first_error = o.first_error;
        }
    }
    fn ok(&mut self, d: Duration) {
        self.ok_as(0, d)
    }
    fn ok_as(&mut self, kind: u8, d: Duration) {
        self.lat.push(d.as_micros().min(u128::from(u32::MAX)) as u32);
        self.kinds.push(kind);
    }
    fn err(&mut self, e: String) {
        self.errors += 1;
        if self.first_error.is_none() {
            self.first_error = Some(e);
        }
    }
}

struct Report {
    rps: f64,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
}

/// The requests a player connection sends, by the index `PlayerConn` gives them.
const KINDS: [&str; 5] = ["POST open", "GET /cases", "GET /user/items", "GET /me", "POST sell"];

/// p50/p99 of each kind of request in a mixed sample, so a slow tail can be put on its kind.
fn report_kinds(s: &Sample) {
    for (k, name) in KINDS.iter().enumerate() {
        let mut lat: Vec<u32> = s.lat.iter().zip(&s.kinds).filter(|(_, kind)| usize::from(**kind) == k).map(|(l, _)| *l).collect();
        if lat.is_empty() {
            continue;
        }
        lat.sort_unstable();
        let pct = |p: f64| f64::from(lat[((lat.len() as f64 * p) as usize).min(lat.len() - 1)]) / 1000.0;
        println!("  {name:<20} {:>7} req   p50 {:>7.2} ms   p99 {:>7.2} ms   max {:>8.2} ms", lat.len(), pct(0.5), pct(0.99), pct(1.0));
    }
}

fn report(name: &str, mut s: Sample, elapsed: Duration) -> Report {
    let kinds = s.kinds.iter().any(|k| *k != s.kinds[0]);
    let by_kind = kinds.then(|| Sample { lat: s.lat.clone(), kinds: s.kinds.clone(), ..Sample::default() });
    s.lat.sort_unstable();
    let n = s.lat.len();
    let pct = |p: f64| if n == 0 { 0.0 } else { f64::from(s.lat[((n as f64 * p) as usize).min(n - 1)]) / 1000.0 };
    let r = Report { rps: n as f64 / elapsed.as_secs_f64(), p50_ms: pct(0.50), p99_ms: pct(0.99), max_ms: pct(1.0) };
    println!(
        "{name:<34} {:>9.0} req/s   p50 {:>7.2} ms   p99 {:>7.2} ms   max {:>8.2} ms   ok {n}   errors {}{}",
        r.rps,
        r.p50_ms,
        r.p99_ms,
        r.max_ms,
        s.errors,
        s.first_error.map(|e| format!(" (first: {e})")).unwrap_or_default()
    );
    if let Some(s) = by_kind {
        report_kinds(&s);
    }
    r
}

struct Server {
    child: Child,
    base: String,
    env: Vec<(String, String)>,
    fragbox: PathBuf,
}

impl Server {
    fn start(fragbox: &Path, dir: &Path, db_url: &str, pool: Option<u32>) -> Res<Server> {
        let mut env: Vec<(String, String)> = vec![
            ("BIND_ADDR".into(), "127.0.0.1:0".into()),
            ("DATABASE_URL".into(), db_url.into()),
            ("WEBAPP_DIST".into(), dir.join("dist").display().to_string()),
            ("RATE_LIMITS".into(), "off".into()),
            ("METRICS_ENABLED".into(), "true".into()),
            ("RUST_LOG".into(), "warn".into()),
        ];
        if let Some(n) = pool {
            env.push(("DB_MAX_CONNECTIONS".into(), n.to_string()));
        }
        let mut child = Command::new(fragbox)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .env_remove("TELEGRAM_BOT_TOKEN")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("{}: {e} (build it: cargo build --release)", fragbox.display()))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut lines = BufReader::new(stdout).lines();
        let base = loop {
            let line = lines.next().ok_or("fragbox exited before listening")?.map_err(|e| e.to_string())?;
            if let Some(url) = line.strip_prefix("FragBox is running at ") {
                break url.trim().to_owned();
            }
        };
        std::thread::spawn(move || for _ in lines {});
        Ok(Server { child, base, env, fragbox: fragbox.to_owned() })
    }

    fn cli(&self, args: &[&str]) -> Res<(bool, String)> {
        let out = Command::new(&self.fragbox)
            .args(args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env_remove("TELEGRAM_BOT_TOKEN")
            .output()
            .map_err(|e| e.to_string())?;
        Ok((out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))))
    }

    fn peak_rss_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line["VmHWM:".len()..].trim().trim_end_matches("kB").trim().parse().ok()
    }

    fn stop(mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    /// A failed run never leaves the server behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Clone)]
struct User {
    id: i64,
    token: String,
}

async fn json_call(req: reqwest::RequestBuilder) -> Res<Value> {
    let res = req.send().await.map_err(|e| e.to_string())?;
    let status = res.status();
    let body = res.bytes().await.map_err(|e| e.to_string())?;
    if !status.is_success() {
        return Err(format!("{status}: {}", String::from_utf8_lossy(&body[..body.len().min(200)])));
    }
    serde_json::from_slice(&body).map_err(|e| e.to_string())
}

async fn bytes_call(req: reqwest::RequestBuilder) -> Res<()> {
    let res = req.send().await.map_err(|e| e.to_string())?;
    let status = res.status();
    let body = res.bytes().await.map_err(|e| e.to_string())?;
    if !status.is_success() || body.is_empty() {
        return Err(format!("{status}"));
    }
    Ok(())
}

/// The load's client. It asks for no compression: decompressing on the same 2 cores would
/// measure the client, not the server.
fn client() -> reqwest::Client {
    reqwest::Client::builder().pool_max_idle_per_host(1024).tcp_nodelay(true).no_brotli().build().unwrap_or_default()
}

/// A small deterministic generator for the mix (no dependency).
struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Workload {
    Open,
    Mixed,
    Cases,
}

/// One connection of a closed loop.
trait Conn: Send + 'static {
    /// The connection's next request. What runs before the future is made (picking the request)
    /// is not timed; the future is.
    fn request(&mut self) -> impl Future<Output = Res<()>> + Send + '_;
    /// What the last request was (an index of [`KINDS`]).
    fn kind(&self) -> u8 {
        0
    }
}

/// A closed loop: `conns` connections (connection `c` made by `conn(c)`), each sending its next
/// request as soon as the last one answered, for `duration`; every request timed.
async fn closed<C: Conn>(conns: usize, duration: Duration, mut conn: impl FnMut(usize) -> C) -> (Sample, Duration) {
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    let start = Instant::now();
    for c in 0..conns {
        let (stop, mut conn) = (stop.clone(), conn(c));
        tasks.push(tokio::spawn(async move {
            let mut s = Sample::default();
            while !stop.load(Ordering::Relaxed) {
                let request = conn.request();
                let t = Instant::now();
                match request.await {
                    Ok(()) => s.ok_as(conn.kind(), t.elapsed()),
                    Err(e) => s.err(e),
                }
            }
            s
        }));
    }
    tokio::time::sleep(duration).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Sample::default();
    for t in tasks {
        if let Ok(s) = t.await {
            all.merge(s);
        }
    }
    (all, start.elapsed())
}

/// A connection of (a), (b) or (c).
struct PlayerConn {
    http: reqwest::Client,
    seq: Arc<AtomicU64>,
    c: usize,
    run: u64,
    w: Workload,
    user: User,
    base: String,
    open_url: String,
    rng: XorShift,
    items: Vec<i64>,
    last: u8,
}

impl Conn for PlayerConn {
    fn kind(&self) -> u8 {
        self.last
    }

    fn request(&mut self) -> impl Future<Output = Res<()>> + Send + '_ {
        let n = self.seq.fetch_add(1, Ordering::Relaxed);
        let kind = match self.w {
            Workload::Open => 0,
            Workload::Cases => 1,
            Workload::Mixed => match self.rng.next() % 100 {
                0..=69 => 1 + (self.rng.next() % 3) as u8,
                70..=89 => 0,
                _ if self.items.is_empty() => 0,
                _ => 4,
            },
        };
        self.last = kind;
        let (c, run) = (self.c, self.run);
        let Self { http, user, base, open_url, items, .. } = self;
        async move {
            match kind {
                0 => {
                    let body = json!({ "requestId": format!("r{run}-{c}-{n}") });
                    json_call(http.post(&*open_url).bearer_auth(&user.token).json(&body)).await.map(|v| {
                        if let Some(id) = v["item"]["id"].as_i64() {
                            items.push(id);
                        }
                    })
                }
                // Reads are taken as bytes (a success status and a body): parsing the catalog's
                // 30 KB or an inventory of dozens of skins into JSON values here would measure
                // the load generator, not the server, on the 2 cores they share.
                1 => bytes_call(http.get(format!("{base}/api/v1/cases"))).await,
                2 => bytes_call(http.get(format!("{base}/api/v1/user/items")).bearer_auth(&user.token)).await,
                3 => bytes_call(http.get(format!("{base}/api/v1/me")).bearer_auth(&user.token)).await,
                _ => {
                    let item = items.pop().unwrap_or_default();
                    let url = format!("{base}/api/v1/sales/sell");
                    json_call(http.post(url).bearer_auth(&user.token).json(&json!({ "item_id": item }))).await.map(drop)
                }
            }
        }
    }
}

async fn closed_loop(
    bases: &[String],
    users: &[User],
    case: &str,
    conns: usize,
    duration: Duration,
    w: Workload,
    run: u64,
) -> (Sample, Duration) {
    let http = client();
    let seq = Arc::new(AtomicU64::new(0));
    closed(conns, duration, |c| {
        // Connection c talks to replica c mod N, as a proxy spreading connections would.
        let base = bases[c % bases.len()].clone();
        PlayerConn {
            http: http.clone(),
            seq: seq.clone(),
            c,
            run,
            w,
            user: users[c % users.len()].clone(),
            open_url: format!("{base}/api/v1/cases/{case}/open"),
            base,
            rng: XorShift(0x9E37_79B9_7F4A_7C15 ^ ((c as u64 + 1) * 0x1000_0001)),
            items: Vec::new(),
            last: 0,
        }
    })
    .await
}

/// The id of the cheapest case the server lists: the one every loop opens.
async fn cheapest_case(base: &str) -> Res<String> {
    let cases = json_call(client().get(format!("{base}/api/v1/cases"))).await?;
    Ok(cases["data"]
        .as_array()
        .and_then(|c| c.iter().min_by_key(|c| (c["tokens"].as_f64().unwrap_or(f64::MAX) * 100.0) as i64))
        .and_then(|c| c["id"].as_str())
        .ok_or("no cases")?
        .to_owned())
}

/// Opens at `rate` per second for `duration`, each timed from its scheduled start, sent from
/// `conns` connections: a request whose time has come waits for a free connection, and that wait
/// counts (no coordinated omission), but an overloaded server is not met with ever more
/// connections, as no real client pool would.
async fn open_loop(bases: &[String], users: &[User], case: &str, rate: f64, duration: Duration, conns: usize) -> (Sample, Duration) {
    let http = client();
    let total = (rate * duration.as_secs_f64()) as u64;
    let start = tokio::time::Instant::now();
    let next = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::with_capacity(conns);
    for _ in 0..conns {
        let (http, next, bases, users, case) = (http.clone(), next.clone(), bases.to_vec(), users.to_vec(), case.to_owned());
        tasks.push(tokio::spawn(async move {
            let mut s = Sample::default();
            let mut slow = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let due = start + Duration::from_secs_f64(i as f64 / rate);
                tokio::time::sleep_until(due).await;
                let sent = tokio::time::Instant::now();
                let user = &users[i as usize % users.len()];
                let url = format!("{}/api/v1/cases/{case}/open", bases[i as usize % bases.len()]);
                let body = json!({ "requestId": format!("ol-{i}") });
                match json_call(http.post(url).bearer_auth(&user.token).json(&body)).await {
                    Ok(_) => {
                        s.ok(due.elapsed());
                        if due.elapsed() >= SLOW {
                            slow.push(Slow { due: due - start, late: sent - due, answer: sent.elapsed() });
                        }
                    }
                    Err(e) => s.err(e),
                }
            }
            (s, slow)
        }));
    }
    let mut all = Sample::default();
    let mut slow = Vec::new();
    for t in tasks {
        match t.await {
            Ok((s, sl)) => {
                all.merge(s);
                slow.extend(sl);
            }
            Err(e) => all.err(e.to_string()),
        }
    }
    report_slow(&slow);
    (all, start.elapsed())
}

/// An open of the open loop that took [`SLOW`] or more from its scheduled start.
struct Slow {
    /// When it was due, from the loop's start.
    due: Duration,
    /// How long it waited for a free connection before it was sent.
    late: Duration,
    /// How long the server (and the network) took to answer it once sent.
    answer: Duration,
}

const SLOW: Duration = Duration::from_millis(50);

/// Where the open loop's slow requests sit in time, so a stall can be told from queueing: one
/// window of them (a stall) or spread over the run (queueing), and whether the server or the
/// wait for a connection made them slow.
fn report_slow(slow: &[Slow]) {
    if slow.is_empty() {
        return;
    }
    let first = slow.iter().map(|s| s.due).min().unwrap_or_default();
    let last = slow.iter().map(|s| s.due).max().unwrap_or_default();
    let late = slow.iter().map(|s| s.late).max().unwrap_or_default();
    let answer = slow.iter().map(|s| s.answer).max().unwrap_or_default();
    let mut seconds: Vec<u64> = slow.iter().map(|s| s.due.as_secs()).collect();
    seconds.sort_unstable();
    seconds.dedup();
    println!(
        "  {} opens took >= {} ms, due between {:.3} s and {:.3} s (in seconds {seconds:?}); longest wait for a connection {:.1} ms, longest answer once sent {:.1} ms",
        slow.len(),
        SLOW.as_millis(),
        first.as_secs_f64(),
        last.as_secs_f64(),
        late.as_secs_f64() * 1000.0,
        answer.as_secs_f64() * 1000.0,
    );
}

// The statements of one open, as `domain::cases::open` runs them (the same texts on both engines).
const BOUND_USER_BASE: i64 = 900_000_000_001;

/// A raw bound's result: opens done, the time they took, per-open latencies (µs).
struct Bound {
    opens: u64,
    elapsed: Duration,
    sample: Sample,
}

/// The catalog the server loads (run from the repository root) and its cheapest case, the one
/// every loop opens.
fn catalog_and_case() -> Res<(Arc<Catalog>, String)> {
    let catalog = Catalog::load(Path::new("data/catalog")).map_err(|e| format!("data/catalog: {e}"))?;
    let case = catalog.cases.iter().min_by_key(|c| c.price.0).map(|c| c.id.clone()).ok_or("no cases in data/catalog")?;
    Ok((Arc::new(catalog), case))
}

/// A player with tokens for any number of opens (a balance and its one ledger entry).
fn bound_player(user: i64, c: i64) -> String {
    format!(
        "INSERT INTO users(id, first_name, last_name, balance, ref_code, created_at, updated_at) VALUES ({user}, 'Base', 'Line', 100000000000, 'b{c:09}', 0, 0);
         INSERT INTO ledger_entries(user_id, amount, balance_after, reason, idempotency_key, created_at) VALUES ({user}, 100000000000, 100000000000, 'grant', 'bound-grant-{c}', 0);"
    )
}

/// One open of the domain's own code (`cases::Open`), as the server runs it.
fn bound_open(catalog: &Arc<Catalog>, case: &str, user: i64, n: u64) -> Open {
    Open {
        catalog: catalog.clone(),
        random: Arc::new(OsRandom),
        demo: false,
        user_id: user,
        case_id: case.to_owned(),
        request_id: Some(format!("base-{user}-{n}")),
        count: Count::ONE,
        now: 1_763_800_000 + n as i64,
        lang: Lang::En,
        paid_only: true,
        render: webapp_api::http::routes::cases::OpenedBody::render,
    }
}

/// SQLite's raw bound: the domain's open (`cases::Open::run`, its very statements and rules)
/// on one rusqlite connection with the app's pragmas (`store::writer::connect_file`), one
/// thread, no async runtime, no HTTP, JSON or auth; `per_tx` opens in each
/// `BEGIN IMMEDIATE … COMMIT`. Runs before the runtime starts.
fn sqlite_bound(dir: &Path, duration: Duration, per_tx: u64) -> Res<Bound> {
    let e = |e: rusqlite::Error| e.to_string();
    let (catalog, case) = catalog_and_case()?;
    let mut conn = writer::connect_file(&dir.join(format!("bound-{per_tx}.db")), Duration::from_secs(5)).map_err(e)?;
    for (_, sql) in store::migrations(store::Dialect::Sqlite) {
        conn.execute_batch(sql).map_err(e)?;
    }
    let user = BOUND_USER_BASE;
    conn.execute_batch(&bound_player(user, 0)).map_err(e)?;
    let mut sample = Sample::default();
    let start = Instant::now();
    let mut n: u64 = 0;
    while start.elapsed() < duration {
        let t = Instant::now();
        conn.execute_batch("BEGIN IMMEDIATE").map_err(e)?;
        for _ in 0..per_tx {
            let open = bound_open(&catalog, &case, user, n);
            let mut tx = SqliteExec::new(&mut conn);
            complete_now(Box::pin(open.run(&mut tx)))
                .ok_or("the open waited on something other than the store")?
                .map_err(|e| format!("open: {e}"))?;
            n += 1;
        }
        conn.execute_batch("COMMIT").map_err(e)?;
        sample.ok(t.elapsed());
    }
    Ok(Bound { opens: n, elapsed: start.elapsed(), sample })
}

/// PostgreSQL's raw bound: the domain's open (`cases::Open::run`) through sqlx on `conns`
/// connections at once, one player per connection, each open locking its player's row as the
/// domain does. No HTTP, JSON or auth.
async fn postgres_bound(db_url: &str, conns: usize, duration: Duration) -> Res<Bound> {
    let e = |e: sqlx::Error| e.to_string();
    let (catalog, case) = catalog_and_case()?;
    let pool = store::open_sized(db_url, Duration::from_secs(10), Some(conns as u32)).await.map_err(e)?;
    store::migrate(&pool).await.map_err(e)?;
    for c in 0..conns as i64 {
        sqlx::raw_sql(&bound_player(BOUND_USER_BASE + c, c)).execute(&pool).await.map_err(e)?;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..conns as i64 {
        let (pool, stop, catalog, case) = (pool.clone(), stop.clone(), catalog.clone(), case.clone());
        tasks.push(tokio::spawn(async move {
            let mut sample = Sample::default();
            let user = BOUND_USER_BASE + c;
            let mut n: u64 = 0;
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                let open = bound_open(&catalog, &case, user, n);
                let r = store::write(&pool, None, move |tx| Box::pin(open.run(tx))).await;
                match r {
                    Ok(_) => sample.ok(t.elapsed()),
                    Err(err) => sample.err(err.to_string()),
                }
                n += 1;
            }
            sample
        }));
    }
    tokio::time::sleep(duration).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Sample::default();
    for t in tasks {
        if let Ok(s) = t.await {
            all.merge(s);
        }
    }
    let elapsed = start.elapsed();
    pool.close().await;
    Ok(Bound { opens: all.lat.len() as u64, elapsed, sample: all })
}

async fn create_database(server: &str, name: &str) -> Res<String> {
    use sqlx::{Connection, Executor};
    let mut admin = sqlx::PgConnection::connect(server).await.map_err(|e| format!("--postgres-url: {e}"))?;
    admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await.map_err(|e| e.to_string())?;
    admin.execute(format!("CREATE DATABASE {name}").as_str()).await.map_err(|e| e.to_string())?;
    admin.close().await.map_err(|e| e.to_string())?;
    let mut url = url::Url::parse(server).map_err(|e| e.to_string())?;
    url.set_path(&format!("/{name}"));
    Ok(url.to_string())
}

async fn drop_database(server: &str, name: &str) {
    use sqlx::{Connection, Executor};
    if let Ok(mut admin) = sqlx::PgConnection::connect(server).await {
        let _ = admin.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await;
        let _ = admin.close().await;
    }
}

async fn sign_in_users(base: &str, n: usize) -> Res<Vec<User>> {
    let http = client();
    let mut users = Vec::with_capacity(n);
    for _ in 0..n {
        let d = json_call(http.get(format!("{base}/api/v1/dev/init-data"))).await?;
        let init = d["initData"].as_str().ok_or("no initData")?;
        let a = json_call(http.post(format!("{base}/api/v1/auth")).json(&json!({ "initData": init }))).await?;
        let token = a["token"].as_str().ok_or("no token")?.to_owned();
        let id = a["user"]["telegramId"].as_i64().ok_or("no telegramId")?;
        users.push(User { id, token });
    }
    Ok(users)
}

/// Sessions each filling player holds (the per-player cap).
const SESSIONS_PER_PLAYER: usize = 10;
const DEMO_ID_BASE: i64 = 900_000_000_000;

/// Signed init data for demo player `n`.
async fn demo_init(http: &reqwest::Client, base: &str, n: i64) -> Res<String> {
    let d = json_call(http.get(format!("{base}/api/v1/dev/init-data?demoId={}", DEMO_ID_BASE + n))).await?;
    Ok(d["initData"].as_str().ok_or("no initData")?.to_owned())
}

/// Signs players `from..to` in `SESSIONS_PER_PLAYER` times each, `conns` at a time.
async fn fill_sessions(base: &str, from: usize, to: usize, conns: usize) -> Res<()> {
    let http = client();
    let next = Arc::new(AtomicU64::new(from as u64));
    let mut tasks = Vec::new();
    for _ in 0..conns {
        let (http, next, base) = (http.clone(), next.clone(), base.to_owned());
        tasks.push(tokio::spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed) as usize;
                if n >= to {
                    return Ok::<(), String>(());
                }
                let init = demo_init(&http, &base, n as i64).await?;
                for _ in 0..SESSIONS_PER_PLAYER {
                    json_call(http.post(format!("{base}/api/v1/auth")).json(&json!({ "initData": init }))).await?;
                }
            }
        }));
    }
    for t in tasks {
        t.await.map_err(|e| e.to_string())??;
    }
    Ok(())
}

/// A sign-in connection: one player's sign-in, again and again.
struct SignInConn {
    http: reqwest::Client,
    url: String,
    body: Value,
}

impl Conn for SignInConn {
    async fn request(&mut self) -> Res<()> {
        json_call(self.http.post(&self.url).json(&self.body)).await.map(drop)
    }
}

/// Sign-ins per second from `conns` connections for `duration`, by players already at their cap.
async fn sign_in_loop(base: &str, inits: &[String], duration: Duration) -> (Sample, Duration) {
    let http = client();
    closed(inits.len(), duration, |c| SignInConn {
        http: http.clone(),
        url: format!("{base}/api/v1/auth"),
        body: json!({ "initData": inits[c] }),
    })
    .await
}

/// `--sessions N`: sign-in throughput at 10 000 and at N live sessions.
async fn run_sessions(a: &Args, target: usize, dir: &Path) -> Res<()> {
    std::fs::create_dir_all(dir.join("dist")).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("dist/index.html"), "<!doctype html><title>FragBox</title>").map_err(|e| e.to_string())?;
    let server = Server::start(&a.fragbox, dir, &format!("sqlite://{}", dir.join("bench.db").display()), a.pool)?;
    let base = server.base.clone();
    let http = client();
    // The measuring players sit past the filling ones and start at their cap.
    let measuring = a.conns;
    let first_measuring = target / SESSIONS_PER_PLAYER + 1;
    let mut inits = Vec::with_capacity(measuring);
    for i in 0..measuring {
        inits.push(demo_init(&http, &base, (first_measuring + i) as i64).await?);
    }
    fill_sessions(&base, first_measuring, first_measuring + measuring, a.conns.min(16)).await?;
    let low = 10_000usize.min(target);
    let mut filled = measuring * SESSIONS_PER_PLAYER;
    let mut rates = Vec::new();
    for live in [low, target] {
        let players = live.saturating_sub(filled) / SESSIONS_PER_PLAYER;
        let done = (filled - measuring * SESSIONS_PER_PLAYER) / SESSIONS_PER_PLAYER;
        let t = Instant::now();
        fill_sessions(&base, done, done + players, a.conns).await?;
        filled += players * SESSIONS_PER_PLAYER;
        println!("filled to {filled} live sessions in {:.0} s", t.elapsed().as_secs_f64());
        let (s, t) = sign_in_loop(&base, &inits, a.duration).await;
        rates.push(report(&format!("sign-in at {filled} sessions"), s, t).rps);
    }
    println!("{:<34} {:>9.2}  (target 0.80..1.25)", "sign-ins at high / at 10 000", rates[1] / rates[0]);
    match server.peak_rss_kb() {
        Some(kb) => println!("{:<34} {:>9.1} MB", "server peak RSS (VmHWM)", kb as f64 / 1024.0),
        None => println!("server peak RSS: unavailable"),
    }
    server.stop();
    Ok(())
}

async fn run(a: Args, dir: PathBuf, sqlite: Option<(Bound, Bound)>) -> Res<()> {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    if let Some(target) = a.sessions {
        println!("fragbox-bench --sessions {target}: {} s per measure, {} connections, {cores} cores", a.duration.as_secs(), a.conns);
        return run_sessions(&a, target, &dir).await;
    }
    if let Some(n) = a.feed {
        let db_url = match a.store {
            Store::Sqlite => format!("sqlite://{}", dir.join("bench.db").display()),
            Store::Postgres => {
                create_database(a.postgres_url.as_deref().unwrap_or_default(), &format!("fragbox_bench_{}", std::process::id())).await?
            }
        };
        return feed_bench(&a, n, &dir, &db_url).await;
    }
    let load = std::fs::read_to_string("/proc/loadavg").ok().and_then(|l| l.split(' ').next().map(str::to_owned)).unwrap_or_default();
    println!(
        "fragbox-bench: store {:?}, {} replica(s), {} s per workload, {} connections, {} users, {cores} cores shared by server and load, load average {load}",
        a.store,
        a.replicas,
        a.duration.as_secs(),
        a.conns,
        a.users
    );
    let tag = std::process::id();
    let mut batched_rps: Option<f64> = None;
    if let Some(w) = a.only {
        let db_url = match a.store {
            Store::Sqlite => format!("sqlite://{}", dir.join("bench.db").display()),
            Store::Postgres => create_database(a.postgres_url.as_deref().unwrap_or_default(), &format!("fragbox_bench_{tag}")).await?,
        };
        return only(&a, &dir, &db_url, w).await;
    }
    let (db_url, bound, bound_label) = match a.store {
        Store::Sqlite => {
            let (b, batched) = sqlite_bound_result(sqlite)?;
            batched_rps = Some(batched.opens as f64 / batched.elapsed.as_secs_f64());
            println!("{:<34} {:>9.0} opens/s", "raw bound, 32 opens per transaction", batched_rps.unwrap_or_default());
            (format!("sqlite://{}", dir.join("bench.db").display()), b, "raw SQLite (rusqlite), 1 connection, no runtime")
        }
        Store::Postgres => {
            let server = a.postgres_url.clone().unwrap_or_default();
            // As many connections as the replicas' pools hold (16 each by default).
            let conns = a.replicas * a.pool.unwrap_or(16) as usize;
            let raw = create_database(&server, &format!("fragbox_bench_raw_{tag}")).await?;
            let b = postgres_bound(&raw, conns, a.duration).await?;
            drop_database(&server, &format!("fragbox_bench_raw_{tag}")).await;
            println!("(raw bound ran on {conns} connections)");
            (create_database(&server, &format!("fragbox_bench_{tag}")).await?, b, "raw PostgreSQL via sqlx, no HTTP")
        }
    };
    let bound_rps = bound.opens as f64 / bound.elapsed.as_secs_f64();
    let bound_report = report(&format!("raw bound ({bound_label})"), bound.sample, bound.elapsed);

    let mut servers = Vec::new();
    for r in 0..a.replicas {
        let rdir = dir.join(format!("replica-{r}"));
        std::fs::create_dir_all(rdir.join("dist")).map_err(|e| e.to_string())?;
        std::fs::write(rdir.join("dist/index.html"), "<!doctype html><title>FragBox</title>").map_err(|e| e.to_string())?;
        servers.push(Server::start(&a.fragbox, &rdir, &db_url, a.pool)?);
    }
    let bases: Vec<String> = servers.iter().map(|s| s.base.clone()).collect();
    let users = sign_in_users(&servers[0].base, a.users).await?;
    for u in &users {
        let (ok, out) = servers[0].cli(&["grant", &u.id.to_string(), "1000000", "--reason", "bench"])?;
        if !ok {
            return Err(format!("grant failed: {out}"));
        }
    }
    // (b) and (d) run on players of their own: what they measure must not depend on how many
    // items (a) left in its players' inventories (a faster (a) would make (b)'s inventory reads
    // heavier and its memory larger).
    let fresh = sign_in_users(&servers[0].base, a.users).await?;
    for u in &fresh {
        let (ok, out) = servers[0].cli(&["grant", &u.id.to_string(), "1000000", "--reason", "bench"])?;
        if !ok {
            return Err(format!("grant failed: {out}"));
        }
    }
    let case = cheapest_case(&bases[0]).await?;

    let (s, t) = closed_loop(&bases, &users, &case, a.conns, a.duration, Workload::Open, 1).await;
    let open = report(&format!("(a) POST open, {} conns", a.conns), s, t);
    println!("{:<34} {:>9.2}  (target >= 0.8)", "open / raw bound", open.rps / bound_rps);
    if let Some(b) = batched_rps {
        println!("{:<34} {:>9.2}", "open / raw bound, 32 per transaction", open.rps / b);
    }
    let turns = checkpoint_turns(&bases[0]).await;
    let (s, t) = closed_loop(&bases, &fresh, &case, a.conns, a.duration, Workload::Mixed, 2).await;
    report(&format!("(b) mixed 70/20/10, {} conns", a.conns), s, t);
    report_turns(turns, checkpoint_turns(&bases[0]).await);
    let (s, t) = closed_loop(&bases, &users, &case, a.conns, a.duration, Workload::Cases, 3).await;
    report(&format!("(c) GET /cases, {} conns", a.conns), s, t);
    let rate = (open.rps / 2.0).max(1.0);
    let turns = checkpoint_turns(&bases[0]).await;
    let (s, t) = open_loop(&bases, &fresh, &case, rate, a.duration, a.conns).await;
    let ol = report(&format!("(d) open at {rate:.0}/s offered, {} conns", a.conns), s, t);
    report_turns(turns, checkpoint_turns(&bases[0]).await);
    println!("{:<34} {:>9.2} ms (target <= 25)", "p99 open at half max", ol.p99_ms);
    for (i, server) in servers.iter().enumerate() {
        match server.peak_rss_kb() {
            Some(kb) => println!("{:<34} {:>9.1} MB (target < 64)", format!("replica {i} peak RSS (VmHWM)"), kb as f64 / 1024.0),
            None => println!("replica {i} peak RSS: unavailable"),
        }
    }
    println!(
        "SUMMARY store={:?} replicas={} raw_bound_opens_per_s={:.0} raw_bound_p99_ms={:.2} opens_per_s={:.0} open_p99_ms_closed={:.2} half_rate={:.0} open_p99_ms_at_half={:.2}",
        a.store, a.replicas, bound_rps, bound_report.p99_ms, open.rps, open.p99_ms, rate, ol.p99_ms
    );
    let env = servers[0].env.clone();
    let fragbox = servers[0].fragbox.clone();
    for s in servers {
        s.stop();
    }
    let out = Command::new(&fragbox).arg("audit").envs(env.iter().map(|(k, v)| (k, v))).output().map_err(|e| e.to_string())?;
    print!("fragbox audit: {}", String::from_utf8_lossy(&out.stdout));
    if a.store == Store::Postgres {
        drop_database(a.postgres_url.as_deref().unwrap_or_default(), &format!("fragbox_bench_{tag}")).await;
    }
    if !out.status.success() {
        return Err("audit failed".into());
    }
    Ok(())
}

/// How often, and how long in all, SQLite's checkpoint has held the write turn (`/metrics`);
/// `None` on PostgreSQL (no writer thread) or if the scrape failed.
async fn checkpoint_turns(base: &str) -> Option<(f64, f64)> {
    let res = client().get(format!("{base}/metrics")).send().await.ok()?;
    let text = res.text().await.ok()?;
    let value = |name: &str| text.lines().find_map(|l| l.strip_prefix(name)?.trim().parse::<f64>().ok());
    Some((value("fragbox_sqlite_checkpoint_turns_total ")?, value("fragbox_sqlite_checkpoint_turn_seconds_total ")?))
}

/// What the checkpoint's turns cost the writes during one workload: every write waits while it
/// holds the turn.
fn report_turns(before: Option<(f64, f64)>, after: Option<(f64, f64)>) {
    if let (Some((n0, s0)), Some((n1, s1))) = (before, after) {
        let (n, ms) = (n1 - n0, (s1 - s0) * 1e3);
        let mean = if n > 0.0 { ms / n } else { 0.0 };
        println!("  checkpoint held the write turn {n:.0} times, {ms:.1} ms in all (mean {mean:.2} ms)");
    }
}

/// `--only cases` / `--only mixed`: (c) or (b) alone, then the peak RSS (`perf record` around
/// the server sees only it). (b)'s players get tokens first.
async fn only(a: &Args, dir: &Path, db_url: &str, w: Workload) -> Res<()> {
    std::fs::create_dir_all(dir.join("replica-0/dist")).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("replica-0/dist/index.html"), "<!doctype html><title>FragBox</title>").map_err(|e| e.to_string())?;
    let server = Server::start(&a.fragbox, &dir.join("replica-0"), db_url, a.pool)?;
    let bases = vec![server.base.clone()];
    let users = sign_in_users(&server.base, a.users).await?;
    let (case, name, run) = if w == Workload::Mixed {
        for u in &users {
            let (ok, out) = server.cli(&["grant", &u.id.to_string(), "1000000", "--reason", "bench"])?;
            if !ok {
                return Err(format!("grant failed: {out}"));
            }
        }
        (cheapest_case(&bases[0]).await?, "(b) mixed 70/20/10", 2)
    } else {
        (String::new(), "(c) GET /cases", 3)
    };
    let turns = checkpoint_turns(&bases[0]).await;
    let (s, t) = closed_loop(&bases, &users, &case, a.conns, a.duration, w, run).await;
    report(&format!("{name}, {} conns", a.conns), s, t);
    report_turns(turns, checkpoint_turns(&bases[0]).await);
    if let Some(kb) = server.peak_rss_kb() {
        println!("{:<34} {:>9.1} MB (target < 64)", "server peak RSS (VmHWM)", kb as f64 / 1024.0);
    }
    server.stop();
    Ok(())
}

/// Feed connections are spread over this many loopback source addresses (127.0.0.2 …), as
/// players behind many addresses would be, so a per-address connection cap sees a few dozen
/// each rather than thousands from one.
const FEED_SOURCES: usize = 100;

/// One feed connection: `GET /api/v1/feed` over a raw socket bound to `source`; sends `()` on
/// `ready` once the answer's head arrived, then records when each event id arrives until `stop`.
async fn feed_client(
    server: std::net::SocketAddr,
    source: std::net::IpAddr,
    token: Arc<str>,
    ready: tokio::sync::mpsc::Sender<Res<()>>,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Vec<(i64, Instant)> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let connected = async {
        let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
        socket.bind(std::net::SocketAddr::new(source, 0)).map_err(|e| format!("bind {source}: {e}"))?;
        let mut stream = socket.connect(server).await.map_err(|e| format!("connect: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let head =
            format!("GET /api/v1/feed HTTP/1.1\r\nHost: {server}\r\nAuthorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n");
        stream.write_all(head.as_bytes()).await.map_err(|e| e.to_string())?;
        let mut lines = tokio::io::BufReader::new(stream).lines();
        let status = lines.next_line().await.map_err(|e| e.to_string())?.unwrap_or_default();
        if !status.starts_with("HTTP/1.1 200") {
            return Err(format!("feed answered {status:?}"));
        }
        Ok(lines)
    };
    let mut lines = match connected.await {
        Ok(l) => {
            let _ = ready.send(Ok(())).await;
            l
        }
        Err(e) => {
            let _ = ready.send(Err(e)).await;
            return Vec::new();
        }
    };
    let mut got = Vec::new();
    loop {
        tokio::select! {
            _ = stop.changed() => return got,
            line = lines.next_line() => match line {
                // The body is chunked; SSE fields still start their own lines.
                Ok(Some(l)) => {
                    if let Some(id) = l.strip_prefix("id:").and_then(|v| v.trim().parse().ok()) {
                        got.push((id, Instant::now()));
                    }
                }
                _ => return got,
            },
        }
    }
}

/// `--feed N`: N feed connections, then `a.feed_opens` opens; every drop's delivery latency to
/// every connection, the drops lost, and the server's peak RSS.
async fn feed_bench(a: &Args, n: usize, dir: &Path, db_url: &str) -> Res<()> {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    println!(
        "fragbox-bench --feed {n}: store {:?}, {} opens one every {} ms, {cores} cores shared by server and clients",
        a.store,
        a.feed_opens,
        a.feed_every.as_millis()
    );
    std::fs::create_dir_all(dir.join("dist")).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("dist/index.html"), "<!doctype html><title>FragBox</title>").map_err(|e| e.to_string())?;
    // Every feed connection counts against the server's total connection cap (4 096 by default):
    // raised past N unless the caller set it.
    if std::env::var_os("HTTP_MAX_CONNECTIONS").is_none() {
        std::env::set_var("HTTP_MAX_CONNECTIONS", (n + 256).max(4096).to_string());
    }
    // The N connections are one watcher's, spread over `FEED_SOURCES` addresses: a load test of
    // the fan-out, not of the bounds on streams per player (3) and per address (32), which would
    // leave it 3 streams. Both raised past N unless the caller set them.
    for bound in ["FEED_STREAMS_PER_PLAYER", "FEED_STREAMS_PER_IP"] {
        if std::env::var_os(bound).is_none() {
            std::env::set_var(bound, n.max(1).to_string());
        }
    }
    let server = Server::start(&a.fragbox, dir, db_url, a.pool)?;
    let base = server.base.clone();
    let case = cheapest_case(&base).await?;
    let addr: std::net::SocketAddr =
        base.trim_start_matches("http://").trim_end_matches('/').parse().map_err(|e| format!("server address {base}: {e}"))?;
    let users = sign_in_users(&base, 2).await?;
    let (opener, watcher) = (&users[0], &users[1]);
    let (ok, out) = server.cli(&["grant", &opener.id.to_string(), "1000000", "--reason", "bench"])?;
    if !ok {
        return Err(format!("grant failed: {out}"));
    }
    let rss_idle = server.peak_rss_kb().unwrap_or(0);

    let token: Arc<str> = watcher.token.clone().into();
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::channel(n.max(1));
    let t = Instant::now();
    let mut clients = Vec::with_capacity(n);
    for i in 0..n {
        let source = std::net::IpAddr::from([127, 0, 0, 2 + (i % FEED_SOURCES) as u8]);
        clients.push(tokio::spawn(feed_client(addr, source, token.clone(), ready_tx.clone(), stop_rx.clone())));
        // A few hundred handshakes in flight at most: the listen backlog is finite.
        if i % 256 == 255 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    drop(ready_tx);
    let mut connected = 0;
    let mut refused = 0;
    let mut first_error = None;
    while let Ok(Some(r)) = tokio::time::timeout(Duration::from_secs(60), ready_rx.recv()).await {
        match r {
            Ok(()) => connected += 1,
            Err(e) => {
                refused += 1;
                first_error.get_or_insert(e);
            }
        }
        if connected + refused == n {
            break;
        }
    }
    println!(
        "{:<34} {connected} of {n} in {:.1} s, refused {refused}{}",
        "feed connections open",
        t.elapsed().as_secs_f64(),
        first_error.map(|e| format!(" (first: {e})")).unwrap_or_default()
    );
    let rss_connected = server.peak_rss_kb().unwrap_or(0);

    let http = client();
    let mut sent = Vec::with_capacity(a.feed_opens);
    let mut open_errors = 0;
    for k in 0..a.feed_opens {
        let at = Instant::now();
        match json_call(http.post(format!("{base}/api/v1/cases/{case}/open")).bearer_auth(&opener.token).json(&json!({}))).await {
            Ok(_) => sent.push(at),
            Err(e) => {
                open_errors += 1;
                eprintln!("open {k}: {e}");
            }
        }
        tokio::time::sleep_until((at + a.feed_every).into()).await;
    }
    // Late deliveries count (as latency) until this grace ends.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let _ = stop_tx.send(true);
    let mut per_client = Vec::with_capacity(n);
    for c in clients {
        per_client.push(c.await.unwrap_or_default());
    }
    // Opens were sent one after another, so the k-th smallest event id is the k-th open.
    let mut ids: Vec<i64> = per_client.iter().flatten().map(|e| e.0).collect();
    ids.sort_unstable();
    ids.dedup();
    let order: std::collections::HashMap<i64, usize> = ids.iter().enumerate().map(|(k, id)| (*id, k)).collect();
    let mut s = Sample::default();
    for got in &per_client {
        for (id, when) in got {
            if let Some(at) = order.get(id).and_then(|k| sent.get(*k)) {
                s.ok(when.saturating_duration_since(*at));
            }
        }
    }
    let expected = connected * sent.len();
    let delivered = s.lat.len();
    let rss_peak = server.peak_rss_kb().unwrap_or(0);
    s.lat.sort_unstable();
    let pct =
        |p: f64| s.lat.get(((delivered as f64 * p) as usize).min(delivered.saturating_sub(1))).map_or(0.0, |us| f64::from(*us) / 1000.0);
    let r = Report { rps: 0.0, p50_ms: pct(0.50), p99_ms: pct(0.99), max_ms: pct(1.0) };
    println!("{:<34} p50 {:>7.1} ms   p99 {:>7.1} ms   max {:>7.1} ms", "feed delivery (open sent -> event)", r.p50_ms, r.p99_ms, r.max_ms);
    println!("{:<34} {delivered} of {expected} ({} opens, {open_errors} failed)", "drops delivered", sent.len());
    println!(
        "{:<34} {:>9.1} MB idle, {:.1} MB with the connections open, {:.1} MB peak",
        "server RSS (VmHWM)",
        rss_idle as f64 / 1024.0,
        rss_connected as f64 / 1024.0,
        rss_peak as f64 / 1024.0
    );
    println!(
        "SUMMARY feed connections={connected}/{n} drops={} delivered={delivered}/{expected} p50_ms={:.1} p99_ms={:.1} max_ms={:.1} peak_rss_mb={:.1} (targets: p99 <= 1000 ms, RSS <= 150 MB)",
        sent.len(),
        r.p50_ms,
        r.p99_ms,
        r.max_ms,
        rss_peak as f64 / 1024.0
    );
    server.stop();
    if a.store == Store::Postgres {
        let tag = std::process::id();
        drop_database(a.postgres_url.as_deref().unwrap_or_default(), &format!("fragbox_bench_{tag}")).await;
    }
    Ok(())
}

fn sqlite_bound_result(b: Option<(Bound, Bound)>) -> Res<(Bound, Bound)> {
    b.ok_or_else(|| "the SQLite bound did not run".to_owned())
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!(
                "{e}\nusage: fragbox-bench [--store sqlite|postgres] [--replicas N] [--postgres-url URL] [--pool N]\n                     [--duration SECS] [--conns N] [--users N] [--sessions N] [--fragbox PATH]\n                     [--only cases|mixed] [--feed N [--opens M] [--every MS]]"
            );
            std::process::exit(2);
        }
    };
    let dir = std::env::temp_dir().join(format!("fragbox-bench-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("{}: {e}", dir.display());
        std::process::exit(1);
    }
    // SQLite's raw bound runs before any async runtime exists.
    let sqlite = match a.store {
        Store::Sqlite if a.sessions.is_none() && a.only.is_none() && a.feed.is_none() => {
            match sqlite_bound(&dir, a.duration, 1).and_then(|one| Ok((one, sqlite_bound(&dir, a.duration, 32)?))) {
                Ok(b) => Some(b),
                Err(e) => {
                    eprintln!("bench failed: SQLite bound: {e}");
                    std::process::exit(1);
                }
            }
        }
        _ => None,
    };
    let rt = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("tokio: {e}");
            std::process::exit(1);
        }
    };
    let result = rt.block_on(run(a, dir.clone(), sqlite));
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = result {
        eprintln!("bench failed: {e}");
        std::process::exit(1);
    }
}
