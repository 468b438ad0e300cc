//! Support tickets: the mini app's API, forwarding to the admins, answers from the bot.
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::admin::reply_update;
use crate::common::*;
use crate::payments::{say, wait_message};

async fn forwarded(app: &TestApp, ticket: i64, n: i64) {
    for _ in 0..2400 {
        let (c,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM ticket_forwards WHERE ticket_id = $1")
            .bind(ticket)
            .fetch_one(&app.domain().db)
            .await
            .unwrap();
        if c >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("ticket {ticket} was not forwarded {n} times");
}

async fn messages(app: &TestApp, token: &str, ticket: i64) -> Vec<Value> {
    let (s, b) = app.get(&format!("/api/v1/support/tickets/{ticket}/messages"), Some(token)).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b.as_array().expect("a bare array").clone()
}

#[tokio::test]
async fn a_ticket_goes_round_trip_between_the_mini_app_and_the_admin_chat() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(9001, "Tia").await;
    app.grant(9001, cheap_case_price() / 100).await;
    let (_, b) = app.post(open_path(), Some(&t), json!({"telegramId": 9001})).await;
    let item = b["item"]["id"].as_i64().unwrap();

    // Opened from the mini app, with the automatic first answer.
    let (s, b) = app
        .post("/api/v1/support/tickets", Some(&t), json!({"theme": "withdraw", "item_id": item, "message": "  Where is my skin?  "}))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let ticket = &b["ticket"];
    let id = ticket["id"].as_i64().unwrap();
    assert_eq!(ticket["theme"], "withdraw");
    assert_eq!(ticket["status"], "open");
    assert_eq!(ticket["title"], json!(null));
    let (_, list) = app.get("/api/v1/support/tickets", Some(&t)).await;
    assert_eq!(list.as_array().expect("a bare array").len(), 1);
    assert!(list[0]["lastMessage"].as_str().unwrap().starts_with("Thank you for contacting us"), "{list}");
    assert!(list[0]["created_at"].as_str().unwrap().ends_with('Z'));
    let (_, one) = app.get(&format!("/api/v1/support/tickets/{id}"), Some(&t)).await;
    assert_eq!(one["id"], json!(id));
    let msgs = messages(&app, &t, id).await;
    assert_eq!(msgs.len(), 2);
    assert_eq!((msgs[0]["sender"].as_str(), msgs[0]["message"].as_str()), (Some("user"), Some("Where is my skin?")));
    assert_eq!(msgs[1]["sender"], "support");

    // Forwarded to the admin with topic, user and item.
    let fwd = wait_message(&app, ADMIN_ID, &format!("Ticket #{id} [withdraw]")).await;
    let text = fwd["text"].as_str().unwrap();
    assert!(
        text.contains("Tia") && text.contains("9001") && text.contains(&format!("Item: #{item}")) && text.contains("Where is my skin?"),
        "{text}"
    );
    forwarded(&app, id, 1).await;
    let (message_id,): (i64,) =
        sqlx::query_as("SELECT message_id FROM ticket_forwards WHERE ticket_id = $1").bind(id).fetch_one(&app.domain().db).await.unwrap();

    // The admin answers by replying to the forward: the player hears it and sees it in the app.
    app.fake().push_update(reply_update(ADMIN_ID, message_id, text, "It is on its way!"));
    wait_message(&app, ADMIN_ID, &format!("Answer sent to ticket #{id}")).await;
    let note = wait_message(&app, 9001, "It is on its way!").await;
    assert!(note["text"].as_str().unwrap().contains(&format!("#{id}")));
    let msgs = messages(&app, &t, id).await;
    assert_eq!((msgs[2]["sender"].as_str(), msgs[2]["message"].as_str()), (Some("support"), Some("It is on its way!")));

    // The player writes again: forwarded again. The admin answers with /reply.
    let (s, b) = app.post(&format!("/api/v1/support/tickets/{id}/messages"), Some(&t), json!({"message": "Thanks!"})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["message"]["sender"], "user");
    wait_message(&app, ADMIN_ID, "Thanks!").await;
    forwarded(&app, id, 2).await;
    say(&app, ADMIN_ID, &format!("/reply {id} You are welcome"), &format!("Answer sent to ticket #{id}")).await;
    wait_message(&app, 9001, "You are welcome").await;
    let tickets = say(&app, ADMIN_ID, "/tickets", "Open tickets").await;
    assert!(tickets["text"].as_str().unwrap().contains(&format!("#{id} [withdraw] Tia")));

    // Closed by support: the player is told and the ticket takes no more messages.
    say(&app, ADMIN_ID, &format!("/close {id}"), &format!("Ticket #{id} closed")).await;
    wait_message(&app, 9001, &format!("Ticket #{id} is closed")).await;
    let (s, b) = app.post(&format!("/api/v1/support/tickets/{id}/messages"), Some(&t), json!({"message": "one more"})).await;
    assert_error(s, &b, 409, "ticket_closed");
    say(&app, ADMIN_ID, &format!("/reply {id} late"), "ticket_closed").await;
    say(&app, ADMIN_ID, "/tickets", "No open tickets").await;
    let msgs = messages(&app, &t, id).await;
    assert_eq!(msgs.len(), 5);
    assert_eq!(app.admin_actions(&["ticket_reply", "ticket_close"]).await, 3);
    app.stop().await;
}

#[tokio::test]
async fn the_player_closes_a_ticket_and_replies_to_unknown_messages_are_explained() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(9002, "Ned").await;
    let (_, b) = app.post("/api/v1/support/tickets", Some(&t), json!({"theme": "bug", "title": "Crash", "message": "It crashed"})).await;
    let id = b["ticket"]["id"].as_i64().unwrap();
    assert_eq!(b["ticket"]["title"], "Crash");
    let res = app.http.post(format!("{}/api/v1/support/tickets/{id}/close", app.base)).bearer_auth(&t).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let (_, one) = app.get(&format!("/api/v1/support/tickets/{id}"), Some(&t)).await;
    assert_eq!(one["status"], "closed");
    app.fake().push_update(reply_update(ADMIN_ID, 424242, "some old message", "hello?"));
    wait_message(&app, ADMIN_ID, "not a forwarded ticket").await;
    app.stop().await;
}

