//! A fake market.csgo.com on 127.0.0.1, speaking its wire format (`/api/v2/buy-for`,
//! `get-buy-info-by-custom-id`, `get-list-buy-info-by-custom-id`, `get-money`, and the public
//! price list `/api/v2/prices/USD.json`, which lists every offer's cheapest price): it keeps
//! purchases by `custom_id`, charges the cheapest offer at or below the price, and can be told to
//! answer slowly, drop an answer after recording the purchase, record a purchase only when its
//! slow answer comes, show purchases to its status calls seconds late, fail with a code, time a
//! trade out, deliver it, or reverse it; it can also hold a purchase under any id (as if it had
//! bought under it) and go down (every call an HTML error page).
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

pub const KEY: &str = "test-market-key";

/// How the next `buy-for` is answered.
#[derive(Clone, Debug)]
pub enum BuyScript {
    /// Record the purchase, wait, then answer (a client with a shorter timeout loses it).
    Slow(Duration),
    /// Record the purchase, then never answer (the connection hangs until the client gives up).
    DropAfterRecording,
    /// Wait, then record the purchase and answer: a client with a shorter timeout has given up
    /// before the market knows the purchase at all.
    SlowThenRecord(Duration),
    /// Answer `success: false` with this code and text, buying nothing.
    Fail(i64, &'static str),
    /// Answer `success: false` with only a text, buying nothing.
    FailText(&'static str),
    /// Answer this HTTP status with an HTML page, buying nothing.
    Status(u16),
}

#[derive(Clone, Debug)]
pub struct Bought {
    pub market_id: u64,
    pub hash_name: String,
    pub partner: String,
    pub token: String,
    /// Thousandths of a dollar, as the market counts.
    pub paid_mills: i64,
    pub stage: u8,
    pub trade_id: Option<String>,
    pub causer: Option<&'static str>,
    pub settlement: i64,
    /// When the market recorded it (its status calls may show it only `status_lag` later).
    pub recorded_at: std::time::Instant,
}

struct Inner {
    /// Cheapest offer per Steam name, in thousandths.
    offers: HashMap<String, i64>,
    money_mills: i64,
    currency: String,
    buy_scripts: VecDeque<BuyScript>,
    purchases: HashMap<String, Bought>,
    /// How many purchases each custom id caused (a correct client never passes 1).
    bought_per_id: HashMap<String, usize>,
    /// Every `price` sent to `buy-for`.
    prices_asked: Vec<i64>,
    calls: HashMap<String, usize>,
    next_id: u64,
    /// How long after recording a purchase its status calls still say they do not know it.
    status_lag: Duration,
    /// Every call answers this HTTP status with an HTML page (the market is down).
    down: Option<u16>,
    /// Price-list entries written as given (over the offers): a quote the market lists without
    /// an offer to buy, or an absurd one.
    listed: HashMap<String, String>,
}

#[derive(Clone)]
pub struct FakeMarket {
    inner: Arc<Mutex<Inner>>,
    pub url: String,
}

impl FakeMarket {
    pub async fn start() -> FakeMarket {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind fake market");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let inner = Inner {
            offers: HashMap::new(),
            money_mills: 100_000,
            currency: "USD".into(),
            buy_scripts: VecDeque::new(),
            purchases: HashMap::new(),
            bought_per_id: HashMap::new(),
            prices_asked: Vec::new(),
            calls: HashMap::new(),
            next_id: 7_000_000,
            status_lag: Duration::ZERO,
            down: None,
            listed: HashMap::new(),
        };
        let fake = FakeMarket { inner: Arc::new(Mutex::new(inner)), url };
        let app =
            Router::new().route("/api/v2/prices/{file}", get(price_list)).route("/api/v2/{method}", get(handle)).with_state(fake.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.ok() });
        fake
    }

    /// Lists the cheapest offer of `hash_name` at `mills` thousandths of a dollar.
    pub fn offer(&self, hash_name: &str, mills: i64) {
        self.inner.lock().unwrap().offers.insert(hash_name.into(), mills);
    }

    /// Lists `hash_name` in the price list at `price`, a decimal string of dollars as the market
    /// writes it (`"32.393"`), whatever the offers say.
    pub fn list_price(&self, hash_name: &str, price: &str) {
        self.inner.lock().unwrap().listed.insert(hash_name.into(), price.into());
    }

