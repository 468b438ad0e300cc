//! The operator CLI (the real binary on the app's database) and the notification outbox.
use std::process::Command;
use std::time::Duration;

use serde_json::json;
use webapp_api::domain::notifications::Notice;
use webapp_api::domain::outbox;

use crate::common::*;
use crate::fake_bot_api::Script;

/// Runs the real binary on the app's database. It waits on a blocking thread: the app shares this
/// test's one-thread runtime, and a task of it caught inside a write transaction (the outbox
/// sending the notice a CLI command queued) must be able to finish it meanwhile, or the CLI waits
/// for SQLite's lock until its busy timeout.
pub async fn fragbox(app: &TestApp, args: &[&str]) -> (i32, String) {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let db_url = app.db_url();
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_fragbox"))
            .args(&args)
            .env("DATABASE_URL", db_url)
            .env("CATALOG_DIR", repo_root().join("data/catalog"))
            .env_remove("TELEGRAM_BOT_TOKEN")
            .output()
            .expect("run fragbox")
    })
    .await
    .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

#[tokio::test]
async fn the_cli_grants_audits_and_resolves_withdrawals_on_the_live_database() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(600, "Cli").await;
    let (code, out) = fragbox(&app, &["grant", "600", "12.5", "--reason", "welcome back"]).await;
    assert_eq!(code, 0, "{out}");
    assert_eq!(app.balance(600).await, 1250);
    let (code, out) = fragbox(&app, &["grant", "600", "1.234", "--reason", "x"]).await;
    assert_ne!(code, 0, "{out}");
    let (code, _) = fragbox(&app, &["grant", "600", "-99999", "--reason", "too much"]).await;
    assert_ne!(code, 0);
    assert_eq!(app.balance(600).await, 1250);
    // A bonus grant buys skins that stay in the shop; a paid one (compensation) may leave.
    fragbox(&app, &["grant", "600", &(cheap_case_price() / 100).to_string(), "--reason", "bonus"]).await;
    let (_, bonus) = app.post(open_path(), Some(&t), json!({})).await;
    let bonus_item = bonus["item"]["id"].as_i64().unwrap();
    assert_eq!(bonus["item"]["withdrawable"], json!(false), "{bonus}");
    let (s, b) = app
        .post(
            &format!("/api/v1/user/item/{bonus_item}/request-withdrawal"),
            Some(&t),
            json!({"trade_url": "https://steamcommunity.com/tradeoffer/new/?partner=42&token=zz"}),
        )
        .await;
    assert_error(s, &b, 409, "bonus_item");
    fragbox(&app, &["grant", "600", &(cheap_case_price() / 100).to_string(), "--paid", "--reason", "cases"]).await;
    let (_, opened) = app.post(open_path(), Some(&t), json!({})).await;
    let item = opened["item"]["id"].as_i64().unwrap();
    let url = "https://steamcommunity.com/tradeoffer/new/?partner=42&token=zz";
    let (_, w) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": url})).await;
    let wid = w["withdrawalId"].as_i64().unwrap().to_string();
    let (code, out) = fragbox(&app, &["withdrawals", "list"]).await;
    assert_eq!(code, 0);
    assert!(out.contains(&format!("#{wid}")) && out.contains(url) && out.contains("76561197960265770"), "{out}");
    let (code, out) = fragbox(&app, &["withdrawals", "error", &wid, "--reason", "Trade", "hold"]).await;
    assert_eq!(code, 0, "{out}");
    let (_, b) = app.get(&format!("/api/v1/user/item/{item}"), Some(&t)).await;
    assert_eq!((b["item"]["status"].clone(), b["item"]["statusReason"].clone()), (json!("error"), json!("Trade hold")));
    let (code, out) = fragbox(&app, &["audit"]).await;
    assert_eq!(code, 0, "{out}");
    sqlx::query("UPDATE users SET balance = balance + 5 WHERE id = 600").execute(&app.domain().db).await.unwrap();
    let (code, out) = fragbox(&app, &["audit"]).await;
    assert_ne!(code, 0);
    assert!(out.contains("VIOLATION"), "{out}");
    app.stop().await;
}

