//! Only paid value leaves: bonus tokens never walk out as skins, refunds see withdrawals, and the
//! edges an attacker found stay closed.
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::*;
use crate::fake_bot_api::Script;
use crate::payments::{charge_id, invoice, pay, refunded_update, say, wait_message};

const TRADE_URL: &str = "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc";

async fn me(app: &TestApp, t: &str) -> Value {
    let (s, b) = app.get("/api/v1/me", Some(t)).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b["data"].clone()
}

async fn withdraw(app: &TestApp, t: &str, item: i64) -> (StatusCode, Value) {
    app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(t), json!({"trade_url": TRADE_URL})).await
}

/// The attack of the issue: one smallest pack plus many invitees and a week of rewards. The
/// free tokens open cases, but none of those skins may leave; the paid ones may.
#[tokio::test]
async fn a_small_deposit_and_many_invitees_withdraw_only_what_was_paid() {
    let app = TestApp::with_bot().await;
    let inviter = 7700;
    let t = app.sign_in(inviter, "Farmer").await;
    let code = me(&app, &t).await["ref"].as_str().unwrap().to_owned();
    // Throwaway invitees each open a first case: the inviter is paid a referral reward each.
    for n in 0..6 {
        let friend = 7800 + n;
        let ft = app.sign_in_with(friend, "Throwaway", Some(&format!("ref_{code}"))).await;
        app.grant_bonus(friend, cheap_case_price() / 100).await;
        app.open_ok(&ft, cheap_case(), None).await;
    }
    let before = me(&app, &t).await;
    let free = before["balance"].as_f64().unwrap();
    assert!(free > 0.0, "{before}");
    assert_eq!(before["bonusBalance"], before["balance"], "referral rewards are bonus: {before}");

    // One small deposit.
    let tx = invoice(&app, &t, inviter, "pack-s").await;
    pay(&app, inviter, &tx, 125, &charge_id("small")).await;
    let after = me(&app, &t).await;
    assert!(after["balance"].as_f64().unwrap() > free);
    assert_eq!(after["bonusBalance"].as_f64().unwrap(), free, "the purchase is paid value: {after}");

    // Paid tokens are spent first: the first open is paid, withdrawable.
    let paid_item = app.open_ok(&t, cheap_case(), None).await["item"].clone();
    let paid_part = after["balance"].as_f64().unwrap() - free;
    if paid_part * 100.0 >= cheap_case_price() as f64 {
        assert_eq!(paid_item["withdrawable"], json!(true), "{paid_item}");
        let (s, b) = withdraw(&app, &t, paid_item["id"].as_i64().unwrap()).await;
        assert_eq!(s, StatusCode::OK, "{b}");
    }
    // Everything won with the free tokens stays in the shop.
    let mut refused = 0;
    while me(&app, &t).await["balance"].as_f64().unwrap() * 100.0 >= cheap_case_price() as f64 {
        let item = app.open_ok(&t, cheap_case(), None).await["item"].clone();
        if item["withdrawable"] == json!(false) {
            let (s, b) = withdraw(&app, &t, item["id"].as_i64().unwrap()).await;
            assert_error(s, &b, 409, "bonus_item");
            refused += 1;
        }
    }
    assert!(refused > 0, "bonus tokens opened no case");
    app.audit_clean().await;
    app.stop().await;
}

