//! A refund takes back paid value (issue #30): the paid part of the balance first, then the
//! skins the purchase's paid tokens paid for, then a debt. Bonus tokens and the skins they won
//! never settle a refund, and a refund without `force` waits while a skin of the purchase is on
//! its way out through the market.
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::*;
use crate::delivery::{market_env, wait_state};
use crate::fake_market::{BuyScript, FakeMarket};
use crate::payments::{charge_id, invoice, paid_update, refunded_update, say, wait_message};

const TRADE_URL: &str = "https://steamcommunity.com/tradeoffer/new/?partner=123456&token=abc_D-1";
/// The operator's case `catalog_with_one_skin_case` adds, and its price in hundredths.
const CASE: &str = "one-skin";
const PRICE: i64 = 50_000;

/// A copy of the committed catalog plus an operator's case (`one-skin`, 500 tokens) that drops
/// the cheapest mil-spec skin: every skin it drops is worth far less than it costs, so what a
/// refund finds in skins and what it leaves as a debt follow from the skins' prices whatever the
/// draw. Start the app with `("CATALOG_DIR", dir.0.display().to_string())`; keep `dir` alive.
fn catalog_with_one_skin_case() -> TempDir {
    let dir = TempDir::new();
    for f in ["items.json", "cases.json", "prices.json", "packages.json"] {
        std::fs::copy(repo_root().join("data/catalog").join(f), dir.0.join(f)).unwrap();
    }
    let skin = repo_catalog().items.iter().filter(|i| i.rarity == "milspec").min_by_key(|i| i.price_range().1).unwrap();
    assert!((skin.price_range().1).0 * 4 < PRICE, "the cheapest mil-spec skin is worth far less than the case");
    let custom = json!({"cases": [{
        "id": CASE, "name": {"en": "One Skin", "ru": "Один скин"},
        "image": "/catalog/images/cases/covert-ops.svg", "price": PRICE / 100,
        "items": [{"item": skin.id, "weight": 1}]
    }]});
    std::fs::write(dir.0.join("custom-cases.json"), custom.to_string()).unwrap();
    dir
}

async fn shop(extra: Vec<(&'static str, String)>) -> (TestApp, TempDir) {
    let catalog = catalog_with_one_skin_case();
    let mut env = vec![("CATALOG_DIR", catalog.0.display().to_string())];
    env.extend(extra);
    (TestApp::start(Options { bot: true, env, ..Options::default() }).await, catalog)
}

async fn withdraw(app: &TestApp, t: &str, item: i64) -> (StatusCode, Value) {
    app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(t), json!({"trade_url": TRADE_URL})).await
}

