//! Prices follow the market: `fragbox catalog reprice` against a fake Skinport on 127.0.0.1 that
//! speaks the real wire format (`GET /v1/items?app_id=730&currency=USD&tradable=1`, a JSON array
//! Brotli-encoded with `Content-Encoding: br`) and can be told to fail, stall or talk nonsense,
//! and, with a delivery market configured, against the fake market.csgo's price list. Prices that
//! cannot be poisoned: feeds that climb, absurd quotes, unusable stored prices, cases off sale.
use std::io::Write;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use webapp_api::domain::clock::ManualClock;
use webapp_api::domain::goods;
use webapp_api::domain::pricing::{self, skinport::Skinport, Feeds, Settings};
use webapp_api::domain::{store, Tokens};

use crate::common::*;
use crate::fake_market::{FakeMarket, KEY};

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
        ("ADMIN_IDS".into(), ADMIN_ID.to_string()),
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
    let served = pricing::served_catalog(&app.domain().db, &repo_root().join("data/catalog"), 9000, Tokens(10_000)).await.unwrap();
    for case in &served.cases {
        let before = repo_catalog().case(&case.id).unwrap().price;
        let rtp = served.rtp_bp(case).unwrap();
        assert!((8950..=9050).contains(&rtp), "{} {rtp}", case.id);
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
    let served = pricing::served_catalog(&app.domain().db, &repo_root().join("data/catalog"), 9000, Tokens(10_000)).await.unwrap();
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
    let feeds = Feeds { price: Box::new(Skinport::new(&fake.url, Duration::from_secs(5)).unwrap()), cross: None };
    let settings = Settings { tokens_per_usd: Tokens(10_000), accept_jumps: false, notify: vec![ADMIN_ID] };
    let stats = crate::payments::say(&app, ADMIN_ID, "/stats", "Stats").await;
    assert!(stats["text"].as_str().unwrap().contains("never repriced"), "{stats}");

    let outcome = pricing::daily_once(app.domain(), repo_catalog(), &feeds, &settings).await.unwrap().expect("due");
    assert_eq!(outcome.held.len(), 1);
    assert!(!stored(&app).await.contains_key(&vs[0].0));
    // The bot's outbox delivers the notice to the admin's chat.
    let mut told = false;
    for _ in 0..200 {
        told = app.fake().calls("sendMessage").iter().any(|m| {
            m["chat_id"] == json!(ADMIN_ID) && m["text"].as_str().is_some_and(|t| t.contains("catalog accept") && t.contains(&vs[0].1))
        });
        if told {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(told, "{:?}", app.fake().calls("sendMessage"));
    // Not due again within the day: no second request.
    assert!(pricing::daily_once(app.domain(), repo_catalog(), &feeds, &settings).await.unwrap().is_none());
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
    let served = pricing::served_catalog(&app.domain().db, &repo_root().join("data/catalog"), 9000, Tokens(10_000)).await.unwrap();

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

/// Every admin notice queued so far, oldest first.
async fn notices(app: &TestApp) -> Vec<String> {
    let rows: Vec<(String,)> = sqlx::query_as("SELECT payload FROM outbox WHERE channel = 'admin' AND chat_id = $1 ORDER BY id")
        .bind(ADMIN_ID)
        .fetch_all(&app.domain().db)
        .await
        .unwrap();
    rows.into_iter().map(|r| r.0).collect()
}

/// The held changes: (variant, reason, to_price).
async fn held_rows(app: &TestApp) -> Vec<(String, String, Option<i64>)> {
    sqlx::query_as("SELECT variant, reason, to_price FROM catalog_held ORDER BY variant").fetch_all(&app.domain().db).await.unwrap()
}

fn times(k: i64) -> impl Fn(&str, Tokens) -> Option<Tokens> {
    move |_, p| Some(Tokens(p.0 * k))
}

#[tokio::test]
async fn a_feed_that_doubles_every_run_is_held_from_the_second_run_and_told_once() {
    let app = TestApp::demo().await;
    let fake = FakeSkinport::start().await;
    let vs = variants();

    // Run 1: ×2 from the defaults, within ×3: applied, and told (every change is over 25 %).
    fake.answer(Answer::Items(feed(times(2))));
    let (code, out) = fragbox(&app, &fake, &["catalog", "reprice"], &[]).await;
    assert_eq!(code, 0, "{out}");
    assert_eq!(stored(&app).await[&vs[0].0], Tokens(vs[0].2 .0 * 2));
    let told = notices(&app).await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].contains("Applied, over 25 %") && told[0].contains("+100 %"), "{}", told[0]);

    // Runs 2-5: ×4, ×8, ×16, ×32 of the defaults. Each step is ×2 from the run before, but the
    // baseline is the price of 7 days ago (the default): all held, the price stays at ×2.
    for k in [4, 8, 16, 32] {
        fake.answer(Answer::Items(feed(times(k))));
        let (code, out) = fragbox(&app, &fake, &["catalog", "reprice"], &[]).await;
        assert_eq!(code, 0, "×{k}: {out}");
        assert!(out.contains("HELD"), "×{k}: {out}");
        let prices = stored(&app).await;
        for (key, _, default) in &vs {
            assert_eq!(prices[key], Tokens(default.0 * 2), "×{k}: {key}");
        }
    }
    // Told once when first held, not on every run; the held row keeps the latest quote.
    let told = notices(&app).await;
    assert_eq!(told.len(), 2, "{told:?}");
    assert!(told[1].contains("Held, the old prices stay") && told[1].contains("the 7-day baseline"), "{}", told[1]);
    let held = held_rows(&app).await;
    assert_eq!(held.len(), vs.len());
    let first = held.iter().find(|h| h.0 == vs[0].0).unwrap();
    assert_eq!((first.1.as_str(), first.2), ("jump", Some(vs[0].2 .0 * 32)));

    // The operator reviews and accepts one by its Steam name, then all: no request to the feed.
    let requests = fake.requests();
    let (code, out) = fragbox(&app, &fake, &["catalog", "held"], &[]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&vs[0].1) && out.contains("jump"), "{out}");
    let (code, out) = fragbox(&app, &fake, &["catalog", "accept", &vs[0].1], &[]).await;
    assert_eq!(code, 0, "{out}");
    assert_eq!(stored(&app).await[&vs[0].0], Tokens(vs[0].2 .0 * 32));
    assert_eq!(held_rows(&app).await.len(), vs.len() - 1);
    let (code, out) = fragbox(&app, &fake, &["catalog", "accept", "--all"], &[]).await;
    assert_eq!(code, 0, "{out}");
    assert!(held_rows(&app).await.is_empty());
    assert_eq!(fake.requests(), requests, "accepting asks no feed");
    assert!(notices(&app).await.last().unwrap().contains("accepted by an operator"));
    let (code, out) = fragbox(&app, &fake, &["catalog", "accept", "no such skin"], &[]).await;
    assert_ne!(code, 0, "{out}");

    // The accepted price is the new baseline: the same quote again changes nothing.
    let (code, out) = fragbox(&app, &fake, &["catalog", "reprice"], &[]).await;
    assert_eq!(code, 0, "{out}");
    assert!(held_rows(&app).await.is_empty(), "{out}");
    app.stop().await;
}

