//! Write transactions on the pool: SQLite's in-process write queue and `BEGIN IMMEDIATE`,
//! PostgreSQL's row and advisory locks, and the outbox claim's `SKIP LOCKED`.
use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use sqlx::Transaction;

use crate::domain::store::dialect::{Conn, Db, Dialect, Pool};
use crate::domain::store::exec::{query, BoxFuture, Done, Exec, Param};
use crate::domain::DomainResult;

/// A write transaction opened by `begin_write`. It derefs to the connection (`&mut *tx`), and
/// ends with `commit` or `rollback`; dropped unfinished, it rolls back. On SQLite it also holds
/// the process's write turn until it ends (see `begin_write`).
pub struct Tx {
    tx: Option<Transaction<'static, Db>>,
    turn: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl Tx {
    pub async fn commit(mut self) -> Result<(), sqlx::Error> {
        let tx = self.tx.take().expect("a transaction ends once");
        tx.commit().await
        // `self` drops here: the next writer's turn starts after the commit.
    }

    pub async fn rollback(mut self) -> Result<(), sqlx::Error> {
        let tx = self.tx.take().expect("a transaction ends once");
        tx.rollback().await
    }
}

impl Deref for Tx {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        self.tx.as_ref().expect("a live transaction")
    }
}

impl DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut Conn {
        self.tx.as_mut().expect("a live transaction")
    }
}

impl Drop for Tx {
    /// Unfinished (an error, an early answer, a cancelled request): sqlx only queues the rollback
    /// on the connection, so the turn passes on once the rollback has run; otherwise the next
    /// writer's `BEGIN IMMEDIATE` would find the lock still held and sleep in the busy handler.
    fn drop(&mut self) {
        let (Some(tx), Some(turn)) = (self.tx.take(), self.turn.take()) else { return };
        match tokio::runtime::Handle::try_current() {
            Ok(rt) => {
                rt.spawn(async move {
                    let _ = tx.rollback().await;
                    drop(turn);
                });
            }
            Err(_) => drop((tx, turn)),
        }
    }
}

impl Exec for Tx {
    fn dialect(&self) -> Dialect {
        Dialect::of_conn(self)
    }

    fn run<'a>(&'a mut self, sql: &'a str, params: Vec<Param>) -> BoxFuture<'a, DomainResult<Done>> {
        let conn: &'a mut Conn = self;
        conn.run(sql, params)
    }
}

/// SQLite's write queue of one database: writers of this process take turns in arrival order
/// (tokio's mutex is fair: FIFO), and only the holder of the turn runs `BEGIN IMMEDIATE`, so no
/// writer of the process sleeps in SQLite's busy handler (whose back-off sleeps 1, 2, 5, 10 …
/// 100 ms and lets a later writer overtake), and a waiting writer holds no pooled connection.
/// The busy timeout bounds the wait for a turn as it bounds a wait for a writer outside the
/// process (the CLI), which SQLite's busy handler still serves. Keyed by the pool's URL: two
/// pools on one file in one process share the queue.
struct WriteQueue {
    turn: Arc<tokio::sync::Mutex<()>>,
    wait: Duration,
}

/// The queue of the database a URL names; `busy` (given by `open_sized`) sets how long a writer
/// waits for its turn before it is refused as busy.
pub(super) fn write_queue(url: &str, busy: Option<Duration>) -> (Arc<tokio::sync::Mutex<()>>, Duration) {
    static QUEUES: OnceLock<Mutex<HashMap<String, WriteQueue>>> = OnceLock::new();
    let mut queues = QUEUES.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner());
    let q = queues
        .entry(url.to_owned())
        .or_insert_with(|| WriteQueue { turn: Arc::new(tokio::sync::Mutex::new(())), wait: Duration::from_secs(10) });
    if let Some(wait) = busy {
        q.wait = wait;
    }
    (q.turn.clone(), q.wait)
}

/// The write queue of an SQLite database by its URL, and how long a writer waits for its turn
/// (the pool's busy timeout): for the writer thread (`store::writer`), which takes the same turns.
pub(crate) fn sqlite_write_queue(url: &str) -> (Arc<tokio::sync::Mutex<()>>, Duration) {
    write_queue(url, None)
}

