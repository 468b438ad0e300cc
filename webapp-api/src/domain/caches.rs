//! What the domain keeps in memory to shorten reads: sessions and the maintenance switch. Each
//! entry is trusted for seconds only, so several replicas never disagree for long.
use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, RwLock};

/// A cached session is trusted this long, then the database is asked again (another replica
/// may have ended it). It also bounds the cache: entries older than this are dropped.
pub const SESSION_CACHE_SECS: i64 = 3;

pub type TokenHash = [u8; 32];

#[derive(Clone, Copy, Debug)]
pub struct CachedSession {
    pub user_id: i64,
    pub expires_at: i64,
    pub cached_at: i64,
}

#[derive(Default)]
struct CacheInner {
    map: HashMap<TokenHash, CachedSession>,
    /// Insertion order, to drop stale entries from the front: amortized O(1) per insert.
    order: VecDeque<(i64, TokenHash)>,
}

/// Sessions by token hash, kept in memory so most requests never wait on the store to
/// authenticate. Lookup and insert are O(1) (a hash map; stale entries leave from the front of
/// a queue), and the cache holds only what was used in the last `SESSION_CACHE_SECS`.
#[derive(Default)]
pub struct SessionCache {
    inner: RwLock<CacheInner>,
}

impl SessionCache {
    pub fn get(&self, hash: &TokenHash, now: i64) -> Option<CachedSession> {
        let inner = self.inner.read().unwrap_or_else(|p| p.into_inner());
        inner.map.get(hash).copied().filter(|s| now - s.cached_at < SESSION_CACHE_SECS && now >= s.cached_at)
    }

    pub fn put(&self, hash: TokenHash, s: CachedSession) {
        let mut inner = self.inner.write().unwrap_or_else(|p| p.into_inner());
        let now = s.cached_at;
        while let Some(&(at, h)) = inner.order.front() {
            if now - at < SESSION_CACHE_SECS && now >= at {
                break;
            }
            inner.order.pop_front();
            if inner.map.get(&h).is_some_and(|c| c.cached_at == at) {
                inner.map.remove(&h);
            }
        }
        inner.map.insert(hash, s);
        inner.order.push_back((now, hash));
    }

    pub fn remove(&self, hash: &TokenHash) {
        self.inner.write().unwrap_or_else(|p| p.into_inner()).map.remove(hash);
    }

    /// Sessions held in memory (for tests and the benchmark's sanity checks).
    pub fn len(&self) -> usize {
        self.inner.read().unwrap_or_else(|p| p.into_inner()).map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How long a read of the maintenance switch is trusted before asking the store again.
pub const MAINTENANCE_CACHE_SECS: i64 = 2;

/// The maintenance switch as last read, and when.
#[derive(Default)]
pub struct MaintenanceCache(pub Mutex<Option<(bool, i64)>>);
