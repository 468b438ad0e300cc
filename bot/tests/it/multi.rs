//! Opening several cases at once (issue 24, point 3): one debit, consecutive nonces, all or
//! nothing, the same answer replayed, the bonus part split over the skins, every drop in the feed.
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::*;

async fn open_n(app: &TestApp, token: &str, count: Value, request_id: &str) -> (StatusCode, Value) {
    app.post(open_path(), Some(token), json!({ "count": count, "requestId": request_id })).await
}

/// The ledger entries an open of this player wrote: `(amount, bonus part)`.
async fn open_debits(app: &TestApp, user: i64) -> Vec<(i64, i64)> {
    sqlx::query_as("SELECT amount, bonus_amount FROM ledger_entries WHERE user_id = $1 AND reason = 'case_open' ORDER BY id")
        .bind(user)
        .fetch_all(&app.domain().db)
        .await
        .unwrap()
}

async fn count_of(app: &TestApp, sql: &str, user: i64) -> i64 {
    let (n,): (i64,) = sqlx::query_as(sql).bind(user).fetch_one(&app.domain().db).await.unwrap();
    n
}

/// Recomputes each drawn item with the published formula (the public verifier) once the seed is
/// revealed: the same skin and the same roll.
async fn assert_each_recomputes(app: &TestApp, token: &str, items: &[Value]) {
    let (s, state) = app.post("/api/v1/fair/rotate", Some(token), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{state}");
    let revealed = &state["data"]["revealed"][0];
    assert_eq!(revealed["serverSeedHash"], items[0]["fair"]["serverSeedHash"]);
    let seed = revealed["serverSeed"].as_str().unwrap();
    for drawn in items {
        let fair = &drawn["fair"];
        let q = format!(
            "/api/v1/fair/verify?server_seed={seed}&client_seed={}&nonce={}&case_id={}",
            fair["clientSeed"].as_str().unwrap(),
            fair["nonce"],
            cheap_case()
        );
        let (s, v) = app.get(&q, None).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["data"]["item"]["id"], drawn["item"]["weaponId"], "nonce {}", fair["nonce"]);
        assert_eq!(v["data"]["roll"], fair["roll"], "nonce {}", fair["nonce"]);
    }
}

