//! The live drop feed: every paid open, shown to every signed-in player as it happens.
//!
//! Each drop is one row of `feed_events`; its id is the event id (`Last-Event-ID`). The hub of
//! a process keeps the last `RING` events in memory, already serialised once for every client,
//! and hands new ones to the connected clients through one `broadcast` channel. How rows reach
//! the hub of every replica (in one process, or across replicas) is the
//! store's business: `store::notify`. How many streams a player or an address may hold, and
//! for how long: `streams`.
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use serde::Serialize;
use tokio::sync::{broadcast, watch};
use tokio::time::Instant;

mod hub;
mod prune;
mod streams;

pub use hub::{Event, Hub, LIVE_BUFFER, RING};
pub use prune::{prune, run_pruning, Retention, PRUNE_EVERY, RETENTION};
pub use streams::{Limits, Viewer};

use crate::domain::clock::rfc3339;
use crate::domain::goods::CatalogItem;
use crate::domain::lang::Lang;
use crate::domain::store::{notify, query, Exec};
use crate::domain::{Domain, DomainError, DomainResult};
use streams::Place;

/// Drops sent to a client when it connects without `Last-Event-ID`.
pub const ON_CONNECT: usize = 20;
/// Rows read from the table at a time.
const READ_BATCH: i64 = 256;

/// A drop to publish: an item an open drew, and the feed row's id once written.
#[derive(Clone, Debug)]
pub struct Drop {
    /// The inventory item (unique: a replayed open publishes nothing twice).
    pub item_id: i64,
    pub user_id: i64,
    pub case_id: String,
    pub catalog_item_id: String,
    pub at: i64,
    /// Set once the feed row exists.
    pub id: Option<i64>,
}

const INSERT_EVENT: &str = "INSERT INTO feed_events(item_id, user_id, case_id, catalog_item_id, created_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (item_id) DO NOTHING RETURNING id";

/// The event rows, followed by `$tail`; the name is there only for players who show it.
macro_rules! events_where {
    ($tail:literal) => {
        concat!(
            "SELECT f.id, f.user_id, f.case_id, f.catalog_item_id, f.created_at,
        CASE WHEN u.feed_hide_name = 0 AND u.first_name <> '' THEN u.first_name END,
        i.market_hash_name, i.exterior, COALESCE(i.stat_trak, 0)
 FROM feed_events f JOIN users u ON u.id = f.user_id LEFT JOIN inventory_items i ON i.id = f.item_id ",
            $tail
        )
    };
}

/// The event rows after an id, oldest first.
const AFTER: &str = events_where!("WHERE f.id > $1 AND f.id < $2 ORDER BY f.id LIMIT $3");

/// The newest rows, newest first.
const NEWEST: &str = events_where!("ORDER BY f.id DESC LIMIT $1");

/// The rows from one id to another (both included): what a ring holds.
const BETWEEN: &str = events_where!("WHERE f.id >= $1 AND f.id <= $2");

/// One player's rows from one id to another (both included).
const PLAYERS_BETWEEN: &str = events_where!("WHERE f.id >= $1 AND f.id <= $2 AND f.user_id = $3");

/// An event row: id, player, case, skin, time, the name shown, and the drop's own Steam name,
/// exterior and StatTrak™.
type Row = (i64, i64, String, String, i64, Option<String>, Option<String>, Option<String>, i64);

/// Inside the open's write: records the drops the open made (`cases::Ran::drops`). Where feed rows
/// are written in the open's own write (`notify::records_in_open`), they are written here; the
/// others are written by `publish` after the commit.
pub async fn record(tx: &mut dyn Exec, drops: Vec<Drop>) -> DomainResult<Vec<Drop>> {
    if !notify::records_in_open(tx) {
        return Ok(drops);
    }
    let mut recorded = Vec::with_capacity(drops.len());
    for mut drop in drops {
        if let Some(id) = insert(tx, &drop).await? {
            drop.id = Some(id);
            recorded.push(drop);
        }
    }
    Ok(recorded)
}

async fn insert(tx: &mut dyn Exec, drop: &Drop) -> DomainResult<Option<i64>> {
    let id: Option<(i64,)> = query(INSERT_EVENT)
        .bind(drop.item_id)
        .bind(drop.user_id)
        .bind(drop.case_id.as_str())
        .bind(drop.catalog_item_id.as_str())
        .bind(drop.at)
        .fetch_optional(tx)
        .await?;
    Ok(id.map(|r| r.0))
}

