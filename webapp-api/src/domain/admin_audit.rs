//! The admin audit log (`admin_audit`): one row per operator action, written in the same
//! transaction as the action it records, so an action and its record commit together.
use crate::domain::store::{query, Exec};
use crate::domain::DomainResult;

/// Records that `admin_id` did `action` (with `detail`) at `now`, inside the caller's write.
pub async fn record(conn: &mut dyn Exec, admin_id: i64, action: &str, detail: &str, now: i64) -> DomainResult<()> {
    query("INSERT INTO admin_audit(admin_id, action, detail, created_at) VALUES ($1, $2, $3, $4)")
        .bind(admin_id)
        .bind(action)
        .bind(detail)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(())
}