#[tokio::test]
async fn a_hold_is_told_again_after_seven_days_and_the_baseline_moves_with_the_window() {
    let clock = std::sync::Arc::new(ManualClock::at(1_767_225_600));
    let app = TestApp::start(Options { clock: Some(clock.clone()), ..Options::default() }).await;
    let fake = FakeSkinport::start().await;
    let vs = variants();
    let (a, b) = (vs[0].clone(), vs[1].clone());
    let feeds = Feeds { price: Box::new(Skinport::new(&fake.url, Duration::from_secs(5)).unwrap()), cross: None };
    let settings = Settings { tokens_per_usd: Tokens(10_000), accept_jumps: false, notify: vec![ADMIN_ID] };
    let (ka, kb) = (a.0.clone(), b.0.clone());
    let quote = move |fa: i64, fb: i64| {
        let (ka, kb) = (ka.clone(), kb.clone());
        feed(move |k, p| {
            Some(if k == ka {
                Tokens(p.0 * fa)
            } else if k == kb {
                Tokens(p.0 * fb)
            } else {
                p
            })
        })
    };

    // Day 0: a ×4 (held), b ×2 (applied).
    fake.answer(Answer::Items(quote(4, 2)));
    let out = pricing::reprice(app.domain(), repo_catalog(), &feeds, &settings).await.unwrap();
    assert_eq!(out.held.len(), 1);
    assert_eq!(stored(&app).await[&b.0], Tokens(b.2 .0 * 2));
    assert_eq!(notices(&app).await.len(), 1);

    // Day 1 and day 6: still held, not told again; b at ×5 of the default is ×2.5 from its price
    // but ×5 from the price of 7 days ago (the default): held.
    for day in [1, 6] {
        clock.set(1_767_225_600 + day * 86_400);
        fake.answer(Answer::Items(quote(4, 5)));
        let out = pricing::reprice(app.domain(), repo_catalog(), &feeds, &settings).await.unwrap();
        assert_eq!(out.held.len(), 2, "day {day}");
        assert_eq!(stored(&app).await[&b.0], Tokens(b.2 .0 * 2), "day {day}");
    }
    // Day 6 told b's new hold, not a's again.
    let told = notices(&app).await;
    assert_eq!(told.len(), 2, "{told:?}");
    // (Lines start "• {name}:": a's name is inside b's StatTrak™ one.)
    assert!(told[1].contains(&format!("• {}:", b.1)) && !told[1].contains(&format!("• {}:", a.1)), "{}", told[1]);

    // Day 8: a has waited 7 days since it was told: told again, still not applied. b's baseline
    // is now the price in effect 7 days ago (×2): ×5 is ×2.5 from it, applied.
    clock.set(1_767_225_600 + 8 * 86_400);
    let out = pricing::reprice(app.domain(), repo_catalog(), &feeds, &settings).await.unwrap();
    assert_eq!(out.held.len(), 1);
    assert!(!stored(&app).await.contains_key(&a.0), "a held change is never applied silently");
    assert_eq!(stored(&app).await[&b.0], Tokens(b.2 .0 * 5));
    let told = notices(&app).await;
    assert_eq!(told.len(), 3, "{told:?}");
    assert!(told[2].contains("Still held, told again") && told[2].contains(&format!("• {}:", a.1)), "{}", told[2]);
    app.stop().await;
}

