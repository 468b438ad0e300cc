//! Automatic delivery (issue #23) against the fake market: each path of a withdrawal ends in the
//! right state with the right message, a lost answer or a SIGKILL in the middle of `buy-for` is
//! resolved by looking the custom id up (never bought twice), two replicas on PostgreSQL buy each
//! withdrawal once, prices stay under the cap, and the audit stays clean.
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};
use webapp_api::domain::clock::ManualClock;
use webapp_api::domain::market::Usd;
use webapp_api::domain::withdrawals::{self, Resolution};
use webapp_api::domain::DomainError;

use crate::common::*;
use crate::fake_market::{BuyScript, FakeMarket, KEY};

pub const TRADE_URL: &str = "https://steamcommunity.com/tradeoffer/new/?partner=123456&token=abc_D-1";
/// Generous: a busy machine is slow, never wrong.
pub const DEADLINE: Duration = Duration::from_secs(60);

pub fn market_env(fake: &FakeMarket) -> Vec<(&'static str, String)> {
    vec![
        ("MARKET_PROVIDER", "marketcsgo".into()),
        ("MARKET_API_KEY", KEY.into()),
        ("MARKET_API_URL", fake.url.clone()),
        ("MARKET_POLL_SECS", "0.05".into()),
        ("MARKET_TIMEOUT_SECS", "1".into()),
        ("MARKET_LEASE_SECS", "3".into()),
        ("MARKET_REQUESTS_PER_SEC", "50".into()),
        // Longer than any slow answer or status lag of the fake; in-process tests move their
        // clock past it by hand.
        ("MARKET_LOOKUP_WINDOW_SECS", "8".into()),
    ]
}

struct Shop {
    app: TestApp,
    fake: FakeMarket,
    clock: Arc<ManualClock>,
}

fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

