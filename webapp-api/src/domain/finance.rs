//! The books: per UTC day and in total, the Stars the shop took and gave back, what they are
//! worth at `STAR_USD`, what the market charged and refunded, what was delivered, and what
//! players could still take out. `fragbox finance` and the admins' `/stats` print the same
//! numbers. Reads only, straight from the pool: nothing here takes the write path.
//!
//! Where each number comes from:
//! - Stars received: payments credited (`success`, or `refunded` later) on the day they were
//!   paid (`paid_at`), and payments that matched nothing (`orphan_payments`: Telegram took the
//!   Stars all the same) on the day they arrived. Refunded: on the day of the refund
//!   (`refunded_at`). Demo users' payments count only in demo mode (as in `/stats`).
//! - The market charged: purchase attempts that bought (`market_attempts.outcome = 'bought'`),
//!   on their day, at what each counts (the price paid; the cap while the market has not said
//!   it). Refunded: a purchase whose offer expired (`bounced`, `offer_expired`) or that the
//!   seller reversed (`reversed`), the same amount, on the day the withdrawal moved
//!   (`resolved_at`). Attempts whose outcome is still unknown are apart (`in_doubt`).
//! - Delivered: withdrawals delivered that day (`delivered_at`) at the price paid; of those, the
//!   ones still settling now (Steam can still reverse them); reversed by the seller (refunded)
//!   and by the player (not refunded) on the day it happened.
//! - Liability (now): withdrawable tokens held (the paid part of balances, or every token when
//!   `WITHDRAW_PAID_ONLY` is off) plus the token value of withdrawable skins still held (here,
//!   back after a failed withdrawal, or in a withdrawal nothing has bought yet), at
//!   `TOKENS_PER_USD`.
use std::collections::BTreeMap;

use chrono::{Duration, NaiveDate};

use crate::domain::clock::utc_day;
use crate::domain::money::{StarUsd, Tokens, Usd};
use crate::domain::store::{self, query, Exec, Pool};
use crate::domain::DomainResult;

/// The longest report, in days.
pub const MAX_DAYS: u32 = 366;

/// What the books read from the settings.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// `STAR_USD`.
    pub star_usd: StarUsd,
    /// `TOKENS_PER_USD` (hundredths, like every `Tokens`).
    pub tokens_per_usd: Tokens,
    /// `WITHDRAW_PAID_ONLY`.
    pub paid_only: bool,
    /// Demo mode: demo users' payments and holdings count.
    pub demo: bool,
}

/// One UTC day of the books, or their sum.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flows {
    pub stars_received: i64,
    pub stars_refunded: i64,
    /// (received − refunded) × `STAR_USD`, rounded once to the cent.
    pub stars_usd: Usd,
    /// What the market charged.
    pub market_charged: Usd,
    /// What the market gave back (offers that expired, seller reversals).
    pub market_refunded: Usd,
    /// Reserved for purchases whose outcome the market has not told yet (not in the spend).
    pub market_in_doubt: Usd,
    pub delivered: Usd,
    /// Of what was delivered, what is still settling (reversible in Steam).
    pub settling: Usd,
    /// Reversed by the seller after delivery: back to the player, refunded to the shop.
    pub reversed: Usd,
    /// Reversed by the player after delivery: gone, and not refunded.
    pub player_reversed: Usd,
}

impl Flows {
    /// What the market charged net of what it refunded.
    pub fn market_spend(&self) -> Usd {
        Usd::from_cents(self.market_charged.cents() - self.market_refunded.cents())
    }

    /// `stars_usd` − `market_spend`.
    pub fn margin(&self) -> Usd {
        Usd::from_cents(self.stars_usd.cents() - self.market_spend().cents())
    }

    fn add(&mut self, o: &Flows) {
        let sum = |a: Usd, b: Usd| Usd::from_cents(a.cents() + b.cents());
        self.stars_received += o.stars_received;
        self.stars_refunded += o.stars_refunded;
        self.market_charged = sum(self.market_charged, o.market_charged);
        self.market_refunded = sum(self.market_refunded, o.market_refunded);
        self.market_in_doubt = sum(self.market_in_doubt, o.market_in_doubt);
        self.delivered = sum(self.delivered, o.delivered);
        self.settling = sum(self.settling, o.settling);
        self.reversed = sum(self.reversed, o.reversed);
        self.player_reversed = sum(self.player_reversed, o.player_reversed);
    }
}

