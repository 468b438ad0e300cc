//! Telegram Stars: invoices, pre-checkout, crediting once, orphans, refunds, demo payments.
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::*;
use crate::fake_bot_api::{text_update, Script};

/// A Stars charge id as Telegram makes them: `stx…`, past 128 characters.
pub fn charge_id(tag: &str) -> String {
    format!("stx{tag}{}", "Ab3_".repeat(40))
}

fn user_json(id: i64, lang: &str) -> Value {
    json!({"id": id, "is_bot": false, "first_name": "Payer", "language_code": lang})
}

pub fn pre_checkout_update(query_id: &str, user_id: i64, lang: &str, payload: &str, stars: i64, currency: &str) -> Value {
    json!({"pre_checkout_query": {
        "id": query_id, "from": user_json(user_id, lang), "currency": currency,
        "total_amount": stars, "invoice_payload": payload
    }})
}

pub fn paid_update(user_id: i64, payload: &str, stars: i64, charge: &str) -> Value {
    json!({"message": {
        "message_id": 900, "date": 1_700_000_000,
        "chat": {"id": user_id, "type": "private", "first_name": "Payer"},
        "from": user_json(user_id, "en"),
        "successful_payment": {
            "currency": "XTR", "total_amount": stars, "invoice_payload": payload,
            "telegram_payment_charge_id": charge, "provider_payment_charge_id": ""
        }
    }})
}

pub fn refunded_update(user_id: i64, payload: &str, stars: i64, charge: &str) -> Value {
    json!({"message": {
        "message_id": 901, "date": 1_700_000_000,
        "chat": {"id": user_id, "type": "private", "first_name": "Payer"},
        "from": user_json(user_id, "en"),
        "refunded_payment": {
            "currency": "XTR", "total_amount": stars, "invoice_payload": payload,
            "telegram_payment_charge_id": charge
        }
    }})
}

