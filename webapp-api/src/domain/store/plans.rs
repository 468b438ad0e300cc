//! SQLite's query plans of the hot reads, checked against the schema the migrations make: an
//! index the read relies on stays one it can use alone.
use crate::domain::inventory;
use crate::domain::store::{migrations, Dialect};

/// The list reads SQLite's `inventory_live` index alone, in its order: a column added to the
/// list but not to the index would fetch a table page per skin again.
#[test]
fn the_inventory_list_is_read_from_the_live_index_alone_already_sorted() {
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    for (name, sql) in migrations(Dialect::Sqlite) {
        conn.execute_batch(sql).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    let mut plan = conn.prepare(&format!("EXPLAIN QUERY PLAN {}", inventory::list_sql())).unwrap();
    let steps: Vec<String> = plan.query_map([1i64], |r| r.get::<_, String>(3)).unwrap().map(Result::unwrap).collect();
    assert!(steps.iter().any(|s| s.contains("USING COVERING INDEX inventory_live")), "{steps:?}");
    assert!(!steps.iter().any(|s| s.contains("TEMP B-TREE")), "{steps:?}");
}
