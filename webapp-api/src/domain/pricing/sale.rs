//! Cases off sale (`cases_off_sale`): taken out of the store by an operator (`fragbox catalog
//! off`) or by the price rules (a stored price the shop cannot use, found while the served
//! catalog is built at start). The start-up catalog load keeps them off, whoever took them off;
//! only an operator puts one back (`fragbox catalog on`). An open reads the stored flag in its
//! own write, so taking a case off stops its opens on every replica at once; the store's list
//! leaves it out from each server's next start.
use crate::domain::catalog::{Catalog, PriceProblem};
use crate::domain::pricing::notices::queue_notice;
use crate::domain::store::{self, query, Exec};
use crate::domain::{Domain, DomainError};

/// Who took a case off sale.
pub const BY_OPERATOR: &str = "operator";
pub const BY_PRICE: &str = "price";

/// One case off sale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OffSale {
    pub case_id: String,
    /// `operator` or `price`.
    pub reason: String,
    pub detail: String,
    /// Unix seconds.
    pub since: i64,
}

impl OffSale {
    /// `operator: <note>` / `price: <what>`, for reports and the served catalog.
    pub fn why(&self) -> String {
        if self.detail.is_empty() {
            self.reason.clone()
        } else {
            format!("{}: {}", self.reason, self.detail)
        }
    }
}

/// Every case off sale, by id.
pub async fn list(pool: &store::Pool) -> Result<Vec<OffSale>, DomainError> {
    let rows: Vec<(String, String, String, i64)> = store::read(pool, None, |c| {
        Box::pin(
            async move { store::query("SELECT case_id, reason, detail, since FROM cases_off_sale ORDER BY case_id").fetch_all(c).await },
        )
    })
    .await?;
    Ok(rows.into_iter().map(|(case_id, reason, detail, since)| OffSale { case_id, reason, detail, since }).collect())
}

/// An operator takes `case_id` off sale. `false`: it was off sale already (nothing changed).
pub async fn take_off(domain: &Domain, case_id: &str, note: &str) -> Result<bool, DomainError> {
    if domain.catalog.case(case_id).is_none() {
        return Err(DomainError::CaseNotFound);
    }
    let (case_id, note, now) = (case_id.to_owned(), note.to_owned(), domain.now());
    domain
        .write(move |tx| {
            Box::pin(async move {
                let added = query(
                    "INSERT INTO cases_off_sale(case_id, reason, detail, since) VALUES ($1, $2, $3, $4) ON CONFLICT(case_id) DO NOTHING",
                )
                .bind(case_id.clone())
                .bind(BY_OPERATOR)
                .bind(note)
                .bind(now)
                .execute(tx)
                .await?;
                query("UPDATE cases SET active = 0 WHERE id = $1").bind(case_id).execute(tx).await?;
                Ok(added > 0)
            })
        })
        .await
}

/// Why a case cannot go back on sale.
#[derive(Debug, thiserror::Error)]
pub enum OnError {
    #[error("case {0} is not in the catalog")]
    Unknown(String),
    #[error("case {0} is on sale")]
    NotOff(String),
    /// The price rules would take it off again at the next start: fix the price first.
    #[error("case {case}: a price is still unusable ({detail}); fix it (a reprice, `fragbox catalog accept`) first")]
    StillUnusable { case: String, detail: String },
    #[error("{0}")]
    Domain(#[from] DomainError),
}

/// An operator puts `case_id` back on sale. `served` is the catalog as this shop serves it now
/// (`served_catalog`): a case whose prices are still unusable stays off. Answers what it was.
/// Running servers sell it again from their next start.
pub async fn put_on(domain: &Domain, served: &Catalog, case_id: &str) -> Result<OffSale, OnError> {
    if served.case(case_id).is_none() {
        return Err(OnError::Unknown(case_id.to_owned()));
    }
    if let Some(p) = served.price_problems.iter().find(|p| p.case_id == case_id) {
        return Err(OnError::StillUnusable { case: case_id.to_owned(), detail: p.detail.clone() });
    }
    let was = list(&domain.db).await?.into_iter().find(|o| o.case_id == case_id).ok_or_else(|| OnError::NotOff(case_id.to_owned()))?;
    let id = case_id.to_owned();
    domain
        .write(move |tx| {
            Box::pin(async move {
                query("DELETE FROM cases_off_sale WHERE case_id = $1").bind(id.clone()).execute(tx).await?;
                query("UPDATE cases SET active = 1 WHERE id = $1").bind(id).execute(tx).await?;
                Ok(())
            })
        })
        .await?;
    Ok(was)
}

/// At start: records the cases the price rules took off sale while the served catalog was built
/// and tells the admins, in one message, about those not off sale before (several replicas
/// starting together tell it once). Answers the cases newly taken off.
pub async fn record_price_problems(
    pool: &store::Pool,
    problems: &[PriceProblem],
    admins: &[i64],
    now: i64,
) -> Result<Vec<String>, DomainError> {
    if problems.is_empty() {
        return Ok(Vec::new());
    }
    let (problems, admins) = (problems.to_vec(), admins.to_vec());
    store::write(pool, None, move |tx| Box::pin(record_in(tx, problems, admins, now))).await
}

async fn record_in(tx: &mut dyn Exec, problems: Vec<PriceProblem>, admins: Vec<i64>, now: i64) -> Result<Vec<String>, DomainError> {
    let mut newly = Vec::new();
    let mut lines = Vec::new();
    for p in &problems {
        let added =
            query("INSERT INTO cases_off_sale(case_id, reason, detail, since) VALUES ($1, $2, $3, $4) ON CONFLICT(case_id) DO NOTHING")
                .bind(p.case_id.clone())
                .bind(BY_PRICE)
                .bind(p.detail.clone())
                .bind(now)
                .execute(tx)
                .await?;
        if added > 0 {
            newly.push(p.case_id.clone());
            lines.push(format!("• {}: {}", p.case_id, p.detail));
        }
    }
    if !lines.is_empty() {
        let mut body = format!("⚠️ {} case(s) taken off sale at start: a stored price cannot be used.\n", lines.len());
        for l in lines.iter().take(10) {
            body.push_str(l);
            body.push('\n');
        }
        if lines.len() > 10 {
            body.push_str(&format!("… and {} more\n", lines.len() - 10));
        }
        body.push_str("Fix the price (a reprice, `fragbox catalog accept`), then `fragbox catalog on <case>`.");
        queue_notice(tx, &admins, &body, now).await?;
    }
    Ok(newly)
}
