//! The store: everything that differs between SQLite and PostgreSQL, and nothing else. The rest
//! of the domain is one SQL text for both (`$N` placeholders, `RETURNING`, `ON CONFLICT`,
//! integers for money, flags and times) and one rule for both.
//!
//! - `exec`: the interface every write runs on (`Exec`, `query(..)`), implemented by sqlx's
//!   connection and by the SQLite writer thread's connection.
//! - `writer`: SQLite's group-commit writer thread (PostgreSQL has none).
//! - `write` (here): the one way a write runs — on SQLite inside the server, on the writer
//!   thread; elsewhere (PostgreSQL, the CLI, an in-memory database) in a `begin_write`
//!   transaction on the pool. The caller writes the same `async fn` either way.
//! - opening: SQLite's per-connection PRAGMAs (WAL, `synchronous=NORMAL`, foreign keys, busy
//!   timeout); the pool reaches either engine through sqlx's `Any` driver, which decodes only
//!   the basic types (integers, floats, text, bytes, bool) — all the schema holds; aggregates
//!   over money are cast to `BIGINT` so PostgreSQL's `SUM` answers an integer;
//! - migrations: `data/migrations/*.sql` for SQLite, `data/migrations/postgres/*.sql` for
//!   PostgreSQL (same names, same order);
//! - `begin_write`: on SQLite, a turn in the process's one write queue (FIFO), then
//!   `BEGIN IMMEDIATE` (its one write lock, taken up front); a plain `BEGIN` on PostgreSQL, where
//!   the write then locks the rows it decides on (`lock_users`, `lock_key`, conditional updates,
//!   unique keys) and several writers run at once;
//! - `lock_users` / `lock_key`: no-ops on SQLite (the write lock already serialises writers);
//!   `SELECT … FOR NO KEY UPDATE` in ascending id order / a transaction-scoped advisory lock on
//!   PostgreSQL;
//! - `claim_suffix`: `FOR UPDATE SKIP LOCKED` on PostgreSQL so outbox senders on several replicas
//!   never pick the same row;
//! - `backup`, and `transfer` (moving a shop from an SQLite file to PostgreSQL).
//! - `notify`: how a live-feed drop reaches every process (in-process on SQLite, `LISTEN/NOTIFY`
//!   on PostgreSQL).
pub mod backup;
pub mod exec;
pub mod notify;
pub mod transfer;
pub mod writer;

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode};
use sqlx::{Any, ConnectOptions, Connection, Executor, Transaction};

/// The store the domain talks to. Every SQL text uses `$N` placeholders so it runs on either engine.
pub type Db = Any;
/// A pool of connections to the store.
pub type Pool = sqlx::Pool<Db>;
/// One connection (or a transaction, through `&mut *tx`).
pub type Conn = <Db as sqlx::Database>::Connection;

use crate::domain::DomainResult;
pub use exec::{query, BoxFuture, Exec, Param, Query, Value};
pub use writer::{WriteFn, Writer};

/// The engine behind a pool or connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// The engine a `DATABASE_URL` names.
    pub fn of_url(url: &str) -> Option<Dialect> {
        let scheme = url.split(':').next().unwrap_or("");
        match scheme {
            "sqlite" => Some(Dialect::Sqlite),
            "postgres" | "postgresql" => Some(Dialect::Postgres),
            _ => None,
        }
    }

    /// The engine behind a pool.
    pub fn of_pool(pool: &Pool) -> Dialect {
        Dialect::of_url(pool.connect_options().database_url.as_str()).unwrap_or(Dialect::Sqlite)
    }

    /// The engine behind a connection (a transaction derefs to one).
    pub fn of_conn(conn: &Conn) -> Dialect {
        if conn.backend_name().eq_ignore_ascii_case("postgresql") {
            Dialect::Postgres
        } else {
            Dialect::Sqlite
        }
    }
}

