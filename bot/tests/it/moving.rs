//! Moving a shop from its SQLite file to PostgreSQL (`fragbox migrate-db`) and backing up on
//! PostgreSQL (`fragbox backup`). Runs when the suite has a PostgreSQL server.
use std::process::Command;

use reqwest::StatusCode;
use serde_json::json;

use crate::common::*;
use crate::payments::{charge_id, invoice, pay};

const BIN: &str = env!("CARGO_BIN_EXE_fragbox");

fn fragbox(db_url: &str, args: &[&str]) -> (i32, String) {
    let out = Command::new(BIN)
        .args(args)
        .env("DATABASE_URL", db_url)
        .env("CATALOG_DIR", repo_root().join("data/catalog"))
        .env_remove("TELEGRAM_BOT_TOKEN")
        .output()
        .expect("run fragbox");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// A shop with something in every table: referral, opens, a sale, a withdrawal, a daily claim,
/// a paid and a pending purchase, a ticket forwarded to the admin, a rotated seed, sessions.
async fn busy_shop(app: &TestApp) {
    let inviter = app.sign_in(8001, "Inviter").await;
    let (code,): (String,) = sqlx::query_as("SELECT ref_code FROM users WHERE id = 8001").fetch_one(&app.domain().db).await.unwrap();
    let friend = app.sign_in_with(8002, "Friend", Some(&format!("ref_{code}"))).await;
    app.grant(8001, 2000).await;
    app.grant(8002, 2000).await;
    let mut items = Vec::new();
    for t in [&inviter, &friend, &inviter, &friend, &inviter] {
        items.push(app.open_ok(t, cheap_case(), None).await["item"]["id"].as_i64().unwrap());
    }
    let (s, b) = app.post("/api/v1/sales/sell", Some(&inviter), json!({"item_id": items[0]})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let url = "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc";
    let (s, b) = app.post(&format!("/api/v1/user/item/{}/request-withdrawal", items[2]), Some(&inviter), json!({"trade_url": url})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let (s, b) = app.post("/api/v1/daily-reward/claim", Some(&friend), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let (s, b) = app.post("/api/v1/fair/rotate", Some(&friend), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let tx = invoice(app, &friend, 8002, "pack-m").await;
    pay(app, 8002, &tx, 250, &charge_id("moving")).await;
    invoice(app, &inviter, 8001, "pack-m").await;
    let (s, b) = app.post("/api/v1/support/tickets", Some(&friend), json!({"theme": "bug", "message": "The wheel is slow"})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    app.fake().wait_calls("sendMessage", 2).await;
}

#[tokio::test]
async fn migrate_db_copies_a_live_shop_into_an_empty_postgresql_database_and_refuses_a_full_one() {
    if !on_postgres() {
        eprintln!("skipped: needs a PostgreSQL server (FRAGBOX_TEST_POSTGRES_URL)");
        return;
    }
    let app = TestApp::start(Options { bot: true, sqlite: true, ..Options::default() }).await;
    busy_shop(&app).await;
    let balances: Vec<(i64, i64)> = sqlx::query_as("SELECT id, balance FROM users ORDER BY id").fetch_all(&app.domain().db).await.unwrap();
    let target_dir = TempDir::new();
    let target = fresh_database_url(&target_dir.0).await;

    // Copied while the SQLite server keeps running.
    let (code, out) = fragbox(&target, &["migrate-db", "--from", &app.db_url(), "--to", &target]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("copied and verified"), "{out}");
    for table in ["users", "ledger_entries", "case_opens", "inventory_items", "sales", "withdrawals", "payments", "tickets", "outbox"] {
        let line = out.lines().find(|l| l.contains(&format!(" {table}: "))).unwrap_or("");
        assert!(line.starts_with("ok"), "{table}: {out}");
        let n: i64 = line.rsplit(' ').next().unwrap().parse().unwrap();
        assert!(n > 0, "{table} copied no rows: {out}");
    }
    // A second copy into the same database is refused and changes nothing.
    let (code, out) = fragbox(&target, &["migrate-db", "--from", &app.db_url(), "--to", &target]);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("not empty"), "{out}");
    app.stop().await;

    // The shop runs on PostgreSQL now: same balances, new rows continue the copied ids.
    let moved = TestApp::start(Options { bot: true, env: vec![("DATABASE_URL", target.clone())], ..Options::default() }).await;
    let after: Vec<(i64, i64)> = sqlx::query_as("SELECT id, balance FROM users ORDER BY id").fetch_all(&moved.domain().db).await.unwrap();
    assert_eq!(after, balances);
    let t = moved.sign_in(8001, "Inviter").await;
    moved.open_ok(&t, cheap_case(), None).await;
    moved.audit_clean().await;
    let (code, out) = fragbox(&target, &["audit"]);
    assert_eq!(code, 0, "{out}");
    moved.stop().await;
}

#[tokio::test]
async fn migrate_db_refuses_anything_but_sqlite_to_postgresql() {
    let dir = TempDir::new();
    let (code, out) =
        fragbox("sqlite://unused.db", &["migrate-db", "--from", "postgres://x@127.0.0.1:1/x", "--to", "postgres://x@127.0.0.1:1/y"]);
    assert_ne!(code, 0);
    assert!(out.contains("--from must be an SQLite URL"), "{out}");
    let missing = format!("sqlite://{}", dir.0.join("none.db").display());
    let (code, out) = fragbox("sqlite://unused.db", &["migrate-db", "--from", &missing, "--to", "postgres://x@127.0.0.1:1/y"]);
    assert_ne!(code, 0);
    assert!(out.contains("no SQLite file"), "{out}");
}

#[tokio::test]
async fn backup_on_postgresql_writes_a_pg_dump_that_restores_and_audits_clean() {
    if !on_postgres() {
        eprintln!("skipped: needs a PostgreSQL server (FRAGBOX_TEST_POSTGRES_URL)");
        return;
    }
    let app = TestApp::with_bot().await;
    let t = app.player_with(8101, 500).await;
    app.open_ok(&t, cheap_case(), None).await;
    let file = app.dir.0.join("shop.dump");
    let (code, out) = fragbox(&app.db_url(), &["backup", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = fragbox(&app.db_url(), &["backup", file.to_str().unwrap()]);
    assert_ne!(code, 0, "an existing file is never overwritten: {out}");

    // Restore into a fresh database with pg_restore, then audit it.
    let restore_dir = TempDir::new();
    let restored = fresh_database_url(&restore_dir.0).await;
    let pg_restore = std::fs::read_dir("/usr/lib/postgresql")
        .ok()
        .and_then(|d| d.filter_map(Result::ok).map(|e| e.path().join("bin/pg_restore")).filter(|p| p.exists()).max())
        .unwrap_or_else(|| "pg_restore".into());
    let out = Command::new(pg_restore).args(["--no-owner", "--dbname", &restored, file.to_str().unwrap()]).output().unwrap();
    assert!(out.status.success(), "pg_restore: {}", String::from_utf8_lossy(&out.stderr));
    let (code, out) = fragbox(&restored, &["audit"]);
    assert_eq!(code, 0, "{out}");
    let pool = webapp_api::domain::store::open(&restored).await.unwrap();
    let (b,): (i64,) = sqlx::query_as("SELECT balance FROM users WHERE id = 8101").fetch_one(&pool).await.unwrap();
    assert_eq!(b, app.balance(8101).await);
    pool.close().await;
    drop_database(&restored).await;
    app.stop().await;
}
