//! SQLite's writer: one thread that owns one connection and runs writes synchronously, several
//! requests' writes in one transaction (group commit). Each request's work runs inside its own
//! savepoint, so a refused request (insufficient tokens, …) undoes only its own statements, and
//! every request is answered only after the transaction holding its work has committed (or
//! failed as a whole): an answered write is on disk as far as SQLite's `synchronous = NORMAL` in
//! WAL puts it, exactly as a pooled `COMMIT` would.
//!
//! A request's work is the same `async fn` over `&mut dyn Exec` that runs on sqlx elsewhere
//! (`store::write`): here its connection answers every call at once, so the thread drives the
//! future to its end without a runtime (`exec::complete_now`). Work that waits on anything else
//! is refused as an internal error, never left half-done.
//!
//! The thread takes the process's write turn (`write_turn`'s FIFO queue) for each batch, so it
//! never races the sqlx writers of the same process for SQLite's lock; writers outside the
//! process (the CLI) are met by SQLite's busy timeout, as on the pool.
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, ErrorCode, OpenFlags};
use sqlx::sqlite::SqliteConnectOptions;
use tokio::sync::oneshot;

use crate::domain::store::connect::WRITER_CACHE_KIB;
use crate::domain::store::dialect::{Dialect, Pool};
use crate::domain::store::exec::{complete_now, BoxFuture, Done, Exec, Param, Value};
use crate::domain::store::txn;
use crate::domain::{DomainError, DomainResult};

/// The most requests one transaction carries: enough to amortise a commit, small enough that the
/// first request of a batch does not wait long behind the last.
pub const MAX_BATCH: usize = 64;

/// How often the checkpoint thread copies the WAL back into the database file. The writer's own
/// commits never checkpoint: a checkpoint copies pages and syncs the file (15–60 ms measured
/// under load), which would stall every request of the batch that happened to trigger it.
pub const CHECKPOINT_EVERY: Duration = Duration::from_millis(100);

/// The WAL length (in frames, one page each: 16 MiB at 4 KiB pages) past which the checkpoint
/// thread finishes a checkpoint between two of the writer's transactions. Passive checkpoints
/// alone never let the WAL start over under steady writes: the writer appends while they copy,
/// so the log is never wholly copied when a transaction begins, and it grew to 900 MB in ten
/// seconds of opens; the first write after a lull then truncated it to `journal_size_limit`,
/// which stalled every request for about a second.
pub const RESTART_FRAMES: i64 = 4096;

/// Before it takes the turn, the checkpoint thread runs up to this many more passive checkpoints
/// while more than `CATCH_UP_FRAMES` frames arrived during the last one and under half as many as
/// during the one before (it is catching up), and syncs the database file while more than
/// `UNSYNCED_FRAMES` frames were copied into it since its last sync. A writer faster than the
/// copy, a log already past `LONG_FRAMES` (48 MiB) when the catch-up would start, or past
/// `MAX_FRAMES` (64 MiB, the `journal_size_limit`) during it, takes the turn at once: the log
/// must not keep growing while the thread waits for a lull.
const CATCH_UP_PASSES: usize = 12;
const CATCH_UP_FRAMES: i64 = 256;
const UNSYNCED_FRAMES: i64 = 1024;
const LONG_FRAMES: i64 = 3 * RESTART_FRAMES;
const MAX_FRAMES: i64 = 4 * RESTART_FRAMES;

/// What the checkpoint thread does after a catch-up pass.
#[derive(Debug, PartialEq, Eq)]
enum CatchUp {
    /// Copy again: too much arrived during the last pass.
    Pass,
    /// Sync the database file, then copy what arrived meanwhile.
    Sync,
    /// Take the turn for the last checkpoint: it copies and syncs little.
    TakeTurn,
}

