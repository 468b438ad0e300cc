//! Earning: daily reward and streak chest on an injected clock, subscription, referrals, sharing.
use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::json;
use webapp_api::domain::clock::ManualClock;

use crate::common::*;
use crate::fake_bot_api::Script;

/// 2026-11-22T00:00:00Z.
const DAY0: i64 = 1_795_305_600;
const DAY: i64 = 86_400;

async fn app_at(unix: i64) -> (TestApp, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::at(unix));
    // Sessions outlive the fortnight these tests move through.
    let env = vec![("SESSION_TTL_SECS", (30 * DAY).to_string())];
    let app = TestApp::start(Options { bot: true, clock: Some(clock.clone()), env, ..Options::default() }).await;
    (app, clock)
}

#[tokio::test]
async fn the_daily_reward_pays_once_per_utc_day_across_the_midnight_boundary() {
    let (app, clock) = app_at(DAY0 + DAY - 2).await; // 23:59:58
    let t = app.sign_in(100, "Day").await;
    let (s, b) = app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["data"]["tokensAwarded"], json!(100));
    clock.set(DAY0 + DAY - 1); // 23:59:59, same day
    let (s, b) = app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    assert_error(s, &b, 409, "already_claimed");
    let (_, check) = app.get("/api/v1/daily-reward/check", Some(&t)).await;
    assert_eq!(check["data"], json!({"available": false, "nextClaimAt": "2026-11-23T00:00:00Z"}));
    clock.set(DAY0 + DAY); // 00:00:00 next day
    let (_, check) = app.get("/api/v1/daily-reward/check", Some(&t)).await;
    assert_eq!(check["data"]["available"], json!(true));
    let (s, _) = app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(app.balance(100).await, 20_000);
    let (_, st) = app.get("/api/v1/daily-reward/streak", Some(&t)).await;
    assert_eq!(st["data"]["currentStreak"], json!(2));
    assert_eq!(st["data"]["hasStreak"], json!(true));
    assert_eq!(st["data"]["streakDays"].as_array().unwrap().len(), 7);
    assert_eq!(st["data"]["streakDays"][0], json!({"date": "2026-11-22", "claimed": true}));
    assert_eq!(st["data"]["streakDays"][1], json!({"date": "2026-11-23", "claimed": true}));
    assert_eq!(st["data"]["streakDays"][2]["claimed"], json!(false));
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn a_missed_day_resets_the_streak() {
    let (app, clock) = app_at(DAY0 + 3600).await;
    let t = app.sign_in(101, "Miss").await;
    app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    clock.set(DAY0 + DAY + 3600);
    app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    clock.set(DAY0 + 3 * DAY + 3600); // skipped a day
    let (_, st) = app.get("/api/v1/daily-reward/streak", Some(&t)).await;
    assert_eq!(st["data"]["hasStreak"], json!(false));
    assert_eq!(st["data"]["currentStreak"], json!(0));
    app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    let (_, st) = app.get("/api/v1/daily-reward/streak", Some(&t)).await;
    assert_eq!(st["data"]["currentStreak"], json!(1));
    assert_eq!(st["data"]["streakDays"][0], json!({"date": "2026-11-25", "claimed": true}));
    app.stop().await;
}

