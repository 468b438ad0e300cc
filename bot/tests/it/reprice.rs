//! Prices follow the market: `fragbox catalog reprice` against a fake Skinport on 127.0.0.1 that
//! speaks the real wire format (`GET /v1/items?app_id=730&currency=USD&tradable=1`, a JSON array
//! Brotli-encoded with `Content-Encoding: br`) and can be told to fail, stall or talk nonsense.
use std::io::Write;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use webapp_api::domain::goods;
use webapp_api::domain::pricing::{self, skinport::Skinport, Settings};
use webapp_api::domain::{store, Tokens};

use crate::common::*;

/// What the fake answers.
#[derive(Clone)]
enum Answer {
    /// These items, Brotli-encoded.
    Items(Vec<Value>),
    Status(u16),
    /// Answers only after this long.
    Stall(Duration),
    /// A Brotli body that is not JSON.
    Garbage,
}

#[derive(Default)]
struct Seen {
    queries: Vec<String>,
    user_agents: Vec<String>,
}

#[derive(Clone)]
struct FakeSkinport {
    url: String,
    answer: Arc<Mutex<Answer>>,
    seen: Arc<Mutex<Seen>>,
}

impl FakeSkinport {
    async fn start() -> FakeSkinport {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/v1/items", listener.local_addr().unwrap());
        let fake = FakeSkinport { url, answer: Arc::new(Mutex::new(Answer::Items(Vec::new()))), seen: Default::default() };
        let app = axum::Router::new().route("/v1/items", axum::routing::get(items)).with_state(fake.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        fake
    }

    fn answer(&self, a: Answer) {
        *self.answer.lock().unwrap() = a;
    }

    fn requests(&self) -> usize {
        self.seen.lock().unwrap().queries.len()
    }
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        w.write_all(bytes).unwrap();
    }
    out
}

async fn items(State(fake): State<FakeSkinport>, RawQuery(q): RawQuery, headers: HeaderMap) -> Response {
    {
        let mut seen = fake.seen.lock().unwrap();
        seen.queries.push(q.unwrap_or_default());
        seen.user_agents.push(headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned());
    }
    let answer = fake.answer.lock().unwrap().clone();
    let body = match answer {
        Answer::Items(items) => serde_json::to_vec(&items).unwrap(),
        Answer::Status(s) => return (StatusCode::from_u16(s).unwrap(), "{\"errors\":[{\"id\":\"internal\"}]}").into_response(),
        Answer::Stall(d) => {
            tokio::time::sleep(d).await;
            b"[]".to_vec()
        }
        Answer::Garbage => b"<html>rate limited</html>".to_vec(),
    };
    ([(header::CONTENT_TYPE, "application/json; charset=utf-8"), (header::CONTENT_ENCODING, "br")], brotli(&body)).into_response()
}

/// Every variant of the committed catalog: (variant key, Steam name, committed default).
fn variants() -> Vec<(String, String, Tokens)> {
    let mut out = Vec::new();
    for item in &repo_catalog().items {
        for vp in &item.prices {
            out.push((vp.variant.key(&item.id), goods::market_hash_name(item, vp.variant.stat_trak, vp.variant.exterior), vp.price));
        }
    }
    out
}

/// A Skinport item priced `tokens` at 100 tokens per US dollar.
fn item(name: &str, tokens: Tokens) -> Value {
    // 100 tokens per US dollar: a price of P hundredths of a token is P / 10 000 dollars.
    let dollars = tokens.0 as f64 / 10_000.0;
    json!({"market_hash_name": name, "currency": "USD", "suggested_price": dollars * 1.1, "item_page": "https://skinport.com/item/x",
           "market_page": "https://skinport.com/market?item=x", "min_price": dollars, "max_price": dollars * 3.0,
           "mean_price": dollars * 1.5, "median_price": dollars * 1.2, "quantity": 7, "created_at": 1_600_000_000, "updated_at": 1_700_000_000})
}

/// The feed pricing every variant at `f(key, default)`.
fn feed(f: impl Fn(&str, Tokens) -> Option<Tokens>) -> Vec<Value> {
    variants().iter().filter_map(|(key, name, default)| f(key, *default).map(|p| item(name, p))).collect()
}

