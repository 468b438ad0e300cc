//! Responsible play (issue #24, point 5): the 18+ confirmation, self-exclusion, the daily spend
//! limit and the player's own statistics.
use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{json, Value};
use webapp_api::domain::admin::Actor;
use webapp_api::domain::clock::{rfc3339, ManualClock};
use webapp_api::domain::promo::{self, NewPromo};
use webapp_api::domain::Tokens;

use crate::common::*;
use crate::operator::fragbox;
use crate::payments::{invoice, pre_checkout_update};

/// 2026-01-01 00:00:10 UTC: a day's start, so the tests know which UTC day they are in.
const DAY_START: i64 = 1_767_225_600;
const TRADE_URL: &str = "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc";

async fn app_with_clock(at: i64) -> (TestApp, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::at(at));
    let app = TestApp::start(Options { bot: true, clock: Some(clock.clone()), ..Options::default() }).await;
    (app, clock)
}

async fn items(app: &TestApp, user: i64) -> i64 {
    let (n,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM inventory_items WHERE user_id = $1").bind(user).fetch_one(&app.domain().db).await.unwrap();
    n
}

async fn exclude(app: &TestApp, t: &str, period: &str) -> (StatusCode, Value) {
    app.post("/api/v1/me/self-exclusion", Some(t), json!({ "period": period })).await
}

async fn set_limit(app: &TestApp, t: &str, limit: Value) -> Value {
    let (s, b) = app.put("/api/v1/me/limits", Some(t), json!({ "dailyLimit": limit })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b["data"].clone()
}

async fn limits(app: &TestApp, t: &str) -> Value {
    let (s, b) = app.get("/api/v1/me/limits", Some(t)).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b["data"].clone()
}

#[tokio::test]
async fn the_18_plus_confirmation_is_recorded_beside_the_terms() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(22_001, "Young").await;
    let (_, b) = app.get("/api/v1/user/check-agreements", Some(&t)).await;
    assert_eq!(b, json!({"success": true, "agreed": false, "adult": false}));
    // A player who agreed before the question existed (no body, as the old app sent).
    let res = app.http.post(format!("{}/api/v1/user/agreements", app.base)).bearer_auth(&t).send().await.unwrap();
    let (s, b) = read(res).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(b, json!({"success": true, "agreed": true, "adult": false}));
    let (_, b) = app.get("/api/v1/user/check-agreements", Some(&t)).await;
    assert_eq!(b["adult"], json!(false), "asked once more at the next start");
    let (s, b) = app.post("/api/v1/user/agreements", Some(&t), json!({"adult": true})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(b, json!({"success": true, "agreed": true, "adult": true}));
    let (at,): (Option<i64>,) =
        sqlx::query_as("SELECT adult_confirmed_at FROM users WHERE id = 22001").fetch_one(&app.domain().db).await.unwrap();
    assert!(at.is_some());
    // Anything else leaves the confirmation as it is.
    let (_, b) = app.post("/api/v1/user/agreements", Some(&t), json!({"adult": false})).await;
    assert_eq!(b["adult"], json!(true));
    app.stop().await;
}

#[tokio::test]
async fn a_self_excluded_player_cannot_open_buy_or_redeem_until_the_end_but_still_sells_withdraws_and_writes() {
    let (app, clock) = app_with_clock(DAY_START + 10).await;
    let t = app.sign_in(22_010, "Break").await;
    app.grant(22_010, 1000).await;
    let (s, first) = app.open(&t, cheap_case(), None).await;
    assert_eq!(s, StatusCode::OK, "{first}");
    let (s, second) = app.open(&t, cheap_case(), None).await;
    assert_eq!(s, StatusCode::OK, "{second}");
    let tx = invoice(&app, &t, 22_010, "pack-s").await;
    promo::create(
        app.domain(),
        Actor::Cli,
        NewPromo { code: "BREAK".into(), tokens: Tokens::whole(5), uses: 10, days: None, deposit_only: false },
    )
    .await
    .unwrap();

    let (s, b) = exclude(&app, &t, "7d").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let end = DAY_START + 10 + 7 * 86_400;
    assert_eq!(b["data"]["selfExclusion"], json!({"active": true, "until": rfc3339(end), "permanent": false}));

    let balance = app.balance(22_010).await;
    let (s, b) = app.open(&t, cheap_case(), None).await;
    assert_error(s, &b, 403, "self_excluded");
    assert_eq!(b["until"], json!(rfc3339(end)));
    assert_eq!(b["permanent"], json!(false));
    assert_eq!(app.balance(22_010).await, balance, "nothing debited");
    assert_eq!(items(&app, 22_010).await, 2);
    let init = app.init_data(22_010, "Break", None);
    let (s, b) = app
        .post("/api/v1/payments/create-invoice-link", Some(&t), json!({"pack_id": "pack-s", "telegram_id": 22_010, "init_data": init}))
        .await;
    assert_error(s, &b, 403, "self_excluded");
    assert_eq!(app.fake().calls("createInvoiceLink").len(), 1, "only the invoice made before the break");
    // The invoice made before the break cannot be paid either: the bot's pre-checkout refuses it.
    app.fake().push_update(pre_checkout_update("q-break", 22_010, "en", &tx, 125, "XTR"));
    let answers = app.fake().wait_calls("answerPreCheckoutQuery", 1).await;
    assert_eq!(answers[0]["ok"], json!(false), "{}", answers[0]);
    assert!(answers[0]["error_message"].as_str().unwrap().contains("break"), "{}", answers[0]);
    let (s, b) = app.post("/api/v1/promo/redeem", Some(&t), json!({"code": "break"})).await;
    assert_error(s, &b, 403, "self_excluded");

    // Selling, withdrawing and support still work.
    let (s, b) = app.post("/api/v1/sales/sell", Some(&t), json!({"item_id": first["item"]["id"]})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let item = second["item"]["id"].as_i64().unwrap();
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": TRADE_URL})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let (s, b) = app.post("/api/v1/support/tickets", Some(&t), json!({"theme": "other", "message": "I want my break lifted"})).await;
    assert_eq!(s, StatusCode::OK, "{b}");

    // It cannot be shortened, only lengthened.
    let (s, b) = exclude(&app, &t, "24h").await;
    assert_error(s, &b, 409, "self_exclusion_active");
    assert_eq!(b["until"], json!(rfc3339(end)));
    assert_eq!(limits(&app, &t).await["selfExclusion"]["until"], json!(rfc3339(end)));

    // One second before the end it still runs; at the end it is over.
    clock.set(end - 1);
    let t = app.sign_in(22_010, "Break").await;
    let (s, b) = app.open(&t, cheap_case(), None).await;
    assert_error(s, &b, 403, "self_excluded");
    clock.set(end);
    let (s, b) = app.open(&t, cheap_case(), None).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(limits(&app, &t).await["selfExclusion"], json!({"active": false, "until": null, "permanent": false}));
    invoice(&app, &t, 22_010, "pack-s").await;
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn a_permanent_self_exclusion_ends_only_by_an_admin_through_the_cli() {
    let (app, clock) = app_with_clock(DAY_START + 10).await;
    let t = app.sign_in(22_020, "Forever").await;
    app.grant(22_020, 1000).await;
    let (s, b) = exclude(&app, &t, "permanent").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["data"]["selfExclusion"], json!({"active": true, "until": null, "permanent": true}));
    for period in ["24h", "30d", "permanent"] {
        let (s, b) = exclude(&app, &t, period).await;
        assert_error(s, &b, 409, "self_exclusion_active");
    }
    let (s, b) = exclude(&app, &t, "1y").await;
    assert_error(s, &b, 400, "bad_request");
    clock.advance(400 * 86_400);
    let t = app.sign_in(22_020, "Forever").await;
    let (s, b) = app.open(&t, cheap_case(), None).await;
    assert_error(s, &b, 403, "self_excluded");
    assert_eq!(b["until"], json!(null));
    assert_eq!(b["permanent"], json!(true));

    // Support sees it in the bot's /user.
    crate::payments::say(&app, ADMIN_ID, "/user 22020", "Self-excluded for good (lift: fragbox responsible lift 22020").await;
    let (code, out) = fragbox(&app, &["responsible", "lift", "22020"]).await;
    assert_ne!(code, 0, "a reason is required: {out}");
    // The CLI runs on the system clock, past which nothing matters for a permanent break.
    let (code, out) = fragbox(&app, &["responsible", "lift", "22020", "--reason", "asked", "by", "email"]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("lifted"), "{out}");
    let (detail,): (String,) =
        sqlx::query_as("SELECT detail FROM admin_audit WHERE action = 'self_exclusion_lift'").fetch_one(&app.domain().db).await.unwrap();
    assert!(detail.contains("22020") && detail.contains("permanent") && detail.contains("asked by email"), "{detail}");
    let (code, out) = fragbox(&app, &["responsible", "lift", "22020", "--reason", "again"]).await;
    assert_eq!(code, 1, "nothing left to lift: {out}");
    let (s, b) = app.open(&t, cheap_case(), None).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    app.stop().await;
}

/// The cheapest case's price and a whole-token limit that two opens fit in and three do not.
fn two_opens_limit() -> (i64, i64) {
    let price = cheap_case_price();
    let limit = (2 * price + 99) / 100;
    assert!(limit * 100 < 3 * price, "the cheapest case costs at least one token");
    (price, limit)
}

#[tokio::test]
async fn the_spend_limit_refuses_the_open_that_would_cross_it_and_lowers_at_once_but_raises_a_day_later() {
    let (app, clock) = app_with_clock(DAY_START + 10).await;
    let (price, limit) = two_opens_limit();
    let t = app.sign_in(22_030, "Limit").await;
    app.grant(22_030, 10_000).await;
    let l = set_limit(&app, &t, json!(limit)).await;
    assert_eq!(l["dailyLimit"], json!(limit), "a first limit applies at once");
    assert_eq!(l["pendingChange"], json!(null));
    for _ in 0..2 {
        let (s, b) = app.open(&t, cheap_case(), None).await;
        assert_eq!(s, StatusCode::OK, "{b}");
    }
    let balance = app.balance(22_030).await;
    let (s, b) = app.open(&t, cheap_case(), None).await;
    assert_error(s, &b, 403, "spend_limit");
    assert_eq!(b["limit"], json!(limit));
    assert_eq!(b["resetsAt"], json!(rfc3339(DAY_START + 86_400)));
    // Said in tokens, with what is left today (issue 32).
    let message = b["message"].as_str().unwrap_or_default();
    assert!(message.contains("токенов") && message.contains("осталось") && !message.contains("фраг"), "{message}");
    assert_eq!(app.balance(22_030).await, balance, "nothing debited");
    assert_eq!(items(&app, 22_030).await, 2);
    assert_eq!(limits(&app, &t).await["spentToday"], serde_json::to_value(Tokens(2 * price)).unwrap());

    // A raise waits 24 hours.
    clock.set(DAY_START + 20);
    let l = set_limit(&app, &t, json!(limit * 10)).await;
    assert_eq!(l["dailyLimit"], json!(limit));
    assert_eq!(l["pendingChange"], json!({"dailyLimit": limit * 10, "effectiveAt": rfc3339(DAY_START + 20 + 86_400)}));
    let (s, b) = app.open(&t, cheap_case(), None).await;
    assert_error(s, &b, 403, "spend_limit");
    // The next UTC day spending starts from zero, under the old limit until the raise is due.
    clock.set(DAY_START + 86_400 + 5);
    let t = app.sign_in(22_030, "Limit").await;
    for _ in 0..2 {
        let (s, b) = app.open(&t, cheap_case(), None).await;
        assert_eq!(s, StatusCode::OK, "{b}");
    }
    let (s, b) = app.open(&t, cheap_case(), None).await;
    assert_error(s, &b, 403, "spend_limit");
    clock.set(DAY_START + 86_400 + 20);
    let (s, b) = app.open(&t, cheap_case(), None).await;
    assert_eq!(s, StatusCode::OK, "the raise is in force: {b}");
    let l = limits(&app, &t).await;
    assert_eq!((l["dailyLimit"].clone(), l["pendingChange"].clone()), (json!(limit * 10), json!(null)));

    // Lowering applies at once: below today's spending, the next open is refused.
    set_limit(&app, &t, json!(limit)).await;
    let (s, b) = app.open(&t, cheap_case(), None).await;
    assert_error(s, &b, 403, "spend_limit");
    // Removing waits a day too.
    let l = set_limit(&app, &t, json!(null)).await;
    assert_eq!(l["dailyLimit"], json!(limit));
    assert_eq!(l["pendingChange"]["dailyLimit"], json!(null));
    clock.advance(86_400);
    assert_eq!(limits(&app, &t).await["dailyLimit"], json!(null));
    for bad in [json!(0), json!(-5), json!(2.5), json!("ten"), json!(20_000_000)] {
        let (s, b) = app.put("/api/v1/me/limits", Some(&t), json!({ "dailyLimit": bad })).await;
        assert!(s == StatusCode::UNPROCESSABLE_ENTITY || s == StatusCode::BAD_REQUEST, "{bad}: {s} {b}");
    }
    app.audit_clean().await;
    app.stop().await;
}

/// Opens at once on every engine never spend past the limit: the check and the debit are one write.
#[tokio::test]
async fn concurrent_opens_never_cross_the_limit() {
    let app = TestApp::with_bot().await;
    let (price, limit) = two_opens_limit();
    let t = app.player_with(22_040, 10_000).await;
    set_limit(&app, &t, json!(limit)).await;
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let (http, url, t) = (app.http.clone(), format!("{}{}", app.base, open_path()), t.clone());
            tokio::spawn(async move { read(http.post(url).bearer_auth(t).json(&json!({})).send().await.unwrap()).await })
        })
        .collect();
    let answers: Vec<(StatusCode, Value)> = futures_util::future::join_all(tasks).await.into_iter().map(Result::unwrap).collect();
    let ok = answers.iter().filter(|(s, _)| *s == StatusCode::OK).count();
    assert!(ok <= 2, "{answers:#?}");
    for (s, b) in answers.iter().filter(|(s, _)| *s != StatusCode::OK) {
        assert!(b["code"] == json!("spend_limit") || b["code"] == json!("busy"), "{s} {b}");
    }
    let (spent,): (i64,) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(-amount), 0) AS BIGINT) FROM ledger_entries WHERE user_id = 22040 AND reason = 'case_open'",
    )
    .fetch_one(&app.domain().db)
    .await
    .unwrap();
    assert!(spent <= limit * 100 && spent == ok as i64 * price, "{spent}");
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn the_player_sees_their_own_statistics() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(22_050, "Stats").await;
    let (s, b) = app.get("/api/v1/me/stats", Some(&t)).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b, json!({"success": true, "data": {"casesOpened": 0, "tokensSpent": 0, "tokensWonBack": 0, "bestDrop": null}}));
    app.grant(22_050, 1000).await;
    let mut drops = Vec::new();
    for _ in 0..3 {
        let (s, b) = app.open(&t, cheap_case(), None).await;
        assert_eq!(s, StatusCode::OK, "{b}");
        drops.push(b["item"].clone());
    }
    let (s, sold) = app.post("/api/v1/sales/sell", Some(&t), json!({"item_id": drops[0]["id"]})).await;
    assert_eq!(s, StatusCode::OK, "{sold}");
    let (_, b) = app.get("/api/v1/me/stats", Some(&t)).await;
    let d = &b["data"];
    assert_eq!(d["casesOpened"], json!(3));
    assert_eq!(d["tokensSpent"], serde_json::to_value(Tokens(3 * cheap_case_price())).unwrap());
    let (paid,): (i64,) = sqlx::query_as("SELECT amount FROM sales WHERE user_id = 22050").fetch_one(&app.domain().db).await.unwrap();
    assert!(paid > 0);
    assert_eq!(d["tokensWonBack"], serde_json::to_value(Tokens(paid)).unwrap());
    let best = drops.iter().map(|d| d["tokenPrice"].as_f64().unwrap()).fold(0.0, f64::max);
    assert_eq!(d["bestDrop"]["tokenPrice"].as_f64(), Some(best));
    assert!(drops.iter().any(|x| x["id"] == d["bestDrop"]["id"]), "{d}");
    app.stop().await;
}