#[tokio::test]
async fn an_absurd_quote_is_never_applied_the_admins_are_told_and_the_server_still_starts() {
    let app = TestApp::demo().await;
    let fake = FakeSkinport::start().await;
    let vs = variants();
    // One variant quoted at $10^17, one at $10^13 (a token price that fits, a case price that
    // would not): even with --accept.
    let (huge, big) = (vs[0].clone(), vs[5].clone());
    let mut items = feed(|_, p| Some(p));
    for it in items.iter_mut() {
        if it["market_hash_name"] == json!(huge.1) {
            it["min_price"] = json!(1e17);
        } else if it["market_hash_name"] == json!(big.1) {
            it["min_price"] = json!(1e13);
        }
    }
    fake.answer(Answer::Items(items));
    let (code, out) = fragbox(&app, &fake, &["catalog", "reprice", "--accept"], &[]).await;
    assert_eq!(code, 0, "{out}");
    let prices = stored(&app).await;
    assert!(!prices.contains_key(&huge.0) && !prices.contains_key(&big.0), "{out}");
    let held = held_rows(&app).await;
    assert_eq!(held.iter().filter(|h| h.1 == "bounds").count(), 2, "{held:?}");
    let told = notices(&app).await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].contains(&huge.1) && told[0].contains("never applied"), "{}", told[0]);
    // Accepting cannot apply them either.
    let (code, out) = fragbox(&app, &fake, &["catalog", "accept", "--all"], &[]).await;
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("never applied"), "{out}");
    assert!(!stored(&app).await.contains_key(&huge.0));

    // The next start serves every case at a sane price.
    let mut next = TestApp::start(Options { env: vec![("DATABASE_URL", app.db_url())], ..Options::default() }).await;
    let (status, list) = next.get("/api/v1/cases", None).await;
    assert_eq!(status, 200);
    assert_eq!(list["data"].as_array().unwrap().len(), repo_catalog().cases.len());
    if let Some(r) = next.running.take() {
        r.shutdown().await;
    }
    app.stop().await;
}