/// Runs the `fragbox` binary on the app's shop with the feed at `fake`.
async fn fragbox(app: &TestApp, fake: &FakeSkinport, args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let mut envs: Vec<(String, String)> = vec![
        ("DATABASE_URL".into(), app.db_url()),
        ("CATALOG_DIR".into(), repo_root().join("data/catalog").display().to_string()),
        ("PRICE_FEED_URL".into(), fake.url.clone()),
        ("PRICE_FEED_TIMEOUT_MS".into(), "10000".into()),
    ];
    envs.extend(env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_fragbox")).args(&args).envs(envs).env_remove("TELEGRAM_BOT_TOKEN").output().expect("run fragbox")
    })
    .await
    .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

async fn stored(app: &TestApp) -> std::collections::HashMap<String, Tokens> {
    goods::stored_prices(&app.domain().db).await.unwrap()
}

async fn history_rows(app: &TestApp) -> i64 {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM catalog_price_history").fetch_one(&app.domain().db).await.unwrap();
    n
}

fn doubled(_: &str, p: Tokens) -> Option<Tokens> {
    Some(Tokens(p.0 * 2))
}

#[tokio::test]
async fn a_reprice_sets_every_variant_and_prices_cases_for_a_ninety_percent_return() {
    let app = TestApp::demo().await;
    let fake = FakeSkinport::start().await;
    let (_, ready) = app.get("/readyz", None).await;
    assert_eq!(ready["prices"], "never repriced", "{ready}");

    fake.answer(Answer::Items(feed(doubled)));
    let (code, out) = fragbox(&app, &fake, &["catalog", "reprice"], &[]).await;
    assert_eq!(code, 0, "{out}");

    // One request, Skinport's query, with a User-Agent.
    assert_eq!(fake.requests(), 1);
    let seen = fake.seen.lock().unwrap().queries[0].clone();
    assert_eq!(seen, "app_id=730&currency=USD&tradable=1");
    assert!(fake.seen.lock().unwrap().user_agents[0].starts_with("fragbox/"));
    // Every variant at the feed's price (min_price × 100 tokens per dollar), each with a history row.
    let prices = stored(&app).await;
    for (key, _, default) in variants() {
        assert_eq!(prices.get(&key), Some(&Tokens(default.0 * 2)), "{key}");
    }
    assert_eq!(history_rows(&app).await, variants().len() as i64);
    // Case prices follow at RTP 0.90 (± the rounding to whole tokens), about twice the defaults.
    let served = pricing::served_catalog(&app.domain().db, &repo_root().join("data/catalog"), 9000).await.unwrap();
    for case in &served.cases {
        let before = repo_catalog().case(&case.id).unwrap().price;
        assert!((8950..=9050).contains(&served.rtp_bp(case)), "{} {}", case.id, served.rtp_bp(case));
        assert!((before.0 * 2 - case.price.0).abs() <= 200, "{}: {before} -> {}", case.id, case.price);
    }
    let (_, ready) = app.get("/readyz", None).await;
    assert_eq!(ready["prices"], "market", "{ready}");
    assert!(ready["repricedAt"].as_str().is_some_and(|t| t.ends_with('Z')), "{ready}");
    // `catalog check` reads the stored prices of the shop: every case stays in the band, and the
    // smallest package (146 tokens) no longer pays for the cheapest case at twice its price.
    let (code, out) = fragbox(&app, &fake, &["catalog", "check"], &[]).await;
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("catalog refused: the smallest package cannot open the cheapest case"), "{out}");
    app.stop().await;
}

#[tokio::test]
async fn a_broken_feed_changes_nothing() {
    let app = TestApp::demo().await;
    let fake = FakeSkinport::start().await;
    // A first good reprice, so there are market prices to keep.
    fake.answer(Answer::Items(feed(doubled)));
    assert_eq!(fragbox(&app, &fake, &["catalog", "reprice"], &[]).await.0, 0);
    let before = stored(&app).await;
    let rows = history_rows(&app).await;

    for (what, answer) in [
        ("500", Answer::Status(500)),
        ("429", Answer::Status(429)),
        ("timeout", Answer::Stall(Duration::from_secs(3))),
        ("garbage", Answer::Garbage),
        ("empty", Answer::Items(Vec::new())),
        ("zeros", Answer::Items(feed(|_, _| Some(Tokens(0))))),
    ] {
        fake.answer(answer);
        let (code, out) = fragbox(&app, &fake, &["catalog", "reprice", "--accept"], &[("PRICE_FEED_TIMEOUT_MS", "500")]).await;
        assert_ne!(code, 0, "{what}: {out}");
        assert!(out.contains("no price changed"), "{what}: {out}");
        assert_eq!(stored(&app).await, before, "{what}");
        assert_eq!(history_rows(&app).await, rows, "{what}");
    }

    // One variant missing, one at zero: both keep their price; the rest move.
    let vs = variants();
    let (missing, zero) = (vs[0].0.clone(), vs[1].0.clone());
    fake.answer(Answer::Items(feed(|k, p| {
        if k == missing {
            None
        } else if k == zero {
            Some(Tokens(0))
        } else {
            Some(Tokens(p.0 * 5 / 2))
        }
    })));
    let (code, out) = fragbox(&app, &fake, &["catalog", "reprice"], &[]).await;
    assert_eq!(code, 0, "{out}");
    let after = stored(&app).await;
    assert_eq!(after[&missing], before[&missing]);
    assert_eq!(after[&zero], before[&zero]);
    assert_eq!(after[&vs[2].0], Tokens(vs[2].2 .0 * 5 / 2));
    app.stop().await;
}