/// A day of the books.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Day {
    pub date: NaiveDate,
    pub flows: Flows,
}

/// What the total adds to the days' sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Total {
    pub from: NaiveDate,
    pub to: NaiveDate,
    pub flows: Flows,
    /// What players could still take out, now.
    pub liability: Usd,
    /// The same, in tokens: withdrawable tokens held and withdrawable skins held.
    pub liability_tokens: Tokens,
    pub liability_skins: Tokens,
    /// Everything settling now (delivered on any day, still reversible), at the price paid.
    pub settling_now: Usd,
}

/// The books over `days` UTC days ending with today's.
#[derive(Clone, Debug)]
pub struct Books {
    pub settings: Settings,
    pub days: Vec<Day>,
    pub total: Total,
}

/// Reads the books for the `days` UTC days up to and including the day of `now` (1 to
/// `MAX_DAYS`; anything else is clamped), in one read (one snapshot where the store has them).
pub async fn books(pool: &Pool, settings: Settings, now: i64, days: u32) -> DomainResult<Books> {
    let days = days.clamp(1, MAX_DAYS);
    let to = utc_day(now);
    let from = to - Duration::days(i64::from(days) - 1);
    let window = Window {
        start: day_start(from),
        end: day_start(to + Duration::days(1)),
        first: from.format("%Y-%m-%d").to_string(),
        last: to.format("%Y-%m-%d").to_string(),
        demo: i64::from(settings.demo),
        paid_only: i64::from(settings.paid_only),
    };
    let rows = store::read(pool, None, move |c| Box::pin(async move { rows_in(c, &window).await })).await?;
    let mut by_day: BTreeMap<NaiveDate, Flows> = (0..days).map(|i| (from + Duration::days(i64::from(i)), Flows::default())).collect();
    // Stars in: credited payments on the day they were paid, orphans on the day they came.
    for (stars, when) in rows.paid {
        put(&mut by_day, utc_day(when), &|f| f.stars_received += stars);
    }
    for (stars, when) in rows.refunded {
        put(&mut by_day, utc_day(when), &|f| f.stars_refunded += stars);
    }
    // The market: what it charged, on the attempt's budget day (`YYYY-MM-DD`, UTC).
    for (cents, day, outcome) in rows.attempts {
        let Ok(date) = NaiveDate::parse_from_str(&day, "%Y-%m-%d") else { continue };
        let usd = Usd::from_cents(cents);
        if outcome == "bought" {
            put(&mut by_day, date, &|f| f.market_charged = plus(f.market_charged, usd));
        } else {
            put(&mut by_day, date, &|f| f.market_in_doubt = plus(f.market_in_doubt, usd));
        }
    }
    // What came back (expired offers, seller reversals) on the day the withdrawal moved, at what
    // its purchase counted; and reversals by the player, which nobody refunds.
    for (cents, when, state) in rows.back {
        let usd = Usd::from_cents(cents);
        match state.as_str() {
            "player_reversed" => put(&mut by_day, utc_day(when), &|f| f.player_reversed = plus(f.player_reversed, usd)),
            "reversed" => put(&mut by_day, utc_day(when), &|f| {
                f.market_refunded = plus(f.market_refunded, usd);
                f.reversed = plus(f.reversed, usd);
            }),
            _ => put(&mut by_day, utc_day(when), &|f| f.market_refunded = plus(f.market_refunded, usd)),
        }
    }
    // Delivered that day, at the price paid; of those, the ones still settling.
    for (cents, when, state) in rows.delivered {
        let usd = Usd::from_cents(cents);
        put(&mut by_day, utc_day(when), &|f| {
            f.delivered = plus(f.delivered, usd);
            if state == "settling" {
                f.settling = plus(f.settling, usd);
            }
        });
    }

    let mut sum = Flows::default();
    let days: Vec<Day> = by_day
        .into_iter()
        .map(|(date, mut flows)| {
            flows.stars_usd = settings.star_usd.usd(flows.stars_received - flows.stars_refunded);
            sum.add(&flows);
            Day { date, flows }
        })
        .collect();
    // Rounded once on the total, like each day.
    sum.stars_usd = settings.star_usd.usd(sum.stars_received - sum.stars_refunded);

    let (liability_tokens, liability_skins) = (Tokens(rows.tokens), Tokens(rows.skins));
    let liability = Usd::from_tokens(Tokens(liability_tokens.0 + liability_skins.0), settings.tokens_per_usd).unwrap_or(Usd::ZERO);
    Ok(Books {
        settings,
        days,
        total: Total {
            from,
            to,
            flows: sum,
            liability,
            liability_tokens,
            liability_skins,
            settling_now: Usd::from_cents(rows.settling_now),
        },
    })
}

