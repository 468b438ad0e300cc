//! The one interface every write runs on: `Exec`, a connection that runs one SQL text with its
//! parameters. Two connections implement it: sqlx's (`AnyConnection`, either engine, inside a
//! `begin_write` transaction) and the SQLite writer thread's rusqlite connection (`writer.rs`),
//! whose calls complete at once, so that thread drives a write's future to its end by itself.
//! A rule (the case open, a ledger post) is written once, as an `async fn` over `&mut dyn Exec`,
//! and runs unchanged on both.
//!
//! Statements go through `query(sql).bind(..).fetch_optional(tx)`; rows decode into tuples of
//! the basic types the schema holds (integers, reals, text).
use std::future::Future;
use std::pin::Pin;

use futures_util::TryStreamExt;
use sqlx::any::AnyTypeInfoKind;
use sqlx::{Either, Executor, Row as _, ValueRef};

use crate::domain::store::dialect::Dialect;
use crate::domain::{DomainError, DomainResult};

/// A future a connection answers with; `Send` so a request's write can move between threads.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A parameter of a statement. Nulls keep their type: PostgreSQL wants to know it.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    Int(Option<i64>),
    Real(Option<f64>),
    Text(Option<String>),
}

/// A value a statement answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// What one statement did: the rows it answered and how many rows it changed.
#[derive(Debug, Default)]
pub struct Done {
    pub rows: Vec<Vec<Value>>,
    pub affected: u64,
}

/// A connection inside a write (or a read). Implemented by sqlx's connection and by the SQLite
/// writer thread's connection; nothing else in the domain knows which one it has.
pub trait Exec: Send {
    /// The engine behind the connection, for the few statements that differ (`store::lock_users`).
    fn dialect(&self) -> Dialect;
    /// Runs one statement with `$1`, `$2`, … bound to `params`.
    fn run<'a>(&'a mut self, sql: &'a str, params: Vec<Param>) -> BoxFuture<'a, DomainResult<Done>>;
}

/// A statement and its parameters.
#[must_use]
pub struct Query<'q> {
    sql: &'q str,
    params: Vec<Param>,
}

/// A statement to run on an `Exec`: `query(SQL).bind(a).bind(b).execute(tx)`.
pub fn query(sql: &str) -> Query<'_> {
    Query { sql, params: Vec::new() }
}

impl<'q> Query<'q> {
    pub fn bind(mut self, value: impl Into<Param>) -> Self {
        self.params.push(value.into());
        self
    }

    /// Runs it; answers how many rows it changed.
    pub async fn execute(self, tx: &mut dyn Exec) -> DomainResult<u64> {
        Ok(tx.run(self.sql, self.params).await?.affected)
    }

    /// The first row, if any.
    pub async fn fetch_optional<T: FromRow>(self, tx: &mut dyn Exec) -> DomainResult<Option<T>> {
        tx.run(self.sql, self.params).await?.rows.into_iter().next().map(T::from_row).transpose()
    }

    /// The first row; none is an internal error (the statement always answers one).
    pub async fn fetch_one<T: FromRow>(self, tx: &mut dyn Exec) -> DomainResult<T> {
        let sql = self.sql;
        self.fetch_optional(tx).await?.ok_or_else(|| DomainError::Internal(format!("no row from {}", first_words(sql))))
    }

    /// Every row.
    pub async fn fetch_all<T: FromRow>(self, tx: &mut dyn Exec) -> DomainResult<Vec<T>> {
        tx.run(self.sql, self.params).await?.rows.into_iter().map(T::from_row).collect()
    }
}