/// After the open committed: makes its drops reach every client. Never fails the open (it has
/// been paid for and answered): a feed that cannot be written is logged and skipped.
pub async fn publish(domain: &Domain, drops: Vec<Drop>) {
    if drops.is_empty() {
        return;
    }
    let unwritten: Vec<Drop> = drops.into_iter().filter(|d| d.id.is_none()).collect();
    if !unwritten.is_empty() {
        let appended = domain
            .write(move |tx| {
                Box::pin(async move {
                    notify::begin_append(tx).await?;
                    for drop in &unwritten {
                        if let Some(id) = insert(tx, drop).await? {
                            notify::signal(tx, id).await?;
                        }
                    }
                    Ok(())
                })
            })
            .await;
        if let Err(e) = appended {
            tracing::warn!(error = %e, "feed: a drop could not be published");
            return;
        }
    }
    if notify::in_process(&domain.db) {
        wake(domain);
    }
}

/// Has the new rows read and handed out by one background reader, without making the open that
/// wrote them wait: many opens at once cost one read, not one read each behind the hub's lock.
fn wake(domain: &Domain) {
    use std::sync::atomic::Ordering::SeqCst;
    let hub = &domain.feed;
    hub.dirty.store(true, SeqCst);
    if hub.running.swap(true, SeqCst) {
        return;
    }
    let d = domain.clone();
    tokio::spawn(async move {
        loop {
            d.feed.dirty.store(false, SeqCst);
            catch_up(&d).await;
            if d.feed.dirty.load(SeqCst) {
                continue;
            }
            d.feed.running.store(false, SeqCst);
            // A commit between the check and the store saw a reader running and left: read again.
            if d.feed.dirty.load(SeqCst) && !d.feed.running.swap(true, SeqCst) {
                continue;
            }
            break;
        }
    });
}

/// Hides or shows the player's first name on their drops: on those read from now on, and on
/// those already in the memory of every process (this one at once; on PostgreSQL every
/// replica's listener is told at the commit, `notify::signal_name`). A drop already sent to a
/// client keeps what it showed.
pub async fn set_hide_name(domain: &Domain, user_id: i64, hide: bool) -> DomainResult<bool> {
    let changed = domain
        .write(move |tx| {
            Box::pin(async move {
                let n = query("UPDATE users SET feed_hide_name = $1 WHERE id = $2").bind(hide).bind(user_id).execute(tx).await?;
                if n > 0 {
                    notify::signal_name(tx, user_id).await?;
                }
                Ok(n)
            })
        })
        .await?;
    if changed == 0 {
        return Err(DomainError::NotFound);
    }
    refresh_names(domain, Some(user_id)).await;
    Ok(hide)
}

/// Serialises again, from the table, the events in this process's memory of `player` (every
/// event with `None`), so that each shows the name its player's setting allows now. Events
/// already sent keep what they showed; clients that connect or resume later get these.
pub async fn refresh_names(domain: &Domain, player: Option<i64>) {
    if let Err(e) = reread(domain, player).await {
        tracing::warn!(error = %e, "feed: cannot read the drops' names again");
    }
}

async fn reread(domain: &Domain, player: Option<i64>) -> DomainResult<()> {
    let hub = &domain.feed;
    // Taken like a read of new rows: a read that began before the change cannot put an event
    // with the old name into the ring after this one replaced it.
    let _reading = hub.reading.lock().await;
    let span = {
        let ring = hub.ring();
        let mut ids = ring.events.iter().filter(|e| player.is_none_or(|p| e.player == p)).map(|e| e.id);
        ids.next().map(|first| (first, ids.next_back().unwrap_or(first)))
    };
    let Some((from, to)) = span else { return Ok(()) };
    let rows: Vec<Row> = match player {
        Some(p) => {
            domain.read(move |c| Box::pin(async move { query(PLAYERS_BETWEEN).bind(from).bind(to).bind(p).fetch_all(c).await })).await?
        }
        None => domain.read(move |c| Box::pin(async move { query(BETWEEN).bind(from).bind(to).fetch_all(c).await })).await?,
    };
    let fresh: HashMap<i64, Arc<Event>> = rows.into_iter().filter_map(|r| event(domain, r)).map(|e| (e.id, Arc::new(e))).collect();
    let mut ring = hub.ring();
    for slot in ring.events.iter_mut() {
        if let Some(e) = fresh.get(&slot.id) {
            *slot = e.clone();
        }
    }
    Ok(())
}

/// Whether the player hides their first name on their drops.
pub async fn hides_name(domain: &Domain, user_id: i64) -> DomainResult<bool> {
    let row: Option<(i64,)> = domain
        .read(move |c| {
            Box::pin(async move { query("SELECT feed_hide_name FROM users WHERE id = $1").bind(user_id).fetch_optional(c).await })
        })
        .await?;
    Ok(row.ok_or(DomainError::NotFound)?.0 != 0)
}

