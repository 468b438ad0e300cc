//! `fragbox-bench`: the load benchmark of docs/performance.md. Not a test.
//!
//! Starts the real `fragbox` binary (the one next to this one) in demo mode on a fresh database,
//! signs in users, grants them tokens with `fragbox grant`, then drives:
//!   (a) case opens from many concurrent connections (closed loop: the maximum rate);
//!   (b) a player mix: 70 % reads (cases, items, me), 20 % opens, 10 % sells;
//!   (c) `GET /cases`;
//!   (d) opens at a fixed offered rate, half of (a)'s, latency measured from each request's
//!       scheduled start (an open loop, so queueing behind a slow request counts against us);
//! prints rate, p50/p99/max and errors for each, the server's peak RSS, then `fragbox audit`.
//! In the same run, the baseline: the statements of one open through sqlx with the same pragmas,
//! in a tight loop on one connection, no HTTP, JSON or auth.
//!
//! With `--sessions N` it measures sign-ins instead: sign-ins per second (closed loop, players
//! already at their session cap, so each sign-in also ends one) with 10 000 live sessions and
//! with N, filled by real sign-ins of players holding 10 sessions each.
//!
//! Usage: fragbox-bench [--duration SECS] [--conns N] [--users N] [--sessions N] [--fragbox PATH]
//! Run from the repository root (it reads data/catalog), release build: scripts/bench.sh.
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

type Res<T> = Result<T, String>;

struct Args {
    duration: Duration,
    conns: usize,
    users: usize,
    sessions: Option<usize>,
    fragbox: PathBuf,
}

fn args() -> Res<Args> {
    let mut a = Args {
        duration: Duration::from_secs(10),
        conns: 64,
        users: 64,
        sessions: None,
        fragbox: std::env::current_exe().map_err(|e| e.to_string())?.with_file_name("fragbox"),
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
            other => return Err(format!("unknown argument {other}")),
        }
        i += 2;
    }
    Ok(a)
}

/// Latencies in microseconds, and failures.
#[derive(Default)]
struct Sample {
    lat: Vec<u32>,
    errors: u64,
    first_error: Option<String>,
}