/// Pays `tx` through the bot and waits until it is credited (a player's second purchase sends
/// a second "received" message, so the message alone does not say which one arrived).
async fn pay(app: &TestApp, user: i64, tx: &str, charge: &str) {
    app.fake().push_update(paid_update(user, tx, 1250, charge));
    let started = Instant::now();
    loop {
        let (status,): (String,) =
            sqlx::query_as("SELECT status FROM payments WHERE id = $1").bind(tx).fetch_one(&app.domain().db).await.unwrap();
        if status == "success" {
            return;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "payment {tx} was never credited");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The paid and the bonus part of the player's balance, in hundredths.
async fn paid_and_bonus(app: &TestApp, user: i64) -> (i64, i64) {
    sqlx::query_as("SELECT balance - bonus_balance, bonus_balance FROM users WHERE id = $1")
        .bind(user)
        .fetch_one(&app.domain().db)
        .await
        .unwrap()
}

async fn debt(app: &TestApp, user: i64) -> i64 {
    let (d,): (i64,) = sqlx::query_as("SELECT debt FROM users WHERE id = $1").bind(user).fetch_one(&app.domain().db).await.unwrap();
    d
}

async fn status_of(app: &TestApp, item: i64) -> String {
    let (s,): (String,) =
        sqlx::query_as("SELECT status FROM inventory_items WHERE id = $1").bind(item).fetch_one(&app.domain().db).await.unwrap();
    s
}

/// A player with paid and bonus tokens: skins won with bonus tokens before and after the
/// purchase, skins won with its paid tokens (one waiting in a withdrawal, one won half with bonus).
#[tokio::test]
async fn a_refund_takes_the_paid_balance_then_the_purchases_skins_and_never_bonus() {
    let (app, _catalog) = shop(vec![]).await;
    let user = 30_001;
    let t = app.sign_in(user, "Mixed").await;
    // A skin won with bonus tokens before the purchase (the first open also pays the first-case
    // reward: 100 bonus).
    app.grant_bonus(user, PRICE / 100).await;
    let (bonus_before, _, _) = app.open_skin(CASE, &t).await;
    let tx = invoice(&app, &t, user, "pack-xl").await;
    let charge = charge_id("mixed");
    pay(&app, user, &tx, &charge).await;
    assert_eq!(paid_and_bonus(&app, user).await, (146_000, 10_000));
    // The purchase's 1 460 paid tokens win three skins: two whole, and one with its last 460 and
    // 40 bonus. The second waits in a withdrawal nothing has bought yet.
    let (p1, _, v1) = app.open_skin(CASE, &t).await;
    let (p2, _, v2) = app.open_skin(CASE, &t).await;
    let (s, b) = withdraw(&app, &t, p2).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let wid = b["withdrawalId"].as_i64().unwrap();
    app.grant_bonus(user, 40).await;
    let (p3, _, v3) = app.open_skin(CASE, &t).await;
    assert_eq!(paid_and_bonus(&app, user).await, (0, 10_000));
    // Then a skin won with bonus tokens alone: the newest of all.
    app.grant_bonus(user, 400).await;
    let (bonus_after, _, _) = app.open_skin(CASE, &t).await;
    // At the refund the balance holds 200 paid tokens (compensation) and 300 bonus.
    app.grant_bonus(user, 300).await;
    app.grant(user, 200).await;
    assert_eq!(paid_and_bonus(&app, user).await, (20_000, 30_000));

    let answer = say(&app, ADMIN_ID, &format!("/refund {charge} force"), "Refunded 1250 ⭐").await;

    // The paid balance is taken, the bonus balance is not.
    assert!(answer["text"].as_str().unwrap().contains("200 of 1460 tokens taken back"), "{answer}");
    assert_eq!(paid_and_bonus(&app, user).await, (0, 30_000));
    // The skins the purchase's tokens paid for are taken back, the one in a withdrawal too (the
    // withdrawal is cancelled and the player told); the skins bonus tokens won stay, the newest too.
    for item in [p1, p2, p3] {
        assert_eq!(status_of(&app, item).await, "revoked", "skin {item}");
    }
    for item in [bonus_before, bonus_after] {
        assert_eq!(status_of(&app, item).await, "received", "skin {item}");
    }
    let (w_status, w_code): (String, Option<String>) =
        sqlx::query_as("SELECT status, reason_code FROM withdrawals WHERE id = $1").bind(wid).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!((w_status.as_str(), w_code.as_deref()), ("error", Some("refund")));
    wait_message(&app, user, "was cancelled").await;
    // What the skins did not cover (each counted at its price) is owed.
    let skins = v1 + v2 + v3;
    assert!(skins < 126_000);
    assert_eq!(debt(&app, user).await, 126_000 - skins);
    let (taken, revoked, owed): (i64, i64, i64) = sqlx::query_as(
        "SELECT s.taken, s.revoked, s.debt FROM refund_settlements s JOIN payments p ON p.id = s.payment_id WHERE p.id = $1",
    )
    .bind(&tx)
    .fetch_one(&app.domain().db)
    .await
    .unwrap();
    assert_eq!((taken, revoked, owed), (20_000, skins, 126_000 - skins));
    app.audit_clean().await;
    app.stop().await;
}

/// `/refund <charge>` without `force` is refused naming `name` and its market `state`; nothing is
/// held and Telegram is not asked.
async fn refused_while(app: &TestApp, user: i64, charge: &str, name: &str, state: &str) {
    let refused = say(app, ADMIN_ID, &format!("/refund {charge}"), "Refund refused").await;
    let text = refused["text"].as_str().unwrap();
    assert!(text.contains(&format!("{name} ({state})")) && text.contains("force"), "{state}: {text}");
    assert!(app.fake().calls("refundStarPayment").is_empty());
    assert_eq!(paid_and_bonus(app, user).await, (146_000, 10_000), "a refused refund holds nothing");
}

/// Without `force` a refund is refused, naming the skin and where it is, while a skin the
/// purchase's tokens won is being bought, offered or delivered and settling — even when the paid
/// balance could hold the whole purchase. Nothing is held and Telegram is not asked.
#[tokio::test]
async fn a_refund_without_force_is_refused_while_a_skin_of_the_purchase_is_in_a_market_purchase() {
    let fake = FakeMarket::start().await;
    let mut env = market_env(&fake);
    // The market answers the purchase late, so it stays `buying` for a few seconds.
    env.extend([("MARKET_TIMEOUT_SECS", "6".to_string()), ("MARKET_LEASE_SECS", "30".to_string())]);
    let (app, _catalog) = shop(env).await;
    let user = 30_002;
    let Payer { token: t, tx, charge } = app.paying_player(user, 1250).await;
    let (item, name, price) = app.open_skin(CASE, &t).await;
    // Compensation after the purchase: the paid balance holds the purchase's 1 460 tokens again.
    app.grant(user, PRICE / 100).await;
    assert_eq!(paid_and_bonus(&app, user).await, (146_000, 10_000));
    fake.offer(&name, price / 10);
    fake.script_buy(BuyScript::Slow(Duration::from_secs(30)));
    let (s, b) = withdraw(&app, &t, item).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let wid = b["withdrawalId"].as_i64().unwrap();

    wait_state(&app, wid, "buying").await;
    refused_while(&app, user, &charge, &name, "buying").await;
    let cid = wait_state(&app, wid, "bought").await.custom_id.unwrap();
    refused_while(&app, user, &charge, &name, "bought").await;
    fake.send_offer(&cid, "6500000301");
    wait_state(&app, wid, "offer_sent").await;
    refused_while(&app, user, &charge, &name, "offer_sent").await;
    fake.deliver(&cid);
    wait_state(&app, wid, "settling").await;
    refused_while(&app, user, &charge, &name, "settling").await;

    let (status,): (String,) =
        sqlx::query_as("SELECT status FROM payments WHERE id = $1").bind(&tx).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(status, "success");
    assert_eq!(app.admin_actions(&["refund"]).await, 0);
    app.audit_clean().await;
    app.stop().await;
}

/// A forced `/refund` and a `refunded_payment` alike, with a skin of the purchase already sent:
/// the paid balance is taken, the skin still here is revoked, what left is owed, the bonus stays,
/// and no skin the refunded Stars won can still be withdrawn.
#[tokio::test]
async fn a_forced_refund_and_a_refunded_payment_owe_what_left_and_leave_no_skin_of_the_purchase() {
    let (app, _catalog) = shop(vec![]).await;
    for (user, forced) in [(30_003, true), (30_004, false)] {
        let Payer { token: t, tx, charge } = app.paying_player(user, 1250).await;
        let (sent, sent_name, _) = app.open_skin(CASE, &t).await;
        let (kept, _, kept_price) = app.open_skin(CASE, &t).await;
        let (s, b) = withdraw(&app, &t, sent).await;
        assert_eq!(s, StatusCode::OK, "{b}");
        let wid = b["withdrawalId"].as_i64().unwrap();
        say(&app, ADMIN_ID, &format!("/sent {wid}"), &format!("#{wid}")).await;
        // 460 paid tokens left of the purchase, and the first-case reward (100 bonus).
        assert_eq!(paid_and_bonus(&app, user).await, (46_000, 10_000));

        if forced {
            let refused = say(&app, ADMIN_ID, &format!("/refund {charge}"), "Refund refused").await;
            assert!(refused["text"].as_str().unwrap().contains(&format!("{sent_name} (sent)")), "{refused}");
            say(&app, ADMIN_ID, &format!("/refund {charge} force"), &format!("Refunded 1250 ⭐ to user {user}")).await;
        } else {
            app.fake().push_update(refunded_update(user, &tx, 1250, &charge));
            wait_message(&app, ADMIN_ID, "Refund outside /refund").await;
        }

        let owed = 2 * PRICE - kept_price;
        wait_message(&app, user, &format!("{} tokens are still owed", webapp_api::domain::Tokens(owed))).await;
        assert_eq!(paid_and_bonus(&app, user).await, (0, 10_000), "user {user}: the bonus stays");
        assert_eq!(debt(&app, user).await, owed, "user {user}");
        assert_eq!((status_of(&app, sent).await.as_str(), status_of(&app, kept).await.as_str()), ("sent", "revoked"));
        // Nothing won with the refunded Stars is left to withdraw.
        let (_, list) = app.get("/api/v1/user/items", Some(&t)).await;
        assert!(list["data"].as_array().unwrap().iter().all(|i| i["id"] != json!(kept) && i["status"] != json!("received")), "{list}");
        let (s, b) = withdraw(&app, &t, kept).await;
        assert_error(s, &b, 409, "item_not_available");
    }
    app.audit_clean().await;
    app.stop().await;
}

/// Two purchases, and skins won with the first's tokens; the first refund finds the second
/// purchase's tokens in the paid balance and takes them. The second refund then finds those
/// skins: with the first purchase refunded, its tokens paid for nothing.
#[tokio::test]
async fn a_refund_that_took_another_purchases_tokens_leaves_its_skins_to_that_purchase() {
    let (app, _catalog) = shop(vec![]).await;
    let user = 30_005;
    let t = app.sign_in(user, "Twice").await;
    let (first, second) = (charge_id("first"), charge_id("second"));
    let tx = invoice(&app, &t, user, "pack-xl").await;
    pay(&app, user, &tx, &first).await;
    let tx = invoice(&app, &t, user, "pack-xl").await;
    pay(&app, user, &tx, &second).await;
    let (x1, _, v1) = app.open_skin(CASE, &t).await;
    let (x2, _, v2) = app.open_skin(CASE, &t).await;
    assert_eq!(paid_and_bonus(&app, user).await, (192_000, 10_000));

    say(&app, ADMIN_ID, &format!("/refund {first} force"), "Refunded 1250").await;
    assert_eq!(paid_and_bonus(&app, user).await, (46_000, 10_000));
    assert_eq!((status_of(&app, x1).await.as_str(), status_of(&app, x2).await.as_str()), ("received", "received"));

    say(&app, ADMIN_ID, &format!("/refund {second} force"), "Refunded 1250").await;
    assert_eq!(paid_and_bonus(&app, user).await, (0, 10_000));
    assert_eq!((status_of(&app, x1).await.as_str(), status_of(&app, x2).await.as_str()), ("revoked", "revoked"));
    assert_eq!(debt(&app, user).await, 2 * PRICE - v1 - v2);
    app.audit_clean().await;
    app.stop().await;
}

/// A refund tells the player which skins it took back in the player's language (the catalog's
/// names), not by Steam's English names: the notice of the cancelled withdrawal too. The admin's
/// answer names them in the admin's language.
#[tokio::test]
async fn a_refund_names_the_skins_it_took_back_in_the_players_language() {
    let (app, _catalog) = shop(vec![]).await;
    let user = 30_010;
    let t = app.sign_in(user, "Ivan").await;
    let (s, b) = app.put("/api/v1/user/settings", Some(&t), json!({"language": "ru"})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let skin = repo_catalog().items.iter().filter(|i| i.rarity == "milspec").min_by_key(|i| i.price_range().1).unwrap();
    let (ru, en) = (format!("{} | {}", skin.weapon_ru, skin.finish_ru), format!("{} | {}", skin.weapon, skin.finish));
    assert_ne!(ru, en, "the one-skin case's skin reads differently in Russian");

    let tx = invoice(&app, &t, user, "pack-xl").await;
    let charge = charge_id("russian");
    pay(&app, user, &tx, &charge).await;
    let (kept, steam, _) = app.open_skin(CASE, &t).await;
    let (leaving, _, _) = app.open_skin(CASE, &t).await;
    let (s, b) = withdraw(&app, &t, leaving).await;
    assert_eq!(s, StatusCode::OK, "{b}");

    let answer = say(&app, ADMIN_ID, &format!("/refund {charge} force"), "Refunded 1250 ⭐").await;
    assert!(answer["text"].as_str().unwrap().contains(&format!("{en}, {en}")), "{answer}");
    for item in [kept, leaving] {
        assert_eq!(status_of(&app, item).await, "revoked", "skin {item}");
    }
    let cancelled = wait_message(&app, user, "отменён").await;
    let refunded = wait_message(&app, user, "изъяты скины").await;
    for note in [&cancelled, &refunded] {
        let text = note["text"].as_str().unwrap();
        assert!(text.contains(&ru) && !text.contains(&steam) && !text.contains(&en), "{text}");
    }
    app.stop().await;
}