/// Every write goes through this. SQLite: the writer waits for its turn in the process's write
/// queue, then `BEGIN IMMEDIATE` takes the write lock up front (a read-then-write never fails on
/// a lock upgrade; the busy timeout applies only to writers outside the process). PostgreSQL:
/// `BEGIN` (read committed), no queue; a write that reads before it decides locks those rows
/// first (`lock_users`, `lock_key`) or decides in one conditional statement.
pub async fn begin_write(pool: &Pool) -> DomainResult<Tx> {
    Ok(match Dialect::of_pool(pool) {
        Dialect::Sqlite => {
            let turn = write_turn(pool).await?;
            Tx { tx: Some(pool.begin_with("BEGIN IMMEDIATE").await?), turn }
        }
        Dialect::Postgres => Tx { tx: Some(pool.begin_with("BEGIN").await?), turn: None },
    })
}

/// The write turn for a single statement outside a transaction (an insert-or-ignore, a prune):
/// on SQLite it waits in the write queue like `begin_write` and holds the turn until dropped;
/// on PostgreSQL there is no queue (`None`).
pub async fn write_turn(pool: &Pool) -> DomainResult<Option<tokio::sync::OwnedMutexGuard<()>>> {
    if Dialect::of_pool(pool) == Dialect::Postgres {
        return Ok(None);
    }
    let (queue, wait) = write_queue(pool.connect_options().database_url.as_str(), None);
    Ok(Some(tokio::time::timeout(wait, queue.lock_owned()).await.map_err(|_| sqlx::Error::PoolTimedOut)?))
}

/// `begin_write`, then the given users' rows locked (see `lock_users`).
pub async fn begin_write_for(pool: &Pool, user_ids: &[i64]) -> DomainResult<Tx> {
    let mut tx = begin_write(pool).await?;
    lock_users(&mut tx, user_ids).await?;
    Ok(tx)
}

/// Locks the users' rows until the transaction ends, in ascending id order so that two writes
/// touching the same players (a player and their inviter) never wait on each other in a circle.
/// A write that decides on a player's state (balance, seed, claims, first open, items) holds that
/// player's lock first, so two replicas serialise per player exactly as SQLite's one writer does.
/// `FOR NO KEY UPDATE` (the lock an `UPDATE` of a non-key column takes) rather than `FOR UPDATE`:
/// other transactions inserting rows that merely reference the player (a notification, a sale)
/// are not held up by it.
/// SQLite: nothing to do, `BEGIN IMMEDIATE` already excludes every other writer.
pub async fn lock_users(tx: &mut dyn Exec, user_ids: &[i64]) -> DomainResult<()> {
    if !locks_rows(tx) {
        return Ok(());
    }
    let mut ids = user_ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        query("SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE").bind(id).execute(tx).await?;
    }
    Ok(())
}

/// True when writers lock what they decide on row by row (PostgreSQL), false when one write
/// lock already excludes every other writer (SQLite): a write whose set of rows to lock costs a
/// read to find asks first.
pub fn locks_rows(tx: &dyn Exec) -> bool {
    tx.dialect() == Dialect::Postgres
}

/// A named lock held until the transaction ends, for writes that decide on something other than
/// a player's row (the catalog upsert, a support ticket's state). SQLite: nothing to do.
pub async fn lock_key(tx: &mut dyn Exec, key: &str) -> DomainResult<()> {
    if !locks_rows(tx) {
        return Ok(());
    }
    query("SELECT 1 FROM (SELECT pg_advisory_xact_lock($1)) AS l").bind(advisory_key(key)).execute(tx).await?;
    Ok(())
}

/// A stable 63-bit key for a lock name (FNV-1a).
pub(super) fn advisory_key(key: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h >> 1) as i64
}

/// What to append to a `SELECT` that picks outbox rows to send: on PostgreSQL the rows stay
/// locked until the claim commits and other replicas skip them instead of waiting.
pub fn claim_suffix(tx: &dyn Exec) -> &'static str {
    match tx.dialect() {
        Dialect::Sqlite => "",
        Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lock_keys_are_stable_and_positive() {
        assert_eq!(advisory_key("catalog"), advisory_key("catalog"));
        assert_ne!(advisory_key("catalog"), advisory_key("ticket:1"));
        assert!(advisory_key("x") >= 0);
    }
}