/// Demo mode's stand-in for the payment sheet refuses a self-excluded player as the bot's
/// pre-checkout does, even for an invoice made before the break.
#[tokio::test]
async fn demo_payments_refuse_a_self_excluded_player() {
    let app = TestApp::demo().await;
    let (_, d) = app.get("/api/v1/dev/init-data", None).await;
    let id = d["demoId"].as_i64().unwrap();
    let (_, auth) = app.post("/api/v1/auth", None, json!({"initData": d["initData"]})).await;
    let t = auth["token"].as_str().unwrap().to_owned();
    let invoice = json!({"pack_id": "pack-m", "telegram_id": id, "init_data": d["initData"]});
    let (s, b) = app.post("/api/v1/payments/create-invoice-link", Some(&t), invoice.clone()).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let tx = b["transaction_id"].as_str().unwrap().to_owned();
    let (s, b) = exclude(&app, &t, "24h").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let balance = app.balance(id).await;
    let (s, b) = app.post(&format!("/api/v1/dev/pay/{tx}"), Some(&t), json!({})).await;
    assert_error(s, &b, 403, "self_excluded");
    let (s, b) = app.post("/api/v1/payments/create-invoice-link", Some(&t), invoice).await;
    assert_error(s, &b, 403, "self_excluded");
    assert_eq!(app.balance(id).await, balance);
    app.stop().await;
}