/// After a pass that found the log `frames` long: `new` frames arrived during it, `before` during
/// the pass before it (the log's length before the first, `i64::MAX` after a sync), and `unsynced` frames were copied into the
/// database file since it was last synced.
fn after_pass(frames: i64, new: i64, before: i64, unsynced: i64) -> CatchUp {
    if frames >= MAX_FRAMES {
        CatchUp::TakeTurn
    } else if new > CATCH_UP_FRAMES {
        if new < before / 2 {
            CatchUp::Pass
        } else {
            CatchUp::TakeTurn
        }
    } else if unsynced > UNSYNCED_FRAMES {
        CatchUp::Sync
    } else {
        CatchUp::TakeTurn
    }
}

/// A write: given a connection inside the write transaction, the future of its work.
pub trait WriteFn<T>: for<'a> FnOnce(&'a mut dyn Exec) -> BoxFuture<'a, DomainResult<T>> + Send + 'static {}
impl<T, F> WriteFn<T> for F where F: for<'a> FnOnce(&'a mut dyn Exec) -> BoxFuture<'a, DomainResult<T>> + Send + 'static {}

/// The writer thread's connection as an `Exec`: each call runs at once, synchronously.
pub struct SqliteExec<'c> {
    // `&mut`: a shared rusqlite connection cannot cross threads, an exclusive one can.
    conn: &'c mut Connection,
}

impl<'c> SqliteExec<'c> {
    pub fn new(conn: &'c mut Connection) -> Self {
        SqliteExec { conn }
    }
}

impl Exec for SqliteExec<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn run<'a>(&'a mut self, sql: &'a str, params: Vec<Param>) -> BoxFuture<'a, DomainResult<Done>> {
        let done = run_now(self.conn, sql, params).map_err(|e| error(&e));
        Box::pin(std::future::ready(done))
    }
}

/// One statement on a rusqlite connection (prepared once per connection and cached).
pub fn run_now(conn: &Connection, sql: &str, params: Vec<Param>) -> rusqlite::Result<Done> {
    let mut stmt = conn.prepare_cached(sql)?;
    for (i, p) in params.into_iter().enumerate() {
        // `$N` is a named parameter to SQLite: the same name twice is one parameter.
        let Some(idx) = stmt.parameter_index(&format!("${}", i + 1))? else { continue };
        match p {
            Param::Int(v) => stmt.raw_bind_parameter(idx, v)?,
            Param::Real(v) => stmt.raw_bind_parameter(idx, v)?,
            Param::Text(v) => stmt.raw_bind_parameter(idx, v)?,
        }
    }
    let columns = stmt.column_count();
    let readonly = stmt.readonly();
    let mut done = Done::default();
    let mut rows = stmt.raw_query();
    while let Some(row) = rows.next()? {
        let mut values = Vec::with_capacity(columns);
        for c in 0..columns {
            values.push(match row.get_ref(c)? {
                ValueRef::Null => Value::Null,
                ValueRef::Integer(i) => Value::Int(i),
                ValueRef::Real(r) => Value::Real(r),
                // Valid UTF-8 (what we store) takes the fast check; anything else is shown lossily.
                ValueRef::Text(t) => Value::Text(match std::str::from_utf8(t) {
                    Ok(s) => s.to_owned(),
                    Err(_) => String::from_utf8_lossy(t).into_owned(),
                }),
                ValueRef::Blob(b) => Value::Blob(b.to_vec()),
            });
        }
        done.rows.push(values);
    }
    drop(rows);
    done.affected = if readonly { 0 } else { conn.changes() };
    Ok(done)
}

/// One request's work, run on the writer thread.
trait Work: Send {
    /// Runs the work inside the batch's transaction; true when its writes are to be kept.
    fn run(&mut self, conn: &mut Connection) -> bool;
    /// Answers the request once the batch has ended: `Err` when the batch did not commit.
    fn finish(self: Box<Self>, outcome: Result<(), DomainError>);
    /// The store's "try again later" code of the work's own error, if it failed that way.
    fn unavailable(&self) -> Option<&'static str>;
}

struct Pending<T, F> {
    work: Option<F>,
    result: Option<DomainResult<T>>,
    reply: oneshot::Sender<DomainResult<T>>,
}

