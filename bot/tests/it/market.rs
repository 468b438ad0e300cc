//! The market.csgo.com adapter against the fake market: every answer maps to the right domain
//! outcome, and a purchase whose answer was lost is found by its `custom_id`, never bought twice.
use std::sync::Arc;
use std::time::{Duration, Instant};

use webapp_api::domain::market::connect::connect;
use webapp_api::domain::market::{
    check_account, look_up, statuses_batched, BuyOutcome, Causer, CustomId, LocalPace, Market, MarketConfig, MarketError, Provider,
    Purchase, Refusal, ShopRefusal, Stage, Usd,
};

use crate::fake_market::{BuyScript, FakeMarket, KEY};

const SKIN: &str = "AK-47 | Redline (Field-Tested)";

async fn market_with(fake: &FakeMarket, tune: impl FnOnce(&mut MarketConfig)) -> Arc<dyn Market> {
    let mut config = MarketConfig::new(Provider::MarketCsgo, KEY.into());
    config.api_url = fake.url.clone();
    config.request_timeout = Duration::from_millis(800);
    config.requests_per_sec = 100;
    tune(&mut config);
    // The adapter alone: one process's pace (the shop's worker shares it through the database).
    connect(&config, Arc::new(LocalPace::new(config.requests_per_sec))).expect("market adapter")
}

async fn setup() -> (FakeMarket, Arc<dyn Market>) {
    let fake = FakeMarket::start().await;
    fake.offer(SKIN, 5_210);
    let market = market_with(&fake, |_| {}).await;
    (fake, market)
}

fn purchase(custom_id: &str, max_cents: i64) -> Purchase {
    Purchase {
        market_hash_name: SKIN.into(),
        partner: 123_456_789,
        token: "AbC_d-9".into(),
        max_price: Usd::from_cents(max_cents),
        custom_id: CustomId::parse(custom_id).unwrap(),
    }
}

fn id(raw: &str) -> CustomId {
    CustomId::parse(raw).unwrap()
}

#[tokio::test]
async fn a_purchase_is_bought_under_the_cap_and_followed_to_delivery() {
    let (fake, market) = setup().await;

    let outcome = market.buy(&purchase("wd-1-a", 550)).await;

    assert!(matches!(outcome, BuyOutcome::Bought { ref market_id } if !market_id.is_empty()), "{outcome:?}");
    assert_eq!(fake.prices_asked(), vec![5_500], "the cap goes out in thousandths of a dollar");
    let sent = fake.purchase("wd-1-a").unwrap();
    assert_eq!((sent.partner.as_str(), sent.token.as_str(), sent.hash_name.as_str()), ("123456789", "AbC_d-9", SKIN));

    let new = look_up(&*market, &id("wd-1-a")).await.unwrap().unwrap();
    assert_eq!((new.stage, new.trade_id, new.paid), (Stage::New, None, Some(Usd::from_cents(521))));

    fake.send_offer("wd-1-a", "6500000001");
    let offered = look_up(&*market, &id("wd-1-a")).await.unwrap().unwrap();
    assert_eq!((offered.stage, offered.trade_id.as_deref()), (Stage::New, Some("6500000001")));

    fake.deliver("wd-1-a");
    fake.settle("wd-1-a", 1_767_225_600);
    let delivered = look_up(&*market, &id("wd-1-a")).await.unwrap().unwrap();
    assert_eq!((delivered.stage, delivered.settled_at), (Stage::Delivered, Some(1_767_225_600)));
}

#[tokio::test]
async fn every_refusal_code_maps_to_its_reason_and_buys_nothing() {
    let (fake, market) = setup().await;
    let cases = [
        (3, "trade_url_invalid"),
        (8, "trade_url_invalid"),
        (12, "trade_url_invalid"),
        (5, "inventory_private"),
        (6, "trade_restricted"),
        (7, "trade_restricted"),
        (21, "inventory_full"),
        (20, "market_bot_banned"),
        (2, "market_error"),
    ];
    for (n, (code, reason)) in cases.into_iter().enumerate() {
        fake.script_buy(BuyScript::Fail(code, "refused"));
        let custom_id = format!("wd-code-{n}");

        let outcome = market.buy(&purchase(&custom_id, 550)).await;

        let BuyOutcome::Refused(refusal) = outcome else { panic!("code {code}: {outcome:?}") };
        assert_eq!(refusal.code(), reason, "code {code}");
        assert_eq!(refusal.is_players(), !matches!(code, 2 | 20), "code {code}");
        assert_eq!(fake.purchases_of(&custom_id), 0);
    }
}

