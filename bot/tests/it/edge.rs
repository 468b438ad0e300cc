//! The HTTP edge (`bot/src/serve.rs`): slow and idle connections are closed, the connection caps
//! answer 503 with `Retry-After`, and ordinary requests are untouched.
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::*;
use crate::fake_bot_api::Script;

async fn app_with(env: &[(&'static str, &str)]) -> TestApp {
    TestApp::start(Options { env: env.iter().map(|(k, v)| (*k, v.to_string())).collect(), ..Options::default() }).await
}

fn addr(app: &TestApp) -> String {
    app.base.trim_start_matches("http://").to_owned()
}

/// Reads until the server closes the connection (or `limit` passes); answers what was read
/// and when the close came.
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> (String, Option<Instant>) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let outcome = tokio::time::timeout(limit, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return Instant::now(),
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    (String::from_utf8_lossy(&got).into_owned(), outcome.ok())
}

#[tokio::test]
async fn a_client_trickling_its_headers_is_disconnected_after_the_header_timeout() {
    let app = app_with(&[("HTTP_HEADER_TIMEOUT_SECS", "1"), ("HTTP_IDLE_TIMEOUT_SECS", "30")]).await;

    // Arrange: a request head sent one byte every 100 ms, never finished.
    let started = Instant::now();
    let stream = TcpStream::connect(addr(&app)).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let trickle = tokio::spawn(async move {
        for b in b"GET /healthz HTTP/1.1\r\nHost: fragbox\r\nX-Slow: ".iter().chain(std::iter::repeat(&b'a')) {
            if writer.write_all(&[*b]).await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });

    // Act: wait for the server to hang up.
    let mut buf = [0u8; 1024];
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => return Instant::now(),
                Ok(_) => {}
            }
        }
    })
    .await;
    trickle.abort();

    // Assert: closed after about one second, not at once and not never.
    let closed = closed.expect("the server closed the trickling connection");
    let after = closed - started;
    assert!(after >= Duration::from_millis(900) && after < Duration::from_secs(5), "closed after {after:?}");

    // A client that connects and says nothing is closed the same way.
    let mut silent = TcpStream::connect(addr(&app)).await.unwrap();
    let started = Instant::now();
    let (_, closed) = read_until_closed(&mut silent, Duration::from_secs(10)).await;
    let after = closed.expect("the server closed the silent connection") - started;
    assert!(after >= Duration::from_millis(900) && after < Duration::from_secs(5), "closed after {after:?}");

    // Everyone else is still served.
    let (status, _) = app.get("/healthz", None).await;
    assert_eq!(status, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn a_kept_alive_connection_without_requests_is_closed_after_the_idle_timeout() {
    let app = app_with(&[("HTTP_HEADER_TIMEOUT_SECS", "5"), ("HTTP_IDLE_TIMEOUT_SECS", "1")]).await;
    let mut stream = TcpStream::connect(addr(&app)).await.unwrap();
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: fragbox\r\n\r\n").await.unwrap();
    let answered = Instant::now();
    let (got, closed) = read_until_closed(&mut stream, Duration::from_secs(10)).await;
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    let after = closed.expect("the idle connection was closed") - answered;
    assert!(after >= Duration::from_millis(900) && after < Duration::from_secs(4), "closed after {after:?}");
    app.stop().await;
}

#[tokio::test]
async fn past_the_per_address_cap_a_connection_gets_503_with_retry_after() {
    let app = app_with(&[("HTTP_MAX_CONNECTIONS_PER_IP", "2"), ("HTTP_HEADER_TIMEOUT_SECS", "30")]).await;

    // Arrange: two connections from 127.0.0.1 held open mid-request.
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut s = TcpStream::connect(addr(&app)).await.unwrap();
        s.write_all(b"GET /healthz HTTP/1.1\r\n").await.unwrap();
        held.push(s);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;

    // Act: a third connection from the same address.
    let mut third = TcpStream::connect(addr(&app)).await.unwrap();
    third.write_all(b"GET /healthz HTTP/1.1\r\nHost: fragbox\r\n\r\n").await.unwrap();
    let (got, closed) = read_until_closed(&mut third, Duration::from_secs(10)).await;

    // Assert: a plain 503 with Retry-After, and the socket closed.
    assert!(got.starts_with("HTTP/1.1 503"), "{got}");
    assert!(got.to_ascii_lowercase().contains("\r\nretry-after: "), "{got}");
    assert!(closed.is_some(), "the refused connection is closed");

    // A place freed by a closed connection is given to the next one.
    drop(held.pop());
    let fresh = reqwest::Client::new();
    let mut status = StatusCode::SERVICE_UNAVAILABLE;
    for _ in 0..50 {
        match fresh.get(format!("{}/healthz", app.base)).send().await {
            Ok(r) if r.status() == StatusCode::OK => {
                status = r.status();
                break;
            }
            _ => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    assert_eq!(status, StatusCode::OK);
    drop(held);
    app.stop().await;
}

#[tokio::test]
async fn ordinary_requests_keep_working_over_kept_alive_connections() {
    let app = app_with(&[("HTTP_MAX_CONNECTIONS_PER_IP", "4")]).await;
    // Sign-in reads the client address (the per-address rate limit): ConnectInfo still arrives.
    let token = app.sign_in(4242, "Edge").await;
    for _ in 0..20 {
        let (status, body) = app.get("/api/v1/user/items", Some(&token)).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    let (status, _) = app.get("/healthz", None).await;
    assert_eq!(status, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn a_stop_lets_the_request_in_flight_finish_and_accepts_no_new_connection() {
    let mut app = TestApp::with_bot().await;
    let token = app.sign_in(4343, "Late").await;
    // Arrange: a request that waits on a slow Telegram call.
    app.fake().script("createInvoiceLink", Script::Delay(Duration::from_millis(800)));
    let body = json!({"pack_id": "pack-l", "telegram_id": 4343, "init_data": app.init_data(4343, "Late", None)});
    let request = reqwest::Client::new().post(format!("{}/api/v1/payments/create-invoice-link", app.base)).bearer_auth(&token).json(&body);
    let pending = tokio::spawn(request.send());
    app.fake().wait_calls("createInvoiceLink", 1).await;

    // Act: stop while it is in flight.
    let running = app.running.take().unwrap();
    let addr = running.addr;
    let stopping = tokio::spawn(running.shutdown());

    // Assert: the request is answered in full, the stop completes, the port is closed.
    let answer = pending.await.unwrap().expect("the request in flight is answered");
    assert_eq!(answer.status(), StatusCode::OK);
    tokio::time::timeout(Duration::from_secs(15), stopping).await.expect("the stop completes").unwrap();
    assert!(TcpStream::connect(addr).await.is_err(), "nothing listens after the stop");
    app.stop().await;
}

#[tokio::test]
async fn a_client_that_stops_reading_loses_its_connection_after_the_send_timeout() {
    // Arrange: the accept loop serving an endless answer, with room for one connection only.
    let chunk = axum::body::Bytes::from(vec![b'x'; 64 * 1024]);
    let app = axum::Router::new()
        .route(
            "/endless",
            axum::routing::get(move || {
                let chunk = chunk.clone();
                async move {
                    axum::body::Body::from_stream(futures_util::stream::repeat_with(move || {
                        Ok::<_, std::convert::Infallible>(chunk.clone())
                    }))
                }
            }),
        )
        .route("/ok", axum::routing::get(|| async { "ok" }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = fragbox::serve::Limits {
        header_timeout: Duration::from_secs(5),
        idle_timeout: Duration::from_secs(60),
        send_timeout: Duration::from_secs(1),
        max_connections: 1,
        max_connections_per_ip: 1,
        exempt: Vec::new(),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(fragbox::serve::serve(listener, app, limits, async move {
        let _ = stopped.await;
    }));
    // A client that asks for it and never reads: its window and the kernel's buffers fill.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stalled = socket.connect(addr).await.unwrap();
    stalled.write_all(b"GET /endless HTTP/1.1\r\nHost: fragbox\r\n\r\n").await.unwrap();
    let asked = Instant::now();

    // Act: another client asks until it gets the one place.
    let http = reqwest::Client::builder().timeout(Duration::from_secs(5)).build().unwrap();
    let served = loop {
        match http.get(format!("http://{addr}/ok")).send().await {
            Ok(r) if r.status() == StatusCode::OK => break Instant::now(),
            _ => {
                assert!(asked.elapsed() < Duration::from_secs(15), "the client that stopped reading still holds its connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };

    // Assert: freed about a send timeout after the writes stalled, and the socket closed.
    let after = served - asked;
    assert!(after >= Duration::from_millis(900) && after < Duration::from_secs(10), "freed after {after:?}");
    let (_, closed) = read_until_closed(&mut stalled, Duration::from_secs(10)).await;
    assert!(closed.is_some(), "the stalled connection was closed");
    let _ = stop.send(());
    server.await.unwrap();
}
