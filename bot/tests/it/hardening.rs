//! The contract holds for every input: bounded metrics, one error shape, object bodies only,
//! the OpenAPI document, sessions, rate limits on writes, long ticket forwards, the server-side
//! dev gate, the guarded public card, and HTTP modules that import each other in layers.
use std::sync::Arc;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use webapp_api::domain::clock::ManualClock;

use crate::common::*;

async fn raw(app: &TestApp, method: Method, path: &str, content_type: Option<&str>, body: &str, token: Option<&str>) -> reqwest::Response {
    let mut req = app.http.request(method, format!("{}{path}", app.base));
    if let Some(ct) = content_type {
        req = req.header("content-type", ct);
    }
    if !body.is_empty() {
        req = req.body(body.to_owned());
    }
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    req.send().await.unwrap()
}

fn request_series(metrics: &str) -> usize {
    metrics.lines().filter(|l| l.starts_with("fragbox_http_requests_total{")).count()
}

async fn metrics(app: &TestApp) -> String {
    app.http.get(format!("{}/metrics", app.base)).send().await.unwrap().text().await.unwrap()
}

#[tokio::test]
async fn made_up_methods_and_ids_add_no_metric_series() {
    let app = TestApp::start(Options { env: vec![("METRICS_ENABLED", "true".into())], ..Options::default() }).await;
    let t = app.sign_in(930_001, "Mo").await;
    metrics(&app).await;
    for path in ["/api/v1/me", "/api/v1/user/item/1", "/api/v1/nowhere"] {
        raw(&app, Method::from_bytes(b"WARMUP").unwrap(), path, None, "", Some(&t)).await;
        raw(&app, Method::GET, path, None, "", Some(&t)).await;
    }
    let before = metrics(&app).await;
    for i in 0..1000 {
        let method = Method::from_bytes(format!("M{i}{}", "Z".repeat(i % 200)).as_bytes()).unwrap();
        let path = ["/api/v1/me", "/api/v1/user/item/1", "/api/v1/nowhere"][i % 3];
        let res = raw(&app, method, path, None, "", Some(&t)).await;
        assert!(res.status().is_client_error(), "{}", res.status());
        // Other ids of the same route share its template.
        raw(&app, Method::GET, &format!("/api/v1/user/item/{}", 1000 + i), None, "", Some(&t)).await;
    }
    let after = metrics(&app).await;
    assert_eq!(request_series(&after), request_series(&before), "{after}");
    assert!(after.contains("method=\"OTHER\""), "{after}");
    assert!(after.contains("route=\"/api/v1/user/item/{id}\""), "{after}");
    assert!(!after.contains("M999"), "a raw method reached the labels");
    app.stop().await;
}

#[tokio::test]
async fn every_rejection_has_the_json_error_shape_and_a_request_id() {
    let app = TestApp::start(Options { env: vec![("WEBAPP_URL", "https://mini.fragbox.test".into())], ..Options::default() }).await;
    let t = app.sign_in(930_011, "Eve").await;
    type Case<'a> = (Method, &'a str, Option<&'a str>, &'a str, u16, &'a str);
    let cases: Vec<Case> = vec![
        (Method::GET, "/api/v1/user/item/abc", None, "", 400, "bad_request"),
        (Method::GET, "/api/v1/user/item/99999999999999999999", None, "", 400, "bad_request"),
        (Method::GET, "/api/v1/support/tickets/x/messages", None, "", 400, "bad_request"),
        (Method::GET, "/api/v1/fair/verify?server_seed=a&client_seed=b&nonce=1", None, "", 400, "bad_request"),
        (Method::GET, "/api/v1/fair/opens?page=abc", None, "", 400, "bad_request"),
        (Method::GET, "/api/v1/user/referrals?page=99999999999999999999", None, "", 400, "bad_request"),
        (Method::DELETE, "/api/v1/me", None, "", 405, "method_not_allowed"),
        (Method::PATCH, open_path(), None, "", 405, "method_not_allowed"),
        (Method::POST, "/api/v1/user/agreements", Some("text/plain"), "yes", 415, "unsupported_media_type"),
        (Method::POST, "/api/v1/fair/rotate", Some("text/plain"), "x", 415, "unsupported_media_type"),
        (Method::POST, "/api/v1/support/tickets/1/close", Some("application/x-www-form-urlencoded"), "a=b", 415, "unsupported_media_type"),
        (Method::PUT, "/api/v1/user/settings", None, "{\"language\":\"en\"}", 415, "unsupported_media_type"),
        (Method::GET, "/api/v1/nowhere", None, "", 404, "not_found"),
        (Method::GET, "/api/v2/me", None, "", 404, "not_found"),
        (Method::GET, "/api", None, "", 404, "not_found"),
    ];
    for (method, path, ct, body, status, code) in cases {
        let res = raw(&app, method.clone(), path, ct, body, Some(&t)).await;
        assert!(res.headers().contains_key("x-request-id"), "{method} {path}");
        let (s, b) = read(res).await;
        assert_eq!((s.as_u16(), b["code"].as_str().unwrap_or("")), (status, code), "{method} {path}: {b}");
        assert_error(s, &b, status, code);
    }
    // Nothing was written by the refused writes.
    let (_, agreed) = app.get("/api/v1/user/check-agreements", Some(&t)).await;
    assert_eq!(agreed["agreed"], json!(false));

    // A CORS preflight carries a request id too.
    let res = app
        .http
        .request(Method::OPTIONS, format!("{}/api/v1/me", app.base))
        .header("origin", "https://mini.fragbox.test")
        .header("access-control-request-method", "GET")
        .header("access-control-request-headers", "authorization")
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{}", res.status());
    assert!(res.headers().contains_key("x-request-id"), "{:?}", res.headers());
    assert!(res.headers().contains_key("access-control-allow-origin"), "{:?}", res.headers());
    app.stop().await;
}