#[tokio::test]
async fn a_stored_price_that_cannot_be_used_takes_its_case_off_sale_and_the_server_still_starts() {
    let app = TestApp::demo().await;
    let fake = FakeSkinport::start().await;
    // A price an earlier `reprice --accept` wrote for every variant of the cheapest case: its
    // case price overflows (before issue 31 the next start failed).
    let case = repo_catalog().cheapest_case().unwrap().clone();
    for &(i, _) in &case.entries {
        let it = &repo_catalog().items[i];
        for vp in &it.prices {
            sqlx::query("INSERT INTO catalog_prices(variant, price, source, updated_at) VALUES ($1, $2, 'skinport', 0)")
                .bind(vp.variant.key(&it.id))
                .bind(i64::MAX / 2)
                .execute(&app.domain().db)
                .await
                .unwrap();
        }
    }
    let start = || async { TestApp::start(Options { env: vec![("DATABASE_URL", app.db_url())], ..Options::default() }).await };
    let mut next = start().await;
    // Off sale: out of the list, no page, no open; the others serve.
    let (_, list) = next.get("/api/v1/cases", None).await;
    let ids: Vec<&str> = list["data"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    // Every case that can drop one of those skins is off sale.
    let mut affected: Vec<String> =
        case.entries.iter().flat_map(|&(i, _)| repo_catalog().cases_with_item(&repo_catalog().items[i].id)).collect();
    affected.sort();
    affected.dedup();
    assert!(affected.contains(&case.id));
    assert!(ids.iter().all(|id| !affected.iter().any(|a| a == id)), "{ids:?}");
    assert_eq!(ids.len(), repo_catalog().cases.len() - affected.len());
    let (status, _) = next.get(&format!("/api/v1/cases/{}", case.id), None).await;
    assert_eq!(status, 404);
    let token = next.player_with(9_001, 1_000_000).await;
    let (s, b) = next.post(&format!("/api/v1/cases/{}/open", case.id), Some(&token), json!({"requestId": "off-1"})).await;
    assert_error(s, &b, 404, "case_not_found");
    let off: Vec<(String, String)> =
        sqlx::query_as("SELECT case_id, reason FROM cases_off_sale ORDER BY case_id").fetch_all(&app.domain().db).await.unwrap();
    assert_eq!(off, affected.iter().map(|a| (a.clone(), "price".to_owned())).collect::<Vec<_>>());
    let told = notices(&next).await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(told[0].contains(&case.id) && told[0].contains("off sale"), "{}", told[0]);
    if let Some(r) = next.running.take() {
        r.shutdown().await;
    }
    // Another start tells nobody again.
    let mut again = start().await;
    assert_eq!(notices(&again).await.len(), 1);
    if let Some(r) = again.running.take() {
        r.shutdown().await;
    }

    // Back on sale only once the price is fixed.
    let (code, out) = fragbox(&app, &fake, &["catalog", "on", &case.id], &[]).await;
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("still unusable"), "{out}");
    sqlx::query("DELETE FROM catalog_prices").execute(&app.domain().db).await.unwrap();
    for a in &affected {
        let (code, out) = fragbox(&app, &fake, &["catalog", "on", a], &[]).await;
        assert_eq!(code, 0, "{out}");
    }
    let mut fixed = start().await;
    let (_, list) = fixed.get("/api/v1/cases", None).await;
    assert_eq!(list["data"].as_array().unwrap().len(), repo_catalog().cases.len());
    if let Some(r) = fixed.running.take() {
        r.shutdown().await;
    }
    app.stop().await;
}

