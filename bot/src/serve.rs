//! The HTTP edge: our own accept loop over hyper, because `axum::serve` keeps hyper's connection
//! builder to itself and so cannot bound how long a client may take to send its request.
//!
//! What a connection may cost us, and who pays past it:
//! - the first request's head must arrive within `header_timeout` of connecting (this also
//!   covers the HTTP/1-or-2 sniffing hyper-util does before hyper's own header timer starts),
//!   and each later head within `header_timeout` of its first byte (hyper's timer);
//! - a connection with no request in flight for `idle_timeout` is closed;
//! - a connection whose client takes none of what is sent to it for `send_timeout` is closed
//!   (a response in flight — a live feed stream above all — would otherwise hold its place for
//!   as long as a client that stopped reading keeps the socket open);
//! - at most `max_connections` open in all and `max_connections_per_ip` per client address (an
//!   IPv6 /64, which one subscriber usually holds whole, counts as one address; `TRUSTED_PROXIES`
//!   are exempt, since behind them stand many players). Past a cap the client gets a minimal
//!   `503` with `Retry-After` and the socket is closed; the connection never reaches hyper.
//!
//! A stop lets open requests finish (each connection is asked to close after its current
//! request) for up to [`GRACE`], then cuts what is left.
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::Router;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio::time::Instant;
use tower::ServiceExt;
use webapp_api::http::ratelimit::IpNet;

use crate::config::Config;

/// How long a stop waits for open requests (and streams) before cutting them.
pub const GRACE: Duration = Duration::from_secs(10);

/// What a client past a cap is told to wait, in seconds.
const RETRY_AFTER_SECS: u32 = 5;

/// How long a connection asked to close (idle, or too slow with its first request) may take
/// to do so before its socket is dropped.
const CLOSE_WITHIN: Duration = Duration::from_secs(1);

/// The bounds of the HTTP edge (`HTTP_*` settings).
#[derive(Clone, Debug)]
pub struct Limits {
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
    pub send_timeout: Duration,
    pub max_connections: usize,
    pub max_connections_per_ip: usize,
    /// Peers exempt from the per-address cap: the HTTPS proxy in front carries many players.
    pub exempt: Vec<IpNet>,
}

impl Limits {
    pub fn from_config(c: &Config) -> Limits {
        Limits {
            header_timeout: Duration::from_secs(c.http_header_timeout_secs),
            idle_timeout: Duration::from_secs(c.http_idle_timeout_secs),
            send_timeout: Duration::from_secs(c.http_send_timeout_secs),
            max_connections: c.http_max_connections,
            max_connections_per_ip: c.http_max_connections_per_ip,
            exempt: c.trusted_proxies.clone(),
        }
    }
}

/// The address a per-address cap counts: IPv4 as is (an IPv4-mapped IPv6 address is its IPv4),
/// IPv6 by its /64.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX))),
        v4 => v4,
    }
}

#[derive(Default)]
struct Counts {
    total: usize,
    per_client: HashMap<IpAddr, usize>,
}

/// Counts open connections; an [`Admission`] holds one place until dropped.
struct Gate {
    limits: Limits,
    counts: Mutex<Counts>,
}

struct Admission {
    gate: Arc<Gate>,
    /// `None` for an exempt peer (counted in the total only).
    client: Option<IpAddr>,
}

#[derive(Clone, Copy, Debug)]
enum Refusal {
    Total,
    PerClient,
}

impl Gate {
    fn admit(self: &Arc<Gate>, peer: IpAddr) -> Result<Admission, Refusal> {
        let client = (!self.limits.exempt.iter().any(|net| net.contains(peer))).then(|| client_key(peer));
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if counts.total >= self.limits.max_connections {
            return Err(Refusal::Total);
        }
        if let Some(client) = client {
            let open = counts.per_client.entry(client).or_insert(0);
            if *open >= self.limits.max_connections_per_ip {
                return Err(Refusal::PerClient);
            }
            *open += 1;
        }
        counts.total += 1;
        Ok(Admission { gate: self.clone(), client })
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut counts = self.gate.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts.total = counts.total.saturating_sub(1);
        if let Some(client) = self.client {
            if let Some(open) = counts.per_client.get_mut(&client) {
                *open -= 1;
                if *open == 0 {
                    counts.per_client.remove(&client);
                }
            }
        }
    }
}

/// Requests of one connection: how many are in flight, and since when it has been idle.
struct Activity {
    state: Mutex<ActivityState>,
    /// Wakes the connection's watch when a request begins or ends, so its deadline moves.
    changed: tokio::sync::Notify,
}

struct ActivityState {
    in_flight: usize,
    started: u64,
    idle_since: Instant,
}

/// One request in flight; it ends when the response body is done or dropped (a stream counts
/// as in flight for as long as it runs).
struct InFlight(Arc<Activity>);

impl Activity {
    fn begin(self: &Arc<Activity>) -> InFlight {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.in_flight += 1;
        s.started += 1;
        self.changed.notify_one();
        InFlight(self.clone())
    }

