//! Starts the real app (router over HTTP, real SQLite file, real dispatcher) for a test.
//! With `FRAGBOX_TEST_POSTGRES_URL` set (a superuser URL of a PostgreSQL server; `scripts/test.sh`
//! starts a throwaway one), every app gets a fresh PostgreSQL database on that server instead.
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use fragbox::{Config, Running};
use reqwest::StatusCode;
use serde_json::{json, Value};
use webapp_api::domain::auth::sign_init_data;
use webapp_api::domain::Domain;

use crate::fake_bot_api::FakeBotApi;

pub const TOKEN: &str = "7000000001:TEST_secret-token";
pub const ADMIN_ID: i64 = 111_111;

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// A fresh folder under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> TempDir {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
        let dir = std::env::temp_dir().join(format!("fragbox-test-{}-{n}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The PostgreSQL server the suite runs against, if any.
pub fn postgres_server() -> Option<String> {
    std::env::var("FRAGBOX_TEST_POSTGRES_URL").ok().filter(|u| !u.trim().is_empty())
}

/// True when the suite runs on PostgreSQL; tests about the SQLite file itself skip then.
pub fn on_postgres() -> bool {
    postgres_server().is_some()
}

/// A fresh, empty store for one app: an SQLite file in `dir`, or a new database on the
/// PostgreSQL server (`CREATE DATABASE` per call).
pub async fn fresh_database_url(dir: &std::path::Path) -> String {
    match postgres_server() {
        None => format!("sqlite://{}", dir.join("fragbox.db").display()),
        Some(server) => {
            use sqlx::Connection;
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
            let name = format!("fragbox_test_{}_{n}_{nanos}", std::process::id());
            let mut admin = sqlx::PgConnection::connect(&server).await.expect("FRAGBOX_TEST_POSTGRES_URL: connect");
            sqlx::Executor::execute(&mut admin, format!("CREATE DATABASE {name}").as_str()).await.expect("create test database");
            let _ = admin.close().await;
            let mut url = url::Url::parse(&server).expect("FRAGBOX_TEST_POSTGRES_URL: a URL");
            url.set_path(&format!("/{name}"));
            url.to_string()
        }
    }
}

/// Drops a database made by `fresh_database_url` (nothing to do for an SQLite file).
pub async fn drop_database(db_url: &str) {
    let Some(server) = postgres_server() else { return };
    let Some(name) = url::Url::parse(db_url).ok().map(|u| u.path().trim_start_matches('/').to_owned()) else { return };
    if !name.starts_with("fragbox_test_") {
        return;
    }
    use sqlx::Connection;
    if let Ok(mut admin) = sqlx::PgConnection::connect(&server).await {
        let _ = sqlx::Executor::execute(&mut admin, format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await;
        let _ = admin.close().await;
    }
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// The committed catalog, loaded once for the whole suite.
pub fn repo_catalog() -> &'static webapp_api::domain::catalog::Catalog {
    static CATALOG: std::sync::OnceLock<webapp_api::domain::catalog::Catalog> = std::sync::OnceLock::new();
    CATALOG.get_or_init(|| webapp_api::domain::catalog::Catalog::load(&repo_root().join("data/catalog")).unwrap())
}

/// The cheapest case of the committed catalog: the one the tests open.
pub fn cheap_case() -> &'static str {
    &repo_catalog().cheapest_case().unwrap().id
}

/// Its price, in hundredths.
pub fn cheap_case_price() -> i64 {
    repo_catalog().cheapest_case().unwrap().price.0
}

/// The dearest case of the committed catalog.
pub fn dear_case() -> &'static str {
    &repo_catalog().cases.iter().max_by_key(|c| c.price).unwrap().id
}

/// The id of the operator's custom case `catalog_with_dear_case` adds.
pub const DEAR_CASE: &str = "covert-ops";

/// A copy of the committed catalog plus a `custom-cases.json` (an operator's own case of real
/// skins, priced by hand): `covert-ops` at 1 000 tokens, one covert and one mil-spec skin weighted
/// for a return near 90 %. The refund tests need a price that leaves a debt no real case reaches.
/// Start the app with `("CATALOG_DIR", dir.0.display().to_string())`; keep `dir` alive meanwhile.
pub fn catalog_with_dear_case() -> TempDir {
    let dir = TempDir::new();
    for f in ["items.json", "cases.json", "prices.json", "packages.json"] {
        std::fs::copy(repo_root().join("data/catalog").join(f), dir.0.join(f)).unwrap();
    }
    let catalog = repo_catalog();
    let covert = catalog.items.iter().find(|i| i.rarity == "covert").unwrap();
    let milspec = catalog.items.iter().find(|i| i.rarity == "milspec").unwrap();
    // p × covert + (1 − p) × mil-spec = 900 tokens.
    let (c, m) = (covert.token_price.0, milspec.token_price.0);
    let w_covert = (90_000 - m) * 10_000 / (c - m);
    let custom = json!({"cases": [{
        "id": DEAR_CASE, "name": {"en": "Covert Ops", "ru": "Тайные операции"},
        "image": "/catalog/images/cases/covert-ops.svg", "price": 1000,
        "items": [{"item": milspec.id, "weight": 10_000 - w_covert}, {"item": covert.id, "weight": w_covert}]
    }]});
    std::fs::write(dir.0.join("custom-cases.json"), custom.to_string()).unwrap();
    dir
}

/// `/api/v1/cases/{cheapest}/open`.
pub fn open_path() -> &'static str {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| format!("/api/v1/cases/{}/open", cheap_case()))
}