#[tokio::test]
async fn a_variant_the_feed_never_priced_keeps_the_committed_default() {
    let app = TestApp::demo().await;
    let fake = FakeSkinport::start().await;
    let vs = variants();
    let unpriced = vs[3].0.clone();
    fake.answer(Answer::Items(feed(|k, p| (k != unpriced).then_some(Tokens(p.0 * 2)))));
    assert_eq!(fragbox(&app, &fake, &["catalog", "reprice"], &[]).await.0, 0);
    assert!(!stored(&app).await.contains_key(&unpriced));
    let served = pricing::served_catalog(&app.domain().db, &repo_root().join("data/catalog"), 9000).await.unwrap();
    let (id, v) = goods::Variant::parse_key(&unpriced).unwrap();
    assert_eq!(served.item(id).unwrap().price(v.stat_trak, v.exterior), Some(vs[3].2));
    app.stop().await;
}

#[tokio::test]
async fn a_jump_over_three_times_is_held_until_the_operator_accepts_it() {
    let app = TestApp::demo().await;
    let fake = FakeSkinport::start().await;
    let vs = variants();
    let (up, down) = (vs[0].0.clone(), vs[1].0.clone());
    let jumpy = move |k: &str, p: Tokens| {
        Some(if k == up {
            Tokens(p.0 * 4)
        } else if k == down {
            Tokens(p.0 / 4)
        } else {
            p
        })
    };
    fake.answer(Answer::Items(feed(jumpy)));
    let (code, out) = fragbox(&app, &fake, &["catalog", "reprice"], &[]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("HELD") && out.contains("--accept"), "{out}");
    let prices = stored(&app).await;
    assert!(!prices.contains_key(&vs[0].0) && !prices.contains_key(&vs[1].0), "held jumps are not written");
    assert_eq!(prices.get(&vs[2].0), Some(&vs[2].2), "the rest is written");

    let (code, out) = fragbox(&app, &fake, &["catalog", "reprice", "--accept"], &[]).await;
    assert_eq!(code, 0, "{out}");
    let prices = stored(&app).await;
    assert_eq!(prices[&vs[0].0], Tokens(vs[0].2 .0 * 4));
    assert_eq!(prices[&vs[1].0], Tokens(vs[1].2 .0 / 4));
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM catalog_price_history WHERE variant = $1")
        .bind(&vs[0].0)
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    assert_eq!(n, 1);
    app.stop().await;
}