#[tokio::test]
async fn ticket_input_is_checked_with_stable_codes() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(9010, "Val").await;
    let other = app.player_with(9011, cheap_case_price() / 100).await;
    let (_, b) = app.post(open_path(), Some(&other), json!({"telegramId": 9011})).await;
    let their_item = b["item"]["id"].as_i64().unwrap();
    let cases = [
        (json!({"theme": "refund", "message": "x"}), 422, "invalid_theme"),
        (json!({"theme": "bug", "message": "   "}), 422, "empty_message"),
        (json!({"theme": "bug"}), 422, "empty_message"),
        (json!({"theme": "withdraw", "message": "my skin"}), 422, "item_required"),
        (json!({"theme": "withdraw", "item_id": their_item, "message": "my skin"}), 404, "item_not_found"),
        (json!({"theme": "bug", "title": "t".repeat(121), "message": "x"}), 422, "too_long"),
        (json!({"theme": "bug", "message": "m".repeat(4001)}), 422, "too_long"),
    ];
    for (body, status, code) in cases {
        let (s, b) = app.post("/api/v1/support/tickets", Some(&t), body.clone()).await;
        assert_error(s, &b, status, code);
    }
    let (s, b) = app
        .post("/api/v1/support/tickets", Some(&t), json!({"theme": "other", "title": "t".repeat(120), "message": "m".repeat(4000)}))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let id = b["ticket"]["id"].as_i64().unwrap();
    let (s, b) = app.post(&format!("/api/v1/support/tickets/{id}/messages"), Some(&t), json!({"message": " "})).await;
    assert_error(s, &b, 422, "empty_message");
    // Someone else's ticket does not exist for them.
    let (s, b) = app.get(&format!("/api/v1/support/tickets/{id}"), Some(&other)).await;
    assert_error(s, &b, 404, "ticket_not_found");
    let (s, b) = app.get(&format!("/api/v1/support/tickets/{id}/messages"), Some(&other)).await;
    assert_error(s, &b, 404, "ticket_not_found");
    let (s, b) = app.post(&format!("/api/v1/support/tickets/{id}/messages"), Some(&other), json!({"message": "hi"})).await;
    assert_error(s, &b, 404, "ticket_not_found");
    let (s, b) = app.post(&format!("/api/v1/support/tickets/{id}/close"), Some(&other), json!({})).await;
    assert_error(s, &b, 404, "ticket_not_found");
    // At most five open at once.
    for _ in 0..4 {
        let (s, _) = app.post("/api/v1/support/tickets", Some(&t), json!({"theme": "other", "message": "again"})).await;
        assert_eq!(s, StatusCode::OK);
    }
    let (s, b) = app.post("/api/v1/support/tickets", Some(&t), json!({"theme": "other", "message": "again"})).await;
    assert_error(s, &b, 409, "too_many_tickets");
    app.stop().await;
}