    pub fn set_money(&self, mills: i64, currency: &str) {
        let mut inner = self.inner.lock().unwrap();
        inner.money_mills = mills;
        inner.currency = currency.into();
    }

    pub fn money_mills(&self) -> i64 {
        self.inner.lock().unwrap().money_mills
    }

    /// Status calls show a purchase only `lag` after the market recorded it.
    pub fn set_status_lag(&self, lag: Duration) {
        self.inner.lock().unwrap().status_lag = lag;
    }

    pub fn script_buy(&self, script: BuyScript) {
        self.inner.lock().unwrap().buy_scripts.push_back(script);
    }

    pub fn purchases_of(&self, custom_id: &str) -> usize {
        self.inner.lock().unwrap().bought_per_id.get(custom_id).copied().unwrap_or(0)
    }

    pub fn purchase(&self, custom_id: &str) -> Option<Bought> {
        self.inner.lock().unwrap().purchases.get(custom_id).cloned()
    }

    /// Purchases made under any id (a correct client makes one per withdrawal).
    pub fn total_purchases(&self) -> usize {
        self.inner.lock().unwrap().bought_per_id.values().sum()
    }

    /// Every custom id the market bought under.
    pub fn custom_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.inner.lock().unwrap().purchases.keys().cloned().collect();
        ids.sort();
        ids
    }

    /// The custom id the market bought `hash_name` under (panics if none or several).
    pub fn bought_id_of(&self, hash_name: &str) -> String {
        let inner = self.inner.lock().unwrap();
        let ids: Vec<&String> = inner.purchases.iter().filter(|(_, p)| p.hash_name == hash_name).map(|(id, _)| id).collect();
        assert_eq!(ids.len(), 1, "purchases of {hash_name}: {ids:?}");
        ids[0].clone()
    }

    /// The market holds a purchase of `hash_name` under `custom_id` at stage `stage`, charged
    /// `paid_mills`, as if a `buy-for` with that id had bought it (whatever the shop recorded).
    pub fn hold(&self, custom_id: &str, hash_name: &str, paid_mills: i64, stage: u8) {
        let mut inner = self.inner.lock().unwrap();
        inner.next_id += 1;
        let market_id = inner.next_id;
        inner.money_mills -= paid_mills;
        let purchase = Bought {
            market_id,
            hash_name: hash_name.into(),
            partner: "123456".into(),
            token: "abc_D-1".into(),
            paid_mills,
            stage,
            trade_id: None,
            causer: None,
            settlement: 0,
            recorded_at: std::time::Instant::now(),
        };
        inner.purchases.insert(custom_id.into(), purchase);
        *inner.bought_per_id.entry(custom_id.into()).or_default() += 1;
    }

    /// Every call answers `status` with an HTML page (`None`: up again).
    pub fn down(&self, status: Option<u16>) {
        self.inner.lock().unwrap().down = status;
    }

    /// The recipient reversed a delivered trade inside Steam's protection window: 2 → 5, causer buyer.
    pub fn reverse_by_player(&self, custom_id: &str) {
        assert_eq!(self.purchase(custom_id).map(|p| p.stage), Some(2), "only a delivered trade is reversed");
        self.time_out(custom_id, "buyer");
    }

    pub fn prices_asked(&self) -> Vec<i64> {
        self.inner.lock().unwrap().prices_asked.clone()
    }

    pub fn calls(&self, method: &str) -> usize {
        self.inner.lock().unwrap().calls.get(method).copied().unwrap_or(0)
    }

    fn update(&self, custom_id: &str, change: impl FnOnce(&mut Bought)) {
        let mut inner = self.inner.lock().unwrap();
        change(inner.purchases.get_mut(custom_id).expect("no such purchase"));
    }

    /// The seller sent the trade offer (stage 1 with a trade id).
    pub fn send_offer(&self, custom_id: &str, trade_id: &str) {
        self.update(custom_id, |p| p.trade_id = Some(trade_id.into()));
    }

    /// The player accepted (stage 2).
    pub fn deliver(&self, custom_id: &str) {
        self.update(custom_id, |p| p.stage = 2);
    }

    /// The trade timed out or was cancelled (stage 5); the market refunds the buyer.
    pub fn time_out(&self, custom_id: &str, causer: &'static str) {
        let refund = {
            let mut inner = self.inner.lock().unwrap();
            let p = inner.purchases.get_mut(custom_id).expect("no such purchase");
            p.stage = 5;
            p.causer = Some(causer);
            p.paid_mills
        };
        self.inner.lock().unwrap().money_mills += refund;
    }

    /// A delivered trade reversed by the seller inside Steam's protection window: 2 → 5.
    pub fn reverse_by_seller(&self, custom_id: &str) {
        assert_eq!(self.purchase(custom_id).map(|p| p.stage), Some(2), "only a delivered trade is reversed");
        self.time_out(custom_id, "seller");
    }

    pub fn settle(&self, custom_id: &str, at: i64) {
        self.update(custom_id, |p| p.settlement = at);
    }
}