/// The schema for SQLite, in order. Each file runs once, inside one transaction.
const SQLITE_MIGRATIONS: &[(&str, &str)] = &[
    ("0001_init", include_str!("../../../../data/migrations/0001_init.sql")),
    ("0002_orphan_refunds", include_str!("../../../../data/migrations/0002_orphan_refunds.sql")),
    ("0003_admin_outbox", include_str!("../../../../data/migrations/0003_admin_outbox.sql")),
    ("0004_notification_message_id", include_str!("../../../../data/migrations/0004_notification_message_id.sql")),
    ("0005_money_integrity", include_str!("../../../../data/migrations/0005_money_integrity.sql")),
    ("0006_hardening", include_str!("../../../../data/migrations/0006_hardening.sql")),
    ("0007_bot_updates", include_str!("../../../../data/migrations/0007_bot_updates.sql")),
    ("0009_feed", include_str!("../../../../data/migrations/0009_feed.sql")),
];

/// The same schema for PostgreSQL: same names, same order, the engine's own DDL.
const POSTGRES_MIGRATIONS: &[(&str, &str)] = &[
    ("0001_init", include_str!("../../../../data/migrations/postgres/0001_init.sql")),
    ("0002_orphan_refunds", include_str!("../../../../data/migrations/postgres/0002_orphan_refunds.sql")),
    ("0003_admin_outbox", include_str!("../../../../data/migrations/postgres/0003_admin_outbox.sql")),
    ("0004_notification_message_id", include_str!("../../../../data/migrations/postgres/0004_notification_message_id.sql")),
    ("0005_money_integrity", include_str!("../../../../data/migrations/postgres/0005_money_integrity.sql")),
    ("0006_hardening", include_str!("../../../../data/migrations/postgres/0006_hardening.sql")),
    ("0007_bot_updates", include_str!("../../../../data/migrations/postgres/0007_bot_updates.sql")),
    ("0009_feed", include_str!("../../../../data/migrations/postgres/0009_feed.sql")),
];

/// The migrations of one engine (names and SQL), in the order they apply.
pub fn migrations(dialect: Dialect) -> &'static [(&'static str, &'static str)] {
    match dialect {
        Dialect::Sqlite => SQLITE_MIGRATIONS,
        Dialect::Postgres => POSTGRES_MIGRATIONS,
    }
}

pub async fn open(url: &str) -> Result<Pool, sqlx::Error> {
    open_with(url, Duration::from_secs(10)).await
}

/// `open` with how long a statement waits for another connection's write lock (SQLite's
/// `busy_timeout`; on PostgreSQL the `lock_timeout` of every connection).
pub async fn open_with(url: &str, busy_timeout: Duration) -> Result<Pool, sqlx::Error> {
    open_sized(url, busy_timeout, None).await
}

/// `open_with` and a pool size (default: 8 connections on SQLite, 16 on PostgreSQL).
pub async fn open_sized(url: &str, busy_timeout: Duration, max_connections: Option<u32>) -> Result<Pool, sqlx::Error> {
    sqlx::any::install_default_drivers();
    let dialect = Dialect::of_url(url)
        .ok_or_else(|| sqlx::Error::Configuration(format!("unsupported database URL scheme in {:?}", scheme_of(url)).into()))?;
    let busy_ms = busy_timeout.as_millis().min(i64::MAX as u128) as i64;
    match dialect {
        Dialect::Sqlite => {
            // Create the file and switch it to WAL (a property of the file) with the native driver;
            // the per-connection PRAGMAs run on every pooled connection below.
            let file = SqliteConnectOptions::from_str(url)?;
            if let Some(parent) = file.get_filename().parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent)
                    .map_err(|e| sqlx::Error::Configuration(format!("cannot create {}: {e}", parent.display()).into()))?;
            }
            let mut first = file.create_if_missing(true).journal_mode(SqliteJournalMode::Wal).connect().await?;
            first.execute("SELECT 1").await?;
            first.close().await?;
            let options = AnyConnectOptions::from_str(url)?;
            write_queue(options.database_url.as_str(), Some(busy_timeout));
            // `after_connect` wants a `'static` text; one small string per pool opened.
            let pragmas: &'static str = Box::leak(
                format!(
                    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; \
                     PRAGMA busy_timeout = {busy_ms}; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -8000;"
                )
                .into_boxed_str(),
            );
            AnyPoolOptions::new()
                .max_connections(max_connections.unwrap_or(8))
                .min_connections(1)
                .acquire_timeout(Duration::from_secs(15))
                .after_connect(move |conn, _| {
                    Box::pin(async move {
                        conn.execute(pragmas).await?;
                        Ok(())
                    })
                })
                .connect_with(options)
                .await
        }
        Dialect::Postgres => {
            let options = AnyConnectOptions::from_str(url)?;
            let settings: &'static str = Box::leak(format!("SET lock_timeout = {busy_ms}; SET TIME ZONE 'UTC';").into_boxed_str());
            AnyPoolOptions::new()
                .max_connections(max_connections.unwrap_or(16))
                .min_connections(1)
                .acquire_timeout(Duration::from_secs(15))
                .after_connect(move |conn, _| {
                    Box::pin(async move {
                        // A write waiting on a row lock gives up like SQLite's busy timeout does.
                        conn.execute(settings).await?;
                        Ok(())
                    })
                })
                .connect_with(options)
                .await
        }
    }
}

