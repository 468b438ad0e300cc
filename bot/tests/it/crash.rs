//! Crashes and faults: SIGKILL under load, a full disk, a long writer holding the lock, Telegram
//! slow, refusing or unreachable, JSON logs without secrets, and a backup restored elsewhere.
//! The killed process is the real binary of this test build (`CARGO_BIN_EXE_fragbox`).
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};

use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlx::{Connection, SqliteConnection};

use webapp_api::domain::store;

use crate::common::*;
use crate::fake_bot_api::Script;

fn env_for(dir: &Path) -> Vec<(&'static str, String)> {
    proc_env(dir, &format!("sqlite://{}", dir.join("fragbox.db").display()))
}

/// Runs the binary with `args` (an operator command) against `dir`'s database.
fn cli(dir: &Path, db: &Path, args: &[&str]) -> (bool, String) {
    let mut env = env_for(dir);
    env.retain(|(k, _)| *k != "DATABASE_URL");
    let out = Command::new(BIN)
        .args(args)
        .envs(env)
        .env("DATABASE_URL", format!("sqlite://{}", db.display()))
        .env_remove("TELEGRAM_BOT_TOKEN")
        .current_dir(dir)
        .output()
        .unwrap();
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// A demo player of a spawned process: (telegram id, bearer token).
async fn demo_player(http: &reqwest::Client, base: &str) -> (i64, String) {
    let d: Value = http.get(format!("{base}/api/v1/dev/init-data")).send().await.unwrap().json().await.unwrap();
    let a: Value =
        http.post(format!("{base}/api/v1/auth")).json(&json!({ "initData": d["initData"] })).send().await.unwrap().json().await.unwrap();
    (a["user"]["telegramId"].as_i64().unwrap(), a["token"].as_str().unwrap().to_owned())
}

/// Marks a load task finished (and wakes the waiter) however it ends.
struct Done(Arc<std::sync::atomic::AtomicUsize>, Arc<tokio::sync::Notify>);
impl Drop for Done {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
        self.1.notify_one();
    }
}

#[derive(Default)]
struct Acked {
    /// (user, request id) -> inventory item id, for every open answered 200.
    opens: HashMap<(i64, String), i64>,
    /// Items whose sale was answered 200.
    sold: Vec<i64>,
}