    /// When the connection is to be closed unless something happens first; `None` while a
    /// request is in flight.
    fn deadline(&self, accepted: Instant, limits: &Limits) -> Option<Instant> {
        let s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match (s.in_flight, s.started) {
            (0, 0) => Some(accepted + limits.header_timeout),
            (0, _) => Some(s.idle_since + limits.idle_timeout),
            _ => None,
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut s = self.0.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.in_flight = s.in_flight.saturating_sub(1);
        s.idle_since = Instant::now();
        self.0.changed.notify_one();
    }
}

/// Serves `app` on `listener` until `stop` completes, then drains as the module says.
pub async fn serve(listener: TcpListener, app: Router, limits: Limits, stop: impl Future<Output = ()>) {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    // hyper's header timer does nothing without a timer on the HTTP/1 builder.
    builder.http1().timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    builder.http2().timer(TokioTimer::new());
    let builder = Arc::new(builder);
    let gate = Arc::new(Gate { limits: limits.clone(), counts: Mutex::default() });
    let (closing, closing_rx) = watch::channel(false);
    let mut connections = JoinSet::new();
    let mut refused = Refused::default();
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors and the like: pause instead of spinning on the error.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        while connections.try_join_next().is_some() {}
        match gate.admit(peer.ip()) {
            Ok(admission) => {
                let conn = Connection {
                    builder: builder.clone(),
                    app: app.clone(),
                    limits: limits.clone(),
                    closing: closing_rx.clone(),
                    _admission: admission,
                };
                connections.spawn(conn.run(stream, peer));
            }
            Err(why) => {
                refused.note(why, peer);
                connections.spawn(refuse(stream, why));
            }
        }
    }
    drop(listener);
    let _ = closing.send(true);
    let drained = tokio::time::timeout(GRACE, async { while connections.join_next().await.is_some() {} }).await;
    if drained.is_err() {
        tracing::warn!(open = connections.len(), "connections still open after the grace period; closing them");
        connections.shutdown().await;
    }
}

/// Logs refusals at most every 10 s, with how many there were: a flood must not flood the log.
#[derive(Default)]
struct Refused {
    since_log: u64,
    logged_at: Option<Instant>,
}

impl Refused {
    fn note(&mut self, why: Refusal, peer: SocketAddr) {
        self.since_log += 1;
        if self.logged_at.is_none_or(|t| t.elapsed() >= Duration::from_secs(10)) {
            tracing::warn!(?why, client = %client_key(peer.ip()), refused = self.since_log, "connection cap reached; answering 503");
            self.since_log = 0;
            self.logged_at = Some(Instant::now());
        }
    }
}

/// A minimal HTTP/1.1 answer for a connection past a cap, then close. What the client already
/// sent is read and dropped first, so the close does not reset the connection before the
/// client has read the answer.
async fn refuse(mut stream: TcpStream, why: Refusal) {
    let body = match why {
        Refusal::Total => "server busy: too many open connections; retry later\n",
        Refusal::PerClient => "too many open connections from your address; retry later\n",
    };
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: {RETRY_AFTER_SECS}\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 1024];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<(), std::io::Error>(())
    })
    .await;
}

/// One admitted connection and what it needs to run.
struct Connection {
    builder: Arc<auto::Builder<TokioExecutor>>,
    app: Router,
    limits: Limits,
    closing: watch::Receiver<bool>,
    /// Holds the connection's place under the caps until the task ends.
    _admission: Admission,
}

impl Connection {
    async fn run(mut self, stream: TcpStream, peer: SocketAddr) {
        let accepted = Instant::now();
        let activity = Arc::new(Activity {
            state: Mutex::new(ActivityState { in_flight: 0, started: 0, idle_since: accepted }),
            changed: tokio::sync::Notify::new(),
        });
        let app = self.app.clone();
        let requests = activity.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            // What `into_make_service_with_connect_info` did: handlers read the peer from here.
            req.extensions_mut().insert(ConnectInfo(peer));
            let in_flight = requests.begin();
            let app = app.clone();
            async move {
                let Ok(res) = app.oneshot(req).await;
                // The request stays in flight until its body is sent (or dropped).
                Ok::<_, Infallible>(res.map(|body| {
                    Body::new(body.map_frame(move |frame| {
                        let _ = &in_flight;
                        frame
                    }))
                }))
            }
        });
        let conn = self.builder.serve_connection(SendTimeout::new(TokioIo::new(stream), self.limits.send_timeout), service);
        tokio::pin!(conn);
        let mut close_by: Option<Instant> = None;
        let mut stopping = false;
        loop {
            let deadline = match close_by {
                Some(t) => t,
                None => activity.deadline(accepted, &self.limits).unwrap_or_else(|| Instant::now() + self.limits.idle_timeout),
            };
            tokio::select! {
                res = conn.as_mut() => {
                    if let Err(e) = res {
                        tracing::debug!(error = %e, "connection ended with an error");
                    }
                    return;
                }
                _ = activity.changed.notified(), if close_by.is_none() => {}
                _ = self.closing.changed(), if !stopping => {
                    stopping = true;
                    conn.as_mut().graceful_shutdown();
                }
                _ = tokio::time::sleep_until(deadline) => {
                    if close_by.is_some() {
                        // Asked to close and did not: drop the socket.
                        return;
                    }
                    let due = activity.deadline(accepted, &self.limits).is_some_and(|d| d <= Instant::now());
                    if due {
                        conn.as_mut().graceful_shutdown();
                        close_by = Some(Instant::now() + CLOSE_WITHIN);
                    }
                }
            }
        }
    }
}

