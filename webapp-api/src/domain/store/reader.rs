//! SQLite's readers: a few threads, each owning one connection, that run a request's reads
//! synchronously, all of them in one read transaction (one snapshot). The read is the same
//! `async fn` over `&mut dyn Exec` that runs on a pooled sqlx connection elsewhere
//! (`store::read`); here its connection answers every call at once (`exec::complete_now`), so a
//! request costs one hop to a reader thread and one back, instead of one round trip to sqlx's
//! worker thread per statement and per row.
//!
//! Why: under a mixed load on 2 cores, the profile and inventory reads waited twice as long as
//! the writes (p50 ~27 ms against ~13 ms): each of sqlx's 8 SQLite connections is a thread of its
//! own, and every statement and row crosses to it and back.
//!
//! The connections are `query_only`: a "read" that writes fails instead of racing the writer.
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use rusqlite::Connection;
use tokio::sync::oneshot;

use crate::domain::store::connect::READER_CACHE_KIB;
use crate::domain::store::dialect::{Dialect, Pool};
use crate::domain::store::exec::complete_now;
use crate::domain::store::txn;
use crate::domain::store::writer::{self, SqliteExec};
use crate::domain::{DomainError, DomainResult};

/// The most reader threads: more than the cores only add threads competing for them, but a read
/// waiting on the disk should not hold every other read up.
const MAX_READERS: usize = 4;

/// A read has a write's shape: given a connection (here inside a read transaction), the future
/// of its work.
pub use crate::domain::store::writer::WriteFn as ReadFn;

/// One request's read, run on a reader thread.
trait Work: Send {
    fn run(self: Box<Self>, conn: &mut Connection);
}

struct Pending<T, F> {
    work: F,
    reply: oneshot::Sender<DomainResult<T>>,
}

impl<T, F> Work for Pending<T, F>
where
    T: Send,
    F: ReadFn<T>,
{
    fn run(self: Box<Self>, conn: &mut Connection) {
        let Pending { work, reply } = *self;
        let answer = match conn.execute_batch("BEGIN") {
            Err(e) => Err(DomainError::from(e)),
            Ok(()) => {
                let result = catch_unwind(AssertUnwindSafe(|| {
                    let mut exec = SqliteExec::new(conn);
                    complete_now(work(&mut exec))
                        .unwrap_or_else(|| Err(DomainError::Internal("a read waited on something other than the store".into())))
                }))
                .unwrap_or_else(|_| Err(DomainError::Internal("a read panicked".into())));
                // A read transaction has nothing to keep: end it either way.
                if !conn.is_autocommit() {
                    let _ = conn.execute_batch("ROLLBACK");
                }
                result
            }
        };
        // The request may have gone (client closed): nothing to tell then.
        let _ = reply.send(answer);
    }
}

/// The handle requests use; the threads end when the last handle is dropped.
pub struct Readers {
    jobs: mpsc::Sender<Box<dyn Work>>,
    threads: usize,
    /// Reads handed to the threads.
    reads: AtomicU64,
}

impl Readers {
    /// Reader threads for `pool`'s database when it is an SQLite file; `None` for PostgreSQL and
    /// for an in-memory database (another connection would see another database), or when a
    /// connection cannot be opened (reads then all go through the pool).
    pub fn start(pool: &Pool) -> Option<Arc<Readers>> {
        if Dialect::of_pool(pool) != Dialect::Sqlite {
            return None;
        }
        let url = pool.connect_options().database_url.to_string();
        let (_, busy) = txn::sqlite_write_queue(&url);
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        let wanted = cores.clamp(2, MAX_READERS);
        let (jobs, inbox) = mpsc::channel::<Box<dyn Work>>();
        let inbox = Arc::new(Mutex::new(inbox));
        let mut threads = 0;
        for i in 0..wanted {
            let conn = match open(&url, busy) {
                Ok(Some(conn)) => conn,
                Ok(None) => return None,
                Err(e) => {
                    tracing::warn!(error = %e, "SQLite reader not started; reads go through the pool");
                    break;
                }
            };
            let inbox = inbox.clone();
            let spawned = std::thread::Builder::new().name(format!("sqlite-reader-{i}")).spawn(move || {
                let mut conn = conn;
                loop {
                    // The lock is held only while waiting for the next job, never while running it.
                    let job = match inbox.lock() {
                        Ok(inbox) => inbox.recv(),
                        Err(_) => return,
                    };
                    match job {
                        Ok(job) => job.run(&mut conn),
                        Err(_) => return,
                    }
                }
            });
            match spawned {
                Ok(_) => threads += 1,
                Err(e) => {
                    tracing::warn!(error = %e, "SQLite reader thread not started");
                    break;
                }
            }
        }
        (threads > 0).then(|| Arc::new(Readers { jobs, threads, reads: AtomicU64::new(0) }))
    }

    /// How many reader threads run.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// How many reads were handed to the threads.
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }

    /// Runs `work` on a reader thread inside one read transaction; answers its result.
    pub async fn run<T, F>(&self, work: F) -> DomainResult<T>
    where
        T: Send + 'static,
        F: ReadFn<T>,
    {
        let (reply, answer) = oneshot::channel();
        self.jobs.send(Box::new(Pending { work, reply })).map_err(|_| DomainError::Internal("the SQLite readers have stopped".into()))?;
        self.reads.fetch_add(1, Ordering::Relaxed);
        answer.await.map_err(|_| DomainError::Internal("an SQLite reader dropped a request".into()))?
    }
}

/// A reader's connection: the writer's (the pool's pragmas), no writes, and a small page cache
/// (`READER_CACHE_KIB`: it holds one request's pages, a profile or an inventory read from its
/// covering index); `None` for an in-memory database.
fn open(url: &str, busy: Duration) -> Result<Option<Connection>, String> {
    let Some(conn) = writer::connect(url, busy)? else { return Ok(None) };
    conn.execute_batch(&format!("PRAGMA query_only = ON; PRAGMA cache_size = -{READER_CACHE_KIB};")).map_err(|e| e.to_string())?;
    Ok(Some(conn))
}