/// What the books read: the window's bounds (seconds; budget days as `YYYY-MM-DD`) and whom
/// they count.
struct Window {
    start: i64,
    end: i64,
    first: String,
    last: String,
    demo: i64,
    paid_only: i64,
}

/// The rows the books are made of.
struct Rows {
    paid: Vec<(i64, i64)>,
    refunded: Vec<(i64, i64)>,
    attempts: Vec<(i64, String, String)>,
    back: Vec<(i64, i64, String)>,
    delivered: Vec<(i64, i64, String)>,
    settling_now: i64,
    /// Withdrawable tokens held, and the token value of withdrawable skins held, now.
    tokens: i64,
    skins: i64,
}

async fn rows_in(c: &mut dyn Exec, w: &Window) -> DomainResult<Rows> {
    let paid = query(
        "SELECT p.stars, p.paid_at FROM payments p JOIN users u ON u.id = p.user_id
         WHERE p.status IN ('success', 'refunded') AND p.paid_at >= $1 AND p.paid_at < $2 AND (u.is_demo = 0 OR $3 = 1)
         UNION ALL
         SELECT o.stars, o.created_at FROM orphan_payments o LEFT JOIN users u ON u.id = o.user_id
         WHERE o.created_at >= $1 AND o.created_at < $2 AND (u.is_demo IS NULL OR u.is_demo = 0 OR $3 = 1)",
    )
    .bind(w.start)
    .bind(w.end)
    .bind(w.demo)
    .fetch_all(c)
    .await?;
    let refunded = query(
        "SELECT p.stars, p.refunded_at FROM payments p JOIN users u ON u.id = p.user_id
         WHERE p.status = 'refunded' AND p.refunded_at >= $1 AND p.refunded_at < $2 AND (u.is_demo = 0 OR $3 = 1)
         UNION ALL
         SELECT o.stars, o.refunded_at FROM orphan_payments o LEFT JOIN users u ON u.id = o.user_id
         WHERE o.refunded_at >= $1 AND o.refunded_at < $2 AND (u.is_demo IS NULL OR u.is_demo = 0 OR $3 = 1)",
    )
    .bind(w.start)
    .bind(w.end)
    .bind(w.demo)
    .fetch_all(c)
    .await?;
    let attempts = query("SELECT spent_cents, day, outcome FROM market_attempts WHERE outcome IN ('bought', 'buying', 'unknown') AND day >= $1 AND day <= $2").bind(w.first.clone()).bind(w.last.clone()).fetch_all(c).await?;
    let back = query(
        "SELECT a.spent_cents, COALESCE(w.resolved_at, w.market_updated_at), w.market_state
         FROM withdrawals w JOIN market_attempts a ON a.custom_id = w.custom_id AND a.outcome = 'bought'
         WHERE ((w.market_state = 'bounced' AND w.market_reason = 'offer_expired') OR w.market_state = 'reversed')
           AND COALESCE(w.resolved_at, w.market_updated_at) >= $1 AND COALESCE(w.resolved_at, w.market_updated_at) < $2
         UNION ALL
         SELECT COALESCE(w.price_paid_cents, a.spent_cents, 0), w.market_updated_at, w.market_state
         FROM withdrawals w LEFT JOIN market_attempts a ON a.custom_id = w.custom_id AND a.outcome = 'bought'
         WHERE w.market_state = 'player_reversed' AND w.market_updated_at >= $1 AND w.market_updated_at < $2",
    )
    .bind(w.start)
    .bind(w.end)
    .fetch_all(c)
    .await?;
    let delivered = query(
        "SELECT COALESCE(w.price_paid_cents, a.spent_cents, 0), w.delivered_at, w.market_state
         FROM withdrawals w LEFT JOIN market_attempts a ON a.custom_id = w.custom_id AND a.outcome = 'bought'
         WHERE w.delivered_at >= $1 AND w.delivered_at < $2",
    )
    .bind(w.start)
    .bind(w.end)
    .fetch_all(c)
    .await?;
    let (settling_now,): (i64,) = query(
        "SELECT CAST(COALESCE(SUM(COALESCE(w.price_paid_cents, a.spent_cents, 0)), 0) AS BIGINT)
         FROM withdrawals w LEFT JOIN market_attempts a ON a.custom_id = w.custom_id AND a.outcome = 'bought'
         WHERE w.market_state = 'settling'",
    )
    .fetch_one(c)
    .await?;
    let (tokens,): (i64,) = query(
        "SELECT CAST(COALESCE(SUM(CASE WHEN $2 = 1 THEN balance - bonus_balance ELSE balance END), 0) AS BIGINT)
         FROM users WHERE is_demo = 0 OR $1 = 1",
    )
    .bind(w.demo)
    .bind(w.paid_only)
    .fetch_one(c)
    .await?;
    // Skins here (received, or back after a failed withdrawal), and skins in a withdrawal that
    // nothing has bought yet (waiting for an operator or the market): a purchase made is spent.
    let (skins,): (i64,) = query(
        "SELECT CAST(COALESCE(SUM(i.token_price), 0) AS BIGINT)
         FROM inventory_items i JOIN users u ON u.id = i.user_id
         WHERE (u.is_demo = 0 OR $1 = 1) AND ($2 = 0 OR i.bonus_cost = 0)
           AND (i.status IN ('received', 'error')
                OR (i.status = 'pending' AND EXISTS (
                      SELECT 1 FROM withdrawals w WHERE w.inventory_item_id = i.id AND w.status = 'pending'
                        AND (w.market_state IS NULL OR w.market_state IN ('queued', 'manual'))
                        AND NOT EXISTS (SELECT 1 FROM market_attempts a WHERE a.withdrawal_id = w.id
                                          AND a.outcome IN ('buying', 'unknown', 'bought')))))",
    )
    .bind(w.demo)
    .bind(w.paid_only)
    .fetch_one(c)
    .await?;
    Ok(Rows { paid, refunded, attempts, back, delivered, settling_now, tokens, skins })
}