#[tokio::test]
async fn no_offer_under_the_cap_is_the_players_and_no_money_is_the_shops() {
    let (fake, market) = setup().await;

    let cheap = market.buy(&purchase("wd-2-a", 500)).await;
    assert_eq!(cheap, BuyOutcome::Refused(Refusal::NoOffer), "the cheapest offer is $5.21, over a $5.00 cap");

    fake.set_money(1_000, "USD");
    let broke = market.buy(&purchase("wd-2-b", 600)).await;
    assert_eq!(broke, BuyOutcome::Refused(Refusal::ShopSide(ShopRefusal::NotEnoughMoney)));
    assert!(!Refusal::ShopSide(ShopRefusal::NotEnoughMoney).is_players());

    fake.script_buy(BuyScript::FailText("Недостаточно средств на счету"));
    assert_eq!(market.buy(&purchase("wd-2-c", 600)).await, BuyOutcome::Refused(Refusal::ShopSide(ShopRefusal::NotEnoughMoney)));
}

#[tokio::test]
async fn transport_failures_of_a_buy_are_lost_and_of_a_status_call_unavailable() {
    let (fake, market) = setup().await;
    for status in [500, 502, 429, 401] {
        fake.script_buy(BuyScript::Status(status));
        let outcome = market.buy(&purchase(&format!("wd-3-{status}"), 550)).await;
        assert!(matches!(outcome, BuyOutcome::Lost(ref why) if why.contains(&status.to_string())), "{status}: {outcome:?}");
    }

    let dead = market_with(&fake, |c| c.api_url = "http://127.0.0.1:9".into()).await;
    assert!(matches!(dead.buy(&purchase("wd-3-x", 550)).await, BuyOutcome::Lost(_)));
    assert!(matches!(look_up(&*dead, &id("wd-3-x")).await, Err(MarketError::Unavailable(_))));

    let wrong_key = {
        let mut config = MarketConfig::new(Provider::MarketCsgo, "not-the-key".into());
        config.api_url = fake.url.clone();
        connect(&config, Arc::new(LocalPace::new(config.requests_per_sec))).unwrap()
    };
    assert!(matches!(wrong_key.balance().await, Err(MarketError::Unauthorized(_))));
}

#[tokio::test]
async fn a_slow_answer_is_lost_and_the_look_up_finds_the_purchase() {
    let (fake, market) = setup().await;
    fake.script_buy(BuyScript::Slow(Duration::from_secs(3)));

    let outcome = market.buy(&purchase("wd-4-a", 550)).await;

    assert!(matches!(outcome, BuyOutcome::Lost(ref why) if why.contains("timeout")), "{outcome:?}");
    let found = look_up(&*market, &id("wd-4-a")).await.unwrap();
    assert_eq!(found.map(|s| s.stage), Some(Stage::New));
}

/// The worker's rule, as the lead will write it: after `Lost`, look the id up; buy again only if
/// the market does not know it.
async fn buy_or_resolve(market: &dyn Market, purchase: &Purchase) -> BuyOutcome {
    match market.buy(purchase).await {
        BuyOutcome::Lost(_) => match look_up(market, &purchase.custom_id).await {
            Ok(Some(_)) => BuyOutcome::Bought { market_id: String::new() },
            Ok(None) => market.buy(purchase).await,
            Err(e) => BuyOutcome::Lost(e.to_string()),
        },
        other => other,
    }
}

#[tokio::test]
async fn a_buy_whose_answer_was_dropped_is_found_by_custom_id_and_never_bought_twice() {
    let (fake, market) = setup().await;
    let before = fake.money_mills();
    fake.script_buy(BuyScript::DropAfterRecording);

    let outcome = buy_or_resolve(&*market, &purchase("wd-5-a", 550)).await;

    assert!(matches!(outcome, BuyOutcome::Bought { .. }), "{outcome:?}");
    assert_eq!(fake.purchases_of("wd-5-a"), 1);
    assert_eq!(fake.calls("buy-for"), 1, "the look-up answered; no second buy-for left");
    assert_eq!(before - fake.money_mills(), 5_210, "charged once");
}