impl<T, F> Work for Pending<T, F>
where
    T: Send,
    F: WriteFn<T>,
{
    fn run(&mut self, conn: &mut Connection) -> bool {
        let Some(work) = self.work.take() else { return false };
        let mut exec = SqliteExec::new(conn);
        let result = complete_now(work(&mut exec))
            .unwrap_or_else(|| Err(DomainError::Internal("a write waited on something other than the store".into())));
        let keep = result.is_ok();
        self.result = Some(result);
        keep
    }

    fn unavailable(&self) -> Option<&'static str> {
        match &self.result {
            Some(Err(DomainError::Database(e))) => crate::domain::store::unavailable(e),
            _ => None,
        }
    }

    fn finish(self: Box<Self>, outcome: Result<(), DomainError>) {
        let answer = match (outcome, self.result) {
            (Err(e), _) => Err(e),
            (Ok(()), Some(result)) => result,
            (Ok(()), None) => Err(DomainError::Internal("the write stopped before it ended".into())),
        };
        // The request may have gone (client closed): nothing to tell then.
        let _ = self.reply.send(answer);
    }
}

/// The handle requests use; the thread ends when the last handle is dropped.
pub struct Writer {
    jobs: mpsc::Sender<Box<dyn Work>>,
    stats: Arc<Stats>,
    /// Dropped with the writer: the checkpoint thread then ends.
    _checkpoints: Option<mpsc::Sender<()>>,
}

/// Counters of the writer's work (`/metrics`).
#[derive(Default, Debug)]
pub struct Stats {
    /// Requests handed to the writer.
    pub requests: AtomicU64,
    /// Transactions the writer ran (each carrying one or more requests), committed or not.
    pub batches: AtomicU64,
    /// Requests whose batch committed.
    pub committed: AtomicU64,
    /// Times the checkpoint thread held the write turn so the log could start over.
    pub checkpoint_turns: AtomicU64,
    /// How long it held the turn in all (microseconds): the writes waited that long.
    pub checkpoint_turn_micros: AtomicU64,
}

/// A snapshot of `Stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsSnapshot {
    pub requests: u64,
    pub batches: u64,
    pub committed: u64,
    pub checkpoint_turns: u64,
    pub checkpoint_turn_micros: u64,
}

impl Writer {
    /// The writer of `pool`'s database when it is an SQLite file; `None` for PostgreSQL and for
    /// an in-memory database (another connection would see another database), or when the
    /// connection cannot be opened (writes then all go through the pool, as before).
    pub fn start(pool: &Pool) -> Option<Arc<Writer>> {
        if Dialect::of_pool(pool) != Dialect::Sqlite {
            return None;
        }
        let url = pool.connect_options().database_url.to_string();
        let (turn, busy) = txn::sqlite_write_queue(&url);
        let mut conn = match connect(&url, busy) {
            Ok(Some(conn)) => conn,
            Ok(None) => return None,
            Err(e) => {
                tracing::warn!(error = %e, "SQLite writer not started; writes go through the pool");
                return None;
            }
        };
        let stats = Arc::new(Stats::default());
        let checkpoints = start_checkpoints(&url, busy, turn.clone(), stats.clone());
        if checkpoints.is_some() {
            if let Err(e) = conn.execute_batch("PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = 67108864;") {
                tracing::warn!(error = %e, "SQLite writer keeps automatic checkpoints");
            }
        }
        let (jobs, inbox) = mpsc::channel::<Box<dyn Work>>();
        let counters = stats.clone();
        let spawned = std::thread::Builder::new().name("sqlite-writer".into()).spawn(move || {
            while let Ok(first) = inbox.recv() {
                let mut batch = vec![first];
                // In the process's FIFO write queue like every other writer; requests that
                // arrived meanwhile join the batch.
                let _turn = turn.blocking_lock();
                while batch.len() < MAX_BATCH {
                    match inbox.try_recv() {
                        Ok(job) => batch.push(job),
                        Err(_) => break,
                    }
                }
                let n = batch.len() as u64;
                counters.batches.fetch_add(1, Ordering::Relaxed);
                if run_batch(&mut conn, batch) {
                    counters.committed.fetch_add(n, Ordering::Relaxed);
                }
            }
        });
        match spawned {
            Ok(_) => Some(Arc::new(Writer { jobs, stats, _checkpoints: checkpoints })),
            Err(e) => {
                tracing::warn!(error = %e, "SQLite writer thread not started; writes go through the pool");
                None
            }
        }
    }

