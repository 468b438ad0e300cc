//! How a drop reaches every process that serves the feed (`domain::feed`), per engine.
//!
//! - SQLite: one process owns the file's writes, so the feed row is written inside the open's
//!   own write (the writer thread serialises writes: ids commit in increasing order) and the
//!   process that opened wakes its own hub. Nothing crosses processes.
//! - PostgreSQL: several replicas share the database. The open commits first; then a small write
//!   of its own appends the feed row under a transaction-scoped advisory lock, so feed rows
//!   commit one at a time in id order (a reader that asks for "ids above the last one I saw"
//!   never skips a row that commits late), and `pg_notify` tells every replica at that commit.
//!   Each replica's listener (`listen`) wakes its hub, which reads the new rows from the table;
//!   after a lost connection it reads what it missed the same way.
//!
//! A player's name setting changes drops a hub already holds: on SQLite the process that
//! changed it reads them again; on PostgreSQL the change's own transaction also notifies
//! `name:<player>` on the same channel (`signal_name`), and every replica's listener has its
//! hub read that player's drops again. A listener that was disconnected may have missed such a
//! change too: after every (re)connection its hub reads every name again.
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use sqlx::postgres::PgListener;

use crate::domain::store::{self, query, Dialect, Exec, Pool};
use crate::domain::DomainResult;

/// The `LISTEN` channel of the feed.
pub const CHANNEL: &str = "feed";

/// Retries of a lost listener connection start at this delay and double up to `BACKOFF_MAX`.
const BACKOFF_START: Duration = Duration::from_millis(200);
const BACKOFF_MAX: Duration = Duration::from_secs(5);

/// True when feed rows are written inside the open's own write (SQLite), false when they are
/// appended after its commit by `append_ordered` (PostgreSQL).
pub fn records_in_open(tx: &dyn Exec) -> bool {
    tx.dialect() == Dialect::Sqlite
}

/// True when only this process serves the store's feed, so the publisher wakes its own hub
/// (SQLite); false when the listener of every replica does (PostgreSQL).
pub fn in_process(pool: &Pool) -> bool {
    Dialect::of_pool(pool) == Dialect::Sqlite
}

/// Prepares a write that appends feed rows on PostgreSQL: one appender at a time across all
/// replicas (so ids commit in order), and a commit that does not wait for the disk — a feed row
/// lost to a crash costs a line in a ribbon, never money, and the lock is then held for
/// microseconds rather than a flush. SQLite: nothing to do.
pub async fn begin_append(tx: &mut dyn Exec) -> DomainResult<()> {
    if tx.dialect() != Dialect::Postgres {
        return Ok(());
    }
    query("SET LOCAL synchronous_commit = off").execute(tx).await?;
    store::lock_key(tx, "feed").await
}

/// Tells every replica's listener that feed row `id` exists; delivered at commit. SQLite:
/// nothing to do.
pub async fn signal(tx: &mut dyn Exec, id: i64) -> DomainResult<()> {
    if tx.dialect() != Dialect::Postgres {
        return Ok(());
    }
    query("SELECT 1 FROM (SELECT pg_notify($1, $2)) AS n").bind(CHANNEL).bind(id.to_string()).execute(tx).await?;
    Ok(())
}

/// Tells every replica's listener that `player`'s name setting changed; delivered at commit.
/// SQLite: nothing to do.
pub async fn signal_name(tx: &mut dyn Exec, player: i64) -> DomainResult<()> {
    if tx.dialect() != Dialect::Postgres {
        return Ok(());
    }
    query("SELECT 1 FROM (SELECT pg_notify($1, $2)) AS n").bind(CHANNEL).bind(format!("{NAME_PREFIX}{player}")).execute(tx).await?;
    Ok(())
}

/// The payload of a name change: `name:<player>`. Every other payload is a new row's id. An
/// older replica (during a rolling deploy) takes any payload for a new row: it reads, finds
/// nothing new, and is none the worse.
const NAME_PREFIX: &str = "name:";

/// What a listener learnt since it last called its `Wake`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Woken {
    /// New feed rows may exist.
    pub drops: bool,
    /// Players whose name setting changed.
    pub names: Vec<i64>,
    /// Notifications may have been missed (a (re)connection): any name may have changed.
    pub all_names: bool,
}

impl Woken {
    /// What a (re)connected listener may have missed: anything.
    fn anything() -> Woken {
        Woken { drops: true, names: Vec::new(), all_names: true }
    }

    fn note(&mut self, payload: &str) {
        match payload.strip_prefix(NAME_PREFIX).map(str::parse::<i64>) {
            Some(Ok(player)) => {
                if !self.names.contains(&player) {
                    self.names.push(player);
                }
            }
            _ => self.drops = true,
        }
    }
}

/// What a listener calls when rows may have arrived or names changed.
pub type Wake = Box<dyn Fn(Woken) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// Listens on PostgreSQL until `stop` resolves, calling `wake` on every notification (a burst
/// is one call, with what the burst said) and after every (re)connection, when notifications
/// may have been missed. On SQLite it just waits for `stop`.
pub async fn listen(pool: Pool, wake: Wake, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    if in_process(&pool) {
        stop.await;
        return;
    }
    let url = pool.connect_options().database_url.to_string();
    let mut delay = BACKOFF_START;
    loop {
        let connected = async {
            let mut l = PgListener::connect(&url).await?;
            l.listen(CHANNEL).await?;
            Ok::<_, sqlx::Error>(l)
        };
        let mut listener = tokio::select! {
            _ = &mut stop => return,
            l = connected => match l {
                Ok(l) => l,
                Err(e) => {
                    tracing::warn!(error = %e, "feed listener cannot connect; retrying");
                    tokio::select! {
                        _ = &mut stop => return,
                        _ = tokio::time::sleep(delay) => {}
                    }
                    delay = (delay * 2).min(BACKOFF_MAX);
                    continue;
                }
            },
        };
        delay = BACKOFF_START;
        // Whatever was committed while no one listened.
        wake(Woken::anything()).await;
        loop {
            let got = tokio::select! {
                _ = &mut stop => return,
                got = listener.try_recv() => got,
            };
            match got {
                Ok(Some(first)) => {
                    // One read covers a burst: the notifications already queued behind it are
                    // taken with it.
                    let mut woken = Woken::default();
                    woken.note(first.payload());
                    while let Some(more) = listener.next_buffered() {
                        woken.note(more.payload());
                    }
                    wake(woken).await;
                }
                // The connection was lost and has been re-established: catch up.
                Ok(None) => wake(Woken::anything()).await,
                Err(e) => {
                    tracing::warn!(error = %e, "feed listener lost its connection; reconnecting");
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_says_whether_rows_arrived_and_whose_names_changed() {
        let mut woken = Woken::default();
        for payload in ["name:42", "17", "name:42", "name:7"] {
            woken.note(payload);
        }
        assert_eq!(woken, Woken { drops: true, names: vec![42, 7], all_names: false });
        let mut names_only = Woken::default();
        names_only.note("name:9");
        assert!(!names_only.drops);
        // Anything unreadable is taken for new rows: reading costs little, missing one a drop.
        let mut odd = Woken::default();
        odd.note("name:x");
        assert_eq!(odd, Woken { drops: true, ..Woken::default() });
    }
}