/// Applies `f` to the flows of `date`, when the report covers it.
fn put(by_day: &mut BTreeMap<NaiveDate, Flows>, date: NaiveDate, f: &dyn Fn(&mut Flows)) {
    if let Some(flows) = by_day.get_mut(&date) {
        f(flows);
    }
}

fn plus(a: Usd, b: Usd) -> Usd {
    Usd::from_cents(a.cents() + b.cents())
}

/// Unix seconds of a UTC day's midnight.
fn day_start(date: NaiveDate) -> i64 {
    date.and_hms_opt(0, 0, 0).map(|t| t.and_utc().timestamp()).unwrap_or(0)
}

/// Dollars as a JSON number's text with 2 decimals: `12.30`, `-0.05`.
pub fn usd_number(usd: Usd) -> String {
    let c = usd.cents();
    let sign = if c < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", c.unsigned_abs() / 100, c.unsigned_abs() % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_margin_is_stars_less_the_net_market_spend() {
        let f = Flows {
            stars_received: 375,
            stars_refunded: 125,
            stars_usd: StarUsd::from_micros(13_000).usd(250),
            market_charged: Usd::from_cents(250),
            market_refunded: Usd::from_cents(100),
            ..Flows::default()
        };
        assert_eq!(f.stars_usd, Usd::from_cents(325));
        assert_eq!(f.market_spend(), Usd::from_cents(150));
        assert_eq!(f.margin(), Usd::from_cents(175));
    }

    #[test]
    fn dollars_print_as_numbers_with_two_decimals() {
        assert_eq!(usd_number(Usd::from_cents(1230)), "12.30");
        assert_eq!(usd_number(Usd::from_cents(-5)), "-0.05");
        assert_eq!(usd_number(Usd::ZERO), "0.00");
        assert!(serde_json::from_str::<serde_json::Value>(&usd_number(Usd::from_cents(-5))).is_ok());
    }

    #[test]
    fn a_day_starts_at_utc_midnight() {
        let d = NaiveDate::from_ymd_opt(2026, 11, 27).unwrap();
        assert_eq!(utc_day(day_start(d)), d);
        assert_eq!(utc_day(day_start(d) - 1), d - Duration::days(1));
    }
}
