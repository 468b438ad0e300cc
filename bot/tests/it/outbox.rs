//! The one outbox: messages queued in the old tables survive migration 0018 with their state and
//! are delivered after it; every channel backs off and gives up by one rule.
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use webapp_api::domain::clock::ManualClock;
use webapp_api::domain::notifications::Notice;
use webapp_api::domain::outbox::{self, Outgoing};
use webapp_api::domain::{store, tickets};

use crate::common::*;
use crate::fake_bot_api::Script;
use crate::payments::wait_message;

fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

fn json_of(notice: &Notice) -> String {
    serde_json::to_string(notice).unwrap()
}

/// Polls `check` (every 25 ms, at most 60 s) until it answers true.
async fn poll_until<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..2400 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("timed out waiting for {what}");
}

/// (status, attempts, next_attempt_at, last_error, message_id) of the one outbox row of `kind`
/// whose payload contains `needle`.
async fn row(app: &TestApp, needle: &str) -> (String, i64, i64, Option<String>, Option<i64>) {
    sqlx::query_as("SELECT status, attempts, next_attempt_at, last_error, message_id FROM outbox WHERE payload LIKE $1 ORDER BY id")
        .bind(format!("%{needle}%"))
        .fetch_one(&app.domain().db)
        .await
        .unwrap()
}

const PLAYER: i64 = 7001;

