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

/// US dollars counted in cents: market prices, price feeds, delivery caps, the audit and the books.
/// A market's finer units (market.csgo.com counts thousandths) stay inside its adapter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Usd(i64);

impl Usd {
    pub const ZERO: Usd = Usd(0);

    pub const fn from_cents(cents: i64) -> Usd {
        Usd(cents)
    }

    pub const fn cents(self) -> i64 {
        self.0
    }

    /// The most we pay for something whose market price is `self`: the price raised by
    /// `overpay_bp` basis points (1000 = 10 %), rounded down so the cap never exceeds the rule.
    pub fn cap(self, overpay_bp: u32) -> Usd {
        let raised = i128::from(self.0) * (10_000 + i128::from(overpay_bp)) / 10_000;
        Usd(i64::try_from(raised).unwrap_or(i64::MAX))
    }
}

/// The one conversion between tokens and dollars, at `tokens_per_usd` (tokens per dollar, in
/// token hundredths like every `Tokens`), with one rounding rule: to the nearest unit, halves
/// away from zero. A price converted one way and back lands where it started whenever a token is
/// worth at most a cent, so a variant priced from a dollar quote caps its purchase at that quote.
/// `None` when the result does not fit (an absurd quote is an error, never a wrapped number).
impl Usd {
    pub fn to_tokens(self, tokens_per_usd: Tokens) -> Option<Tokens> {
        div_nearest(i128::from(self.0) * i128::from(tokens_per_usd.0), 100).map(Tokens)
    }

    pub fn from_tokens(tokens: Tokens, tokens_per_usd: Tokens) -> Option<Usd> {
        if tokens_per_usd.0 <= 0 {
            return None;
        }
        div_nearest(i128::from(tokens.0) * 100, i128::from(tokens_per_usd.0)).map(Usd)
    }
}

/// `n / d` rounded to the nearest integer, halves away from zero (`d > 0`); `None` past `i64`.
fn div_nearest(n: i128, d: i128) -> Option<i64> {
    let q = if n >= 0 { (n + d / 2) / d } else { -((-n + d / 2) / d) };
    i64::try_from(q).ok()
}

impl fmt::Display for Usd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}${}.{:02}", abs / 100, abs % 100)
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
