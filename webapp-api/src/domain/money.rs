//! Tokens are counted in hundredths (`i64`) and written as exact decimal JSON numbers.
use std::fmt;

use serde::{Serialize, Serializer};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tokens(pub i64);

impl Tokens {
    pub const ZERO: Tokens = Tokens(0);

    pub const fn whole(tokens: i64) -> Tokens {
        Tokens(tokens * 100)
    }

    pub fn minor(self) -> i64 {
        self.0
    }

    /// Parses `12`, `12.3`, `12.34`, `-5`: at most two decimals, nothing else.
    pub fn parse(s: &str) -> Option<Tokens> {
        let s = s.trim();
        let (neg, body) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let (int, frac) = match body.split_once('.') {
            Some((i, f)) => (i, f),
            None => (body, ""),
        };
        if int.is_empty() || int.len() > 15 || !int.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if frac.len() > 2 || !frac.bytes().all(|b| b.is_ascii_digit()) || (body.contains('.') && frac.is_empty()) {
            return None;
        }
        let whole: i64 = int.parse().ok()?;
        let mut cents: i64 = 0;
        for (i, b) in frac.bytes().enumerate() {
            cents += i64::from(b - b'0') * if i == 0 { 10 } else { 1 };
        }
        let v = whole.checked_mul(100)?.checked_add(cents)?;
        Some(Tokens(if neg { -v } else { v }))
    }
}

impl fmt::Display for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let (int, frac) = (abs / 100, abs % 100);
        match frac {
            0 => write!(f, "{sign}{int}"),
            f10 if f10 % 10 == 0 => write!(f, "{sign}{int}.{}", f10 / 10),
            _ => write!(f, "{sign}{int}.{frac:02}"),
        }
    }
}

impl Serialize for Tokens {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A raw JSON number written from the integer: no float ever sees the value.
        let raw = serde_json::value::RawValue::from_string(self.to_string()).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_print_as_exact_decimals() {
        assert_eq!(Tokens(100).to_string(), "1");
        assert_eq!(Tokens(1250).to_string(), "12.5");
        assert_eq!(Tokens(1205).to_string(), "12.05");
        assert_eq!(Tokens(35).to_string(), "0.35");
        assert_eq!(Tokens(-35).to_string(), "-0.35");
        assert_eq!(serde_json::to_string(&Tokens(123456789012345)).unwrap(), "1234567890123.45");
    }

    #[test]
    fn parsing_accepts_two_decimals_and_nothing_more() {
        assert_eq!(Tokens::parse("12"), Some(Tokens(1200)));
        assert_eq!(Tokens::parse("12.3"), Some(Tokens(1230)));
        assert_eq!(Tokens::parse("0.07"), Some(Tokens(7)));
        assert_eq!(Tokens::parse("-5"), Some(Tokens(-500)));
        for bad in ["", "1.234", "1.", ".5", "1e3", "abc", "1,5", "--1", "99999999999999999"] {
            assert_eq!(Tokens::parse(bad), None, "{bad}");
        }
    }
}
