//! The live drop feed over real HTTP: `GET /api/v1/feed` (Server-Sent Events), read the way the
//! mini app reads it (`fetch` with a Bearer token, the body as it streams).
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use webapp_api::domain::clock::ManualClock;
use webapp_api::domain::{feed, store};

use crate::common::*;

/// One client's open feed.
struct Feed {
    res: reqwest::Response,
    /// Bytes received and not yet read as events: a chunk may end inside a character.
    buf: Vec<u8>,
}

impl Feed {
    async fn connect(app: &TestApp, token: &str, last_event_id: Option<i64>) -> Feed {
        Feed::connect_in(app, token, last_event_id, None).await
    }

    /// As the mini app connects: with its chosen language in `Accept-Language`.
    async fn connect_in(app: &TestApp, token: &str, last_event_id: Option<i64>, lang: Option<&str>) -> Feed {
        let mut req = app.http.get(format!("{}/api/v1/feed", app.base)).bearer_auth(token);
        if let Some(lang) = lang {
            req = req.header("Accept-Language", lang);
        }
        if let Some(id) = last_event_id {
            req = req.header("Last-Event-ID", id.to_string());
        }
        let res = req.send().await.expect("feed request");
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
        Feed { res, buf: Vec::new() }
    }

    /// The next event (`id`, parsed `data`), or `None` if none comes within `within`.
    async fn next(&mut self, within: Duration) -> Option<(i64, Value)> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            while let Some(end) = self.buf.windows(2).position(|w| w == b"\n\n") {
                let bytes: Vec<u8> = self.buf.drain(..end + 2).collect();
                let block = String::from_utf8(bytes).expect("an event is UTF-8");
                let (mut id, mut data) = (None, None);
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id:") {
                        id = Some(v.trim().parse::<i64>().unwrap());
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data = Some(serde_json::from_str::<Value>(v.trim()).unwrap());
                    }
                }
                // A block of comments only is the heartbeat.
                if let (Some(id), Some(data)) = (id, data) {
                    return Some((id, data));
                }
            }
            let chunk = tokio::time::timeout_at(deadline, self.res.chunk()).await.ok()?.expect("feed body")?;
            self.buf.extend_from_slice(&chunk);
        }
    }

    /// Whether the server ends the stream within `within` (what arrives meanwhile is dropped).
    async fn ended(&mut self, within: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            match tokio::time::timeout_at(deadline, self.res.chunk()).await {
                Err(_) => return false,
                Ok(Ok(Some(_))) => {}
                Ok(Ok(None)) | Ok(Err(_)) => return true,
            }
        }
    }

    /// Every event that arrives until none comes for `quiet`.
    async fn drain(&mut self, quiet: Duration) -> Vec<(i64, Value)> {
        let mut got = Vec::new();
        while let Some(e) = self.next(quiet).await {
            got.push(e);
        }
        got
    }
}

#[tokio::test]
async fn a_drop_reaches_another_players_feed_within_a_second() {
    let app = TestApp::demo().await;
    let alice = app.sign_in(7001, "Alice").await;
    let bob = app.sign_in(7002, "Bob").await;
    app.grant(7001, cheap_case_price() / 100 * 4).await;
    let mut feed = Feed::connect(&app, &bob, None).await;

    let opened = app.open_ok(&alice, cheap_case(), None).await;

    let (id, drop) = feed.next(Duration::from_secs(1)).await.expect("the drop within a second");
    assert_eq!(drop["id"], json!(id));
    assert_eq!(drop["firstName"], json!("Alice"));
    assert_eq!(drop["case"]["id"], json!(cheap_case()));
    assert!(drop["case"]["name"].as_str().is_some_and(|n| !n.is_empty()));
    assert_eq!(drop["item"]["marketHashName"], opened["item"]["marketHashName"]);
    assert_eq!(drop["item"]["rarity"], opened["item"]["rarity"]);
    assert_eq!(drop["item"]["image"], opened["item"]["iconUrl"]);
    assert!(drop["item"]["name"].as_str().is_some_and(|n| !n.is_empty()));
    assert!(chrono::DateTime::parse_from_rfc3339(drop["openedAt"].as_str().unwrap()).is_ok());
    // Stopping the server ends the open stream rather than waiting for it.
    tokio::time::timeout(Duration::from_secs(10), app.stop()).await.expect("shutdown with a feed open");
}

