//! `fragbox backup`: one consistent snapshot of the shop, taken while the server keeps serving.
//! SQLite: `VACUUM INTO` a new file (readers and writers go on). PostgreSQL: `pg_dump
//! --format=custom`.
use std::path::PathBuf;

use crate::domain::store::{Dialect, Pool};

/// Writes the backup to `file` (which must not exist); answers what to tell the operator.
pub async fn backup(pool: &Pool, database_url: &str, file: &str) -> Result<String, String> {
    if std::path::Path::new(file).exists() {
        return Err(format!("{file} exists; choose a new file"));
    }
    match Dialect::of_pool(pool) {
        Dialect::Sqlite => {
            sqlx::query("VACUUM INTO $1").bind(file).execute(pool).await.map_err(|e| e.to_string())?;
            Ok(format!("backup written to {file}"))
        }
        Dialect::Postgres => {
            pg_dump(database_url, file)?;
            Ok(format!("backup written to {file} (pg_dump custom format; restore with pg_restore --no-owner -d <empty database> {file})"))
        }
    }
}

/// `pg_dump` from `PATH` or Debian's `/usr/lib/postgresql/<version>/bin` (the newest there); it
/// must be at least the server's version.
fn pg_dump(database_url: &str, file: &str) -> Result<(), String> {
    let bin = std::fs::read_dir("/usr/lib/postgresql")
        .ok()
        .and_then(|dirs| {
            let mut found: Vec<(u32, PathBuf)> = dirs
                .filter_map(Result::ok)
                .filter_map(|d| Some((d.file_name().to_str()?.parse::<u32>().ok()?, d.path().join("bin/pg_dump"))))
                .filter(|(_, p)| p.exists())
                .collect();
            found.sort();
            found.pop().map(|(_, p)| p)
        })
        .unwrap_or_else(|| "pg_dump".into());
    let out =
        std::process::Command::new(&bin)
            .args(["--format=custom", "--no-owner", "--file", file, "--dbname", database_url])
            .output()
            .map_err(|e| format!("cannot run {}: {e} (install the PostgreSQL client: apt-get install postgresql-client)", bin.display()))?;
    if !out.status.success() {
        let _ = std::fs::remove_file(file);
        return Err(format!("pg_dump failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(())
}