#[tokio::test]
async fn five_at_once_charge_once_and_give_five_fair_items_at_consecutive_nonces() {
    let app = TestApp::with_bot().await;
    let user = 9100;
    let price = cheap_case_price();
    let t = app.player_with(user, 6 * price / 100).await;
    let before = app.balance(user).await;

    let (s, b) = open_n(&app, &t, json!(5), "five-1").await;
    assert_eq!(s, StatusCode::OK, "{b}");

    // One debit of five prices; the first-open reward (+100) once.
    assert_eq!(open_debits(&app, user).await.iter().map(|d| d.0).collect::<Vec<_>>(), vec![-5 * price]);
    assert_eq!(app.balance(user).await, before - 5 * price + 10_000);
    assert_eq!(b["balance"].as_f64().unwrap() * 100.0, (before - 5 * price + 10_000) as f64);
    let first_case = count_of(&app, "SELECT COUNT(*) FROM ledger_entries WHERE user_id = $1 AND reason = 'first_case'", user).await;
    assert_eq!(first_case, 1);

    // Five items in draw order, the first also at the top, at consecutive nonces.
    let items = b["items"].as_array().unwrap().clone();
    assert_eq!(items.len(), 5, "{b}");
    assert_eq!(items[0]["item"], b["item"]);
    assert_eq!(items[0]["fair"], b["fair"]);
    let nonces: Vec<i64> = items.iter().map(|i| i["fair"]["nonce"].as_i64().unwrap()).collect();
    let n0 = nonces[0];
    assert_eq!(nonces, (n0..n0 + 5).collect::<Vec<_>>());
    let mut ids: Vec<i64> = items.iter().map(|i| i["item"]["id"].as_i64().unwrap()).collect();
    for i in &items {
        assert_eq!(i["item"]["status"], "received");
        assert_eq!(i["item"]["caseId"], json!(cheap_case()));
    }
    let (_, inv) = app.get("/api/v1/user/items", Some(&t)).await;
    let mut held: Vec<i64> = inv["data"].as_array().unwrap().iter().map(|i| i["id"].as_i64().unwrap()).collect();
    held.sort();
    ids.sort();
    assert_eq!(held, ids, "{inv}");
    assert_eq!(count_of(&app, "SELECT COUNT(*) FROM case_opens WHERE user_id = $1", user).await, 5);

    // The next open takes the next nonce.
    let (s, one) = open_n(&app, &t, json!(1), "one-after").await;
    assert_eq!(s, StatusCode::OK, "{one}");
    assert_eq!(one["fair"]["nonce"].as_i64().unwrap(), n0 + 5);
    assert!(one.get("items").is_none(), "a single open answers as before: {one}");

    // The same request again answers the same five and charges nothing.
    let after = app.balance(user).await;
    let (s, again) = open_n(&app, &t, json!(5), "five-1").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(again, b);
    assert_eq!(app.balance(user).await, after);
    assert_eq!(open_debits(&app, user).await.len(), 2);

    // The feed has each of the five once (the replay published nothing again).
    let fed: Vec<(i64,)> = sqlx::query_as("SELECT item_id FROM feed_events WHERE user_id = $1 ORDER BY item_id")
        .bind(user)
        .fetch_all(&app.domain().db)
        .await
        .unwrap();
    let mut expected = ids.clone();
    expected.push(one["item"]["id"].as_i64().unwrap());
    expected.sort();
    assert_eq!(fed.into_iter().map(|r| r.0).collect::<Vec<_>>(), expected);

    let mut all = items.clone();
    all.push(json!({"item": one["item"], "fair": one["fair"]}));
    assert_each_recomputes(&app, &t, &all).await;
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn an_open_of_five_with_money_for_four_draws_nothing() {
    let app = TestApp::with_bot().await;
    let user = 9110;
    let price = cheap_case_price();
    let t = app.player_with(user, 4 * price / 100).await;
    let before = app.balance(user).await;

    let (s, b) = open_n(&app, &t, json!(5), "five-short").await;
    assert_error(s, &b, 409, "insufficient_tokens");
    assert_eq!(app.balance(user).await, before);
    assert!(open_debits(&app, user).await.is_empty());
    assert_eq!(count_of(&app, "SELECT COUNT(*) FROM case_opens WHERE user_id = $1", user).await, 0);
    assert_eq!(count_of(&app, "SELECT COUNT(*) FROM inventory_items WHERE user_id = $1", user).await, 0);
    assert_eq!(count_of(&app, "SELECT COUNT(*) FROM feed_events WHERE user_id = $1", user).await, 0);

    // Four fit exactly, and the nonces start where they would have: nothing was used.
    let (s, b) = open_n(&app, &t, json!(4), "four").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let nonces: Vec<i64> = b["items"].as_array().unwrap().iter().map(|i| i["fair"]["nonce"].as_i64().unwrap()).collect();
    assert_eq!(nonces, vec![0, 1, 2, 3]);
    assert_eq!(open_debits(&app, user).await.iter().map(|d| d.0).collect::<Vec<_>>(), vec![-4 * price]);
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn counts_outside_one_to_five_are_refused_and_charge_nothing() {
    let app = TestApp::with_bot().await;
    let user = 9120;
    let t = app.player_with(user, 1000).await;
    let before = app.balance(user).await;
    for (n, bad) in [json!(0), json!(6), json!(-1), json!(2.5), json!("3"), json!(true), json!(1e10)].into_iter().enumerate() {
        let (s, b) = open_n(&app, &t, bad.clone(), &format!("bad-{n}")).await;
        assert_error(s, &b, 400, "bad_request");
    }
    assert_eq!(app.balance(user).await, before);
    assert_eq!(count_of(&app, "SELECT COUNT(*) FROM case_opens WHERE user_id = $1", user).await, 0);
    // Absent and null are one.
    let (s, b) = app.post(open_path(), Some(&t), json!({ "count": null })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert!(b.get("items").is_none());
    let (s, b) = app.post(open_path(), Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    // An integer written as 2.0 is an integer (as JSON Schema has it).
    let (s, b) = open_n(&app, &t, json!(2.0), "two-point-oh").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["items"].as_array().map(Vec::len), Some(2));
    assert_eq!(open_debits(&app, user).await.len(), 3);
    app.stop().await;
}

/// Paid tokens first, in draw order: the first skins are paid (withdrawable), the bonus part of
/// the one debit falls on the last ones, and their bonus costs add up to it exactly.
#[tokio::test]
async fn the_bonus_part_of_one_debit_is_split_exactly_over_its_skins() {
    let app = TestApp::with_bot().await;
    let user = 9130;
    let price = cheap_case_price();
    // Paid: one price and one token; bonus: four prices less nothing.
    let t = app.player_with(user, price / 100 + 1).await;
    app.grant_bonus(user, 4 * price / 100).await;

    let (s, b) = open_n(&app, &t, json!(5), "split").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let debits = open_debits(&app, user).await;
    assert_eq!(debits.len(), 1);
    let (amount, bonus) = debits[0];
    assert_eq!(amount, -5 * price);
    assert_eq!(bonus, -(4 * price - 100));
    let items = b["items"].as_array().unwrap();
    let mut costs = Vec::new();
    for i in items {
        let (c,): (i64,) = sqlx::query_as("SELECT bonus_cost FROM inventory_items WHERE id = $1")
            .bind(i["item"]["id"].as_i64().unwrap())
            .fetch_one(&app.domain().db)
            .await
            .unwrap();
        costs.push(c);
    }
    assert_eq!(costs, vec![0, price - 100, price, price, price]);
    assert_eq!(costs.iter().sum::<i64>(), -bonus);
    let withdrawable: Vec<bool> = items.iter().map(|i| i["item"]["withdrawable"].as_bool().unwrap()).collect();
    assert_eq!(withdrawable, vec![true, false, false, false, false]);

    // Only paid value leaves: a skin that carries any bonus is refused, the paid one goes.
    let trade = json!({"trade_url": "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc"});
    let id = |k: usize| items[k]["item"]["id"].as_i64().unwrap();
    let (s, r) = app.post(&format!("/api/v1/user/item/{}/request-withdrawal", id(1)), Some(&t), trade.clone()).await;
    assert_error(s, &r, 409, "bonus_item");
    let (s, r) = app.post(&format!("/api/v1/user/item/{}/request-withdrawal", id(0)), Some(&t), trade).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    // The mixed skin sells back in kind.
    let (s, r) = app.post("/api/v1/sales/sell", Some(&t), json!({"item_id": id(1)})).await;
    assert_eq!(s, StatusCode::OK, "{r}");
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn an_invited_players_first_open_of_three_pays_the_inviter_once() {
    let app = TestApp::with_bot().await;
    let inviter = app.sign_in(9140, "Inviter").await;
    let (_, me) = app.get("/api/v1/me", Some(&inviter)).await;
    let code = me["data"]["ref"].as_str().unwrap().to_owned();
    let friend = app.sign_in_with(9141, "Friend", Some(&format!("ref_{code}"))).await;
    app.grant(9141, 3 * cheap_case_price() / 100).await;
    let (s, b) = open_n(&app, &friend, json!(3), "three").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(app.balance(9140).await, 50_000);
    assert_eq!(count_of(&app, "SELECT COUNT(*) FROM ledger_entries WHERE user_id = $1 AND reason = 'first_case'", 9141).await, 1);
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn an_open_of_several_counts_as_that_many_opens_for_the_rate_limit() {
    let env = vec![("RATE_LIMITS", "on".to_string()), ("RATE_LIMIT_OPEN_USER", "6/60".to_string())];
    let app = TestApp::start(Options { bot: true, env, ..Options::default() }).await;
    let user = 9150;
    let t = app.player_with(user, 20 * cheap_case_price() / 100).await;
    let (s, b) = open_n(&app, &t, json!(5), "l-5").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let before = app.balance(user).await;
    // Five taken of six: two more are over the limit, and the refusal charges nothing.
    let (s, b) = open_n(&app, &t, json!(2), "l-2").await;
    assert_error(s, &b, 429, "rate_limited");
    assert_eq!(app.balance(user).await, before);
    app.stop().await;
}

/// A refund walks the skins won since the purchase newest first: the later skins of an open of
/// several are found through the one debit that paid for them.
#[tokio::test]
async fn a_refund_takes_back_the_last_skins_of_an_open_of_several() {
    use crate::payments::say;
    let app = TestApp::with_bot().await;
    let user = 9160;
    let Payer { token: t, charge, .. } = app.paying_player(user, 500).await;
    let count = (app.balance(user).await / cheap_case_price()).min(5);
    assert!(count >= 2, "the pack buys several cases");
    let (s, b) = open_n(&app, &t, json!(count), "refund-batch").await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let ids: Vec<i64> = b["items"].as_array().unwrap().iter().map(|i| i["item"]["id"].as_i64().unwrap()).collect();

    say(&app, ADMIN_ID, &format!("/refund {charge} force"), "Refunded").await;

    // The newest skin (the last of the batch, under no debit key of its own) is taken back first.
    let (status,): (String,) = sqlx::query_as("SELECT status FROM inventory_items WHERE id = $1")
        .bind(ids[ids.len() - 1])
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    assert_eq!(status, "revoked");
    app.audit_clean().await;
    app.stop().await;
}
