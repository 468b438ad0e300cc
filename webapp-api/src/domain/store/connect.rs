//! Opening the store (an SQLite file or a PostgreSQL database), applying its schema, and what
//! each engine's errors mean.
use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode};
use sqlx::{ConnectOptions, Connection, Executor};

use crate::domain::store::dialect::{Conn, Dialect, Pool};
use crate::domain::store::txn::write_queue;

/// SQLite's page cache per connection, in KiB. A WAL connection's cache is emptied at the start
/// of any transaction after another connection has committed, so under the writer's steady
/// commits only the writer's cache lasts (its own commits keep it). Readers and pooled
/// connections hold one transaction's pages; larger caches there only held memory (peak RSS
/// 60–63 MB of the 64 MB budget, docs/performance.md).
pub(super) const WRITER_CACHE_KIB: u32 = 8000;
pub(super) const POOL_CACHE_KIB: u32 = 2048;
pub(super) const READER_CACHE_KIB: u32 = 1024;

/// The schema for SQLite, in order. Each file runs once, inside one transaction.
const SQLITE_MIGRATIONS: &[(&str, &str)] = &[
    ("0001_init", include_str!("../../../../data/migrations/0001_init.sql")),
    ("0002_orphan_refunds", include_str!("../../../../data/migrations/0002_orphan_refunds.sql")),
    ("0003_admin_outbox", include_str!("../../../../data/migrations/0003_admin_outbox.sql")),
    ("0004_notification_message_id", include_str!("../../../../data/migrations/0004_notification_message_id.sql")),
    ("0005_money_integrity", include_str!("../../../../data/migrations/0005_money_integrity.sql")),
    ("0006_hardening", include_str!("../../../../data/migrations/0006_hardening.sql")),
    ("0007_bot_updates", include_str!("../../../../data/migrations/0007_bot_updates.sql")),
    ("0008_item_instances", include_str!("../../../../data/migrations/0008_item_instances.sql")),
    ("0009_feed", include_str!("../../../../data/migrations/0009_feed.sql")),
    ("0010_paid_value", include_str!("../../../../data/migrations/0010_paid_value.sql")),
    ("0011_admin_notices", include_str!("../../../../data/migrations/0011_admin_notices.sql")),
    ("0012_market_delivery", include_str!("../../../../data/migrations/0012_market_delivery.sql")),
    ("0013_promo_responsible", include_str!("../../../../data/migrations/0013_promo_responsible.sql")),
    ("0014_open_batches", include_str!("../../../../data/migrations/0014_open_batches.sql")),
    ("0015_inventory_live", include_str!("../../../../data/migrations/0015_inventory_live.sql")),
    ("0016_delivery_exact", include_str!("../../../../data/migrations/0016_delivery_exact.sql")),
    ("0017_prices", include_str!("../../../../data/migrations/0017_prices.sql")),
    ("0018_outbox", include_str!("../../../../data/migrations/0018_outbox.sql")),
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
    ("0008_item_instances", include_str!("../../../../data/migrations/postgres/0008_item_instances.sql")),
    ("0009_feed", include_str!("../../../../data/migrations/postgres/0009_feed.sql")),
    ("0010_paid_value", include_str!("../../../../data/migrations/postgres/0010_paid_value.sql")),
    ("0011_admin_notices", include_str!("../../../../data/migrations/postgres/0011_admin_notices.sql")),
    ("0012_market_delivery", include_str!("../../../../data/migrations/postgres/0012_market_delivery.sql")),
    ("0013_promo_responsible", include_str!("../../../../data/migrations/postgres/0013_promo_responsible.sql")),
    ("0014_open_batches", include_str!("../../../../data/migrations/postgres/0014_open_batches.sql")),
    ("0015_inventory_live", include_str!("../../../../data/migrations/postgres/0015_inventory_live.sql")),
    ("0016_delivery_exact", include_str!("../../../../data/migrations/postgres/0016_delivery_exact.sql")),
    ("0017_prices", include_str!("../../../../data/migrations/postgres/0017_prices.sql")),
    ("0018_outbox", include_str!("../../../../data/migrations/postgres/0018_outbox.sql")),
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
                     PRAGMA busy_timeout = {busy_ms}; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -{POOL_CACHE_KIB};"
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
    migrate_through(pool, None).await
}

/// `migrate`, stopping after the migration named `last` (`None`: all of them): the schema as an
/// older release left it, for a test of what a later migration does to the rows it finds.
pub async fn migrate_through(pool: &Pool, last: Option<&str>) -> Result<(), sqlx::Error> {
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
    let result = apply_migrations(&mut conn, dialect, last).await;
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

async fn apply_migrations(conn: &mut Conn, dialect: Dialect, last: Option<&str>) -> Result<(), sqlx::Error> {
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
        if last == Some(*name) {
            break;
        }
    }
    Ok(())
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
    fn both_engines_have_the_same_migrations_in_the_same_order() {
        let a: Vec<&str> = migrations(Dialect::Sqlite).iter().map(|m| m.0).collect();
        let b: Vec<&str> = migrations(Dialect::Postgres).iter().map(|m| m.0).collect();
        assert_eq!(a, b);
    }
}