#[tokio::test]
async fn maintenance_switched_by_the_cli_reaches_the_running_api() {
    let app = TestApp::with_bot().await;
    let (code, _) = fragbox(&app, &["maintenance", "on"]).await;
    assert_eq!(code, 0);
    tokio::time::sleep(Duration::from_millis(2100)).await; // the API trusts its cached read for 2 s
    let (_, st) = app.get("/api/v1/status", None).await;
    assert_eq!(st["maintenance"], json!(true));
    fragbox(&app, &["maintenance", "off"]).await;
    let (code, out) = fragbox(&app, &["maintenance", "status"]).await;
    assert_eq!((code, out.trim().ends_with("maintenance off")), (0, true), "{out}");
    app.stop().await;
}

#[tokio::test]
async fn catalog_check_prints_return_to_player_and_fails_outside_the_band() {
    let app = TestApp::demo().await;
    let (code, out) = fragbox(&app, &["catalog", "check"]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("RTP") && out.contains("chance"));
    // A case paying back more than it costs is refused.
    let dir = TempDir::new();
    for f in ["items.json", "prices.json", "packages.json"] {
        std::fs::copy(repo_root().join("data/catalog").join(f), dir.0.join(f)).unwrap();
    }
    let mut cases: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo_root().join("data/catalog/cases.json")).unwrap()).unwrap();
    cases["cases"][0]["price"] = json!(1);
    std::fs::write(dir.0.join("cases.json"), cases.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fragbox")).args(["catalog", "check"]).env("CATALOG_DIR", &dir.0).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("OUTSIDE"));
    // Hand-set weights (every entry weighted), one of them zero.
    let ids: Vec<serde_json::Value> = cases["cases"][0]["items"].as_array().unwrap().clone();
    cases["cases"][0]["items"] = ids.iter().map(|id| json!({"item": id, "weight": 1})).collect();
    cases["cases"][0]["items"][0]["weight"] = json!(0);
    std::fs::write(dir.0.join("cases.json"), cases.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fragbox")).args(["catalog", "check"]).env("CATALOG_DIR", &dir.0).output().unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("weight 0"));
    app.stop().await;
}

#[tokio::test]
async fn the_outbox_retries_while_telegram_fails_and_gives_up_on_blocked_users() {
    let app = TestApp::with_bot().await;
    app.sign_in(700, "Flaky").await;
    app.sign_in(701, "Blocker").await;
    app.fake().script("sendMessage", Script::Err(429, "Too Many Requests: retry after 1".into()));
    app.fake().script("sendMessage", Script::Err(403, "Forbidden: bot was blocked by the user".into()));
    let mut tx = app.domain().db.begin().await.unwrap();
    let now = app.domain().now();
    outbox::tell_player(&mut *tx, 700, &Notice::TicketClosed { ticket_id: 1 }, now).await.unwrap();
    outbox::tell_player(&mut *tx, 701, &Notice::TicketClosed { ticket_id: 2 }, now).await.unwrap();
    tx.commit().await.unwrap();
    app.fake().wait_calls("sendMessage", 2).await;
    // Both attempts are recorded after their calls: poll for them (no fixed wait on a busy machine).
    let mut rows: Vec<(i64, String, i64, Option<String>, i64)> = Vec::new();
    for _ in 0..2400 {
        rows = sqlx::query_as(
            "SELECT user_id, status, attempts, last_error, next_attempt_at FROM outbox WHERE channel = 'player' ORDER BY user_id",
        )
        .fetch_all(&app.domain().db)
        .await
        .unwrap();
        let blocked: (i64,) = sqlx::query_as("SELECT bot_blocked FROM users WHERE id = 701").fetch_one(&app.domain().db).await.unwrap();
        if rows.iter().all(|r| r.2 >= 1) && blocked.0 != 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(rows[0].0, 700);
    assert_eq!((rows[0].1.as_str(), rows[0].2), ("pending", 1), "{rows:?}");
    assert!(rows[0].4 > now, "retry is scheduled later");
    assert_eq!((rows[1].1.as_str(), rows[1].2), ("failed", 1), "{rows:?}");
    assert!(rows[1].3.as_deref().unwrap_or("").contains("blocked"));
    let (blocked,): (i64,) = sqlx::query_as("SELECT bot_blocked FROM users WHERE id = 701").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(blocked, 1);
    app.stop().await;
}

/// Runs the binary on `db_url` with nothing else from the environment that names a shop.
fn fragbox_on(db_url: &str, cwd: &std::path::Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fragbox"))
        .args(args)
        .env("DATABASE_URL", db_url)
        .env("CATALOG_DIR", repo_root().join("data/catalog"))
        .env_remove("TELEGRAM_BOT_TOKEN")
        // No `.env` from the checkout.
        .current_dir(cwd)
        .output()
        .expect("run fragbox");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// Every command that works on the shop's database.
const SHOP_COMMANDS: &[&[&str]] = &[
    &["audit"],
    &["grant", "600", "5", "--reason", "typo"],
    &["withdrawals"],
    &["withdrawals", "list"],
    &["withdrawals", "sent", "1"],
    &["withdrawals", "error", "1", "other"],
    &["maintenance", "on"],
    &["maintenance", "status"],
    &["backup", "copy.db"],
];

#[tokio::test]
async fn the_cli_refuses_a_mistyped_shop_path_and_creates_nothing() {
    let dir = TempDir::new();
    let path = dir.0.join("typo").join("fragbox.db");
    let url = format!("sqlite://{}", path.display());
    for args in SHOP_COMMANDS {
        let (code, out) = fragbox_on(&url, &dir.0, args);
        assert_ne!(code, 0, "{args:?}: {out}");
        assert!(out.contains(&path.display().to_string()), "{args:?} names the path it looked at: {out}");
    }
    let left: Vec<_> = std::fs::read_dir(&dir.0).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "nothing is created: {left:?}");
}

#[tokio::test]
async fn the_cli_refuses_an_existing_file_or_database_without_our_schema() {
    let dir = TempDir::new();
    // SQLite: an empty file where the shop should be. PostgreSQL: a database nobody migrated.
    let url = if on_postgres() {
        fresh_database_url(&dir.0).await
    } else {
        let empty = dir.0.join("empty.db");
        std::fs::write(&empty, b"").unwrap();
        format!("sqlite://{}", empty.display())
    };
    for args in SHOP_COMMANDS {
        let (code, out) = fragbox_on(&url, &dir.0, args);
        assert_ne!(code, 0, "{args:?}: {out}");
        assert!(out.contains("schema_migrations"), "{args:?}: {out}");
    }
    if on_postgres() {
        let pool = webapp_api::domain::store::open(&url).await.unwrap();
        let (tables,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'").fetch_one(&pool).await.unwrap();
        assert_eq!(tables, 0, "no table was created");
        pool.close().await;
        drop_database(&url).await;
    } else {
        let names: Vec<_> = std::fs::read_dir(&dir.0).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert_eq!(names, vec!["empty.db".to_owned()], "no journal, no backup file");
        assert_eq!(std::fs::metadata(dir.0.join("empty.db")).unwrap().len(), 0, "the file is untouched");
    }
}

#[tokio::test]
async fn every_command_answers_help_and_a_bad_command_line_exits_2() {
    let dir = TempDir::new();
    for cmd in [
        &["--help"][..],
        &["serve", "--help"],
        &["grant", "--help"],
        &["audit", "--help"],
        &["catalog", "check", "--help"],
        &["catalog", "images", "--help"],
        &["withdrawals", "error", "--help"],
        &["maintenance", "--help"],
        &["backup", "--help"],
        &["migrate-db", "--help"],
        &["openapi", "--help"],
    ] {
        let (code, out) = fragbox_on("sqlite://unused.db", &dir.0, cmd);
        assert_eq!(code, 0, "{cmd:?}: {out}");
        assert!(out.contains("Usage: fragbox"), "{cmd:?}: {out}");
    }
    let (code, out) = fragbox_on("sqlite://unused.db", &dir.0, &["grnat", "1", "2"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("grant"), "clap suggests the command meant: {out}");
    assert!(!dir.0.join("unused.db").exists());
}

#[tokio::test]
async fn fragbox_openapi_prints_the_document_the_server_serves_without_a_database() {
    let app = TestApp::demo().await;
    let served = app.http.get(format!("{}/api/v1/openapi.json", app.base)).send().await.unwrap().bytes().await.unwrap();
    let dir = TempDir::new();

    // Only what every process has: no shop, no catalog, no token, no `.env`.
    let out = Command::new(env!("CARGO_BIN_EXE_fragbox"))
        .arg("openapi")
        .env("DATABASE_URL", "sqlite://unused.db")
        .env_remove("CATALOG_DIR")
        .env_remove("TELEGRAM_BOT_TOKEN")
        .current_dir(&dir.0)
        .output()
        .expect("run fragbox");

    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = out.stdout.strip_suffix(b"\n").expect("the document ends with a newline");
    assert!(printed == &served[..], "`fragbox openapi` prints the served bytes:\n{}", String::from_utf8_lossy(printed));
    let doc: serde_json::Value = serde_json::from_slice(printed).unwrap();
    assert_eq!(doc["openapi"], json!("3.1.0"));
    assert!(!dir.0.join("unused.db").exists(), "no shop is created");
    app.stop().await;
}

/// The last ledger entry of a player: reason, amount, bonus part.
async fn last_entry(app: &TestApp, user: i64) -> (String, i64, i64) {
    sqlx::query_as("SELECT reason, amount, bonus_amount FROM ledger_entries WHERE user_id = $1 ORDER BY id DESC LIMIT 1")
        .bind(user)
        .fetch_one(&app.domain().db)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_grant_says_what_it_credits_and_never_takes_a_flag_for_part_of_its_reason() {
    let app = TestApp::demo().await;
    app.sign_in(610, "Flags").await;
    let before = app.balance(610).await;

    // `--paid` after the reason is the flag: paid tokens, for the reason alone, marked paid in
    // the ledger and the admin audit log.
    let (code, out) = fragbox(&app, &["grant", "610", "5", "--reason", "lost", "skin", "--paid"]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("user 610: +5 paid tokens (lost skin)"), "{out}");
    assert_eq!(last_entry(&app, 610).await, ("grant:paid: lost skin".to_owned(), 500, 0));
    let (detail,): (String,) = sqlx::query_as("SELECT detail FROM admin_audit WHERE action = 'grant' ORDER BY id DESC LIMIT 1")
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    assert_eq!(detail, "610 5 paid lost skin");
    // The audit counts it as paid value, apart from purchases, and stays clean.
    let (code, out) = fragbox(&app, &["audit"]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("value total: paid 0 stars = 0 tokens, granted as paid 5 tokens;"), "{out}");

    // Without it, a bonus grant says so.
    let (code, out) = fragbox(&app, &["grant", "610", "1", "--reason", "welcome"]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("user 610: +1 bonus tokens (welcome)"), "{out}");
    assert_eq!(last_entry(&app, 610).await, ("grant: welcome".to_owned(), 100, 100));

    // An unknown flag, anywhere, is refused (exit 2) and nothing is granted.
    for args in [
        &["grant", "610", "5", "--reason", "typo", "--piad"][..],
        &["grant", "610", "5", "--reason", "typo", "-p"],
        &["grant", "610", "5", "--piad", "--reason", "typo"],
    ] {
        let (code, out) = fragbox(&app, args).await;
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.contains("unexpected argument"), "{args:?}: {out}");
    }
    // A paid grant only credits.
    let (code, out) = fragbox(&app, &["grant", "610", "-1", "--paid", "--reason", "oops"]).await;
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("only a credit can be paid"), "{out}");
    assert_eq!(app.balance(610).await, before + 600);
    // The other commands with a reason read it the same way.
    for args in
        [&["responsible", "lift", "610", "--reason", "asked", "--force"][..], &["withdrawals", "error", "1", "--reason", "x", "--now"]]
    {
        let (code, out) = fragbox(&app, args).await;
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.contains("unexpected argument"), "{args:?}: {out}");
    }
    app.stop().await;
}