    /// Runs `work` on the writer thread inside a write transaction shared with other requests;
    /// answers its result once that transaction has committed. An `Err` from `work` undoes its
    /// own statements only.
    pub async fn run<T, F>(&self, work: F) -> DomainResult<T>
    where
        T: Send + 'static,
        F: WriteFn<T>,
    {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Box::new(Pending { work: Some(work), result: None, reply }))
            .map_err(|_| DomainError::Internal("the SQLite writer has stopped".into()))?;
        // Counted once queued: a request counted here is in the writer's inbox or batch.
        self.stats.requests.fetch_add(1, Ordering::Relaxed);
        answer.await.map_err(|_| DomainError::Internal("the SQLite writer dropped a request".into()))?
    }
}

impl Writer {
    pub fn stats(&self) -> StatsSnapshot {
        StatsSnapshot {
            requests: self.stats.requests.load(Ordering::Relaxed),
            batches: self.stats.batches.load(Ordering::Relaxed),
            committed: self.stats.committed.load(Ordering::Relaxed),
            checkpoint_turns: self.stats.checkpoint_turns.load(Ordering::Relaxed),
            checkpoint_turn_micros: self.stats.checkpoint_turn_micros.load(Ordering::Relaxed),
        }
    }
}

/// The writer's own connection, with the pool's pragmas; `None` for an in-memory database.
pub(super) fn connect(url: &str, busy: Duration) -> Result<Option<Connection>, String> {
    let options = SqliteConnectOptions::from_str(url).map_err(|e| e.to_string())?;
    let path = options.get_filename();
    if path.as_os_str() == ":memory:" || url.contains("mode=memory") {
        return Ok(None);
    }
    connect_file(path, busy).map(Some).map_err(|e| e.to_string())
}

/// A synchronous connection to an SQLite file with the pool's pragmas: the writer's, the
/// checkpoint thread's, and the benchmark's raw bound's.
pub fn connect_file(path: &std::path::Path, busy: Duration) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)?;
    conn.execute_batch(&format!(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; \
         PRAGMA busy_timeout = {}; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -{WRITER_CACHE_KIB};",
        busy.as_millis().min(i64::MAX as u128)
    ))?;
    conn.set_prepared_statement_cache_capacity(64);
    Ok(conn)
}

