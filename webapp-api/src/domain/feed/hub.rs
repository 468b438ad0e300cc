//! The feed's memory in one process: the newest events, serialised once, and the channel that
//! hands new ones to the connected clients.
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{broadcast, watch};

use super::streams::Streams;
use crate::domain::lang::Lang;

/// Events the hub remembers for reconnects; an older `Last-Event-ID` is served from the table.
pub const RING: usize = 256;
/// Events a client may fall behind the newest before it is dropped (it reconnects with
/// `Last-Event-ID` and resumes from the ring). Bounds what a stalled client costs: nothing is
/// queued per client beyond its place in this shared ring.
pub const LIVE_BUFFER: usize = 128;

/// One event, serialised once per language for every client: the skin's and the case's names
/// follow the viewer's language, whoever opened.
#[derive(Debug)]
pub struct Event {
    pub id: i64,
    /// Whose drop it is: never sent, only used to find a player's drops when their name
    /// setting changes.
    pub(super) player: i64,
    /// The `data:` line's JSON with Russian names.
    pub ru: String,
    /// The `data:` line's JSON with English names.
    pub en: String,
}

impl Event {
    /// The `data:` line's JSON for a viewer reading `lang`.
    pub fn data(&self, lang: Lang) -> &str {
        match lang {
            Lang::Ru => &self.ru,
            Lang::En => &self.en,
        }
    }
}

/// A process's hub.
pub struct Hub {
    pub(super) live: broadcast::Sender<Arc<Event>>,
    pub(super) ring: Mutex<Ring>,
    /// One reader of the table at a time, so events enter the ring and the channel in id order.
    pub(super) reading: tokio::sync::Mutex<()>,
    pub(super) closed: watch::Sender<bool>,
    /// New rows wait to be read (set by a commit, cleared by the reader before it reads).
    pub(super) dirty: AtomicBool,
    /// A reader task is running.
    pub(super) running: AtomicBool,
    /// The streams clients hold now, per player and per address.
    pub(super) streams: Arc<Streams>,
}

#[derive(Default)]
pub(super) struct Ring {
    pub(super) events: VecDeque<Arc<Event>>,
    /// The newest id read; `None` until the ring was first filled from the table.
    pub(super) last: Option<i64>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            live: broadcast::channel(LIVE_BUFFER).0,
            ring: Mutex::default(),
            reading: tokio::sync::Mutex::new(()),
            closed: watch::channel(false).0,
            dirty: AtomicBool::new(false),
            running: AtomicBool::new(false),
            streams: Arc::default(),
        }
    }
}

impl Hub {
    pub(super) fn ring(&self) -> MutexGuard<'_, Ring> {
        self.ring.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Ends every client's stream, now and for clients that connect later (the process stops:
    /// the server's graceful shutdown waits for open responses).
    pub fn close(&self) {
        self.closed.send_replace(true);
    }

    /// Clients connected now.
    pub fn clients(&self) -> usize {
        self.live.receiver_count()
    }

    /// The newest drop the hub has handed to its clients (`None` before it first read the table).
    pub fn newest(&self) -> Option<i64> {
        self.ring().last
    }

    /// Streams held by players now (`streams`).
    pub fn streams(&self) -> usize {
        self.streams.count()
    }
}