fn first_words(sql: &str) -> String {
    sql.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

impl From<i64> for Param {
    fn from(v: i64) -> Self {
        Param::Int(Some(v))
    }
}
impl From<i32> for Param {
    fn from(v: i32) -> Self {
        Param::Int(Some(v.into()))
    }
}
impl From<bool> for Param {
    fn from(v: bool) -> Self {
        Param::Int(Some(v.into()))
    }
}
impl From<Option<i64>> for Param {
    fn from(v: Option<i64>) -> Self {
        Param::Int(v)
    }
}
impl From<f64> for Param {
    fn from(v: f64) -> Self {
        Param::Real(Some(v))
    }
}
impl From<Option<f64>> for Param {
    fn from(v: Option<f64>) -> Self {
        Param::Real(v)
    }
}
impl From<&str> for Param {
    fn from(v: &str) -> Self {
        Param::Text(Some(v.to_owned()))
    }
}
impl From<&String> for Param {
    fn from(v: &String) -> Self {
        Param::Text(Some(v.clone()))
    }
}
impl From<String> for Param {
    fn from(v: String) -> Self {
        Param::Text(Some(v))
    }
}
impl From<Option<&str>> for Param {
    fn from(v: Option<&str>) -> Self {
        Param::Text(v.map(str::to_owned))
    }
}
impl From<Option<String>> for Param {
    fn from(v: Option<String>) -> Self {
        Param::Text(v)
    }
}
impl From<&Option<String>> for Param {
    fn from(v: &Option<String>) -> Self {
        Param::Text(v.clone())
    }
}

/// A column's value as a Rust type.
pub trait FromValue: Sized {
    fn from_value(v: Value) -> Result<Self, String>;
}

impl FromValue for i64 {
    fn from_value(v: Value) -> Result<Self, String> {
        match v {
            Value::Int(i) => Ok(i),
            other => Err(format!("expected an integer, found {other:?}")),
        }
    }
}
impl FromValue for i32 {
    fn from_value(v: Value) -> Result<Self, String> {
        i32::try_from(i64::from_value(v)?).map_err(|e| e.to_string())
    }
}
impl FromValue for bool {
    fn from_value(v: Value) -> Result<Self, String> {
        Ok(i64::from_value(v)? != 0)
    }
}
impl FromValue for f64 {
    fn from_value(v: Value) -> Result<Self, String> {
        match v {
            Value::Real(r) => Ok(r),
            Value::Int(i) => Ok(i as f64),
            other => Err(format!("expected a number, found {other:?}")),
        }
    }
}
impl FromValue for String {
    fn from_value(v: Value) -> Result<Self, String> {
        match v {
            Value::Text(s) => Ok(s),
            other => Err(format!("expected text, found {other:?}")),
        }
    }
}
impl FromValue for Vec<u8> {
    fn from_value(v: Value) -> Result<Self, String> {
        match v {
            Value::Blob(b) => Ok(b),
            Value::Text(s) => Ok(s.into_bytes()),
            other => Err(format!("expected bytes, found {other:?}")),
        }
    }
}
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: Value) -> Result<Self, String> {
        match v {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// A row as a tuple of `FromValue`s.
pub trait FromRow: Sized {
    fn from_row(row: Vec<Value>) -> DomainResult<Self>;
}

macro_rules! tuple_from_row {
    ($n:expr; $($t:ident),+) => {
        impl<$($t: FromValue),+> FromRow for ($($t,)+) {
            fn from_row(row: Vec<Value>) -> DomainResult<Self> {
                if row.len() != $n {
                    return Err(DomainError::Internal(format!("a row of {} columns read as {}", row.len(), $n)));
                }
                let mut it = row.into_iter();
                Ok(($(
                    $t::from_value(it.next().unwrap_or(Value::Null)).map_err(DomainError::Internal)?,
                )+))
            }
        }
    };
}
tuple_from_row!(1; A);
tuple_from_row!(2; A, B);
tuple_from_row!(3; A, B, C);
tuple_from_row!(4; A, B, C, D);
tuple_from_row!(5; A, B, C, D, E);
tuple_from_row!(6; A, B, C, D, E, F);
tuple_from_row!(7; A, B, C, D, E, F, G);
tuple_from_row!(8; A, B, C, D, E, F, G, H);
tuple_from_row!(9; A, B, C, D, E, F, G, H, I);
tuple_from_row!(10; A, B, C, D, E, F, G, H, I, J);
tuple_from_row!(11; A, B, C, D, E, F, G, H, I, J, K);
tuple_from_row!(12; A, B, C, D, E, F, G, H, I, J, K, L);
tuple_from_row!(13; A, B, C, D, E, F, G, H, I, J, K, L, M);
tuple_from_row!(14; A, B, C, D, E, F, G, H, I, J, K, L, M, N);
tuple_from_row!(15; A, B, C, D, E, F, G, H, I, J, K, L, M, N, O);
tuple_from_row!(16; A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P);
tuple_from_row!(17; A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q);
tuple_from_row!(18; A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R);
tuple_from_row!(19; A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S);
tuple_from_row!(20; A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T);
tuple_from_row!(21; A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U);
tuple_from_row!(22; A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V);
tuple_from_row!(23; A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W);
tuple_from_row!(24; A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X);

/// sqlx's connection (either engine): a pooled connection, or a transaction through `&mut *tx`.
impl Exec for sqlx::AnyConnection {
    fn dialect(&self) -> Dialect {
        Dialect::of_conn(self)
    }

    fn run<'a>(&'a mut self, sql: &'a str, params: Vec<Param>) -> BoxFuture<'a, DomainResult<Done>> {
        Box::pin(async move {
            let mut q = sqlx::query(sql);
            for p in params {
                q = match p {
                    Param::Int(v) => q.bind(v),
                    Param::Real(v) => q.bind(v),
                    Param::Text(v) => q.bind(v),
                };
            }
            let mut done = Done::default();
            let mut answers = self.fetch_many(q);
            while let Some(answer) = answers.try_next().await? {
                match answer {
                    Either::Left(result) => done.affected += result.rows_affected(),
                    Either::Right(row) => done.rows.push(values_of(&row)?),
                }
            }
            Ok(done)
        })
    }
}

/// A pooled connection (a read outside any write, or a transaction's connection).
impl Exec for sqlx::pool::PoolConnection<sqlx::Any> {
    fn dialect(&self) -> Dialect {
        Dialect::of_conn(self)
    }

    fn run<'a>(&'a mut self, sql: &'a str, params: Vec<Param>) -> BoxFuture<'a, DomainResult<Done>> {
        let conn: &'a mut sqlx::AnyConnection = self;
        conn.run(sql, params)
    }
}

/// A sqlx row as values, by each value's own type.
fn values_of(row: &sqlx::any::AnyRow) -> DomainResult<Vec<Value>> {
    let mut values = Vec::with_capacity(row.len());
    for i in 0..row.len() {
        let raw = row.try_get_raw(i)?;
        if raw.is_null() {
            values.push(Value::Null);
            continue;
        }
        let kind = raw.type_info().kind();
        values.push(match kind {
            AnyTypeInfoKind::Bool => Value::Int(row.try_get::<bool, _>(i)?.into()),
            AnyTypeInfoKind::SmallInt | AnyTypeInfoKind::Integer | AnyTypeInfoKind::BigInt => Value::Int(row.try_get::<i64, _>(i)?),
            AnyTypeInfoKind::Real | AnyTypeInfoKind::Double => Value::Real(row.try_get::<f64, _>(i)?),
            AnyTypeInfoKind::Text => Value::Text(row.try_get::<String, _>(i)?),
            AnyTypeInfoKind::Blob => Value::Blob(row.try_get::<Vec<u8>, _>(i)?),
            AnyTypeInfoKind::Null => Value::Null,
        });
    }
    Ok(values)
}

/// Drives a future that never waits (every call it makes answers at once: the SQLite writer's
/// connection) to its end on the calling thread. `None` if it waited on something else.
pub fn complete_now<T>(future: BoxFuture<'_, T>) -> Option<T> {
    let mut future = future;
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match future.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(v) => Some(v),
        std::task::Poll::Pending => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_decode_into_tuples_with_nulls() {
        let row = vec![Value::Int(7), Value::Null, Value::Text("a".into()), Value::Real(0.25)];
        let (a, b, c, d): (i64, Option<String>, String, f64) = FromRow::from_row(row).unwrap();
        assert_eq!((a, b, c.as_str(), d), (7, None, "a", 0.25));
    }

    #[test]
    fn a_row_of_the_wrong_width_is_an_error() {
        let r: DomainResult<(i64,)> = FromRow::from_row(vec![Value::Int(1), Value::Int(2)]);
        assert!(r.is_err());
    }

    #[test]
    fn a_future_that_waits_is_not_completed_now() {
        let waits: BoxFuture<'_, ()> = Box::pin(std::future::pending());
        assert!(complete_now(waits).is_none());
        assert_eq!(complete_now(Box::pin(async { 3 })), Some(3));
    }
}