/// Reads the rows the hub has not seen and hands them to the clients, in id order. The first
/// call fills the ring with the newest rows and hands nothing out.
pub async fn catch_up(domain: &Domain) {
    if let Err(e) = read_new(domain).await {
        tracing::warn!(error = %e, "feed: cannot read new drops");
    }
}

async fn read_new(domain: &Domain) -> DomainResult<()> {
    let hub = &domain.feed;
    let _reading = hub.reading.lock().await;
    let Some(mut last) = hub.ring().last else {
        let mut rows: Vec<Row> = domain.read(move |c| Box::pin(async move { query(NEWEST).bind(RING as i64).fetch_all(c).await })).await?;
        rows.reverse();
        let mut ring = hub.ring();
        ring.last = Some(rows.last().map_or(0, |r| r.0));
        ring.events = rows.into_iter().filter_map(|r| event(domain, r)).map(Arc::new).collect();
        return Ok(());
    };
    loop {
        let rows: Vec<Row> = domain
            .read(move |c| Box::pin(async move { query(AFTER).bind(last).bind(i64::MAX).bind(READ_BATCH).fetch_all(c).await }))
            .await?;
        let full = rows.len() as i64 == READ_BATCH;
        let mut ring = hub.ring();
        for row in rows {
            last = row.0;
            ring.last = Some(last);
            let Some(e) = event(domain, row) else { continue };
            let e = Arc::new(e);
            if ring.events.len() == RING {
                ring.events.pop_front();
            }
            ring.events.push_back(e.clone());
            // Sent under the ring's lock: a client subscribing takes the same lock, so it finds
            // each event either in the ring or in its receiver, never in both or neither.
            let _ = hub.live.send(e);
        }
        if !full {
            return Ok(());
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EventItem<'a> {
    name: String,
    market_hash_name: String,
    rarity: &'a str,
    image: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    exterior: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stat_trak: Option<bool>,
}

#[derive(Serialize)]
struct EventCase<'a> {
    id: &'a str,
    name: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EventData<'a> {
    id: i64,
    item: EventItem<'a>,
    case: EventCase<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_name: Option<String>,
    opened_at: String,
}

/// The event of a row; `None` when the catalog no longer has its case or item (an operator
/// removed them): nothing to show. Serialised once per language: the skin's and the case's names
/// come from the catalog in the viewer's language, never from the opener's answer.
fn event(domain: &Domain, (id, player, case_id, item_id, at, first_name, hash_name, exterior, stat_trak): Row) -> Option<Event> {
    let case = domain.catalog.case(&case_id)?;
    let item = domain.catalog.item(&item_id)?;
    let market_hash_name = hash_name.unwrap_or_else(|| item.market_hash_name());
    let opened_at = rfc3339(at);
    let data = |lang: Lang| {
        serde_json::to_string(&EventData {
            id,
            item: EventItem {
                name: skin_name(item, lang),
                market_hash_name: market_hash_name.clone(),
                rarity: &item.rarity,
                image: &item.image,
                exterior: exterior.clone(),
                stat_trak: item.stat_trak.then_some(stat_trak != 0),
            },
            case: EventCase { id: &case.id, name: if lang == Lang::Ru && !case.name_ru.is_empty() { &case.name_ru } else { &case.name } },
            first_name: first_name.clone(),
            opened_at: opened_at.clone(),
        })
        .ok()
    };
    Some(Event { id, player, ru: data(Lang::Ru)?, en: data(Lang::En)? })
}

/// The skin's name in `lang` without StatTrak™ or exterior (the feed shows those apart):
/// `AK-47 | Аквамариновая месть`, `★ Bayonet`.
fn skin_name(item: &CatalogItem, lang: Lang) -> String {
    let (weapon, finish) = match lang {
        Lang::Ru if !item.weapon_ru.is_empty() => (&item.weapon_ru, &item.finish_ru),
        _ => (&item.weapon, &item.finish),
    };
    let star = if item.is_special() { "★ " } else { "" };
    if finish.is_empty() {
        format!("{star}{weapon}")
    } else {
        format!("{star}{weapon} | {finish}")
    }
}

/// One client's view of the feed: the backlog it is owed, then live events, until one of the
/// reasons in [`Ended`].
pub struct Subscription {
    backlog: VecDeque<Arc<Event>>,
    live: broadcast::Receiver<Arc<Event>>,
    closed: watch::Receiver<bool>,
    /// Its place among the player's and the address's streams, handed back when it is dropped.
    place: Place,
    /// When it ends of age.
    ends: Instant,
}

/// Why a subscription ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// The client fell more than `LIVE_BUFFER` events behind.
    TooSlow,
    /// The player opened another stream while holding as many as they may: the oldest ends.
    Replaced,
    /// It ran for its lifetime (`Limits::max_age`); the client resumes with `Last-Event-ID`.
    Expired,
    /// The process is stopping.
    Closed,
}