#[tokio::test]
async fn a_buy_lost_before_the_market_recorded_it_is_bought_once_after_the_look_up() {
    let (fake, market) = setup().await;
    fake.script_buy(BuyScript::Status(502));

    let outcome = buy_or_resolve(&*market, &purchase("wd-6-a", 550)).await;

    assert!(matches!(outcome, BuyOutcome::Bought { .. }), "{outcome:?}");
    assert_eq!(fake.calls("buy-for"), 2);
    assert_eq!(fake.purchases_of("wd-6-a"), 1);
}

#[tokio::test]
async fn polling_is_batched_and_reports_time_outs_and_a_sellers_reversal() {
    let (fake, market) = setup().await;
    for custom_id in ["wd-7-a", "wd-7-b", "wd-7-c"] {
        assert!(matches!(market.buy(&purchase(custom_id, 550)).await, BuyOutcome::Bought { .. }));
    }
    fake.time_out("wd-7-a", "buyer");
    fake.time_out("wd-7-b", "seller");
    fake.deliver("wd-7-c");
    let asked = [id("wd-7-a"), id("wd-7-b"), id("wd-7-c"), id("wd-7-unknown")];

    let polls_before = fake.calls("get-list-buy-info-by-custom-id");
    let got = statuses_batched(&*market, &asked).await.unwrap();

    assert_eq!(fake.calls("get-list-buy-info-by-custom-id") - polls_before, 1, "one request for the batch");
    assert_eq!(got.len(), 3, "an id the market does not know is absent");
    assert_eq!(got[&asked[0]].stage, Stage::TimedOut { causer: Causer::Buyer });
    assert_eq!(got[&asked[1]].stage, Stage::TimedOut { causer: Causer::Seller });
    assert_eq!(got[&asked[2]].stage, Stage::Delivered);

    fake.reverse_by_seller("wd-7-c");
    let reversed = look_up(&*market, &asked[2]).await.unwrap().unwrap();
    assert_eq!(reversed.stage, Stage::TimedOut { causer: Causer::Seller }, "delivered, then 5 by the seller: reversed");

    let none = statuses_batched(&*market, &[id("wd-7-nothing")]).await.unwrap();
    assert!(none.is_empty(), "an empty answer (`data: []`) means nothing known");
}

#[tokio::test]
async fn the_start_up_check_wants_a_usd_account() {
    let (fake, market) = setup().await;
    fake.set_money(12_340, "USD");
    assert_eq!(check_account(&*market).await, Ok(Usd::from_cents(1_234)));

    fake.set_money(1_000_000, "RUB");
    assert_eq!(check_account(&*market).await, Err(MarketError::WrongCurrency("RUB".into())));
}

#[tokio::test]
async fn requests_are_paced_across_tasks_sharing_the_adapter() {
    let fake = FakeMarket::start().await;
    let market = market_with(&fake, |c| c.requests_per_sec = 20).await;
    let started = Instant::now();

    let calls: Vec<_> = (0..10)
        .map(|_| {
            let market = market.clone();
            tokio::spawn(async move { market.balance().await })
        })
        .collect();
    for call in calls {
        call.await.unwrap().unwrap();
    }

    assert!(started.elapsed() >= Duration::from_millis(440), "10 calls at 20/s take 9 intervals: {:?}", started.elapsed());
    assert_eq!(fake.calls("get-money"), 10);
}

#[tokio::test]
async fn a_reversal_check_is_asked_by_custom_id() {
    let (fake, market) = setup().await;
    assert!(matches!(market.buy(&purchase("wd-8-a", 550)).await, BuyOutcome::Bought { .. }));
    fake.deliver("wd-8-a");

    market.ask_reversal_check(&id("wd-8-a")).await.unwrap();

    assert_eq!(fake.calls("check-if-reversed-by-custom-id"), 1);
    assert!(matches!(market.ask_reversal_check(&id("wd-8-unknown")).await, Err(MarketError::Refused(_))));
}
