//! `fragbox migrate-db`: copies a shop from its SQLite file into an empty PostgreSQL database.
//!
//! The target's schema comes from its own migrations; the tables to copy, their columns and
//! their order (parents before children) are read from the target's catalog, so a table added by
//! a later migration is copied without changes here. The source is read inside one read
//! transaction (one consistent snapshot of the file, even while a server writes to it); the
//! target is written in one transaction, so a failed copy leaves it empty. Afterwards every
//! table's row count and the balance and ledger totals of that snapshot are compared with the
//! target's. The audit of both sides is the domain's (`domain::moving`), not the store's.
use std::collections::{BTreeMap, BTreeSet};

use sqlx::Row;

use crate::domain::store::{self, Dialect, Pool};
use crate::domain::{DomainError, DomainResult};

/// Rows per multi-row `INSERT`.
const BATCH: usize = 500;

/// What the copy found and did, table by table.
#[derive(Debug, Default)]
pub struct Report {
    /// (table, rows in the source, rows in the target after the copy)
    pub tables: Vec<(String, i64, i64)>,
    /// (what, source, target) for the money totals.
    pub totals: Vec<(&'static str, i64, i64)>,
}

impl Report {
    /// True when every table's count and every total matches.
    pub fn matches(&self) -> bool {
        self.tables.iter().all(|(_, s, t)| s == t) && self.totals.iter().all(|(_, s, t)| s == t)
    }
}

/// A target column: its name, whether it holds integers, and whether it holds reals (else text).
struct TargetColumn {
    real: bool,
    name: String,
    integer: bool,
}

/// Copies everything from `source` (SQLite) into `target` (PostgreSQL, migrated and empty).
pub async fn copy(source: &Pool, target: &Pool) -> DomainResult<Report> {
    if Dialect::of_pool(source) != Dialect::Sqlite || Dialect::of_pool(target) != Dialect::Postgres {
        return Err(DomainError::BadRequest(
            "migrate-db copies from an SQLite file (--from sqlite://…) to PostgreSQL (--to postgres://…)".into(),
        ));
    }
    let tables = target_tables(target).await?;
    // `settings` is seeded by the migrations; everything else must be empty.
    for (table, _) in &tables {
        if table == "settings" {
            continue;
        }
        let (n,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(target).await?;
        if n > 0 {
            return Err(DomainError::BadRequest(format!(
                "the target is not empty: {table} has {n} rows; migrate-db copies into an empty database only"
            )));
        }
    }
    let self_refs = self_references(target).await?;

    let mut src = source.begin().await?;
    let mut dst = target.begin().await?;
    sqlx::query("DELETE FROM settings").execute(&mut *dst).await?;
    // (table, column, row id, value) of self-references, applied once every row exists.
    let mut self_ref_values: Vec<(String, String, i64, i64)> = Vec::new();
    for (table, columns) in &tables {
        let (exists,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = $1")
            .bind(table)
            .fetch_one(&mut *src)
            .await?;
        if exists == 0 {
            return Err(DomainError::Internal(format!("the source has no table {table}: run this binary once on it to migrate it first")));
        }
        // A column referring to its own table (users.referred_by) is filled in a second pass.
        let deferred: &[String] = self_refs.get(table).map(Vec::as_slice).unwrap_or_default();
        let id_index = columns.iter().position(|c| c.name == "id");
        if !deferred.is_empty() && id_index.is_none() {
            return Err(DomainError::Internal(format!("{table} refers to itself but has no id column")));
        }
        let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
        let select = format!("SELECT rowid, {} FROM {table} WHERE rowid > $1 ORDER BY rowid LIMIT {BATCH}", names.join(", "));
        let mut last_rowid = i64::MIN;
        loop {
            let rows = sqlx::query(&select).bind(last_rowid).fetch_all(&mut *src).await?;
            let Some(last) = rows.last() else { break };
            last_rowid = last.try_get(0)?;
            let mut sql = format!("INSERT INTO {table}({}) VALUES ", names.join(", "));
            let mut n = 0usize;
            for r in 0..rows.len() {
                sql.push_str(if r == 0 { "(" } else { ", (" });
                for c in 0..columns.len() {
                    n += 1;
                    sql.push_str(&if c == 0 { format!("${n}") } else { format!(", ${n}") });
                }
                sql.push(')');
            }
            let mut q = sqlx::query(&sql);
            for row in &rows {
                for (i, col) in columns.iter().enumerate() {
                    if col.integer {
                        let v: Option<i64> = row.try_get(i + 1)?;
                        if deferred.contains(&col.name) {
                            if let (Some(v), Some(idx)) = (v, id_index) {
                                self_ref_values.push((table.clone(), col.name.clone(), row.try_get(idx + 1)?, v));
                            }
                            q = q.bind(None::<i64>);
                        } else {
                            q = q.bind(v);
                        }
                    } else if col.real {
                        let v: Option<f64> = row.try_get(i + 1)?;
                        q = q.bind(v);
                    } else {
                        let v: Option<String> = row.try_get(i + 1)?;
                        q = q.bind(v);
                    }
                }
            }
            q.execute(&mut *dst).await?;
        }
    }
    for (table, col, id, v) in &self_ref_values {
        sqlx::query(&format!("UPDATE {table} SET {col} = $1 WHERE id = $2")).bind(v).bind(id).execute(&mut *dst).await?;
    }
    // Identity columns continue after the copied ids.
    for (table, columns) in &tables {
        if columns.iter().any(|c| c.name == "id" && c.integer) {
            let (seq,): (Option<String>,) =
                sqlx::query_as("SELECT pg_get_serial_sequence($1, 'id')").bind(table).fetch_one(&mut *dst).await?;
            if let Some(seq) = seq {
                sqlx::query(&format!("SELECT setval($1, COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"))
                    .bind(seq)
                    .execute(&mut *dst)
                    .await?;
            }
        }
    }
    // The source's figures come from the snapshot that was copied, so a shop still writing
    // verifies too (what it writes after the snapshot is not copied: stop it before switching).
    const TOTALS: [(&str, &str); 3] = [
        ("sum of balances", "SELECT CAST(COALESCE(SUM(balance), 0) AS BIGINT) FROM users"),
        ("sum of ledger amounts", "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM ledger_entries"),
        ("ledger entries' highest id", "SELECT CAST(COALESCE(MAX(id), 0) AS BIGINT) FROM ledger_entries"),
    ];
    let mut source_counts = Vec::new();
    for (table, _) in &tables {
        let (n,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(&mut *src).await?;
        source_counts.push(n);
    }
    let mut source_totals = Vec::new();
    for (_, sql) in TOTALS {
        let (n,): (i64,) = sqlx::query_as(sql).fetch_one(&mut *src).await?;
        source_totals.push(n);
    }
    dst.commit().await?;
    src.rollback().await?;

    let mut report = Report::default();
    for ((table, _), s) in tables.iter().zip(source_counts) {
        let (t,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM {table}")).fetch_one(target).await?;
        report.tables.push((table.clone(), s, t));
    }
    for ((what, sql), s) in TOTALS.into_iter().zip(source_totals) {
        let (t,): (i64,) = sqlx::query_as(sql).fetch_one(target).await?;
        report.totals.push((what, s, t));
    }
    Ok(report)
}

/// The target's tables (but `schema_migrations`) with their columns, parents before children.
async fn target_tables(target: &Pool) -> DomainResult<Vec<(String, Vec<TargetColumn>)>> {
    let cols: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT c.table_name::text, c.column_name::text, c.data_type::text FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
         WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'schema_migrations'
         ORDER BY c.table_name, c.ordinal_position",
    )
    .fetch_all(target)
    .await?;
    let mut tables: BTreeMap<String, Vec<TargetColumn>> = BTreeMap::new();
    for (table, name, data_type) in cols {
        let integer = matches!(data_type.as_str(), "bigint" | "integer" | "smallint");
        let real = matches!(data_type.as_str(), "double precision" | "real");
        if !integer && !real && data_type != "text" {
            return Err(DomainError::Internal(format!("{table}.{name}: migrate-db copies integers, reals and text, not {data_type}")));
        }
        tables.entry(table).or_default().push(TargetColumn { name, integer, real });
    }
    let edges: Vec<(String, String)> = sqlx::query_as(
        "SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint
         WHERE contype = 'f' AND connamespace = current_schema()::regnamespace AND conrelid <> confrelid",
    )
    .fetch_all(target)
    .await?;
    // Parents first: repeatedly take the tables whose parents are all placed.
    let mut placed: Vec<String> = Vec::new();
    let mut left: BTreeSet<String> = tables.keys().cloned().collect();
    while !left.is_empty() {
        let ready: Vec<String> = left
            .iter()
            .filter(|t| edges.iter().all(|(child, parent)| child != *t || placed.contains(parent) || !left.contains(parent)))
            .cloned()
            .collect();
        if ready.is_empty() {
            return Err(DomainError::Internal(format!("foreign keys form a cycle among {left:?}")));
        }
        for t in ready {
            left.remove(&t);
            placed.push(t);
        }
    }
    Ok(placed
        .into_iter()
        .map(|t| {
            let cols = tables.remove(&t).unwrap_or_default();
            (t, cols)
        })
        .collect())
}

/// Columns with a foreign key to their own table, by table.
async fn self_references(target: &Pool) -> DomainResult<BTreeMap<String, Vec<String>>> {
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT c.conrelid::regclass::text, a.attname::text FROM pg_constraint c
         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
         WHERE c.contype = 'f' AND c.conrelid = c.confrelid AND c.connamespace = current_schema()::regnamespace",
    )
    .fetch_all(target)
    .await?;
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (t, c) in rows {
        out.entry(t).or_default().push(c);
    }
    Ok(out)
}

/// Opens both stores for a copy: the source as it is (migrated to this binary's schema), the
/// target migrated.
pub async fn open_pair(from: &str, to: &str) -> DomainResult<(Pool, Pool)> {
    if Dialect::of_url(from) != Some(Dialect::Sqlite) {
        return Err(DomainError::BadRequest("--from must be an SQLite URL (sqlite://path)".into()));
    }
    if Dialect::of_url(to) != Some(Dialect::Postgres) {
        return Err(DomainError::BadRequest("--to must be a PostgreSQL URL (postgres://…)".into()));
    }
    let path = from.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
    let path = path.split('?').next().unwrap_or(path);
    if !std::path::Path::new(path).exists() {
        return Err(DomainError::BadRequest(format!("no SQLite file at {path}")));
    }
    let source = store::open(from).await?;
    store::migrate(&source).await?;
    let target = store::open(to).await?;
    store::migrate(&target).await?;
    Ok((source, target))
}
