//! Which engine a URL, pool or connection is, and the types the domain reaches it through.
use sqlx::Any;

/// The store the domain talks to. Every SQL text uses `$N` placeholders so it runs on either engine.
pub type Db = Any;
/// A pool of connections to the store.
pub type Pool = sqlx::Pool<Db>;
/// One connection (or a transaction, through `&mut *tx`).
pub type Conn = <Db as sqlx::Database>::Connection;

/// The engine behind a pool or connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// The engine a `DATABASE_URL` names.
    pub fn of_url(url: &str) -> Option<Dialect> {
        let scheme = url.split(':').next().unwrap_or("");
        match scheme {
            "sqlite" => Some(Dialect::Sqlite),
            "postgres" | "postgresql" => Some(Dialect::Postgres),
            _ => None,
        }
    }

    /// The engine behind a pool.
    pub fn of_pool(pool: &Pool) -> Dialect {
        Dialect::of_url(pool.connect_options().database_url.as_str()).unwrap_or(Dialect::Sqlite)
    }

    /// The engine behind a connection (a transaction derefs to one).
    pub fn of_conn(conn: &Conn) -> Dialect {
        if conn.backend_name().eq_ignore_ascii_case("postgresql") {
            Dialect::Postgres
        } else {
            Dialect::Sqlite
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_their_engine() {
        assert_eq!(Dialect::of_url("sqlite://data/fragbox.db"), Some(Dialect::Sqlite));
        assert_eq!(Dialect::of_url("sqlite:fragbox.db"), Some(Dialect::Sqlite));
        assert_eq!(Dialect::of_url("postgres://u@h/db"), Some(Dialect::Postgres));
        assert_eq!(Dialect::of_url("postgresql://u@h/db"), Some(Dialect::Postgres));
        assert_eq!(Dialect::of_url("mysql://u@h/db"), None);
    }
}