/// A connection's socket that fails a write (so hyper closes the connection) once what is sent
/// has made no progress for `limit`. A client that stops reading fills its receive window and
/// then the kernel's buffers; from then on every write waits, and nothing else would ever end
/// the wait: the request is in flight, so the idle timeout does not apply. Any progress, a
/// single byte, starts the wait over.
struct SendTimeout<I> {
    io: I,
    limit: Duration,
    /// Running while a write waits.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<I> SendTimeout<I> {
    fn new(io: I, limit: Duration) -> SendTimeout<I> {
        SendTimeout { io, limit, stalled: None }
    }

    /// Passes a write's outcome on, after starting the stall timer on a wait (and failing the
    /// write once it has run out) or stopping it on progress.
    fn watch<T>(&mut self, cx: &mut Context<'_>, polled: Poll<std::io::Result<T>>) -> Poll<std::io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let limit = self.limit;
        let timer = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(std::io::ErrorKind::TimedOut, "the client took nothing sent to it"))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<I: hyper::rt::Read + Unpin> hyper::rt::Read for SendTimeout<I> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: hyper::rt::ReadBufCursor<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<I: hyper::rt::Write + Unpin> hyper::rt::Write for SendTimeout<I> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_write(cx, buf);
        this.watch(cx, polled)
    }

    fn poll_write_vectored(self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[std::io::IoSlice<'_>]) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.watch(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_flush(cx);
        this.watch(cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.io).poll_shutdown(cx);
        this.watch(cx, polled)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_client_counts_by_its_64_prefix_and_a_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(other));
        assert_eq!(client_key("::ffff:10.0.0.7".parse().unwrap()), "10.0.0.7".parse::<IpAddr>().unwrap());
        assert_eq!(client_key("10.0.0.7".parse().unwrap()), "10.0.0.7".parse::<IpAddr>().unwrap());
    }

    fn gate(total: usize, per_ip: usize, exempt: &[&str]) -> Arc<Gate> {
        let limits = Limits {
            header_timeout: Duration::from_secs(1),
            idle_timeout: Duration::from_secs(1),
            send_timeout: Duration::from_secs(1),
            max_connections: total,
            max_connections_per_ip: per_ip,
            exempt: exempt.iter().map(|e| e.parse().unwrap()).collect(),
        };
        Arc::new(Gate { limits, counts: Mutex::default() })
    }

    #[test]
    fn the_caps_count_open_connections_and_free_a_place_on_close() {
        let g = gate(3, 2, &[]);
        let ip: IpAddr = "198.51.100.1".parse().unwrap();
        let first = g.admit(ip).unwrap();
        let _second = g.admit(ip).unwrap();
        assert!(matches!(g.admit(ip), Err(Refusal::PerClient)));
        let _other = g.admit("198.51.100.2".parse().unwrap()).unwrap();
        assert!(matches!(g.admit("198.51.100.3".parse().unwrap()), Err(Refusal::Total)));
        drop(first);
        assert!(g.admit(ip).is_ok());
    }

    #[test]
    fn a_trusted_proxy_is_capped_only_by_the_total() {
        let g = gate(10, 1, &["10.0.0.0/8"]);
        let proxy: IpAddr = "10.1.2.3".parse().unwrap();
        let held: Vec<_> = (0..5).map(|_| g.admit(proxy).unwrap()).collect();
        assert_eq!(held.len(), 5);
    }

    async fn write(io: &mut SendTimeout<TokioIo<tokio::io::DuplexStream>>, bytes: &[u8]) -> std::io::Result<usize> {
        std::future::poll_fn(|cx| hyper::rt::Write::poll_write(Pin::new(&mut *io), cx, bytes)).await
    }

    #[tokio::test]
    async fn a_write_nobody_takes_fails_after_the_send_timeout_and_progress_starts_it_over() {
        let (ours, mut theirs) = tokio::io::duplex(16);
        let mut io = SendTimeout::new(TokioIo::new(ours), Duration::from_millis(300));
        assert_eq!(write(&mut io, &[1; 16]).await.unwrap(), 16);

        // The peer takes a byte at 200 ms: progress, so the wait starts over.
        let started = Instant::now();
        let reader = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let mut one = [0u8; 1];
            theirs.read_exact(&mut one).await.unwrap();
            theirs
        });
        assert_eq!(write(&mut io, &[2; 8]).await.unwrap(), 1);
        let _theirs = reader.await.unwrap();

        // Then it takes nothing more.
        let err = write(&mut io, &[3; 8]).await.unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::TimedOut);
        let waited = started.elapsed();
        assert!(waited >= Duration::from_millis(480) && waited < Duration::from_secs(3), "failed after {waited:?}");
    }
}
