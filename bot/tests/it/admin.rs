//! Admin commands: only `ADMIN_IDS` may run them, and each leaves an audit row.
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::*;
use crate::payments::{say, wait_message};

/// A button press on a message the bot sent to the admin.
fn callback_update(id: &str, data: &str, message_id: i64, text: &str) -> Value {
    json!({"callback_query": {
        "id": id, "chat_instance": "ci", "data": data,
        "from": {"id": ADMIN_ID, "is_bot": false, "first_name": "Boss", "language_code": "en"},
        "message": {
            "message_id": message_id, "date": 1_700_000_000, "text": text,
            "chat": {"id": ADMIN_ID, "type": "private", "first_name": "Boss"},
            "from": {"id": crate::fake_bot_api::BOT_ID, "is_bot": true, "first_name": "FragBox"}
        }
    }})
}

/// The admin's reply to one of the bot's messages.
pub fn reply_update(from: i64, replied_id: i64, replied_text: &str, text: &str) -> Value {
    json!({"message": {
        "message_id": 5000, "date": 1_700_000_000, "text": text,
        "chat": {"id": from, "type": "private", "first_name": "Boss"},
        "from": {"id": from, "is_bot": false, "first_name": "Boss", "language_code": "en"},
        "reply_to_message": {
            "message_id": replied_id, "date": 1_700_000_000, "text": replied_text,
            "chat": {"id": from, "type": "private", "first_name": "Boss"},
            "from": {"id": crate::fake_bot_api::BOT_ID, "is_bot": true, "first_name": "FragBox"}
        }
    }})
}

#[tokio::test]
async fn admin_commands_from_anyone_else_get_the_help_and_change_nothing() {
    let app = TestApp::with_bot().await;
    app.sign_in(8001, "Pleb").await;
    for cmd in ["/maintenance on", "/grant 8001 1000 because", "/stats", "/user 8001", "/withdrawals", "/tickets", "/refund stxabc force"] {
        say(&app, 8001, cmd, "/paysupport").await;
    }
    assert!(!webapp_api::domain::settings::maintenance(app.domain()).await.unwrap());
    assert_eq!(app.balance(8001).await, 0);
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM admin_audit").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(n, 0);
    assert!(app.fake().calls("refundStarPayment").is_empty());
    // The ordinary help has no admin section; the admin's does.
    let help = say(&app, 8001, "/help", "/paysupport").await;
    assert!(!help["text"].as_str().unwrap().contains("/grant"));
    say(&app, ADMIN_ID, "/help", "/grant").await;
    app.stop().await;
}

#[tokio::test]
async fn the_admin_switches_maintenance_and_the_mini_app_follows() {
    let app = TestApp::with_bot().await;
    let player = app.sign_in(8010, "Pat").await;
    say(&app, ADMIN_ID, "/maintenance on", "Maintenance is ON").await;
    let (_, st) = app.get("/api/v1/status", None).await;
    assert_eq!(st, json!({"maintenance": true}));
    let (s, b) = app.post("/api/v1/daily-reward/claim", Some(&player), json!({})).await;
    assert_error(s, &b, 503, "maintenance");
    say(&app, ADMIN_ID, "/maintenance status", "Maintenance is ON").await;
    say(&app, ADMIN_ID, "/maintenance off", "Maintenance is off").await;
    let (_, st) = app.get("/api/v1/status", None).await;
    assert_eq!(st, json!({"maintenance": false}));
    say(&app, ADMIN_ID, "/maintenance later", "Usage: /maintenance").await;
    assert_eq!(app.admin_actions(&["maintenance"]).await, 2);
    assert_eq!(app.admin_actions(&["maintenance_status"]).await, 1);
    app.stop().await;
}

#[tokio::test]
async fn grant_stats_and_the_user_report_read_the_ledger() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(8020, "Gia").await;
    // Half a token more than the cheapest case.
    let grant = webapp_api::domain::Tokens(cheap_case_price() + 50);
    say(&app, ADMIN_ID, &format!("/grant 8020 {grant} welcome back"), &format!("+{grant} tokens to 8020; balance {grant}")).await;
    assert_eq!(app.balance(8020).await, grant.0);
    say(&app, ADMIN_ID, "/grant 8020 -200 oops", "Not enough tokens").await;
    say(&app, ADMIN_ID, "/grant 999999 10 nobody", "not_found").await;
    say(&app, ADMIN_ID, "/grant 8020 ten x", "Usage: /grant").await;
    let (s, _) = app.post(open_path(), Some(&t), json!({"telegramId": 8020})).await;
    assert_eq!(s, StatusCode::OK);
    let stats = say(&app, ADMIN_ID, "/stats", "Stats").await;
    let text = stats["text"].as_str().unwrap();
    assert!(text.contains("Users: 1") || text.contains("Users: 2"), "{text}");
    assert!(text.contains("Opens today (UTC): 1, total: 1"), "{text}");
    let spent = format!("{}: 1 opens, spent {}", cheap_case(), webapp_api::domain::Tokens(cheap_case_price()));
    assert!(text.contains(&spent), "{text}");
    let report = say(&app, ADMIN_ID, "/user 8020", "Balance:").await;
    let text = report["text"].as_str().unwrap();
    assert!(text.contains("grant: welcome back") && text.contains("case_open"), "{text}");
    say(&app, ADMIN_ID, "/user 31337", "not_found").await;
    assert_eq!(app.admin_actions(&["grant"]).await, 1);
    assert_eq!(app.admin_actions(&["stats"]).await, 1);
    assert_eq!(app.admin_actions(&["user"]).await, 1);
    app.audit_clean().await;
    app.stop().await;
}

