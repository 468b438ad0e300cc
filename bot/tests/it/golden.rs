//! Golden answers: one fixed scenario through the real router over HTTP, calling every route of
//! `/api/v1` the mini app uses, each answer compared with a committed file in `golden/`. What is
//! legitimately variable (ids, timestamps, tokens, seeds, hashes, drawn skins) is replaced by a
//! placeholder by key name; every key and the shape stay. `GOLDEN_UPDATE=1` rewrites the files.
//!
//! The answers are the wire contract: a change to how a handler builds its body must leave these
//! files as they are.
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{json, Map, Value};
use webapp_api::domain::admin::Actor;
use webapp_api::domain::clock::ManualClock;
use webapp_api::domain::promo::{self, NewPromo};
use webapp_api::domain::{settings, Tokens};

use crate::common::*;

/// 2027-01-15T08:00:00Z: a fixed clock, so days and streaks are the same on every run.
const NOW: i64 = 1_799_999_200;

/// Keys whose values vary from run to run but keep their JSON type.
fn masked(key: &str) -> bool {
    key == "id"
        || key == "token"
        || key == "proof"
        || key == "ref"
        || key == "initData"
        || key == "roll"
        || key.ends_with("Id")
        || key.ends_with("_id")
        || key.ends_with("At")
        || key.ends_with("_at")
        || key.ends_with("_link")
        || key.ends_with("Link")
        || key == "until"
        || key.to_ascii_lowercase().contains("seed")
        || key.to_ascii_lowercase().contains("hash") && key != "marketHashName"
}

/// Keys whose values come from the draw (which skin, its float, its price, and every balance or
/// total that follows from it): in answers that show drawn skins, any value stands.
const DRAWN: &[&str] = &[
    "name",
    "variant",
    "iconUrl",
    "image",
    "marketHashName",
    "tokenPrice",
    "rarity",
    "condition",
    "weaponId",
    "float",
    "exterior",
    "statTrak",
    "special",
    "wearMin",
    "wearMax",
    "balance",
    "tokensAwarded",
    "tokensWonBack",
    "won",
    "wonValue",
    "net",
    "bestDrop",
    "roll",
];

fn type_placeholder(v: &Value) -> Value {
    json!(match v {
        Value::Null => "~null",
        Value::Bool(_) => "~bool",
        Value::Number(_) => "~number",
        Value::String(_) => "~string",
        Value::Array(_) => "~array",
        Value::Object(_) => "~object",
    })
}

/// How much of an answer is compared.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Every value but the masked keys.
    Exact,
    /// As `Exact`, and the drawn skin's values (`DRAWN`) stand for any value.
    Drawn,
    /// The catalog's data (prices, odds, names change with every reprice): keys and JSON types
    /// only, and of a list its first element.
    Shape,
}
use Mode::*;

struct Normalise<'a> {
    mode: Mode,
    /// Strings met inside values (a referral code inside a link) and what stands for them.
    secrets: &'a [(String, &'static str)],
}

impl Normalise<'_> {
    fn value(&self, key: Option<&str>, v: &Value) -> Value {
        if let Some(k) = key {
            if self.mode == Drawn && DRAWN.contains(&k) {
                return match v {
                    Value::Object(_) | Value::Array(_) => self.walk(v),
                    _ => json!("~"),
                };
            }
            if masked(k) && !v.is_object() && !v.is_array() {
                return type_placeholder(v);
            }
        }
        self.walk(v)
    }

    fn walk(&self, v: &Value) -> Value {
        match v {
            Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), self.value(Some(k), v))).collect::<Map<_, _>>()),
            Value::Array(a) if self.mode == Shape => Value::Array(a.iter().take(1).map(|v| self.value(None, v)).collect()),
            Value::Array(a) => Value::Array(a.iter().map(|v| self.value(None, v)).collect()),
            _ if self.mode == Shape => type_placeholder(v),
            Value::String(s) => {
                let mut s = s.clone();
                for (secret, stand_in) in self.secrets {
                    if !secret.is_empty() {
                        s = s.replace(secret.as_str(), stand_in);
                    }
                }
                Value::String(s)
            }
            other => other.clone(),
        }
    }
}

