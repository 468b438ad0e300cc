//! The bot's runtime: it survives Telegram being away (at start-up too), reports itself in
//! `/readyz` and `fragbox_bot_up`, takes updates from long polling or a webhook, and gives an
//! update delivered twice (or to two replicas) one effect.
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::common::*;
use crate::fake_bot_api::{text_update, FakeBotApi, Script};
use crate::payments::{invoice, paid_update, pre_checkout_update};

const HOOK_URL: &str = "https://bot.fragbox.test/tg/hook";
const HOOK_PATH: &str = "/tg/hook";
const SECRET: &str = "s3cret-Token_42";

/// Polls `check` every 25 ms until it holds or `limit` passes; answers whether it held.
async fn eventually<F, Fut>(limit: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while start.elapsed() < limit {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    check().await
}

async fn readyz(app: &TestApp) -> (StatusCode, Value) {
    app.get("/readyz", None).await
}

async fn bot_up_gauge(app: &TestApp) -> String {
    let text = app.http.get(format!("{}/metrics", app.base)).send().await.unwrap().text().await.unwrap();
    text.lines().find(|l| l.starts_with("fragbox_bot_up ")).unwrap_or("missing").to_owned()
}

fn messages_to(fake: &FakeBotApi, chat: i64, needle: &str) -> usize {
    fake.calls("sendMessage")
        .iter()
        .filter(|m| m["chat_id"] == json!(chat) && m["text"].as_str().is_some_and(|t| t.contains(needle)))
        .count()
}

async fn wait_messages(fake: &FakeBotApi, chat: i64, needle: &str, n: usize) {
    let ok = eventually(Duration::from_secs(15), || async { messages_to(fake, chat, needle) >= n }).await;
    let sent: Vec<Value> = fake.calls("sendMessage").iter().map(|m| json!([m["chat_id"], m["text"]])).collect();
    assert!(ok, "expected {n} message(s) to {chat} with {needle:?}; sent: {sent:#?}");
}

/// An app on webhooks (with its own fake Bot API, or a given one), optionally on a given database.
async fn webhook_app(fake: Option<FakeBotApi>, database_url: Option<String>) -> TestApp {
    let mut env = vec![("TELEGRAM_WEBHOOK_URL", HOOK_URL.to_owned()), ("TELEGRAM_WEBHOOK_SECRET", SECRET.to_owned())];
    if let Some(url) = database_url {
        env.push(("DATABASE_URL", url));
    }
    let fake = match fake {
        Some(f) => f,
        None => FakeBotApi::start().await,
    };
    let app = TestApp::start(Options { fake: Some(fake), env, ..Options::default() }).await;
    // Ready means the webhook takes updates.
    assert!(eventually(Duration::from_secs(15), || async { readyz(&app).await.0 == StatusCode::OK }).await, "never ready");
    app
}

/// Posts `update` (with `update_id`) to the app's webhook with `secret` as the header.
async fn deliver(app: &TestApp, update_id: i64, mut update: Value, secret: Option<&str>) -> StatusCode {
    update["update_id"] = json!(update_id);
    let mut req = app.http.post(format!("{}{HOOK_PATH}", app.base)).json(&update);
    if let Some(s) = secret {
        req = req.header("X-Telegram-Bot-Api-Secret-Token", s);
    }
    req.send().await.unwrap().status()
}

#[tokio::test]
async fn the_bot_comes_up_when_telegram_comes_back_after_an_unreachable_start() {
    // A port with nobody listening: Telegram is unreachable from the start.
    let addr = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap()
    };
    let env = vec![("TELEGRAM_API_URL", format!("http://{addr}")), ("METRICS_ENABLED", "true".to_owned())];
    let app = TestApp::start(Options { bot: true, env, ..Options::default() }).await;

    // The HTTP side serves; readiness names the bot as down.
    let (s, _) = app.get("/api/v1/status", None).await;
    assert_eq!(s, StatusCode::OK);
    let (s, b) = readyz(&app).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{b}");
    assert_eq!(b["bot"], json!("down"), "{b}");
    assert_eq!(b["database"], json!("up"), "{b}");
    assert_eq!(b["down"], json!(["bot"]), "{b}");
    assert_eq!(bot_up_gauge(&app).await, "fragbox_bot_up 0");

    // Telegram comes back where the app expects it; a /start is answered within 10 s.
    let telegram = FakeBotApi::start_on(addr).await;
    let back = Instant::now();
    telegram.push_update(text_update(4101, "Lena", "en", "/start"));
    let answered = eventually(Duration::from_secs(10), || async { messages_to(&telegram, 4101, "Hi, Lena") == 1 }).await;
    assert!(answered, "no answer within 10 s of Telegram coming back; calls: {:?}", telegram.all_calls());
    println!("answered {:?} after Telegram came back", back.elapsed());
    assert!(!telegram.calls("deleteWebhook").is_empty(), "long polling starts by removing any webhook");

    assert!(eventually(Duration::from_secs(10), || async { readyz(&app).await.0 == StatusCode::OK }).await);
    let (_, b) = readyz(&app).await;
    assert_eq!(b, json!({"ready": true, "database": "up", "bot": "up", "down": [], "prices": "never repriced", "repricedAt": null}));
    assert_eq!(bot_up_gauge(&app).await, "fragbox_bot_up 1");
    app.stop().await;
}

