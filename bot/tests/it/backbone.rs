//! The process, sign-in, sessions, conventions and the operator basics.
use reqwest::StatusCode;
use serde_json::json;

use crate::common::*;
use crate::fake_bot_api::text_update;

#[tokio::test]
async fn health_spa_fallback_and_unknown_api_paths() {
    let app = TestApp::demo().await;
    let res = app.http.get(format!("{}/healthz", app.base)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let res = app.http.get(format!("{}/skins/anything", app.base)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.text().await.unwrap().contains("<title>FragBox"));
    let (s, b) = app.get("/api/v1/no-such-thing", None).await;
    assert_error(s, &b, 404, "not_found");
    app.stop().await;
}

#[tokio::test]
async fn sign_in_answers_a_token_and_the_profile() {
    let app = TestApp::with_bot().await;
    let init = app.init_data(5_000_000_123, "Ann", None);
    let (s, b) = app.post("/api/v1/auth", None, json!({ "initData": init })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let token = b["token"].as_str().unwrap();
    assert_eq!(b["user"]["telegramId"], json!(5_000_000_123i64));
    assert_eq!(b["user"]["balance"], json!(0));
    let (s, me) = app.get("/api/v1/me", Some(token)).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(me["status"], "success");
    assert_eq!(me["data"]["firstName"], "Ann");
    assert_eq!(me["data"]["caseOpened"], false);
    assert!(me["data"]["ref"].as_str().unwrap().len() == 10);
    // Logging out revokes the session.
    let (s, _) = app.post("/api/v1/auth/logout", Some(token), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, b) = app.get("/api/v1/me", Some(token)).await;
    assert_error(s, &b, 401, "unauthorized");
    app.stop().await;
}

#[tokio::test]
async fn bad_init_data_and_bad_tokens_are_401_in_our_shape() {
    let app = TestApp::with_bot().await;
    let good = app.init_data(42, "Eve", None);
    let tampered = good.replace("Eve", "Bob");
    let (s, b) = app.post("/api/v1/auth", None, json!({ "initData": tampered })).await;
    assert_error(s, &b, 401, "invalid_init_data");
    let (s, b) = app.post("/api/v1/auth", None, json!({ "initData": "" })).await;
    assert_error(s, &b, 401, "invalid_init_data");
    let (s, b) = app.get("/api/v1/me", None).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) = app.get("/api/v1/me", Some(&"ab".repeat(32))).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) = app.get("/api/v1/me", Some("garbage")).await;
    assert_error(s, &b, 401, "unauthorized");
    app.stop().await;
}

#[tokio::test]
async fn expired_init_data_asks_to_reopen_the_app() {
    let app = TestApp::start(Options { bot: true, env: vec![("AUTH_MAX_AGE_SECS", "60".into())], ..Options::default() }).await;
    let user = json!({"id": 77, "first_name": "Old"}).to_string();
    let old = (app.domain().now() - 3600).to_string();
    let init = webapp_api::domain::auth::sign_init_data(&[("auth_date", &old), ("user", &user)], TOKEN);
    let (s, b) = app.post("/api/v1/auth", None, json!({ "initData": init })).await;
    assert_error(s, &b, 401, "init_data_expired");
    app.stop().await;
}

#[tokio::test]
async fn malformed_bodies_get_our_error_shape() {
    let app = TestApp::demo().await;
    let url = format!("{}/api/v1/auth", app.base);
    let res = app.http.post(&url).header("content-type", "application/json").body("{not json").send().await.unwrap();
    let (s, b) = read(res).await;
    assert_error(s, &b, 400, "bad_request");
    let res = app.http.post(&url).body("{}").send().await.unwrap();
    let (s, b) = read(res).await;
    assert_error(s, &b, 415, "unsupported_media_type");
    let big = format!("{{\"initData\":\"{}\"}}", "a".repeat(200_000));
    let res = app.http.post(&url).header("content-type", "application/json").body(big).send().await.unwrap();
    let (s, b) = read(res).await;
    assert_error(s, &b, 413, "payload_too_large");
    app.stop().await;
}

