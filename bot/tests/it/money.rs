//! Money integrity: the five ways unpaid tokens left FragBox as skins, each tried end to end.
use std::process::{Command, Stdio};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::*;
use crate::fake_bot_api::text_update;
use crate::payments::{charge_id, invoice, pay, refunded_update, say, wait_message};

const TRADE_URL: &str = "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc";

fn fragbox_cli(db_url: &str, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fragbox"))
        .args(args)
        .env("DATABASE_URL", db_url)
        .env("CATALOG_DIR", repo_root().join("data/catalog"))
        .env_remove("TELEGRAM_BOT_TOKEN")
        .env_remove("BIND_ADDR")
        .output()
        .expect("run fragbox");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// `fragbox audit` (the real binary) finds nothing wrong.
fn cli_audit_clean(app: &TestApp) {
    let (code, out) = fragbox_cli(&app.db_url(), &["audit"]);
    assert_eq!(code, 0, "fragbox audit: {out}");
    assert!(out.contains("audit clean"), "{out}");
}

async fn me(app: &TestApp, t: &str) -> Value {
    let (s, b) = app.get("/api/v1/me", Some(t)).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b["data"].clone()
}

/// Polls `cond` until it holds (generous: the machine is busy).
async fn wait_until<F, Fut>(cond: F)
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    for _ in 0..400 {
        if cond().await {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("condition never held");
}

async fn ledger_rows(app: &TestApp) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM ledger_entries").fetch_one(&app.domain().db).await.unwrap();
    n
}

/// Attack 1: buy pack-xl, spend it on a 1 000-token case (an operator's custom case), then have the payment refunded.
/// Before: the balance went to zero and the skin stayed (sellable at full price).
#[tokio::test]
async fn a_refund_after_spending_takes_back_the_skins_won_with_the_tokens() {
    let catalog = catalog_with_dear_case();
    let app =
        TestApp::start(Options { bot: true, env: vec![("CATALOG_DIR", catalog.0.display().to_string())], ..Options::default() }).await;
    let user = 9101;
    let t = app.sign_in(user, "Refunder").await;
    let before = app.balance(user).await + app.sellable(user).await;
    let tx = invoice(&app, &t, user, "pack-xl").await;
    let charge = charge_id("clawback");
    pay(&app, user, &tx, 1250, &charge).await;
    assert_eq!(app.balance(user).await, 146_000);
    let opened = app.open_ok(&t, DEAR_CASE, None).await;
    let item = opened["item"]["id"].as_i64().unwrap();
    // What the player earned without paying: the first-case reward (100 tokens).
    let earned_free = 10_000;

    app.fake().push_update(refunded_update(user, &tx, 1250, &charge));
    let note = wait_message(&app, user, "taken back").await;
    assert!(note["text"].as_str().unwrap().contains("skins won since were taken back"), "{note}");
    wait_message(&app, ADMIN_ID, "Refund outside /refund").await;

    // Value check: nothing bought with the refunded Stars is left to sell or spend.
    let after = app.balance(user).await + app.sellable(user).await;
    assert!(after <= before + earned_free, "after {after} > before {before} + earned {earned_free}");
    // The skin is revoked: gone from every list and every action.
    let (_, list) = app.get("/api/v1/user/items", Some(&t)).await;
    assert!(list["data"].as_array().unwrap().iter().all(|i| i["id"] != json!(item)), "{list}");
    let (s, b) = app.get(&format!("/api/v1/user/item/{item}"), Some(&t)).await;
    assert_error(s, &b, 404, "item_not_found");
    let (_, refs) = app.get("/api/v1/user/referrals", Some(&t)).await;
    let code = refs["data"]["referralCode"].as_str().unwrap().to_owned();
    let (s, b) = app.get(&format!("/api/v1/items/{item}/public?ref={code}"), None).await;
    assert_error(s, &b, 404, "item_not_found");
    let (s, b) = app.post("/api/v1/sales/sell", Some(&t), json!({"item_id": item})).await;
    assert_error(s, &b, 409, "item_not_available");
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": TRADE_URL})).await;
    assert_error(s, &b, 409, "item_not_available");
    let (status,): (String,) =
        sqlx::query_as("SELECT status FROM inventory_items WHERE id = $1").bind(item).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(status, "revoked");

    // The same refund delivered again changes nothing.
    let rows = ledger_rows(&app).await;
    let balance = app.balance(user).await;
    app.fake().push_update(refunded_update(user, &tx, 1250, &charge));
    say(&app, user, "/help", "/paysupport").await;
    assert_eq!((ledger_rows(&app).await, app.balance(user).await), (rows, balance));
    app.audit_clean().await;
    cli_audit_clean(&app);
    app.stop().await;
}

/// The forced `/refund` takes the value back the same way; what cannot be found becomes a debt
/// that every later credit repays first, and that locks withdrawals until repaid.
#[tokio::test]
async fn a_forced_refund_records_a_debt_that_later_credits_repay_first() {
    let catalog = catalog_with_dear_case();
    let app =
        TestApp::start(Options { bot: true, env: vec![("CATALOG_DIR", catalog.0.display().to_string())], ..Options::default() }).await;
    let user = 9102;
    let Payer { token: t, charge, .. } = app.paying_player(user, 1250).await;
    let opened = app.open_ok(&t, DEAR_CASE, None).await;
    let item = opened["item"]["id"].as_i64().unwrap();
    // The skin already left (sent to Steam): a refund cannot take it, so it must leave a debt,
    // and refunding without `force` is refused naming it.
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": TRADE_URL})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let wid = b["withdrawalId"].as_i64().unwrap();
    say(&app, ADMIN_ID, &format!("/sent {wid}"), &format!("#{wid}")).await;
    assert_eq!(app.balance(user).await, 56_000);

    let refused = say(&app, ADMIN_ID, &format!("/refund {charge}"), "Refund refused").await;
    let name = opened["item"]["marketHashName"].as_str().unwrap();
    assert!(refused["text"].as_str().unwrap().contains(name), "{refused}");
    assert_eq!(app.balance(user).await, 56_000, "a refused refund holds nothing");
    // The paid balance (460 of pack-xl's 1 460) is taken; the first-case reward (100 bonus) is not:
    // bonus tokens never pay a refund, so the 1 000 the sent skin cost is the debt.
    let answer = say(&app, ADMIN_ID, &format!("/refund {charge} force"), "Refunded 1250 ⭐ to user 9102").await;
    assert!(answer["text"].as_str().unwrap().contains("Debt recorded: 1000"), "{answer}");
    wait_message(&app, user, "1000 tokens are still owed").await;
    assert_eq!(app.balance(user).await, 10_000);
    let profile = me(&app, &t).await;
    assert_eq!((profile["debt"].clone(), profile["withdrawalsUnlocked"].clone()), (json!(1000), json!(false)), "{profile}");
    assert_eq!(profile["bonusBalance"], json!(100), "{profile}");
    let card = say(&app, ADMIN_ID, &format!("/user {user}"), "Debt: 1000").await;
    assert!(card["text"].as_str().unwrap().contains("Open debt"), "{card}");

    // Every credit repays the debt first: a grant, a daily reward, a sale.
    say(&app, ADMIN_ID, &format!("/grant {user} 300 goodwill"), "balance 100").await;
    assert_eq!(me(&app, &t).await["debt"], json!(700));
    let (s, b) = app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let debt_after_daily = me(&app, &t).await["debt"].as_f64().unwrap();
    assert!(debt_after_daily < 700.0, "{debt_after_daily}");
    assert_eq!(app.balance(user).await, 10_000);
    let price = 1000.0;
    say(&app, ADMIN_ID, &format!("/grant {user} 1000 paid compensation"), "balance").await;
    let profile = me(&app, &t).await;
    let debt = profile["debt"].as_f64().unwrap();
    let balance = profile["balance"].as_f64().unwrap();
    assert_eq!(debt, (debt_after_daily - price).max(0.0), "{profile}");
    assert_eq!(balance, 100.0 + (price - debt_after_daily).max(0.0), "{profile}");
    assert_eq!(profile["withdrawalsUnlocked"], json!(debt == 0.0));
    app.audit_clean().await;
    cli_audit_clean(&app);
    app.stop().await;
}

/// Attack 2: free tokens only (a grant stands in for daily, subscription and referral rewards).
#[tokio::test]
async fn a_free_only_account_must_pay_a_deposit_before_withdrawing() {
    // WITHDRAW_MIN_STARS unset: the smallest package's Stars (pack-s, 125).
    let app = TestApp::start(Options { bot: true, env: vec![("WITHDRAW_MIN_STARS", String::new())], ..Options::default() }).await;
    let (_, config) = app.get("/api/v1/config", None).await;
    assert_eq!(config["withdrawMinStars"], json!(125));
    // With a bot token the paid-only rule is on unless turned off: the mini app reads it here.
    assert_eq!(config["withdrawPaidOnly"], json!(true));
    let user = 9103;
    let t = app.player_with(user, cheap_case_price() / 100).await;
    let item = app.open_ok(&t, cheap_case(), None).await["item"]["id"].as_i64().unwrap();
    let profile = me(&app, &t).await;
    assert_eq!((profile["withdrawalsUnlocked"].clone(), profile["starsToUnlockWithdrawals"].clone()), (json!(false), json!(125)));
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": TRADE_URL})).await;
    assert_error(s, &b, 409, "deposit_required");
    assert!(b["message"].as_str().unwrap().contains("125 ⭐"), "{b}");

    // One paid package unlocks it; a refund of that package locks it again.
    let tx = invoice(&app, &t, user, "pack-s").await;
    let charge = charge_id("deposit");
    pay(&app, user, &tx, 125, &charge).await;
    let profile = me(&app, &t).await;
    assert_eq!((profile["withdrawalsUnlocked"].clone(), profile["starsToUnlockWithdrawals"].clone()), (json!(true), json!(0)));
    say(&app, ADMIN_ID, &format!("/refund {charge}"), "Refunded 125").await;
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": TRADE_URL})).await;
    assert_error(s, &b, 409, "deposit_required");
    let tx = invoice(&app, &t, user, "pack-s").await;
    app.fake().push_update(crate::payments::paid_update(user, &tx, 125, &charge_id("deposit2")));
    wait_until(|| async { me(&app, &t).await["withdrawalsUnlocked"] == json!(true) }).await;
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": TRADE_URL})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    app.audit_clean().await;
    cli_audit_clean(&app);
    app.stop().await;
}

/// Attack 3: a demo session (demo mode) on the same database restarted with a bot token.
#[tokio::test]
async fn a_demo_session_is_refused_after_a_restart_with_a_token() {
    let state = TempDir::new();
    let db_url = format!("sqlite://{}", state.0.join("fragbox.db").display());
    let demo = TestApp::start(Options { env: vec![("DATABASE_URL", db_url.clone())], ..Options::default() }).await;
    let (_, d) = demo.get("/api/v1/dev/init-data", None).await;
    let demo_id = d["demoId"].as_i64().unwrap();
    let (_, auth) = demo.post("/api/v1/auth", None, json!({"initData": d["initData"]})).await;
    let demo_token = auth["token"].as_str().unwrap().to_owned();
    let item = demo.open_ok(&demo_token, cheap_case(), None).await["item"]["id"].as_i64().unwrap();
    demo.stop().await;

    let app = TestApp::start(Options { bot: true, env: vec![("DATABASE_URL", db_url.clone())], ..Options::default() }).await;
    let (s, b) = app.get("/api/v1/me", Some(&demo_token)).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) = app.post(open_path(), Some(&demo_token), json!({})).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) =
        app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&demo_token), json!({"trade_url": TRADE_URL})).await;
    assert_error(s, &b, 401, "unauthorized");
    // Even init data genuinely signed with the bot token does not sign a demo user in.
    let init = app.init_data(demo_id, "Demo", None);
    let (s, b) = app.post("/api/v1/auth", None, json!({ "initData": init })).await;
    assert_error(s, &b, 401, "unauthorized");
    // Nor does the demo user count in the stats.
    let stats = say(&app, ADMIN_ID, "/stats", "Stats").await;
    assert!(stats["text"].as_str().unwrap().contains("Users: 0"), "{stats}");
    app.audit_clean().await;
    cli_audit_clean(&app);
    app.stop().await;
}