fn golden_dir() -> PathBuf {
    repo_root().join("bot/tests/it/golden")
}

/// Collects each answer, compares it with its file (or rewrites it), and reports every
/// difference at the end.
struct Book {
    update: bool,
    seen: BTreeSet<String>,
    failures: Vec<String>,
    secrets: Vec<(String, &'static str)>,
}

impl Book {
    fn new() -> Book {
        Book { update: std::env::var("GOLDEN_UPDATE").is_ok_and(|v| v == "1"), seen: BTreeSet::new(), failures: vec![], secrets: vec![] }
    }

    fn record(&mut self, name: &str, status: StatusCode, body: &Value, mode: Mode) {
        assert!(self.seen.insert(name.to_owned()), "{name} recorded twice");
        let body = Normalise { mode, secrets: &self.secrets }.walk(body);
        let answer = json!({ "status": status.as_u16(), "body": body });
        let text = serde_json::to_string_pretty(&answer).unwrap() + "\n";
        let path = golden_dir().join(format!("{name}.json"));
        if self.update {
            std::fs::create_dir_all(golden_dir()).unwrap();
            std::fs::write(&path, text).unwrap();
            return;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == text => {}
            Ok(expected) => self.failures.push(format!("{name}: the answer changed\n--- expected\n{expected}\n--- got\n{text}")),
            Err(_) => self.failures.push(format!("{name}: no golden file {} (run with GOLDEN_UPDATE=1)", path.display())),
        }
    }