fn html(status: u16) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_GATEWAY);
    (status, [("content-type", "text/html")], "<html><body>upstream trouble</body></html>").into_response()
}

fn info(p: &Bought, custom_id: &str) -> Value {
    // Stage as a string and paid as a dollar float, as the market writes them.
    json!({
        "id": p.market_id.to_string(),
        "custom_id": custom_id,
        "market_hash_name": p.hash_name,
        "stage": p.stage.to_string(),
        "settlement": p.settlement,
        "paid": format!("{}.{:03}", p.paid_mills / 1000, p.paid_mills % 1000).parse::<f64>().unwrap(),
        "trade_id": p.trade_id,
        "causer": p.causer,
    })
}

async fn handle(State(fake): State<FakeMarket>, Path(method): Path<String>, headers: HeaderMap, RawQuery(query): RawQuery) -> Response {
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.unwrap_or_default().as_bytes()).into_owned().collect();
    let one = |name: &str| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    *fake.inner.lock().unwrap().calls.entry(method.clone()).or_default() += 1;

    if let Some(status) = fake.inner.lock().unwrap().down {
        return html(status);
    }
    // The proxy in front refuses calls without a User-Agent, and a wrong key.
    if !headers.contains_key("user-agent") {
        return html(401);
    }
    if one("key").as_deref() != Some(KEY) {
        return Json(json!({"success": false, "error": "Bad KEY"})).into_response();
    }

    match method.as_str() {
        "buy-for" => buy_for(&fake, &one).await,
        "get-buy-info-by-custom-id" => {
            let id = one("custom_id").unwrap_or_default();
            let lag = fake.inner.lock().unwrap().status_lag;
            match fake.purchase(&id).filter(|p| p.recorded_at.elapsed() >= lag) {
                Some(p) => Json(json!({"success": true, "data": info(&p, &id)})).into_response(),
                None => Json(json!({"success": false, "error": "Not found"})).into_response(),
            }
        }
        "get-list-buy-info-by-custom-id" => {
            let inner = fake.inner.lock().unwrap();
            let mut data = serde_json::Map::new();
            for (_, id) in pairs.iter().filter(|(k, _)| k == "custom_id[]") {
                if let Some(p) = inner.purchases.get(id).filter(|p| p.recorded_at.elapsed() >= inner.status_lag) {
                    data.insert(id.clone(), info(p, id));
                }
            }
            // PHP writes an empty associative array as `[]`.
            let data = if data.is_empty() { json!([]) } else { Value::Object(data) };
            Json(json!({"success": true, "data": data})).into_response()
        }
        "check-if-reversed-by-custom-id" => {
            let known = fake.purchase(&one("custom_id").unwrap_or_default()).is_some();
            if known {
                Json(json!({"success": true})).into_response()
            } else {
                Json(json!({"success": false, "error": "Not found"})).into_response()
            }
        }
        "get-money" => {
            let inner = fake.inner.lock().unwrap();
            let money = format!("{}.{:03}", inner.money_mills / 1000, inner.money_mills % 1000).parse::<f64>().unwrap();
            Json(json!({"money": money, "currency": inner.currency})).into_response()
        }
        _ => html(404),
    }
}