/// What `TestApp::paying_player` answers: the player's bearer token, the paid transaction and
/// Telegram's charge id (what a refund names).
pub struct Payer {
    pub token: String,
    pub tx: String,
    pub charge: String,
}

pub struct TestApp {
    pub base: String,
    pub running: Option<Running>,
    pub fake: Option<FakeBotApi>,
    pub http: reqwest::Client,
    pub dir: TempDir,
    pub token: Option<String>,
    /// The app's store: an SQLite file in `dir`, or a database of its own on PostgreSQL.
    pub db_url: String,
}

#[derive(Default)]
pub struct Options {
    /// Run with a bot token against a fake Bot API (else demo mode).
    pub bot: bool,
    pub env: Vec<(&'static str, String)>,
    /// A fake Bot API scripted before start (implies `bot`).
    pub fake: Option<FakeBotApi>,
    /// A clock the test moves by hand (else the system clock).
    pub clock: Option<std::sync::Arc<webapp_api::domain::clock::ManualClock>>,
    /// An SQLite file even when the suite runs on PostgreSQL (tests that move a shop from it).
    pub sqlite: bool,
}

impl TestApp {
    pub async fn demo() -> TestApp {
        TestApp::start(Options::default()).await
    }

    pub async fn with_bot() -> TestApp {
        TestApp::start(Options { bot: true, ..Options::default() }).await
    }

    pub async fn start(opts: Options) -> TestApp {
        let dir = TempDir::new();
        let dist = dir.0.join("dist");
        std::fs::create_dir_all(&dist).unwrap();
        std::fs::write(dist.join("index.html"), "<!doctype html><title>FragBox</title>").unwrap();
        let fake = match opts.fake {
            Some(f) => Some(f),
            None if opts.bot => Some(FakeBotApi::start().await),
            None => None,
        };
        let mut env: HashMap<String, String> = HashMap::new();
        env.insert("BIND_ADDR".into(), "127.0.0.1:0".into());
        let db_url = match opts.env.iter().find(|(k, _)| *k == "DATABASE_URL") {
            Some((_, url)) => url.clone(),
            None if opts.sqlite => format!("sqlite://{}", dir.0.join("fragbox.db").display()),
            None => fresh_database_url(&dir.0).await,
        };
        env.insert("DATABASE_URL".into(), db_url.clone());
        env.insert("CATALOG_DIR".into(), repo_root().join("data/catalog").display().to_string());
        env.insert("LEGAL_DIR".into(), repo_root().join("data/legal").display().to_string());
        env.insert("WEBAPP_DIST".into(), dist.display().to_string());
        // Pictures: a cache of the test's own, and no outside CDN (a closed local port) unless a
        // test brings its fake.
        env.insert("CATALOG_IMAGES_DIR".into(), dir.0.join("image-cache").display().to_string());
        env.insert("CATALOG_ASSETS_URL".into(), "http://127.0.0.1:9".into());
        env.insert("ADMIN_IDS".into(), ADMIN_ID.to_string());
        // Tests fire requests far faster than a player; the abuse tests turn limits back on.
        env.insert("RATE_LIMITS".into(), "off".into());
        // Most tests withdraw granted tokens; the deposit rule's own tests turn it back on.
        env.insert("WITHDRAW_MIN_STARS".into(), "0".into());
        if let Some(f) = &fake {
            env.insert("TELEGRAM_BOT_TOKEN".into(), TOKEN.into());
            env.insert("TELEGRAM_API_URL".into(), f.url.clone());
            env.insert("WEBAPP_URL".into(), "https://app.fragbox.test".into());
            env.insert("CHANNEL_ID".into(), "@fragbox_news".into());
        }
        for (k, v) in opts.env {
            env.insert(k.into(), v);
        }
        let config = Config::from_lookup(&move |k| env.get(k).cloned()).expect("test config");
        let token = config.bot_token.clone();
        let running = match opts.clock {
            Some(clock) => fragbox::start_with_clock(config, clock).await,
            None => fragbox::start(config).await,
        }
        .expect("app starts");
        let base = format!("http://{}", running.addr);
        // The price feed's connector turns reqwest's `brotli` feature on for the whole build; the
        // tests read the server's own `Content-Encoding`, so this client decodes nothing itself.
        let http = reqwest::Client::builder().no_brotli().build().unwrap();
        TestApp { base, running: Some(running), fake, http, dir, token, db_url }
    }

