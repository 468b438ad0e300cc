//! Opening the SQLite file and applying the schema.
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, Transaction};

/// The store the domain talks to. Every SQL text uses `$N` placeholders so it runs on either engine.
pub type Db = Sqlite;
/// A pool of connections to the store.
pub type Pool = sqlx::Pool<Db>;
/// One connection (or a transaction, through `&mut *tx`).
pub type Conn = <Db as sqlx::Database>::Connection;
/// A write transaction opened by `begin_write`.
pub type Tx = Transaction<'static, Db>;

use crate::domain::DomainResult;

/// The schema, in order. Each file runs once, inside one transaction.
const MIGRATIONS: &[(&str, &str)] = &[
    ("0001_init", include_str!("../../../data/migrations/0001_init.sql")),
    ("0002_orphan_refunds", include_str!("../../../data/migrations/0002_orphan_refunds.sql")),
    ("0003_admin_outbox", include_str!("../../../data/migrations/0003_admin_outbox.sql")),
    ("0004_notification_message_id", include_str!("../../../data/migrations/0004_notification_message_id.sql")),
    ("0007_bot_updates", include_str!("../../../data/migrations/0007_bot_updates.sql")),
];

pub async fn open(url: &str) -> Result<Pool, sqlx::Error> {
    open_with(url, Duration::from_secs(10)).await
}

/// `open` with how long a statement waits for another connection's write lock (`busy_timeout`).
pub async fn open_with(url: &str, busy_timeout: Duration) -> Result<Pool, sqlx::Error> {
    let options = SqliteConnectOptions::from_str(url)?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(busy_timeout)
        .pragma("temp_store", "memory")
        .pragma("cache_size", "-8000");
    SqlitePoolOptions::new().max_connections(8).min_connections(1).acquire_timeout(Duration::from_secs(15)).connect_with(options).await
}

pub async fn migrate(pool: &Pool) -> Result<(), sqlx::Error> {
    sqlx::query("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)").execute(pool).await?;
    for (name, sql) in MIGRATIONS {
        let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
        let done: Option<(String,)> =
            sqlx::query_as("SELECT name FROM schema_migrations WHERE name = $1").bind(name).fetch_optional(&mut *tx).await?;
        if done.is_none() {
            sqlx::raw_sql(sql).execute(&mut *tx).await?;
            sqlx::query("INSERT INTO schema_migrations(name, applied_at) VALUES ($1, strftime('%s','now'))")
                .bind(name)
                .execute(&mut *tx)
                .await?;
            tracing::info!(migration = name, "applied");
        }
        tx.commit().await?;
    }
    Ok(())
}

/// Every write goes through this: `BEGIN IMMEDIATE` takes the write lock up front, so the
/// busy timeout applies and a read-then-write never fails on a lock upgrade.
pub async fn begin_write(pool: &Pool) -> DomainResult<Tx> {
    Ok(pool.begin_with("BEGIN IMMEDIATE").await?)
}

/// True when the error is a UNIQUE constraint violation.
pub fn is_unique_violation(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => d.is_unique_violation(),
        _ => false,
    }
}