/// Subscribes a client: with `after` (its `Last-Event-ID`) the events since, else the last
/// `ON_CONNECT`; then every new one. The viewer's place is taken first (`streams`): the
/// player's oldest stream may end, or the address be refused with `TooManyStreams`.
pub async fn subscribe(domain: &Domain, viewer: Viewer, after: Option<i64>) -> DomainResult<Subscription> {
    let limits = domain.config.feed;
    let place = domain.feed.streams.take(viewer, limits)?;
    let hub = &domain.feed;
    if hub.ring().last.is_none() {
        read_new(domain).await?;
    }
    let (live, mut backlog, oldest, full) = {
        let ring = hub.ring();
        let live = hub.live.subscribe();
        let backlog: VecDeque<Arc<Event>> = match after {
            None => ring.events.iter().skip(ring.events.len().saturating_sub(ON_CONNECT)).cloned().collect(),
            Some(after) => ring.events.iter().filter(|e| e.id > after).cloned().collect(),
        };
        (live, backlog, ring.events.front().map(|e| e.id), ring.events.len() == RING)
    };
    // A client further behind than the ring: what it missed before the ring, from the table.
    if let (Some(after), Some(oldest), true) = (after, oldest, full) {
        if after < oldest {
            let rows: Vec<Row> = domain
                .read(move |c| Box::pin(async move { query(AFTER).bind(after).bind(oldest).bind(READ_BATCH).fetch_all(c).await }))
                .await?;
            for e in rows.into_iter().rev().filter_map(|r| event(domain, r)) {
                backlog.push_front(Arc::new(e));
            }
        }
    }
    let ends = Instant::now() + lifetime(domain, limits.max_age);
    Ok(Subscription { backlog, live, closed: hub.closed.subscribe(), place, ends })
}

/// A stream's lifetime: `max_age` less up to a tenth of it, at random, so that the streams of
/// every client that connected at once (after a deploy) do not all end, and reconnect, at once
/// again every `max_age`.
fn lifetime(domain: &Domain, max_age: std::time::Duration) -> std::time::Duration {
    let mut r = [0u8; 4];
    domain.random.fill(&mut r);
    let tenth = max_age / 10;
    max_age - tenth.mul_f64(f64::from(u32::from_le_bytes(r)) / f64::from(u32::MAX))
}

impl Subscription {
    /// The next event to send, or why the stream ends.
    pub async fn next(&mut self) -> Result<Arc<Event>, Ended> {
        if *self.closed.borrow() {
            return Err(Ended::Closed);
        }
        if *self.place.replaced.borrow() {
            return Err(Ended::Replaced);
        }
        if Instant::now() >= self.ends {
            return Err(Ended::Expired);
        }
        if let Some(e) = self.backlog.pop_front() {
            return Ok(e);
        }
        tokio::select! {
            changed = self.closed.changed() => {
                let _ = changed;
                Err(Ended::Closed)
            }
            // Set (or, the same here, its sender gone) only when a newer stream took the place.
            changed = self.place.replaced.changed() => {
                let _ = changed;
                Err(Ended::Replaced)
            }
            _ = tokio::time::sleep_until(self.ends) => Err(Ended::Expired),
            got = self.live.recv() => match got {
                Ok(e) => Ok(e),
                Err(broadcast::error::RecvError::Lagged(_)) => Err(Ended::TooSlow),
                Err(broadcast::error::RecvError::Closed) => Err(Ended::Closed),
            },
        }
    }
}

/// Serves the feed's fan-out until `stop` resolves (started with the server): across replicas
/// this process's listener (`store::notify`); then ends every client's stream.
pub async fn run(domain: Domain, stop: impl std::future::Future<Output = ()>) {
    let waker = domain.clone();
    let wake: notify::Wake = Box::new(move |woken: notify::Woken| {
        let d = waker.clone();
        Box::pin(async move {
            if woken.drops {
                catch_up(&d).await;
            }
            if woken.all_names {
                refresh_names(&d, None).await;
            } else {
                for player in woken.names {
                    refresh_names(&d, Some(player)).await;
                }
            }
        })
    });
    notify::listen(domain.db.clone(), wake, stop).await;
    domain.feed.close();
}