    pub fn domain(&self) -> &Domain {
        &self.running.as_ref().unwrap().domain
    }

    pub fn fake(&self) -> &FakeBotApi {
        self.fake.as_ref().expect("started with a bot")
    }

    pub fn db_url(&self) -> String {
        self.db_url.clone()
    }

    pub async fn stop(mut self) {
        if let Some(r) = self.running.take() {
            r.shutdown().await;
        }
        drop_database(&self.db_url).await;
    }

    /// Init data signed like Telegram signs it for this app's token.
    pub fn init_data(&self, user_id: i64, first_name: &str, start_param: Option<&str>) -> String {
        let token = self.token.clone().unwrap_or_else(|| self.domain().config.bot_token.clone());
        let user = json!({"id": user_id, "first_name": first_name, "last_name": "", "language_code": "en"}).to_string();
        let date = self.domain().now().to_string();
        let mut pairs = vec![("auth_date", date.as_str()), ("user", user.as_str())];
        if let Some(p) = start_param {
            pairs.push(("start_param", p));
        }
        sign_init_data(&pairs, &token)
    }

    /// Signs in a user; answers the bearer token.
    pub async fn sign_in(&self, user_id: i64, first_name: &str) -> String {
        self.sign_in_with(user_id, first_name, None).await
    }