#[tokio::test]
async fn paysupport_explains_payment_help_and_opens_one_payment_ticket() {
    let app = TestApp::with_bot().await;
    let answer = say(&app, 9020, "/paysupport", "ticket #").await;
    assert!(answer["text"].as_str().unwrap().contains("Stars"));
    say(&app, 9020, "/paysupport", "already have payment ticket").await;
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM tickets WHERE user_id = 9020 AND theme = 'payment'")
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    assert_eq!(n, 1);
    wait_message(&app, ADMIN_ID, "[payment]").await;
    app.stop().await;
}

#[tokio::test]
async fn a_forward_telegram_refused_is_retried_until_the_admin_has_it() {
    use crate::fake_bot_api::Script;
    let app = TestApp::with_bot().await;
    let t = app.sign_in(8801, "Patient").await;
    app.fake().script("sendMessage", Script::Err(502, "Bad Gateway".into()));
    let (s, b) = app.post("/api/v1/support/tickets", Some(&t), serde_json::json!({"theme": "bug", "message": "It crashed"})).await;
    assert_eq!(s.as_u16(), 200, "{b}");
    let ticket = b["ticket"]["id"].as_i64().unwrap();
    app.fake().wait_calls("sendMessage", 1).await;
    // The refused forward waits in the queue with its error, then goes out on the next try.
    let mut row: (String, i64) = (String::new(), 0);
    for _ in 0..3000 {
        row = sqlx::query_as("SELECT status, attempts FROM outbox WHERE channel = 'ticket' AND ticket_id = $1")
            .bind(ticket)
            .fetch_one(&app.domain().db)
            .await
            .unwrap();
        if row.1 > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(row, ("pending".to_string(), 1));
    sqlx::query("UPDATE outbox SET next_attempt_at = 0 WHERE channel = 'ticket'").execute(&app.domain().db).await.unwrap();
    let sent = app.fake().wait_calls("sendMessage", 2).await;
    assert_eq!(sent[1]["chat_id"], serde_json::json!(ADMIN_ID));
    assert!(sent[1]["text"].as_str().unwrap().contains(&format!("Ticket #{ticket}")));
    let mut forwards = 0;
    for _ in 0..3000 {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM ticket_forwards WHERE ticket_id = $1")
            .bind(ticket)
            .fetch_one(&app.domain().db)
            .await
            .unwrap();
        forwards = n;
        if n > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(forwards, 1);
    app.stop().await;
}

#[tokio::test]
async fn a_players_reply_to_supports_answer_in_the_chat_goes_into_the_ticket() {
    use webapp_api::domain::admin::Actor;
    let app = TestApp::with_bot().await;
    let t = app.sign_in(8901, "Chatty").await;
    let (_, b) = app.post("/api/v1/support/tickets", Some(&t), json!({"theme": "other", "message": "Where is my skin?"})).await;
    let ticket = b["ticket"]["id"].as_i64().unwrap();
    webapp_api::domain::tickets::reply(app.domain(), Actor::Admin(ADMIN_ID), ticket, "Please send a screenshot").await.unwrap();
    wait_message(&app, 8901, "screenshot").await;
    let mut delivered: Option<i64> = None;
    for _ in 0..2400 {
        let row: (Option<i64>,) = sqlx::query_as("SELECT message_id FROM outbox WHERE user_id = 8901 AND kind = 'support_reply'")
            .fetch_one(&app.domain().db)
            .await
            .unwrap();
        if row.0.is_some() {
            delivered = row.0;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let delivered = delivered.expect("the answer's chat message id is remembered");
    app.fake().push_update(reply_update(8901, delivered, "Please send a screenshot", "Here it is"));
    let confirm = wait_message(&app, 8901, "Sent to support").await;
    assert!(confirm["text"].as_str().unwrap().contains(&format!("#{ticket}")));
    let (_, msgs) = app.get(&format!("/api/v1/support/tickets/{ticket}/messages"), Some(&t)).await;
    let last = msgs.as_array().unwrap().last().unwrap().clone();
    assert_eq!((last["sender"].clone(), last["message"].clone()), (json!("user"), json!("Here it is")));
    // The admins get it like any player message.
    wait_message(&app, ADMIN_ID, "Here it is").await;
    // A reply to anything else gets the ordinary help.
    app.fake().push_update(reply_update(8901, 99_999, "something", "hello?"));
    wait_message(&app, 8901, "/paysupport").await;
    app.stop().await;
}
