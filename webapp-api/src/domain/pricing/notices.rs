//! The admins' messages the price rules queue (`admin_notices`, drained by the bot's outbox).
use crate::domain::store::{query, Exec};
use crate::domain::DomainError;

/// Queues one message to each admin chat (`admin_notices`, drained by the bot), in the caller's
/// write.
pub async fn queue_notice(tx: &mut dyn Exec, admins: &[i64], body: &str, now: i64) -> Result<(), DomainError> {
    for admin in admins {
        query("INSERT INTO admin_notices(admin_chat_id, body, next_attempt_at, created_at) VALUES ($1, $2, $3, $4)")
            .bind(*admin)
            .bind(body)
            .bind(now)
            .bind(now)
            .execute(tx)
            .await?;
    }
    Ok(())
}