/// Waits for a `sendMessage` to `chat` whose text contains `needle`.
pub async fn wait_message(app: &TestApp, chat: i64, needle: &str) -> Value {
    for _ in 0..2400 {
        if let Some(m) = app
            .fake()
            .calls("sendMessage")
            .into_iter()
            .find(|m| m["chat_id"] == json!(chat) && m["text"].as_str().is_some_and(|t| t.contains(needle)))
        {
            return m;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let texts: Vec<Value> = app.fake().calls("sendMessage").into_iter().map(|m| json!([m["chat_id"], m["text"]])).collect();
    panic!("no message to {chat} containing {needle:?}; sent: {texts:#?}");
}

/// Sends `text` from `user` and waits for the bot's answer containing `needle`.
pub async fn say(app: &TestApp, user: i64, text: &str, needle: &str) -> Value {
    let before = app.fake().calls("sendMessage").len();
    app.fake().push_update(text_update(user, "Someone", "en", text));
    for _ in 0..2400 {
        let calls = app.fake().calls("sendMessage");
        if let Some(m) =
            calls[before..].iter().find(|m| m["chat_id"] == json!(user) && m["text"].as_str().is_some_and(|t| t.contains(needle)))
        {
            return m.clone();
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let texts: Vec<Value> = app.fake().calls("sendMessage")[before..].iter().map(|m| json!([m["chat_id"], m["text"]])).collect();
    panic!("{text:?} from {user}: no answer containing {needle:?}; sent since: {texts:#?}");
}

/// Creates an invoice for `pack` as `user`; answers the transaction id.
pub async fn invoice(app: &TestApp, token: &str, user: i64, pack: &str) -> String {
    let init = app.init_data(user, "Payer", None);
    let (s, b) = app
        .post("/api/v1/payments/create-invoice-link", Some(token), json!({"pack_id": pack, "telegram_id": user, "init_data": init}))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b["transaction_id"].as_str().unwrap().to_owned()
}

async fn status(app: &TestApp, token: &str, tx: &str) -> String {
    let (s, b) = app.get(&format!("/api/v1/payments/transaction-status/{tx}"), Some(token)).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b["status"].as_str().unwrap().to_owned()
}

/// Pays `tx` through the bot and waits for the player's credit message.
pub async fn pay(app: &TestApp, user: i64, tx: &str, stars: i64, charge: &str) {
    app.fake().push_update(paid_update(user, tx, stars, charge));
    wait_message(app, user, "received").await;
}

#[tokio::test]
async fn an_invoice_is_made_in_stars_without_a_provider_token_for_a_pending_transaction() {
    let app = TestApp::with_bot().await;
    let (s, b) = app.get("/api/v1/payments/packages", None).await;
    assert_error(s, &b, 401, "unauthorized");
    let t = app.sign_in(7001, "Payer").await;
    let (s, b) = app.get("/api/v1/payments/packages", Some(&t)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b["data"].as_array().unwrap().iter().any(|p| p == &json!({"id": "pack-m", "tokens": 292, "bonus": 0, "stars": 250})), "{b}");

    let init = app.init_data(7001, "Payer", None);
    let (s, b) = app
        .post("/api/v1/payments/create-invoice-link", Some(&t), json!({"pack_id": "pack-m", "telegram_id": 7001, "init_data": init}))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let tx = b["transaction_id"].as_str().unwrap();
    assert!(tx.len() == 32 && tx.bytes().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()), "{tx}");
    assert_eq!(b["invoice_link"], json!(format!("https://t.me/$fakeinvoice{tx}")));

    let calls = app.fake().calls("createInvoiceLink");
    assert_eq!(calls.len(), 1);
    let call = &calls[0];
    assert_eq!(call["currency"], "XTR");
    assert_eq!(call["payload"], json!(tx));
    assert!(call.get("provider_token").is_none_or(|p| p.is_null() || p == ""), "{call}");
    assert_eq!(call["prices"].as_array().unwrap().len(), 1);
    assert_eq!(call["prices"][0]["amount"], json!(250));
    assert_eq!(status(&app, &t, tx).await, "pending");
    app.stop().await;
}

#[tokio::test]
async fn an_invoice_needs_genuine_init_data_of_the_signed_in_user_and_a_known_pack() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(7002, "Payer").await;
    let mine = app.init_data(7002, "Payer", None);
    let theirs = app.init_data(7003, "Other", None);
    let cases = [
        (json!({"pack_id": "pack-s", "telegram_id": 7003, "init_data": mine}), 403, "forbidden"),
        (json!({"pack_id": "pack-s", "telegram_id": 7002, "init_data": theirs}), 403, "forbidden"),
        (json!({"pack_id": "pack-s", "telegram_id": 7002, "init_data": mine.replace("Payer", "Pwned")}), 401, "invalid_init_data"),
        (json!({"pack_id": "pack-zzz", "telegram_id": 7002, "init_data": mine}), 404, "pack_not_found"),
    ];
    for (body, status, code) in cases {
        let (s, b) = app.post("/api/v1/payments/create-invoice-link", Some(&t), body).await;
        assert_error(s, &b, status, code);
    }
    assert!(app.fake().calls("createInvoiceLink").is_empty());
    // Telegram refusing the link leaves a failed transaction, never a payable one.
    app.fake().script("createInvoiceLink", Script::Err(400, "Bad Request: something".into()));
    let (s, b) = app
        .post("/api/v1/payments/create-invoice-link", Some(&t), json!({"pack_id": "pack-s", "telegram_id": 7002, "init_data": mine}))
        .await;
    assert_error(s, &b, 502, "telegram_unavailable");
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM payments WHERE status = 'failed'").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(n, 1);
    app.stop().await;
}

#[tokio::test]
async fn pre_checkout_is_ok_only_for_the_pending_transaction_with_the_same_amount() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(7010, "Payer").await;
    let tx = invoice(&app, &t, 7010, "pack-s").await;
    app.fake().push_update(pre_checkout_update("q-right", 7010, "en", &tx, 125, "XTR"));
    app.fake().push_update(pre_checkout_update("q-amount", 7010, "en", &tx, 1, "XTR"));
    app.fake().push_update(pre_checkout_update("q-unknown", 7012, "ru", "ffffffffffffffffffffffffffffffff", 125, "XTR"));
    app.fake().push_update(pre_checkout_update("q-stranger", 7011, "en", &tx, 125, "XTR"));
    let answers = app.fake().wait_calls("answerPreCheckoutQuery", 4).await;
    let answer = |id: &str| answers.iter().find(|a| a["pre_checkout_query_id"] == json!(id)).unwrap().clone();
    assert_eq!(answer("q-right")["ok"], json!(true));
    for id in ["q-amount", "q-unknown", "q-stranger"] {
        let a = answer(id);
        assert_eq!(a["ok"], json!(false), "{a}");
        assert!(a["error_message"].as_str().is_some_and(|m| !m.is_empty()), "{a}");
    }
    assert!(answer("q-amount")["error_message"].as_str().unwrap().contains("amount"));
    assert!(answer("q-unknown")["error_message"].as_str().unwrap().contains("не найден"), "Russian for a Russian stranger");
    // A paid transaction is not paid again.
    pay(&app, 7010, &tx, 125, &charge_id("pc")).await;
    app.fake().push_update(pre_checkout_update("q-again", 7010, "en", &tx, 125, "XTR"));
    let answers = app.fake().wait_calls("answerPreCheckoutQuery", 5).await;
    assert_eq!(answers[4]["ok"], json!(false));
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn the_same_successful_payment_delivered_twice_credits_once() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(7020, "Payer").await;
    let tx = invoice(&app, &t, 7020, "pack-m").await;
    let charge = charge_id("twice");
    assert!(charge.len() > 128);
    app.fake().push_update(paid_update(7020, &tx, 250, &charge));
    app.fake().push_update(paid_update(7020, &tx, 250, &charge));
    // A later update from the same chat runs after both payments (one chat is handled in order).
    say(&app, 7020, "/help", "/paysupport").await;
    wait_message(&app, 7020, "received").await;
    assert_eq!(app.balance(7020).await, 29_200);
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM ledger_entries WHERE idempotency_key = $1")
        .bind(format!("stars:{charge}"))
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    assert_eq!(n, 1);
    assert_eq!(status(&app, &t, &tx).await, "success");
    let (_, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(me["data"]["balance"], json!(292));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let credited = app.fake().calls("sendMessage").into_iter().filter(|m| m["text"].as_str().unwrap().contains("+292")).count();
    assert_eq!(credited, 1, "one credit message");
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn a_payment_that_matches_nothing_is_kept_for_the_admins() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(7030, "Payer").await;
    let tx = invoice(&app, &t, 7030, "pack-s").await;
    let charge = charge_id("orphan");
    // Wrong amount for a real transaction: not credited, kept.
    app.fake().push_update(paid_update(7030, &tx, 1, &charge));
    wait_message(&app, ADMIN_ID, "Orphan payment").await;
    wait_message(&app, 7030, "could not be matched").await;
    assert_eq!(app.balance(7030).await, 0);
    assert_eq!(status(&app, &t, &tx).await, "pending");
    let (user, stars): (i64, i64) = sqlx::query_as("SELECT user_id, stars FROM orphan_payments WHERE charge_id = $1")
        .bind(&charge)
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    assert_eq!((user, stars), (7030, 1));
    say(&app, ADMIN_ID, "/orphans", "1 ⭐ from 7030").await;
    // The admin returns the Stars.
    say(&app, ADMIN_ID, &format!("/refund {charge}"), "Orphan payment refunded").await;
    let refunds = app.fake().calls("refundStarPayment");
    assert_eq!(refunds[0]["user_id"], json!(7030));
    assert_eq!(refunds[0]["telegram_payment_charge_id"], json!(charge));
    say(&app, ADMIN_ID, "/orphans", "No orphan payments").await;
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn another_users_transaction_does_not_exist() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(7040, "Payer").await;
    let other = app.sign_in(7041, "Other").await;
    let tx = invoice(&app, &t, 7040, "pack-s").await;
    let (s, b) = app.get(&format!("/api/v1/payments/transaction-status/{tx}"), Some(&other)).await;
    assert_error(s, &b, 404, "transaction_not_found");
    let (s, b) = app.get("/api/v1/payments/transaction-status/nope", Some(&t)).await;
    assert_error(s, &b, 404, "transaction_not_found");
    let (s, b) = app.post(&format!("/api/v1/dev/pay/{tx}"), Some(&t), json!({})).await;
    assert_error(s, &b, 404, "not_found");
    app.stop().await;
}

async fn paid_user(app: &TestApp, user: i64, tag: &str) -> (String, String, String) {
    let t = app.sign_in(user, "Payer").await;
    let tx = invoice(app, &t, user, "pack-s").await;
    let charge = charge_id(tag);
    pay(app, user, &tx, 125, &charge).await;
    assert_eq!(app.balance(user).await, 14_600);
    (t, tx, charge)
}

#[tokio::test]
async fn a_refund_reverses_the_credit_and_refuses_spent_tokens_unless_forced() {
    let app = TestApp::with_bot().await;
    // Normal: the whole credit comes back.
    let (t, tx, charge) = paid_user(&app, 7050, "normal").await;
    say(&app, ADMIN_ID, &format!("/refund {charge}"), "Refunded 125 ⭐ to user 7050").await;
    assert_eq!(app.balance(7050).await, 0);
    assert_eq!(status(&app, &t, &tx).await, "refunded");
    wait_message(&app, 7050, "refunded").await;
    // Again: nothing changes, Telegram is not asked twice.
    say(&app, ADMIN_ID, &format!("/refund {charge}"), "Already refunded").await;
    assert_eq!(app.fake().calls("refundStarPayment").len(), 1);

    // Spent: refused before Telegram is asked; forced, the value comes back (balance, then the
    // skins won since): what is left is at most what the player earned free (the first-case reward).
    // (pack-s: a credit of 146 tokens, more than the cheapest case.)
    let t = app.sign_in(7051, "Payer").await;
    let tx = invoice(&app, &t, 7051, "pack-s").await;
    let charge = charge_id("spent");
    pay(&app, 7051, &tx, 125, &charge).await;
    assert!(cheap_case_price() <= 14_600);
    // (The first open also pays a first-case reward: open while the balance pays for a case.)
    for _ in 0..10 {
        if app.balance(7051).await < cheap_case_price() {
            break;
        }
        let (s, b) = app.post(open_path(), Some(&t), json!({"telegramId": 7051})).await;
        assert_eq!(s, StatusCode::OK, "{b}");
    }
    assert!(app.balance(7051).await < 14_600);
    say(&app, ADMIN_ID, &format!("/refund {charge}"), "Refund refused").await;
    assert_eq!(app.fake().calls("refundStarPayment").len(), 1);
    assert_eq!(status(&app, &t, &tx).await, "success");
    // What the player holds in paid value (balance plus what they can sell, less the bonus
    // tokens and the skins bonus tokens alone won) drops by at least the refunded credit (a
    // revoked skin counts whole), or to nothing when it held less. Bonus value is never taken.
    let free = |app: &TestApp| {
        let db = app.domain().db.clone();
        async move {
            let (bonus, skins): (i64, i64) = sqlx::query_as(
                "SELECT bonus_balance, CAST(COALESCE((SELECT SUM(i.token_price) FROM inventory_items i JOIN case_opens o ON o.id = i.open_id
                 WHERE i.user_id = u.id AND i.status IN ('received', 'error') AND i.bonus_cost = o.price), 0) AS BIGINT)
                 FROM users u WHERE u.id = 7051",
            )
            .fetch_one(&db)
            .await
            .unwrap();
            (bonus, skins)
        }
    };
    let (bonus, bonus_skins) = free(&app).await;
    let paid_before = app.balance(7051).await + app.sellable(7051).await - bonus - bonus_skins;
    say(&app, ADMIN_ID, &format!("/refund {charge} force"), "Refunded 125 ⭐ to user 7051").await;
    let (bal, sel) = (app.balance(7051).await, app.sellable(7051).await);
    assert_eq!((bal, free(&app).await), (bonus, (bonus, bonus_skins)), "the bonus balance and the bonus-won skins stay");
    assert!(bal + sel - bonus - bonus_skins <= (paid_before - 14_600).max(0), "balance {bal} + sellable {sel}, paid {paid_before} before");
    assert_eq!(status(&app, &t, &tx).await, "refunded");

    // Telegram says it was refunded already: that counts as done.
    let (t, tx, charge) = paid_user(&app, 7052, "already").await;
    app.fake().script("refundStarPayment", Script::Err(400, "Bad Request: CHARGE_ALREADY_REFUNDED".into()));
    say(&app, ADMIN_ID, &format!("/refund {charge}"), "Refunded 125 ⭐ to user 7052").await;
    assert_eq!(app.balance(7052).await, 0);
    assert_eq!(status(&app, &t, &tx).await, "refunded");

    // Telegram refusing for another reason changes nothing.
    let (t, tx, charge) = paid_user(&app, 7053, "refused").await;
    app.fake().script("refundStarPayment", Script::Err(400, "Bad Request: CHARGE_NOT_FOUND".into()));
    say(&app, ADMIN_ID, &format!("/refund {charge}"), "Telegram refused").await;
    assert_eq!(app.balance(7053).await, 14_600);
    assert_eq!(status(&app, &t, &tx).await, "success");

    say(&app, ADMIN_ID, "/refund stxnothing", "transaction_not_found").await;
    assert_eq!(app.admin_actions(&["refund"]).await, 3);
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn a_refunded_payment_message_reverses_the_credit_as_far_as_the_balance_goes() {
    let app = TestApp::with_bot().await;
    let (t, tx, charge) = paid_user(&app, 7060, "outside").await;
    app.fake().push_update(refunded_update(7060, &tx, 125, &charge));
    wait_message(&app, ADMIN_ID, "Refund outside /refund").await;
    assert_eq!(app.balance(7060).await, 0);
    assert_eq!(status(&app, &t, &tx).await, "refunded");
    // Delivered again: nothing more happens.
    app.fake().push_update(refunded_update(7060, &tx, 125, &charge));
    say(&app, 7060, "/help", "/paysupport").await;
    let notes = app.fake().calls("sendMessage").into_iter().filter(|m| m["text"].as_str().unwrap().contains("Refund outside")).count();
    assert_eq!(notes, 1);
    assert!(app.fake().calls("refundStarPayment").is_empty());
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn demo_mode_pays_an_invoice_through_the_demo_endpoint() {
    let app = TestApp::demo().await;
    let (_, d) = app.get("/api/v1/dev/init-data", None).await;
    let id = d["demoId"].as_i64().unwrap();
    let (_, auth) = app.post("/api/v1/auth", None, json!({"initData": d["initData"]})).await;
    let t = auth["token"].as_str().unwrap().to_owned();
    let (s, b) = app
        .post("/api/v1/payments/create-invoice-link", Some(&t), json!({"pack_id": "pack-m", "telegram_id": id, "init_data": d["initData"]}))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let tx = b["transaction_id"].as_str().unwrap().to_owned();
    assert_eq!(b["invoice_link"], json!(format!("https://t.me/$demo{tx}")));
    let (s, b) = app.post(&format!("/api/v1/dev/pay/{tx}"), Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["status"], "success");
    assert_eq!(status(&app, &t, &tx).await, "success");
    assert_eq!(app.balance(id).await, 500_000 + 29_200);
    let (s, b) = app.post(&format!("/api/v1/dev/pay/{tx}"), Some(&t), json!({})).await;
    assert_error(s, &b, 404, "transaction_not_found");
    // Someone else's transaction is not theirs to pay.
    let (_, d2) = app.get("/api/v1/dev/init-data", None).await;
    let (_, auth2) = app.post("/api/v1/auth", None, json!({"initData": d2["initData"]})).await;
    let tx2 = {
        let (_, b) = app
            .post(
                "/api/v1/payments/create-invoice-link",
                Some(&t),
                json!({"pack_id": "pack-s", "telegram_id": id, "init_data": d["initData"]}),
            )
            .await;
        b["transaction_id"].as_str().unwrap().to_owned()
    };
    let (s, b) = app.post(&format!("/api/v1/dev/pay/{tx2}"), auth2["token"].as_str(), json!({})).await;
    assert_error(s, &b, 404, "transaction_not_found");
    app.audit_clean().await;
    app.stop().await;
}