#[tokio::test]
async fn arrays_and_scalars_are_refused_where_an_object_is_documented() {
    let app = TestApp::demo().await;
    let t = app.player_with(930_021, 1000).await;
    let before = app.balance(930_021).await;
    let (s, _) = app.put("/api/v1/user/settings", Some(&t), json!({"language": "ru"})).await;
    assert_eq!(s, StatusCode::OK);
    let json = Some("application/json");
    let cases: Vec<(Method, &str, &str)> = vec![
        (Method::POST, open_path(), "[null,null]"),
        (Method::POST, open_path(), "[]"),
        (Method::PUT, "/api/v1/user/settings", "[\"en\"]"),
        (Method::PUT, "/api/v1/user/settings", "\"en\""),
        (Method::POST, "/api/v1/support/tickets", "[\"bug\",null,null,\"x\"]"),
        (Method::POST, "/api/v1/sales/sell", "42"),
        (Method::POST, "/api/v1/user/agreements", "[]"),
        (Method::POST, "/api/v1/auth", "[\"x\"]"),
        (Method::POST, "/api/v1/dev-gate", "null"),
    ];
    for (method, path, body) in cases {
        let (s, b) = read(raw(&app, method.clone(), path, json, body, Some(&t)).await).await;
        assert_error(s, &b, 400, "bad_request");
        assert!(b["error"].as_str().unwrap().contains("object"), "{method} {path} {body}: {b}");
    }
    assert_eq!(app.balance(930_021).await, before, "a refused open charged");
    let (_, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(me["data"]["language"], json!("ru"), "{me}");
    let (_, tickets) = app.get("/api/v1/support/tickets", Some(&t)).await;
    assert!(tickets.as_array().unwrap().is_empty());
    app.stop().await;
}

/// Every route of the router, as `METHOD /path` (path under `/api/v1`).
fn routes_in_source() -> Vec<String> {
    let dir = repo_root().join("webapp-api/src/http/routes");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let src = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for chunk in src.split(".route(\"").skip(1) {
            let (route, rest) = chunk.split_once('"').unwrap();
            // One route per call: its handlers run to the end of the line or the next `.route(`.
            let handlers = rest.split('\n').next().unwrap().split(".route(").next().unwrap();
            for m in ["get", "post", "put", "delete", "patch"] {
                if handlers.contains(&format!("{m}(")) {
                    out.push(format!("{} {route}", m.to_uppercase()));
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

#[tokio::test]
async fn the_openapi_document_covers_every_route_with_its_errors() {
    let app = TestApp::demo().await;
    let (s, doc) = app.get("/api/v1/openapi.json", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(doc["openapi"], json!("3.1.0"));
    let routes = routes_in_source();
    assert!(routes.len() >= 40, "{routes:?}");
    // OpenAPI requires unique operation ids; generators (the mini app's types) refuse a repeat.
    let mut ids = std::collections::BTreeSet::new();
    for r in &routes {
        let (method, path) = r.split_once(' ').unwrap();
        if let Some(id) = doc["paths"][path][method.to_lowercase()]["operationId"].as_str() {
            assert!(ids.insert(id.to_owned()), "{r}: operationId {id} is used twice");
        }
    }
    for r in &routes {
        let (method, path) = r.split_once(' ').unwrap();
        let op = &doc["paths"][path][method.to_lowercase()];
        assert!(op.is_object(), "{r} is missing from the OpenAPI document");
        let responses = op["responses"].as_object().unwrap();
        assert!(responses.contains_key("200"), "{r}: no 200");
        let secured = op["security"].as_array().is_some_and(|s| s.iter().any(|s| s.get("bearer").is_some()));
        if secured {
            assert!(responses.contains_key("401"), "{r}: a secured operation must list 401");
        }
        if path.contains('{') {
            assert!(op["parameters"].as_array().is_some_and(|p| p.iter().any(|p| p["in"] == "path")), "{r}: path parameter");
        }
        if method != "GET" {
            assert!(responses.contains_key("429") || path == "/openapi.json", "{r}: writes are rate limited");
        }
    }
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());
    app.stop().await;
}

/// Each module of `webapp-api/src/http` (`""` is `http/mod.rs`, `"routes::cases"` a route area)
/// and the `http` modules its code (its tests aside) names, through `crate::http::` or `super::`.
fn http_module_imports() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let root = repo_root().join("webapp-api/src/http");
    let mut sources = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(&root).unwrap().with_extension("");
                let name = rel.to_str().unwrap().replace('/', "::");
                let name = if name == "mod" { String::new() } else { name.strip_suffix("::mod").unwrap_or(&name).to_owned() };
                sources.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let modules: Vec<String> = sources.iter().map(|(n, _)| n.clone()).collect();
    let parent = |m: &str| m.rsplit_once("::").map(|(p, _)| p.to_owned()).unwrap_or_default();
    let mut imports = std::collections::BTreeMap::new();
    for (name, src) in &sources {
        let code = src.split("#[cfg(test)]").next().unwrap();
        let mut uses = std::collections::BTreeSet::new();
        for chunk in code.split("crate::http::").skip(1) {
            let path: String = chunk.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':').collect();
            let segments: Vec<&str> = path.split("::").collect();
            // The longest prefix of the path that is a module.
            let module = (1..=segments.len()).rev().map(|n| segments[..n].join("::")).find(|m| modules.contains(m));
            uses.insert(module.unwrap_or_default());
        }
        if !name.is_empty() && code.contains("super::") {
            uses.insert(parent(name));
        }
        uses.remove(name);
        imports.insert(name.clone(), uses);
    }
    imports
}

#[test]
fn the_http_modules_import_each_other_without_circles() {
    let imports = http_module_imports();
    assert!(imports.len() >= 20 && imports.contains_key("routes::cases"), "{imports:?}");
    // Depth-first: a module met again while still on the path closes a circle.
    fn visit<'a>(
        m: &'a str,
        imports: &'a std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut std::collections::BTreeSet<&'a str>,
    ) {
        if let Some(i) = path.iter().position(|p| *p == m) {
            let mut circle = path[i..].to_vec();
            circle.push(m);
            panic!("the http modules import each other in a circle: {circle:?}");
        }
        if !done.insert(m) {
            return;
        }
        path.push(m);
        for next in imports.get(m).into_iter().flatten() {
            visit(next, imports, path, done);
        }
        path.pop();
    }
    let mut done = std::collections::BTreeSet::new();
    for m in imports.keys() {
        visit(m, &imports, &mut Vec::new(), &mut done);
    }
    // Nothing below the router uses it.
    for (m, uses) in &imports {
        assert!(m.is_empty() || !uses.contains(""), "{m} uses http/mod.rs");
    }
}

#[tokio::test]
async fn a_player_keeps_at_most_ten_sessions_and_the_oldest_goes_first() {
    let app = TestApp::demo().await;
    let mut tokens = Vec::new();
    for _ in 0..12 {
        tokens.push(app.sign_in(930_031, "Sam").await);
    }
    for (i, t) in tokens.iter().enumerate() {
        let (s, _) = app.get("/api/v1/me", Some(t)).await;
        let expected = if i < 2 { StatusCode::UNAUTHORIZED } else { StatusCode::OK };
        assert_eq!(s, expected, "session {i}");
    }
    let (n,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM sessions WHERE user_id = $1").bind(930_031_i64).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(n, 10);
    app.stop().await;
}

#[tokio::test]
async fn expired_sessions_are_purged_and_refused() {
    let clock = Arc::new(ManualClock::at(1_800_000_000));
    let app = TestApp::start(Options { clock: Some(clock.clone()), ..Options::default() }).await;
    let old = app.sign_in(930_041, "Old").await;
    let ttl = app.domain().config.session_ttl_secs;
    clock.advance(ttl + 1);
    let (s, _) = app.get("/api/v1/me", Some(&old)).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    app.sign_in(930_042, "New").await;
    let (n,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM sessions WHERE user_id = $1").bind(930_041_i64).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(n, 0, "the expired session is still stored");
    app.stop().await;
}

#[tokio::test]
async fn a_get_never_waits_for_the_write_lock() {
    let app = TestApp::demo().await;
    let t = app.sign_in(930_051, "Reader").await;
    // Another writer holds the write lock (SQLite's, or the player's row on PostgreSQL) for as
    // long as the reads take.
    let mut writer = webapp_api::domain::store::begin_write_for(&app.domain().db, &[930_051]).await.unwrap();
    sqlx::query("UPDATE users SET language = language WHERE id = $1").bind(930_051_i64).execute(&mut *writer).await.unwrap();
    for path in ["/api/v1/fair", "/api/v1/me", "/api/v1/fair/opens", "/api/v1/user/items", "/api/v1/daily-reward/check"] {
        let (s, b) = app.get(path, Some(&t)).await;
        assert_eq!(s, StatusCode::OK, "{path}: {b}");
    }
    writer.rollback().await.unwrap();
    app.stop().await;
}

fn limited(extra: &[(&'static str, &str)]) -> Options {
    let mut env = vec![("RATE_LIMITS", "on".to_owned())];
    env.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
    Options { env, ..Options::default() }
}

#[tokio::test]
async fn seed_rotation_invoices_and_shares_are_rate_limited_per_player() {
    let app = TestApp::start(limited(&[("RATE_LIMIT_FAIR_USER", "3/600"), ("RATE_LIMIT_TELEGRAM_USER", "2/600")])).await;
    let t = app.sign_in(930_061, "Rot").await;
    for _ in 0..3 {
        let (s, b) = app.post("/api/v1/fair/rotate", Some(&t), json!({})).await;
        assert_eq!(s, StatusCode::OK, "{b}");
    }
    let (s, b) = app.post("/api/v1/fair/rotate", Some(&t), json!({})).await;
    assert_error(s, &b, 429, "rate_limited");
    let (s, b) = app.put("/api/v1/fair/client-seed", Some(&t), json!({"clientSeed": "abc"})).await;
    assert_error(s, &b, 429, "rate_limited");
    let (n,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM fair_seeds WHERE user_id = $1").bind(930_061_i64).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(n, 4, "one seed at sign-in and three rotations");
    // Invoice links and shares share the Telegram budget.
    let (_, packs) = app.get("/api/v1/payments/packages", Some(&t)).await;
    let pack = packs["data"][0]["id"].as_str().unwrap().to_owned();
    let invoice = json!({ "pack_id": pack, "telegram_id": 930_061, "init_data": app.init_data(930_061, "Rot", None) });
    for _ in 0..2 {
        let (s, b) = app.post("/api/v1/payments/create-invoice-link", Some(&t), invoice.clone()).await;
        assert_eq!(s, StatusCode::OK, "{b}");
    }
    let (s, b) = app.post("/api/v1/payments/create-invoice-link", Some(&t), invoice.clone()).await;
    assert_error(s, &b, 429, "rate_limited");
    let (s, b) = app.post("/api/v1/savePreparedInlineMessage", Some(&t), json!({"item_id": 1})).await;
    assert_error(s, &b, 429, "rate_limited");
    // Another player has a budget of their own; reads are never limited.
    let other = app.sign_in(930_062, "Other").await;
    let (s, _) = app.post("/api/v1/fair/rotate", Some(&other), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    for _ in 0..20 {
        let (s, _) = app.get("/api/v1/fair", Some(&t)).await;
        assert_eq!(s, StatusCode::OK);
    }
    app.stop().await;
}

#[tokio::test]
async fn a_long_ticket_reaches_the_admins_in_ordered_parts_without_control_characters() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(930_071, "Long").await;
    let title = format!("T{}", "t".repeat(119));
    // 3996 characters and 4 that are stripped: 4000 as sent, the most a message may have.
    let body: String = (0..3996).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    let mut message = body.clone();
    message.insert_str(10, "\u{202E}\u{0000}\u{2066}\u{0007}");
    let (s, b) = app.post("/api/v1/support/tickets", Some(&t), json!({"theme": "bug", "title": title, "message": message})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let id = b["ticket"]["id"].as_i64().unwrap();
    // Stored as cleaned text.
    let (_, msgs) = app.get(&format!("/api/v1/support/tickets/{id}/messages"), Some(&t)).await;
    assert_eq!(msgs[0]["message"], json!(body), "control and bidi characters are stripped");
    // Two parts to the admin, each within Telegram's limit, in order, together the whole text.
    let sent = app.fake().wait_calls("sendMessage", 2).await;
    let parts: Vec<String> =
        sent.iter().filter(|m| m["chat_id"] == json!(ADMIN_ID)).map(|m| m["text"].as_str().unwrap().to_owned()).collect();
    assert_eq!(parts.len(), 2, "{parts:?}");
    for p in &parts {
        assert!(p.encode_utf16().count() <= 4096, "a part of {} units", p.encode_utf16().count());
    }
    let whole = parts.concat();
    assert!(whole.starts_with(&format!("🆕 Ticket #{id}")), "{whole}");
    assert!(whole.contains(&title) && whole.contains(&body), "the parts lost or reordered text");
    // A reply to either part answers the ticket. (Each part is recorded right after Telegram
    // took it: poll for the second record.)
    let mut n = 0;
    for _ in 0..600 {
        (n,) =
            sqlx::query_as("SELECT COUNT(*) FROM ticket_forwards WHERE ticket_id = $1").bind(id).fetch_one(&app.domain().db).await.unwrap();
        if n == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(n, 2);
    app.stop().await;
}

#[tokio::test]
async fn the_dev_gate_guards_sign_in_on_the_server() {
    let clock = Arc::new(ManualClock::at(1_800_000_000));
    let mut opts = limited(&[("DEV_GATE_PASSWORD", "s3cret"), ("RATE_LIMIT_DEV_GATE_IP", "5/600")]);
    opts.clock = Some(clock.clone());
    let app = TestApp::start(opts).await;
    let (s, b) = app.get("/api/v1/dev/init-data", None).await;
    assert_error(s, &b, 403, "dev_gate_required");
    let init = app.init_data(930_081, "Dev", None);
    let (s, b) = app.post("/api/v1/auth", None, json!({ "initData": init })).await;
    assert_error(s, &b, 403, "dev_gate_required");

    let (s, b) = app.post("/api/v1/dev-gate", None, json!({"password": "s3cret"})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["success"], json!(true));
    let proof = b["proof"].as_str().unwrap().to_owned();
    assert_eq!(b["expiresAt"], json!(1_800_000_000 + 3600));
    let gated = |req: reqwest::RequestBuilder, p: &str| req.header("X-Dev-Gate", p.to_owned());
    let (s, d) = read(gated(app.http.get(format!("{}/api/v1/dev/init-data", app.base)), &proof).send().await.unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{d}");
    let (s, a) = read(
        gated(app.http.post(format!("{}/api/v1/auth", app.base)), &proof).json(&json!({"initData": d["initData"]})).send().await.unwrap(),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{a}");

    // A forged or altered proof is refused; so is one past its hour.
    let forged = format!("{}.{}", 1_800_000_000 + 3600, "00".repeat(32));
    let later = proof.replacen("1800003600", "1800007200", 1);
    for bad in [forged.as_str(), later.as_str(), "", "nonsense"] {
        let (s, b) = read(gated(app.http.get(format!("{}/api/v1/dev/init-data", app.base)), bad).send().await.unwrap()).await;
        assert_error(s, &b, 403, "dev_gate_required");
    }
    clock.advance(3601);
    let (s, b) = read(gated(app.http.get(format!("{}/api/v1/dev/init-data", app.base)), &proof).send().await.unwrap()).await;
    assert_error(s, &b, 403, "dev_gate_required");

    // Guessing is limited per address: 1 right + 4 wrong, then 429 even for the right one.
    for _ in 0..4 {
        let (s, b) = app.post("/api/v1/dev-gate", None, json!({"password": "guess"})).await;
        assert_error(s, &b, 403, "wrong_password");
    }
    let (s, b) = app.post("/api/v1/dev-gate", None, json!({"password": "guess"})).await;
    assert_error(s, &b, 429, "rate_limited");
    app.stop().await;
}

#[tokio::test]
async fn the_public_card_needs_the_owners_code_and_a_showable_item() {
    let app = TestApp::demo().await;
    let t = app.player_with(930_091, 1000).await;
    let (_, me) = app.get("/api/v1/me", Some(&t)).await;
    let code = me["data"]["ref"].as_str().unwrap().to_owned();
    let (_, o1) = app.post(open_path(), Some(&t), json!({})).await;
    let (_, o2) = app.post(open_path(), Some(&t), json!({})).await;
    let (kept, sold) = (o1["item"]["id"].as_i64().unwrap(), o2["item"]["id"].as_i64().unwrap());
    // Not shared yet: the owner's invite code alone walks none of their skins.
    let (s, b) = app.get(&format!("/api/v1/items/{kept}/public?ref={code}"), None).await;
    assert_error(s, &b, 404, "item_not_found");
    app.share(&t, kept).await;
    app.share(&t, sold).await;
    let (s, b) = app.get(&format!("/api/v1/items/{kept}/public?ref={code}"), None).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["item"]["id"], json!(kept));
    // Walking ids without the code, or with another player's code, finds nothing.
    let other = app.sign_in(930_092, "Walker").await;
    let (_, them) = app.get("/api/v1/me", Some(&other)).await;
    let their_code = them["data"]["ref"].as_str().unwrap().to_owned();
    for path in [format!("/api/v1/items/{kept}/public?ref={their_code}"), format!("/api/v1/items/{kept}/public?ref=")] {
        let (s, b) = app.get(&path, None).await;
        assert_error(s, &b, 404, "item_not_found");
    }
    let (s, b) = app.get(&format!("/api/v1/items/{kept}/public"), None).await;
    assert_error(s, &b, 400, "bad_request");
    // A sold item is gone from the card.
    let (s, _) = app.post("/api/v1/sales/sell", Some(&t), json!({"item_id": sold})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, b) = app.get(&format!("/api/v1/items/{sold}/public?ref={code}"), None).await;
    assert_error(s, &b, 404, "item_not_found");
    // Withdrawing the sold item answers as selling it again does: the player's, not available.
    let url = "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc";
    let (s, b) = app.post(&format!("/api/v1/user/item/{sold}/request-withdrawal"), Some(&t), json!({"trade_url": url})).await;
    assert_error(s, &b, 409, "item_not_available");
    let (s, b) = app.post("/api/v1/sales/sell", Some(&t), json!({"item_id": sold})).await;
    assert_error(s, &b, 409, "item_not_available");
    app.stop().await;
}

#[tokio::test]
async fn the_bot_shows_a_shared_skin_only_with_its_owners_code() {
    use crate::fake_bot_api::text_update;
    use crate::payments::wait_message;
    let app = TestApp::with_bot().await;
    let owner = app.sign_in(930_101, "Vika").await;
    let (_, me) = app.get("/api/v1/me", Some(&owner)).await;
    let code = me["data"]["ref"].as_str().unwrap().to_owned();
    app.grant(930_101, cheap_case_price() / 100).await;
    let (_, opened) = app.post(open_path(), Some(&owner), json!({})).await;
    let item = opened["item"]["id"].as_i64().unwrap();
    let name = opened["item"]["marketHashName"].as_str().unwrap().to_owned();
    // A walked id with a wrong code: no card.
    app.fake().push_update(text_update(930_102, "Walt", "en", &format!("/start item_{item}_refWRONG")));
    let missing: Value = wait_message(&app, 930_102, "").await;
    assert!(!missing["text"].as_str().unwrap().contains(&name), "{missing}");
    // Sold: no card either, even with the right code.
    let (s, _) = app.post("/api/v1/sales/sell", Some(&owner), json!({"item_id": item})).await;
    assert_eq!(s, StatusCode::OK);
    app.fake().push_update(text_update(930_103, "Wen", "en", &format!("/start item_{item}_ref{code}")));
    let gone: Value = wait_message(&app, 930_103, "").await;
    assert!(!gone["text"].as_str().unwrap().contains(&name), "{gone}");
    app.stop().await;
}
