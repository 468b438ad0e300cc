//! SQLite's writer thread: opens queued while another writer holds the turn commit together (one
//! transaction), a refused open in the batch undoes only itself, a replay answers the stored
//! result, and a batch that cannot start answers every request `busy` and writes nothing.
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;
use sqlx::{Connection, SqliteConnection};
use webapp_api::domain::store;
use webapp_api::domain::store::writer::{Writer, MAX_BATCH};

use crate::common::*;

fn writer(app: &TestApp) -> std::sync::Arc<Writer> {
    app.domain().writer.clone().expect("SQLite runs a writer thread")
}

/// Polls until the writer has been handed `n` more requests than `before`.
async fn wait_queued(w: &Writer, before: u64, n: u64) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while w.stats().requests < before + n {
        assert!(Instant::now() < deadline, "only {} of {n} opens reached the writer", w.stats().requests - before);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn opens_waiting_for_the_turn_commit_in_one_batch_and_a_refusal_undoes_only_itself() {
    if on_postgres() {
        let app = TestApp::with_bot().await;
        assert!(app.domain().writer.is_none(), "PostgreSQL has no writer thread");
        app.stop().await;
        return;
    }
    let app = TestApp::with_bot().await;
    let user = 940_001;
    let price = app.domain().catalog.case(cheap_case()).unwrap().price.0;
    // A first open (its rewards included) goes through the writer like every other.
    let t = app.player_with(user, price / 100).await;
    let (s, b) = app.open(&t, cheap_case(), Some("first")).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    // Exactly `affordable` more opens' worth of tokens.
    let current = app.balance(user).await;
    let affordable = (current / price + 1).max(10);
    let top_up = affordable * price - current;
    assert_eq!(top_up % 100, 0);
    app.grant(user, top_up / 100).await;
    let refused = 20;
    let total = affordable + refused;
    assert!(total as usize <= MAX_BATCH, "the opens must fit one batch");

    let w = writer(&app);
    let before = w.stats();
    // Another writer holds the process's write turn: every open queues in the writer's inbox.
    let turn = store::write_turn(&app.domain().db).await.unwrap();
    let mut tasks = Vec::new();
    for n in 0..total {
        let http = app.http.clone();
        let url = format!("{}{}", app.base, open_path());
        let t = t.clone();
        tasks.push(tokio::spawn(async move {
            let res = http.post(url).bearer_auth(t).json(&json!({ "requestId": format!("b{n}") })).send().await.unwrap();
            (n, read(res).await)
        }));
    }
    wait_queued(&w, before.requests, total as u64).await;
    drop(turn);
    let mut won = Vec::new();
    for task in tasks {
        let (n, (s, b)) = task.await.unwrap();
        match s {
            StatusCode::OK => won.push((n, b["item"]["id"].as_i64().unwrap())),
            _ => assert_error(s, &b, 409, "insufficient_tokens"),
        }
    }
    assert_eq!(won.len() as i64, affordable);
    // Every write runs on the writer, so the bot's outbox sender may add a request of its own
    // in the window; each such write explains at most one more transaction. Such a request is
    // counted by its sender just after it is handed over, so on a busy machine the writer may
    // already have counted it committed, and a request just counted may not be committed yet:
    // the figures are read once the two counts agree (or the deadline, and the checks below fail).
    let deadline = Instant::now() + Duration::from_secs(60);
    let after = loop {
        let s = w.stats();
        if s.committed - before.committed == s.requests - before.requests || Instant::now() > deadline {
            break s;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let requests = after.requests - before.requests;
    assert!(requests >= total as u64, "{requests} requests for {total} opens");
    let background = requests - total as u64;
    assert!(after.batches - before.batches <= 1 + background, "one transaction for every queued open");
    assert_eq!(after.committed - before.committed, requests);
    assert_eq!(app.balance(user).await, 0);
    let (items,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM inventory_items WHERE user_id = $1").bind(user).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(items, affordable + 1);
    let (opens,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM case_opens WHERE user_id = $1").bind(user).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(opens, affordable + 1, "a refused open leaves no row behind");
    // A repeated request id answers the stored result through the writer and charges nothing.
    let (n, item) = won[0];
    let (s, again) = app.open(&t, cheap_case(), Some(&format!("b{n}"))).await;
    assert_eq!(s, StatusCode::OK, "{again}");
    assert_eq!(again["item"]["id"].as_i64(), Some(item));
    assert_eq!(app.balance(user).await, 0);
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn a_batch_that_cannot_start_answers_busy_and_a_retry_charges_once() {
    if on_postgres() {
        eprintln!("skipped on PostgreSQL: SQLite's writer thread");
        return;
    }
    let app = TestApp::start(Options { bot: true, env: vec![("DB_BUSY_TIMEOUT_MS", "200".into())], ..Options::default() }).await;
    let user = 940_101;
    let t = app.player_with(user, 1000).await;
    let (s, b) = app.open(&t, cheap_case(), Some("first")).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let before_balance = app.balance(user).await;
    let w = writer(&app);

    // A writer outside the process (the CLI, a migration) holds SQLite's lock past the timeout.
    // The counts are read while it holds the lock: background writes (outboxes, the feed's
    // upkeep) may commit before and after, never in between.
    let mut outside = SqliteConnection::connect(&app.db_url()).await.unwrap();
    sqlx::query("BEGIN IMMEDIATE").execute(&mut outside).await.unwrap();
    let before = w.stats();
    assert_open_busy(&app, &t, "busy-2").await;
    let mid = w.stats();
    sqlx::query("COMMIT").execute(&mut outside).await.unwrap();
    assert!(mid.requests > before.requests, "the open went to the writer");
    assert_eq!(mid.committed, before.committed, "nothing of the failed batch committed");
    assert_eq!(app.balance(user).await, before_balance);

    let (s, first) = app.open(&t, cheap_case(), Some("busy-2")).await;
    assert_eq!(s, StatusCode::OK, "{first}");
    let (_, again) = app.open(&t, cheap_case(), Some("busy-2")).await;
    assert_eq!(again["item"]["id"], first["item"]["id"]);
    let price = app.domain().catalog.case(cheap_case()).unwrap().price.0;
    assert_eq!(app.balance(user).await, before_balance - price);
    app.audit_clean().await;
    app.stop().await;
}

/// Under writes that never pause, the WAL still starts over: it stays a fraction of what was
/// written instead of growing with it (passive checkpoints alone let it reach 900 MB in ten
/// seconds of opens, and the first write after a lull then stalled for a second truncating it).
#[tokio::test]
async fn the_wal_stays_bounded_under_writes_that_never_pause() {
    if on_postgres() {
        eprintln!("skipped on PostgreSQL: SQLite's WAL");
        return;
    }
    let app = TestApp::with_bot().await;
    sqlx::query("CREATE TABLE wal_probe(b BLOB NOT NULL)").execute(&app.domain().db).await.unwrap();
    const BLOB: usize = 64 * 1024;
    const WRITES: usize = 4800; // 300 MiB of rows, twice the bound asserted below
    let mut tasks = Vec::new();
    for t in 0..8 {
        let domain = app.domain().clone();
        tasks.push(tokio::spawn(async move {
            for _ in (t..WRITES).step_by(8) {
                domain
                    .write(|tx| {
                        Box::pin(async move {
                            store::query("INSERT INTO wal_probe(b) VALUES (randomblob(65536))").execute(tx).await?;
                            Ok(())
                        })
                    })
                    .await
                    .unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let url = app.db_url();
    let db = url.trim_start_matches("sqlite://");
    let wal = std::fs::metadata(format!("{db}-wal")).map(|m| m.len()).unwrap_or(0);
    let written = (WRITES * BLOB) as u64;
    // Bounded, not tight: rows this large are new pages each, which the checkpoint copies no
    // faster than 8 writers append them, so the log reaches a few times `RESTART_FRAMES` before
    // the writer is made to wait; without the restart it would hold everything written.
    assert!(wal < written / 2, "the WAL reached {} MiB for {} MiB written", wal >> 20, written >> 20);
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM wal_probe").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(rows as usize, WRITES);
    // The restarts were made by taking the write turn, and the metrics count each and its time.
    let stats = app.domain().writer.as_ref().expect("an SQLite file runs the writer").stats();
    assert!(stats.checkpoint_turns > 0 && stats.checkpoint_turn_micros > 0, "{stats:?}");
    app.stop().await;
}

/// SQLite's reader threads: the profile and the inventory run on them, each read sees every
/// write already answered, and a "read" that writes is refused with nothing written.
#[tokio::test]
async fn hot_reads_run_on_the_reader_threads_see_every_answered_write_and_cannot_write() {
    let app = TestApp::with_bot().await;
    if on_postgres() {
        assert!(app.domain().readers.is_none(), "PostgreSQL reads on its pool");
        app.stop().await;
        return;
    }
    let readers = app.domain().readers.clone().expect("an SQLite file runs reader threads");
    assert!(readers.threads() >= 2);
    let user = 940_101;
    let price = app.domain().catalog.case(cheap_case()).unwrap().price.0;
    let t = app.player_with(user, 3 * price / 100 + 1).await;
    for i in 0..3 {
        let before = readers.reads();
        let (s, b) = app.open(&t, cheap_case(), Some(&format!("read-{i}"))).await;
        assert_eq!(s, StatusCode::OK, "{b}");
        let won = b["item"]["id"].as_i64().expect("the won item's id");
        // Asked right after the open's answer: the reader's snapshot already holds it.
        let (s, me) = app.get("/api/v1/me", Some(&t)).await;
        assert_eq!(s, StatusCode::OK, "{me}");
        assert_eq!(me["data"]["balance"].as_f64().map(|v| (v * 100.0).round() as i64), Some(app.balance(user).await));
        let (s, items) = app.get("/api/v1/user/items", Some(&t)).await;
        assert_eq!(s, StatusCode::OK, "{items}");
        let ids: Vec<i64> = items["data"].as_array().unwrap().iter().filter_map(|i| i["id"].as_i64()).collect();
        assert!(ids.contains(&won), "item {won} missing from {ids:?}");
        assert_eq!(ids.len(), i + 1);
        assert!(readers.reads() >= before + 2, "the profile and the inventory ran on the pool, not the readers");
    }
    let balance = app.balance(user).await;
    let wrote = app
        .domain()
        .read(move |c| Box::pin(async move { store::query("UPDATE users SET balance = 0 WHERE id = $1").bind(user).execute(c).await }))
        .await;
    assert!(wrote.is_err(), "a read wrote: {wrote:?}");
    assert_eq!(app.balance(user).await, balance);
    app.stop().await;
}