#[tokio::test]
async fn messages_queued_in_the_old_tables_keep_their_state_through_migration_0018_and_are_delivered() {
    // Arrange: a shop as the release before 0018 left it, with messages in flight in each old table.
    let dir = TempDir::new();
    let db_url = fresh_database_url(&dir.0).await;
    let t = unix_now();
    let pool = store::open(&db_url).await.unwrap();
    store::migrate_through(&pool, Some("0017_prices")).await.unwrap();
    sqlx::query("INSERT INTO users(id, first_name, ref_code, created_at, updated_at) VALUES ($1, 'Old', 'oldref', $2, $2)")
        .bind(PLAYER)
        .bind(t)
        .execute(&pool)
        .await
        .unwrap();
    let (ticket,): (i64,) =
        sqlx::query_as("INSERT INTO tickets(user_id, theme, created_at, updated_at) VALUES ($1, 'bug', $2, $2) RETURNING id")
            .bind(PLAYER)
            .bind(t)
            .fetch_one(&pool)
            .await
            .unwrap();
    let player_row =
        "INSERT INTO notifications(user_id, kind, payload, status, attempts, next_attempt_at, last_error, created_at, sent_at, message_id)
                      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
    // (ticket id in the notice, status, attempts, next attempt, last error, sent at, message id)
    type PlayerRow<'a> = (i64, &'a str, i64, i64, Option<&'a str>, Option<i64>, Option<i64>);
    let players: [PlayerRow; 5] = [
        (41, "pending", 0, t - 5, None, None, None),                   // due
        (42, "pending", 3, t + 3600, Some("Bad Gateway"), None, None), // waiting for its retry
        (43, "pending", 1, t + 45, Some("Bad Gateway"), None, None),   // claimed: under a lease
        (44, "failed", 12, t - 100, Some("blocked"), None, None),      // given up
        (45, "sent", 1, t - 100, None, Some(t - 100), Some(555)),      // delivered
    ];
    for (n, status, attempts, next, error, sent_at, message_id) in players {
        let notice = if n == 45 {
            Notice::SupportReply { ticket_id: ticket, message: "answer 45".into() }
        } else {
            Notice::TicketClosed { ticket_id: n }
        };
        sqlx::query(player_row)
            .bind(PLAYER)
            .bind(notice.kind())
            .bind(json_of(&notice))
            .bind(status)
            .bind(attempts)
            .bind(next)
            .bind(error)
            .bind(t - 200)
            .bind(sent_at)
            .bind(message_id)
            .execute(&pool)
            .await
            .unwrap();
    }
    for part in ["forward part one", "forward part two"] {
        sqlx::query("INSERT INTO admin_outbox(admin_chat_id, ticket_id, body, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $4)")
            .bind(ADMIN_ID)
            .bind(ticket)
            .bind(part)
            .bind(t - 5)
            .execute(&pool)
            .await
            .unwrap();
    }
    for (body, attempts, next) in [("admin notice due", 0, t - 5), ("admin notice later", 2, t + 600)] {
        sqlx::query("INSERT INTO admin_notices(admin_chat_id, body, attempts, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(ADMIN_ID)
            .bind(body)
            .bind(attempts)
            .bind(next)
            .bind(t - 200)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;

    // Act: the new release starts on it (and migrates).
    let clock = Arc::new(ManualClock::at(t));
    let app = TestApp::start(Options {
        bot: true,
        clock: Some(clock.clone()),
        env: vec![("DATABASE_URL", db_url.clone())],
        ..Options::default()
    })
    .await;

    // Assert: the due ones leave, the forward's parts in order.
    wait_message(&app, PLAYER, "41").await;
    wait_message(&app, ADMIN_ID, "admin notice due").await;
    wait_message(&app, ADMIN_ID, "forward part two").await;
    let to_admin: Vec<String> = app
        .fake()
        .calls("sendMessage")
        .into_iter()
        .filter(|m| m["chat_id"] == json!(ADMIN_ID))
        .map(|m| m["text"].as_str().unwrap_or("").to_owned())
        .collect();
    let at = |needle: &str| to_admin.iter().position(|t| t.contains(needle)).unwrap();
    assert!(at("forward part one") < at("forward part two"), "{to_admin:?}");
    // The rest kept their state: a retry stays scheduled, a lease stays held, with their tries.
    assert_eq!(row(&app, "\"ticket_id\":42").await, ("pending".into(), 3, t + 3600, Some("Bad Gateway".into()), None));
    assert_eq!(row(&app, "\"ticket_id\":43").await, ("pending".into(), 1, t + 45, Some("Bad Gateway".into()), None));
    assert_eq!(row(&app, "\"ticket_id\":44").await, ("failed".into(), 12, t - 100, Some("blocked".into()), None));
    assert_eq!(row(&app, "answer 45").await, ("sent".into(), 1, t - 100, None, Some(555)));
    assert_eq!(row(&app, "admin notice later").await, ("pending".into(), 2, t + 600, None, None));
    // A reply to the support answer delivered before the migration still finds its ticket.
    let replied = outbox::delivered_to_player(app.domain(), PLAYER, 555).await.unwrap();
    assert_eq!(replied, Some(Notice::SupportReply { ticket_id: ticket, message: "answer 45".into() }));
    // Moved, not copied: nothing is left in the old tables to be sent twice.
    for table in ["notifications", "admin_outbox", "admin_notices"] {
        let (n,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(&app.domain().db).await.unwrap();
        assert_eq!(n, 0, "{table}");
    }

    // When their time comes, the retried and the leased ones are delivered too, once each; the
    // given-up and the sent ones are not sent again.
    clock.advance(3601);
    wait_message(&app, PLAYER, "42").await;
    wait_message(&app, PLAYER, "43").await;
    wait_message(&app, ADMIN_ID, "admin notice later").await;
    let to_player: Vec<Value> = app.fake().calls("sendMessage").into_iter().filter(|m| m["chat_id"] == json!(PLAYER)).collect();
    assert_eq!(to_player.len(), 3, "{to_player:#?}");
    let (forwards,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM ticket_forwards WHERE ticket_id = $1").bind(ticket).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(forwards, 2, "each delivered part answers the ticket");

    // A replica of the old release still running beside this one writes into the old tables:
    // those messages are taken over and delivered too, a leased one only once its lease ends.
    let now = app.domain().now();
    sqlx::query(player_row)
        .bind(PLAYER)
        .bind("ticket_closed")
        .bind(json_of(&Notice::TicketClosed { ticket_id: 46 }))
        .bind("pending")
        .bind(0)
        .bind(now)
        .bind(None::<String>)
        .bind(now)
        .bind(None::<i64>)
        .bind(None::<i64>)
        .execute(&app.domain().db)
        .await
        .unwrap();
    sqlx::query("INSERT INTO admin_notices(admin_chat_id, body, next_attempt_at, created_at) VALUES ($1, 'old replica leased', $2, $3)")
        .bind(ADMIN_ID)
        .bind(now + 50)
        .bind(now)
        .execute(&app.domain().db)
        .await
        .unwrap();
    // A forward whose first part the old sender holds: the second part waits behind it.
    for (part, next) in [("late part one", now + 50), ("late part two", now)] {
        sqlx::query("INSERT INTO admin_outbox(admin_chat_id, ticket_id, body, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(ADMIN_ID)
            .bind(ticket)
            .bind(part)
            .bind(next)
            .bind(now)
            .execute(&app.domain().db)
            .await
            .unwrap();
    }
    wait_message(&app, PLAYER, "46").await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    for table in ["admin_notices", "admin_outbox"] {
        let (left,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(&app.domain().db).await.unwrap();
        let held = if table == "admin_outbox" { 2 } else { 1 };
        assert_eq!(left, held, "{table}: a row the old sender holds stays with it until its lease ends, and what must follow it too");
    }
    clock.advance(60);
    wait_message(&app, ADMIN_ID, "old replica leased").await;
    wait_message(&app, ADMIN_ID, "late part two").await;
    let to_admin: Vec<String> = app
        .fake()
        .calls("sendMessage")
        .into_iter()
        .filter(|m| m["chat_id"] == json!(ADMIN_ID))
        .map(|m| m["text"].as_str().unwrap_or("").to_owned())
        .collect();
    let at = |needle: &str| to_admin.iter().position(|t| t.contains(needle)).unwrap();
    assert!(at("late part one") < at("late part two"), "{to_admin:?}");
    app.stop().await;
}

#[tokio::test]
async fn every_channel_backs_off_by_one_rule_and_gives_up_after_the_same_tries() {
    // Arrange: Telegram refuses the next three messages; one of each channel is queued.
    let clock = Arc::new(ManualClock::at(unix_now()));
    let app = TestApp::start(Options { bot: true, clock: Some(clock.clone()), ..Options::default() }).await;
    let t = app.domain().now();
    app.sign_in(8801, "Patient").await;
    for _ in 0..3 {
        app.fake().script("sendMessage", Script::Err(502, "Bad Gateway".into()));
    }
    let ticket = tickets::create(
        app.domain(),
        8801,
        tickets::NewTicket { theme: "bug".into(), message: "It crashed".into(), ..tickets::NewTicket::default() },
    )
    .await
    .unwrap()
    .id;
    let mut tx = app.domain().db.begin().await.unwrap();
    outbox::enqueue(&mut *tx, &Outgoing::Player { user_id: 8801, notice: Notice::TicketClosed { ticket_id: 987 } }, t).await.unwrap();
    outbox::tell_admins(&mut *tx, &[ADMIN_ID], "prices moved", t).await.unwrap();
    tx.commit().await.unwrap();
    let ids: Vec<(i64, String)> = sqlx::query_as("SELECT id, channel FROM outbox ORDER BY id").fetch_all(&app.domain().db).await.unwrap();
    assert_eq!(ids.iter().map(|r| r.1.as_str()).collect::<Vec<_>>(), ["ticket", "player", "admin"]);
    let tried = |n: i64| {
        let db = app.domain().db.clone();
        async move {
            let rows: Vec<(i64,)> = sqlx::query_as("SELECT attempts FROM outbox").fetch_all(&db).await.unwrap();
            rows.iter().all(|r| r.0 >= n)
        }
    };

    // Act + Assert: each failed once and waits the same 10 s.
    poll_until("a first try of each", || tried(1)).await;
    let rows: Vec<(String, String, i64, i64)> = sqlx::query_as("SELECT channel, status, attempts, next_attempt_at FROM outbox ORDER BY id")
        .fetch_all(&app.domain().db)
        .await
        .unwrap();
    for (channel, status, attempts, next) in &rows {
        assert_eq!((status.as_str(), *attempts, *next), ("pending", 1, t + outbox::retry_delay(1)), "{channel}: {rows:?}");
    }
    assert_eq!(outbox::retry_delay(1), 10);

    // On their last try, each is given up alike.
    sqlx::query("UPDATE outbox SET attempts = $1, next_attempt_at = $2")
        .bind(outbox::MAX_ATTEMPTS - 1)
        .bind(t)
        .execute(&app.domain().db)
        .await
        .unwrap();
    for _ in 0..3 {
        app.fake().script("sendMessage", Script::Err(502, "Bad Gateway".into()));
    }
    poll_until("a last try of each", || tried(outbox::MAX_ATTEMPTS)).await;
    let rows: Vec<(String, String, i64)> =
        sqlx::query_as("SELECT channel, status, attempts FROM outbox ORDER BY id").fetch_all(&app.domain().db).await.unwrap();
    for (channel, status, attempts) in &rows {
        assert_eq!((status.as_str(), *attempts), ("failed", outbox::MAX_ATTEMPTS), "{channel}: {rows:?}");
    }
    assert_eq!(
        ids[0].0,
        sqlx::query_as::<_, (i64,)>("SELECT id FROM outbox WHERE ticket_id = $1").bind(ticket).fetch_one(&app.domain().db).await.unwrap().0
    );
    app.stop().await;
}
