//! Several `fragbox` processes (the real binary of this test build) on one PostgreSQL database,
//! with the load split between them. Runs when the suite is pointed at PostgreSQL
//! (`FRAGBOX_TEST_POSTGRES_URL`, as `scripts/test.sh` does); on SQLite there is one replica only.
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};
use webapp_api::domain::auth::sign_init_data;
use webapp_api::domain::notifications::Notice;
use webapp_api::domain::outbox;
use webapp_api::domain::{store, Tokens};

use crate::common::*;
use crate::fake_bot_api::{FakeBotApi, Script};

/// One `fragbox` process serving `db_url`, its bot pointed at the fake Bot API.
type Replica = Proc;

fn replica_env(dir: &Path, db_url: &str, fake: &FakeBotApi) -> Vec<(&'static str, String)> {
    let mut env = proc_env(dir, db_url);
    env.extend([
        ("ADMIN_IDS", ADMIN_ID.to_string()),
        ("TELEGRAM_BOT_TOKEN", TOKEN.into()),
        ("TELEGRAM_API_URL", fake.url.clone()),
        ("WEBAPP_URL", "https://app.fragbox.test".into()),
        ("CHANNEL_ID", "@fragbox_news".into()),
    ]);
    env
}

/// Two replicas started at the same moment (so their migrations and catalog upserts race too).
async fn two_replicas(dir: &Path, db_url: &str, fake: &FakeBotApi) -> (Replica, Replica) {
    let (d1, u1, f1) = (dir.join("a"), db_url.to_owned(), fake.clone());
    let (d2, u2, f2) = (dir.join("b"), db_url.to_owned(), fake.clone());
    std::fs::create_dir_all(&d1).unwrap();
    std::fs::create_dir_all(&d2).unwrap();
    let a = tokio::task::spawn_blocking(move || Proc::start(&d1, &replica_env(&d1, &u1, &f1)));
    let b = tokio::task::spawn_blocking(move || Proc::start(&d2, &replica_env(&d2, &u2, &f2)));
    (a.await.unwrap(), b.await.unwrap())
}