/// Attack 3, second half: the release binary without a token on a public address.
#[tokio::test]
async fn demo_mode_on_a_public_address_refuses_to_start() {
    let state = TempDir::new();
    let db_url = format!("sqlite://{}", state.0.join("fragbox.db").display());
    let out = Command::new(env!("CARGO_BIN_EXE_fragbox"))
        .env("DATABASE_URL", &db_url)
        .env("CATALOG_DIR", repo_root().join("data/catalog"))
        .env("BIND_ADDR", "0.0.0.0:0")
        .env_remove("TELEGRAM_BOT_TOKEN")
        .env_remove("DEMO_PUBLIC")
        .stdin(Stdio::null())
        .output()
        .expect("run fragbox");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(out.status.code().is_some(), "exited by itself");
    assert!(err.contains("TELEGRAM_BOT_TOKEN") && err.contains("DEMO_PUBLIC"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("running"));
}

fn forwarded(mut update: Value) -> Value {
    update["message"]["forward_origin"] = json!({"type": "user", "date": 1_699_999_000,
        "sender_user": {"id": ADMIN_ID, "is_bot": false, "first_name": "Boss"}});
    update["message"]["forward_date"] = json!(1_699_999_000);
    update
}

fn in_group(mut update: Value, group: i64) -> Value {
    update["message"]["chat"] = json!({"id": group, "type": "supergroup", "title": "Players"});
    update
}

/// Attack 4: admin commands forwarded, addressed to another bot, or sent in a group.
#[tokio::test]
async fn admin_commands_outside_the_admins_private_chat_change_nothing_and_answer_nothing() {
    let app = TestApp::with_bot().await;
    let victim = 5001;
    app.sign_in(victim, "Mallory").await;
    let group = -1_001_234_567_890i64;

    // Forwarded into the bot's chat (by the admin or anyone), and to another bot's name.
    app.fake().push_update(forwarded(text_update(ADMIN_ID, "Boss", "en", "/grant 5001 777 x")));
    app.fake().push_update(forwarded(text_update(victim, "Mallory", "en", "/grant 5001 777 x")));
    app.fake().push_update(text_update(ADMIN_ID, "Boss", "en", "/grant@some_other_bot 5001 777 x"));
    // In a group, by the admin.
    for cmd in ["/grant 5001 777 x", "/user 5001", "/withdrawals", "/stats", "/maintenance on", "/grant@fragbox_test_bot 5001 1 x"] {
        app.fake().push_update(in_group(text_update(ADMIN_ID, "Boss", "en", cmd), group));
    }
    // A Sent button pressed under a message in the group.
    app.fake().push_update(json!({"callback_query": {
        "id": "cbg", "chat_instance": "ci", "data": "wd:sent:1",
        "from": {"id": ADMIN_ID, "is_bot": false, "first_name": "Boss", "language_code": "en"},
        "message": {"message_id": 5, "date": 1_700_000_000, "text": "x", "chat": {"id": group, "type": "supergroup", "title": "Players"},
                    "from": {"id": crate::fake_bot_api::BOT_ID, "is_bot": true, "first_name": "FragBox"}}
    }}));
    // Sentinels: the same chats' next updates, answered once everything before them was handled.
    app.fake().push_update(in_group(text_update(victim, "Mallory", "en", "/help"), group));
    say(&app, ADMIN_ID, "/maintenance status", "Maintenance is off").await;
    wait_message(&app, group, "/paysupport").await;
    app.fake().wait_calls("answerCallbackQuery", 1).await;

    assert_eq!(app.balance(victim).await, 0);
    assert!(!webapp_api::domain::settings::maintenance(app.domain()).await.unwrap());
    let to_group: Vec<Value> = app.fake().calls("sendMessage").into_iter().filter(|m| m["chat_id"] == json!(group)).collect();
    assert_eq!(to_group.len(), 1, "only the help, nothing else: {to_group:#?}");
    let to_admin: Vec<String> = app
        .fake()
        .calls("sendMessage")
        .into_iter()
        .filter(|m| m["chat_id"] == json!(ADMIN_ID))
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(to_admin, vec!["🛠 Maintenance is off".to_owned()], "forwarded / other-bot commands answered nothing");
    assert!(app.fake().calls("sendMessage").iter().all(|m| m["chat_id"] != json!(victim)), "nothing to the forwarder");
    let (n,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM admin_audit WHERE action <> 'maintenance_status'").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(n, 0);
    // Addressed to this bot by name, in the admin's own chat, it works.
    say(&app, ADMIN_ID, "/grant@fragbox_test_bot 5001 7 thanks", "+7 tokens to 5001").await;
    app.audit_clean().await;
    cli_audit_clean(&app);
    app.stop().await;
}

/// Attack 5: a skin that failed a withdrawal is sellable (the operator's call), so the card says
/// it was in error before; failure reasons are codes the player reads in their language.
#[tokio::test]
async fn a_withdrawal_card_carries_the_risk_and_failures_carry_a_code() {
    let app = TestApp::with_bot().await;
    let user = 9105;
    // A Russian-speaking player: the failure notice comes in Russian.
    let init = {
        let user_json = json!({"id": user, "first_name": "Ivan", "last_name": "", "language_code": "ru"}).to_string();
        let date = app.domain().now().to_string();
        webapp_api::domain::auth::sign_init_data(&[("auth_date", date.as_str()), ("user", user_json.as_str())], TOKEN)
    };
    let (_, auth) = app.post("/api/v1/auth", None, json!({ "initData": init })).await;
    let t = auth["token"].as_str().unwrap().to_owned();
    app.grant(user, cheap_case_price() / 100).await;
    let item = app.open_ok(&t, cheap_case(), None).await["item"]["id"].as_i64().unwrap();
    let (_, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": TRADE_URL})).await;
    let wid = b["withdrawalId"].as_i64().unwrap();
    let card = say(&app, ADMIN_ID, "/withdrawals", &format!("Withdrawal #{wid}")).await;
    let text = card["text"].as_str().unwrap();
    // Free: the grant (one cheapest case) and the first-case reward (100).
    let free = format!("Tokens earned free (rewards, referrals, grants): {}", cheap_case_price() / 100 + 100);
    for needle in ["Account age: 0 days", "Stars paid: 0 (refunded: 0)", free.as_str(), "Opens: 1", "Already withdrawn: 0"] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    assert!(!text.contains("status error before"), "{text}");

    say(&app, ADMIN_ID, &format!("/fail {wid} inventory_private open it please"), "failed (inventory_private: open it please)").await;
    let notice = wait_message(&app, user, "инвентарь Steam закрыт").await;
    assert!(notice["text"].as_str().unwrap().contains("open it please"), "{notice}");
    let (_, b) = app.get(&format!("/api/v1/user/item/{item}"), Some(&t)).await;
    assert_eq!(
        (b["item"]["statusReasonCode"].clone(), b["item"]["statusReason"].clone()),
        (json!("inventory_private"), json!("open it please"))
    );

    // Asked again: the card warns that an offer for it may still be open.
    let (_, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": TRADE_URL})).await;
    let wid2 = b["withdrawalId"].as_i64().unwrap();
    let card = say(&app, ADMIN_ID, "/withdrawals", &format!("Withdrawal #{wid2}")).await;
    assert!(card["text"].as_str().unwrap().contains("was in status error before"), "{card}");
    let (code, out) = fragbox_cli(&app.db_url(), &["withdrawals", "list"]);
    assert_eq!(code, 0, "{out}");
    let risk = format!("risk: account 0 days, stars paid 0 refunded 0, free tokens {}", cheap_case_price() / 100 + 100);
    assert!(out.contains(&risk) && out.contains("WARNING"), "{out}");
    // The CLI takes a code and an optional note; a note alone is `other`.
    let (code, out) = fragbox_cli(&app.db_url(), &["withdrawals", "error", &wid2.to_string(), "trade_restricted", "--reason", "7 days"]);
    assert_eq!(code, 0, "{out}");
    let (_, b) = app.get(&format!("/api/v1/user/item/{item}"), Some(&t)).await;
    assert_eq!((b["item"]["statusReasonCode"].clone(), b["item"]["statusReason"].clone()), (json!("trade_restricted"), json!("7 days")));
    let (code, out) = fragbox_cli(&app.db_url(), &["withdrawals", "error", &wid2.to_string(), "bogus"]);
    assert_ne!(code, 0, "{out}");
    app.audit_clean().await;
    cli_audit_clean(&app);
    app.stop().await;
}

#[tokio::test]
async fn admin_texts_follow_the_admins_language() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(ADMIN_ID, "Boss").await;
    let (s, _) = app.put("/api/v1/user/settings", Some(&t), json!({"language": "ru"})).await;
    assert_eq!(s, StatusCode::OK);
    say(&app, ADMIN_ID, "/stats", "📊 Статистика").await;
    say(&app, ADMIN_ID, "/withdrawals", "Заявок на вывод нет").await;
    say(&app, ADMIN_ID, "/grant 1 x y", "Формат: /grant").await;
    app.stop().await;
}

/// The demo payment checks "still pending" inside its transaction: 20 racing calls pay once
/// and leave no orphan rows.
#[tokio::test]
async fn racing_demo_payments_pay_once_and_leave_no_orphans() {
    let app = TestApp::demo().await;
    let (_, d) = app.get("/api/v1/dev/init-data", None).await;
    let id = d["demoId"].as_i64().unwrap();
    let (_, auth) = app.post("/api/v1/auth", None, json!({"initData": d["initData"]})).await;
    let t = auth["token"].as_str().unwrap().to_owned();
    let (_, b) = app
        .post("/api/v1/payments/create-invoice-link", Some(&t), json!({"pack_id": "pack-m", "telegram_id": id, "init_data": d["initData"]}))
        .await;
    let tx = b["transaction_id"].as_str().unwrap().to_owned();
    let mut handles = Vec::new();
    for _ in 0..20 {
        let (http, url, t) = (app.http.clone(), format!("{}/api/v1/dev/pay/{tx}", app.base), t.clone());
        handles.push(tokio::spawn(async move { read(http.post(url).bearer_auth(t).json(&json!({})).send().await.unwrap()).await }));
    }
    let mut results = Vec::new();
    for h in handles {
        results.push(h.await.unwrap());
    }
    let ok = results.iter().filter(|(s, _)| *s == StatusCode::OK).count();
    assert_eq!(ok, 1, "{results:?}");
    for (s, b) in results.iter().filter(|(s, _)| *s != StatusCode::OK) {
        assert_error(*s, b, 404, "transaction_not_found");
    }
    let (orphans,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM orphan_payments").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(orphans, 0);
    assert_eq!(app.balance(id).await, 500_000 + 29_200);
    // Demo purchases count toward the deposit in demo mode.
    let profile = me(&app, &t).await;
    assert_eq!(profile["debt"], json!(0));
    app.audit_clean().await;
    app.stop().await;
}