/// A bonus-won skin can be kept and sold: the sale pays bonus tokens, so it cannot be turned into
/// paid value by selling. `WITHDRAW_PAID_ONLY=false` is the shop's choice to let it leave.
#[tokio::test]
async fn a_bonus_skin_sells_for_bonus_tokens_and_leaves_only_when_the_shop_allows() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(7710, "Bonus").await;
    app.grant_bonus(7710, cheap_case_price() / 100).await;
    let item = app.open_ok(&t, cheap_case(), None).await["item"].clone();
    assert_eq!(item["withdrawable"], json!(false), "{item}");
    let (s, b) = app.post("/api/v1/sales/sell", Some(&t), json!({"item_id": item["id"]})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let profile = me(&app, &t).await;
    assert_eq!(profile["bonusBalance"], profile["balance"], "a bonus skin sells for bonus tokens: {profile}");
    app.audit_clean().await;
    app.stop().await;

    let open_shop = TestApp::start(Options {
        bot: true,
        env: vec![("WITHDRAW_PAID_ONLY", "false".into()), ("WITHDRAW_MIN_STARS", "0".into())],
        ..Options::default()
    })
    .await;
    // The mini app learns the shop's choice from `/config`, to say it before an open.
    let (_, config) = open_shop.get("/api/v1/config", None).await;
    assert_eq!(config["withdrawPaidOnly"], json!(false), "{config}");
    let t = open_shop.sign_in(7711, "Open").await;
    open_shop.grant_bonus(7711, cheap_case_price() / 100).await;
    let item = open_shop.open_ok(&t, cheap_case(), None).await["item"].clone();
    assert_eq!(item["withdrawable"], json!(true), "{item}");
    let (s, b) = withdraw(&open_shop, &t, item["id"].as_i64().unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    open_shop.stop().await;
}

/// An admin's paid grant (compensation) counts as paid; a plain one is bonus; a replayed
/// `/grant` update grants once.
#[tokio::test]
async fn paid_grants_are_compensation_and_a_replayed_grant_credits_once() {
    let app = TestApp::start(Options { bot: true, env: vec![("DB_BUSY_TIMEOUT_MS", "300".into())], ..Options::default() }).await;
    let t = app.sign_in(7720, "Comp").await;
    let price = cheap_case_price();
    say(&app, ADMIN_ID, &format!("/grant 7720 {} paid lost skin", price / 100), "balance").await;
    let item = app.open_ok(&t, cheap_case(), None).await["item"].clone();
    assert_eq!(item["withdrawable"], json!(true), "{item}");
    // Only the first-case reward (100 tokens) is bonus.
    assert_eq!(me(&app, &t).await["bonusBalance"], json!(100));

    // The same update delivered again while the database is busy (the write turn held past the
    // busy timeout): it is neither dropped nor handled twice — it waits, then is recognised.
    let mut update = crate::fake_bot_api::text_update(ADMIN_ID, "Admin", "en", "/grant 7720 7 goodwill");
    app.fake().push_update(update.clone());
    update["update_id"] = json!(app.fake().last_update_id());
    wait_message(&app, ADMIN_ID, "+7 tokens to 7720").await;
    let turn = webapp_api::domain::store::write_turn(&app.domain().db).await.unwrap();
    app.fake().replay_update(update);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    drop(turn);
    say(&app, ADMIN_ID, "/help", "/").await;
    let entries: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM ledger_entries WHERE user_id = 7720 AND reason = 'grant: goodwill'")
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    assert_eq!(entries.0, 1);
    app.audit_clean().await;
    app.stop().await;
}

/// A refund finds the skin in a withdrawal nothing has sent yet: the withdrawal is cancelled, the
/// skin taken back (its state says why), and the player is told.
#[tokio::test]
async fn a_refund_cancels_an_unsent_withdrawal_and_tells_the_player() {
    let catalog = catalog_with_dear_case();
    let app =
        TestApp::start(Options { bot: true, env: vec![("CATALOG_DIR", catalog.0.display().to_string())], ..Options::default() }).await;
    let user = 7730;
    let Payer { token: t, charge, .. } = app.paying_player(user, 1250).await;
    let (_, opened) = app.post(&format!("/api/v1/cases/{DEAR_CASE}/open"), Some(&t), json!({})).await;
    let item = opened["item"]["id"].as_i64().unwrap();
    let (s, b) = withdraw(&app, &t, item).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let wid = b["withdrawalId"].as_i64().unwrap();

    say(&app, ADMIN_ID, &format!("/refund {charge} force"), "Refunded 1250").await;
    wait_message(&app, user, "was cancelled").await;
    let (status, code): (String, Option<String>) = sqlx::query_as("SELECT status, status_reason_code FROM inventory_items WHERE id = $1")
        .bind(item)
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    assert_eq!((status.as_str(), code.as_deref()), ("revoked", Some("refund")));
    let (w,): (String,) =
        sqlx::query_as("SELECT reason_code FROM withdrawals WHERE id = $1").bind(wid).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(w, "refund");
    // Nothing left for the operator to send.
    say(&app, ADMIN_ID, &format!("/sent {wid}"), "").await;
    let (s,): (String,) =
        sqlx::query_as("SELECT status FROM withdrawals WHERE id = $1").bind(wid).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(s, "error");
    app.audit_clean().await;
    app.stop().await;
}

/// While a player owes a debt from a refund, none of their withdrawals may be marked sent.
#[tokio::test]
async fn a_withdrawal_is_not_marked_sent_while_its_player_owes_a_debt() {
    let catalog = catalog_with_dear_case();
    let app =
        TestApp::start(Options { bot: true, env: vec![("CATALOG_DIR", catalog.0.display().to_string())], ..Options::default() }).await;
    let user = 7740;
    // A skin won before any purchase (paid compensation) waits in a withdrawal.
    let t = app.player_with(user, cheap_case_price() / 100).await;
    let early = app.open_ok(&t, cheap_case(), None).await["item"]["id"].as_i64().unwrap();
    let (s, b) = withdraw(&app, &t, early).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let early_w = b["withdrawalId"].as_i64().unwrap();
    // A purchase buys a skin that leaves; the purchase is refunded: its value is gone, a debt.
    let tx = invoice(&app, &t, user, "pack-xl").await;
    let charge = charge_id("owes");
    pay(&app, user, &tx, 1250, &charge).await;
    let (_, a) = app.post(&format!("/api/v1/cases/{DEAR_CASE}/open"), Some(&t), json!({})).await;
    let (s, b) = withdraw(&app, &t, a["item"]["id"].as_i64().unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let wid = b["withdrawalId"].as_i64().unwrap();
    say(&app, ADMIN_ID, &format!("/sent {wid}"), &format!("#{wid}")).await;
    say(&app, ADMIN_ID, &format!("/refund {charge} force"), "Refunded 1250").await;
    assert!(me(&app, &t).await["debt"].as_f64().unwrap() > 0.0);
    // The earlier skin was not bought with the refunded Stars, so it stays — but not while the
    // debt is open.
    say(&app, ADMIN_ID, &format!("/sent {early_w}"), "owed").await;
    let (s,): (String,) =
        sqlx::query_as("SELECT status FROM withdrawals WHERE id = $1").bind(early_w).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(s, "pending");
    app.audit_clean().await;
    app.stop().await;
}

/// A refund without `force` holds the tokens before Telegram is asked: while the call is under
/// way they cannot be spent, and when Telegram refuses they come back.
#[tokio::test]
async fn a_refund_holds_the_tokens_during_the_telegram_call_and_releases_them_when_refused() {
    let app = TestApp::with_bot().await;
    let user = 7750;
    let Payer { token: t, charge, .. } = app.paying_player(user, 500).await;
    let full = app.balance(user).await;
    assert!(full > 0);

    // Telegram is slow: meanwhile the player finds nothing to spend, and what the refund
    // takes back is what it held.
    app.fake().script("refundStarPayment", Script::Delay(Duration::from_millis(1500)));
    app.fake().push_update(crate::fake_bot_api::text_update(ADMIN_ID, "Admin", "en", &format!("/refund {charge}")));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while app.balance(user).await == full {
        assert!(std::time::Instant::now() < deadline, "the refund never held the tokens");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (s, b) = app.post(open_path(), Some(&t), json!({})).await;
    assert_error(s, &b, 409, "insufficient_tokens");
    wait_message(&app, ADMIN_ID, "Refunded").await;
    assert_eq!(app.balance(user).await, 0);

    // Telegram refuses a second refund: its hold is released, the balance is whole again.
    let tx = invoice(&app, &t, user, "pack-l").await;
    let charge = charge_id("hold2");
    app.fake().push_update(crate::payments::paid_update(user, &tx, 500, &charge));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while app.balance(user).await == 0 {
        assert!(std::time::Instant::now() < deadline, "the second payment was never credited");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let full = app.balance(user).await;
    app.fake().script("refundStarPayment", Script::Err(400, "Bad Request: CHARGE_NOT_FOUND".into()));
    say(&app, ADMIN_ID, &format!("/refund {charge}"), "").await;
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while app.balance(user).await != full {
        assert!(std::time::Instant::now() < deadline, "the hold was never released");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status,): (String,) =
        sqlx::query_as("SELECT status FROM payments WHERE charge_id = $1").bind(&charge).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(status, "success");
    app.audit_clean().await;
    app.stop().await;
}

/// A skin won in the same second before the purchase is not one the purchase paid for: the
/// refund orders by the ledger, not by the clock.
#[tokio::test]
async fn a_same_second_refund_leaves_a_skin_won_before_the_purchase() {
    let app = TestApp::with_bot().await;
    let user = 7760;
    let t = app.player_with(user, cheap_case_price() / 100).await;
    let before = app.open_ok(&t, cheap_case(), None).await["item"].clone();
    let tx = invoice(&app, &t, user, "pack-s").await;
    let charge = charge_id("same");
    pay(&app, user, &tx, 125, &charge).await;
    // Spend the purchase, so the refund must look for skins.
    while app.balance(user).await >= cheap_case_price() {
        app.open_ok(&t, cheap_case(), None).await;
    }
    say(&app, ADMIN_ID, &format!("/refund {charge} force"), "Refunded").await;
    let (status,): (String,) = sqlx::query_as("SELECT status FROM inventory_items WHERE id = $1")
        .bind(before["id"].as_i64().unwrap())
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    assert_eq!(status, "received", "a skin won before the purchase stays");
    app.audit_clean().await;
    app.stop().await;
}

/// A `refunded_payment` service message counts only from the payer.
#[tokio::test]
async fn a_refunded_payment_message_from_someone_else_is_ignored() {
    let app = TestApp::with_bot().await;
    let user = 7770;
    let Payer { tx, charge, .. } = app.paying_player(user, 125).await;
    let balance = app.balance(user).await;
    app.fake().push_update(refunded_update(7771, &tx, 125, &charge));
    say(&app, 7771, "/help", "/").await;
    assert_eq!(app.balance(user).await, balance);
    let (status,): (String,) =
        sqlx::query_as("SELECT status FROM payments WHERE charge_id = $1").bind(&charge).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(status, "success");
    // The payer's own message reverses it.
    app.fake().push_update(refunded_update(user, &tx, 125, &charge));
    wait_message(&app, ADMIN_ID, "Refund outside /refund").await;
    app.audit_clean().await;
    app.stop().await;
}

/// `fragbox audit` says what left against what was paid.
#[tokio::test]
async fn the_audit_reports_value_that_left_against_value_paid() {
    let app = TestApp::with_bot().await;
    let t = app.player_with(7780, cheap_case_price() / 100).await;
    let item = app.open_ok(&t, cheap_case(), None).await["item"].clone();
    let (s, b) = withdraw(&app, &t, item["id"].as_i64().unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let report = webapp_api::domain::audit::leakage(&app.domain().db).await.unwrap();
    let player = report.iter().find(|l| l.user_id == 7780).expect("the player who withdrew is listed");
    assert_eq!(player.pending.0, item["tokenPrice"].as_f64().map(|p| (p * 100.0).round() as i64).unwrap());
    assert_eq!(report.last().unwrap().user_id, 0, "the total comes last");
    app.stop().await;
}