async fn shop_with(extra: Vec<(&'static str, String)>) -> Shop {
    let fake = FakeMarket::start().await;
    let clock = Arc::new(ManualClock::at(unix_now()));
    let mut env = market_env(&fake);
    env.extend(extra);
    let app = TestApp::start(Options { env, clock: Some(clock.clone()), ..Options::default() }).await;
    Shop { app, fake, clock }
}

/// A skin the player won, and its variant's USD price.
struct Skin {
    item: i64,
    name: String,
    cents: i64,
}

impl Skin {
    /// The cap at the default overpay (10 %), in the market's thousandths.
    fn cap_mills(&self) -> i64 {
        Usd::from_cents(self.cents).cap(1_000).cents() * 10
    }
}

async fn win(app: &TestApp, t: &str, user: i64) -> Skin {
    app.grant(user, cheap_case_price() / 100 + 1).await;
    let (item, name, price) = app.open_skin(cheap_case(), t).await;
    // TOKENS_PER_USD 100: a token is a cent.
    Skin { item, name, cents: price / 100 }
}

/// A player with a won skin the market offers at its price (under the cap).
async fn player_with_skin(shop: &Shop, user: i64) -> (String, Skin) {
    let t = shop.app.sign_in(user, "Player").await;
    let skin = win(&shop.app, &t, user).await;
    shop.fake.offer(&skin.name, skin.cents * 10);
    (t, skin)
}

async fn withdraw(app: &TestApp, t: &str, item: i64) -> i64 {
    let (s, b) = app.post(&format!("/api/v1/user/item/{item}/request-withdrawal"), Some(t), json!({"trade_url": TRADE_URL})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b["item"]["status"], "pending", "{b}");
    b["withdrawalId"].as_i64().unwrap()
}

#[derive(Debug)]
pub struct Row {
    pub status: String,
    pub state: Option<String>,
    pub reason: Option<String>,
    pub custom_id: Option<String>,
    pub attempt: i64,
    pub paid: Option<i64>,
    pub cap: Option<i64>,
}

pub async fn row(app: &TestApp, wid: i64) -> Row {
    type R = (String, Option<String>, Option<String>, Option<String>, i64, Option<i64>, Option<i64>);
    let r: R = sqlx::query_as(
        "SELECT status, market_state, market_reason, custom_id, attempt, price_paid_cents, max_price_cents FROM withdrawals WHERE id = $1",
    )
    .bind(wid)
    .fetch_one(&app.domain().db)
    .await
    .unwrap();
    Row { status: r.0, state: r.1, reason: r.2, custom_id: r.3, attempt: r.4, paid: r.5, cap: r.6 }
}

/// Polls until withdrawal `wid` is in market state `want` (generous deadline, no fixed sleeps).
pub async fn wait_state(app: &TestApp, wid: i64, want: &str) -> Row {
    let started = Instant::now();
    loop {
        let r = row(app, wid).await;
        if r.state.as_deref() == Some(want) {
            return r;
        }
        assert!(started.elapsed() < DEADLINE, "withdrawal {wid} stayed {r:?}, expected {want}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn item_status(app: &TestApp, item: i64) -> (String, Option<String>) {
    sqlx::query_as("SELECT status, status_reason_code FROM inventory_items WHERE id = $1")
        .bind(item)
        .fetch_one(&app.domain().db)
        .await
        .unwrap()
}

/// The player's queued chat messages: (kind, payload).
async fn notices(app: &TestApp, user: i64) -> Vec<(String, Value)> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT kind, payload FROM outbox WHERE channel = 'player' AND user_id = $1 ORDER BY id")
            .bind(user)
            .fetch_all(&app.domain().db)
            .await
            .unwrap();
    rows.into_iter().map(|(k, p)| (k, serde_json::from_str(&p).unwrap())).collect()
}

async fn admin_notices(app: &TestApp) -> Vec<String> {
    let rows: Vec<(String,)> = sqlx::query_as("SELECT payload FROM outbox WHERE channel = 'admin' AND chat_id = $1 ORDER BY id")
        .bind(ADMIN_ID)
        .fetch_all(&app.domain().db)
        .await
        .unwrap();
    rows.into_iter().map(|r| r.0).collect()
}

async fn item_json(app: &TestApp, t: &str, item: i64) -> Value {
    let (s, b) = app.get(&format!("/api/v1/user/item/{item}"), Some(t)).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b["item"].clone()
}

#[tokio::test]
async fn a_withdrawal_is_bought_under_the_cap_offered_delivered_and_settled() {
    let shop = shop_with(vec![("METRICS_ENABLED", "true".into())]).await;
    let user = 23_001;
    let (t, skin) = player_with_skin(&shop, user).await;
    let wid = withdraw(&shop.app, &t, skin.item).await;

    let bought = wait_state(&shop.app, wid, "bought").await;
    let cid = bought.custom_id.clone().unwrap();
    assert_eq!(shop.fake.purchases_of(&cid), 1);
    assert_eq!(shop.fake.prices_asked(), vec![skin.cap_mills()], "one buy-for, at the variant's price raised by 10 %");
    assert_eq!(bought.cap, Some(skin.cap_mills() / 10));
    let sent = shop.fake.purchase(&cid).unwrap();
    assert_eq!((sent.hash_name.as_str(), sent.partner.as_str(), sent.token.as_str()), (skin.name.as_str(), "123456", "abc_D-1"));
    assert_eq!(item_json(&shop.app, &t, skin.item).await["deliveryState"], "bought");

    shop.fake.send_offer(&cid, "6500000001");
    wait_state(&shop.app, wid, "offer_sent").await;
    let offered = notices(&shop.app, user).await;
    assert!(offered.iter().any(|(k, p)| k == "withdrawal_offer_sent" && p["trade_id"] == "6500000001"), "{offered:?}");
    assert_eq!(item_json(&shop.app, &t, skin.item).await["deliveryState"], "offer_sent");

    shop.fake.deliver(&cid);
    let delivered = wait_state(&shop.app, wid, "settling").await;
    assert_eq!(delivered.status, "sent");
    assert_eq!(delivered.paid, Some(skin.cents), "the price paid is recorded");
    assert!(delivered.paid <= delivered.cap);
    assert_eq!(item_status(&shop.app, skin.item).await.0, "sent");
    assert!(notices(&shop.app, user).await.iter().any(|(k, _)| k == "withdrawal_delivered"));
    // The operators see it settling, with its price and custom id.
    let list = withdrawals::pending(shop.app.domain()).await.unwrap();
    let m = list.iter().find(|w| w.id == wid).and_then(|w| w.market.clone()).expect("listed while settling");
    assert_eq!((m.state.as_str(), m.custom_id.as_deref(), m.price_paid_cents), ("settling", Some(cid.as_str()), Some(skin.cents)));

    // Steam's trade protection (192 h by default) ends: final.
    shop.clock.advance(193 * 3600);
    wait_state(&shop.app, wid, "settled").await;
    assert_eq!(shop.fake.total_purchases(), 1);

    let (s, _) = shop.app.get("/metrics", None).await;
    assert_eq!(s, StatusCode::OK);
    let text = shop.app.http.get(format!("{}/metrics", shop.app.base)).send().await.unwrap().text().await.unwrap();
    assert!(text.contains(r#"fragbox_market_calls_total{call="buy"} 1"#), "{text}");
    // Compared as numbers: the exposition writes a whole dollar amount as `3.0`.
    let spend = text.lines().find_map(|l| l.strip_prefix("fragbox_market_spend_usd_total ")).and_then(|v| v.trim().parse::<f64>().ok());
    assert!(spend == Some(skin.cents as f64 / 100.0) || skin.cents == 0, "{text}");
    shop.app.audit_clean().await;
    shop.app.stop().await;
}

#[tokio::test]
async fn each_refusal_about_the_players_account_brings_the_skin_back_once_with_its_code() {
    let shop = shop_with(vec![]).await;
    let user = 23_010;
    let t = shop.app.sign_in(user, "Bounced").await;
    let cases: &[(Option<i64>, &str)] = &[
        (Some(3), "trade_url_invalid"),
        (Some(8), "trade_url_invalid"),
        (Some(12), "trade_url_invalid"),
        (Some(5), "inventory_private"),
        (Some(6), "trade_restricted"),
        (Some(7), "trade_restricted"),
        (Some(21), "inventory_full"),
        (None, "no_offer"),
    ];
    for (code, reason) in cases {
        let skin = win(&shop.app, &t, user).await;
        match code {
            Some(c) => {
                shop.fake.offer(&skin.name, skin.cents * 10);
                shop.fake.script_buy(BuyScript::Fail(*c, "SECRET market text"));
            }
            // The cheapest offer is over the cap.
            None => shop.fake.offer(&skin.name, skin.cap_mills() + 10),
        }
        let wid = withdraw(&shop.app, &t, skin.item).await;
        let r = wait_state(&shop.app, wid, "bounced").await;
        assert_eq!((r.status.as_str(), r.reason.as_deref()), ("error", Some(*reason)), "code {code:?}");
        assert_eq!(item_status(&shop.app, skin.item).await, ("error".to_owned(), Some(reason.to_string())));
        assert_eq!(item_json(&shop.app, &t, skin.item).await["statusReasonCode"], *reason);
    }
    // One message per bounce, with the code only: the market's words never reach the player.
    let sent = notices(&shop.app, user).await;
    let failed: Vec<&Value> = sent.iter().filter(|(k, _)| k == "withdrawal_failed").map(|(_, p)| p).collect();
    assert_eq!(failed.len(), cases.len(), "{sent:?}");
    assert!(!sent.iter().any(|(_, p)| p.to_string().contains("SECRET")), "{sent:?}");
    assert_eq!(admin_notices(&shop.app).await.iter().filter(|b| b.contains("came back to the player")).count(), cases.len());
    assert_eq!(shop.fake.total_purchases(), 0);

    // The player can try again: the next attempt is bought.
    let skin = win(&shop.app, &t, user).await;
    shop.fake.offer(&skin.name, skin.cents * 10);
    shop.fake.script_buy(BuyScript::Fail(5, "private"));
    let wid = withdraw(&shop.app, &t, skin.item).await;
    wait_state(&shop.app, wid, "bounced").await;
    let again = withdraw(&shop.app, &t, skin.item).await;
    wait_state(&shop.app, again, "bought").await;
    shop.app.audit_clean().await;
    shop.app.stop().await;
}

#[tokio::test]
async fn an_offer_not_accepted_in_time_comes_back_as_offer_expired() {
    let shop = shop_with(vec![]).await;
    let user = 23_020;
    let (t, skin) = player_with_skin(&shop, user).await;
    let wid = withdraw(&shop.app, &t, skin.item).await;
    let cid = wait_state(&shop.app, wid, "bought").await.custom_id.unwrap();
    shop.fake.send_offer(&cid, "6500000002");
    wait_state(&shop.app, wid, "offer_sent").await;
    shop.fake.time_out(&cid, "buyer");
    let r = wait_state(&shop.app, wid, "bounced").await;
    assert_eq!(r.reason.as_deref(), Some("offer_expired"));
    assert_eq!(item_status(&shop.app, skin.item).await, ("error".to_owned(), Some("offer_expired".into())));
    let sent = notices(&shop.app, user).await;
    assert_eq!(sent.iter().filter(|(k, p)| k == "withdrawal_failed" && p["code"] == "offer_expired").count(), 1, "{sent:?}");
    // The player sells it instead.
    let (s, b) = shop.app.post("/api/v1/sales/sell", Some(&t), json!({"item_id": skin.item})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    shop.app.audit_clean().await;
    shop.app.stop().await;
}

#[tokio::test]
async fn the_shops_own_failures_wait_in_the_manual_queue_and_the_admins_take_over() {
    let shop = shop_with(vec![]).await;
    let user = 23_030;
    let t = shop.app.sign_in(user, "Waits").await;
    let scripts = [
        (BuyScript::FailText("Not enough money"), "market_balance_low"),
        (BuyScript::Fail(20, "bot banned"), "market_bot_banned"),
        (BuyScript::Fail(2, "something odd"), "market_error"),
    ];
    let mut waiting = Vec::new();
    for (script, reason) in scripts {
        let skin = win(&shop.app, &t, user).await;
        shop.fake.offer(&skin.name, skin.cents * 10);
        shop.fake.script_buy(script);
        let wid = withdraw(&shop.app, &t, skin.item).await;
        let r = wait_state(&shop.app, wid, "manual").await;
        assert_eq!((r.status.as_str(), r.reason.as_deref()), ("pending", Some(reason)));
        // Not bounced: the skin stays in the withdrawal, the player is told nothing.
        assert_eq!(item_status(&shop.app, skin.item).await.0, "pending");
        waiting.push((wid, skin));
    }
    assert!(notices(&shop.app, user).await.is_empty());
    let told = admin_notices(&shop.app).await;
    for reason in ["market_balance_low", "market_bot_banned", "market_error"] {
        assert!(told.iter().any(|b| b.contains("manual queue") && b.contains(reason)), "{told:?}");
    }
    assert_eq!(shop.fake.total_purchases(), 0);

    // An admin sends the first by hand, fails the second; the third goes back to the market,
    // but only once the market has had its whole window to show a purchase under the answer we
    // did not understand: until then nobody sends it by hand or buys it again.
    let domain = shop.app.domain();
    withdrawals::resolve(domain, waiting[0].0, Resolution::Sent, ADMIN_ID).await.unwrap();
    assert_eq!(item_status(&shop.app, waiting[0].1.item).await.0, "sent");
    let failed = Resolution::Failed { code: "item_unavailable".into(), note: None };
    withdrawals::resolve(domain, waiting[1].0, failed, ADMIN_ID).await.unwrap();
    assert_eq!(item_status(&shop.app, waiting[1].1.item).await.0, "error");
    let err = webapp_api::domain::delivery::requeue(domain, waiting[2].0).await.unwrap_err();
    assert!(matches!(err, DomainError::PurchaseLive), "{err:?}");
    let err = withdrawals::resolve(domain, waiting[2].0, Resolution::Sent, ADMIN_ID).await.unwrap_err();
    assert!(matches!(err, DomainError::PurchaseLive), "{err:?}");
    shop.clock.advance(9);
    let started = Instant::now();
    while let Err(e) = webapp_api::domain::delivery::requeue(domain, waiting[2].0).await {
        assert!(matches!(e, DomainError::PurchaseLive) && started.elapsed() < DEADLINE, "{e:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let r = wait_state(&shop.app, waiting[2].0, "bought").await;
    assert_eq!(r.attempt, 2);

    // While a purchase is live nobody takes it over by hand.
    let err = withdrawals::resolve(domain, waiting[2].0, Resolution::Sent, ADMIN_ID).await.unwrap_err();
    assert!(matches!(err, DomainError::PurchaseLive), "{err:?}");
    assert_eq!(shop.fake.total_purchases(), 1);
    shop.app.audit_clean().await;
    shop.app.stop().await;
}

#[tokio::test]
async fn the_daily_budget_holds_and_a_stuck_withdrawal_is_raised() {
    let shop = shop_with(vec![("MARKET_DAILY_BUDGET_USD", "0.01".into()), ("MARKET_STUCK_AFTER_MINUTES", "30".into())]).await;
    let user = 23_040;
    let (t, skin) = player_with_skin(&shop, user).await;
    let wid = withdraw(&shop.app, &t, skin.item).await;
    let r = wait_state(&shop.app, wid, "manual").await;
    assert_eq!(r.reason.as_deref(), Some("daily_budget"));
    assert!(shop.fake.prices_asked().is_empty(), "nothing asked of the market over the budget");
    assert!(admin_notices(&shop.app).await.iter().any(|b| b.contains("budget")));
    let (spent,): (i64,) = sqlx::query_as("SELECT CAST(COALESCE(SUM(spent_cents), 0) AS BIGINT) FROM market_spend")
        .fetch_one(&shop.app.domain().db)
        .await
        .unwrap();
    assert_eq!(spent, 0);
    shop.app.stop().await;

    // A purchase that never gets its offer is raised to the admins once.
    let shop = shop_with(vec![("MARKET_STUCK_AFTER_MINUTES", "30".into())]).await;
    let (t, skin) = player_with_skin(&shop, 23_041).await;
    let wid = withdraw(&shop.app, &t, skin.item).await;
    wait_state(&shop.app, wid, "bought").await;
    shop.clock.advance(31 * 60);
    let started = Instant::now();
    while !admin_notices(&shop.app).await.iter().any(|b| b.contains("stuck")) {
        assert!(started.elapsed() < DEADLINE, "never raised: {:?}", admin_notices(&shop.app).await);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(admin_notices(&shop.app).await.iter().filter(|b| b.contains("stuck")).count(), 1);
    shop.app.audit_clean().await;
    shop.app.stop().await;
}

#[tokio::test]
async fn lost_answers_are_looked_up_before_any_retry_and_nothing_is_bought_twice() {
    let shop = shop_with(vec![]).await;
    let user = 23_050;
    let t = shop.app.sign_in(user, "Lost").await;
    // Bought, then the answer comes too late (timeout 1 s), or never; the market records one
    // purchase only when its slow answer comes (our look-ups right after the timeout find
    // nothing); one shows its purchases to status calls 2 s late.
    let scripts = [
        (BuyScript::Slow(Duration::from_secs(3)), Duration::ZERO),
        (BuyScript::DropAfterRecording, Duration::ZERO),
        (BuyScript::SlowThenRecord(Duration::from_secs(3)), Duration::ZERO),
        (BuyScript::DropAfterRecording, Duration::from_secs(2)),
    ];
    for (script, lag) in scripts.iter().cloned() {
        shop.fake.set_status_lag(lag);
        let skin = win(&shop.app, &t, user).await;
        shop.fake.offer(&skin.name, skin.cents * 10);
        shop.fake.script_buy(script.clone());
        let before = shop.fake.calls("buy-for");
        let wid = withdraw(&shop.app, &t, skin.item).await;
        let r = wait_state(&shop.app, wid, "bought").await;
        assert_eq!(r.attempt, 1, "{script:?}: found by its custom id, not bought again");
        assert_eq!(shop.fake.calls("buy-for"), before + 1, "{script:?}: one call, however late the market knew it");
        assert_eq!(shop.fake.purchases_of(r.custom_id.as_deref().unwrap()), 1);
    }
    shop.fake.set_status_lag(Duration::ZERO);
    assert_eq!(shop.fake.total_purchases(), scripts.len());

    // A 502 before the market recorded anything: unknown, looked up again and again, and no new
    // attempt until a look-up after the whole window (8 s of the shop's clock) still finds nothing.
    let skin = win(&shop.app, &t, user).await;
    shop.fake.offer(&skin.name, skin.cents * 10);
    shop.fake.script_buy(BuyScript::Status(502));
    let wid = withdraw(&shop.app, &t, skin.item).await;
    let outcome = |app: &TestApp| {
        let db = app.domain().db.clone();
        async move {
            sqlx::query_as::<_, (String,)>("SELECT outcome FROM market_attempts WHERE withdrawal_id = $1 AND attempt = 1")
                .bind(wid)
                .fetch_optional(&db)
                .await
                .unwrap()
                .map(|r| r.0)
        }
    };
    let started = Instant::now();
    while outcome(&shop.app).await.as_deref() != Some("unknown") {
        assert!(started.elapsed() < DEADLINE, "the lost attempt never became unknown");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let looked = shop.fake.calls("get-list-buy-info-by-custom-id");
    while shop.fake.calls("get-list-buy-info-by-custom-id") < looked + 5 {
        assert!(started.elapsed() < DEADLINE, "no look-ups");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let r = row(&shop.app, wid).await;
    assert_eq!((r.state.as_deref(), r.attempt), (Some("buying"), 1), "still waiting for the market to say");
    assert_eq!(outcome(&shop.app).await.as_deref(), Some("unknown"));
    shop.clock.advance(9);
    let r = wait_state(&shop.app, wid, "bought").await;
    assert_eq!(r.attempt, 2);
    assert_eq!(outcome(&shop.app).await.as_deref(), Some("not_bought"));
    assert_eq!(shop.fake.total_purchases(), scripts.len() + 1);
    let (attempts,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM market_attempts WHERE withdrawal_id = $1")
        .bind(wid)
        .fetch_one(&shop.app.domain().db)
        .await
        .unwrap();
    assert_eq!(attempts, 2, "each attempt has its own custom id");
    shop.app.audit_clean().await;
    shop.app.stop().await;
}

/// Two workers driven by hand: a lease covers one withdrawal, and a worker whose lease ran out
/// stops before calling the market even when nobody else has claimed it yet (the fence is in the
/// write that starts the attempt).
#[tokio::test]
async fn a_worker_whose_lease_ran_out_stops_before_calling_the_market() {
    use webapp_api::domain::delivery::{self, Worker};
    use webapp_api::domain::market::{MarketConfig, Provider};
    // The shop's own worker ticks once at start, then sleeps for an hour: the test drives two.
    let shop = shop_with(vec![("MARKET_POLL_SECS", "3600".into())]).await;
    let (t, skin) = player_with_skin(&shop, 23_055).await;
    let wid = withdraw(&shop.app, &t, skin.item).await;
    let mut market = MarketConfig::new(Provider::MarketCsgo, KEY.into());
    market.api_url = shop.fake.url.clone();
    market.request_timeout = Duration::from_secs(1);
    market.requests_per_sec = 50;
    let settings = delivery::Settings {
        market: market.clone(),
        tokens_per_usd: webapp_api::domain::Tokens::whole(100),
        buying: true,
        lease: Duration::from_secs(3),
        stuck_after: Duration::from_secs(3600),
        admins: vec![ADMIN_ID],
        max_attempts: 5,
        lookup_window: Duration::from_secs(8),
        bounce_limit: 3,
        bounce_window: Duration::from_secs(86_400),
    };
    let domain = shop.app.domain().clone();
    let worker = |holder: &str| Worker {
        domain: domain.clone(),
        market: delivery::connect_market(&domain, &market).unwrap(),
        settings: settings.clone(),
        holder: holder.into(),
        account_ok: true,
    };
    let (a, b) = (worker("a"), worker("b"));
    assert_eq!(a.claim_one().await.unwrap(), Some(wid));
    assert_eq!(b.claim_one().await.unwrap(), None, "a leased withdrawal is nobody else's");
    shop.clock.advance(4);
    a.work(wid).await.unwrap();
    assert_eq!(shop.fake.calls("buy-for"), 0, "a worker whose lease ran out does not call the market");
    assert_eq!(row(&shop.app, wid).await.state.as_deref(), Some("queued"));
    assert_eq!(b.claim_one().await.unwrap(), Some(wid));
    b.work(wid).await.unwrap();
    a.work(wid).await.unwrap();
    assert_eq!(shop.fake.calls("buy-for"), 1);
    let r = row(&shop.app, wid).await;
    assert_eq!((r.state.as_deref(), r.attempt), (Some("bought"), 1));
    shop.app.audit_clean().await;
    shop.app.stop().await;
}

/// A player whose offers keep failing on their side cannot loop purchases of one skin: after
/// `MARKET_BOUNCE_LIMIT` (3) bounces within the window its next withdrawal waits for the admins.
#[tokio::test]
async fn a_skin_that_keeps_bouncing_waits_for_the_admins_instead_of_being_bought_again() {
    let shop = shop_with(vec![]).await;
    let (t, skin) = player_with_skin(&shop, 23_057).await;
    for _ in 0..3 {
        let wid = withdraw(&shop.app, &t, skin.item).await;
        let cid = wait_state(&shop.app, wid, "bought").await.custom_id.unwrap();
        shop.fake.time_out(&cid, "buyer");
        wait_state(&shop.app, wid, "bounced").await;
    }
    let wid = withdraw(&shop.app, &t, skin.item).await;
    let r = wait_state(&shop.app, wid, "manual").await;
    assert_eq!(r.reason.as_deref(), Some("bounce_limit"));
    assert_eq!(shop.fake.calls("buy-for"), 3, "the fourth is not bought");
    let told = admin_notices(&shop.app).await;
    assert!(told.iter().any(|b| b.contains(&format!("Withdrawal #{wid}")) && b.contains("came back 3 times")), "{told:?}");
    // A day later the operator may put it back: the old bounces no longer count.
    shop.clock.advance(24 * 3600 + 1);
    webapp_api::domain::delivery::requeue(shop.app.domain(), wid).await.unwrap();
    wait_state(&shop.app, wid, "bought").await;
    assert_eq!(shop.fake.calls("buy-for"), 4);
    shop.app.stop().await;
}

/// The API key's pace and the day's budget are shared by every process on the database: two
/// shops on one database take request slots that never come closer than the pace allows, and
/// concurrent reservations never pass the budget.
#[tokio::test]
async fn the_market_pace_and_the_daily_budget_are_shared_by_every_process() {
    use webapp_api::domain::delivery::{self, SharedPace};
    let dir = TempDir::new();
    let db_url = if on_postgres() { fresh_database_url(&dir.0).await } else { format!("sqlite://{}", dir.0.join("shared.db").display()) };
    let a = TestApp::start(Options { env: vec![("DATABASE_URL", db_url.clone())], ..Options::default() }).await;
    let b = TestApp::start(Options { env: vec![("DATABASE_URL", db_url.clone())], ..Options::default() }).await;
    let paces = [Arc::new(SharedPace::new(a.domain().clone(), "test", 5)), Arc::new(SharedPace::new(b.domain().clone(), "test", 5))];
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..40 {
        let pace = paces[i % 2].clone();
        tasks.spawn(async move { pace.take_slot(now).await.unwrap() });
    }
    let mut slots = tasks.join_all().await;
    slots.sort_unstable();
    assert_eq!(slots[0], now);
    for pair in slots.windows(2) {
        assert_eq!(pair[1] - pair[0], 200, "5 a second, whichever process asks: {slots:?}");
    }

    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..20 {
        let domain = if i % 2 == 0 { a.domain().clone() } else { b.domain().clone() };
        tasks.spawn(async move { domain.write(|tx| Box::pin(delivery::reserve(tx, "2026-11-27", 300, 1_000))).await.unwrap() });
    }
    let reserved = tasks.join_all().await.into_iter().filter(|r| *r).count();
    assert_eq!(reserved, 3, "three caps of $3 fit a $10 budget");
    assert_eq!(delivery::spent_on(a.domain(), "2026-11-27").await.unwrap(), Usd::from_cents(900));
    a.stop().await;
    b.stop().await;
}

#[tokio::test]
async fn a_sellers_reversal_gives_the_skin_back_and_a_players_gives_nothing() {
    let shop = shop_with(vec![]).await;
    let user = 23_060;
    let t = shop.app.sign_in(user, "Reversal").await;
    let mut delivered = Vec::new();
    for _ in 0..2 {
        let skin = win(&shop.app, &t, user).await;
        shop.fake.offer(&skin.name, skin.cents * 10);
        let wid = withdraw(&shop.app, &t, skin.item).await;
        let cid = wait_state(&shop.app, wid, "bought").await.custom_id.unwrap();
        shop.fake.deliver(&cid);
        wait_state(&shop.app, wid, "settling").await;
        delivered.push((wid, cid, skin));
    }
    let stats = webapp_api::domain::admin::stats(shop.app.domain(), webapp_api::domain::admin::Actor::Cli).await.unwrap();
    assert_eq!(stats.settling_withdrawals, 2);
    let value: i64 = sqlx::query_as::<_, (i64,)>("SELECT CAST(SUM(token_price) AS BIGINT) FROM inventory_items WHERE status = 'sent'")
        .fetch_one(&shop.app.domain().db)
        .await
        .unwrap()
        .0;
    assert_eq!(stats.settling_value.0, value);
    let (seller_w, seller_cid, seller_skin) = &delivered[0];
    shop.fake.reverse_by_seller(seller_cid);
    let r = wait_state(&shop.app, *seller_w, "reversed").await;
    assert_eq!((r.status.as_str(), r.reason.as_deref()), ("error", Some("seller_reversed")));
    assert_eq!(item_status(&shop.app, seller_skin.item).await, ("error".to_owned(), Some("seller_reversed".into())));

    let (player_w, player_cid, player_skin) = &delivered[1];
    shop.fake.reverse_by_player(player_cid);
    let r = wait_state(&shop.app, *player_w, "player_reversed").await;
    assert_eq!(r.status, "sent");
    assert_eq!(item_status(&shop.app, player_skin.item).await.0, "sent", "nothing goes back");
    // Polled again and again: still one item back, one message.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sent = notices(&shop.app, user).await;
    assert_eq!(sent.iter().filter(|(k, p)| k == "withdrawal_failed" && p["code"] == "seller_reversed").count(), 1, "{sent:?}");
    assert!(admin_notices(&shop.app).await.iter().any(|b| b.contains("player reversed")));
    // The operators see what is still settling.
    let stats = webapp_api::domain::admin::stats(shop.app.domain(), webapp_api::domain::admin::Actor::Cli).await.unwrap();
    assert_eq!(stats.settling_withdrawals, 0, "one reversed by the seller, one by the player: none settling");
    // The returned skin can leave again.
    let again = withdraw(&shop.app, &t, seller_skin.item).await;
    wait_state(&shop.app, again, "bought").await;
    shop.app.audit_clean().await;
    shop.app.stop().await;
}

#[tokio::test]
async fn without_a_provider_withdrawals_stay_manual() {
    let app = TestApp::demo().await;
    let user = 23_070;
    let t = app.sign_in(user, "Manual").await;
    let skin = win(&app, &t, user).await;
    let wid = withdraw(&app, &t, skin.item).await;
    let r = row(&app, wid).await;
    assert_eq!((r.status.as_str(), r.state, r.custom_id), ("pending", None, None));
    assert!(item_json(&app, &t, skin.item).await["deliveryState"].is_null());
    assert!(!app.domain().delivery.is_enabled(), "no worker runs");
    withdrawals::resolve(app.domain(), wid, Resolution::Sent, ADMIN_ID).await.unwrap();
    assert_eq!(row(&app, wid).await.state, None);
    app.audit_clean().await;
    app.stop().await;
}

#[tokio::test]
async fn start_up_refuses_a_market_account_that_is_not_in_dollars() {
    let fake = FakeMarket::start().await;
    fake.set_money(1_000_000, "RUB");
    let dir = TempDir::new();
    let mut env = market_env(&fake);
    env.push(("DATABASE_URL", format!("sqlite://{}", dir.0.join("fragbox.db").display())));
    env.push(("BIND_ADDR", "127.0.0.1:0".into()));
    env.push(("CATALOG_DIR", repo_root().join("data/catalog").display().to_string()));
    let map: std::collections::HashMap<&str, String> = env.into_iter().collect();
    let config = fragbox::Config::from_lookup(&move |k| map.get(k).cloned()).unwrap();
    let err = fragbox::start(config).await.err().expect("refused").message;
    assert!(err.contains("RUB") && err.contains("USD"), "{err}");
}

// --- The real binary: SIGKILL in the middle of buy-for, and two replicas on PostgreSQL. ---

fn delivery_env(dir: &Path, db_url: &str, fake: &FakeMarket) -> Vec<(&'static str, String)> {
    let mut env = proc_env(dir, db_url);
    env.extend([("ADMIN_IDS", ADMIN_ID.to_string()), ("WITHDRAW_MIN_STARS", "0".into())]);
    env.extend(market_env(fake));
    env
}

/// A demo player of a spawned process opens a case and asks for its skin: (token, item json, withdrawal id).
async fn demo_withdrawal(http: &reqwest::Client, base: &str, fake: &FakeMarket, before_withdraw: impl FnOnce()) -> (String, Value, i64) {
    let d: Value = http.get(format!("{base}/api/v1/dev/init-data")).send().await.unwrap().json().await.unwrap();
    let a: Value =
        http.post(format!("{base}/api/v1/auth")).json(&json!({ "initData": d["initData"] })).send().await.unwrap().json().await.unwrap();
    let token = a["token"].as_str().unwrap().to_owned();
    let (s, b) = read(http.post(format!("{base}{}", open_path())).bearer_auth(&token).json(&json!({})).send().await.unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let item = b["item"].clone();
    // Offered at a cent: under any cap.
    fake.offer(item["marketHashName"].as_str().unwrap(), 10);
    before_withdraw();
    let url = format!("{base}/api/v1/user/item/{}/request-withdrawal", item["id"]);
    let (s, b) = read(http.post(url).bearer_auth(&token).json(&json!({"trade_url": TRADE_URL})).send().await.unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    (token, item, b["withdrawalId"].as_i64().unwrap())
}

async fn delivery_state(http: &reqwest::Client, base: &str, token: &str, item: i64) -> Option<String> {
    let (s, b) = read(http.get(format!("{base}/api/v1/user/item/{item}")).bearer_auth(token).send().await.unwrap()).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    b["item"]["deliveryState"].as_str().map(str::to_owned)
}

#[tokio::test]
async fn a_sigkill_in_the_middle_of_buy_for_is_resolved_by_look_up_and_buys_once() {
    if on_postgres() {
        return; // the SQLite file of the killed process is the point; PostgreSQL has the replicas test
    }
    let fake = FakeMarket::start().await;
    let dir = TempDir::new();
    let db_url = format!("sqlite://{}", dir.0.join("fragbox.db").display());
    let mut env = delivery_env(&dir.0, &db_url, &fake);
    // Long enough that the first process is surely still inside buy-for when it is killed.
    env.retain(|(k, _)| !matches!(*k, "MARKET_TIMEOUT_SECS" | "MARKET_LEASE_SECS"));
    env.push(("MARKET_TIMEOUT_SECS", "5".into()));
    env.push(("MARKET_LEASE_SECS", "10".into()));
    let http = reqwest::Client::new();

    let mut first = Proc::start(&dir.0, &env);
    let (token, item, _wid) =
        demo_withdrawal(&http, &first.base, &fake, || fake.script_buy(BuyScript::Slow(Duration::from_secs(600)))).await;
    // The market has recorded the purchase and is holding the answer: kill the process now.
    let started = Instant::now();
    while fake.calls("buy-for") == 0 {
        assert!(started.elapsed() < DEADLINE, "buy-for never called");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    first.child.kill().unwrap(); // SIGKILL
    first.child.wait().unwrap();
    assert_eq!(fake.total_purchases(), 1);

    let second = Proc::start(&dir.0, &env);
    let id = item["id"].as_i64().unwrap();
    let started = Instant::now();
    // After the dead process's lease runs out, the survivor looks the custom id up.
    loop {
        let state = delivery_state(&http, &second.base, &token, id).await;
        if state.as_deref() == Some("bought") {
            break;
        }
        assert!(started.elapsed() < DEADLINE, "still {state:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(fake.calls("buy-for"), 1, "never bought again");
    assert_eq!(fake.total_purchases(), 1);
    let cid = fake.custom_ids().pop().unwrap();
    fake.deliver(&cid);
    let started = Instant::now();
    while delivery_state(&http, &second.base, &token, id).await.as_deref() != Some("settling") {
        assert!(started.elapsed() < DEADLINE);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(second);
    // The command runs beside this test's runtime, which serves the fake market it may call.
    let run = |args: &'static [&'static str]| {
        let (env, dir) = (env.clone(), dir.0.clone());
        async move {
            tokio::task::spawn_blocking(move || {
                let out = Command::new(BIN).args(args).envs(env.iter().map(|(k, v)| (*k, v.as_str()))).current_dir(&dir).output().unwrap();
                (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
            })
            .await
            .unwrap()
        }
    };
    let (ok, text) = run(&["audit"]).await;
    assert!(ok && text.contains("audit clean"), "{text}");
    // The operators' views: the market state, custom id and price paid; the balance and today's spend.
    let (ok, text) = run(&["withdrawals", "list"]).await;
    assert!(ok && text.contains("market: settling") && text.contains(&format!("custom id {cid}")) && text.contains("paid $0.01"), "{text}");
    let (ok, text) = run(&["market", "balance"]).await;
    assert!(ok && text.contains("balance $99.99") && text.contains("spent today") && text.contains("$0.01 of no limit"), "{text}");
}

/// Two processes over one database (two replicas on PostgreSQL, two processes on one SQLite
/// file) against a market that answers late, records a purchase only when its slow answer comes,
/// drops answers and shows purchases to its status calls late: each withdrawal is bought once.
#[tokio::test]
async fn two_processes_on_one_database_buy_each_withdrawal_once() {
    let dir = TempDir::new();
    let db_url = if on_postgres() { fresh_database_url(&dir.0).await } else { format!("sqlite://{}", dir.0.join("fragbox.db").display()) };
    let fake = FakeMarket::start().await;
    fake.set_status_lag(Duration::from_secs(2));
    let (da, db) = (dir.0.join("a"), dir.0.join("b"));
    std::fs::create_dir_all(&da).unwrap();
    std::fs::create_dir_all(&db).unwrap();
    let (ea, eb) = (delivery_env(&da, &db_url, &fake), delivery_env(&db, &db_url, &fake));
    // One after the other: the first creates the shop (a fresh SQLite file is created and
    // migrated by one process), then both work it together.
    let a = tokio::task::spawn_blocking(move || Proc::start(&da, &ea)).await.unwrap();
    let b = tokio::task::spawn_blocking(move || Proc::start(&db, &eb)).await.unwrap();
    let http = reqwest::Client::new();
    // Some answers are lost on the way, one purchase exists only once its slow answer comes:
    // found by look-up, by whichever process polls.
    fake.script_buy(BuyScript::DropAfterRecording);
    fake.script_buy(BuyScript::SlowThenRecord(Duration::from_secs(3)));
    fake.script_buy(BuyScript::Slow(Duration::from_secs(3)));
    let mut withdrawals = Vec::new();
    for i in 0..6 {
        let base = if i % 2 == 0 { &a.base } else { &b.base };
        let (token, item, wid) = demo_withdrawal(&http, base, &fake, || {}).await;
        withdrawals.push((base.clone(), token, item["id"].as_i64().unwrap(), wid));
    }
    let started = Instant::now();
    for (base, token, item, _) in &withdrawals {
        while delivery_state(&http, base, token, *item).await.as_deref() != Some("bought") {
            assert!(started.elapsed() < DEADLINE, "item {item} not bought");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    assert_eq!(fake.total_purchases(), withdrawals.len(), "each withdrawal bought once: {:?}", fake.custom_ids());
    for cid in fake.custom_ids() {
        assert_eq!(fake.purchases_of(&cid), 1);
    }
    drop(a);
    drop(b);
    let pool = webapp_api::domain::store::open(&db_url).await.unwrap();
    let problems = webapp_api::domain::audit::run(&pool).await.unwrap();
    assert!(problems.is_empty(), "{problems:#?}");
    let (bought,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM market_attempts WHERE outcome = 'bought'").fetch_one(&pool).await.unwrap();
    assert_eq!(bought, withdrawals.len() as i64);
    pool.close().await;
    drop_database(&db_url).await;
}

/// A refund of the Stars purchase while the skin is being bought counts the skin as gone (the
/// debt grows); when the purchase fails and the skin comes back, it settles against that debt.
#[tokio::test]
async fn a_refund_during_a_purchase_counts_the_skin_gone_and_its_return_settles_the_debt() {
    use crate::payments::say;
    let catalog = catalog_with_dear_case();
    let fake = FakeMarket::start().await;
    let mut env = market_env(&fake);
    env.push(("CATALOG_DIR", catalog.0.display().to_string()));
    let app = TestApp::start(Options { bot: true, env, ..Options::default() }).await;
    let user = 23_080;
    let Payer { token: t, charge, .. } = app.paying_player(user, 1250).await;
    let (s, opened) = app.post(&format!("/api/v1/cases/{DEAR_CASE}/open"), Some(&t), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{opened}");
    let item = opened["item"]["id"].as_i64().unwrap();
    let (name, price): (String, i64) = sqlx::query_as("SELECT market_hash_name, token_price FROM inventory_items WHERE id = $1")
        .bind(item)
        .fetch_one(&app.domain().db)
        .await
        .unwrap();
    fake.offer(&name, price / 10);
    let wid = withdraw(&app, &t, item).await;
    let cid = wait_state(&app, wid, "bought").await.custom_id.unwrap();

    say(&app, ADMIN_ID, &format!("/refund {charge} force"), "Refunded 1250").await;
    assert_eq!(item_status(&app, item).await.0, "pending", "a skin being bought is not taken back");
    assert_eq!(row(&app, wid).await.state.as_deref(), Some("bought"));
    let debt = |app: &TestApp| {
        let db = app.domain().db.clone();
        async move { sqlx::query_as::<_, (i64,)>("SELECT debt FROM users WHERE id = $1").bind(user).fetch_one(&db).await.unwrap().0 }
    };
    let owed = debt(&app).await;
    assert!(owed > 0, "the skin counted as gone: the refund left a debt");

    // The seller never sends it: the skin comes back, and is sold against the debt at once.
    fake.time_out(&cid, "seller");
    wait_state(&app, wid, "bounced").await;
    assert_eq!(item_status(&app, item).await.0, "sold");
    assert!(debt(&app).await < owed, "the sale repaid the debt first");
    app.audit_clean().await;
    app.stop().await;
}

/// The provider switched off (`MARKET_PROVIDER=none`, the key kept): a purchase in flight is
/// followed to delivery, nothing new is bought, and new withdrawals are manual again. The
/// admins' `/withdrawals` shows the market side, without buttons while a purchase is live.
#[tokio::test]
async fn switched_off_the_provider_lets_purchases_in_flight_finish_and_buys_nothing_new() {
    use crate::payments::{say, wait_message};
    let fake = FakeMarket::start().await;
    let dir = TempDir::new();
    let db_url = fresh_database_url(&dir.0).await;
    let mut env = market_env(&fake);
    env.push(("DATABASE_URL", db_url.clone()));
    let mut on = TestApp::start(Options { bot: true, env: env.clone(), ..Options::default() }).await;
    let user = 23_090;
    let t = on.sign_in(user, "InFlight").await;
    let skin = win(&on, &t, user).await;
    fake.offer(&skin.name, skin.cents * 10);
    let wid = withdraw(&on, &t, skin.item).await;
    let cid = wait_state(&on, wid, "bought").await.custom_id.unwrap();
    let listed = say(&on, ADMIN_ID, "/withdrawals", &format!("custom id {cid}")).await;
    assert!(listed["text"].as_str().unwrap().contains("Market: bought"), "{listed}");
    assert!(listed.get("reply_markup").is_none_or(Value::is_null), "no take-over buttons while a purchase is live: {listed}");
    on.running.take().unwrap().shutdown().await;

    env.retain(|(k, _)| *k != "MARKET_PROVIDER");
    env.push(("MARKET_PROVIDER", "none".into()));
    let off = TestApp::start(Options { bot: true, env, ..Options::default() }).await;
    let t = off.sign_in(user, "InFlight").await;
    fake.send_offer(&cid, "6500000009");
    wait_state(&off, wid, "offer_sent").await;
    wait_message(&off, user, "https://steamcommunity.com/my/tradeoffers").await;
    fake.deliver(&cid);
    wait_state(&off, wid, "settling").await;

    let next = win(&off, &t, user).await;
    fake.offer(&next.name, next.cents * 10);
    let manual = withdraw(&off, &t, next.item).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let r = row(&off, manual).await;
    assert_eq!((r.state, r.custom_id), (None, None), "a manual withdrawal again");
    assert_eq!(fake.calls("buy-for"), 1, "nothing new bought");
    off.audit_clean().await;
    off.stop().await;
}