#[tokio::test]
async fn sigkill_under_load_loses_no_acknowledged_open_or_sale() {
    let dir = TempDir::new();
    let server = Proc::start(&dir.0, &env_for(&dir.0));
    let http = reqwest::Client::new();
    let mut players = Vec::new();
    for _ in 0..6 {
        players.push(demo_player(&http, &server.base).await);
    }
    let acked = Arc::new(Mutex::new(Acked::default()));
    let notify = Arc::new(tokio::sync::Notify::new());
    let mut tasks = Vec::new();
    let running = Arc::new(std::sync::atomic::AtomicUsize::new(players.len()));
    for (p, (user, token)) in players.iter().cloned().enumerate() {
        let (http, base, acked, notify) = (http.clone(), server.base.clone(), acked.clone(), notify.clone());
        let running = running.clone();
        tasks.push(tokio::spawn(async move {
            let _done = Done(running, notify.clone());
            let mut mine: Vec<i64> = Vec::new();
            for n in 0.. {
                let rid = format!("p{p}-{n}");
                let res = http.post(format!("{base}{}", open_path())).bearer_auth(&token).json(&json!({ "requestId": rid })).send().await;
                let Ok(res) = res else { return };
                // A busy store on a loaded machine is an answer to retry, not the end of the load.
                if res.status() == StatusCode::SERVICE_UNAVAILABLE {
                    continue;
                }
                if res.status() != StatusCode::OK {
                    return;
                }
                let Ok(body) = res.json::<Value>().await else { return };
                let item = body["item"]["id"].as_i64().unwrap();
                acked.lock().unwrap().opens.insert((user, rid), item);
                mine.push(item);
                if n % 3 == 2 {
                    let sell = mine.remove(0);
                    let res =
                        http.post(format!("{base}/api/v1/sales/sell")).bearer_auth(&token).json(&json!({ "item_id": sell })).send().await;
                    let Ok(res) = res else { return };
                    if res.status() == StatusCode::SERVICE_UNAVAILABLE {
                        continue;
                    }
                    if res.status() != StatusCode::OK || res.json::<Value>().await.is_err() {
                        return;
                    }
                    acked.lock().unwrap().sold.push(sell);
                }
                notify.notify_one();
            }
        }));
    }
    // Kill once enough has been acknowledged, with requests still in flight.
    while acked.lock().unwrap().opens.len() < 90 {
        assert!(
            running.load(std::sync::atomic::Ordering::SeqCst) > 0,
            "the load stopped before the kill: {:?}",
            server.stderr.lock().unwrap()
        );
        notify.notified().await;
    }
    let mut server = server;
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    for t in tasks {
        t.await.unwrap();
    }
    let acked = std::mem::take(&mut *acked.lock().unwrap());
    assert!(acked.opens.len() >= 90 && !acked.sold.is_empty());

    // Restart on the same file: everything acknowledged is there.
    let server = Proc::start(&dir.0, &env_for(&dir.0));
    let mut db = SqliteConnection::connect(&format!("sqlite://{}", dir.0.join("fragbox.db").display())).await.unwrap();
    for ((user, rid), item) in &acked.opens {
        let row: Option<(i64,)> = sqlx::query_as(
            "SELECT i.id FROM case_opens o JOIN inventory_items i ON i.open_id = o.id WHERE o.user_id = $1 AND o.request_id = $2",
        )
        .bind(user)
        .bind(rid)
        .fetch_optional(&mut db)
        .await
        .unwrap();
        assert_eq!(row, Some((*item,)), "acknowledged open {rid} of {user} is missing");
    }
    for item in &acked.sold {
        let (status,): (String,) =
            sqlx::query_as("SELECT status FROM inventory_items WHERE id = $1").bind(item).fetch_one(&mut db).await.unwrap();
        assert_eq!(status, "sold", "acknowledged sale of {item}");
    }
    // A retry of an acknowledged request after the crash answers the first result, charging nothing.
    // Any player with an acknowledged open will do (on a busy machine one may have none).
    let ((user, rid), item) = acked.opens.iter().next().expect("at least 90 acknowledged opens");
    let (_, token) = players.iter().find(|(u, _)| u == user).expect("the open's player");
    let before: (i64,) = sqlx::query_as("SELECT balance FROM users WHERE id = $1").bind(user).fetch_one(&mut db).await.unwrap();
    let again: Value = http
        .post(format!("{}{}", server.base, open_path()))
        .bearer_auth(token)
        .json(&json!({ "requestId": rid }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(again["item"]["id"].as_i64(), Some(*item));
    let after: (i64,) = sqlx::query_as("SELECT balance FROM users WHERE id = $1").bind(user).fetch_one(&mut db).await.unwrap();
    assert_eq!(before, after);
    drop(db);
    server.stop();
    let (ok, out) = cli(&dir.0, &dir.0.join("fragbox.db"), &["audit"]);
    assert!(ok && out.contains("audit clean"), "{out}");
}

/// Sets `PRAGMA max_page_count` on every pooled connection and on the writer thread's connection
/// (the pragma is per connection).
async fn set_max_pages(app: &TestApp, pages: Option<i64>) {
    let writer = app.domain().writer.clone().expect("SQLite runs a writer thread");
    writer
        .run(move |tx| {
            Box::pin(async move {
                let (count,): (i64,) = store::query("PRAGMA page_count").fetch_one(tx).await?;
                let n = pages.map(|extra| count + extra).unwrap_or(1_073_741_823);
                store::query(&format!("PRAGMA max_page_count = {n}")).execute(tx).await?;
                Ok(())
            })
        })
        .await
        .unwrap();
    let pool = &app.domain().db;
    let mut conns = Vec::new();
    for _ in 0..pool.options().get_max_connections() {
        conns.push(pool.acquire().await.unwrap());
    }
    for c in &mut conns {
        let (count,): (i64,) = sqlx::query_as("PRAGMA page_count").fetch_one(&mut **c).await.unwrap();
        let n = pages.map(|extra| count + extra).unwrap_or(1_073_741_823);
        sqlx::query(&format!("PRAGMA max_page_count = {n}")).execute(&mut **c).await.unwrap();
    }
}

#[tokio::test]
async fn a_full_disk_answers_storage_full_and_writes_nothing_by_half() {
    if on_postgres() {
        eprintln!("skipped on PostgreSQL: a property of the SQLite file");
        return;
    }
    let app = TestApp::demo().await;
    let t = app.player_with(920_001, 100_000).await;
    set_max_pages(&app, Some(2)).await;
    let mut ok = 0;
    let mut full = None;
    for n in 0..2000 {
        let res = app
            .http
            .post(format!("{}{}", app.base, open_path()))
            .bearer_auth(&t)
            .json(&json!({ "requestId": format!("f{n}") }))
            .send()
            .await
            .unwrap();
        if res.status() == StatusCode::OK {
            ok += 1;
            continue;
        }
        assert_eq!(res.headers()["retry-after"], "1");
        full = Some(read(res).await);
        break;
    }
    let (s, b) = full.expect("the disk never filled");
    assert_error(s, &b, 503, "storage_full");
    // Reads keep working, and nothing was half-written.
    let (s, _) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(s, StatusCode::OK);
    let (s, _) = app.get("/api/v1/cases", None).await;
    assert_eq!(s, StatusCode::OK);
    let (opens,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM case_opens").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(opens, ok);
    app.audit_clean().await;
    // Space again: the same request id now opens, once.
    set_max_pages(&app, None).await;
    let (s, b) = app.post(open_path(), Some(&t), json!({ "requestId": format!("f{ok}") })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn a_long_writer_makes_writes_answer_busy_and_a_retry_charges_once() {
    if on_postgres() {
        eprintln!("skipped on PostgreSQL: a property of the SQLite file");
        return;
    }
    let app = TestApp::start(Options { env: vec![("DB_BUSY_TIMEOUT_MS", "200".into())], ..Options::default() }).await;
    let t = app.player_with(930_001, 1000).await;
    let before = app.balance(930_001).await;

    let mut writer = SqliteConnection::connect(&app.db_url()).await.unwrap();
    sqlx::query("BEGIN IMMEDIATE").execute(&mut writer).await.unwrap();
    assert_open_busy(&app, &t, "busy-1").await;
    let (s, b) = app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    assert_error(s, &b, 503, "busy");
    // Readers are not blocked by a writer (WAL).
    let (s, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(me["data"]["balance"], json!(before / 100));
    sqlx::query("COMMIT").execute(&mut writer).await.unwrap();

    let (s, first) = app.post(open_path(), Some(&t), json!({ "requestId": "busy-1" })).await;
    assert_eq!(s, StatusCode::OK, "{first}");
    let (_, again) = app.post(open_path(), Some(&t), json!({ "requestId": "busy-1" })).await;
    assert_eq!(again["item"]["id"], first["item"]["id"]);
    let price = app.domain().catalog.case(cheap_case()).unwrap().price.0;
    // One debit, plus the first-open reward.
    assert_eq!(app.balance(930_001).await, before - price + 10_000);
    let (s, _) = app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    app.audit_clean().await;
    app.stop().await;
}

/// Writes of the process wait for their turn in one queue (not in SQLite's busy handler, and
/// holding no pooled connection): with a pool of two, one write transaction open and ten opens
/// waiting behind it, a read still gets the other connection at once; then every open goes
/// through, each charged once. Without the queue the waiting opens take the pool and the read
/// answers 503 busy.
#[tokio::test]
async fn writers_wait_in_one_queue_and_leave_the_pool_to_readers() {
    if on_postgres() {
        eprintln!("skipped on PostgreSQL: row locks, no write queue");
        return;
    }
    let app = TestApp::start(Options {
        env: vec![("DB_MAX_CONNECTIONS", "2".into()), ("DB_BUSY_TIMEOUT_MS", "60000".into())],
        ..Options::default()
    })
    .await;
    let t = app.player_with(930_101, 10 * cheap_case_price() / 100).await;
    let before = app.balance(930_101).await;

    let holder = webapp_api::domain::store::begin_write(&app.domain().db).await.unwrap();
    let mut opens = Vec::new();
    for i in 0..10 {
        let (http, url, t) = (app.http.clone(), format!("{}{}", app.base, open_path()), t.clone());
        opens.push(tokio::spawn(async move {
            let res = http.post(url).bearer_auth(&t).json(&json!({ "requestId": format!("q-{i}") })).send().await.unwrap();
            let status = res.status();
            (status, res.text().await.unwrap_or_default())
        }));
    }
    // Give the opens time to reach the queue (on a slow machine some may arrive later: then
    // they simply queue after the read).
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let (s, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(s, StatusCode::OK, "{me}");
    assert_eq!(me["data"]["balance"], json!(before / 100));
    holder.commit().await.unwrap();
    let mut items = std::collections::HashSet::new();
    for o in opens {
        let (s, body) = o.await.unwrap();
        assert_eq!(s, StatusCode::OK, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        items.insert(v["item"]["id"].as_i64().unwrap());
    }
    assert_eq!(items.len(), 10);
    let price = app.domain().catalog.case(cheap_case()).unwrap().price.0;
    assert_eq!(app.balance(930_101).await, before - 10 * price + 10_000);
    app.audit_clean().await;
    app.stop().await;
}

async fn subscribed(app: &TestApp, user: i64) -> i64 {
    let (s,): (i64,) =
        sqlx::query_as("SELECT tg_subscribed FROM users WHERE id = $1").bind(user).fetch_one(&app.domain().db).await.unwrap();
    s
}

#[tokio::test]
async fn telegram_slow_refusing_or_silent_is_never_read_as_not_subscribed() {
    let app = TestApp::start(Options { bot: true, env: vec![("TELEGRAM_TIMEOUT_MS", "500".into())], ..Options::default() }).await;
    let user = 940_001;
    let t = app.sign_in(user, "Sub").await;
    let check = || app.post("/api/v1/subscription/check-subscription", Some(&t), json!({}));

    app.fake().script("getChatMember", Script::Hang);
    let (s, b) = check().await;
    assert_error(s, &b, 502, "telegram_unavailable");
    app.fake().script("getChatMember", Script::Err(400, "Bad Request: member list is inaccessible".into()));
    let (s, b) = check().await;
    assert_error(s, &b, 502, "subscription_check_failed");
    assert_eq!((app.balance(user).await, subscribed(&app, user).await), (0, 0), "no answer is not a no, and pays nothing");

    // Slow but within the limit: answered, paid once.
    app.fake().script("getChatMember", Script::Delay(std::time::Duration::from_millis(50)));
    let (s, b) = check().await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["data"], json!({ "subscribed": true, "tokensAwarded": 100 }));
    let (_, b) = check().await;
    assert_eq!(b["data"]["tokensAwarded"], json!(0));
    assert_eq!(app.balance(user).await, 10_000);
    app.audit_clean().await;
    app.stop().await;

    // Nothing listening at the Bot API address at all.
    let app =
        TestApp::start(Options { bot: true, env: vec![("TELEGRAM_API_URL", "http://127.0.0.1:9".into())], ..Options::default() }).await;
    let t = app.sign_in(user, "Sub").await;
    let (s, b) = app.post("/api/v1/subscription/check-subscription", Some(&t), json!({})).await;
    assert_error(s, &b, 502, "telegram_unavailable");
    assert_eq!(app.balance(user).await, 0);
    app.stop().await;
}

#[tokio::test]
async fn json_logs_carry_request_ids_and_no_secrets() {
    let dir = TempDir::new();
    let mut env = env_for(&dir.0);
    env.extend([("LOG_FORMAT", "json".into()), ("RUST_LOG", "debug,sqlx=warn,hyper=warn,hyper_util=warn,reqwest=warn".into())]);
    let server = Proc::start(&dir.0, &env);
    let http = reqwest::Client::new();
    let d: Value = http.get(format!("{}/api/v1/dev/init-data", server.base)).send().await.unwrap().json().await.unwrap();
    let init = d["initData"].as_str().unwrap().to_owned();
    let a: Value =
        http.post(format!("{}/api/v1/auth", server.base)).json(&json!({ "initData": init })).send().await.unwrap().json().await.unwrap();
    let token = a["token"].as_str().unwrap().to_owned();
    let trade = "https://steamcommunity.com/tradeoffer/new/?partner=4242&token=SecretTradeToken";
    let res = http
        .put(format!("{}/api/v1/user/trade-url", server.base))
        .bearer_auth(&token)
        .json(&json!({ "tradeUrl": trade }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let rid = res.headers()["x-request-id"].to_str().unwrap().to_owned();
    let _ = http.post(format!("{}/api/v1/auth", server.base)).json(&json!({ "initData": format!("{init}x") })).send().await.unwrap();
    let stderr = server.stderr.clone();
    server.stop();

    let lines = stderr.lock().unwrap().clone();
    assert!(!lines.is_empty());
    for line in &lines {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(v["level"].is_string() && v["timestamp"].is_string(), "{line}");
        let hash = init.rsplit("hash=").next().unwrap();
        for secret in [token.as_str(), hash, "SecretTradeToken", "initData", "%7B%22id%22"] {
            assert!(!line.contains(secret), "a log line leaks {secret:?}: {line}");
        }
    }
    assert!(lines.iter().any(|l| l.contains(&rid)), "no log line carries the request id {rid}");
}

#[tokio::test]
async fn a_backup_restores_into_a_fresh_path_and_audits_clean() {
    if on_postgres() {
        eprintln!("skipped on PostgreSQL: a property of the SQLite file");
        return;
    }
    let app = TestApp::demo().await;
    let t = app.player_with(950_001, 1000).await;
    let mut items = Vec::new();
    for _ in 0..5 {
        let (s, b) = app.post(open_path(), Some(&t), json!({})).await;
        assert_eq!(s, StatusCode::OK);
        items.push(b["item"]["id"].as_i64().unwrap());
    }
    let (s, _) = app.post("/api/v1/sales/sell", Some(&t), json!({ "item_id": items[0] })).await;
    assert_eq!(s, StatusCode::OK);

    // Backup of the live database, while the server runs.
    let elsewhere = TempDir::new();
    let backup = elsewhere.0.join("backup.db");
    let live = app.dir.0.join("fragbox.db");
    let (ok, out) = cli(&app.dir.0, &live, &["backup", backup.to_str().unwrap()]);
    assert!(ok, "{out}");
    let (ok, out) = cli(&app.dir.0, &live, &["backup", backup.to_str().unwrap()]);
    assert!(!ok && out.contains("exists"), "a backup never overwrites: {out}");
    let balance = app.balance(950_001).await;
    app.stop().await;

    // Restore, as docs/operations.md says: copy the backup to the new database path.
    let fresh = TempDir::new();
    let restored = fresh.0.join("restored.db");
    assert!(!restored.exists());
    std::fs::copy(&backup, &restored).unwrap();
    let (ok, out) = cli(&fresh.0, &restored, &["audit"]);
    assert!(ok && out.contains("audit clean"), "{out}");
    let mut db = SqliteConnection::connect(&format!("sqlite://{}", restored.display())).await.unwrap();
    let (b,): (i64,) = sqlx::query_as("SELECT balance FROM users WHERE id = 950001").fetch_one(&mut db).await.unwrap();
    assert_eq!(b, balance);
    let (n, sold): (i64, i64) = sqlx::query_as("SELECT COUNT(*), SUM(status = 'sold') FROM inventory_items WHERE user_id = 950001")
        .fetch_one(&mut db)
        .await
        .unwrap();
    assert_eq!((n, sold), (5, 1));
}