    fn finish(self) {
        if !self.update {
            // A golden file no call answered any more is a route the scenario lost.
            for entry in std::fs::read_dir(golden_dir()).unwrap() {
                let file = entry.unwrap().file_name().into_string().unwrap();
                let name = file.trim_end_matches(".json");
                assert!(self.seen.contains(name), "golden/{file} is answered by no call of the scenario");
            }
        }
        assert!(self.failures.is_empty(), "{} answers differ from their golden files:\n{}", self.failures.len(), self.failures.join("\n"));
    }
}

async fn raw_post(app: &TestApp, path: &str, token: Option<&str>, content_type: &str, body: &'static str) -> (StatusCode, Value) {
    let mut req = app.http.post(format!("{}{path}", app.base)).header("content-type", content_type).body(body);
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    read(req.send().await.unwrap()).await
}

async fn patch(app: &TestApp, path: &str, token: Option<&str>) -> (StatusCode, Value) {
    let mut req = app.http.patch(format!("{}{path}", app.base)).json(&json!({}));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    read(req.send().await.unwrap()).await
}

#[tokio::test]
async fn every_route_answers_the_same_bodies_as_its_golden_file() {
    let clock = Arc::new(ManualClock::at(NOW));
    let app = TestApp::start(Options { clock: Some(clock.clone()), ..Options::default() }).await;
    let mut book = Book::new();
    let case = cheap_case();
    let open = open_path();

    // Public, before sign-in.
    let (s, b) = app.get("/api/v1/status", None).await;
    book.record("status", s, &b, Exact);
    let (s, b) = app.get("/api/v1/config", None).await;
    // The release number moves with every release; the key stays.
    let mut b = b;
    b["version"] = json!("~");
    book.record("config", s, &b, Exact);
    let (s, b) = app.post("/api/v1/dev-gate", None, json!({ "password": "anything" })).await;
    book.record("dev_gate", s, &b, Exact);
    let (s, b) = app.get("/api/v1/dev/init-data", None).await;
    book.record("dev_init_data", s, &b, Exact);
    let (s, b) = app.get("/api/v1/cases", None).await;
    book.record("cases", s, &b, Shape);
    let (s, b) = app.get(&format!("/api/v1/cases/{case}"), None).await;
    book.record("case", s, &b, Shape);

    // Sign-in and the profile.
    const P: i64 = 720_001;
    let init = app.init_data(P, "Golden", None);
    let (s, b) = app.post("/api/v1/auth", None, json!({ "initData": init })).await;
    let t = b["token"].as_str().unwrap().to_owned();
    let code = b["user"]["ref"].as_str().unwrap_or_default().to_owned();
    book.secrets.push((t.clone(), "<token>"));
    book.secrets.push((code.clone(), "<ref>"));
    book.record("auth", s, &b, Exact);
    let t = t.as_str();
    let (s, b) = app.get("/api/v1/me", Some(t)).await;
    book.record("me", s, &b, Exact);
    let (s, b) = app.put("/api/v1/user/settings", Some(t), json!({ "language": "en" })).await;
    book.record("user_settings", s, &b, Exact);
    let (s, b) = app.get("/api/v1/user/trade-url", Some(t)).await;
    book.record("trade_url_none", s, &b, Exact);
    let url = "https://steamcommunity.com/tradeoffer/new/?partner=123&token=abc";
    let (s, b) = app.put("/api/v1/user/trade-url", Some(t), json!({ "tradeUrl": url })).await;
    book.record("trade_url_set", s, &b, Exact);
    let (s, b) = app.get("/api/v1/user/check-agreements", Some(t)).await;
    book.record("check_agreements", s, &b, Exact);
    let (s, b) = app.post("/api/v1/user/agreements", Some(t), json!({ "adult": true })).await;
    book.record("agreements", s, &b, Exact);

    // Settings of the feed and of responsible play.
    let (s, b) = app.get("/api/v1/settings/feed", Some(t)).await;
    book.record("feed_settings", s, &b, Exact);
    let (s, b) = app.put("/api/v1/settings/feed", Some(t), json!({ "hideName": true })).await;
    book.record("feed_settings_set", s, &b, Exact);
    let (s, b) = app.get("/api/v1/me/limits", Some(t)).await;
    book.record("limits", s, &b, Exact);
    let (s, b) = app.put("/api/v1/me/limits", Some(t), json!({ "dailyLimit": 100000 })).await;
    book.record("limits_set", s, &b, Exact);

    // Fairness before any open.
    let (s, b) = app.get("/api/v1/fair", Some(t)).await;
    book.record("fair", s, &b, Exact);
    let (s, b) = app.put("/api/v1/fair/client-seed", Some(t), json!({ "clientSeed": "golden-seed" })).await;
    book.record("fair_client_seed", s, &b, Exact);
    let (s, b) = app.post("/api/v1/fair/rotate", Some(t), json!({})).await;
    book.record("fair_rotate", s, &b, Exact);

    // Money: a paid grant, packages and a demo payment.
    app.grant(P, 2_000).await;
    let (s, b) = app.get("/api/v1/payments/packages", Some(t)).await;
    book.record("packages", s, &b, Exact);
    let pack = b["data"][0]["id"].as_str().unwrap().to_owned();
    let invoice = json!({ "pack_id": pack, "telegram_id": P, "init_data": app.init_data(P, "Golden", None) });
    let (s, b) = app.post("/api/v1/payments/create-invoice-link", Some(t), invoice).await;
    book.record("invoice", s, &b, Exact);
    let tx = b["transaction_id"].as_str().unwrap().to_owned();
    let (s, b) = app.get(&format!("/api/v1/payments/transaction-status/{tx}"), Some(t)).await;
    book.record("transaction_status_pending", s, &b, Exact);
    let (s, b) = app.post(&format!("/api/v1/dev/pay/{tx}"), Some(t), json!({})).await;
    book.record("demo_pay", s, &b, Exact);

    // Opens: one, then three at once.
    let (s, b) = app.post(open, Some(t), json!({ "requestId": "golden-1" })).await;
    book.record("open_one", s, &b, Drawn);
    let first = b["item"]["id"].as_i64().unwrap();
    let answered = b;
    let (s, b) = app.post(open, Some(t), json!({ "requestId": "golden-1" })).await;
    book.record("open_one_replayed", s, &b, Drawn);
    // The edge writes a new open's body; the domain stores its own copy for a replay: the two
    // must be the same, value for value.
    assert_eq!(b, answered, "a replay answers exactly the first answer");
    let (s, b) = app.post(open, Some(t), json!({ "requestId": "golden-3", "count": 3 })).await;
    book.record("open_three", s, &b, Drawn);
    let (_, again) = app.post(open, Some(t), json!({ "requestId": "golden-3", "count": 3 })).await;
    assert_eq!(again, b, "a replay of several answers exactly the first answer");
    let third = b["items"][1]["item"]["id"].as_i64().unwrap();
    let fourth = b["items"][2]["item"]["id"].as_i64().unwrap();
    let (s, b) = app.get("/api/v1/fair/opens", Some(t)).await;
    book.record("fair_opens", s, &b, Shape);
    // Seeds of our own: the recomputed draw is the same on every run.
    let (s, b) = app.get(&format!("/api/v1/fair/verify?server_seed=golden&client_seed=golden-seed&nonce=0&case_id={case}"), None).await;
    book.record("fair_verify", s, &b, Shape);

    // The inventory.
    let (s, b) = app.get("/api/v1/user/items", Some(t)).await;
    book.record("items", s, &b, Drawn);
    let (s, b) = app.get(&format!("/api/v1/user/item/{first}"), Some(t)).await;
    book.record("item", s, &b, Drawn);
    let (s, b) = app.post("/api/v1/savePreparedInlineMessage", Some(t), json!({ "item_id": first })).await;
    book.record("share", s, &b, Exact);
    let (s, b) = app.get(&format!("/api/v1/items/{first}/public?ref={code}"), None).await;
    book.record("public_item", s, &b, Drawn);
    let (s, b) = app.post("/api/v1/sales/sell", Some(t), json!({ "item_id": third })).await;
    book.record("sell", s, &b, Drawn);
    let (s, b) = app.post(&format!("/api/v1/user/item/{fourth}/request-withdrawal"), Some(t), json!({ "trade_url": url })).await;
    book.record("withdraw", s, &b, Drawn);

    // Rewards and referrals.
    let (s, b) = app.get("/api/v1/daily-reward/check", Some(t)).await;
    book.record("daily_check", s, &b, Exact);
    let (s, b) = app.get("/api/v1/daily-reward/streak", Some(t)).await;
    book.record("daily_streak", s, &b, Exact);
    let (s, b) = app.post("/api/v1/daily-reward/claim", Some(t), json!({})).await;
    book.record("daily_claim", s, &b, Drawn);
    let (s, b) = app.post("/api/v1/daily-reward/claim-streak-bonus", Some(t), json!({})).await;
    book.record("daily_streak_bonus", s, &b, Drawn);
    let (s, b) = app.post("/api/v1/subscription/check-subscription", Some(t), json!({})).await;
    book.record("subscription", s, &b, Drawn);
    let friend = app.sign_in_with(720_002, "Friend", Some(&format!("ref_{code}"))).await;
    book.secrets.push((friend.clone(), "<token>"));
    app.grant(720_002, 100).await;
    let (s, b) = app.post(open, Some(&friend), json!({})).await;
    book.record("open_by_invitee", s, &b, Drawn);
    let (s, b) = app.get("/api/v1/user/referrals", Some(t)).await;
    book.record("referrals", s, &b, Exact);

    // A promo code.
    promo::create(
        app.domain(),
        Actor::Cli,
        NewPromo { code: "GOLDEN".into(), tokens: Tokens::whole(5), uses: 10, days: None, deposit_only: false },
    )
    .await
    .unwrap();
    let (s, b) = app.post("/api/v1/promo/redeem", Some(t), json!({ "code": "GOLDEN" })).await;
    book.record("promo_redeem", s, &b, Drawn);

    // Support.
    let (s, b) =
        app.post("/api/v1/support/tickets", Some(t), json!({ "theme": "bug", "title": "Roulette", "message": "It spun twice" })).await;
    book.record("ticket_create", s, &b, Exact);
    let ticket = b["ticket"]["id"].as_i64().unwrap();
    let (s, b) = app.get("/api/v1/support/tickets", Some(t)).await;
    book.record("tickets", s, &b, Exact);
    let (s, b) = app.get(&format!("/api/v1/support/tickets/{ticket}"), Some(t)).await;
    book.record("ticket", s, &b, Exact);
    let (s, b) = app.post(&format!("/api/v1/support/tickets/{ticket}/messages"), Some(t), json!({ "message": "And again" })).await;
    book.record("ticket_reply", s, &b, Exact);
    let (s, b) = app.get(&format!("/api/v1/support/tickets/{ticket}/messages"), Some(t)).await;
    book.record("ticket_messages", s, &b, Exact);
    let (s, b) = app.post(&format!("/api/v1/support/tickets/{ticket}/close"), Some(t), json!({})).await;
    book.record("ticket_close", s, &b, Exact);

    // Own statistics, after the opens.
    let (s, mut b) = app.get("/api/v1/me/stats", Some(t)).await;
    // Which skin was the best drop (kept, sold or on its way out) is the draw's.
    b["data"]["bestDrop"]["status"] = json!("~");
    book.record("stats", s, &b, Drawn);
    let (s, b) = app.get("/api/v1/me", Some(t)).await;
    book.record("me_after", s, &b, Drawn);

    // Refusals, each in the common error shape (texts in Russian, the default).
    let (s, b) = app.get("/api/v1/me", None).await;
    book.record("error_unauthorized", s, &b, Exact);
    let (s, b) = app.get("/api/v1/fair/opens?page=0", Some(t)).await;
    book.record("error_bad_request", s, &b, Exact);
    let (s, b) = app.get("/api/v1/cases/no-such-case", None).await;
    book.record("error_case_not_found", s, &b, Exact);
    let (s, b) = app.get("/api/v1/no/such/route", None).await;
    book.record("error_not_found", s, &b, Exact);
    let (s, b) = patch(&app, "/api/v1/me", Some(t)).await;
    book.record("error_method_not_allowed", s, &b, Exact);
    let (s, b) = raw_post(&app, open, Some(t), "text/plain", "{}").await;
    book.record("error_unsupported_media_type", s, &b, Exact);
    let (s, b) = raw_post(&app, open, Some(t), "application/json", "{not json").await;
    book.record("error_malformed_json", s, &b, Exact);
    let (s, b) =
        app.post(&format!("/api/v1/user/item/{first}/request-withdrawal"), Some(t), json!({ "trade_url": "https://example.com" })).await;
    book.record("error_invalid_trade_url", s, &b, Exact);
    let poor = app.sign_in(720_003, "Poor").await;
    book.secrets.push((poor.clone(), "<token>"));
    let (s, b) = app.post(&format!("/api/v1/cases/{}/open", dear_case()), Some(&poor), json!({ "count": 5 })).await;
    book.record("error_insufficient_tokens", s, &b, Exact);
    let (s, b) = app.put("/api/v1/me/limits", Some(&poor), json!({ "dailyLimit": 1 })).await;
    book.record("limits_lowered", s, &b, Exact);
    let (s, b) = app.post(open, Some(&poor), json!({})).await;
    book.record("error_spend_limit", s, &b, Exact);
    let (s, b) = app.post("/api/v1/me/self-exclusion", Some(&poor), json!({ "period": "24h" })).await;
    book.record("self_exclusion", s, &b, Exact);
    let (s, b) = app.post(open, Some(&poor), json!({})).await;
    book.record("error_self_excluded", s, &b, Exact);
    settings::set_maintenance(app.domain(), true).await.unwrap();
    let (s, b) = app.get("/api/v1/status", None).await;
    book.record("status_maintenance", s, &b, Exact);
    let (s, b) = app.post(open, Some(t), json!({})).await;
    book.record("error_maintenance", s, &b, Exact);
    settings::set_maintenance(app.domain(), false).await.unwrap();
    let (s, b) = app.post("/api/v1/auth/logout", Some(t), json!({})).await;
    book.record("logout", s, &b, Exact);
    let (s, b) = app.get("/api/v1/me", Some(t)).await;
    book.record("error_after_logout", s, &b, Exact);
    app.stop().await;

    // Rate limits are off in the other apps; this one limits seed rotations to one in ten minutes.
    let limited = TestApp::start(Options {
        clock: Some(clock),
        env: vec![("RATE_LIMITS", "on".into()), ("RATE_LIMIT_FAIR_USER", "1/600".into())],
        ..Options::default()
    })
    .await;
    let t = limited.sign_in(720_004, "Hasty").await;
    book.secrets.push((t.clone(), "<token>"));
    let (s, b) = limited.post("/api/v1/fair/rotate", Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let (s, b) = limited.post("/api/v1/fair/rotate", Some(&t), json!({})).await;
    book.record("error_rate_limited", s, &b, Exact);
    limited.stop().await;

    book.finish();
}