#[tokio::test]
async fn the_bot_loop_survives_telegram_failing_while_it_runs() {
    let app = TestApp::with_bot().await;
    app.fake().push_update(text_update(4102, "Ola", "en", "/start"));
    wait_messages(app.fake(), 4102, "Hi, Ola", 1).await;
    assert!(eventually(Duration::from_secs(10), || async { readyz(&app).await.0 == StatusCode::OK }).await);

    // getUpdates starts failing (a webhook set elsewhere): the bot is reported down.
    app.fake().set_webhook_url("https://elsewhere.test/hook");
    let down = eventually(Duration::from_secs(10), || async {
        let (s, b) = readyz(&app).await;
        s == StatusCode::SERVICE_UNAVAILABLE && b["down"] == json!(["bot"])
    })
    .await;
    assert!(down, "{:?}", readyz(&app).await);

    // It recovers by itself once Telegram answers again.
    app.fake().set_webhook_url("");
    app.fake().push_update(text_update(4103, "Pia", "en", "/start"));
    wait_messages(app.fake(), 4103, "Hi, Pia", 1).await;
    assert!(eventually(Duration::from_secs(10), || async { readyz(&app).await.0 == StatusCode::OK }).await);
    app.stop().await;
}

#[tokio::test]
async fn readiness_names_the_database_when_it_does_not_answer() {
    let app = TestApp::demo().await;
    let (s, b) = readyz(&app).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b, json!({"ready": true, "database": "up", "bot": "off", "down": [], "prices": "never repriced", "repricedAt": null}));
    app.domain().db.close().await;
    let (s, b) = readyz(&app).await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{b}");
    assert_eq!((b["database"].clone(), b["down"].clone()), (json!("down"), json!(["database"])), "{b}");
    app.stop().await;
}

#[tokio::test]
async fn without_a_webhook_url_the_bot_deletes_any_webhook_and_long_polls() {
    let fake = FakeBotApi::start().await;
    // A webhook left by an earlier deployment: long polling fails until it is deleted.
    fake.set_webhook_url("https://old.fragbox.test/hook");
    let app = TestApp::start(Options { fake: Some(fake), ..Options::default() }).await;
    app.fake().push_update(text_update(4104, "Rui", "en", "/start"));
    wait_messages(app.fake(), 4104, "Hi, Rui", 1).await;
    assert_eq!(app.fake().calls("deleteWebhook").len(), 1);
    assert_eq!(app.fake().calls("deleteWebhook")[0].get("drop_pending_updates"), None, "pending updates are kept");
    assert!(app.fake().calls("setWebhook").is_empty());
    assert!(app.fake().get_updates_calls() > 0);
    let mut kinds: Vec<String> = app.fake().last_get_updates()["allowed_updates"]
        .as_array()
        .expect("getUpdates names its update types")
        .iter()
        .map(|k| k.as_str().unwrap().to_owned())
        .collect();
    kinds.sort_unstable();
    assert_eq!(kinds, ["callback_query", "chat_member", "message", "my_chat_member", "pre_checkout_query"]);
    app.stop().await;
}