    pub async fn sign_in_with(&self, user_id: i64, first_name: &str, start_param: Option<&str>) -> String {
        let init = self.init_data(user_id, first_name, start_param);
        let (status, body) = self.post("/api/v1/auth", None, json!({ "initData": init })).await;
        assert_eq!(status, StatusCode::OK, "sign-in failed: {body}");
        body["token"].as_str().unwrap().to_owned()
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        let mut req = self.http.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        read(req.send().await.expect("request")).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        let mut req = self.http.post(format!("{}{path}", self.base)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        read(req.send().await.expect("request")).await
    }

    pub async fn put(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        let mut req = self.http.put(format!("{}{path}", self.base)).json(&body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        read(req.send().await.expect("request")).await
    }

    /// Runs the binary's operator CLI logic against this app's database: a paid grant
    /// (compensation), so skins won with it may be withdrawn as after a purchase.
    pub async fn grant(&self, user_id: i64, tokens: i64) {
        fragbox::cli::grant(self.domain(), user_id, webapp_api::domain::Tokens::whole(tokens), "test", true).await.unwrap();
    }

    /// Shares one of the player's skins (the share action): its public card shows it from now on.
    pub async fn share(&self, token: &str, item: i64) {
        let (s, b) = self.post("/api/v1/savePreparedInlineMessage", Some(token), serde_json::json!({"item_id": item})).await;
        assert_eq!(s, reqwest::StatusCode::OK, "share: {b}");
    }

    /// A signed-in player (`Player`) holding `tokens` whole tokens of a paid grant (`grant`):
    /// the bearer token.
    pub async fn player_with(&self, user_id: i64, tokens: i64) -> String {
        let token = self.sign_in(user_id, "Player").await;
        self.grant(user_id, tokens).await;
        token
    }

    /// A signed-in player (`Payer`) who bought the package of `stars` Stars through the bot (an
    /// invoice, then Telegram's `successful_payment`) and got the player's "received" message.
    pub async fn paying_player(&self, user_id: i64, stars: i64) -> Payer {
        let pack = self.domain().catalog.packages.iter().find(|p| p.stars == stars).expect("a package of that many Stars");
        let token = self.sign_in(user_id, "Payer").await;
        let tx = crate::payments::invoice(self, &token, user_id, &pack.id).await;
        let charge = crate::payments::charge_id(&user_id.to_string());
        crate::payments::pay(self, user_id, &tx, stars, &charge).await;
        Payer { token, tx, charge }
    }

    /// Opens `case` once for the signed-in player `token`, with `request_id` when given: the
    /// answer's status and body.
    pub async fn open(&self, token: &str, case: &str, request_id: Option<&str>) -> (StatusCode, Value) {
        let body = match request_id {
            Some(r) => json!({ "requestId": r }),
            None => json!({}),
        };
        self.post(&format!("/api/v1/cases/{case}/open"), Some(token), body).await
    }

    /// `open` that must succeed: the body.
    pub async fn open_ok(&self, token: &str, case: &str, request_id: Option<&str>) -> Value {
        let (s, b) = self.open(token, case, request_id).await;
        assert_eq!(s, StatusCode::OK, "open: {b}");
        b
    }

    /// Opens `case` once for the signed-in player `t`: the skin's id, Steam name and token price
    /// (hundredths).
    pub async fn open_skin(&self, case: &str, t: &str) -> (i64, String, i64) {
        let b = self.open_ok(t, case, None).await;
        let item = b["item"]["id"].as_i64().unwrap();
        let (name, price): (String, i64) = sqlx::query_as("SELECT market_hash_name, token_price FROM inventory_items WHERE id = $1")
            .bind(item)
            .fetch_one(&self.domain().db)
            .await
            .unwrap();
        (item, name, price)
    }

    /// A bonus grant (what rewards and promo codes credit): skins won with it stay in the shop.
    pub async fn grant_bonus(&self, user_id: i64, tokens: i64) {
        fragbox::cli::grant(self.domain(), user_id, webapp_api::domain::Tokens::whole(tokens), "test", false).await.unwrap();
    }

    /// The books reconcile and nothing left without paid value behind it (`fragbox audit`'s
    /// exit 2 and 3; its market part needs the market, see `audit.rs`).
    pub async fn audit_clean(&self) {
        let db = &self.domain().db;
        let problems = webapp_api::domain::audit::run(db).await.unwrap();
        assert!(problems.is_empty(), "audit: {problems:#?}");
        let provenance = webapp_api::domain::audit::provenance(db, self.domain().config.withdraw_paid_only).await.unwrap();
        assert!(provenance.is_empty(), "audit provenance: {provenance:#?}");
    }

    /// Token value of what the user can still sell (items received or in error), in hundredths.
    pub async fn sellable(&self, user_id: i64) -> i64 {
        let (v,): (i64,) = sqlx::query_as(
            "SELECT CAST(COALESCE(SUM(token_price), 0) AS BIGINT) FROM inventory_items WHERE user_id = $1 AND status IN ('received', 'error')",
        )
        .bind(user_id)
        .fetch_one(&self.domain().db)
        .await
        .unwrap();
        v
    }

    /// How many admin-audit rows the test admin (`ADMIN_ID`) left with one of `actions`.
    pub async fn admin_actions(&self, actions: &[&str]) -> i64 {
        let marks: Vec<String> = (0..actions.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!("SELECT COUNT(*) FROM admin_audit WHERE admin_id = $1 AND action IN ({})", marks.join(", "));
        let mut q = sqlx::query_as::<_, (i64,)>(&sql).bind(ADMIN_ID);
        for a in actions {
            q = q.bind(*a);
        }
        q.fetch_one(&self.domain().db).await.unwrap().0
    }

    pub async fn balance(&self, user_id: i64) -> i64 {
        let (b,): (i64,) =
            sqlx::query_as("SELECT balance FROM users WHERE id = $1").bind(user_id).fetch_one(&self.domain().db).await.unwrap();
        b
    }
}

pub async fn read(res: reqwest::Response) -> (StatusCode, Value) {
    let status = res.status();
    let text = res.text().await.unwrap_or_default();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, body)
}

/// Asserts our error shape and code.
/// Opens the cheapest case with `request_id` and expects `503 busy` with `Retry-After: 1` (the
/// store could not take the write in time).
pub async fn assert_open_busy(app: &TestApp, token: &str, request_id: &str) {
    let res = app
        .http
        .post(format!("{}{}", app.base, open_path()))
        .bearer_auth(token)
        .json(&json!({ "requestId": request_id }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["retry-after"], "1");
    let (s, b) = read(res).await;
    assert_error(s, &b, 503, "busy");
}

pub fn assert_error(status: StatusCode, body: &Value, expected_status: u16, code: &str) {
    assert_eq!(status.as_u16(), expected_status, "body: {body}");
    assert_eq!(body["success"], json!(false), "body: {body}");
    assert_eq!(body["code"], json!(code), "body: {body}");
    assert!(body["error"].as_str().is_some_and(|s| !s.is_empty()));
    assert_eq!(body["error"], body["message"]);
}

/// Stderr lines of a spawned `fragbox`, kept for the test's failure message.
pub type Captured = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// The real `fragbox` binary of this test build (`CARGO_BIN_EXE_fragbox`), for tests that kill it.
pub const BIN: &str = env!("CARGO_BIN_EXE_fragbox");

/// What a spawned `fragbox` serving `db_url` from `dir` needs (a stub mini app in `dir/dist`,
/// the repository's catalog and legal texts, no rate limits), in demo mode.
pub fn proc_env(dir: &std::path::Path, db_url: &str) -> Vec<(&'static str, String)> {
    let dist = dir.join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><title>FragBox</title>").unwrap();
    vec![
        ("BIND_ADDR", "127.0.0.1:0".into()),
        ("DATABASE_URL", db_url.to_owned()),
        ("CATALOG_DIR", repo_root().join("data/catalog").display().to_string()),
        ("LEGAL_DIR", repo_root().join("data/legal").display().to_string()),
        ("WEBAPP_DIST", dist.display().to_string()),
        ("CATALOG_IMAGES_DIR", dir.join("image-cache").display().to_string()),
        ("CATALOG_ASSETS_URL", "http://127.0.0.1:9".into()),
        ("RATE_LIMITS", "off".into()),
    ]
}

/// A spawned `fragbox` serving with exactly `env` (no `.env` from the checkout: it runs in
/// `dir`). Killed when dropped; its log is printed if the test is failing.
pub struct Proc {
    pub child: std::process::Child,
    pub base: String,
    pub stderr: Captured,
}

impl Proc {
    pub fn start(dir: &std::path::Path, env: &[(&'static str, String)]) -> Proc {
        use std::process::{Command, Stdio};
        // Only what the test gives it: no bot token from the caller's environment, no `.env`
        // from the checkout (it runs in `dir`).
        let mut child = Command::new(BIN)
            .env_remove("TELEGRAM_BOT_TOKEN")
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (base, stderr) = listening(&mut child);
        Proc { child, base, stderr }
    }

    /// SIGTERM, then wait: a graceful stop.
    pub fn stop(mut self) {
        let _ = std::process::Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        let _ = self.child.wait();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            eprintln!("fragbox {} log:\n{}", self.base, self.stderr.lock().unwrap().join("\n"));
        }
    }
}

/// Waits until a spawned `fragbox` (stdout and stderr piped) prints where it listens; answers
/// that base URL and its stderr lines, which keep being collected. Panics with the log if the
/// process ends first.
pub fn listening(child: &mut std::process::Child) -> (String, Captured) {
    use std::io::{BufRead, BufReader};
    let stderr: Captured = Default::default();
    let sink = stderr.clone();
    let err = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            sink.lock().unwrap().push(line);
        }
    });
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let base = loop {
        match lines.next() {
            Some(Ok(line)) => {
                if let Some(url) = line.strip_prefix("FragBox is running at ") {
                    break url.trim().to_owned();
                }
            }
            _ => panic!("fragbox exited before listening: {:?}", stderr.lock().unwrap()),
        }
    };
    std::thread::spawn(move || for _ in lines {});
    (base, stderr)
}