/// Runs an operator command of the binary against `db_url`.
fn cli(db_url: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(BIN)
        .args(args)
        .env("DATABASE_URL", db_url)
        .env("CATALOG_DIR", repo_root().join("data/catalog"))
        .env_remove("TELEGRAM_BOT_TOKEN")
        .output()
        .unwrap();
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

fn grant(db_url: &str, user: i64, hundredths: i64) {
    let amount = Tokens(hundredths).to_string();
    let (ok, out) = cli(db_url, &["grant", &user.to_string(), &amount, "--reason", "replica test"]);
    assert!(ok, "grant {amount}: {out}");
}

async fn sign_in(http: &reqwest::Client, base: &str, user_id: i64, start_param: Option<&str>) -> String {
    let user = json!({"id": user_id, "first_name": format!("P{user_id}"), "last_name": "", "language_code": "en"}).to_string();
    let date = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs().to_string();
    let mut pairs = vec![("auth_date", date.as_str()), ("user", user.as_str())];
    if let Some(p) = start_param {
        pairs.push(("start_param", p));
    }
    let init = sign_init_data(&pairs, TOKEN);
    let (s, b) = read(http.post(format!("{base}/api/v1/auth")).json(&json!({ "initData": init })).send().await.unwrap()).await;
    assert_eq!(s, StatusCode::OK, "sign-in on {base}: {b}");
    b["token"].as_str().unwrap().to_owned()
}

async fn open(http: &reqwest::Client, base: &str, token: &str, request_id: &str) -> (StatusCode, Value) {
    let url = format!("{base}{}", open_path());
    read(http.post(url).bearer_auth(token).json(&json!({ "requestId": request_id })).send().await.unwrap()).await
}

async fn balance(pool: &store::Pool, user: i64) -> i64 {
    let (b,): (i64,) = sqlx::query_as("SELECT balance FROM users WHERE id = $1").bind(user).fetch_one(pool).await.unwrap();
    b
}

fn starter_price() -> i64 {
    cheap_case_price()
}

/// Polls `check` (every 100 ms, up to `limit`) until it holds; answers how long it took.
async fn eventually<F, Fut>(limit: Duration, mut check: F) -> Option<Duration>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = Instant::now();
    while started.elapsed() < limit {
        if check().await {
            return Some(started.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    None
}

#[tokio::test]
async fn two_replicas_on_one_postgresql_database_keep_money_exact() {
    if !on_postgres() {
        eprintln!("skipped: several replicas need PostgreSQL (FRAGBOX_TEST_POSTGRES_URL)");
        return;
    }
    let dir = TempDir::new();
    let db_url = fresh_database_url(&dir.0).await;
    let fake = FakeBotApi::start().await;
    let (a, b) = two_replicas(&dir.0, &db_url, &fake).await;
    let pool = store::open(&db_url).await.unwrap();
    let http = reqwest::Client::new();
    let player = 5001;
    let token = sign_in(&http, &a.base, player, None).await;
    let price = starter_price();

    // The first open (and its first-case reward) happens before the race, on replica B.
    grant(&db_url, player, price);
    let (s, first) = open(&http, &b.base, &token, "first").await;
    assert_eq!(s, StatusCode::OK, "{first}");
    let top_up = 10 * price - balance(&pool, player).await;
    if top_up != 0 {
        grant(&db_url, player, top_up);
    }
    assert_eq!(balance(&pool, player).await, 10 * price);

    // 50 opens at once, alternating between the replicas, with money for exactly 10.
    let mut handles = Vec::new();
    for i in 0..50 {
        let (http, token) = (http.clone(), token.clone());
        let base = if i % 2 == 0 { a.base.clone() } else { b.base.clone() };
        handles.push(tokio::spawn(async move { open(&http, &base, &token, &format!("race-{i}")).await }));
    }
    let (mut ok, mut refused) = (0, 0);
    for h in handles {
        let (s, body) = h.await.unwrap();
        match s.as_u16() {
            200 => ok += 1,
            409 if body["code"] == "insufficient_tokens" => refused += 1,
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!((ok, refused), (10, 40));
    assert_eq!(balance(&pool, player).await, 0);
    let (items,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM inventory_items WHERE user_id = $1").bind(player).fetch_one(&pool).await.unwrap();
    assert_eq!(items, 11);
    // Every open drew with its own nonce of the seed.
    let (nonces, distinct): (i64, i64) =
        sqlx::query_as("SELECT COUNT(*), COUNT(DISTINCT seed_id || ':' || nonce) FROM case_opens WHERE user_id = $1")
            .bind(player)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((nonces, distinct), (11, 11));

    // A sell race across the replicas has one winner.
    let item = first["item"]["id"].as_i64().unwrap();
    let mut handles = Vec::new();
    for i in 0..8 {
        let (http, token) = (http.clone(), token.clone());
        let base = if i % 2 == 0 { a.base.clone() } else { b.base.clone() };
        handles.push(tokio::spawn(async move {
            read(http.post(format!("{base}/api/v1/sales/sell")).bearer_auth(token).json(&json!({"item_id": item})).send().await.unwrap())
                .await
        }));
    }
    let mut wins = 0;
    for h in handles {
        let (s, body) = h.await.unwrap();
        if s == StatusCode::OK {
            wins += 1;
        } else {
            assert_error(s, &body, 409, "item_not_available");
        }
    }
    assert_eq!(wins, 1);
    let (sales,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM sales WHERE inventory_item_id = $1").bind(item).fetch_one(&pool).await.unwrap();
    assert_eq!(sales, 1);

    let (ok, out) = cli(&db_url, &["audit"]);
    assert!(ok && out.contains("audit clean"), "{out}");
    pool.close().await;
    drop((a, b));
    drop_database(&db_url).await;
}

#[tokio::test]
async fn players_and_their_inviter_opening_at_once_on_two_replicas_pay_each_referral_once() {
    if !on_postgres() {
        eprintln!("skipped: several replicas need PostgreSQL (FRAGBOX_TEST_POSTGRES_URL)");
        return;
    }
    let dir = TempDir::new();
    let db_url = fresh_database_url(&dir.0).await;
    let fake = FakeBotApi::start().await;
    let (a, b) = two_replicas(&dir.0, &db_url, &fake).await;
    let pool = store::open(&db_url).await.unwrap();
    let http = reqwest::Client::new();
    let price = starter_price();
    let inviter = 7000;
    let inviter_token = sign_in(&http, &a.base, inviter, None).await;
    let (code,): (String,) = sqlx::query_as("SELECT ref_code FROM users WHERE id = $1").bind(inviter).fetch_one(&pool).await.unwrap();
    grant(&db_url, inviter, 20 * price);
    // Friends with ids on both sides of the inviter's, so the two lock orders both occur.
    let friends: Vec<i64> = (0..10).map(|i| if i % 2 == 0 { 6990 - i } else { 7010 + i }).collect();
    let mut tokens = Vec::new();
    for (i, &f) in friends.iter().enumerate() {
        let base = if i % 2 == 0 { &a.base } else { &b.base };
        tokens.push(sign_in(&http, base, f, Some(&format!("ref_{code}"))).await);
        grant(&db_url, f, 3 * price);
    }

    // Every friend opens three cases while the inviter opens twenty, all at once, on both replicas.
    let mut handles = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        for k in 0..3 {
            let (http, t) = (http.clone(), t.clone());
            let base = if (i + k) % 2 == 0 { a.base.clone() } else { b.base.clone() };
            handles.push(tokio::spawn(async move { open(&http, &base, &t, &format!("f{i}-{k}")).await }));
        }
    }
    for k in 0..20 {
        let (http, t) = (http.clone(), inviter_token.clone());
        let base = if k % 2 == 0 { a.base.clone() } else { b.base.clone() };
        handles.push(tokio::spawn(async move { open(&http, &base, &t, &format!("inv-{k}")).await }));
    }
    for h in handles {
        let (s, body) = h.await.unwrap();
        assert_eq!(s, StatusCode::OK, "{body}");
    }
    let (paid,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM ledger_entries WHERE user_id = $1 AND reason = 'referral'")
        .bind(inviter)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(paid, friends.len() as i64);
    let (ok, out) = cli(&db_url, &["audit"]);
    assert!(ok && out.contains("audit clean"), "{out}");
    pool.close().await;
    drop((a, b));
    drop_database(&db_url).await;
}

#[tokio::test]
async fn outbox_senders_on_two_replicas_send_each_message_once() {
    if !on_postgres() {
        eprintln!("skipped: several replicas need PostgreSQL (FRAGBOX_TEST_POSTGRES_URL)");
        return;
    }
    let dir = TempDir::new();
    let db_url = fresh_database_url(&dir.0).await;
    let fake = FakeBotApi::start().await;
    // Each send takes longer than a sender's poll interval: a row both senders picked would
    // certainly be sent twice.
    fake.script_always("sendMessage", Script::Delay(Duration::from_millis(1200)));
    let (a, b) = two_replicas(&dir.0, &db_url, &fake).await;
    let pool = store::open(&db_url).await.unwrap();
    let http = reqwest::Client::new();
    let player = 5101;
    sign_in(&http, &a.base, player, None).await;
    let mut tx = pool.begin().await.unwrap();
    let now = chrono::Utc::now().timestamp();
    for ticket_id in 1..=5 {
        outbox::tell_player(&mut *tx, player, &Notice::TicketClosed { ticket_id }, now).await.unwrap();
    }
    tx.commit().await.unwrap();
    let to_player = || fake.calls("sendMessage").into_iter().filter(|c| c["chat_id"] == json!(player)).count();
    let all_sent = eventually(Duration::from_secs(60), || async {
        let (sent,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM outbox WHERE user_id = $1 AND status = 'sent'")
            .bind(player)
            .fetch_one(&pool)
            .await
            .unwrap();
        sent == 5
    })
    .await;
    assert!(all_sent.is_some(), "not all sent: {} calls", to_player());
    // Both senders poll again at least once more before the count is read.
    tokio::time::sleep(outbox_poll() * 3).await;
    assert_eq!(to_player(), 5);
    pool.close().await;
    drop((a, b));
    drop_database(&db_url).await;
}

fn outbox_poll() -> Duration {
    fragbox::outbox::POLL_EVERY
}

#[tokio::test]
async fn a_revoked_session_and_the_maintenance_switch_reach_every_replica() {
    if !on_postgres() {
        eprintln!("skipped: several replicas need PostgreSQL (FRAGBOX_TEST_POSTGRES_URL)");
        return;
    }
    let dir = TempDir::new();
    let db_url = fresh_database_url(&dir.0).await;
    let fake = FakeBotApi::start().await;
    let (a, b) = two_replicas(&dir.0, &db_url, &fake).await;
    let http = reqwest::Client::new();
    let token = sign_in(&http, &a.base, 5201, None).await;
    let me = |base: String| {
        let (http, token) = (http.clone(), token.clone());
        async move { http.get(format!("{base}/api/v1/me")).bearer_auth(token).send().await.unwrap().status() }
    };
    // Replica B has the session in its cache now.
    assert_eq!(me(b.base.clone()).await, StatusCode::OK);
    let (s, _) = read(http.post(format!("{}/api/v1/auth/logout", a.base)).bearer_auth(&token).json(&json!({})).send().await.unwrap()).await;
    assert!(s.is_success());
    // The cache trusts a session for 3 s (`SESSION_CACHE_SECS`); polled with a generous limit.
    let took = eventually(Duration::from_secs(30), || async { me(b.base.clone()).await == StatusCode::UNAUTHORIZED }).await;
    assert!(took.is_some(), "replica B still accepts a session revoked on replica A");
    eprintln!("revocation reached the other replica after {took:?}");

    // The maintenance switch, set by the operator CLI, reaches both replicas.
    let (ok, out) = cli(&db_url, &["maintenance", "on"]);
    assert!(ok, "{out}");
    for r in [&a, &b] {
        let took = eventually(Duration::from_secs(30), || async {
            let v: Value = http.get(format!("{}/api/v1/status", r.base)).send().await.unwrap().json().await.unwrap();
            v["maintenance"] == json!(true)
        })
        .await;
        assert!(took.is_some(), "{} never saw maintenance on", r.base);
    }
    let (ok, out) = cli(&db_url, &["maintenance", "off"]);
    assert!(ok, "{out}");
    drop((a, b));
    drop_database(&db_url).await;
}
