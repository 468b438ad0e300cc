//! Promo codes (issue #24, point 2): created by admins in the bot and the CLI, redeemed by
//! players for bonus tokens, once each, within the code's uses under any concurrency.
use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{json, Value};
use webapp_api::domain::admin::Actor;
use webapp_api::domain::clock::ManualClock;
use webapp_api::domain::promo::{self, NewPromo};
use webapp_api::domain::Tokens;

use crate::common::*;
use crate::operator::fragbox;
use crate::payments::{charge_id, invoice, pay, say};

const REDEEM: &str = "/api/v1/promo/redeem";

async fn create(app: &TestApp, code: &str, tokens: i64, uses: i64, days: Option<i64>, deposit_only: bool) {
    promo::create(app.domain(), Actor::Cli, NewPromo { code: code.into(), tokens: Tokens::whole(tokens), uses, days, deposit_only })
        .await
        .unwrap();
}

async fn promo_credits(app: &TestApp) -> (i64, i64) {
    let (n, sum): (i64, i64) =
        sqlx::query_as("SELECT COUNT(*), CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM ledger_entries WHERE reason = 'promo'")
            .fetch_one(&app.domain().db)
            .await
            .unwrap();
    (n, sum)
}

async fn uses(app: &TestApp, code: &str) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT uses FROM promo_codes WHERE code = $1").bind(code).fetch_one(&app.domain().db).await.unwrap();
    n
}

