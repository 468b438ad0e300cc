//! Whether a `DATABASE_URL` holds a shop, asked without creating one (the CLI never invents a
//! shop: opening an SQLite pool would create the file).
use std::path::Path;

use sqlx::Connection;

use crate::domain::store::dialect::Dialect;

/// The file an `sqlite:` URL names, as sqlx reads it (the text after the scheme, before `?`);
/// `None` for an in-memory database.
fn sqlite_file(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let (path, params) = rest.split_once('?').unwrap_or((rest, ""));
    let in_memory = path.is_empty() || path == ":memory:" || params.split('&').any(|p| p == "mode=memory");
    (!in_memory).then_some(path)
}

/// Refuses a DATABASE_URL that holds no shop (`shown`: the URL as it may be printed), and
/// creates nothing while looking: an SQLite
/// file must exist before anything opens it (opening creates it), and the database, SQLite or
/// PostgreSQL, must carry our schema (the `schema_migrations` table).
pub async fn existing_shop(database_url: &str, shown: &str) -> Result<(), String> {
    let has_schema = match Dialect::of_url(database_url) {
        Some(Dialect::Sqlite) => {
            let file = sqlite_file(database_url).ok_or_else(|| format!("DATABASE_URL {shown}: an in-memory database holds no shop"))?;
            if !Path::new(file).is_file() {
                return Err(format!(
                    "DATABASE_URL {shown}: no SQLite file at {file}; nothing was created (check the path, or start `fragbox serve` once to create a new shop)"
                ));
            }
            // Read-only and never creating: an empty or foreign file stays exactly as it was.
            let options = sqlx::sqlite::SqliteConnectOptions::new().filename(file).read_only(true).create_if_missing(false);
            let mut conn = sqlx::sqlite::SqliteConnection::connect_with(&options)
                .await
                .map_err(|e| format!("DATABASE_URL {shown}: cannot open {file}: {e}"))?;
            let found =
                sqlx::query_scalar::<_, i64>("select count(*) from sqlite_master where type = 'table' and name = 'schema_migrations'")
                    .fetch_one(&mut conn)
                    .await
                    .map_err(|e| format!("DATABASE_URL {shown}: {file} is not a FragBox database: {e}"));
            let _ = conn.close().await;
            found? > 0
        }
        Some(Dialect::Postgres) => {
            let mut conn = sqlx::postgres::PgConnection::connect(database_url)
                .await
                .map_err(|e| format!("DATABASE_URL {shown}: cannot connect: {e}"))?;
            let found = sqlx::query_scalar::<_, bool>("select to_regclass('schema_migrations') is not null")
                .fetch_one(&mut conn)
                .await
                .map_err(|e| format!("DATABASE_URL {shown}: {e}"));
            let _ = conn.close().await;
            found?
        }
        None => return Err(format!("DATABASE_URL {shown}: not an sqlite:// or postgres:// URL")),
    };
    if has_schema {
        Ok(())
    } else {
        Err(format!(
            "DATABASE_URL {shown}: no FragBox schema there (no schema_migrations table); refusing to touch it. \
             Check DATABASE_URL, or start `fragbox serve` on it once to create a new shop"
        ))
    }
}