/// The checkpoint thread: its own connection runs a passive checkpoint every `CHECKPOINT_EVERY`
/// (it never blocks the writer or readers; frames a reader still needs wait for the next one),
/// so the writer's connection can turn automatic checkpoints off. When the log has grown past
/// `RESTART_FRAMES`, the thread takes the process's write turn and checkpoints once more: with
/// no writer appending, that copies the little written since the passive one, and the next
/// transaction starts the log over from its beginning, so the file stays bounded. The turn is
/// held only for that remainder: before it, passive passes catch up with the writer and the
/// database file is synced (`after_pass`), so the last checkpoint copies and syncs a few hundred
/// pages, not the thousands copied since the last restart (a 15–40 ms stall of every request
/// before, 7–12 ms after, measured at ~2 800 opens/s). Ends when the returned sender is dropped.
/// `None` (and the writer keeps SQLite's automatic checkpoints) if it cannot start.
fn start_checkpoints(url: &str, busy: Duration, turn: Arc<tokio::sync::Mutex<()>>, stats: Arc<Stats>) -> Option<mpsc::Sender<()>> {
    let conn = match connect(url, busy) {
        Ok(Some(conn)) => conn,
        Ok(None) => return None,
        Err(e) => {
            tracing::warn!(error = %e, "SQLite checkpoint thread not started; commits checkpoint as they go");
            return None;
        }
    };
    let (stop, stopped) = mpsc::channel::<()>();
    let spawned = std::thread::Builder::new().name("sqlite-checkpoint".into()).spawn(move || {
        while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(CHECKPOINT_EVERY) {
            match checkpoint(&conn) {
                Ok((frames, copied)) if frames >= RESTART_FRAMES => {
                    // Catch up without the turn first (each pass copies what arrived during the
                    // last), so the turn is held for a few frames' copy and sync only.
                    let (mut copied_to, mut unsynced, mut before) = (copied, copied, frames);
                    let passes = if frames < LONG_FRAMES { CATCH_UP_PASSES } else { 0 };
                    for _ in 0..passes {
                        let Ok((frames, copied)) = checkpoint(&conn) else { break };
                        let new = frames - copied_to;
                        copied_to = copied;
                        unsynced += new;
                        match after_pass(frames, new, before, unsynced) {
                            CatchUp::Pass => before = new,
                            CatchUp::Sync if sync_database(&conn) => (unsynced, before) = (0, i64::MAX),
                            CatchUp::Sync | CatchUp::TakeTurn => break,
                        }
                    }
                    let _turn = turn.blocking_lock();
                    let held = std::time::Instant::now();
                    if let Err(e) = checkpoint(&conn) {
                        tracing::warn!(error = %e, "SQLite checkpoint failed; retrying");
                    }
                    stats.checkpoint_turns.fetch_add(1, Ordering::Relaxed);
                    let micros = u64::try_from(held.elapsed().as_micros()).unwrap_or(u64::MAX);
                    stats.checkpoint_turn_micros.fetch_add(micros, Ordering::Relaxed);
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "SQLite checkpoint failed; retrying"),
            }
        }
    });
    match spawned {
        Ok(_) => Some(stop),
        Err(e) => {
            tracing::warn!(error = %e, "SQLite checkpoint thread not started; commits checkpoint as they go");
            None
        }
    }
}

/// Flushes the database file's pages to disk, outside the write turn. Passive checkpoints that
/// race the writer copy pages into the file but never sync it (SQLite syncs the file only when a
/// checkpoint reaches the end of the log), so the one that does, under the turn, would otherwise
/// flush everything copied since the last restart. False if the file could not be synced (the
/// last checkpoint then does it, as before).
fn sync_database(conn: &Connection) -> bool {
    let Some(path) = conn.path().filter(|p| !p.is_empty()) else { return false };
    match std::fs::OpenOptions::new().read(true).write(true).open(path).and_then(|f| f.sync_data()) {
        Ok(()) => true,
        Err(e) => {
            tracing::warn!(error = %e, "SQLite database file not synced before the checkpoint");
            false
        }
    }
}

/// One passive checkpoint: the length of the log it found and how much of it is now copied, in
/// frames.
fn checkpoint(conn: &Connection) -> rusqlite::Result<(i64, i64)> {
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| Ok((row.get::<_, i64>(1)?, row.get::<_, i64>(2)?)))
}

