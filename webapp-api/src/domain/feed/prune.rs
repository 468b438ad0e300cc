//! `feed_events` does not grow forever: a periodic job of the server deletes the rows no client
//! can still ask for, on one replica at a time (`store::try_lease`), never on an open's path.
use std::future::Future;
use std::time::Duration;

use crate::domain::store::{self, query};
use crate::domain::{Domain, DomainResult};

/// What the table keeps.
#[derive(Clone, Copy, Debug)]
pub struct Retention {
    /// The newest rows always kept, however old.
    pub keep: i64,
    /// Rows younger than this (seconds) are kept, however many.
    pub for_secs: i64,
}

/// The newest 1 000 drops, and every drop of the last day: a row goes only when it is both
/// beyond the newest 1 000 and older than a day. 1 000 is far more than a client is sent on
/// connect (20) or the hub remembers (256); the day keeps a request id's replay from finding
/// its drop gone and publishing it again.
pub const RETENTION: Retention = Retention { keep: 1000, for_secs: 86_400 };
/// How often the job looks (the first time that long after start).
pub const PRUNE_EVERY: Duration = Duration::from_secs(600);
/// Rows deleted per write, so one turn never holds the write lock for long.
const DELETE_BATCH: i64 = 2000;
/// The job's lease across replicas.
const LEASE: &str = "feed-prune";

/// The id of the `keep`-th newest row (`$1` = keep − 1): rows below it may go.
const KEPT_FROM: &str = "SELECT id FROM feed_events ORDER BY id DESC LIMIT 1 OFFSET $1";
const DELETE: &str = "DELETE FROM feed_events WHERE id IN
    (SELECT id FROM feed_events WHERE id < $1 AND created_at < $2 ORDER BY id LIMIT $3)";

/// One turn: deletes what `retention` lets go, unless another replica is pruning. Answers the
/// rows deleted, or `None` when another replica holds the job.
pub async fn prune(domain: &Domain, retention: Retention) -> DomainResult<Option<u64>> {
    let Some(lease) = store::try_lease(&domain.db, LEASE).await? else { return Ok(None) };
    let result = prune_rows(domain, retention).await;
    lease.release().await;
    result.map(Some)
}

async fn prune_rows(domain: &Domain, retention: Retention) -> DomainResult<u64> {
    let keep = (retention.keep - 1).max(0);
    let kept_from: Option<(i64,)> =
        domain.read(move |c| Box::pin(async move { query(KEPT_FROM).bind(keep).fetch_optional(c).await })).await?;
    // Fewer rows than `keep`: nothing may go.
    let Some((kept_from,)) = kept_from else { return Ok(0) };
    let before = domain.now() - retention.for_secs;
    let mut deleted = 0;
    loop {
        let n = domain.execute(query(DELETE).bind(kept_from).bind(before).bind(DELETE_BATCH)).await?;
        deleted += n;
        if (n as i64) < DELETE_BATCH {
            return Ok(deleted);
        }
    }
}

/// The job: every `PRUNE_EVERY` one turn with `RETENTION`, until `stop` resolves. A failed turn
/// is logged and tried again at the next look.
pub async fn run_pruning(domain: Domain, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    loop {
        tokio::select! {
            _ = &mut stop => return,
            _ = tokio::time::sleep(PRUNE_EVERY) => {}
        }
        let turn = tokio::select! {
            _ = &mut stop => return,
            r = prune(&domain, RETENTION) => r,
        };
        match turn {
            Ok(Some(n)) if n > 0 => tracing::info!(deleted = n, "feed: old drops pruned"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "feed: pruning failed"),
        }
    }
}