#[tokio::test]
async fn the_daily_run_holds_a_jump_and_tells_the_admins_in_the_bot() {
    let app = TestApp::with_bot().await;
    let fake = FakeSkinport::start().await;
    let vs = variants();
    let up = vs[0].0.clone();
    fake.answer(Answer::Items(feed(move |k, p| Some(if k == up { Tokens(p.0 * 10) } else { p }))));
    let feed = Skinport::new(&fake.url, Duration::from_secs(5)).unwrap();
    let settings = Settings { tokens_per_usd: Tokens(10_000), accept_jumps: false, notify: vec![ADMIN_ID] };
    let stats = crate::payments::say(&app, ADMIN_ID, "/stats", "Stats").await;
    assert!(stats["text"].as_str().unwrap().contains("never repriced"), "{stats}");

    let outcome = pricing::daily_once(app.domain(), &app.domain().catalog, &feed, &settings).await.unwrap().expect("due");
    assert_eq!(outcome.held.len(), 1);
    assert!(!stored(&app).await.contains_key(&vs[0].0));
    // The bot's outbox delivers the notice to the admin's chat.
    let mut told = false;
    for _ in 0..200 {
        told = app.fake().calls("sendMessage").iter().any(|m| {
            m["chat_id"] == json!(ADMIN_ID) && m["text"].as_str().is_some_and(|t| t.contains("reprice --accept") && t.contains(&vs[0].1))
        });
        if told {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(told, "{:?}", app.fake().calls("sendMessage"));
    // Not due again within the day: no second request.
    assert!(pricing::daily_once(app.domain(), &app.domain().catalog, &feed, &settings).await.unwrap().is_none());
    assert_eq!(fake.requests(), 1);
    let stats = crate::payments::say(&app, ADMIN_ID, "/stats", "Prices: market, repriced").await;
    assert!(!stats["text"].as_str().unwrap().contains("never repriced"), "{stats}");
    app.stop().await;
}

#[tokio::test]
async fn one_replica_at_a_time_holds_the_daily_lease() {
    let app = TestApp::demo().await;
    // A name of the test's own: the server's own jobs (the daily run, the feed's upkeep) take
    // theirs whenever they are due, and would make this test race them.
    let name = "test-one-holder";
    let first = store::try_lease(&app.domain().db, name).await.unwrap().expect("free");
    let second = store::try_lease(&app.domain().db, name).await.unwrap();
    // PostgreSQL: the second replica is refused; SQLite: one process serves the file.
    assert_eq!(second.is_none(), on_postgres());
    drop(second);
    first.release().await;
    assert!(store::try_lease(&app.domain().db, name).await.unwrap().is_some());
    app.stop().await;
}

#[tokio::test]
async fn a_return_to_player_outside_the_band_is_refused_naming_the_variable() {
    let app = TestApp::demo().await;
    let fake = FakeSkinport::start().await;
    let (code, out) = fragbox(&app, &fake, &["catalog", "reprice"], &[("CASE_RTP", "0.5")]).await;
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("CASE_RTP"), "{out}");
    assert_eq!(fake.requests(), 0);
    app.stop().await;
}

#[tokio::test]
async fn a_server_started_after_a_reprice_serves_the_market_prices_and_keeps_them() {
    let app = TestApp::demo().await;
    let fake = FakeSkinport::start().await;
    fake.answer(Answer::Items(feed(doubled)));
    assert_eq!(fragbox(&app, &fake, &["catalog", "reprice"], &[]).await.0, 0);
    let prices = stored(&app).await;
    let served = pricing::served_catalog(&app.domain().db, &repo_root().join("data/catalog"), 9000).await.unwrap();

    // The next start: its catalog upsert leaves the market prices alone and its store charges them.
    // (At twice the prices the smallest package no longer opens a case: the operator drops it.)
    let catalog = TempDir::new();
    for f in ["items.json", "cases.json", "prices.json"] {
        std::fs::copy(repo_root().join("data/catalog").join(f), catalog.0.join(f)).unwrap();
    }
    let packages: Value = serde_json::from_str(&std::fs::read_to_string(repo_root().join("data/catalog/packages.json")).unwrap()).unwrap();
    let smallest = packages["packages"].as_array().unwrap().iter().map(|p| p["stars"].as_i64().unwrap()).min().unwrap();
    let kept: Vec<&Value> = packages["packages"].as_array().unwrap().iter().filter(|p| p["stars"].as_i64() != Some(smallest)).collect();
    std::fs::write(catalog.0.join("packages.json"), json!({ "packages": kept }).to_string()).unwrap();
    let env = vec![("DATABASE_URL", app.db_url()), ("CATALOG_DIR", catalog.0.display().to_string())];
    let mut next = TestApp::start(Options { env, ..Options::default() }).await;
    assert_eq!(stored(&next).await, prices);
    let (_, list) = next.get("/api/v1/cases", None).await;
    for c in list["data"].as_array().unwrap() {
        let case = served.case(c["id"].as_str().unwrap()).unwrap();
        assert_eq!(c["tokens"].as_f64(), Some(case.price.0 as f64 / 100.0), "{}", case.id);
    }
    // Not `next.stop()`: the database is the first app's, dropped by its own stop.
    if let Some(r) = next.running.take() {
        r.shutdown().await;
    }
    app.stop().await;
}
