//! Abuse and bad input: rate limits, forwarded addresses, security headers, CORS, metrics
//! access, another user's ids on every endpoint that takes one, and seeded random inputs to the
//! init-data and trade-URL parsers.
use reqwest::StatusCode;
use serde_json::{json, Value};
use webapp_api::domain::auth::{sign_init_data, InitData};
use webapp_api::domain::trade_url::TradeUrl;

use crate::common::*;

/// Limits on (the harness turns them off), with `overrides`.
async fn limited(bot: bool, overrides: &[(&'static str, &str)]) -> TestApp {
    let mut env = vec![("RATE_LIMITS", "on".to_string())];
    env.extend(overrides.iter().map(|(k, v)| (*k, v.to_string())));
    TestApp::start(Options { bot, env, ..Options::default() }).await
}

async fn sign_in_from(app: &TestApp, user: i64, forwarded_for: Option<&str>) -> reqwest::Response {
    let mut req = app.http.post(format!("{}/api/v1/auth", app.base)).json(&json!({ "initData": app.init_data(user, "U", None) }));
    if let Some(f) = forwarded_for {
        req = req.header("x-forwarded-for", f);
    }
    req.send().await.unwrap()
}

async fn assert_limited(res: reqwest::Response) {
    let retry: u64 = res.headers().get("retry-after").expect("Retry-After").to_str().unwrap().parse().unwrap();
    assert!(retry >= 1);
    let (s, b) = read(res).await;
    assert_error(s, &b, 429, "rate_limited");
}

#[tokio::test]
async fn sign_in_is_limited_per_address_with_retry_after_in_our_error_shape() {
    let app = limited(false, &[("RATE_LIMIT_SIGN_IN_IP", "3/60")]).await;
    for user in 1..=3 {
        assert_eq!(sign_in_from(&app, user, None).await.status(), StatusCode::OK);
    }
    assert_limited(sign_in_from(&app, 4, None).await).await;
    app.stop().await;
}

#[tokio::test]
async fn opens_are_limited_per_user_and_a_refused_open_charges_nothing() {
    let app = limited(false, &[("RATE_LIMIT_OPEN_USER", "2/60")]).await;
    let (a, b) = (app.sign_in(501, "A").await, app.sign_in(502, "B").await);
    app.grant(501, 1000).await;
    app.grant(502, 1000).await;
    for n in 0..2 {
        let (s, body) = app.post(open_path(), Some(&a), json!({ "requestId": format!("a-{n}") })).await;
        assert_eq!(s, StatusCode::OK, "{body}");
    }
    let before = app.balance(501).await;
    let res = app.http.post(format!("{}{}", app.base, open_path())).bearer_auth(&a).json(&json!({})).send().await.unwrap();
    assert_limited(res).await;
    assert_eq!(app.balance(501).await, before);
    let (s, _) = app.post(open_path(), Some(&b), json!({})).await;
    assert_eq!(s, StatusCode::OK, "another user has their own bucket");
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn forwarded_for_is_believed_only_from_a_trusted_proxy() {
    // Not trusted: a client naming another address in the header still shares its own bucket.
    let app = limited(false, &[("RATE_LIMIT_SIGN_IN_IP", "1/60")]).await;
    assert_eq!(sign_in_from(&app, 1, Some("198.51.100.1")).await.status(), StatusCode::OK);
    assert_limited(sign_in_from(&app, 2, Some("198.51.100.2")).await).await;
    app.stop().await;

    // Behind a trusted proxy every client has its own bucket.
    let app = limited(false, &[("RATE_LIMIT_SIGN_IN_IP", "1/60"), ("TRUSTED_PROXIES", "127.0.0.1")]).await;
    assert_eq!(sign_in_from(&app, 1, Some("198.51.100.1")).await.status(), StatusCode::OK);
    assert_eq!(sign_in_from(&app, 2, Some("198.51.100.2")).await.status(), StatusCode::OK);
    assert_limited(sign_in_from(&app, 3, Some("198.51.100.1")).await).await;
    // A spoofed hop to the left of the real client does not help either.
    assert_limited(sign_in_from(&app, 4, Some("203.0.113.77, 198.51.100.2")).await).await;
    app.stop().await;
}

#[tokio::test]
async fn claims_and_ticket_messages_are_limited_per_user() {
    let app = limited(false, &[("RATE_LIMIT_CLAIM_USER", "1/60"), ("RATE_LIMIT_TICKET_USER", "2/60")]).await;
    let t = app.sign_in(601, "C").await;
    let (s, b) = app.post("/api/v1/daily-reward/claim", Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let res = app.http.post(format!("{}/api/v1/daily-reward/claim-streak-bonus", app.base)).bearer_auth(&t).send().await.unwrap();
    assert_limited(res).await;

    let (s, b) = app.post("/api/v1/support/tickets", Some(&t), json!({ "theme": "other", "message": "hello" })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let ticket = b["ticket"]["id"].as_i64().unwrap();
    let url = format!("/api/v1/support/tickets/{ticket}/messages");
    let (s, b) = app.post(&url, Some(&t), json!({ "message": "second" })).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let res = app.http.post(format!("{}{url}", app.base)).bearer_auth(&t).json(&json!({ "message": "third" })).send().await.unwrap();
    assert_limited(res).await;
    let (_, messages) = app.get(&url, Some(&t)).await;
    let mine = messages.as_array().unwrap().iter().filter(|m| m["sender"] == "user").count();
    assert_eq!(mine, 2, "the refused message was not stored: {messages}");
    app.stop().await;
}

#[tokio::test]
async fn the_default_limits_let_a_player_through() {
    let app = limited(false, &[]).await;
    let t = app.player_with(701, 10 * cheap_case_price() / 100).await;
    for _ in 0..10 {
        let (s, b) = app.post(open_path(), Some(&t), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{b}");
    }
    app.stop().await;
}

#[tokio::test]
async fn security_headers_frame_only_in_telegram_and_hsts_only_over_https() {
    let app = TestApp::demo().await;
    for path in ["/", "/api/v1/config", "/api/v1/nope"] {
        let res = app.http.get(format!("{}{path}", app.base)).send().await.unwrap();
        let h = res.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'self' https://web.telegram.org"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'") && csp.contains("object-src 'none'"), "{csp}");
        assert_eq!(h["x-content-type-options"], "nosniff");
        assert!(h.get("x-frame-options").is_none(), "would stop Telegram's web client from framing the app");
        assert!(h.get("strict-transport-security").is_none(), "plain http: no HSTS");
        assert!(!h["x-request-id"].is_empty());
    }
    let a = app.http.get(format!("{}/api/v1/status", app.base)).send().await.unwrap();
    let b = app.http.get(format!("{}/api/v1/status", app.base)).send().await.unwrap();
    assert_ne!(a.headers()["x-request-id"], b.headers()["x-request-id"]);
    let echoed = app.http.get(format!("{}/api/v1/status", app.base)).header("x-request-id", "proxy-abc-123").send().await.unwrap();
    assert_eq!(echoed.headers()["x-request-id"], "proxy-abc-123");
    let evil = app.http.get(format!("{}/api/v1/status", app.base)).header("x-request-id", "a b\"c").send().await.unwrap();
    assert_ne!(evil.headers()["x-request-id"], "a b\"c");
    app.stop().await;

    let app = TestApp::with_bot().await;
    let res = app.http.get(format!("{}/api/v1/config", app.base)).send().await.unwrap();
    assert!(res.headers()["strict-transport-security"].to_str().unwrap().contains("max-age="));
    app.stop().await;
}

#[tokio::test]
async fn cors_answers_only_the_mini_apps_origin() {
    let app = TestApp::with_bot().await;
    let preflight = |origin: &'static str| {
        app.http
            .request(reqwest::Method::OPTIONS, format!("{}/api/v1/me", app.base))
            .header("origin", origin)
            .header("access-control-request-method", "GET")
            .header("access-control-request-headers", "authorization")
            .send()
    };
    let ok = preflight("https://app.fragbox.test").await.unwrap();
    assert_eq!(ok.headers()["access-control-allow-origin"], "https://app.fragbox.test");
    // The allowed origin is fixed, never echoed: a browser on another origin refuses the answer.
    let evil = preflight("https://evil.example").await.unwrap();
    assert_ne!(evil.headers().get("access-control-allow-origin").map(|v| v.as_bytes()), Some(&b"https://evil.example"[..]));
    assert_ne!(evil.headers().get("access-control-allow-origin").map(|v| v.as_bytes()), Some(&b"*"[..]));
    app.stop().await;
}

async fn metrics_text(app: &TestApp, token: Option<&str>) -> (StatusCode, String) {
    let mut req = app.http.get(format!("{}/metrics", app.base));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    let res = req.send().await.unwrap();
    (res.status(), res.text().await.unwrap())
}

fn metric(text: &str, prefix: &str) -> f64 {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {prefix} in\n{text}"))
}

#[tokio::test]
async fn metrics_are_off_by_default_and_behind_the_token_when_set() {
    let app = TestApp::demo().await;
    assert_eq!(metrics_text(&app, None).await.0, StatusCode::NOT_FOUND);
    app.stop().await;

    let secret = "metrics-secret-0123456789";
    let app = TestApp::start(Options { bot: true, env: vec![("METRICS_TOKEN", secret.into())], ..Options::default() }).await;
    assert_eq!(metrics_text(&app, None).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(metrics_text(&app, Some("metrics-secret-wrong-00000")).await.0, StatusCode::UNAUTHORIZED);

    let t = app.player_with(801, cheap_case_price() / 100).await;
    let (s, _) = app.post(open_path(), Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, b) = app.post(&format!("/api/v1/cases/{}/open", dear_case()), Some(&t), json!({})).await;
    assert_error(s, &b, 409, "insufficient_tokens");
    app.fake().push_update(crate::fake_bot_api::text_update(801, "M", "en", "/help"));
    app.fake().wait_calls("sendMessage", 1).await;

    let (s, text) = metrics_text(&app, Some(secret)).await;
    assert_eq!(s, StatusCode::OK);
    assert!(text.contains(r#"fragbox_http_requests_total{route="/api/v1/cases/{id}/open",method="POST",status="200"} 1"#), "{text}");
    assert!(text.contains(r#"fragbox_http_request_duration_seconds_bucket{route="/api/v1/cases/{id}/open",le="+Inf"} 2"#), "{text}");
    assert_eq!(metric(&text, r#"fragbox_errors_total{code="insufficient_tokens"}"#), 1.0);
    assert_eq!(metric(&text, "fragbox_case_opens_total"), 1.0);
    let price = app.domain().catalog.case(cheap_case()).unwrap().price.0 as f64 / 100.0;
    assert_eq!(metric(&text, "fragbox_tokens_debited_total"), price);
    // The grant (one cheapest case) + the first-open reward 100.
    let credited = (cheap_case_price() / 100 + 100) as f64;
    assert_eq!(metric(&text, "fragbox_tokens_credited_total"), credited);
    assert!(metric(&text, "fragbox_bot_updates_total") >= 1.0);
    assert_eq!(metric(&text, "fragbox_stars_received_total"), 0.0);
    // Counters only grow, across scrapes.
    app.grant(801, 5).await;
    let (_, again) = metrics_text(&app, Some(secret)).await;
    assert_eq!(metric(&again, "fragbox_tokens_credited_total"), credited + 5.0);
    assert!(!again.contains(secret) && !again.contains(&t));
    app.stop().await;
}

/// What dashboards read: each family's name, type and help text, and the label names of its
/// series. A change here breaks a dashboard or an alert.
const EXPOSITION: &[(&str, &str, &str, &[&str])] = &[
    ("fragbox_http_requests_total", "counter", "HTTP requests answered, by route, method and status.", &["route", "method", "status"]),
    ("fragbox_http_request_duration_seconds", "histogram", "Time to answer, by route.", &["route"]),
    ("fragbox_errors_total", "counter", "Error responses, by error code.", &["code"]),
    ("fragbox_case_opens_total", "counter", "Cases opened (committed).", &[]),
    ("fragbox_tokens_credited_total", "counter", "Tokens credited to players (ledger entries > 0).", &[]),
    ("fragbox_tokens_debited_total", "counter", "Tokens debited from players (ledger entries < 0).", &[]),
    ("fragbox_stars_received_total", "counter", "Telegram Stars received in successful payments.", &[]),
    ("fragbox_payments_total", "counter", "Successful Stars payments.", &[]),
    ("fragbox_bot_updates_total", "counter", "Telegram updates handled by the dispatcher.", &[]),
    ("fragbox_uptime_seconds", "gauge", "Seconds since the process started.", &[]),
    ("fragbox_bot_up", "gauge", "1 while the bot reaches Telegram (0 when it does not, or in demo mode).", &[]),
    ("fragbox_resident_memory_bytes", "gauge", "Resident set size.", &[]),
    ("fragbox_resident_memory_peak_bytes", "gauge", "Peak resident set size.", &[]),
];

/// Only where the SQLite writer thread runs (not on PostgreSQL).
const WRITER_EXPOSITION: &[(&str, &str, &str, &[&str])] = &[
    ("fragbox_sqlite_writer_requests_total", "counter", "Writes handed to the SQLite writer thread.", &[]),
    ("fragbox_sqlite_writer_batches_total", "counter", "Transactions the SQLite writer ran (group commit: several writes each).", &[]),
    ("fragbox_sqlite_writer_committed_total", "counter", "Writes whose SQLite writer transaction committed.", &[]),
    (
        "fragbox_sqlite_checkpoint_turns_total",
        "counter",
        "Times the checkpoint held the SQLite write turn so the WAL could start over.",
        &[],
    ),
    (
        "fragbox_sqlite_checkpoint_turn_seconds_total",
        "counter",
        "Time the checkpoint held the SQLite write turn (writes waited meanwhile).",
        &[],
    ),
];

/// The label names of a series line (`name{a="x",b="y"} 1`), in order.
fn label_names(series: &str) -> Vec<String> {
    let Some((_, labels)) = series.split_once('{') else { return Vec::new() };
    let labels = labels.trim_end_matches('}');
    labels.split("\",").filter(|l| !l.is_empty()).map(|l| l.split_once('=').unwrap().0.to_owned()).collect()
}

#[tokio::test]
async fn the_metrics_exposition_keeps_every_name_type_help_text_and_label() {
    let app = TestApp::start(Options { env: vec![("METRICS_ENABLED", "true".into())], ..Options::default() }).await;
    let t = app.sign_in(803, "D").await;
    let (s, b) = app.post(open_path(), Some(&t), json!({})).await;
    assert_error(s, &b, 409, "insufficient_tokens");

    let res = app.http.get(format!("{}/metrics", app.base)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["content-type"], "text/plain; version=0.0.4; charset=utf-8");
    let text = res.text().await.unwrap();

    let mut expected: Vec<_> = EXPOSITION.to_vec();
    if !on_postgres() {
        expected.extend_from_slice(WRITER_EXPOSITION);
    }
    let mut families: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("# TYPE ")).map(|l| l.split(' ').next().unwrap()).collect();
    families.sort();
    let mut names: Vec<&str> = expected.iter().map(|e| e.0).collect();
    names.sort();
    assert_eq!(families, names, "{text}");
    for (name, kind, help, _) in &expected {
        assert!(text.contains(&format!("# HELP {name} {help}\n# TYPE {name} {kind}\n")), "{name}: help or type changed\n{text}");
    }

    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let series = line.rsplit_once(' ').unwrap().0;
        let sample = series.split('{').next().unwrap();
        let (family, extra): (&str, &[&str]) = match expected.iter().find(|e| e.0 == sample) {
            Some(e) => (e.0, &[]),
            None => match sample.strip_suffix("_bucket") {
                Some(f) => (f, &["le"]),
                None => (sample.strip_suffix("_sum").or_else(|| sample.strip_suffix("_count")).unwrap_or(sample), &[]),
            },
        };
        let labels = expected.iter().find(|e| e.0 == family).unwrap_or_else(|| panic!("unknown series {line}")).3;
        let want: Vec<&str> = labels.iter().chain(extra).copied().collect();
        assert_eq!(label_names(series), want, "{line}");
    }

    let route = r#"route="/api/v1/cases/{id}/open""#;
    let bounds: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with(&format!("fragbox_http_request_duration_seconds_bucket{{{route},")))
        .map(|l| l.split("le=\"").nth(1).unwrap().split('"').next().unwrap())
        .collect();
    let want = ["0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"];
    assert_eq!(bounds, want, "{text}");
    assert!(text.contains(&format!(r#"fragbox_http_requests_total{{{route},method="POST",status="409"}} 1"#)), "{text}");
    assert_eq!(metric(&text, r#"fragbox_errors_total{code="insufficient_tokens"}"#), 1.0);
    app.stop().await;
}

/// Every route that takes an id in its path, and what another user's id must get. A new route
/// with an id fails `the_sweep_covers_every_route_with_an_id` until it is added here.
const ID_ROUTES: &[&str] = &[
    "/user/item/{id}",
    "/user/item/{id}/request-withdrawal",
    "/items/{id}/public",
    "/cases/{id}",
    "/cases/{id}/open",
    "/payments/transaction-status/{id}",
    "/dev/pay/{id}",
    "/support/tickets/{id}",
    "/support/tickets/{id}/messages",
    "/support/tickets/{id}/close",
];

#[test]
fn the_sweep_covers_every_route_with_an_id() {
    let dir = repo_root().join("webapp-api/src/http/routes");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let src = std::fs::read_to_string(&path).unwrap();
        for chunk in src.split(".route(\"").skip(1) {
            let route = chunk.split('"').next().unwrap();
            if route.contains('{') {
                assert!(ID_ROUTES.contains(&route), "{} has {route}: add it to the IDOR sweep", path.display());
            }
        }
    }
}

#[tokio::test]
async fn another_users_ids_get_nothing_anywhere() {
    let app = TestApp::demo().await;
    let (alice, bob) = (910_001, 910_002);
    let a = app.sign_in(alice, "Alice").await;
    let b = app.sign_in(bob, "Bob").await;
    app.grant(alice, 1000).await;
    app.grant(bob, 1000).await;

    // Alice's things: two items, a ticket, a pending payment.
    let (_, o1) = app.post(open_path(), Some(&a), json!({ "requestId": "alice-1" })).await;
    let (_, o2) = app.post(open_path(), Some(&a), json!({ "requestId": "alice-2" })).await;
    let (item, item2) = (o1["item"]["id"].as_i64().unwrap(), o2["item"]["id"].as_i64().unwrap());
    let (s, t) = app.post("/api/v1/support/tickets", Some(&a), json!({ "theme": "other", "message": "mine" })).await;
    assert_eq!(s, StatusCode::OK, "{t}");
    let ticket = t["ticket"]["id"].as_i64().unwrap();
    let (_, packs) = app.get("/api/v1/payments/packages", Some(&a)).await;
    let pack = packs["data"][0]["id"].as_str().unwrap().to_owned();
    let init = app.init_data(alice, "Alice", None);
    let (s, inv) = app
        .post("/api/v1/payments/create-invoice-link", Some(&a), json!({ "pack_id": pack, "telegram_id": alice, "init_data": init }))
        .await;
    assert_eq!(s, StatusCode::OK, "{inv}");
    let tx = inv["transaction_id"].as_str().unwrap().to_owned();
    let (alice_balance, bob_balance) = (app.balance(alice).await, app.balance(bob).await);

    // Bob tries every one of them.
    let trade = "https://steamcommunity.com/tradeoffer/new/?partner=123456&token=AbCd";
    let tries: Vec<(reqwest::Method, String, Value, u16, &str)> = vec![
        (reqwest::Method::GET, format!("/user/item/{item}"), json!(null), 404, "item_not_found"),
        (reqwest::Method::POST, format!("/user/item/{item}/request-withdrawal"), json!({ "trade_url": trade }), 404, "item_not_found"),
        (reqwest::Method::POST, "/sales/sell".into(), json!({ "item_id": item }), 404, "item_not_found"),
        (reqwest::Method::POST, "/savePreparedInlineMessage".into(), json!({ "item_id": item }), 409, "share_unavailable"),
        (reqwest::Method::POST, open_path().trim_start_matches("/api/v1").into(), json!({ "telegramId": alice }), 403, "forbidden"),
        (reqwest::Method::GET, format!("/payments/transaction-status/{tx}"), json!(null), 404, "transaction_not_found"),
        (reqwest::Method::POST, format!("/dev/pay/{tx}"), json!({}), 404, "transaction_not_found"),
        (
            reqwest::Method::POST,
            "/payments/create-invoice-link".into(),
            json!({ "pack_id": pack, "telegram_id": alice, "init_data": app.init_data(alice, "Alice", None) }),
            403,
            "forbidden",
        ),
        (reqwest::Method::GET, format!("/support/tickets/{ticket}"), json!(null), 404, "ticket_not_found"),
        (reqwest::Method::GET, format!("/support/tickets/{ticket}/messages"), json!(null), 404, "ticket_not_found"),
        (reqwest::Method::POST, format!("/support/tickets/{ticket}/messages"), json!({ "message": "hi" }), 404, "ticket_not_found"),
        (reqwest::Method::POST, format!("/support/tickets/{ticket}/close"), json!({}), 404, "ticket_not_found"),
        (
            reqwest::Method::POST,
            "/support/tickets".into(),
            json!({ "theme": "withdraw", "item_id": item2, "message": "x" }),
            404,
            "item_not_found",
        ),
    ];
    for (method, path, body, status, code) in tries {
        let mut req = app.http.request(method.clone(), format!("{}/api/v1{path}", app.base)).bearer_auth(&b);
        if !body.is_null() {
            req = req.json(&body);
        }
        let (s, got) = read(req.send().await.unwrap()).await;
        assert_eq!((s.as_u16(), got["code"].as_str().unwrap_or("")), (status, code), "{method} {path}: {got}");
    }

    // Bob's own lists show none of Alice's.
    let (_, opens) = app.get("/api/v1/fair/opens", Some(&b)).await;
    assert!(opens["data"].as_array().unwrap().is_empty(), "{opens}");
    let (_, items) = app.get("/api/v1/user/items", Some(&b)).await;
    assert!(items["data"].as_array().unwrap().is_empty(), "{items}");
    let (_, tickets) = app.get("/api/v1/support/tickets", Some(&b)).await;
    assert!(tickets.as_array().unwrap().is_empty(), "{tickets}");

    // Alice's things are untouched.
    let (s, mine) = app.get(&format!("/api/v1/user/item/{item}"), Some(&a)).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(mine["item"]["status"], "received");
    let (_, msgs) = app.get(&format!("/api/v1/support/tickets/{ticket}/messages"), Some(&a)).await;
    assert_eq!(msgs.as_array().unwrap().iter().filter(|m| m["sender"] == "user").count(), 1, "{msgs}");
    let (_, st) = app.get(&format!("/api/v1/payments/transaction-status/{tx}"), Some(&a)).await;
    assert_eq!(st["status"], "pending");
    assert_eq!((app.balance(alice).await, app.balance(bob).await), (alice_balance, bob_balance));
    app.audit_clean().await;
    app.stop().await;
}

/// A seeded generator: the same inputs on every run, so a failure reproduces.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn bytes(&mut self, max: usize) -> Vec<u8> {
        let len = self.below(max + 1);
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// Characters that mean something to the parsers, and some that don't.
const ALPHABET: &[u8] = b"%&=+#?/:;.,-_ 09afAFgzGZ{}\"\\\n\r\t\x00";

fn decoded(raw: &str) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = form_urlencoded::parse(raw.trim().as_bytes()).into_owned().collect();
    pairs.sort();
    // The hash is compared as bytes: its hex case does not matter.
    for (k, v) in &mut pairs {
        if k == "hash" {
            *v = v.to_ascii_lowercase();
        }
    }
    pairs
}

#[test]
fn init_data_verification_never_panics_on_arbitrary_input() {
    let mut rng = Rng(0x5EED_0001);
    for _ in 0..20_000 {
        let raw = String::from_utf8_lossy(&rng.bytes(300)).into_owned();
        assert!(InitData::verify(&raw, TOKEN, 1_763_800_000, 86_400).is_err(), "{raw:?}");
        let mut s = String::from("auth_date=1&user=");
        for _ in 0..rng.below(40) {
            s.push(ALPHABET[rng.below(ALPHABET.len())] as char);
        }
        s.push_str("&hash=");
        s.push_str(&"0".repeat(rng.below(70)));
        let _ = InitData::verify(&s, TOKEN, 1_763_800_000, 86_400);
    }
}

#[test]
fn any_single_byte_change_to_signed_init_data_is_rejected() {
    let now = 1_763_800_000i64;
    let user = r#"{"id":5768337691,"first_name":"Anna Maria","last_name":"","username":"anna","language_code":"ru"}"#;
    let date = now.to_string();
    let raw = sign_init_data(
        &[("auth_date", &date), ("query_id", "AAH9"), ("user", user), ("start_param", "ref_abc"), ("signature", "xyz")],
        TOKEN,
    );
    assert!(InitData::verify(&raw, TOKEN, now, 86_400).is_ok());
    let original = decoded(&raw);
    let mut rng = Rng(0x5EED_0002);
    let bytes = raw.as_bytes();
    let mut tried = 0;
    for i in 0..bytes.len() {
        let mut variants: Vec<Vec<u8>> = Vec::new();
        for _ in 0..6 {
            let mut v = bytes.to_vec();
            v[i] = ALPHABET[rng.below(ALPHABET.len())];
            variants.push(v);
        }
        let mut deleted = bytes.to_vec();
        deleted.remove(i);
        variants.push(deleted);
        let mut inserted = bytes.to_vec();
        inserted.insert(i, ALPHABET[rng.below(ALPHABET.len())]);
        variants.push(inserted);
        for v in variants {
            if v == bytes {
                continue;
            }
            tried += 1;
            let Ok(text) = String::from_utf8(v) else { continue };
            if InitData::verify(&text, TOKEN, now, 86_400).is_ok() {
                // Accepted only if nothing signed changed: same pairs after decoding.
                assert_eq!(decoded(&text), original, "a changed byte {i} was accepted: {text}");
            }
        }
    }
    assert!(tried > 1000);
}

#[test]
fn the_trade_url_parser_never_panics_and_accepts_only_canonical_links() {
    let mut rng = Rng(0x5EED_0003);
    let good = "https://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbC_d-9";
    let accepted = |s: &str| match TradeUrl::parse(s) {
        Ok(u) => {
            assert_eq!(u.to_string(), s.trim(), "accepted a non-canonical link {s:?}");
            assert!(u.partner >= 1 && !u.token.is_empty() && u.token.len() <= 64);
            assert!(u.token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'));
            true
        }
        Err(_) => false,
    };
    for _ in 0..20_000 {
        accepted(&String::from_utf8_lossy(&rng.bytes(120)));
    }
    assert!(accepted(good));
    let mut changes_accepted = 0;
    for i in 0..good.len() {
        for _ in 0..6 {
            let mut v = good.as_bytes().to_vec();
            v[i] = ALPHABET[rng.below(ALPHABET.len())];
            if let Ok(s) = String::from_utf8(v) {
                if s != good && accepted(&s) {
                    changes_accepted += 1;
                }
            }
        }
    }
    // Digits in the partner and letters in the token may change into other valid links; the
    // scheme, host, path and parameter names never may (checked by `accepted` above).
    assert!(changes_accepted > 0);
}