async fn pending_withdrawal(app: &TestApp, user: i64) -> (String, i64, i64) {
    let t = app.player_with(user, cheap_case_price() / 100).await;
    let (_, b) = app.post(open_path(), Some(&t), json!({"telegramId": user})).await;
    let item = b["item"]["id"].as_i64().unwrap();
    let url = "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc";
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": url})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    (t, item, b["withdrawalId"].as_i64().unwrap())
}

#[tokio::test]
async fn withdrawals_are_resolved_with_the_buttons_and_a_reason_asked_by_force_reply() {
    let app = TestApp::with_bot().await;
    let (t, item, wid) = pending_withdrawal(&app, 8030).await;
    let listed = say(&app, ADMIN_ID, "/withdrawals", &format!("Withdrawal #{wid}")).await;
    let buttons = &listed["reply_markup"]["inline_keyboard"][0];
    assert_eq!(buttons[0]["callback_data"], json!(format!("wd:sent:{wid}")));
    assert_eq!(buttons[1]["callback_data"], json!(format!("wd:fail:{wid}")));
    assert!(listed["text"].as_str().unwrap().contains("76561197960265851"), "steam id of partner 123");

    // Failed: the bot asks for the reason; the admin's reply carries it to the player.
    app.fake().push_update(callback_update("cb1", &format!("wd:fail:{wid}"), 77, listed["text"].as_str().unwrap()));
    let prompt = wait_message(&app, ADMIN_ID, &format!("Withdrawal #{wid} failed: reply")).await;
    assert_eq!(prompt["reply_markup"]["force_reply"], json!(true));
    let prompt_text = prompt["text"].as_str().unwrap();
    app.fake().push_update(reply_update(ADMIN_ID, 78, prompt_text, "Your Steam inventory is private"));
    wait_message(
        &app,
        ADMIN_ID,
        &format!("Withdrawal #{wid} failed (other: Your Steam inventory is private); the item is available again"),
    )
    .await;
    wait_message(&app, 8030, "Your Steam inventory is private").await;
    let (_, b) = app.get(&format!("/api/v1/user/item/{item}"), Some(&t)).await;
    assert_eq!(b["item"]["status"], "error");

    // Sent, with the button.
    let url = "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc";
    let (_, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": url})).await;
    let wid2 = b["withdrawalId"].as_i64().unwrap();
    app.fake().push_update(callback_update("cb2", &format!("wd:sent:{wid2}"), 79, "x"));
    wait_message(&app, ADMIN_ID, &format!("Withdrawal #{wid2} marked sent")).await;
    wait_message(&app, 8030, "has been sent").await;
    let (_, b) = app.get(&format!("/api/v1/user/item/{item}"), Some(&t)).await;
    assert_eq!(b["item"]["status"], "sent");
    // A second press changes nothing.
    app.fake().push_update(callback_update("cb3", &format!("wd:sent:{wid2}"), 79, "x"));
    wait_message(&app, ADMIN_ID, "Not found").await;
    say(&app, ADMIN_ID, "/withdrawals", "No pending withdrawals").await;
    assert_eq!(app.admin_actions(&["withdrawal_error"]).await, 1);
    assert_eq!(app.admin_actions(&["withdrawal_sent"]).await, 1);

    // The command forms work too.
    pending_withdrawal(&app, 8031).await;
    let (wid3,): (i64,) =
        sqlx::query_as("SELECT id FROM withdrawals WHERE user_id = 8031 AND status = 'pending'").fetch_one(&app.domain().db).await.unwrap();
    say(&app, ADMIN_ID, &format!("/fail {wid3} Trade hold"), &format!("Withdrawal #{wid3} failed (other: Trade hold)")).await;
    wait_message(&app, 8031, "Trade hold").await;
    // Buttons from a non-admin do nothing.
    let mut update = callback_update("cb4", &format!("wd:sent:{wid3}"), 80, "x");
    update["callback_query"]["from"]["id"] = json!(8031);
    app.fake().push_update(update);
    app.fake().wait_calls("answerCallbackQuery", 4).await;
    let (status,): (String,) =
        sqlx::query_as("SELECT status FROM withdrawals WHERE id = $1").bind(wid3).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(status, "error");
    app.audit_clean().await;
    app.stop().await;
}
