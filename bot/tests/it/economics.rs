//! Prices that earn what a Star pays (issue 31, points 1 and 4): `fragbox serve` refuses a
//! package that pays out more than its Stars earn, the default packages keep a tenth of what
//! their Stars earn by the numbers the API shows, a first purchase opens the cheapest case with
//! paid tokens and its skin may leave, and `fragbox finance` (and `/stats`) give the books of
//! what was paid, refunded and delivered through a fake market.
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};
use webapp_api::domain::admin::{self, Actor};
use webapp_api::domain::clock::ManualClock;
use webapp_api::domain::payments;

use crate::common::*;
use crate::delivery::{market_env, wait_state};
use crate::fake_market::FakeMarket;
use crate::payments::{invoice, pay, say};

const TRADE_URL: &str = "https://steamcommunity.com/tradeoffer/new/?partner=123456&token=abc_D-1";

/// Runs the real binary with `env` (and nothing from the caller's environment or a `.env`) until
/// it exits; `None` when it is still running after `within` (it is killed then: it serves).
fn run_until_exit(dir: &std::path::Path, args: &[&str], env: &[(&'static str, String)], within: Duration) -> Option<Output> {
    let child = Command::new(BIN)
        .args(args)
        .env_remove("TELEGRAM_BOT_TOKEN")
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // Read its output while waiting (a full pipe would stall it), and give up after `within`.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(within) {
        Ok(out) => Some(out.unwrap()),
        Err(_) => {
            let _ = Command::new("kill").arg("-KILL").arg(pid.to_string()).status();
            let _ = rx.recv();
            None
        }
    }
}

/// The log of a spawned `fragbox` once it holds `needle` (its stderr is read by a thread).
fn log_with(proc: &Proc, needle: &str) -> String {
    let started = Instant::now();
    loop {
        let log = proc.stderr.lock().unwrap().join("\n");
        if log.contains(needle) || started.elapsed() > Duration::from_secs(30) {
            return log;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A copy of the committed catalog with `packages` in place of its packages.
fn catalog_with_packages(packages: Value) -> TempDir {
    let dir = TempDir::new();
    for f in ["items.json", "cases.json", "prices.json"] {
        std::fs::copy(repo_root().join("data/catalog").join(f), dir.0.join(f)).unwrap();
    }
    std::fs::write(dir.0.join("packages.json"), json!({ "packages": packages }).to_string()).unwrap();
    dir
}

#[tokio::test]
async fn serve_refuses_a_package_that_pays_out_more_than_its_stars_earn_unless_allow_loss_says_so() {
    let dir = TempDir::new();
    let db = format!("sqlite://{}", dir.0.join("fragbox.db").display());
    let base = proc_env(&dir.0, &db);
    let with = |extra: &[(&'static str, &str)]| {
        let mut env = base.clone();
        env.extend(extra.iter().map(|(k, v)| (*k, v.to_string())));
        env
    };

    // 50 tokens per dollar: a Star buys $0.023 of skins against $0.013 earned.
    let refused = tokio::task::spawn_blocking({
        let (d, env) = (dir.0.clone(), with(&[("TOKENS_PER_USD", "50")]));
        move || run_until_exit(&d, &[], &env, Duration::from_secs(60))
    })
    .await
    .unwrap()
    .expect("serve must refuse, not serve");
    let said = text(&refused);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    for name in ["TOKENS_PER_USD 50", "STAR_USD", "package pack-s", "ALLOW_LOSS"] {
        assert!(said.contains(name), "{name}: {said}");
    }

    // The operator means it: it serves, and says so.
    let loss = Proc::start(&dir.0, &with(&[("TOKENS_PER_USD", "50"), ("ALLOW_LOSS", "true")]));
    let (s, _) = read(reqwest::get(format!("{}/healthz", loss.base)).await.unwrap()).await;
    assert_eq!(s, StatusCode::OK);
    let log = log_with(&loss, "ALLOW_LOSS=true");
    assert!(log.contains("ALLOW_LOSS=true") && log.contains("package pack-s"), "{log}");
    loss.stop();

    // Operator commands never refuse for it.
    let env = with(&[("TOKENS_PER_USD", "50")]);
    let out = tokio::task::spawn_blocking({
        let (d, env) = (dir.0.clone(), env.clone());
        move || run_until_exit(&d, &["maintenance", "status"], &env, Duration::from_secs(60))
    })
    .await
    .unwrap()
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let out = tokio::task::spawn_blocking({
        let d = dir.0.clone();
        move || run_until_exit(&d, &["catalog", "check"], &env, Duration::from_secs(60))
    })
    .await
    .unwrap()
    .unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("LOSS") && said.contains("refuses to start"), "{said}");

    // The defaults serve, and the log gives each package's margin.
    let fine = Proc::start(&dir.0, &base);
    let log = log_with(&fine, "first open:");
    assert!(log.contains("package pack-s") && log.contains("ok"), "{log}");
    assert!(!log.contains("LOSS"), "{log}");
    fine.stop();
}

#[tokio::test]
async fn a_shop_with_a_bot_token_refuses_the_same_loss_with_exit_status_two() {
    let dir = TempDir::new();
    let db = fresh_database_url(&dir.0).await;
    let env: std::collections::HashMap<&str, String> = [
        ("BIND_ADDR", "127.0.0.1:0".to_owned()),
        ("DATABASE_URL", db.clone()),
        ("CATALOG_DIR", repo_root().join("data/catalog").display().to_string()),
        ("TELEGRAM_BOT_TOKEN", TOKEN.to_owned()),
        ("TELEGRAM_API_URL", "http://127.0.0.1:9".to_owned()),
        ("WEBAPP_URL", "https://app.fragbox.test".to_owned()),
        ("STAR_USD", "0.0099".to_owned()),
    ]
    .into_iter()
    .collect();
    let config = fragbox::Config::from_lookup(&move |k| env.get(k).cloned()).unwrap();
    assert!(config.withdraw_paid_only(), "a shop with a token withdraws paid tokens only");
    let err = fragbox::start(config).await.err().expect("refused");
    assert_eq!(err.exit_code, 2, "{err}");
    assert!(err.message.contains("STAR_USD 0.0099") && err.message.contains("package pack-xxl"), "{err}");
    drop_database(&db).await;
}

/// Hundredths from a JSON number with at most 2 decimals (tokens as the API writes them).
fn hundredths(v: &Value) -> i128 {
    let t = webapp_api::domain::Tokens::parse(&v.to_string()).unwrap_or_else(|| panic!("not an amount: {v}"));
    i128::from(t.0)
}

#[tokio::test]
async fn every_default_package_keeps_a_tenth_of_what_its_stars_earn_by_what_the_api_shows() {
    let app = TestApp::with_bot().await;
    let t = app.sign_in(31_001, "Counter").await;
    let (s, packs) = app.get("/api/v1/payments/packages", Some(&t)).await;
    assert_eq!(s, StatusCode::OK, "{packs}");
    let (s, cases) = app.get("/api/v1/cases", None).await;
    assert_eq!(s, StatusCode::OK);

    // The highest return to player on sale, from each case's items: Σ weight × expected value of
    // a drop ÷ Σ weight, over the case's price. Kept as a fraction (value, weights × price).
    let mut best: Option<(i128, i128, String)> = None;
    for case in cases["data"].as_array().unwrap() {
        let id = case["id"].as_str().unwrap();
        let (s, one) = app.get(&format!("/api/v1/cases/{id}"), None).await;
        assert_eq!(s, StatusCode::OK);
        let items = one["data"]["items"].as_array().unwrap();
        let value: i128 = items.iter().map(|i| i128::from(i["weight"].as_u64().unwrap()) * hundredths(&i["tokenPrice"])).sum();
        let weights: i128 = items.iter().map(|i| i128::from(i["weight"].as_u64().unwrap())).sum();
        let den = weights * hundredths(&one["data"]["tokens"]);
        if best.as_ref().is_none_or(|(v, d, _)| value * d > v * den) {
            best = Some((value, den, id.to_owned()));
        }
    }
    let (value, den, best_case) = best.unwrap();
    assert!(value * 10_000 / den > 8_800, "{best_case}: a return near 90 %");

    let packs = packs["data"].as_array().unwrap();
    assert!(!packs.is_empty());
    for p in packs {
        // Every token a package credits is paid (its bonus too), so every one may leave.
        let tokens = i128::from(p["tokens"].as_i64().unwrap() + p["bonus"].as_i64().unwrap());
        let stars = i128::from(p["stars"].as_i64().unwrap());
        // In millionths of a dollar: tokens ÷ 100 per dollar × return × 1.10, against stars × 0.013.
        let payout_num = tokens * 1_000_000 * value * 110; // ÷ (100 × den × 100)
        let payout_den = 100 * den * 100;
        let earned = stars * 13_000;
        // margin ≥ 10 %: payout ≤ 0.9 × earned.
        assert!(payout_num * 10 <= 9 * earned * payout_den, "{p}: pays out {} of {} micro-dollars", payout_num / payout_den, earned);
        let margin_bp = (earned * payout_den - payout_num) * 10_000 / (earned * payout_den);
        eprintln!(
            "{}: {} Stars, {} tokens, margin {}.{:02} % (best case {best_case})",
            p["id"],
            stars,
            tokens,
            margin_bp / 100,
            margin_bp % 100
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn the_smallest_package_opens_the_cheapest_case_with_paid_tokens_and_its_skin_may_leave() {
    // The deposit rule as shipped: unset, the smallest package's Stars.
    let app = TestApp::start(Options { bot: true, env: vec![("WITHDRAW_MIN_STARS", String::new())], ..Options::default() }).await;
    let user = 31_010;
    let t = app.sign_in(user, "First").await;
    let (_, packs) = app.get("/api/v1/payments/packages", Some(&t)).await;
    let smallest = packs["data"].as_array().unwrap().iter().min_by_key(|p| p["stars"].as_i64().unwrap()).unwrap().clone();
    let (_, cases) = app.get("/api/v1/cases", None).await;
    let cheapest = cases["data"].as_array().unwrap().iter().min_by_key(|c| hundredths(&c["tokens"])).unwrap().clone();
    let (_, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(me["data"]["withdrawalsUnlocked"], json!(false), "{me}");

    let stars = smallest["stars"].as_i64().unwrap();
    let tx = invoice(&app, &t, user, smallest["id"].as_str().unwrap()).await;
    pay(&app, user, &tx, stars, "stxfirstpack").await;
    let (_, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(me["data"]["withdrawalsUnlocked"], json!(true), "one smallest package unlocks withdrawals: {me}");
    assert_eq!(me["data"]["bonusBalance"], json!(0), "{me}");

    let (s, opened) = app.post(&format!("/api/v1/cases/{}/open", cheapest["id"].as_str().unwrap()), Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{} for {}: {opened}", smallest, cheapest["tokens"]);
    let item = &opened["item"];
    assert_eq!(item["withdrawable"], json!(true), "paid tokens alone paid for it: {item}");
    let id = item["id"].as_i64().unwrap();
    let (s, b) = app.post(&format!("/api/v1/user/item/{id}/request-withdrawal"), Some(&t), json!({"trade_url": TRADE_URL})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["item"]["status"], "pending");
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn a_player_who_bought_a_package_no_longer_sold_keeps_withdrawals_unlocked() {
    // Before: a 50-Star package was on sale (a loss the operator accepted), and a player bought it.
    let before = catalog_with_packages(json!([
        {"id": "pack-xs", "tokens": 146, "bonus": 0, "stars": 50},
        {"id": "pack-s", "tokens": 146, "bonus": 0, "stars": 125}
    ]));
    let env = |catalog: &std::path::Path| {
        vec![("CATALOG_DIR", catalog.display().to_string()), ("WITHDRAW_MIN_STARS", String::new()), ("ALLOW_LOSS", "true".to_owned())]
    };
    let mut app = TestApp::start(Options { bot: true, env: env(&before.0), ..Options::default() }).await;
    let user = 31_020;
    let Payer { token: t, .. } = app.paying_player(user, 50).await;
    let (s, opened) = app.post(open_path(), Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{opened}");
    let item = opened["item"]["id"].as_i64().unwrap();
    let db = app.db_url();
    // Stop the server but keep its store (a PostgreSQL database is dropped only by `stop`).
    app.running.take().unwrap().shutdown().await;

    // After: the committed packages (the smallest is 125 Stars), same shop, same player.
    let mut env = env(&repo_root().join("data/catalog"));
    env.retain(|(k, _)| *k != "ALLOW_LOSS");
    env.push(("DATABASE_URL", db));
    let app = TestApp::start(Options { bot: true, env, ..Options::default() }).await;
    let t = app.sign_in(user, "Early").await;
    let (_, me) = app.get("/api/v1/me", Some(&t)).await;
    assert_eq!(me["data"]["withdrawalsUnlocked"], json!(true), "{me}");
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(&t), json!({"trade_url": TRADE_URL})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    // A player who paid nothing still needs a purchase.
    let other = app.player_with(31_021, cheap_case_price() / 100 + 1).await;
    let (_, opened) = app.post(open_path(), Some(&other), json!({})).await;
    let theirs = opened["item"]["id"].as_i64().unwrap();
    let (s, b) = app.post(&format!("/api/v1/user/item/{theirs}/request-withdrawal"), Some(&other), json!({"trade_url": TRADE_URL})).await;
    assert_error(s, &b, 409, "deposit_required");
    app.stop().await;
}

/// A skin won by opening the cheapest case, offered on the market at its price.
async fn open_and_offer(app: &TestApp, market: &FakeMarket, t: &str) -> (i64, i64, i64) {
    let (s, b) = app.post(open_path(), Some(t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["item"]["withdrawable"], json!(true), "{b}");
    let item = b["item"]["id"].as_i64().unwrap();
    let (name, price): (String, i64) = sqlx::query_as("SELECT market_hash_name, token_price FROM inventory_items WHERE id = $1")
        .bind(item)
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    // TOKENS_PER_USD 100: a token is a cent; the market charges the offer, in thousandths.
    let cents = price / 100;
    market.offer(&name, cents * 10);
    (item, price, cents)
}

async fn withdraw(app: &TestApp, t: &str, item: i64) -> i64 {
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(t), json!({"trade_url": TRADE_URL})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b["withdrawalId"].as_i64().unwrap()
}

/// Cents from a JSON number with 2 decimals, checked to be written with exactly 2.
fn cents(v: &Value) -> i64 {
    (v.as_f64().unwrap_or_else(|| panic!("not a number: {v}")) * 100.0).round() as i64
}

/// Every dollar amount of `raw` (keys ending in `Usd`, but `starUsd`) is written with exactly 2
/// decimals.
fn usd_written_with_two_decimals(raw: &str) {
    // Rates are not amounts: STAR_USD as configured, TOKENS_PER_USD.
    let amounts = raw.replace("\"starUsd\":", "\"rate\":").replace("\"tokensPerUsd\":", "\"rate\":");
    for part in amounts.split("Usd\":").skip(1) {
        let number: String = part.chars().take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '-').collect();
        assert!(number.split_once('.').is_some_and(|(_, f)| f.len() == 2), "{number} in {raw}");
    }
}

#[tokio::test]
async fn finance_gives_the_books_of_what_was_paid_refunded_and_delivered_per_day_and_in_total() {
    // Three days ago at noon (UTC): the books of `fragbox finance` (real time) cover all of it.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let day1 = now - now.rem_euclid(86_400) - 3 * 86_400 + 12 * 3600;
    let clock = Arc::new(ManualClock::at(day1));
    let market = FakeMarket::start().await;
    let app = TestApp::start(Options { bot: true, env: market_env(&market), clock: Some(clock.clone()), ..Options::default() }).await;
    let (a, b) = (31_030, 31_031);
    let ta = app.sign_in(a, "Ann").await;
    let tb = app.sign_in(b, "Ben").await;

    // Day 1: Ann buys pack-l (500 Stars), Ben pack-s (125 Stars). Ann wins three skins and
    // withdraws them: the market buys all three, delivers the first and the third.
    let tx = invoice(&app, &ta, a, "pack-l").await;
    pay(&app, a, &tx, 500, "stxann").await;
    let tx = invoice(&app, &tb, b, "pack-s").await;
    pay(&app, b, &tx, 125, "stxben").await;
    let mut skins = Vec::new();
    for _ in 0..3 {
        let (item, price, cents) = open_and_offer(&app, &market, &ta).await;
        let wid = withdraw(&app, &ta, item).await;
        let cid = wait_state(&app, wid, "bought").await.custom_id.unwrap();
        skins.push((item, price, cents, wid, cid));
    }
    for k in [0, 2] {
        market.deliver(&skins[k].4);
        wait_state(&app, skins[k].3, "settling").await;
    }
    let (p1, p2, p3) = (skins[0].2, skins[1].2, skins[2].2);

    // Day 2: Ben's purchase is refunded; the second skin's offer expires (the market refunds it).
    clock.advance(86_400);
    let refunded = payments::refund(app.domain(), Actor::Cli, "stxben", false).await.unwrap();
    assert!(matches!(refunded, payments::Refunded::Reversed { .. }), "{refunded:?}");
    market.time_out(&skins[1].4, "buyer");
    wait_state(&app, skins[1].3, "bounced").await;

    // Day 3: the seller reverses the first delivered trade (the market refunds it).
    clock.advance(86_400);
    market.reverse_by_seller(&skins[0].4);
    wait_state(&app, skins[0].3, "reversed").await;

    let (paid_left,): (i64,) =
        sqlx::query_as("SELECT CAST(SUM(balance - bonus_balance) AS BIGINT) FROM users").fetch_one(&app.domain().db).await.unwrap();
    let held_skins = skins[0].1 + skins[1].1;
    let liability = (paid_left + held_skins + 50) / 100;

    let env = vec![
        ("DATABASE_URL", app.db_url()),
        ("CATALOG_DIR", repo_root().join("data/catalog").display().to_string()),
        ("TELEGRAM_BOT_TOKEN", TOKEN.to_owned()),
        ("WEBAPP_URL", "https://app.fragbox.test".to_owned()),
    ];
    let out = tokio::task::spawn_blocking({
        let (d, env) = (app.dir.0.clone(), env.clone());
        move || {
            let mut cmd = Command::new(BIN);
            cmd.args(["finance", "--json"]).envs(env.iter().map(|(k, v)| (*k, v.as_str()))).current_dir(&d);
            cmd.output().unwrap()
        }
    })
    .await
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let raw = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(raw.contains("\"starUsd\":0.013"), "STAR_USD as configured: {raw}");
    usd_written_with_two_decimals(&raw);
    let books: Value = serde_json::from_str(raw.trim()).unwrap_or_else(|e| panic!("{e}: {raw}"));
    let days = books["days"].as_array().unwrap();
    assert_eq!(days.len(), 7, "the default is 7 days: {books:#}");
    let date = |t: i64| webapp_api::domain::clock::utc_day(t).format("%Y-%m-%d").to_string();
    let day =
        |t: i64| days.iter().find(|d| d["date"] == json!(date(t))).unwrap_or_else(|| panic!("{} missing: {books:#}", date(t))).clone();
    let (d1, d2, d3) = (day(day1), day(day1 + 86_400), day(day1 + 2 * 86_400));
    assert_eq!(days.last().unwrap()["date"], json!(date(now)), "the last day is today");

    // Day 1: 625 Stars in at $0.013 = $8.125 → $8.13; three purchases charged; two delivered,
    // of which the third is still settling (the first was reversed since).
    assert_eq!((d1["starsReceived"].as_i64(), d1["starsRefunded"].as_i64()), (Some(625), Some(0)), "{d1}");
    assert_eq!(cents(&d1["starsUsd"]), 813, "{d1}");
    assert_eq!(cents(&d1["marketSpendUsd"]), p1 + p2 + p3, "{d1}");
    assert_eq!(cents(&d1["deliveredUsd"]), p1 + p3, "{d1}");
    assert_eq!(cents(&d1["settlingUsd"]), p3, "{d1}");
    assert_eq!(cents(&d1["reversedUsd"]), 0, "{d1}");
    assert_eq!(cents(&d1["marginUsd"]), 813 - (p1 + p2 + p3), "{d1}");
    // Day 2: 125 Stars back (−$1.625 → −$1.63); the expired offer's price back from the market.
    assert_eq!((d2["starsReceived"].as_i64(), d2["starsRefunded"].as_i64()), (Some(0), Some(125)), "{d2}");
    assert_eq!(cents(&d2["starsUsd"]), -163, "{d2}");
    assert_eq!(cents(&d2["marketSpendUsd"]), -p2, "{d2}");
    assert_eq!(cents(&d2["marginUsd"]), -163 + p2, "{d2}");
    // Day 3: the seller's reversal, refunded by the market.
    assert_eq!(cents(&d3["reversedUsd"]), p1, "{d3}");
    assert_eq!(cents(&d3["marketSpendUsd"]), -p1, "{d3}");
    assert_eq!(cents(&d3["marginUsd"]), p1, "{d3}");
    for d in days.iter().filter(|d| ![&d1["date"], &d2["date"], &d3["date"]].contains(&&d["date"])) {
        assert_eq!((d["starsReceived"].as_i64(), cents(&d["marketSpendUsd"]), cents(&d["marginUsd"])), (Some(0), 0, 0), "{d}");
    }
    // In total: 500 Stars net = $6.50, what stayed bought is the third skin.
    let total = &books["total"];
    assert_eq!((total["starsReceived"].as_i64(), total["starsRefunded"].as_i64()), (Some(625), Some(125)), "{total}");
    assert_eq!(cents(&total["starsUsd"]), 650, "{total}");
    assert_eq!(cents(&total["marketSpendUsd"]), p3, "{total}");
    assert_eq!(cents(&total["marginUsd"]), 650 - p3, "{total}");
    assert_eq!(cents(&total["deliveredUsd"]), p1 + p3, "{total}");
    assert_eq!(cents(&total["settlingUsd"]), p3, "{total}");
    assert_eq!(cents(&total["reversedUsd"]), p1, "{total}");
    // What players could still take out: Ann's paid tokens and the two skins back in her hands.
    assert_eq!(cents(&total["liabilityUsd"]), liability, "{total}");
    assert!(total.get("date").is_none());

    // The admins' /stats says the same (over the 7 days ending on the shop's own today).
    let stats = admin::stats(app.domain(), Actor::Cli).await.unwrap();
    let f = &stats.books.total.flows;
    assert_eq!((f.stars_received, f.stars_refunded), (625, 125));
    assert_eq!((f.stars_usd.cents(), f.market_spend().cents(), f.margin().cents()), (650, p3, 650 - p3));
    assert_eq!(stats.books.total.liability.cents(), liability);
    let shown = say(&app, ADMIN_ID, "/stats", "Books").await;
    let shown = shown["text"].as_str().unwrap();
    let margin = webapp_api::domain::market::Usd::from_cents(650 - p3);
    assert!(shown.contains("Total: ★ +625 −125 = $6.50") && shown.contains(&format!("margin {margin}")), "{shown}");
    app.stop().await;
}

#[tokio::test]
async fn finance_takes_one_to_366_days_and_needs_a_shop() {
    let app = TestApp::demo().await;
    let dir = app.dir.0.clone();
    let db = app.db_url();
    let run = move |args: Vec<&'static str>, db: String| {
        let dir = dir.clone();
        tokio::task::spawn_blocking(move || {
            let mut all = vec!["finance"];
            all.extend(args);
            run_until_exit(
                &dir,
                &all,
                &[("DATABASE_URL", db), ("CATALOG_DIR", repo_root().join("data/catalog").display().to_string())],
                Duration::from_secs(60),
            )
            .unwrap()
        })
    };
    for bad in [vec!["--days", "0"], vec!["--days", "367"], vec!["--days", "x"]] {
        let out = run(bad.clone(), db.clone()).await.unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", text(&out));
    }
    let out = run(vec!["--days", "366", "--json"], db.clone()).await.unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let books: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(books["days"].as_array().unwrap().len(), 366);
    let out = run(vec![], db.clone()).await.unwrap();
    assert!(text(&out).contains("total") && text(&out).contains("liability now"), "{}", text(&out));
    let missing = format!("sqlite://{}", app.dir.0.join("nope.db").display());
    let out = run(vec![], missing).await.unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    app.stop().await;
}

#[tokio::test]
async fn a_smallest_package_that_cannot_open_the_cheapest_case_is_refused() {
    let catalog = catalog_with_packages(json!([
        {"id": "pack-tiny", "tokens": 10, "bonus": 0, "stars": 9},
        {"id": "pack-s", "tokens": 146, "bonus": 0, "stars": 125}
    ]));
    let dir = TempDir::new();
    let db = format!("sqlite://{}", dir.0.join("fragbox.db").display());
    let mut env = proc_env(&dir.0, &db);
    env.retain(|(k, _)| *k != "CATALOG_DIR");
    env.push(("CATALOG_DIR", catalog.0.display().to_string()));
    let out = tokio::task::spawn_blocking({
        let (d, env) = (dir.0.clone(), env.clone());
        move || run_until_exit(&d, &["catalog", "check"], &env, Duration::from_secs(60)).unwrap()
    })
    .await
    .unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("REFUSED") && said.contains("pack-tiny"), "{said}");
    // Serving refuses it too, ALLOW_LOSS or not: a first purchase must open a case.
    env.push(("ALLOW_LOSS", "true".into()));
    let out = tokio::task::spawn_blocking({
        let d = dir.0.clone();
        move || run_until_exit(&d, &[], &env, Duration::from_secs(60)).expect("refused, not serving")
    })
    .await
    .unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("CATALOG_DIR") && said.contains("pack-tiny"), "{said}");
}
