//! Operator switches stored in the database (so the CLI, the bot and the API agree).
use crate::domain::admin_audit;
use crate::domain::caches::MAINTENANCE_CACHE_SECS;
use crate::domain::store::query;
use crate::domain::{Domain, DomainResult};

pub async fn maintenance(domain: &Domain) -> DomainResult<bool> {
    let now = domain.now();
    if let Some((on, at)) = *domain.maintenance.0.lock().expect("maintenance cache") {
        if now - at < MAINTENANCE_CACHE_SECS && now >= at {
            return Ok(on);
        }
    }
    let row: Option<(String,)> = domain
        .read(move |c| Box::pin(async move { query("SELECT value FROM settings WHERE key = 'maintenance'").fetch_optional(c).await }))
        .await?;
    let on = row.map(|r| r.0 == "on").unwrap_or(false);
    *domain.maintenance.0.lock().expect("maintenance cache") = Some((on, now));
    Ok(on)
}

pub async fn set_maintenance(domain: &Domain, on: bool) -> DomainResult<()> {
    domain
        .execute(
            query("INSERT INTO settings(key, value) VALUES ('maintenance', $1) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
                .bind(if on { "on" } else { "off" }),
        )
        .await?;
    *domain.maintenance.0.lock().expect("maintenance cache") = Some((on, domain.now()));
    Ok(())
}

pub async fn set_maintenance_by_admin(domain: &Domain, admin_id: i64, on: bool) -> DomainResult<()> {
    set_maintenance(domain, on).await?;
    let now = domain.now();
    domain.write(move |tx| Box::pin(admin_audit::record(tx, admin_id, "maintenance", if on { "on" } else { "off" }, now))).await
}