#[tokio::test]
async fn the_chest_opens_once_after_seven_days_and_is_gone_with_the_next_cycle() {
    let (app, clock) = app_at(DAY0 + 600).await;
    let t = app.sign_in(102, "Week").await;
    for d in 0..7 {
        clock.set(DAY0 + d * DAY + 600);
        let (s, b) = app.post("/api/v1/daily-reward/claim-streak-bonus", Some(&t), json!({})).await;
        assert_error(s, &b, 409, "bonus_not_available");
        let (s, _) = app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
        assert_eq!(s, StatusCode::OK);
    }
    let (_, st) = app.get("/api/v1/daily-reward/streak", Some(&t)).await;
    assert_eq!(st["data"]["currentStreak"], json!(7));
    assert_eq!(st["data"]["canClaimBonus"], json!(true));
    assert!(st["data"]["streakDays"].as_array().unwrap().iter().all(|d| d["claimed"] == json!(true)));
    let (s, b) = app.post("/api/v1/daily-reward/claim-streak-bonus", Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["data"]["tokensAwarded"], json!(500));
    let (s, b) = app.post("/api/v1/daily-reward/claim-streak-bonus", Some(&t), json!({})).await;
    assert_error(s, &b, 409, "bonus_not_available");
    let (_, st) = app.get("/api/v1/daily-reward/streak", Some(&t)).await;
    assert_eq!((st["data"]["canClaimBonus"].clone(), st["data"]["bonusAlreadyClaimed"].clone()), (json!(false), json!(true)));
    assert_eq!(app.balance(102).await, 7 * 10_000 + 50_000);
    // Day 8 starts a new cycle.
    clock.set(DAY0 + 7 * DAY + 600);
    app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    let (_, st) = app.get("/api/v1/daily-reward/streak", Some(&t)).await;
    assert_eq!(st["data"]["currentStreak"], json!(1));
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn an_unclaimed_chest_is_gone_once_a_new_cycle_starts() {
    let (app, clock) = app_at(DAY0 + 600).await;
    let t = app.sign_in(103, "Late").await;
    for d in 0..8 {
        clock.set(DAY0 + d * DAY + 600);
        app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    }
    let (s, b) = app.post("/api/v1/daily-reward/claim-streak-bonus", Some(&t), json!({})).await;
    assert_error(s, &b, 409, "bonus_not_available");
    app.stop().await;
}

#[tokio::test]
async fn twenty_concurrent_daily_claims_pay_once() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(104, "Tap").await;
    let mut handles = Vec::new();
    for _ in 0..20 {
        let (http, url, t) = (app.http.clone(), format!("{}/api/v1/daily-reward/claim", app.base), t.clone());
        handles.push(tokio::spawn(async move { http.post(url).bearer_auth(t).send().await.unwrap().status() }));
    }
    let mut ok = 0;
    for h in handles {
        let s = h.await.unwrap();
        if s == StatusCode::OK {
            ok += 1
        } else {
            assert_eq!(s, StatusCode::CONFLICT)
        }
    }
    assert_eq!(ok, 1);
    assert_eq!(app.balance(104).await, 10_000);
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn subscription_pays_once_for_members_and_never_guesses_when_telegram_fails() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(105, "Sub").await;
    let left = json!({"status": "left", "user": {"id": 105, "is_bot": false, "first_name": "Sub"}});
    app.fake().script("getChatMember", Script::Ok(left));
    let (s, b) = app.post("/api/v1/subscription/check-subscription", Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(b["data"], json!({"subscribed": false, "tokensAwarded": 0}));
    app.fake().script("getChatMember", Script::Err(400, "Bad Request: member list is inaccessible".into()));
    let (s, b) = app.post("/api/v1/subscription/check-subscription", Some(&t), json!({})).await;
    assert_error(s, &b, 502, "subscription_check_failed");
    app.fake().script("getChatMember", Script::Err(502, "Bad Gateway".into()));
    let (s, b) = app.post("/api/v1/subscription/check-subscription", Some(&t), json!({})).await;
    assert!(s == StatusCode::BAD_GATEWAY, "{b}");
    let (_, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(me["data"]["tgSubscribed"], json!(false));
    // Member (default fake reply): paid once.
    let (s, b) = app.post("/api/v1/subscription/check-subscription", Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["data"], json!({"subscribed": true, "tokensAwarded": 100}));
    let (_, b) = app.post("/api/v1/subscription/check-subscription", Some(&t), json!({})).await;
    assert_eq!(b["data"], json!({"subscribed": true, "tokensAwarded": 0}));
    let calls = app.fake().calls("getChatMember");
    assert_eq!(calls.last().unwrap()["user_id"], json!(105));
    assert_eq!(calls.last().unwrap()["chat_id"], json!("@fragbox_news"));
    let (_, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(me["data"]["tgSubscribed"], json!(true));
    assert_eq!(app.balance(105).await, 10_000);
    app.audit_clean().await;
    app.stop().await;
}

async fn ref_code(app: &TestApp, token: &str) -> String {
    let (_, me) = app.get("/api/v1/me", Some(token)).await;
    me["data"]["ref"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn referrals_attribute_on_first_contact_only_and_pay_once() {
    let app = TestApp::with_bot().await;
    let inviter = app.sign_in(200, "Inviter").await;
    let code = ref_code(&app, &inviter).await;
    // Self-referral: the inviter signing in again with their own code changes nothing.
    app.sign_in_with(200, "Inviter", Some(&format!("ref_{code}"))).await;
    // A new user through a shared-skin link.
    let friend = app.sign_in_with(201, "Friend", Some(&format!("item_5_ref{code}"))).await;
    // An existing user cannot be re-attributed.
    let other = app.sign_in(202, "Other").await;
    let other_code = ref_code(&app, &other).await;
    app.sign_in_with(201, "Friend", Some(&format!("ref_{other_code}"))).await;
    let (by,): (Option<i64>,) = sqlx::query_as("SELECT referred_by FROM users WHERE id = 201").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(by, Some(200));
    let (by,): (Option<i64>,) = sqlx::query_as("SELECT referred_by FROM users WHERE id = 200").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(by, None);
    // The friend opens 5 cases at once: the inviter is paid once.
    app.grant(201, 1000).await;
    let mut handles = Vec::new();
    for i in 0..5 {
        let (http, url, t) = (app.http.clone(), format!("{}{}", app.base, open_path()), friend.clone());
        handles.push(tokio::spawn(async move {
            http.post(url).bearer_auth(t).json(&json!({"requestId": format!("five-{i}")})).send().await.unwrap().status()
        }));
    }
    for h in handles {
        assert_eq!(h.await.unwrap(), StatusCode::OK);
    }
    assert_eq!(app.balance(200).await, 50_000);
    let (s, page) = app.get("/api/v1/user/referrals?page=1", Some(&inviter)).await;
    assert_eq!(s, StatusCode::OK);
    let d = &page["data"];
    assert_eq!(d["referralCode"], json!(code));
    assert_eq!(d["stats"], json!({"invitedCount": 1, "activeUsers": 1, "totalEarned": 500}));
    assert_eq!(d["referrals"][0]["telegramId"], json!(201));
    assert_eq!(d["referrals"][0]["tokensEarned"], json!(500));
    assert!(d["referrals"][0]["firstCaseOpenedAt"].is_string());
    assert_eq!(d["pagination"], json!({"page": 1, "limit": 10, "total": 1, "totalPages": 1}));
    assert_eq!(d["inviteLink"], json!(format!("https://t.me/fragbox_test_bot?startapp=ref_{code}")));
    // The inviter hears about it through the bot.
    let sent = app.fake().wait_calls("sendMessage", 1).await;
    assert!(sent.iter().any(|m| m["chat_id"] == json!(200) && m["text"].as_str().unwrap().contains("500")));
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn sharing_prepares_a_message_for_the_owner_only() {
    let app = TestApp::with_bot().await;
    let t = app.player_with(300, cheap_case_price() / 100).await;
    let (_, opened) = app.post(open_path(), Some(&t), json!({})).await;
    let item = opened["item"]["id"].as_i64().unwrap();
    let (s, b) = app.post("/api/v1/savePreparedInlineMessage", Some(&t), json!({"item_id": item})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["id"], json!("prepared-1"));
    let call = &app.fake().calls("savePreparedInlineMessage")[0];
    assert_eq!(call["user_id"], json!(300));
    let code = ref_code(&app, &t).await;
    let url = call["result"]["reply_markup"]["inline_keyboard"][0][0]["url"].as_str().unwrap();
    assert_eq!(url, format!("https://t.me/fragbox_test_bot?startapp=item_{item}_ref{code}"));
    let other = app.sign_in(301, "Nope").await;
    let (s, b) = app.post("/api/v1/savePreparedInlineMessage", Some(&other), json!({"item_id": item})).await;
    assert_error(s, &b, 409, "share_unavailable");
    app.fake().script("savePreparedInlineMessage", Script::Err(502, "Bad Gateway".into()));
    let (s, b) = app.post("/api/v1/savePreparedInlineMessage", Some(&t), json!({"item_id": item})).await;
    assert_error(s, &b, 502, "telegram_unavailable");
    app.stop().await;
}
