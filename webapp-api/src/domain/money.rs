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

/// What one Telegram Star pays the operator, in millionths of a dollar (`STAR_USD`, `0.013` →
/// 13 000): Stars are counted whole, and a Star is worth a fraction of a cent, so the rate needs
/// finer units than `Usd`. Turned into dollars only through [`StarUsd::usd`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StarUsd(i64);

impl StarUsd {
    /// At most this many decimals of a dollar.
    pub const DECIMALS: u32 = 6;

    pub const fn from_micros(micros: i64) -> StarUsd {
        StarUsd(micros)
    }

    pub const fn micros(self) -> i64 {
        self.0
    }

    /// Parses `0.013`, `0.0125`, `1`: a positive dollar amount with at most six decimals, below
    /// a hundred dollars (nothing a Star could pay).
    pub fn parse(s: &str) -> Option<StarUsd> {
        let s = s.trim();
        let (int, frac) = s.split_once('.').unwrap_or((s, ""));
        let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if int.is_empty() || int.len() > 2 || frac.len() > Self::DECIMALS as usize || !digits(int) || !digits(frac) || s.ends_with('.') {
            return None;
        }
        let whole: i64 = int.parse().ok()?;
        let frac: i64 = if frac.is_empty() { 0 } else { format!("{frac:0<6}").parse().ok()? };
        let micros = whole * 1_000_000 + frac;
        (micros > 0).then_some(StarUsd(micros))
    }

    /// What `stars` Stars pay, in cents, rounded once to the nearest cent (halves away from zero).
    pub fn usd(self, stars: i64) -> Usd {
        Usd(div_nearest(i128::from(stars) * i128::from(self.0), 10_000).unwrap_or(if stars < 0 { i64::MIN } else { i64::MAX }))
    }
}

/// The rate as configured, without trailing zeros: `0.013`.
impl fmt::Display for StarUsd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (int, frac) = (self.0 / 1_000_000, self.0 % 1_000_000);
        if frac == 0 {
            return write!(f, "{int}");
        }
        let frac = format!("{frac:06}");
        write!(f, "{int}.{}", frac.trim_end_matches('0'))
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
    fn a_star_rate_parses_to_millionths_and_pays_whole_cents() {
        assert_eq!(StarUsd::parse("0.013"), Some(StarUsd::from_micros(13_000)));
        assert_eq!(StarUsd::parse("0.0125"), Some(StarUsd::from_micros(12_500)));
        assert_eq!(StarUsd::parse("1"), Some(StarUsd::from_micros(1_000_000)));
        for bad in ["", "0", "0.0", "-0.013", "0.0000001", ".013", "0.", "abc", "100", "0,013"] {
            assert_eq!(StarUsd::parse(bad), None, "{bad}");
        }
        assert_eq!(StarUsd::from_micros(13_000).to_string(), "0.013");
        assert_eq!(StarUsd::from_micros(1_000_000).to_string(), "1");
        let rate = StarUsd::from_micros(13_000);
        assert_eq!(rate.usd(125), Usd::from_cents(163), "1.625 dollars round half away from zero");
        assert_eq!(rate.usd(-125), Usd::from_cents(-163));
        assert_eq!(rate.usd(0), Usd::ZERO);
        assert_eq!(rate.usd(2500), Usd::from_cents(3250));
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
