//! Who holds the feed's streams. A stream is a connection held for as long as it runs, and the
//! server's connections are finite (`HTTP_MAX_CONNECTIONS`): without a bound per player, one
//! account could hold them all from a few addresses and every other player would be refused.
//!
//! - A player holds at most `per_player` streams. One more ends the player's **oldest** (its
//!   connection closes), never refuses the new one: a player who reopens the app, or whose
//!   phone changed networks and left a dead stream behind, always gets the feed back, and the
//!   only streams a player can end are their own.
//! - A client address holds at most `per_address` streams (whoever the players are). One more
//!   ends the player's own oldest stream on that address if they hold one there (the same
//!   player reopening the app), and is refused otherwise (`too_many_streams`). Refused rather
//!   than ending the address's oldest: players behind one carrier address would otherwise end
//!   each other's streams in turn, for ever; refused, the ones connected stay and the others'
//!   readers retry with their back-off. Behind the proxy this is the only per-address bound a
//!   stream has (the connection cap exempts the proxy), so many accounts on one address cannot
//!   fill the server either.
//! - Every stream ends after `max_age` (a little less, so streams opened together do not all
//!   end together); the client resumes with `Last-Event-ID`. A stream never outlives the
//!   session that opened it by more than that, and a connection's place is handed back
//!   regularly even when nothing else ends it.
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::watch;

use crate::domain::{DomainError, DomainResult};

/// The bounds of the feed's streams (`FEED_*` settings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub per_player: usize,
    pub per_address: usize,
    pub max_age: Duration,
}

impl Limits {
    /// 3 per player (a phone, a desktop and a browser tab), 32 per address, 30 minutes.
    pub const DEFAULT: Limits = Limits { per_player: 3, per_address: 32, max_age: Duration::from_secs(30 * 60) };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// Who opens a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewer {
    pub player: i64,
    /// The client's address as the per-address bound counts it (an IPv6 client by its /64);
    /// `None` when it is not bounded (a trusted proxy that named no client).
    pub address: Option<IpAddr>,
}

/// The streams held now.
#[derive(Default)]
pub struct Streams {
    inner: Mutex<Held>,
}

#[derive(Default)]
struct Held {
    next: u64,
    /// Each player's streams, oldest first.
    players: HashMap<i64, VecDeque<Stream>>,
    addresses: HashMap<IpAddr, usize>,
}

struct Stream {
    id: u64,
    address: Option<IpAddr>,
    /// Set when a newer stream of the same player takes this one's place.
    replaced: watch::Sender<bool>,
}

/// Hands back one of `address`'s places.
fn release(addresses: &mut HashMap<IpAddr, usize>, address: IpAddr) {
    if let Some(n) = addresses.get_mut(&address) {
        *n -= 1;
        if *n == 0 {
            addresses.remove(&address);
        }
    }
}

/// A stream's place; handed back when dropped (the stream ended, however).
pub struct Place {
    streams: Arc<Streams>,
    player: i64,
    id: u64,
    /// Turns true when a newer stream of the player ended this one.
    pub(super) replaced: watch::Receiver<bool>,
}

impl Streams {
    fn held(&self) -> MutexGuard<'_, Held> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes a place for `viewer`'s new stream: ends the player's oldest when they hold
    /// `per_player` already. When the address holds `per_address` (counting the place that
    /// frees), the player's own oldest stream on that address gives way, or, without one,
    /// the new stream is refused with `TooManyStreams`.
    pub fn take(self: &Arc<Self>, viewer: Viewer, limits: Limits) -> DomainResult<Place> {
        let mut held = self.held();
        let Held { players, addresses, .. } = &mut *held;
        let mine = players.entry(viewer.player).or_default();
        // Which of the player's streams ends, by its place among them (oldest first).
        let mut ending = (mine.len() >= limits.per_player.max(1)).then_some(0);
        if let Some(address) = viewer.address {
            let frees = ending.is_some_and(|i| mine[i].address == Some(address));
            let there = addresses.get(&address).copied().unwrap_or(0).saturating_sub(usize::from(frees));
            if there >= limits.per_address {
                // A player reopening the app behind a full address replaces their own stream.
                match mine.iter().position(|s| s.address == Some(address)) {
                    Some(i) => ending = Some(i),
                    None => {
                        if mine.is_empty() {
                            players.remove(&viewer.player);
                        }
                        return Err(DomainError::TooManyStreams);
                    }
                }
            }
        }
        if let Some(old) = ending.and_then(|i| mine.remove(i)) {
            old.replaced.send_replace(true);
            if let Some(a) = old.address {
                release(addresses, a);
            }
        }
        held.next += 1;
        let id = held.next;
        let (replaced, rx) = watch::channel(false);
        held.players.entry(viewer.player).or_default().push_back(Stream { id, address: viewer.address, replaced });
        if let Some(address) = viewer.address {
            *held.addresses.entry(address).or_insert(0) += 1;
        }
        Ok(Place { streams: self.clone(), player: viewer.player, id, replaced: rx })
    }