#[tokio::test]
async fn an_operator_takes_a_case_off_sale_at_once_and_it_stays_off_across_restarts() {
    let app = TestApp::demo().await;
    let fake = FakeSkinport::start().await;
    let case = cheap_case().to_owned();
    let token = app.player_with(9_002, 100_000).await;
    let open = |n: &str| app.post(open_path(), Some(&token), json!({"requestId": format!("op-{n}")}));
    assert_eq!(open("1").await.0, 200);

    let (code, out) = fragbox(&app, &fake, &["catalog", "off", &case, "--reason", "wrong", "picture"], &[]).await;
    assert_eq!(code, 0, "{out}");
    // The running server refuses opens at once; a replay of an earlier open still answers it.
    let (s, b) = open("2").await;
    assert_error(s, &b, 404, "case_not_found");
    assert_eq!(open("1").await.0, 200);
    let (code, out) = fragbox(&app, &fake, &["catalog", "off", "no-such-case"], &[]).await;
    assert_ne!(code, 0, "{out}");

    // The next start keeps it off: out of the list, the upsert leaves it inactive.
    let start = || async { TestApp::start(Options { env: vec![("DATABASE_URL", app.db_url())], ..Options::default() }).await };
    let mut next = start().await;
    let (_, list) = next.get("/api/v1/cases", None).await;
    assert!(!list["data"].as_array().unwrap().iter().any(|c| c["id"] == json!(case)));
    let (active,): (i64,) = sqlx::query_as("SELECT active FROM cases WHERE id = $1").bind(&case).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(active, 0);
    if let Some(r) = next.running.take() {
        r.shutdown().await;
    }

    let (code, out) = fragbox(&app, &fake, &["catalog", "on", &case], &[]).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("wrong picture"), "{out}");
    assert_eq!(open("3").await.0, 200, "opens are allowed again at once");
    let mut back = start().await;
    let (_, list) = back.get("/api/v1/cases", None).await;
    assert!(list["data"].as_array().unwrap().iter().any(|c| c["id"] == json!(case)));
    if let Some(r) = back.running.take() {
        r.shutdown().await;
    }
    app.stop().await;
}

/// The fake market's price for `tokens` at 100 tokens per dollar × 3/2, in thousandths.
fn market_mills(tokens: Tokens) -> i64 {
    tokens.0 * 3 / 20
}

#[tokio::test]
async fn with_a_market_configured_prices_follow_its_list_and_skinport_cross_checks() {
    let app = TestApp::demo().await;
    let fake = FakeSkinport::start().await;
    let market = FakeMarket::start().await;
    let vs = variants();
    // The market lists every variant at ×1.5 of the default (three decimals, as it writes them);
    // Skinport says ×1.2, and ×4 for one variant: over ×2 from the market's, held.
    for (_, name, default) in &vs {
        market.offer(name, market_mills(*default));
    }
    let disputed = vs[2].0.clone();
    let d = disputed.clone();
    fake.answer(Answer::Items(feed(move |k, p| Some(if k == d { Tokens(p.0 * 4) } else { Tokens(p.0 * 6 / 5) }))));
    let env = [("MARKET_PROVIDER", "marketcsgo"), ("MARKET_API_KEY", KEY), ("MARKET_API_URL", market.url.as_str())];
    let (code, out) = fragbox(&app, &fake, &["catalog", "reprice"], &env).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("prices from marketcsgo, cross-checked by skinport"), "{out}");
    assert_eq!(market.calls("prices/USD.json"), 1);
    assert_eq!(fake.requests(), 1);

    // Each price is the market's, rounded up to a cent: what delivery pays, never less.
    let prices = stored(&app).await;
    for (key, _, default) in &vs {
        if *key == disputed {
            continue;
        }
        let cents = (market_mills(*default) + 9) / 10;
        assert_eq!(prices.get(key), Some(&Tokens(cents * 100)), "{key}");
    }
    let (source,): (String,) =
        sqlx::query_as("SELECT source FROM catalog_prices WHERE variant = $1").bind(&vs[0].0).fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(source, "marketcsgo");
    assert!(!prices.contains_key(&disputed));
    assert_eq!(held_rows(&app).await, vec![(disputed.clone(), "cross_check".to_owned(), Some((market_mills(vs[2].2) + 9) / 10 * 100))]);
    assert!(notices(&app).await[0].contains("cross-check says"));

    // Skinport down: the market's prices still apply under the rules, and the admins hear of it.
    fake.answer(Answer::Status(500));
    market.list_price(&vs[0].1, "100000000000000000.00");
    let (code, out) = fragbox(&app, &fake, &["catalog", "reprice"], &env).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("FAILED"), "{out}");
    let told = notices(&app).await;
    assert!(told.last().unwrap().contains("The cross-check (skinport) failed"), "{told:?}");
    assert!(told.last().unwrap().contains(&vs[0].1), "the absurd quote is held: {told:?}");
    assert_eq!(stored(&app).await[&vs[0].0], prices[&vs[0].0]);
    // The market down: nothing changes.
    market.down(Some(502));
    let (code, out) = fragbox(&app, &fake, &["catalog", "reprice"], &env).await;
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("no price changed"), "{out}");
    app.stop().await;
}
