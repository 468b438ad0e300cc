//! Time and randomness are injected so tests can fix them.
use std::sync::Mutex;

use chrono::{DateTime, TimeZone, Utc};

pub trait Clock: Send + Sync {
    fn now(&self) -> DateTime<Utc>;
}

pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock tests move by hand.
pub struct ManualClock(Mutex<DateTime<Utc>>);

impl ManualClock {
    pub fn at(unix: i64) -> ManualClock {
        ManualClock(Mutex::new(Utc.timestamp_opt(unix, 0).single().expect("valid timestamp")))
    }
    pub fn set(&self, unix: i64) {
        *self.0.lock().expect("clock lock") = Utc.timestamp_opt(unix, 0).single().expect("valid timestamp");
    }
    pub fn advance(&self, secs: i64) {
        let mut t = self.0.lock().expect("clock lock");
        *t += chrono::Duration::seconds(secs);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().expect("clock lock")
    }
}

pub trait Random: Send + Sync {
    fn fill(&self, buf: &mut [u8]);
}

/// The operating system's CSPRNG.
pub struct OsRandom;

impl Random for OsRandom {
    fn fill(&self, buf: &mut [u8]) {
        getrandom::getrandom(buf).expect("operating system random source");
    }
}

pub fn random_hex(random: &dyn Random, bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    random.fill(&mut buf);
    hex::encode(buf)
}

/// RFC 3339 in UTC with a `Z`, seconds precision.
pub fn rfc3339(unix: i64) -> String {
    Utc.timestamp_opt(unix, 0).single().map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)).unwrap_or_default()
}

/// `YYYY-MM-DD` of a unix time (UTC).
pub fn utc_day(unix: i64) -> chrono::NaiveDate {
    Utc.timestamp_opt(unix, 0).single().map(|t| t.date_naive()).unwrap_or_default()
}