fn scheme_of(url: &str) -> &str {
    url.split(':').next().unwrap_or("")
}

/// Applies every migration not yet applied. On PostgreSQL, replicas starting at once take turns
/// behind a session advisory lock, so each file runs exactly once.
pub async fn migrate(pool: &Pool) -> Result<(), sqlx::Error> {
    let dialect = Dialect::of_pool(pool);
    let mut conn = pool.acquire().await?;
    match dialect {
        Dialect::Postgres => {
            sqlx::query("SELECT pg_advisory_lock($1)").bind(MIGRATION_LOCK).execute(&mut *conn).await?;
        }
        // SQLite's way to change a table (build a new one, copy, drop, rename) needs foreign keys
        // off on this connection (it cannot change inside a transaction); they are checked
        // before each migration commits and switched back on after.
        Dialect::Sqlite => {
            sqlx::query("PRAGMA foreign_keys = OFF").execute(&mut *conn).await?;
        }
    }
    let result = apply_migrations(&mut conn, dialect).await;
    match dialect {
        Dialect::Postgres => {
            sqlx::query("SELECT pg_advisory_unlock($1)").bind(MIGRATION_LOCK).execute(&mut *conn).await?;
        }
        Dialect::Sqlite => {
            sqlx::query("PRAGMA foreign_keys = ON").execute(&mut *conn).await?;
        }
    }
    result
}

/// Advisory lock key of the migration runner ("fragbox" in ASCII, shortened).
const MIGRATION_LOCK: i64 = 0x66_7261_6762_6f78;

async fn apply_migrations(conn: &mut Conn, dialect: Dialect) -> Result<(), sqlx::Error> {
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)")
        .execute(&mut *conn)
        .await?;
    let begin = match dialect {
        Dialect::Sqlite => "BEGIN IMMEDIATE",
        Dialect::Postgres => "BEGIN",
    };
    for (name, sql) in migrations(dialect) {
        let mut tx = conn.begin_with(begin).await?;
        let done: Option<(String,)> =
            sqlx::query_as("SELECT name FROM schema_migrations WHERE name = $1").bind(name).fetch_optional(&mut *tx).await?;
        if done.is_none() {
            sqlx::raw_sql(sql).execute(&mut *tx).await?;
            if dialect == Dialect::Sqlite {
                let broken: Vec<(String,)> = sqlx::query_as("SELECT \"table\" FROM pragma_foreign_key_check").fetch_all(&mut *tx).await?;
                if let Some((table,)) = broken.first() {
                    return Err(sqlx::Error::Protocol(format!("migration {name} leaves broken foreign keys in {table}")));
                }
            }
            sqlx::query("INSERT INTO schema_migrations(name, applied_at) VALUES ($1, $2)")
                .bind(name)
                .bind(chrono::Utc::now().timestamp())
                .execute(&mut *tx)
                .await?;
            tracing::info!(migration = name, "applied");
        }
        tx.commit().await?;
    }
    Ok(())
}

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

    fn run<'a>(&'a mut self, sql: &'a str, params: Vec<Param>) -> BoxFuture<'a, DomainResult<exec::Done>> {
        let conn: &'a mut Conn = self;
        conn.run(sql, params)
    }
}

