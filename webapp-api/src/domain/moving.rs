//! `fragbox migrate-db`: moving a shop from its SQLite file into an empty PostgreSQL database.
//! The store copies and counts (`store::transfer`); the books' audit (`audit::run`) then judges
//! both sides, so the copy is trusted only when the counts, the totals and both audits agree.
use crate::domain::store::transfer::{self, Report};
use crate::domain::store::Pool;
use crate::domain::{audit, DomainResult};

pub use transfer::open_pair;

/// What a move found: the store's copy report and the audit of each side.
#[derive(Debug)]
pub struct Moved {
    pub copy: Report,
    pub source_audit: Vec<String>,
    pub target_audit: Vec<String>,
}

impl Moved {
    /// True when every count and total matches and both audits are clean.
    pub fn verified(&self) -> bool {
        self.copy.matches() && self.source_audit.is_empty() && self.target_audit.is_empty()
    }
}

/// Copies everything from `source` (SQLite) into `target` (PostgreSQL, migrated and empty) and
/// audits both sides.
pub async fn copy(source: &Pool, target: &Pool) -> DomainResult<Moved> {
    let copy = transfer::copy(source, target).await?;
    let source_audit = audit::run(source).await?;
    let target_audit = audit::run(target).await?;
    Ok(Moved { copy, source_audit, target_audit })
}