#[tokio::test]
async fn a_player_who_hides_their_name_drops_without_it() {
    let app = TestApp::demo().await;
    let alice = app.player_with(7011, cheap_case_price() / 100 * 4).await;
    let bob = app.sign_in(7012, "Bob").await;
    let (s, b) = app.get("/api/v1/settings/feed", Some(&alice)).await;
    assert_eq!((s, b), (StatusCode::OK, json!({ "success": true, "hideName": false })));

    let (s, b) = app.put("/api/v1/settings/feed", Some(&alice), json!({ "hideName": true })).await;
    assert_eq!((s, b), (StatusCode::OK, json!({ "success": true, "hideName": true })));
    let mut feed = Feed::connect(&app, &bob, None).await;
    app.open_ok(&alice, cheap_case(), None).await;

    let (_, drop) = feed.next(Duration::from_secs(1)).await.expect("the drop");
    assert!(drop.get("firstName").is_none(), "{drop}");
    assert_eq!(drop["case"]["id"], json!(cheap_case()));
    app.stop().await;
}

#[tokio::test]
async fn a_new_client_gets_the_last_20_drops_and_a_reconnect_resumes_after_its_last_event_id() {
    let app = TestApp::demo().await;
    let alice = app.player_with(7021, cheap_case_price() / 100 * 40).await;
    let mut watching = Feed::connect(&app, &alice, None).await;
    for _ in 0..23 {
        app.open_ok(&alice, cheap_case(), None).await;
    }
    // On PostgreSQL drops reach the hub through NOTIFY, a moment after the open answers.
    for _ in 0..23 {
        watching.next(Duration::from_secs(1)).await.expect("each drop");
    }

    let mut fresh = Feed::connect(&app, &alice, None).await;
    let backlog = fresh.drain(Duration::from_millis(300)).await;
    assert_eq!(backlog.len(), 20);
    let ids: Vec<i64> = backlog.iter().map(|e| e.0).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");

    let mut resumed = Feed::connect(&app, &alice, Some(ids[16])).await;
    let since = resumed.drain(Duration::from_millis(300)).await;
    assert_eq!(since.iter().map(|e| e.0).collect::<Vec<_>>(), ids[17..].to_vec());
    app.open_ok(&alice, cheap_case(), None).await;
    let (live, _) = resumed.next(Duration::from_secs(1)).await.expect("then live drops");
    assert!(live > ids[19]);
    app.stop().await;
}

#[tokio::test]
async fn a_replayed_open_is_in_the_feed_once() {
    let app = TestApp::demo().await;
    let alice = app.player_with(7031, cheap_case_price() / 100 * 4).await;
    let mut feed = Feed::connect(&app, &alice, None).await;

    let first = app.open_ok(&alice, cheap_case(), Some("feed-replay-1")).await;
    let again = app.open_ok(&alice, cheap_case(), Some("feed-replay-1")).await;
    assert_eq!(first, again);

    let got = feed.drain(Duration::from_millis(500)).await;
    assert_eq!(got.len(), 1, "{got:?}");
    app.stop().await;
}

#[tokio::test]
async fn the_feed_is_for_signed_in_players_only() {
    let app = TestApp::demo().await;
    let (s, b) = app.get("/api/v1/feed", None).await;
    assert_error(s, &b, 401, "unauthorized");
    let (s, b) = app.get("/api/v1/feed", Some("not-a-token")).await;
    assert_error(s, &b, 401, "unauthorized");
    app.stop().await;
}