/// Runs one write: `work` gets a connection inside a write transaction and the write commits
/// when it answers `Ok` (on an `Err`, nothing of it is written). Inside the server on SQLite
/// it runs on the writer thread, in a savepoint of a group commit; otherwise (PostgreSQL, a
/// process without a writer) in a `begin_write` transaction of the pool. Either way it is the
/// same code; `work` must wait on nothing but its connection (no Telegram call, no timer).
pub async fn write<T, F>(pool: &Pool, writer: Option<&Writer>, work: F) -> DomainResult<T>
where
    T: Send + 'static,
    F: WriteFn<T>,
{
    if let Some(writer) = writer {
        return writer.run(work).await;
    }
    let mut tx = begin_write(pool).await?;
    match work(&mut tx).await {
        Ok(v) => {
            tx.commit().await?;
            Ok(v)
        }
        Err(e) => {
            tx.rollback().await?;
            Err(e)
        }
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
fn write_queue(url: &str, busy: Option<Duration>) -> (Arc<tokio::sync::Mutex<()>>, Duration) {
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
fn advisory_key(key: &str) -> i64 {
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

/// True when the error is a UNIQUE constraint violation.
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => d.is_unique_violation(),
        _ => false,
    }
}

/// The store cannot take the request right now; retrying later is right. `busy`: SQLite busy past
/// its timeout, a PostgreSQL lock wait past `lock_timeout`, a serialization failure or deadlock, or
/// no pooled connection in time. `storage_full`: the disk is full.
pub fn unavailable(e: &sqlx::Error) -> Option<&'static str> {
    match e {
        sqlx::Error::PoolTimedOut => Some("busy"),
        sqlx::Error::Io(e) if e.kind() == std::io::ErrorKind::StorageFull => Some("storage_full"),
        sqlx::Error::Database(d) => {
            let code = d.code()?;
            match code.as_ref() {
                // PostgreSQL SQLSTATEs: serialization_failure, deadlock_detected, lock_not_available,
                // too_many_connections, disk_full, out_of_memory.
                "40001" | "40P01" | "55P03" | "53300" => Some("busy"),
                "53100" | "53200" => Some("storage_full"),
                // SQLite's extended result codes carry the primary code in their low byte.
                c => match c.parse::<i32>().ok().map(|c| c & 0xff) {
                    Some(5) | Some(6) => Some("busy"),
                    Some(13) => Some("storage_full"),
                    _ => None,
                },
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_their_engine() {
        assert_eq!(Dialect::of_url("sqlite://data/fragbox.db"), Some(Dialect::Sqlite));
        assert_eq!(Dialect::of_url("sqlite:fragbox.db"), Some(Dialect::Sqlite));
        assert_eq!(Dialect::of_url("postgres://u@h/db"), Some(Dialect::Postgres));
        assert_eq!(Dialect::of_url("postgresql://u@h/db"), Some(Dialect::Postgres));
        assert_eq!(Dialect::of_url("mysql://u@h/db"), None);
    }

    #[test]
    fn both_engines_have_the_same_migrations_in_the_same_order() {
        let a: Vec<&str> = migrations(Dialect::Sqlite).iter().map(|m| m.0).collect();
        let b: Vec<&str> = migrations(Dialect::Postgres).iter().map(|m| m.0).collect();
        assert_eq!(a, b);
    }

    #[test]
    fn lock_keys_are_stable_and_positive() {
        assert_eq!(advisory_key("catalog"), advisory_key("catalog"));
        assert_ne!(advisory_key("catalog"), advisory_key("ticket:1"));
        assert!(advisory_key("x") >= 0);
    }
}