/// One transaction for the batch, a savepoint per request, one commit, then every answer. True
/// when the batch committed.
fn run_batch(conn: &mut Connection, mut batch: Vec<Box<dyn Work>>) -> bool {
    if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
        fail_all(batch, &e);
        return false;
    }
    for job in batch.iter_mut() {
        if let Err(e) = conn.execute_batch("SAVEPOINT request") {
            abort(conn, batch, &e);
            return false;
        }
        let keep = catch_unwind(AssertUnwindSafe(|| job.run(conn))).unwrap_or(false);
        // Some errors (a full disk, I/O) make SQLite roll the whole transaction back: the
        // requests already run in this batch lost their writes too, so none may be told it was
        // done.
        if conn.is_autocommit() {
            // Answered as what made SQLite give up (a full disk, busy), so clients retry later.
            let code = match job.unavailable() {
                Some("storage_full") => rusqlite::ffi::SQLITE_FULL,
                Some("busy") => rusqlite::ffi::SQLITE_BUSY,
                _ => rusqlite::ffi::SQLITE_ABORT,
            };
            fail_all(batch, &rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None));
            return false;
        }
        let end = if keep { "RELEASE request" } else { "ROLLBACK TO request; RELEASE request" };
        if let Err(e) = conn.execute_batch(end) {
            abort(conn, batch, &e);
            return false;
        }
    }
    if let Err(e) = conn.execute_batch("COMMIT") {
        abort(conn, batch, &e);
        return false;
    }
    for job in batch {
        job.finish(Ok(()));
    }
    true
}

fn abort(conn: &Connection, batch: Vec<Box<dyn Work>>, e: &rusqlite::Error) {
    if !conn.is_autocommit() {
        let _ = conn.execute_batch("ROLLBACK");
    }
    fail_all(batch, e)
}

fn fail_all(batch: Vec<Box<dyn Work>>, e: &rusqlite::Error) {
    tracing::warn!(error = %e, requests = batch.len(), "SQLite writer batch failed; nothing of it was written");
    for job in batch {
        job.finish(Err(error(e)));
    }
}

/// A SQLite error as the domain reports it: busy and a full disk are "try again later" (503),
/// as they are on the pool; anything else is internal.
pub fn error(e: &rusqlite::Error) -> DomainError {
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy) | Some(ErrorCode::DatabaseLocked) => DomainError::Database(sqlx::Error::PoolTimedOut),
        Some(ErrorCode::DiskFull) => DomainError::Database(sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::StorageFull))),
        _ => DomainError::Internal(format!("sqlite: {e}")),
    }
}

impl From<rusqlite::Error> for DomainError {
    fn from(e: rusqlite::Error) -> Self {
        error(&e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checkpoint_takes_the_turn_only_once_little_is_left_to_copy_or_sync() {
        let frames = LONG_FRAMES;
        // The writer appended much during the last pass, less than during the one before:
        // copy again, without the turn.
        assert_eq!(after_pass(frames, CATCH_UP_FRAMES + 1, i64::MAX, 0), CatchUp::Pass);
        assert_eq!(after_pass(frames, 1_000, 2_500, 20_000), CatchUp::Pass);
        // Caught up, but thousands of copied pages are not on disk yet: the last checkpoint
        // would sync them all under the turn, so sync them first.
        assert_eq!(after_pass(frames, CATCH_UP_FRAMES, 1_000, UNSYNCED_FRAMES + 1), CatchUp::Sync);
        assert_eq!(after_pass(frames, 10, 300, 9_000), CatchUp::Sync);
        // Caught up and synced: the turn is held for a few hundred frames' copy and sync.
        assert_eq!(after_pass(frames, CATCH_UP_FRAMES, 1_000, UNSYNCED_FRAMES), CatchUp::TakeTurn);
        assert_eq!(after_pass(frames, 0, 0, 0), CatchUp::TakeTurn);
    }

    #[test]
    fn a_writer_faster_than_the_copy_or_a_long_log_takes_the_turn_at_once() {
        // Not even half as much arrived during this pass as during the last: waiting only lets
        // the log grow.
        assert_eq!(after_pass(RESTART_FRAMES * 2, 2_000, 1_500, 9_000), CatchUp::TakeTurn);
        assert_eq!(after_pass(RESTART_FRAMES * 2, 2_000, 3_999, 0), CatchUp::TakeTurn);
        // The log is near the size SQLite would truncate it from.
        assert_eq!(after_pass(MAX_FRAMES, 2_000, i64::MAX, 9_000), CatchUp::TakeTurn);
        assert_eq!(after_pass(MAX_FRAMES, 0, i64::MAX, 9_000), CatchUp::TakeTurn);
    }
}