/// `GET /api/v2/prices/USD.json` (no key): every offer's cheapest price as a decimal string of
/// dollars with three decimals, plus what `list_price` set.
async fn price_list(State(fake): State<FakeMarket>, Path(file): Path<String>, headers: HeaderMap) -> Response {
    let mut inner = fake.inner.lock().unwrap();
    *inner.calls.entry(format!("prices/{file}")).or_default() += 1;
    if let Some(status) = inner.down {
        return html(status);
    }
    if file != "USD.json" || !headers.contains_key("user-agent") {
        return html(404);
    }
    let mut prices: HashMap<String, String> =
        inner.offers.iter().map(|(name, mills)| (name.clone(), format!("{}.{:03}", mills / 1000, mills % 1000))).collect();
    prices.extend(inner.listed.clone());
    let items: Vec<Value> =
        prices.into_iter().map(|(name, price)| json!({"market_hash_name": name, "volume": "3", "price": price})).collect();
    Json(json!({"success": true, "time": 1_767_225_600, "currency": "USD", "items": items})).into_response()
}

async fn buy_for(fake: &FakeMarket, one: &impl Fn(&str) -> Option<String>) -> Response {
    let script = fake.inner.lock().unwrap().buy_scripts.pop_front();
    let price: i64 = one("price").and_then(|p| p.parse().ok()).unwrap_or(0);
    fake.inner.lock().unwrap().prices_asked.push(price);
    match &script {
        Some(BuyScript::Fail(code, text)) => return Json(json!({"success": false, "error": text, "code": code})).into_response(),
        Some(BuyScript::FailText(text)) => return Json(json!({"success": false, "error": text})).into_response(),
        Some(BuyScript::Status(status)) => return html(*status),
        _ => {}
    }
    let (Some(hash_name), Some(partner), Some(token), Some(custom_id)) = (one("hash_name"), one("partner"), one("token"), one("custom_id"))
    else {
        return Json(json!({"success": false, "error": "Bad request", "code": 12})).into_response();
    };
    if let Some(BuyScript::SlowThenRecord(delay)) = &script {
        // The market goes on after the client hung up: the purchase is recorded by a task of its
        // own (the handler is dropped with the connection).
        let (fake, delay) = (fake.clone(), *delay);
        let pairs = (hash_name, partner, token, custom_id, price);
        let recorded = tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let (hash_name, partner, token, custom_id, price) = pairs;
            record(&fake, hash_name, partner, token, custom_id, price)
        });
        return match recorded.await {
            Ok(Ok(id)) => Json(json!({"success": true, "id": id.to_string()})).into_response(),
            Ok(Err(refused)) => refused,
            Err(_) => html(500),
        };
    }
    let bought = match record(fake, hash_name, partner, token, custom_id, price) {
        Ok(id) => id,
        Err(refused) => return refused,
    };
    match script {
        Some(BuyScript::Slow(delay)) => tokio::time::sleep(delay).await,
        Some(BuyScript::DropAfterRecording) => std::future::pending::<()>().await,
        _ => {}
    }
    Json(json!({"success": true, "id": bought.to_string()})).into_response()
}

/// Buys the cheapest offer of `hash_name` at or under `price` (thousandths) under `custom_id`:
/// the market id, or the market's refusal (an axum response, large as they are: a test fake).
#[allow(clippy::result_large_err)]
fn record(fake: &FakeMarket, hash_name: String, partner: String, token: String, custom_id: String, price: i64) -> Result<u64, Response> {
    let mut inner = fake.inner.lock().unwrap();
    let Some(&cheapest) = inner.offers.get(&hash_name).filter(|&&p| p <= price) else {
        return Err(Json(json!({"success": false, "error": "No offers under that price"})).into_response());
    };
    if inner.money_mills < cheapest {
        return Err(Json(json!({"success": false, "error": "Not enough money"})).into_response());
    }
    inner.money_mills -= cheapest;
    inner.next_id += 1;
    let market_id = inner.next_id;
    let purchase = Bought {
        market_id,
        hash_name,
        partner,
        token,
        paid_mills: cheapest,
        stage: 1,
        trade_id: None,
        causer: None,
        settlement: 0,
        recorded_at: std::time::Instant::now(),
    };
    inner.purchases.insert(custom_id.clone(), purchase);
    *inner.bought_per_id.entry(custom_id).or_default() += 1;
    Ok(market_id)
}
