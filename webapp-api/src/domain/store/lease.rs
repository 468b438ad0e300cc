//! One holder at a time of a named job (the daily reprice) across the replicas of a shop.
//!
//! PostgreSQL: `pg_try_advisory_lock` on a connection taken from the pool for the job alone; the
//! lock lives as long as that session, so the connection is closed when the lease ends (released
//! or dropped, a panic included) and never goes back to the pool still holding it. SQLite: one
//! process serves the file, so there is nothing to take.
use sqlx::pool::PoolConnection;

use crate::domain::store::dialect::{Db, Dialect, Pool};
use crate::domain::store::txn::advisory_key;
use crate::domain::DomainResult;

/// A held lease; dropping it ends it.
pub struct Lease {
    conn: Option<PoolConnection<Db>>,
    key: i64,
}

impl Lease {
    /// Ends the lease now. The lock is given back before its connection closes: a closed
    /// session's locks go only when its server process has ended, a moment later, and a replica
    /// asking in that moment would be told the job is still held.
    pub async fn release(mut self) {
        if let Some(mut conn) = self.conn.take() {
            let _ = sqlx::query("SELECT pg_advisory_unlock($1)").bind(self.key).execute(&mut *conn).await;
            let _ = conn.close().await;
        }
    }
}

/// Takes the lease `name` if no other replica holds it; `None` when one does.
pub async fn try_lease(pool: &Pool, name: &str) -> DomainResult<Option<Lease>> {
    if Dialect::of_pool(pool) == Dialect::Sqlite {
        return Ok(Some(Lease { conn: None, key: 0 }));
    }
    let key = advisory_key(name);
    let mut conn = pool.acquire().await?;
    let (got,): (bool,) = sqlx::query_as("SELECT pg_try_advisory_lock($1)").bind(key).fetch_one(&mut *conn).await?;
    if !got {
        return Ok(None);
    }
    // Dropped without `release`: the connection closes instead of returning to the pool locked.
    conn.close_on_drop();
    Ok(Some(Lease { conn: Some(conn), key }))
}