#[tokio::test]
async fn demo_mode_hands_out_signed_init_data_for_fresh_or_returning_demo_users() {
    let app = TestApp::demo().await;
    let (s, b) = app.get("/api/v1/dev/init-data", None).await;
    assert_eq!(s, StatusCode::OK);
    let id = b["demoId"].as_i64().unwrap();
    let (s, auth) = app.post("/api/v1/auth", None, json!({ "initData": b["initData"] })).await;
    assert_eq!(s, StatusCode::OK, "{auth}");
    assert_eq!(auth["user"]["balance"], json!(5000));
    assert_eq!(auth["user"]["demo"], json!(true));
    let (_, again) = app.get(&format!("/api/v1/dev/init-data?demoId={id}"), None).await;
    assert_eq!(again["demoId"], json!(id));
    let (_, other) = app.get("/api/v1/dev/init-data", None).await;
    assert_ne!(other["demoId"], json!(id));
    // Signing in again does not grant again.
    let (_, auth2) = app.post("/api/v1/auth", None, json!({ "initData": again["initData"] })).await;
    assert_eq!(auth2["user"]["balance"], json!(5000));
    let (_, cfg) = app.get("/api/v1/config", None).await;
    assert_eq!(cfg["demo"], json!(true));
    assert_eq!(cfg["devGate"], json!(false));
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn the_demo_endpoint_is_404_with_a_real_token() {
    let app = TestApp::with_bot().await;
    let (s, b) = app.get("/api/v1/dev/init-data", None).await;
    assert_error(s, &b, 404, "not_found");
    let (_, cfg) = app.get("/api/v1/config", None).await;
    assert_eq!(cfg["demo"], json!(false));
    assert_eq!(cfg["botUsername"], json!("fragbox_test_bot"));
    app.stop().await;
}

#[tokio::test]
async fn the_dev_gate_checks_the_password_on_the_server() {
    let app = TestApp::start(Options { env: vec![("DEV_GATE_PASSWORD", "s3cret".into())], ..Options::default() }).await;
    let (_, cfg) = app.get("/api/v1/config", None).await;
    assert_eq!(cfg["devGate"], json!(true));
    let (s, b) = app.post("/api/v1/dev-gate", None, json!({"password": "nope"})).await;
    assert_error(s, &b, 403, "wrong_password");
    let (s, b) = app.post("/api/v1/dev-gate", None, json!({"password": "s3cret"})).await;
    assert_eq!(s, StatusCode::OK);
    assert!(b["proof"].as_str().is_some_and(|p| !p.is_empty()), "{b}");
    app.stop().await;
}

#[tokio::test]
async fn trade_urls_are_checked_on_the_server() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(1001, "Tom").await;
    let (s, b) = app.get("/api/v1/user/trade-url", Some(&t)).await;
    assert_eq!((s, b["tradeUrl"].clone()), (StatusCode::OK, json!(null)));
    for bad in [
        "https://steamcommunity.com/tradeoffer/new/?partner=0&token=abc",
        "https://steamcommunity.com/tradeoffer/new/?partner=4294967296&token=abc",
        "http://steamcommunity.com/tradeoffer/new/?partner=1&token=abc",
        "https://evil.com/tradeoffer/new/?partner=1&token=abc",
        "https://steamcommunity.com/tradeoffer/new/?partner=1&token=a%20b",
    ] {
        let (s, b) = app.put("/api/v1/user/trade-url", Some(&t), json!({"tradeUrl": bad})).await;
        assert_error(s, &b, 422, "invalid_trade_url");
    }
    let good = "https://steamcommunity.com/tradeoffer/new/?partner=4294967295&token=Ab_c-1";
    let (s, _) = app.put("/api/v1/user/trade-url", Some(&t), json!({"tradeUrl": good})).await;
    assert_eq!(s, StatusCode::OK);
    let (_, b) = app.get("/api/v1/user/trade-url", Some(&t)).await;
    assert_eq!(b["tradeUrl"], json!(good));
    let (_, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(me["data"]["trade_url"], json!(good));
    app.stop().await;
}

#[tokio::test]
async fn agreements_and_language_settings_persist() {
    let app = TestApp::demo().await;
    let t = app.sign_in(demo_id(1), "Lia").await;
    let (_, b) = app.get("/api/v1/user/check-agreements", Some(&t)).await;
    assert_eq!(b["agreed"], json!(false));
    let res = app.http.post(format!("{}/api/v1/user/agreements", app.base)).bearer_auth(&t).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let (_, b) = app.get("/api/v1/user/check-agreements", Some(&t)).await;
    assert_eq!(b["agreed"], json!(true));
    let (s, b) = app.put("/api/v1/user/settings", Some(&t), json!({"language": "de"})).await;
    assert_error(s, &b, 422, "invalid_language");
    app.put("/api/v1/user/settings", Some(&t), json!({"language": "en"})).await;
    let (_, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(me["data"]["language"], json!("en"));
    app.stop().await;
}

pub fn demo_id(n: i64) -> i64 {
    webapp_api::domain::demo::DEMO_ID_BASE + n
}

#[tokio::test]
async fn maintenance_blocks_changes_but_not_reads_or_admins() {
    let app = TestApp::with_bot().await;
    let player = app.sign_in(2002, "Pat").await;
    let admin = app.sign_in(ADMIN_ID, "Boss").await;
    webapp_api::domain::settings::set_maintenance(app.domain(), true).await.unwrap();
    let (_, st) = app.get("/api/v1/status", None).await;
    assert_eq!(st, json!({"maintenance": true}));
    let (s, b) = app.post("/api/v1/daily-reward/claim", Some(&player), json!({})).await;
    assert_error(s, &b, 503, "maintenance");
    let (s, _) = app.get("/api/v1/me", Some(&player)).await;
    assert_eq!(s, StatusCode::OK);
    let (s, b) = app.post("/api/v1/daily-reward/claim", Some(&admin), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    webapp_api::domain::settings::set_maintenance(app.domain(), false).await.unwrap();
    let (s, _) = app.post("/api/v1/daily-reward/claim", Some(&player), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn errors_speak_the_clients_language() {
    let app = TestApp::demo().await;
    let res = app.http.get(format!("{}/api/v1/me", app.base)).header("accept-language", "en").send().await.unwrap();
    let (_, b) = read(res).await;
    assert_eq!(b["error"], json!("Please sign in again"));
    let res = app.http.get(format!("{}/api/v1/me", app.base)).header("accept-language", "ru").send().await.unwrap();
    let (_, b) = read(res).await;
    assert_eq!(b["error"], json!("Нужно войти заново"));
    app.stop().await;
}

#[tokio::test]
async fn grants_are_ledger_entries_and_the_audit_catches_tampering() {
    let app = TestApp::with_bot().await;
    app.sign_in(3003, "Gus").await;
    app.grant(3003, 250).await;
    assert_eq!(app.balance(3003).await, 25_000);
    app.audit_clean().await;
    // A balance changed behind the ledger's back is a violation.
    sqlx::query("UPDATE users SET balance = balance + 1 WHERE id = 3003").execute(&app.domain().db).await.unwrap();
    let problems = webapp_api::domain::audit::run(&app.domain().db).await.unwrap();
    assert!(problems.iter().any(|p| p.contains("balance differs")), "{problems:?}");
    // The ledger refuses edits and deletes.
    assert!(sqlx::query("UPDATE ledger_entries SET amount = 1").execute(&app.domain().db).await.is_err());
    assert!(sqlx::query("DELETE FROM ledger_entries").execute(&app.domain().db).await.is_err());
    app.stop().await;
}

#[tokio::test]
async fn start_greets_registers_and_offers_the_mini_app() {
    let app = TestApp::with_bot().await;
    app.fake().push_update(text_update(4004, "Ира", "ru", "/start"));
    let sent = app.fake().wait_calls("sendMessage", 1).await;
    let msg = &sent[0];
    assert_eq!(msg["chat_id"], json!(4004));
    assert!(msg["text"].as_str().unwrap().contains("Привет, Ира"), "{msg}");
    assert_eq!(msg["reply_markup"]["inline_keyboard"][0][0]["web_app"]["url"], json!("https://app.fragbox.test/"));
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE id = 4004").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(n, 1);
    app.fake().push_update(text_update(4005, "Joe", "de", "/start"));
    let sent = app.fake().wait_calls("sendMessage", 2).await;
    assert!(sent[1]["text"].as_str().unwrap().starts_with("Hi, Joe"));
    app.stop().await;
}

#[tokio::test]
async fn start_up_sets_the_commands_the_admin_menu_and_the_mini_app_button() {
    let app = TestApp::with_bot().await;
    let calls = app.fake().wait_calls("setMyCommands", 3).await;
    let for_admin = calls.iter().find(|c| c["scope"]["type"] == json!("chat")).expect("admin-scoped commands");
    assert_eq!(for_admin["scope"]["chat_id"], json!(ADMIN_ID));
    let names: Vec<&str> = for_admin["commands"].as_array().unwrap().iter().map(|c| c["command"].as_str().unwrap()).collect();
    assert!(names.contains(&"refund") && names.contains(&"paysupport"), "{names:?}");
    let public: Vec<_> = calls.iter().filter(|c| c.get("scope").is_none_or(|s| s.is_null())).collect();
    assert!(public.iter().all(|c| !c.to_string().contains("refund")));
    let menu = app.fake().wait_calls("setChatMenuButton", 1).await;
    assert_eq!(menu[0]["menu_button"]["web_app"]["url"], json!("https://app.fragbox.test/"));
    app.stop().await;
}

#[tokio::test]
async fn failing_start_up_calls_are_logged_not_fatal() {
    use crate::fake_bot_api::{FakeBotApi, Script};
    let fake = FakeBotApi::start().await;
    fake.script_always("setMyCommands", Script::Err(400, "Bad Request: BOT_COMMANDS_TOO_MUCH".into()));
    fake.script_always("setChatMenuButton", Script::Err(500, "Internal Server Error".into()));
    let app = TestApp::start(Options { fake: Some(fake), ..Options::default() }).await;
    app.fake().wait_calls("setMyCommands", 1).await;
    let (s, _) = app.get("/api/v1/status", None).await;
    assert_eq!(s, StatusCode::OK);
    // The bot loop runs too.
    app.fake().push_update(text_update(4006, "Ann", "en", "/help"));
    app.fake().wait_calls("sendMessage", 1).await;
    app.stop().await;
}

#[tokio::test]
async fn start_deep_links_show_a_shared_skin_and_attribute_referrals_once() {
    use crate::payments::wait_message;
    let app = TestApp::with_bot().await;
    let inviter = app.sign_in(9100, "Vera").await;
    let (_, me) = app.get("/api/v1/me", Some(&inviter)).await;
    let code = me["data"]["ref"].as_str().unwrap().to_owned();
    app.grant(9100, cheap_case_price() / 100).await;
    let (_, opened) = app.post(open_path(), Some(&inviter), json!({})).await;
    let item = opened["item"]["id"].as_i64().unwrap();
    // The card names the skin in the reader's language (the catalog's name), not Steam's: the
    // reader below writes in English, so the name is the one an English client reads (the open
    // answered in the API's default, Russian, where "R8 Revolver" is "Револьвер R8").
    let one = app
        .http
        .get(format!("{}/api/v1/user/item/{item}", app.base))
        .bearer_auth(&inviter)
        .header("accept-language", "en")
        .send()
        .await
        .unwrap()
        .json::<serde_json::Value>()
        .await
        .unwrap();
    let name = one["item"]["name"].as_str().unwrap_or_else(|| panic!("the opened skin: {one}")).to_owned();
    app.share(&inviter, item).await;

    // A friend opens the shared skin's link: the public card, a button to the skin, a referral.
    app.fake().push_update(text_update(9101, "Fedor", "en", &format!("/start item_{item}_ref{code}")));
    let card = wait_message(&app, 9101, &name).await;
    assert!(card["text"].as_str().unwrap().contains("Vera"), "{card}");
    assert_eq!(
        card["reply_markup"]["inline_keyboard"][0][0]["web_app"]["url"],
        json!(format!("https://app.fragbox.test/skin/{item}?ref={code}"))
    );
    let referred = |id: i64| {
        let db = app.domain().db.clone();
        async move {
            let (by,): (Option<i64>,) =
                sqlx::query_as("SELECT referred_by FROM users WHERE id = $1").bind(id).fetch_one(&db).await.unwrap();
            by
        }
    };
    assert_eq!(referred(9101).await, Some(9100));

    // An invite link; then a malformed payload is ignored politely (greeting, no referral).
    app.fake().push_update(text_update(9102, "Gleb", "ru", &format!("/start ref_{code}")));
    wait_message(&app, 9102, "Привет, Gleb").await;
    assert_eq!(referred(9102).await, Some(9100));
    app.fake().push_update(text_update(9103, "Hana", "en", "/start ref_NOT-hex!!"));
    wait_message(&app, 9103, "Hi, Hana").await;
    assert_eq!(referred(9103).await, None);

    // An existing user is never re-attributed, and nobody refers themselves.
    let other = app.sign_in(9104, "Ivo").await;
    let (_, me) = app.get("/api/v1/me", Some(&other)).await;
    let other_code = me["data"]["ref"].as_str().unwrap().to_owned();
    app.fake().push_update(text_update(9101, "Fedor", "en", &format!("/start ref_{other_code}")));
    wait_message(&app, 9101, "Hi, Fedor").await;
    assert_eq!(referred(9101).await, Some(9100));
    app.fake().push_update(text_update(9100, "Vera", "en", &format!("/start ref_{code}")));
    wait_message(&app, 9100, "Hi, Vera").await;
    assert_eq!(referred(9100).await, None);
    app.stop().await;
}