#[tokio::test]
async fn on_webhooks_start_up_sets_the_url_the_secret_and_every_update_type_and_never_polls() {
    let app = webhook_app(None, None).await;
    let calls = app.fake().wait_calls("setWebhook", 1).await;
    let call = &calls[0];
    assert_eq!(call["url"], json!(HOOK_URL));
    assert_eq!(call["secret_token"], json!(SECRET));
    let mut kinds: Vec<&str> = call["allowed_updates"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
    kinds.sort_unstable();
    assert_eq!(kinds, ["callback_query", "chat_member", "message", "my_chat_member", "pre_checkout_query"]);
    assert!(app.fake().calls("deleteWebhook").is_empty());
    // The commands and the menu button are set as with long polling.
    app.fake().wait_calls("setChatMenuButton", 1).await;

    // Updates arrive through the webhook only.
    assert_eq!(deliver(&app, 1, text_update(4105, "Sam", "en", "/start"), Some(SECRET)).await, StatusCode::OK);
    wait_messages(app.fake(), 4105, "Hi, Sam", 1).await;
    assert_eq!(app.fake().get_updates_calls(), 0);
    assert!(eventually(Duration::from_secs(10), || async { readyz(&app).await.0 == StatusCode::OK }).await);
    app.stop().await;
}

#[tokio::test]
async fn the_webhook_refuses_a_missing_or_wrong_secret_and_processes_nothing() {
    let app = webhook_app(None, None).await;
    app.fake().wait_calls("setWebhook", 1).await;
    let wrong = ["", "s3cret-Token_4", "s3cret-Token_421", "S3CRET-TOKEN_42"];
    assert_eq!(deliver(&app, 10, text_update(4106, "Eve", "en", "/start"), None).await, StatusCode::UNAUTHORIZED);
    for (i, w) in wrong.iter().enumerate() {
        let status = deliver(&app, 11 + i as i64, text_update(4106, "Eve", "en", "/start"), Some(w)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "secret {w:?}");
    }
    let res = app
        .http
        .post(format!("{}{HOOK_PATH}", app.base))
        .header("X-Telegram-Bot-Api-Secret-Token", "nope")
        .json(&json!({"update_id": 20}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert!(res.headers().contains_key("x-request-id"), "the webhook route has the app's middleware");
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], json!("unauthorized"), "{body}");

    // A genuine update in the same chat afterwards is answered, and it is the only answer:
    // updates of one chat are handled in order, so nothing refused was queued before it.
    assert_eq!(deliver(&app, 30, text_update(4106, "Eve", "en", "/help"), Some(SECRET)).await, StatusCode::OK);
    app.fake().wait_calls("sendMessage", 1).await;
    let sent = app.fake().calls("sendMessage");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(!sent[0]["text"].as_str().unwrap().contains("Hi, Eve"), "{sent:?}");
    let (users,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE id = 4106").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(users, 0, "the refused /start registered nobody");
    let (taken,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM bot_updates").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(taken, 1);
    app.stop().await;
}

#[tokio::test]
async fn an_update_delivered_twice_or_at_once_to_two_replicas_has_one_effect() {
    let fake = FakeBotApi::start().await;
    let one = webhook_app(Some(fake.clone()), None).await;
    let two = webhook_app(Some(fake.clone()), Some(one.db_url())).await;
    fake.wait_calls("setWebhook", 2).await;

    // The same /start: twice to one replica, then five more times spread over both at once.
    let start = text_update(4107, "Tom", "en", "/start");
    assert_eq!(deliver(&one, 100, start.clone(), Some(SECRET)).await, StatusCode::OK);
    assert_eq!(deliver(&one, 100, start.clone(), Some(SECRET)).await, StatusCode::OK);
    let at_once: Vec<_> =
        (0..6).map(|i| if i % 2 == 0 { &one } else { &two }).map(|app| deliver(app, 100, start.clone(), Some(SECRET))).collect();
    for status in futures_util::future::join_all(at_once).await {
        assert_eq!(status, StatusCode::OK);
    }
    // Then one more update of the same chat to each replica: each replica handles a chat's
    // updates in order, so once both are answered every copy above has been through.
    assert_eq!(deliver(&one, 101, text_update(4107, "Tom", "en", "/help"), Some(SECRET)).await, StatusCode::OK);
    assert_eq!(deliver(&two, 102, text_update(4107, "Tom", "en", "/help"), Some(SECRET)).await, StatusCode::OK);
    wait_messages(&fake, 4107, "/language", 2).await;
    assert_eq!(messages_to(&fake, 4107, "Hi, Tom"), 1, "one greeting for one update");

    // A payment delivered to both replicas at once is credited once.
    let token = one.sign_in(4108, "Payer").await;
    let tx = invoice(&one, &token, 4108, "pack-s").await;
    let (stars,): (i64,) = sqlx::query_as("SELECT stars FROM payments WHERE id = $1").bind(&tx).fetch_one(&one.domain().db).await.unwrap();
    assert_eq!(deliver(&one, 200, pre_checkout_update("q-4108", 4108, "en", &tx, stars, "XTR"), Some(SECRET)).await, StatusCode::OK);
    let answers = fake.wait_calls("answerPreCheckoutQuery", 1).await;
    assert_eq!(answers[0]["ok"], json!(true), "{answers:?}");
    let paid = paid_update(4108, &tx, stars, &crate::payments::charge_id("twice"));
    let both = futures_util::future::join(deliver(&one, 201, paid.clone(), Some(SECRET)), deliver(&two, 201, paid.clone(), Some(SECRET)));
    assert_eq!(both.await, (StatusCode::OK, StatusCode::OK));
    assert_eq!(deliver(&one, 202, text_update(4108, "Payer", "en", "/help"), Some(SECRET)).await, StatusCode::OK);
    assert_eq!(deliver(&two, 203, text_update(4108, "Payer", "en", "/help"), Some(SECRET)).await, StatusCode::OK);
    wait_messages(&fake, 4108, "/language", 2).await;
    let (credits,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM ledger_entries WHERE user_id = 4108 AND amount > 0")
        .fetch_one(&one.domain().db)
        .await
        .unwrap();
    assert_eq!(credits, 1);
    let (taken,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM bot_updates WHERE update_id = 201").fetch_one(&one.domain().db).await.unwrap();
    assert_eq!(taken, 1);
    one.audit_clean().await;
    two.stop().await;
    one.stop().await;
}

#[tokio::test]
async fn pre_checkout_queries_of_many_payers_at_once_are_all_answered_within_10_s() {
    // Each answer takes Telegram 300 ms: 40 payers one after another would need 12 s.
    let fake = FakeBotApi::start().await;
    fake.script_always("answerPreCheckoutQuery", Script::Delay(Duration::from_millis(300)));
    let app = webhook_app(Some(fake), None).await;
    app.fake().wait_calls("setWebhook", 1).await;
    let payers: Vec<i64> = (0..40).map(|i| 4200 + i).collect();
    let began = Instant::now();
    let deliveries = payers.iter().enumerate().map(|(i, &user)| {
        let update = pre_checkout_update(&format!("q-{user}"), user, "en", &format!("{:032x}", user), 50, "XTR");
        deliver(&app, 300 + i as i64, update, Some(SECRET))
    });
    for status in futures_util::future::join_all(deliveries).await {
        assert_eq!(status, StatusCode::OK);
    }
    let all = eventually(Duration::from_secs(10), || async { app.fake().calls("answerPreCheckoutQuery").len() == payers.len() }).await;
    let answered = app.fake().calls("answerPreCheckoutQuery");
    assert!(all, "{} of {} answered within 10 s", answered.len(), payers.len());
    println!("{} pre-checkout queries answered in {:?}", answered.len(), began.elapsed());
    // Unknown invoices: each refused with a reason, none accepted.
    assert!(answered.iter().all(|a| a["ok"] == json!(false) && a["error_message"].as_str().is_some_and(|m| !m.is_empty())), "{answered:?}");
    app.stop().await;
}

#[tokio::test]
async fn a_webhook_telegram_refuses_at_first_is_set_again_until_it_takes() {
    let fake = FakeBotApi::start().await;
    fake.script("setWebhook", Script::Err(500, "Internal Server Error".into()));
    fake.script("setWebhook", Script::Err(429, "Too Many Requests: retry after 1".into()));
    let app = webhook_app(Some(fake), None).await;
    app.fake().wait_calls("setWebhook", 3).await;
    assert_eq!(app.fake().webhook_url(), HOOK_URL);
    assert!(eventually(Duration::from_secs(10), || async { readyz(&app).await.0 == StatusCode::OK }).await);
    assert_eq!(deliver(&app, 1, text_update(4300, "Uma", "en", "/start"), Some(SECRET)).await, StatusCode::OK);
    wait_messages(app.fake(), 4300, "Hi, Uma", 1).await;
    app.stop().await;
}

/// The real binary with a bot token against `api`, its stderr lines collected.
struct Binary {
    child: std::process::Child,
    base: String,
    stderr: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Binary {
    fn start(dir: &std::path::Path, api: &str) -> Binary {
        use std::process::{Command, Stdio};
        let dist = dir.join("dist");
        std::fs::create_dir_all(&dist).unwrap();
        std::fs::write(dist.join("index.html"), "<!doctype html><title>FragBox</title>").unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_fragbox"))
            .env("BIND_ADDR", "127.0.0.1:0")
            .env("DATABASE_URL", format!("sqlite://{}", dir.join("fragbox.db").display()))
            .env("CATALOG_DIR", repo_root().join("data/catalog"))
            .env("LEGAL_DIR", repo_root().join("data/legal"))
            .env("WEBAPP_DIST", &dist)
            .env("TELEGRAM_BOT_TOKEN", TOKEN)
            .env("TELEGRAM_API_URL", api)
            .env("WEBAPP_URL", "https://app.fragbox.test")
            .env("LOG_FORMAT", "json")
            .env("RUST_LOG", "info,fragbox=debug,sqlx=warn")
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (base, stderr) = crate::common::listening(&mut child);
        Binary { child, base, stderr }
    }

    fn count(&self, needle: &str) -> usize {
        self.stderr.lock().unwrap().iter().filter(|l| l.contains(needle)).count()
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = std::process::Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        let _ = self.child.wait();
    }
}

#[tokio::test]
async fn the_binary_logs_each_change_of_telegram_being_reachable_once() {
    let dir = TempDir::new();
    let addr = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap()
    };
    let server = Binary::start(&dir.0, &format!("http://{addr}"));
    let http = reqwest::Client::new();
    let ready = |http: reqwest::Client, base: String| async move { http.get(format!("{base}/readyz")).send().await.unwrap().status() };

    // Down at start: one error line, however many retries follow (quiet debug lines).
    let retried = eventually(Duration::from_secs(20), || async { server.count("Telegram still does not answer") >= 3 }).await;
    assert!(retried, "{:#?}", server.stderr.lock().unwrap());
    assert_eq!(server.count("Telegram does not answer: the bot is down"), 1);
    assert_eq!(ready(http.clone(), server.base.clone()).await, StatusCode::SERVICE_UNAVAILABLE);

    // Back: one info line, and the process is ready.
    let telegram = FakeBotApi::start_on(addr).await;
    assert!(eventually(Duration::from_secs(15), || async { ready(http.clone(), server.base.clone()).await == StatusCode::OK }).await);
    telegram.push_update(text_update(4301, "Vic", "en", "/start"));
    assert!(eventually(Duration::from_secs(10), || async { messages_to(&telegram, 4301, "Hi, Vic") == 1 }).await);
    assert_eq!(server.count("Telegram answers: the bot is up"), 1);
    assert_eq!(server.count("Telegram does not answer: the bot is down"), 1);
    let secret = TOKEN.split(':').nth(1).unwrap();
    assert_eq!(server.count(secret), 0, "the bot token never reaches the logs");
}

#[tokio::test]
async fn a_replica_that_cannot_reach_telegram_refuses_webhook_updates_until_it_can() {
    let addr = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap()
    };
    let env = vec![
        ("TELEGRAM_API_URL", format!("http://{addr}")),
        ("TELEGRAM_WEBHOOK_URL", HOOK_URL.to_owned()),
        ("TELEGRAM_WEBHOOK_SECRET", SECRET.to_owned()),
    ];
    let app = TestApp::start(Options { bot: true, env, ..Options::default() }).await;
    // Not taken (Telegram delivers it again, to this or a healthy replica), not recorded.
    assert_eq!(deliver(&app, 1, text_update(4302, "Wes", "en", "/start"), Some(SECRET)).await, StatusCode::SERVICE_UNAVAILABLE);
    let (taken,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM bot_updates").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(taken, 0);

    let telegram = FakeBotApi::start_on(addr).await;
    let taken = eventually(Duration::from_secs(15), || async {
        deliver(&app, 1, text_update(4302, "Wes", "en", "/start"), Some(SECRET)).await == StatusCode::OK
    })
    .await;
    assert!(taken, "the webhook takes updates once Telegram is reached");
    assert_eq!(telegram.calls("setWebhook").len(), 1);
    assert!(eventually(Duration::from_secs(10), || async { messages_to(&telegram, 4302, "Hi, Wes") == 1 }).await);
    app.stop().await;
}
