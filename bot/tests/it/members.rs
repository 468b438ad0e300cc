//! Membership from Telegram's updates: joining the channel pays the subscribe task once without
//! a check; blocking the bot stops the outbox for that player until they unblock it.
use std::time::Duration;

use serde_json::json;
use webapp_api::domain::notifications::Notice;
use webapp_api::domain::outbox;

use crate::common::*;
use crate::fake_bot_api::{channel_chat, chat_member_update, my_chat_member_update};

/// `CHANNEL_ID` of the test app.
const CHANNEL: &str = "fragbox_news";
const CHANNEL_CHAT_ID: i64 = -1_001_234_567_890;

async fn poll_until<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..600 {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("timed out waiting for {what}");
}

async fn subscribed(app: &TestApp, user: i64) -> Option<bool> {
    let row: Option<(i64,)> =
        sqlx::query_as("SELECT tg_subscribed FROM users WHERE id = $1").bind(user).fetch_optional(&app.domain().db).await.unwrap();
    row.map(|r| r.0 != 0)
}

async fn blocked(app: &TestApp, user: i64) -> bool {
    let (b,): (i64,) = sqlx::query_as("SELECT bot_blocked FROM users WHERE id = $1").bind(user).fetch_one(&app.domain().db).await.unwrap();
    b != 0
}

async fn subscribe_entries(app: &TestApp, user: i64) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM ledger_entries WHERE user_id = $1 AND reason = 'subscribe'")
        .bind(user)
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    n
}

#[tokio::test]
async fn joining_the_channel_pays_the_subscribe_task_once_and_leaving_takes_nothing_back() {
    let app = TestApp::with_bot().await;
    let token = app.sign_in(9200, "Nina").await;
    app.sign_in(9201, "Oleg").await;
    let channel = channel_chat(CHANNEL_CHAT_ID, CHANNEL);

    // Nina joins: the task completes and pays +100 without anyone pressing "check".
    app.fake().push_update(chat_member_update(channel.clone(), 9200, "left", "member"));
    poll_until("the subscribe reward", || async { app.balance(9200).await == 10_000 }).await;
    assert_eq!(subscribed(&app, 9200).await, Some(true));
    assert!(app.fake().calls("getChatMember").is_empty(), "the update is Telegram's word: no check needed");

    // She leaves, comes back, is promoted: nothing more, nothing taken back. Oleg joining after
    // her in the same channel (updates of one chat are handled in order) tells when all ran.
    app.fake().push_update(chat_member_update(channel.clone(), 9200, "member", "left"));
    app.fake().push_update(chat_member_update(channel.clone(), 9200, "left", "member"));
    app.fake().push_update(chat_member_update(channel.clone(), 9200, "member", "administrator"));
    // Someone who never opened the app joins: nobody is created, nothing is paid.
    app.fake().push_update(chat_member_update(channel.clone(), 9300, "left", "member"));
    app.fake().push_update(chat_member_update(channel.clone(), 9201, "left", "member"));
    poll_until("Oleg's reward", || async { app.balance(9201).await == 10_000 }).await;
    assert_eq!(app.balance(9200).await, 10_000);
    assert_eq!(subscribe_entries(&app, 9200).await, 1);
    assert_eq!(subscribed(&app, 9200).await, Some(true), "leaving does not undo the task");
    assert_eq!(subscribed(&app, 9300).await, None);

    // The mini app's check agrees: subscribed, nothing more to pay.
    let (_, b) = app.post("/api/v1/subscription/check-subscription", Some(&token), json!({})).await;
    assert_eq!(b["data"], json!({"subscribed": true, "tokensAwarded": 0}), "{b}");
    assert_eq!(subscribe_entries(&app, 9200).await, 1);
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn a_member_update_of_another_chat_pays_nothing() {
    let app = TestApp::with_bot().await;
    app.sign_in(9202, "Pavel").await;
    let group = json!({"id": -100_999, "type": "supergroup", "title": "Elsewhere", "username": "elsewhere"});
    app.fake().push_update(chat_member_update(group.clone(), 9202, "left", "member"));
    // A command in that group afterwards: one chat's updates are handled in order, so once it is
    // answered the member update has been through.
    let help = json!({"message": {
        "message_id": 5, "date": 1_700_000_000, "chat": group,
        "from": {"id": 9202, "is_bot": false, "first_name": "Pavel", "language_code": "en"},
        "text": "/help", "entities": [{"type": "bot_command", "offset": 0, "length": 5}]
    }});
    app.fake().push_update(help);
    crate::payments::wait_message(&app, -100_999, "/language").await;
    assert_eq!(app.balance(9202).await, 0);
    assert_eq!(subscribe_entries(&app, 9202).await, 0);
    assert_eq!(subscribed(&app, 9202).await, Some(false));
    app.stop().await;
}

#[tokio::test]
async fn a_player_who_blocks_the_bot_gets_nothing_from_the_outbox_until_they_unblock_it() {
    let app = TestApp::with_bot().await;
    app.sign_in(9400, "Rita").await;
    app.fake().push_update(my_chat_member_update(9400, "member", "kicked"));
    poll_until("the block to be recorded", || async { blocked(&app, 9400).await }).await;

    // A notice for her waits: the outbox does not write to her.
    let now = app.domain().now();
    let mut tx = app.domain().db.begin().await.unwrap();
    outbox::tell_player(&mut *tx, 9400, &Notice::TicketClosed { ticket_id: 77 }, now).await.unwrap();
    tx.commit().await.unwrap();
    let sent = fragbox::outbox::drain_once(app.domain(), "https://app.fragbox.test").await.unwrap();
    assert_eq!(sent, 0);
    assert!(app.fake().calls("sendMessage").iter().all(|m| m["chat_id"] != json!(9400)));
    let (status, attempts): (String, i64) =
        sqlx::query_as("SELECT status, attempts FROM outbox WHERE user_id = 9400").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!((status.as_str(), attempts), ("pending", 0), "kept, not tried");

    // She unblocks the bot: the waiting notice goes out.
    app.fake().push_update(my_chat_member_update(9400, "kicked", "member"));
    poll_until("the unblock to be recorded", || async { !blocked(&app, 9400).await }).await;
    crate::payments::wait_message(&app, 9400, "77").await;
    app.stop().await;
}