/// The trial of the issue: a code with 10 uses, 50 players redeeming it at the same moment.
#[tokio::test]
async fn fifty_players_at_once_redeem_a_ten_use_code_and_exactly_ten_are_paid() {
    let app = TestApp::with_bot().await;
    create(&app, "RUSH10", 25, 10, None, false).await;
    let mut tokens = Vec::new();
    for i in 0..50 {
        tokens.push(app.sign_in(20_000 + i, "Rusher").await);
    }
    let barrier = Arc::new(tokio::sync::Barrier::new(50));
    let tasks: Vec<_> = tokens
        .into_iter()
        .map(|t| {
            let (http, url, barrier) = (app.http.clone(), format!("{}{REDEEM}", app.base), barrier.clone());
            tokio::spawn(async move {
                barrier.wait().await;
                let res = http.post(url).bearer_auth(t).json(&json!({"code": "rush10"})).send().await.unwrap();
                read(res).await
            })
        })
        .collect();
    let answers: Vec<(StatusCode, Value)> = futures_util::future::join_all(tasks).await.into_iter().map(Result::unwrap).collect();
    let paid: Vec<&Value> = answers.iter().filter(|(s, _)| *s == StatusCode::OK).map(|(_, b)| b).collect();
    assert_eq!(paid.len(), 10, "{answers:#?}");
    for b in &paid {
        assert_eq!(b["success"], json!(true));
        assert_eq!(b["data"]["tokensAwarded"], json!(25));
        assert_eq!(b["data"]["balance"], json!(25));
    }
    for (s, b) in answers.iter().filter(|(s, _)| *s != StatusCode::OK) {
        assert_error(*s, b, 409, "promo_exhausted");
    }
    assert_eq!(promo_credits(&app).await, (10, 10 * 2500));
    assert_eq!(uses(&app, "RUSH10").await, 10);
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM promo_redemptions").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(rows, 10, "the refused redemptions left nothing behind");
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn every_refusal_has_its_code_and_codes_match_in_any_case() {
    let clock = Arc::new(ManualClock::at(1_767_225_600)); // 2026-01-01 00:00 UTC
    let app = TestApp::start(Options { bot: true, clock: Some(clock.clone()), ..Options::default() }).await;
    let t = app.sign_in(21_001, "Player").await;
    create(&app, "Stream_24", 40, 100, Some(1), false).await;
    create(&app, "PAYERS", 60, 100, None, true).await;
    create(&app, "gone", 10, 100, None, false).await;
    promo::disable(app.domain(), Actor::Cli, "GONE").await.unwrap();
    create(&app, "ONCE", 10, 1, None, false).await;
    app.post(REDEEM, Some(&app.sign_in(21_002, "First").await), json!({"code": "once"})).await;

    for (code, status, error) in [
        ("NOPE", 404, "promo_not_found"),
        ("x!", 404, "promo_not_found"),
        ("", 404, "promo_not_found"),
        ("Gone", 404, "promo_not_found"),
        ("ONCE", 409, "promo_exhausted"),
        ("payers", 409, "deposit_required"),
    ] {
        let (s, b) = app.post(REDEEM, Some(&t), json!({ "code": code })).await;
        assert_error(s, &b, status, error);
    }
    // Matched case-insensitively, once per player.
    let (s, b) = app.post(REDEEM, Some(&t), json!({"code": "stream_24"})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b, json!({"success": true, "data": {"tokensAwarded": 40, "balance": 40}}));
    let (s, b) = app.post(REDEEM, Some(&t), json!({"code": "STREAM_24"})).await;
    assert_error(s, &b, 409, "promo_already_redeemed");
    // A day later the code has expired.
    clock.advance(86_400);
    let t2 = app.sign_in(21_003, "Late").await;
    let (s, b) = app.post(REDEEM, Some(&t2), json!({"code": "Stream_24"})).await;
    assert_error(s, &b, 410, "promo_expired");
    // A deposit-only code opens after one successful Stars payment.
    let tx = invoice(&app, &t, 21_001, "pack-s").await;
    pay(&app, 21_001, &tx, 125, &charge_id("promo")).await;
    let before = app.balance(21_001).await;
    let (s, b) = app.post(REDEEM, Some(&t), json!({"code": "payers"})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(app.balance(21_001).await, before + 6000);
    // The texts are the player's language.
    let res = app
        .http
        .post(format!("{}{REDEEM}", app.base))
        .bearer_auth(&t)
        .header("Accept-Language", "ru")
        .json(&json!({"code": "zzz"}))
        .send()
        .await;
    let (_, b) = read(res.unwrap()).await;
    assert_eq!(b["error"], json!("Такого промокода нет"));
    app.audit_clean().await;
    app.stop().await;
}

/// Promo tokens are bonus: they open cases, and what they win stays in the shop.
#[tokio::test]
async fn promo_tokens_are_bonus_and_their_skins_cannot_be_withdrawn() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(21_010, "Bonus").await;
    create(&app, "BONUS", 1000, 5, None, false).await;
    let (s, b) = app.post(REDEEM, Some(&t), json!({"code": "bonus"})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let (_, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(me["data"]["bonusBalance"], json!(1000));
    assert_eq!(me["data"]["balance"], json!(1000));
    let (s, opened) = app.post(open_path(), Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{opened}");
    assert_eq!(opened["item"]["withdrawable"], json!(false));
    let item = opened["item"]["id"].as_i64().unwrap();
    let (s, b) = app
        .post(
            &format!("/api/v1/user/item/{item}/request-withdrawal"),
            Some(&t),
            json!({"trade_url": "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc"}),
        )
        .await;
    assert_error(s, &b, 409, "bonus_item");
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn admins_create_list_and_disable_codes_in_the_bot_in_either_language() {
    let app = TestApp::with_bot().await;
    // Someone else's /promo is the ordinary help, and creates nothing.
    app.sign_in(21_020, "Pleb").await;
    say(&app, 21_020, "/promo create FREE 1000 1000", "/paysupport").await;
    assert!(promo::list(app.domain(), Actor::Cli).await.unwrap().is_empty());

    say(&app, ADMIN_ID, "/promo create Stream24 50 10 7 deposit", "Promo code created").await;
    let list = promo::list(app.domain(), Actor::Cli).await.unwrap();
    assert_eq!(list.len(), 1);
    let p = &list[0];
    assert_eq!((p.code.as_str(), p.tokens, p.max_uses, p.deposit_only), ("STREAM24", Tokens::whole(50), 10, true));
    assert_eq!(p.expires_at.unwrap() - p.created_at, 7 * 86_400);
    say(&app, ADMIN_ID, "/promo create stream24 5 5", "already exists").await;
    say(&app, ADMIN_ID, "/promo create ab 5 5", "3 to 32").await;
    say(&app, ADMIN_ID, "/promo create X 0 5", "Usage: /promo").await;
    say(&app, ADMIN_ID, "/promo list", "STREAM24 — 50 tokens, 0/10 uses").await;
    say(&app, ADMIN_ID, "/promo disable STREAM24", "Promo code STREAM24 disabled").await;
    let t = app.sign_in(21_021, "Late").await;
    let (s, b) = app.post(REDEEM, Some(&t), json!({"code": "stream24"})).await;
    assert_error(s, &b, 404, "promo_not_found");

    // In Russian for an admin who chose it.
    let admin = app.sign_in(ADMIN_ID, "Boss").await;
    let (s, _) = app.put("/api/v1/user/settings", Some(&admin), json!({"language": "ru"})).await;
    assert_eq!(s, StatusCode::OK);
    say(&app, ADMIN_ID, "/promo create Welcome 10 100", "Промокод создан").await;
    say(&app, ADMIN_ID, "/promo", "WELCOME — 10 токенов, 0/100 активаций, без срока, активен").await;
    assert_eq!(app.admin_actions(&["promo_create", "promo_disable"]).await, 3);
    app.stop().await;
}

#[tokio::test]
async fn the_cli_creates_lists_and_disables_codes_and_the_audit_covers_their_credits() {
    let app = TestApp::with_bot().await;
    let (code, out) =
        fragbox(&app, &["promo", "create", "Summer-25", "--tokens", "12.5", "--uses", "2", "--days", "3", "--deposit-only"]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("SUMMER-25 12.5 tokens, 0/2 used, until "), "{out}");
    assert!(out.contains("deposit only"), "{out}");
    let (code, out) = fragbox(&app, &["promo", "create", "summer-25", "--tokens", "1", "--uses", "1"]).await;
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("exists"), "{out}");
    let (code, out) = fragbox(&app, &["promo", "create", "no", "--tokens", "1", "--uses", "1"]).await;
    assert_ne!(code, 0, "{out}");
    let (code, out) = fragbox(&app, &["promo", "create", "OPEN", "--tokens", "5", "--uses", "3"]).await;
    assert_eq!(code, 0, "{out}");
    let (code, out) = fragbox(&app, &["promo", "list"]).await;
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("OPEN 5 tokens, 0/3 used, no end, active") && out.contains("SUMMER-25") && out.contains("2 promo code(s)"),
        "{out}"
    );
    let (code, out) = fragbox(&app, &["promo", "disable", "summer-25"]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("disabled"), "{out}");
    let (code, _) = fragbox(&app, &["promo", "disable", "NOSUCH"]).await;
    assert_ne!(code, 0);

    for (i, id) in [21_030, 21_031].into_iter().enumerate() {
        let t = app.sign_in(id, "P").await;
        let (s, b) = app.post(REDEEM, Some(&t), json!({"code": "open"})).await;
        assert_eq!(s, StatusCode::OK, "{b}");
        assert_eq!(uses(&app, "OPEN").await, i as i64 + 1);
    }
    let (code, out) = fragbox(&app, &["audit"]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("audit clean"), "{out}");
    // The audit sees a use count that the redemptions do not bear out, and a credit without its
    // redemption.
    sqlx::query("UPDATE promo_codes SET uses = 3 WHERE code = 'OPEN'").execute(&app.domain().db).await.unwrap();
    sqlx::query("DELETE FROM promo_redemptions WHERE user_id = 21031").execute(&app.domain().db).await.unwrap();
    let (code, out) = fragbox(&app, &["audit"]).await;
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("promo uses differ from its redemptions"), "{out}");
    assert!(out.contains("promo credit without its redemption"), "{out}");
    app.stop().await;
}

/// Guessing codes spends the player's claim budget (governor, per player): past it, `429`.
#[tokio::test]
async fn guessing_codes_is_rate_limited_per_player() {
    let env = vec![("RATE_LIMITS", "on".to_string()), ("RATE_LIMIT_CLAIM_USER", "3/60".to_string())];
    let app = TestApp::start(Options { bot: true, env, ..Options::default() }).await;
    create(&app, "REAL", 5, 10, None, false).await;
    let guesser = app.sign_in(21_040, "Guesser").await;
    for guess in ["AAA", "BBB", "CCC"] {
        let (s, b) = app.post(REDEEM, Some(&guesser), json!({ "code": guess })).await;
        assert_error(s, &b, 404, "promo_not_found");
    }
    let res = app.http.post(format!("{}{REDEEM}", app.base)).bearer_auth(&guesser).json(&json!({"code": "REAL"})).send().await.unwrap();
    assert!(res.headers().get("retry-after").is_some());
    let (s, b) = read(res).await;
    assert_error(s, &b, 429, "rate_limited");
    assert_eq!(app.balance(21_040).await, 0, "the right code found by guessing pays nothing past the limit");
    // Another player has a budget of their own.
    let other = app.sign_in(21_041, "Other").await;
    let (s, b) = app.post(REDEEM, Some(&other), json!({"code": "real"})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    app.stop().await;
}

#[test]
fn codes_are_normalised_to_upper_case_and_checked() {
    assert_eq!(promo::normalise(" stream_24 ").as_deref(), Some("STREAM_24"));
    assert_eq!(promo::normalise("a-b").as_deref(), Some("A-B"));
    assert_eq!(promo::normalise("ab"), None);
    assert_eq!(promo::normalise(&"x".repeat(33)), None);
    assert_eq!(promo::normalise(&"x".repeat(32)).map(|c| c.len()), Some(32));
    assert_eq!(promo::normalise("no space"), None);
    assert_eq!(promo::normalise("кириллица"), None);
}