impl Sample {
    fn merge(&mut self, o: Sample) {
        self.lat.extend(o.lat);
        self.errors += o.errors;
        if self.first_error.is_none() {
            self.first_error = o.first_error;
        }
    }
    fn ok(&mut self, d: Duration) {
        self.lat.push(d.as_micros().min(u128::from(u32::MAX)) as u32);
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

fn report(name: &str, mut s: Sample, elapsed: Duration) -> Report {
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
    r
}

struct Server {
    child: Child,
    base: String,
    env: Vec<(String, String)>,
    fragbox: PathBuf,
}

impl Server {
    fn start(fragbox: &Path, dir: &Path) -> Res<Server> {
        let env: Vec<(String, String)> = vec![
            ("BIND_ADDR".into(), "127.0.0.1:0".into()),
            ("DATABASE_URL".into(), format!("sqlite://{}", dir.join("bench.db").display())),
            ("WEBAPP_DIST".into(), dir.join("dist").display().to_string()),
            ("RATE_LIMITS".into(), "off".into()),
            ("METRICS_ENABLED".into(), "true".into()),
            ("RUST_LOG".into(), "warn".into()),
        ];
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

fn client() -> reqwest::Client {
    reqwest::Client::builder().pool_max_idle_per_host(1024).tcp_nodelay(true).build().unwrap_or_default()
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

async fn closed_loop(
    base: &str,
    users: &[User],
    case: &str,
    conns: usize,
    duration: Duration,
    w: Workload,
    run: u64,
) -> (Sample, Duration) {
    let http = client();
    let stop = Arc::new(AtomicBool::new(false));
    let seq = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    let start = Instant::now();
    for c in 0..conns {
        let (http, stop, seq) = (http.clone(), stop.clone(), seq.clone());
        let user = users[c % users.len()].clone();
        let base = base.to_owned();
        let case = case.to_owned();
        tasks.push(tokio::spawn(async move {
            let mut s = Sample::default();
            let mut rng = XorShift(0x9E37_79B9_7F4A_7C15 ^ ((c as u64 + 1) * 0x1000_0001));
            let mut items: Vec<i64> = Vec::new();
            let open_url = format!("{base}/api/v1/cases/{case}/open");
            while !stop.load(Ordering::Relaxed) {
                let n = seq.fetch_add(1, Ordering::Relaxed);
                let kind = match w {
                    Workload::Open => 0,
                    Workload::Cases => 1,
                    Workload::Mixed => match rng.next() % 100 {
                        0..=69 => 1 + (rng.next() % 3) as u8,
                        70..=89 => 0,
                        _ if items.is_empty() => 0,
                        _ => 4,
                    },
                };
                let t = Instant::now();
                let r = match kind {
                    0 => {
                        let body = json!({ "requestId": format!("r{run}-{c}-{n}") });
                        json_call(http.post(&open_url).bearer_auth(&user.token).json(&body)).await.map(|v| {
                            if let Some(id) = v["item"]["id"].as_i64() {
                                items.push(id);
                            }
                        })
                    }
                    // The catalog is read as bytes, as a browser caches it: parsing 30 KB of JSON
                    // here would measure the load generator, not the server.
                    1 => bytes_call(http.get(format!("{base}/api/v1/cases"))).await,
                    2 => json_call(http.get(format!("{base}/api/v1/user/items")).bearer_auth(&user.token)).await.map(drop),
                    3 => json_call(http.get(format!("{base}/api/v1/me")).bearer_auth(&user.token)).await.map(drop),
                    _ => {
                        let item = items.pop().unwrap_or_default();
                        let url = format!("{base}/api/v1/sales/sell");
                        json_call(http.post(url).bearer_auth(&user.token).json(&json!({ "item_id": item }))).await.map(drop)
                    }
                };
                match r {
                    Ok(()) => s.ok(t.elapsed()),
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

/// Opens at `rate` per second for `duration`, each timed from its scheduled start.
async fn open_loop(base: &str, users: &[User], case: &str, rate: f64, duration: Duration) -> (Sample, Duration) {
    let http = client();
    let total = (rate * duration.as_secs_f64()) as u64;
    let start = tokio::time::Instant::now();
    let mut tasks = Vec::with_capacity(total as usize);
    for i in 0..total {
        let due = start + Duration::from_secs_f64(i as f64 / rate);
        tokio::time::sleep_until(due).await;
        let user = users[i as usize % users.len()].clone();
        let url = format!("{base}/api/v1/cases/{case}/open");
        let http = http.clone();
        tasks.push(tokio::spawn(async move {
            let body = json!({ "requestId": format!("ol-{i}") });
            let r = json_call(http.post(url).bearer_auth(&user.token).json(&body)).await;
            (r.map(drop), due.elapsed())
        }));
    }
    let mut s = Sample::default();
    for t in tasks {
        match t.await {
            Ok((Ok(()), d)) => s.ok(d),
            Ok((Err(e), _)) => s.err(e),
            Err(e) => s.err(e.to_string()),
        }
    }
    (s, start.elapsed())
}

/// The baseline: what one open asks of SQLite, through sqlx with the app's pragmas, on one
/// connection in a tight loop. The statements are those of `domain::cases::open` (request-id
/// lookup, active seed, open row, ledger key check, conditional debit, ledger entry, item,
/// nonce bump, first-open check, item read-back, stored response), in one `BEGIN IMMEDIATE`.
async fn baseline(dir: &Path, duration: Duration) -> Res<(u64, Duration)> {
    use webapp_api::domain::db;
    let pool = db::open(&format!("sqlite://{}", dir.join("baseline.db").display())).await.map_err(|e| e.to_string())?;
    db::migrate(&pool).await.map_err(|e| e.to_string())?;
    let e = |e: sqlx::Error| e.to_string();
    let user: i64 = 900_000_000_001;
    sqlx::query("INSERT INTO users(id, first_name, last_name, balance, ref_code, created_at, updated_at) VALUES ($1, 'Base', 'Line', 0, 'b0b0b0b0b0', 0, 0)")
        .bind(user)
        .execute(&pool)
        .await
        .map_err(e)?;
    sqlx::query("UPDATE users SET balance = 100000000000 WHERE id = $1").bind(user).execute(&pool).await.map_err(e)?;
    sqlx::query("INSERT INTO ledger_entries(user_id, amount, balance_after, reason, idempotency_key, created_at) VALUES ($1, 100000000000, 100000000000, 'grant', 'baseline-grant', 0)")
        .bind(user)
        .execute(&pool)
        .await
        .map_err(e)?;
    sqlx::query("INSERT INTO fair_seeds(user_id, server_seed, server_seed_hash, client_seed, created_at) VALUES ($1, $2, $3, 'cs', 0)")
        .bind(user)
        .bind("5d2b0f8e3a6c4b1d9e7f0a2c4e6b8d1f3a5c7e9b0d2f4a6c8e1b3d5f7a9c0e2b")
        .bind("0dcac7aa5435ca628a31165c58ada40031599e7e97885547e4db61b6320463b5")
        .execute(&pool)
        .await
        .map_err(e)?;
    let (case_id, item_id) = ("starter", "p250-sand-dune");
    let response = "x".repeat(700);
    let weights = "[[\"p250-sand-dune\",4000],[\"ak47-redline\",100]]";
    let mut conn = pool.acquire().await.map_err(e)?;
    let start = Instant::now();
    let mut n: u64 = 0;
    while start.elapsed() < duration {
        let now = 1_763_800_000 + n as i64;
        let rid = format!("base-{n}");
        let mut tx = sqlx::Connection::begin_with(&mut *conn, "BEGIN IMMEDIATE").await.map_err(e)?;
        let _: Option<(String,)> = sqlx::query_as("SELECT response FROM case_opens WHERE user_id = $1 AND request_id = $2")
            .bind(user)
            .bind(&rid)
            .fetch_optional(&mut *tx)
            .await
            .map_err(e)?;
        let (seed_id, _, hash, client_seed, nonce): (i64, String, String, String, i64) = sqlx::query_as(
            "SELECT id, server_seed, server_seed_hash, client_seed, next_nonce FROM fair_seeds WHERE user_id = $1 AND revealed_at IS NULL",
        )
        .bind(user)
        .fetch_one(&mut *tx)
        .await
        .map_err(e)?;
        let (open_id,): (i64,) = sqlx::query_as(
            "INSERT INTO case_opens(user_id, case_id, request_id, seed_id, server_seed_hash, client_seed, nonce, roll,
                                    total_weight, weights, item_id, price, response, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '', $13) RETURNING id",
        )
        .bind(user)
        .bind(case_id)
        .bind(&rid)
        .bind(seed_id)
        .bind(&hash)
        .bind(&client_seed)
        .bind(nonce)
        .bind(1234i64)
        .bind(10_000i64)
        .bind(weights)
        .bind(item_id)
        .bind(2500i64)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(e)?;
        let key = format!("open:{open_id}");
        let _: Option<(i64,)> = sqlx::query_as("SELECT id FROM ledger_entries WHERE idempotency_key = $1")
            .bind(&key)
            .fetch_optional(&mut *tx)
            .await
            .map_err(e)?;
        let (balance,): (i64,) = sqlx::query_as(
            "UPDATE users SET balance = balance + $1, updated_at = $3 WHERE id = $2 AND balance + $1 >= 0 RETURNING balance",
        )
        .bind(-2500i64)
        .bind(user)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(e)?;
        sqlx::query(
            "INSERT INTO ledger_entries(user_id, amount, balance_after, reason, idempotency_key, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(user)
        .bind(-2500i64)
        .bind(balance)
        .bind("case_open")
        .bind(&key)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(e)?;
        let (inv,): (i64,) = sqlx::query_as(
            "INSERT INTO inventory_items(user_id, open_id, catalog_item_id, case_id, weapon, finish, rarity, condition, image,
                                         token_price, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
        )
        .bind(user)
        .bind(open_id)
        .bind(item_id)
        .bind(case_id)
        .bind("P250")
        .bind("Sand Dune")
        .bind("consumer")
        .bind("Field-Tested")
        .bind("/catalog/images/items/p250-sand-dune.svg")
        .bind(350i64)
        .bind(now)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .map_err(e)?;
        sqlx::query("UPDATE fair_seeds SET next_nonce = next_nonce + 1 WHERE id = $1").bind(seed_id).execute(&mut *tx).await.map_err(e)?;
        sqlx::query("UPDATE users SET first_case_at = $1 WHERE id = $2 AND first_case_at IS NULL")
            .bind(now)
            .bind(user)
            .execute(&mut *tx)
            .await
            .map_err(e)?;
        let _: Option<(i64, String, String)> = sqlx::query_as(
            "SELECT i.id, i.catalog_item_id, u.first_name FROM inventory_items i JOIN users u ON u.id = i.user_id
             WHERE i.id = $1 AND i.user_id = $2 AND i.status <> 'sold'",
        )
        .bind(inv)
        .bind(user)
        .fetch_optional(&mut *tx)
        .await
        .map_err(e)?;
        sqlx::query("UPDATE case_opens SET response = $1 WHERE id = $2")
            .bind(&response)
            .bind(open_id)
            .execute(&mut *tx)
            .await
            .map_err(e)?;
        tx.commit().await.map_err(e)?;
        n += 1;
    }
    let elapsed = start.elapsed();
    drop(conn);
    pool.close().await;
    Ok((n, elapsed))
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

/// Sign-ins per second from `conns` connections for `duration`, by players already at their cap.
async fn sign_in_loop(base: &str, inits: &[String], duration: Duration) -> (Sample, Duration) {
    let http = client();
    let stop = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let mut tasks = Vec::new();
    for init in inits {
        let (http, stop, url) = (http.clone(), stop.clone(), format!("{base}/api/v1/auth"));
        let init = init.clone();
        tasks.push(tokio::spawn(async move {
            let mut s = Sample::default();
            let body = json!({ "initData": init });
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                match json_call(http.post(&url).json(&body)).await {
                    Ok(_) => s.ok(t.elapsed()),
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

/// `--sessions N`: sign-in throughput at 10 000 and at N live sessions.
async fn run_sessions(a: &Args, target: usize, dir: &Path) -> Res<()> {
    let server = Server::start(&a.fragbox, dir)?;
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

async fn run(a: Args) -> Res<()> {
    let dir = std::env::temp_dir().join(format!("fragbox-bench-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("dist")).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("dist/index.html"), "<!doctype html><title>FragBox</title>").map_err(|e| e.to_string())?;
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    if let Some(target) = a.sessions {
        println!("fragbox-bench --sessions {target}: {} s per measure, {} connections, {cores} cores", a.duration.as_secs(), a.conns);
        let r = run_sessions(&a, target, &dir).await;
        let _ = std::fs::remove_dir_all(&dir);
        return r;
    }
    println!(
        "fragbox-bench: {} s per workload, {} connections, {} users, {cores} cores shared by server and load",
        a.duration.as_secs(),
        a.conns,
        a.users
    );

    let (base_n, base_t) = baseline(&dir, a.duration).await?;
    let base_rps = base_n as f64 / base_t.as_secs_f64();
    println!("{:<34} {:>9.0} opens/s (raw SQLite via sqlx, one connection, no HTTP)", "baseline", base_rps);

    let server = Server::start(&a.fragbox, &dir)?;
    let users = sign_in_users(&server.base, a.users).await?;
    for u in &users {
        let (ok, out) = server.cli(&["grant", &u.id.to_string(), "1000000", "--reason", "bench"])?;
        if !ok {
            return Err(format!("grant failed: {out}"));
        }
    }
    let cases = json_call(client().get(format!("{}/api/v1/cases", server.base))).await?;
    let case = cases["data"]
        .as_array()
        .and_then(|c| c.iter().min_by_key(|c| (c["tokens"].as_f64().unwrap_or(f64::MAX) * 100.0) as i64))
        .and_then(|c| c["id"].as_str())
        .ok_or("no cases")?
        .to_owned();

    let (s, t) = closed_loop(&server.base, &users, &case, a.conns, a.duration, Workload::Open, 1).await;
    let open = report(&format!("(a) POST open, {} conns", a.conns), s, t);
    println!("{:<34} {:>9.2}  (target >= 0.50)", "open / baseline", open.rps / base_rps);
    let (s, t) = closed_loop(&server.base, &users, &case, a.conns, a.duration, Workload::Mixed, 2).await;
    report(&format!("(b) mixed 70/20/10, {} conns", a.conns), s, t);
    let (s, t) = closed_loop(&server.base, &users, &case, a.conns, a.duration, Workload::Cases, 3).await;
    report(&format!("(c) GET /cases, {} conns", a.conns), s, t);
    let rate = (open.rps / 2.0).max(1.0);
    let (s, t) = open_loop(&server.base, &users, &case, rate, a.duration).await;
    let ol = report(&format!("(d) open at {rate:.0}/s offered"), s, t);
    println!("{:<34} {:>9.2} ms (target < 25)", "p99 open at half max", ol.p99_ms);
    match server.peak_rss_kb() {
        Some(kb) => println!("{:<34} {:>9.1} MB (target < 64)", "server peak RSS (VmHWM)", kb as f64 / 1024.0),
        None => println!("server peak RSS: unavailable"),
    }
    let metrics = client().get(format!("{}/metrics", server.base)).send().await.map_err(|e| e.to_string())?;
    let text = metrics.text().await.unwrap_or_default();
    for line in text.lines().filter(|l| l.starts_with("fragbox_case_opens_total") || l.starts_with("fragbox_errors_total")) {
        println!("  {line}");
    }
    let env = server.env.clone();
    let fragbox = server.fragbox.clone();
    server.stop();
    let out = Command::new(&fragbox).arg("audit").envs(env.iter().map(|(k, v)| (k, v))).output().map_err(|e| e.to_string())?;
    print!("fragbox audit: {}", String::from_utf8_lossy(&out.stdout));
    let _ = std::fs::remove_dir_all(&dir);
    if !out.status.success() {
        return Err("audit failed".into());
    }
    Ok(())
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}\nusage: fragbox-bench [--duration SECS] [--conns N] [--users N] [--sessions N] [--fragbox PATH]");
            std::process::exit(2);
        }
    };
    let rt = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("tokio: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = rt.block_on(run(a)) {
        eprintln!("bench failed: {e}");
        std::process::exit(1);
    }
}