    /// Streams held now, in all.
    pub fn count(&self) -> usize {
        self.held().players.values().map(VecDeque::len).sum()
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut held = self.streams.held();
        let Some(mine) = held.players.get_mut(&self.player) else { return };
        // Absent when a newer stream took its place (and its address was released then).
        let Some(at) = mine.iter().position(|s| s.id == self.id) else { return };
        let gone = mine.remove(at).and_then(|s| s.address);
        if mine.is_empty() {
            held.players.remove(&self.player);
        }
        if let Some(address) = gone {
            release(&mut held.addresses, address);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(per_player: usize, per_address: usize) -> Limits {
        Limits { per_player, per_address, max_age: Duration::from_secs(60) }
    }

    fn at(player: i64, address: &str) -> Viewer {
        Viewer { player, address: Some(address.parse().unwrap()) }
    }

    #[test]
    fn a_players_fourth_stream_ends_their_oldest_and_no_one_elses() {
        let streams = Arc::new(Streams::default());
        let l = limits(3, 32);
        let first = streams.take(at(1, "198.51.100.1"), l).unwrap();
        let second = streams.take(at(1, "198.51.100.2"), l).unwrap();
        let third = streams.take(at(1, "198.51.100.1"), l).unwrap();
        let other = streams.take(at(2, "198.51.100.1"), l).unwrap();

        let fourth = streams.take(at(1, "198.51.100.3"), l).unwrap();

        assert!(*first.replaced.borrow());
        assert!(![&second, &third, &fourth, &other].iter().any(|p| *p.replaced.borrow()));
        assert_eq!(streams.count(), 4);
        // The ended stream's place was handed back already: dropping it changes nothing.
        drop(first);
        assert_eq!(streams.count(), 4);
        drop((second, third, fourth, other));
        assert_eq!(streams.count(), 0);
        assert!(streams.held().addresses.is_empty() && streams.held().players.is_empty());
    }

    #[test]
    fn an_address_past_its_bound_is_refused_until_a_stream_of_it_ends() {
        let streams = Arc::new(Streams::default());
        let l = limits(1, 2);
        let a = streams.take(at(1, "198.51.100.1"), l).unwrap();
        let _b = streams.take(at(2, "198.51.100.1"), l).unwrap();

        assert!(matches!(streams.take(at(3, "198.51.100.1"), l), Err(DomainError::TooManyStreams)));
        assert!(!streams.held().players.contains_key(&3));
        // A player already there replaces their own stream: the address keeps its count.
        let a2 = streams.take(at(1, "198.51.100.1"), l).unwrap();
        assert!(*a.replaced.borrow());
        // Elsewhere, and once a place is free, it is given.
        assert!(streams.take(at(3, "198.51.100.9"), l).is_ok());
        drop(a2);
        assert!(streams.take(at(3, "198.51.100.1"), l).is_ok());
    }

    #[test]
    fn behind_a_full_address_a_player_replaces_their_own_stream_there_not_their_oldest() {
        let streams = Arc::new(Streams::default());
        let l = limits(3, 2);
        let elsewhere = streams.take(at(1, "198.51.100.9"), l).unwrap();
        let here = streams.take(at(1, "198.51.100.1"), l).unwrap();
        let _neighbour = streams.take(at(2, "198.51.100.1"), l).unwrap();

        let again = streams.take(at(1, "198.51.100.1"), l).unwrap();

        assert!(*here.replaced.borrow() && !*elsewhere.replaced.borrow() && !*again.replaced.borrow());
        assert_eq!(streams.held().addresses[&"198.51.100.1".parse::<IpAddr>().unwrap()], 2);
    }

    #[test]
    fn a_stream_without_an_address_is_bounded_per_player_only() {
        let streams = Arc::new(Streams::default());
        let l = limits(3, 1);
        let held: Vec<Place> = (0..5).map(|p| streams.take(Viewer { player: p, address: None }, l).unwrap()).collect();
        assert_eq!(held.len(), 5);
    }
}