#[tokio::test]
async fn a_client_that_falls_behind_is_dropped() {
    let app = TestApp::demo().await;
    let alice = app.player_with(7041, cheap_case_price() / 100 * (feed::LIVE_BUFFER as i64 + 4)).await;
    // A client that reads nothing while more drops than its buffer happen.
    let mut slow = feed::subscribe(app.domain(), feed::Viewer { player: 7041, address: None }, None).await.unwrap();
    for _ in 0..feed::LIVE_BUFFER + 2 {
        app.open_ok(&alice, cheap_case(), None).await;
    }
    // The hub reads new drops from the table on its own task: the client has fallen behind only
    // once every drop reached the hub (on a busy machine the reader may still be at it, and a
    // client reading meanwhile keeps up).
    let (last,): (i64,) = sqlx::query_as("SELECT MAX(id) FROM feed_events").fetch_one(&app.domain().db).await.unwrap();
    let started = std::time::Instant::now();
    while app.domain().feed.newest() < Some(last) {
        assert!(started.elapsed() < Duration::from_secs(60), "the hub never read drop {last}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let ended = loop {
        match slow.next().await {
            Ok(_) => continue,
            Err(why) => break why,
        }
    };
    assert_eq!(ended, feed::Ended::TooSlow);
    // On PostgreSQL drops reach the hub through NOTIFY, a moment after the open answers.
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Everyone else is served as before.
    let mut feed = Feed::connect(&app, &alice, None).await;
    assert_eq!(feed.drain(Duration::from_millis(300)).await.len(), 20);
    app.stop().await;
}

#[tokio::test]
async fn a_drop_on_one_replica_reaches_the_feed_of_another() {
    if !on_postgres() {
        return;
    }
    let first = TestApp::demo().await;
    let second = TestApp::start(Options { env: vec![("DATABASE_URL", first.db_url())], ..Options::default() }).await;
    let alice = first.sign_in(7051, "Alice").await;
    let bob = second.sign_in(7052, "Bob").await;
    first.grant(7051, cheap_case_price() / 100 * 4).await;
    let mut on_second = Feed::connect(&second, &bob, None).await;
    let mut on_first = Feed::connect(&first, &alice, None).await;

    first.open_ok(&alice, cheap_case(), None).await;

    let (id, drop) = on_second.next(Duration::from_secs(1)).await.expect("the drop on the other replica within a second");
    assert_eq!(drop["firstName"], json!("Alice"));
    let (same, _) = on_first.next(Duration::from_secs(1)).await.expect("and on its own");
    assert_eq!(id, same);
    // The second replica's reconnecting client resumes from the same ids.
    let mut resumed = Feed::connect(&second, &bob, Some(id - 1)).await;
    assert_eq!(resumed.next(Duration::from_secs(1)).await.map(|e| e.0), Some(id));
    let mut second = second;
    if let Some(r) = second.running.take() {
        r.shutdown().await;
    }
    first.stop().await;
}

#[tokio::test]
async fn a_listener_that_loses_its_connection_catches_up_from_the_table() {
    if !on_postgres() {
        return;
    }
    let app = TestApp::demo().await;
    let alice = app.player_with(7061, cheap_case_price() / 100 * 4).await;
    let mut feed = Feed::connect(&app, &alice, None).await;
    // An operator (or a failover) ends the listening connection, once it is listening (the
    // process starts it beside serving, so on a busy machine it may not be up yet).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let ended = loop {
        let ended: Vec<(bool,)> = sqlx::query_as(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'listen%'",
        )
        .fetch_all(&app.domain().db)
        .await
        .unwrap();
        if !ended.is_empty() || tokio::time::Instant::now() > deadline {
            break ended;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(ended.len(), 1, "one listener per process");

    app.open_ok(&alice, cheap_case(), None).await;

    assert!(feed.next(Duration::from_secs(3)).await.is_some(), "the drop arrives after the listener is back");
    app.stop().await;
}

#[tokio::test]
async fn the_openapi_document_describes_the_feed_as_an_event_stream() {
    let app = TestApp::demo().await;
    let (s, doc) = app.get("/api/v1/openapi.json", None).await;
    assert_eq!(s, StatusCode::OK);
    let ok = &doc["paths"]["/feed"]["get"]["responses"]["200"]["content"];
    assert!(ok.get("text/event-stream").is_some(), "{ok}");
    assert!(doc["paths"]["/settings/feed"]["put"].is_object());
    app.stop().await;
}

#[tokio::test]
async fn each_viewer_reads_the_names_in_their_own_language_whoever_opened() {
    let app = TestApp::demo().await;
    let alice = app.player_with(7071, cheap_case_price() / 100 * 4).await;
    let boris = app.sign_in(7072, "Boris").await;
    let carol = app.sign_in(7073, "Carol").await;
    let mut russian = Feed::connect_in(&app, &boris, None, Some("ru")).await;
    let mut english = Feed::connect_in(&app, &carol, None, Some("en")).await;

    // An English opener: the open's answer is in English.
    let res = app
        .http
        .post(format!("{}{}", app.base, open_path()))
        .bearer_auth(&alice)
        .header("Accept-Language", "en")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let (s, opened) = read(res).await;
    assert_eq!(s, StatusCode::OK, "{opened}");

    let (id, ru) = russian.next(Duration::from_secs(1)).await.expect("the drop, for the Russian viewer");
    let (same, en) = english.next(Duration::from_secs(1)).await.expect("the drop, for the English viewer");
    assert_eq!(id, same);
    let catalog = &app.domain().catalog;
    let case = catalog.case(cheap_case()).unwrap();
    let skin = catalog.item(opened["item"]["weaponId"].as_str().unwrap()).unwrap();
    let star = if skin.is_special() { "★ " } else { "" };
    let name =
        |weapon: &str, finish: &str| if finish.is_empty() { format!("{star}{weapon}") } else { format!("{star}{weapon} | {finish}") };
    assert_ne!(case.name_ru, case.name);
    assert_eq!(ru["case"]["name"], json!(case.name_ru));
    assert_eq!(ru["item"]["name"], json!(name(&skin.weapon_ru, &skin.finish_ru)));
    assert_eq!(en["case"]["name"], json!(case.name));
    assert_eq!(en["item"]["name"], json!(name(&skin.weapon, &skin.finish)));
    // The rest is the same drop for both, the Steam name in Steam's English.
    for key in ["marketHashName", "rarity", "image"] {
        assert_eq!(ru["item"][key], en["item"][key], "{key}");
    }
    assert_eq!(ru["item"]["marketHashName"], opened["item"]["marketHashName"]);
    assert_eq!((ru["firstName"].clone(), ru["openedAt"].clone()), (en["firstName"].clone(), en["openedAt"].clone()));
    app.stop().await;
}

#[tokio::test]
async fn pruning_deletes_old_drops_beyond_the_newest_and_the_last_20_still_replay_on_connect() {
    let clock = Arc::new(ManualClock::at(1_800_000_000));
    let mut app = TestApp::start(Options { clock: Some(clock.clone()), ..Options::default() }).await;
    let alice = app.player_with(7081, cheap_case_price() / 100 * 30).await;
    for _ in 0..25 {
        app.open_ok(&alice, cheap_case(), None).await;
    }
    let ids = |app: &TestApp| {
        let db = app.domain().db.clone();
        async move {
            let rows: Vec<(i64,)> = sqlx::query_as("SELECT id FROM feed_events ORDER BY id").fetch_all(&db).await.unwrap();
            rows.into_iter().map(|r| r.0).collect::<Vec<i64>>()
        }
    };
    let before = ids(&app).await;
    assert_eq!(before.len(), 25);
    let retention = feed::Retention { keep: 22, for_secs: 86_400 };

    // Younger than a day: every row stays, however many.
    assert_eq!(feed::prune(app.domain(), retention).await.unwrap(), Some(0));
    assert_eq!(ids(&app).await, before);

    // A day and a second later, all but the newest 22 go.
    clock.advance(86_401);
    assert_eq!(feed::prune(app.domain(), retention).await.unwrap(), Some(3));
    assert_eq!(ids(&app).await, before[3..].to_vec());

    // A process that starts on the pruned table still replays the last 20 on connect.
    let db_url = app.db_url();
    app.running.take().unwrap().shutdown().await;
    let restarted = TestApp::start(Options { env: vec![("DATABASE_URL", db_url)], ..Options::default() }).await;
    let bob = restarted.sign_in(7082, "Bob").await;
    let mut fresh = Feed::connect(&restarted, &bob, None).await;
    let replayed: Vec<i64> = fresh.drain(Duration::from_millis(300)).await.into_iter().map(|e| e.0).collect();
    assert_eq!(replayed, before[5..].to_vec());
    // A reconnect from a pruned id gets what the table still holds after it.
    let mut resumed = Feed::connect(&restarted, &bob, Some(before[1])).await;
    let since: Vec<i64> = resumed.drain(Duration::from_millis(300)).await.into_iter().map(|e| e.0).collect();
    assert_eq!(since, before[3..].to_vec());
    restarted.stop().await;
    drop(app);
}

#[tokio::test]
async fn only_one_replica_prunes_at_a_time() {
    if !on_postgres() {
        return;
    }
    let clock = Arc::new(ManualClock::at(1_800_000_000));
    let app = TestApp::start(Options { clock: Some(clock.clone()), ..Options::default() }).await;
    let alice = app.player_with(7091, cheap_case_price() / 100 * 4).await;
    for _ in 0..3 {
        app.open_ok(&alice, cheap_case(), None).await;
    }
    clock.advance(86_401);
    let retention = feed::Retention { keep: 1, for_secs: 86_400 };
    // Another replica holds the job.
    let other = store::try_lease(&app.domain().db, "feed-prune").await.unwrap().expect("free");
    assert_eq!(feed::prune(app.domain(), retention).await.unwrap(), None);
    let (n,): (i64,) = sqlx::query_as("SELECT count(*) FROM feed_events").fetch_one(&app.domain().db).await.unwrap();
    assert_eq!(n, 3);

    other.release().await;
    assert_eq!(feed::prune(app.domain(), retention).await.unwrap(), Some(2));
    app.stop().await;
}

async fn app_with(env: &[(&'static str, &str)]) -> TestApp {
    TestApp::start(Options { env: env.iter().map(|(k, v)| (*k, v.to_string())).collect(), ..Options::default() }).await
}

#[tokio::test]
async fn a_players_fourth_stream_ends_their_oldest_and_no_one_elses() {
    let app = TestApp::demo().await;
    let alice = app.player_with(7101, cheap_case_price() / 100 * 2).await;
    let bob = app.sign_in(7102, "Bob").await;
    let mut bobs = Feed::connect(&app, &bob, None).await;
    let mut first = Feed::connect(&app, &alice, None).await;
    // The stream's end is its connection's end: nothing idle is left holding a place.
    assert_eq!(first.res.headers()["connection"], "close");
    let mut second = Feed::connect(&app, &alice, None).await;
    let mut third = Feed::connect(&app, &alice, None).await;
    assert_eq!(app.domain().feed.streams(), 4);

    let mut fourth = Feed::connect(&app, &alice, None).await;

    assert!(first.ended(Duration::from_secs(3)).await, "the player's oldest stream ends");
    for other in [&mut second, &mut third, &mut fourth, &mut bobs] {
        assert!(!other.ended(Duration::from_millis(200)).await, "every other stream runs on");
    }
    assert_eq!(app.domain().feed.streams(), 4);
    app.open_ok(&alice, cheap_case(), None).await;
    let (id, _) = fourth.next(Duration::from_secs(1)).await.expect("the newest stream gets drops");
    assert_eq!(bobs.next(Duration::from_secs(1)).await.map(|e| e.0), Some(id));
    app.stop().await;
}

#[tokio::test]
async fn an_address_holds_a_bounded_number_of_streams_and_the_proxy_itself_is_not_bounded() {
    let app = app_with(&[("TRUSTED_PROXIES", "127.0.0.1"), ("FEED_STREAMS_PER_IP", "2")]).await;
    let mut tokens = Vec::new();
    for n in 0..5 {
        tokens.push(app.sign_in(7111 + n, "Player").await);
    }
    // Each request comes from the proxy (127.0.0.1), naming the client behind it, or none.
    let from = |token: &str, client: Option<&str>| {
        let mut req = app.http.get(format!("{}/api/v1/feed", app.base)).bearer_auth(token);
        if let Some(client) = client {
            req = req.header("X-Forwarded-For", client);
        }
        req.send()
    };
    let mut held = Vec::new();
    for token in &tokens[..2] {
        let res = from(token, Some("203.0.113.5")).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        held.push(res);
    }

    // A third player behind the same address is refused, with when to try again.
    let refused = from(&tokens[2], Some("203.0.113.5")).await.unwrap();
    assert_eq!(refused.headers()["retry-after"], "30");
    let (s, b) = read(refused).await;
    assert_error(s, &b, 429, "too_many_streams");

    // A player already there takes a new stream in place of their own.
    let again = from(&tokens[0], Some("203.0.113.5")).await.unwrap();
    assert_eq!(again.status(), StatusCode::OK);
    held.push(again);
    // Another address, and the proxy's own requests (many players behind it), are served.
    held.push(from(&tokens[2], Some("203.0.113.6")).await.unwrap());
    for token in &tokens[2..] {
        held.push(from(token, None).await.unwrap());
    }
    assert!(held.iter().all(|r| r.status() == StatusCode::OK));
    app.stop().await;
}

#[tokio::test]
async fn a_stream_ends_of_age_and_the_client_resumes_after_its_last_event_id() {
    let app = app_with(&[("FEED_STREAM_MAX_SECS", "2")]).await;
    let alice = app.player_with(7121, cheap_case_price() / 100 * 2).await;
    app.open_ok(&alice, cheap_case(), None).await;
    let started = std::time::Instant::now();
    let mut feed = Feed::connect(&app, &alice, None).await;
    let (seen, _) = feed.next(Duration::from_secs(1)).await.expect("the drop on connect");

    assert!(feed.ended(Duration::from_secs(5)).await, "the stream ends of age");
    let lived = started.elapsed();
    // Two seconds less at most a tenth, so that streams opened together end apart.
    assert!(lived >= Duration::from_millis(1750) && lived < Duration::from_secs(4), "ended after {lived:?}");

    // What dropped meanwhile comes with the reconnect that names the last id seen.
    app.open_ok(&alice, cheap_case(), None).await;
    let mut resumed = Feed::connect(&app, &alice, Some(seen)).await;
    let (next, _) = resumed.next(Duration::from_secs(1)).await.expect("the drop made while away");
    assert!(next > seen);
    app.stop().await;
}

/// A demo player of a spawned process: a bearer token.
async fn demo_token(http: &reqwest::Client, base: &str) -> String {
    let d: Value = http.get(format!("{base}/api/v1/dev/init-data")).send().await.unwrap().json().await.unwrap();
    let a: Value =
        http.post(format!("{base}/api/v1/auth")).json(&json!({ "initData": d["initData"] })).send().await.unwrap().json().await.unwrap();
    a["token"].as_str().unwrap().to_owned()
}

/// Opens `GET /api/v1/feed` over a socket of its own from `source` (loopback addresses other
/// than 127.0.0.1 are other clients), naming `forwarded_for` as the client when set; answers
/// the status line and the socket, positioned after the answer's head.
async fn raw_stream(server: SocketAddr, source: IpAddr, token: &str, forwarded_for: Option<&str>) -> (String, TcpStream) {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(source, 0)).unwrap();
    let mut stream = tokio::time::timeout(Duration::from_secs(10), socket.connect(server)).await.expect("connected in time").unwrap();
    let xff = forwarded_for.map(|a| format!("X-Forwarded-For: {a}\r\n")).unwrap_or_default();
    let head = format!("GET /api/v1/feed HTTP/1.1\r\nHost: fragbox\r\nAuthorization: Bearer {token}\r\n{xff}\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"\r\n\r\n") {
        match tokio::time::timeout(Duration::from_secs(10), stream.read(&mut byte)).await.expect("an answer") {
            Ok(1) => got.push(byte[0]),
            _ => break,
        }
    }
    let text = String::from_utf8_lossy(&got).into_owned();
    (text.lines().next().unwrap_or_default().to_owned(), stream)
}

/// Whether the server closes `stream` within `within` (what arrives meanwhile is dropped).
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 4096];
    tokio::time::timeout(within, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok()
}

/// Issue 30's lock-out: one account opens as many streams as the server has connections
/// (`HTTP_MAX_CONNECTIONS` 100), from two addresses (each allowed 60 connections); a third
/// address must still be served. From its own loopback addresses, or through a trusted proxy
/// naming them.
async fn one_account_cannot_lock_out_a_third_address(via_proxy: bool) {
    let dir = TempDir::new();
    let db_url = fresh_database_url(&dir.0).await;
    let mut env = proc_env(&dir.0, &db_url);
    env.push(("HTTP_MAX_CONNECTIONS", "100".into()));
    env.push(("HTTP_MAX_CONNECTIONS_PER_IP", "60".into()));
    if via_proxy {
        env.push(("TRUSTED_PROXIES", "127.0.0.1".into()));
    }
    let server = Proc::start(&dir.0, &env);
    let addr: SocketAddr = server.base.trim_start_matches("http://").trim_end_matches('/').parse().unwrap();
    let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();
    let token = demo_token(&http, &server.base).await;
    let proxy = IpAddr::from([127, 0, 0, 1]);
    let client = |n: u8| -> (IpAddr, Option<String>) {
        if via_proxy {
            (proxy, Some(format!("203.0.113.{n}")))
        } else {
            (IpAddr::from([127, 0, 0, n]), None)
        }
    };

    // Act: 100 streams of one account, from two addresses in turn.
    let mut streams = Vec::new();
    for n in 0..100u8 {
        let (source, forwarded) = client(2 + n % 2);
        let (status, stream) = raw_stream(addr, source, &token, forwarded.as_deref()).await;
        assert!(status.starts_with("HTTP/1.1 200"), "stream {n}: {status}");
        streams.push(stream);
    }

    // Assert: the account holds its newest 3; every older stream ended and its connection closed.
    let kept = streams.split_off(97);
    for (n, stream) in streams.iter_mut().enumerate() {
        assert!(closed_within(stream, Duration::from_secs(5)).await, "stream {n} is still open");
    }
    for mut stream in kept {
        assert!(!closed_within(&mut stream, Duration::from_millis(100)).await, "a newest stream was closed");
    }
    // A third address: another player's stream and an ordinary request are served.
    let other = demo_token(&http, &server.base).await;
    let (source, forwarded) = client(4);
    let (status, _stream) = raw_stream(addr, source, &other, forwarded.as_deref()).await;
    assert!(status.starts_with("HTTP/1.1 200"), "the third address's stream: {status}");
    let third = reqwest::Client::builder().local_address(source).timeout(Duration::from_secs(10)).build().unwrap();
    let mut req = third.get(format!("{}/healthz", server.base));
    if let Some(f) = &forwarded {
        req = req.header("X-Forwarded-For", f);
    }
    assert_eq!(req.send().await.unwrap().status(), StatusCode::OK);
    server.stop();
    drop_database(&db_url).await;
}

#[tokio::test]
async fn one_account_streaming_from_two_addresses_does_not_lock_out_a_third() {
    one_account_cannot_lock_out_a_third_address(false).await;
}

#[tokio::test]
async fn one_account_streaming_through_the_proxy_from_two_addresses_does_not_lock_out_a_third() {
    one_account_cannot_lock_out_a_third_address(true).await;
}

#[tokio::test]
async fn hiding_the_name_hides_it_on_drops_the_server_already_holds() {
    let app = TestApp::demo().await;
    let alice = app.sign_in(7131, "Alice").await;
    let bob = app.sign_in(7132, "Bob").await;
    app.grant(7131, cheap_case_price() / 100 * 2).await;
    app.grant(7132, cheap_case_price() / 100).await;
    let mut watching = Feed::connect(&app, &bob, None).await;
    app.open_ok(&alice, cheap_case(), None).await;
    app.open_ok(&bob, cheap_case(), None).await;
    app.open_ok(&alice, cheap_case(), None).await;
    let shown = watching.drain(Duration::from_millis(500)).await;
    let names: Vec<&Value> = shown.iter().map(|e| &e.1["firstName"]).collect();
    assert_eq!(names, [&json!("Alice"), &json!("Bob"), &json!("Alice")]);
    let before = shown[0].0 - 1;

    // Act: Alice hides her name after her drops are in the server's memory.
    let (s, _) = app.put("/api/v1/settings/feed", Some(&alice), json!({ "hideName": true })).await;
    assert_eq!(s, StatusCode::OK);

    // Assert: a client that connects now, or resumes from before them, gets them without it.
    let names = |got: Vec<(i64, Value)>| got.into_iter().map(|e| e.1.get("firstName").cloned()).collect::<Vec<_>>();
    let hidden = vec![None, Some(json!("Bob")), None];
    let mut fresh = Feed::connect(&app, &bob, None).await;
    assert_eq!(names(fresh.drain(Duration::from_millis(300)).await), hidden);
    let mut resumed = Feed::connect(&app, &bob, Some(before)).await;
    assert_eq!(names(resumed.drain(Duration::from_millis(300)).await), hidden);

    // Showing it again shows it again on the same drops.
    app.put("/api/v1/settings/feed", Some(&alice), json!({ "hideName": false })).await;
    let mut again = Feed::connect(&app, &bob, Some(before)).await;
    assert_eq!(names(again.drain(Duration::from_millis(300)).await), vec![Some(json!("Alice")), Some(json!("Bob")), Some(json!("Alice"))]);
    app.stop().await;
}

#[tokio::test]
async fn hiding_the_name_on_one_replica_hides_it_on_the_drops_another_holds() {
    if !on_postgres() {
        return;
    }
    let first = TestApp::demo().await;
    let mut second = TestApp::start(Options { env: vec![("DATABASE_URL", first.db_url())], ..Options::default() }).await;
    let alice = first.sign_in(7141, "Alice").await;
    let bob = second.sign_in(7142, "Bob").await;
    first.grant(7141, cheap_case_price() / 100).await;
    // The second replica holds the drop: its client received it live.
    let mut on_second = Feed::connect(&second, &bob, None).await;
    first.open_ok(&alice, cheap_case(), None).await;
    let (id, drop) = on_second.next(Duration::from_secs(1)).await.expect("the drop on the other replica");
    assert_eq!(drop["firstName"], json!("Alice"));

    // Act: Alice hides her name through the first replica.
    let (s, _) = first.put("/api/v1/settings/feed", Some(&alice), json!({ "hideName": true })).await;
    assert_eq!(s, StatusCode::OK);

    // Assert: within a moment (the notification), the second replica serves it without the name.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let mut resumed = Feed::connect(&second, &bob, Some(id - 1)).await;
        let (got, drop) = resumed.next(Duration::from_secs(1)).await.expect("the drop from the second replica's memory");
        assert_eq!(got, id);
        if drop.get("firstName").is_none() {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the second replica still shows the name: {drop}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    if let Some(r) = second.running.take() {
        r.shutdown().await;
    }
    first.stop().await;
}
