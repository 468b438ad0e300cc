//! The store: everything that differs between SQLite and PostgreSQL, and nothing else. The rest
//! of the domain is one SQL text for both (`$N` placeholders, `RETURNING`, `ON CONFLICT`,
//! integers for money, flags and times) and one rule for both.
//!
//! - `exec`: the interface every write runs on (`Exec`, `query(..)`), implemented by sqlx's
//!   connection and by the SQLite writer thread's connection.
//! - `writer`: SQLite's group-commit writer thread (PostgreSQL has none).
//! - `reader`: SQLite's reader threads, on which a hot read runs as one synchronous read
//!   transaction (`read` here); elsewhere a read runs on a pooled connection.
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
//! - `try_lease`: one holder at a time of a named job across replicas (PostgreSQL: a session
//!   advisory lock on a connection of its own; SQLite: one process, nothing to take);
//! - `backup`, and `transfer` (copying a shop's rows from an SQLite file to PostgreSQL; the
//!   audit of both sides is `domain::moving`'s).
//! - `plans` (tests only): SQLite's query plans of the hot reads.
//! - `notify`: how a live-feed drop reaches every process (in-process on SQLite, `LISTEN/NOTIFY`
//!   on PostgreSQL).
pub mod backup;
mod connect;
mod dialect;
pub mod exec;
mod lease;
pub mod notify;
#[cfg(test)]
mod plans;
pub mod reader;
mod shop;
pub mod transfer;
mod txn;
pub mod writer;

pub use connect::{is_unique_violation, migrate, migrate_through, migrations, open, open_sized, open_with, unavailable};
pub use dialect::{Conn, Db, Dialect, Pool};
pub use exec::{query, BoxFuture, Exec, Param, Query, Value};
pub use lease::{try_lease, Lease};
pub use reader::{ReadFn, Readers};
pub use shop::existing_shop;
pub use txn::{begin_write, begin_write_for, claim_suffix, lock_key, lock_users, locks_rows, write_turn, Tx};
pub use writer::{WriteFn, Writer};

use crate::domain::DomainResult;

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

/// Whether the store answers a statement on a pooled connection (the health checks).
pub async fn ping(pool: &Pool) -> DomainResult<()> {
    sqlx::query("SELECT 1").execute(pool).await?;
    Ok(())
}

/// Runs one read: `work` gets a connection and reads what it needs. Inside a process with
/// SQLite reader threads it runs on one of them, in one read transaction; otherwise on a pooled
/// connection. Either way it is the same code; `work` must wait on nothing but its connection.
pub async fn read<T, F>(pool: &Pool, readers: Option<&Readers>, work: F) -> DomainResult<T>
where
    T: Send + 'static,
    F: ReadFn<T>,
{
    if let Some(readers) = readers {
        return readers.run(work).await;
    }
    let mut conn = pool.acquire().await?;
    work(&mut conn).await
}
