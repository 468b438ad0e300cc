//! Case opening, selling, withdrawing, under concurrency; the audit after each.
use reqwest::StatusCode;
use serde_json::json;

use crate::common::*;

fn case_price(app: &TestApp, case: &str) -> i64 {
    app.domain().catalog.case(case).unwrap().price.0
}

#[tokio::test]
async fn the_catalog_is_public_with_odds_and_an_etag() {
    let app = TestApp::demo().await;
    let res = app.http.get(format!("{}/api/v1/cases", app.base)).send().await.unwrap();
    let etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let (s, b) = read(res).await;
    assert_eq!(s, StatusCode::OK);
    let cases = b["data"].as_array().unwrap();
    assert!(cases.len() >= 20);
    // The list is slim (a store card and the odds): the whole of it stays under 64 KB.
    assert!(b.to_string().len() < 64 * 1024);
    for f in ["id", "name", "nameRu", "image", "tokens", "items"] {
        assert!(!cases[0][f].is_null(), "{f} missing in the case");
    }
    let item = &cases[0]["items"][0];
    for f in ["id", "rarity", "chance"] {
        assert!(!item[f].is_null(), "{f} missing in {item}");
    }
    let chances: f64 = cases[0]["items"].as_array().unwrap().iter().map(|i| i["chance"].as_f64().unwrap()).sum();
    assert!((chances - 100.0).abs() < 0.05, "{chances}");
    let res = app.http.get(format!("{}/api/v1/cases", app.base)).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    let (s, one) = app.get(&format!("/api/v1/cases/{}", cases[0]["id"].as_str().unwrap()), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(one["data"]["id"], cases[0]["id"]);
    // One case carries the full items: names in both languages, wear range, StatTrak™, prices.
    let item = &one["data"]["items"][0];
    for f in [
        "id",
        "iconUrl",
        "marketHashName",
        "name",
        "variant",
        "nameRu",
        "variantRu",
        "tokenPrice",
        "priceMin",
        "priceMax",
        "rarity",
        "wearMin",
        "wearMax",
        "statTrak",
        "weight",
        "chance",
    ] {
        assert!(!item[f].is_null(), "{f} missing in {item}");
    }
    let (s, b) = app.get("/api/v1/cases/nope", None).await;
    assert_error(s, &b, 404, "case_not_found");
    app.stop().await;
}

#[tokio::test]
async fn an_open_debits_draws_fairly_and_can_be_recomputed() {
    let app = TestApp::with_bot().await;
    let t = app.player_with(10, 1000).await;
    let (s, b) = app.open(&t, cheap_case(), Some("req-1")).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let price = case_price(&app, cheap_case());
    // First open also pays the +100 first-case reward.
    assert_eq!(app.balance(10).await, 100_000 - price + 10_000);
    assert_eq!(b["item"]["status"], "received");
    let weapon = b["item"]["weaponId"].as_str().unwrap().to_owned();
    let fair = b["fair"].clone();
    // Reveal the seed by rotating, then recompute the draw through the public verifier.
    let (_, state) = app.post("/api/v1/fair/rotate", Some(&t), json!({})).await;
    let revealed = &state["data"]["revealed"][0];
    assert_eq!(revealed["serverSeedHash"], fair["serverSeedHash"]);
    let seed = revealed["serverSeed"].as_str().unwrap();
    let q = format!(
        "/api/v1/fair/verify?server_seed={seed}&client_seed={}&nonce={}&case_id={}",
        fair["clientSeed"].as_str().unwrap(),
        fair["nonce"],
        cheap_case()
    );
    let (s, v) = app.get(&q, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["data"]["item"]["id"], json!(weapon));
    assert_eq!(v["data"]["roll"], fair["roll"]);
    let (_, opens) = app.get("/api/v1/fair/opens", Some(&t)).await;
    assert_eq!(opens["data"][0]["serverSeed"], json!(seed));
    assert!(opens["data"][0]["weights"].as_array().unwrap().len() > 1);
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn a_repeated_request_id_returns_the_first_result_and_charges_once() {
    let app = TestApp::with_bot().await;
    let t = app.player_with(11, 1000).await;
    let (_, first) = app.open(&t, cheap_case(), Some("same-id")).await;
    let after_first = app.balance(11).await;
    let (s, second) = app.open(&t, cheap_case(), Some("same-id")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(first, second);
    assert_eq!(app.balance(11).await, after_first);
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM case_opens WHERE user_id = 11").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(n, 1);
    app.stop().await;
}

#[tokio::test]
async fn opening_for_someone_else_or_without_money_is_refused() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(12, "Cy").await;
    let (s, b) = app.post(open_path(), Some(&t), json!({"telegramId": 13})).await;
    assert_error(s, &b, 403, "forbidden");
    let (s, b) = app.open(&t, cheap_case(), None).await;
    assert_error(s, &b, 409, "insufficient_tokens");
    let (s, b) = app.open(&t, "nope", None).await;
    assert_error(s, &b, 404, "case_not_found");
    assert_eq!(app.balance(12).await, 0);
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn fifty_concurrent_opens_with_money_for_ten_give_ten_items() {
    let app = TestApp::with_bot().await;
    let price = case_price(&app, cheap_case());
    // The first open (and its first-case bonus) happens before the race.
    let t = app.player_with(20, price / 100).await;
    let (s, _) = app.open(&t, cheap_case(), None).await;
    assert_eq!(s, StatusCode::OK);
    let bal = app.balance(20).await;
    // Top up to exactly ten more opens.
    let top_up = 10 * price - bal;
    if top_up != 0 {
        fragbox::cli::grant(app.domain(), 20, webapp_api::domain::Tokens(top_up), "race", true).await.unwrap();
    }
    let mut handles = Vec::new();
    for i in 0..50 {
        let http = app.http.clone();
        let url = format!("{}{}", app.base, open_path());
        let t = t.clone();
        handles.push(tokio::spawn(async move {
            let res = http.post(url).bearer_auth(t).json(&json!({"requestId": format!("race-{i}")})).send().await.unwrap();
            read(res).await
        }));
    }
    let mut ok = 0;
    let mut refused = 0;
    for h in handles {
        let (s, b) = h.await.unwrap();
        match s.as_u16() {
            200 => ok += 1,
            409 => {
                assert_eq!(b["code"], "insufficient_tokens");
                refused += 1
            }
            other => panic!("unexpected {other}: {b}"),
        }
    }
    assert_eq!((ok, refused), (10, 40));
    assert_eq!(app.balance(20).await, 0);
    let (items,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM inventory_items WHERE user_id = 20").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(items, 11);
    app.audit_clean().await;
    app.stop().await;
}

async fn one_item(app: &TestApp, user: i64, name: &str) -> (String, i64) {
    let t = app.sign_in(user, name).await;
    app.grant(user, 1000).await;
    let (_, b) = app.open(&t, cheap_case(), None).await;
    (t, b["item"]["id"].as_i64().unwrap())
}

#[tokio::test]
async fn a_double_sell_race_has_one_winner() {
    let app = TestApp::with_bot().await;
    let (t, item) = one_item(&app, 30, "Sel").await;
    let before = app.balance(30).await;
    let mut handles = Vec::new();
    for _ in 0..8 {
        let http = app.http.clone();
        let url = format!("{}/api/v1/sales/sell", app.base);
        let t = t.clone();
        handles.push(tokio::spawn(async move {
            read(http.post(url).bearer_auth(t).json(&json!({"item_id": item})).send().await.unwrap()).await
        }));
    }
    let mut wins = 0;
    for h in handles {
        let (s, b) = h.await.unwrap();
        if s == StatusCode::OK {
            wins += 1;
        } else {
            assert_error(s, &b, 409, "item_not_available");
        }
    }
    assert_eq!(wins, 1);
    let price: (i64,) =
        sqlx::query_as("SELECT token_price FROM inventory_items WHERE id = $1").bind(item).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(app.balance(30).await, before + price.0);
    let (_, items) = app.get("/api/v1/user/items", Some(&t)).await;
    assert!(items["data"].as_array().unwrap().iter().all(|i| i["id"] != json!(item)));
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn sell_versus_withdraw_leaves_exactly_one_winner() {
    let app = TestApp::with_bot().await;
    let (t, item) = one_item(&app, 31, "Duo").await;
    let url = "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc";
    let sell = {
        let (http, base, t) = (app.http.clone(), app.base.clone(), t.clone());
        tokio::spawn(async move {
            read(http.post(format!("{base}/api/v1/sales/sell")).bearer_auth(t).json(&json!({"item_id": item})).send().await.unwrap()).await
        })
    };
    let withdraw = {
        let (http, base, t) = (app.http.clone(), app.base.clone(), t.clone());
        tokio::spawn(async move {
            read(
                http.post(format!("{base}/api/v1/user/item/{item}/request-withdrawal"))
                    .bearer_auth(t)
                    .json(&json!({"trade_url": url}))
                    .send()
                    .await
                    .unwrap(),
            )
            .await
        })
    };
    let (s1, _) = sell.await.unwrap();
    let (s2, _) = withdraw.await.unwrap();
    assert_eq!([s1, s2].iter().filter(|s| **s == StatusCode::OK).count(), 1, "{s1} {s2}");
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn another_users_item_is_untouchable() {
    let app = TestApp::with_bot().await;
    let (own, item) = one_item(&app, 40, "Own").await;
    let thief = app.sign_in(41, "Thief").await;
    let (s, b) = app.get(&format!("/api/v1/user/item/{item}"), Some(&thief)).await;
    assert_error(s, &b, 404, "item_not_found");
    let (s, b) = app.post("/api/v1/sales/sell", Some(&thief), json!({"item_id": item})).await;
    assert_error(s, &b, 404, "item_not_found");
    let url = "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc";
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&thief), json!({"trade_url": url})).await;
    assert_error(s, &b, 404, "item_not_found");
    // The public card shows the skin and the owner's first name only, to a link with the owner's code.
    let (_, me) = app.get("/api/v1/me", Some(&own)).await;
    let code = me["data"]["ref"].as_str().unwrap().to_owned();
    let (s, b) = app.get(&format!("/api/v1/items/{item}/public?ref={code}"), None).await;
    assert_error(s, &b, 404, "item_not_found");
    app.share(&own, item).await;
    let (s, card) = app.get(&format!("/api/v1/items/{item}/public?ref={code}"), None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(card["item"]["owner"], json!("Own"));
    assert!(card["item"].get("status").is_none());
    app.stop().await;
}

#[tokio::test]
async fn a_withdrawal_locks_the_item_until_an_operator_resolves_it_and_the_player_is_told() {
    let app = TestApp::with_bot().await;
    let (t, item) = one_item(&app, 50, "Wes").await;
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": "nope"})).await;
    assert_error(s, &b, 422, "invalid_trade_url");
    let url = "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc";
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": url})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["item"]["status"], "pending");
    let wid = b["withdrawalId"].as_i64().unwrap();
    let (s, b) = app.post("/api/v1/sales/sell", Some(&t), json!({"item_id": item})).await;
    assert_error(s, &b, 409, "item_not_available");
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": url})).await;
    assert_error(s, &b, 409, "item_not_available");
    app.audit_clean().await;
    use webapp_api::domain::withdrawals::{resolve, Resolution};
    resolve(app.domain(), wid, Resolution::Failed { code: "inventory_private".into(), note: Some("Inventory is private".into()) }, 0)
        .await
        .unwrap();
    let (_, b) = app.get(&format!("/api/v1/user/item/{item}"), Some(&t)).await;
    assert_eq!(b["item"]["status"], "error");
    assert_eq!(b["item"]["statusReason"], "Inventory is private");
    // The outbox reaches the player through the bot.
    let sent = app.fake().wait_calls("sendMessage", 1).await;
    assert!(sent.iter().any(|m| m["chat_id"] == json!(50) && m["text"].as_str().unwrap().contains("Inventory is private")));
    // Available again: withdraw again, then it is sent for good.
    let (_, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": url})).await;
    resolve(app.domain(), b["withdrawalId"].as_i64().unwrap(), Resolution::Sent, 0).await.unwrap();
    let (_, b) = app.get("/api/v1/user/items", Some(&t)).await;
    assert_eq!(b["data"][0]["status"], "sent");
    let (s, b) = app.post("/api/v1/sales/sell", Some(&t), json!({"item_id": item})).await;
    assert_error(s, &b, 409, "item_not_available");
    app.audit_clean().await;
    app.stop().await;
}
