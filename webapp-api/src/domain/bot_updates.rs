//! Telegram updates taken for handling, so that one delivered twice (a webhook retry, or the same
//! update posted to two replicas at once) has one effect.
use crate::domain::store::query;
use crate::domain::{Domain, DomainResult};

/// Rows are kept this long: Telegram keeps an undelivered update for 24 hours, and after a week
/// without updates it may start update ids afresh at random.
pub const KEEP_SECS: i64 = 48 * 3600;

/// Takes update `update_id` of bot `bot_id`: true for the first taker, false when it was taken
/// before (here or on another replica). One statement on a unique key: concurrent takers of
/// the same update cannot both win.
pub async fn take(domain: &Domain, bot_id: i64, update_id: i64) -> DomainResult<bool> {
    let taken = domain
        .execute(
            query("INSERT INTO bot_updates(bot_id, update_id, received_at) VALUES ($1, $2, $3) ON CONFLICT (bot_id, update_id) DO NOTHING")
                .bind(bot_id)
                .bind(update_id)
                .bind(domain.now()),
        )
        .await?;
    Ok(taken == 1)
}

/// Forgets updates taken more than `KEEP_SECS` ago; answers how many.
pub async fn prune(domain: &Domain) -> DomainResult<u64> {
    domain.execute(query("DELETE FROM bot_updates WHERE received_at < $1").bind(domain.now() - KEEP_SECS)).await
}
