//! The price rules, as pure functions: absolute bounds per rarity, the jump measured against a
//! baseline, the cross-check between two sources, and what is worth telling the admins.
//! `docs/decisions.md` ("Prices that cannot be poisoned") gives the reasons for each figure.
use crate::domain::money::Usd;
use crate::domain::Tokens;

/// A move over this factor (up or down) from the baseline waits for an operator.
pub const JUMP_FACTOR: i64 = 3;
/// Two sources further apart than this factor (either way) hold the price.
pub const CROSS_FACTOR: i64 = 2;
/// An applied change over this share of the old price (basis points) is told to the admins.
pub const REPORT_OVER_BP: i64 = 2_500;
/// The baseline window: a move is measured against the price in effect this long ago, or
/// against an operator's acceptance since.
pub const BASELINE_WINDOW_SECS: i64 = 7 * 86_400;
/// A change still held this long after it was last told is told again.
pub const REPORT_AGAIN_SECS: i64 = 7 * 86_400;

/// The dollar range a variant of one rarity may be priced in, ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub floor: Usd,
    pub ceiling: Usd,
}

impl Bounds {
    pub fn contains(&self, price: Usd) -> bool {
        self.floor <= price && price <= self.ceiling
    }
}

const fn usd(cents: i64) -> Usd {
    Usd::from_cents(cents)
}

/// Floor and ceiling per rarity (the catalog's tiers). The floors sit well under the cheapest
/// real listing of the tier, the ceilings an order of magnitude over the dearest variant of the
/// tier in the shop's cases: only a broken or poisoned quote falls outside.
pub const BOUNDS: [(&str, Bounds); 5] = [
    ("milspec", Bounds { floor: usd(1), ceiling: usd(200_000) }),
    ("restricted", Bounds { floor: usd(1), ceiling: usd(500_000) }),
    ("classified", Bounds { floor: usd(3), ceiling: usd(1_000_000) }),
    ("covert", Bounds { floor: usd(20), ceiling: usd(2_500_000) }),
    ("extraordinary", Bounds { floor: usd(2_000), ceiling: usd(25_000_000) }),
];

/// The bounds of a rarity; `None` for a rarity the catalog does not have (it refuses such items).
pub fn bounds(rarity: &str) -> Option<Bounds> {
    BOUNDS.iter().find(|b| b.0 == rarity).map(|b| b.1)
}

/// Whether `new` is more than ×`JUMP_FACTOR` away from `baseline`, either way.
pub fn is_jump(baseline: Tokens, new: Tokens) -> bool {
    let (o, n) = (i128::from(baseline.0), i128::from(new.0));
    n > o * i128::from(JUMP_FACTOR) || n * i128::from(JUMP_FACTOR) < o
}

/// Whether two sources' quotes for one name are more than ×`CROSS_FACTOR` apart, either way.
pub fn disagree(a: Usd, b: Usd) -> bool {
    let (a, b) = (i128::from(a.cents()), i128::from(b.cents()));
    a > b * i128::from(CROSS_FACTOR) || b > a * i128::from(CROSS_FACTOR)
}

/// Whether a change from `old` to `new` moves more than `REPORT_OVER_BP` of `old`.
pub fn worth_reporting(old: Tokens, new: Tokens) -> bool {
    let (o, n) = (i128::from(old.0), i128::from(new.0));
    (n - o).abs() * 10_000 > o * i128::from(REPORT_OVER_BP)
}

/// The change in whole percent of `old` (rounded toward zero), for messages.
pub fn change_percent(old: Tokens, new: Tokens) -> i128 {
    let (o, n) = (i128::from(old.0), i128::from(new.0));
    if o == 0 {
        return 0;
    }
    (n - o) * 100 / o
}

/// What a quote is measured against: the last price an operator accepted within the window,
/// else the price in effect when the window began, else the committed default.
pub fn baseline(accepted_in_window: Option<Tokens>, at_window_start: Option<Tokens>, default: Tokens) -> Tokens {
    accepted_in_window.or(at_window_start).unwrap_or(default)
}

/// Whether a stored price can be served: positive, and worth (at `tokens_per_usd`) a dollar
/// amount inside its rarity's bounds. `Err` says why not.
pub fn usable(price: Tokens, rarity: &str, tokens_per_usd: Tokens) -> Result<(), String> {
    let Some(b) = bounds(rarity) else { return Err(format!("unknown rarity {rarity}")) };
    let Some(dollars) = Usd::from_tokens(price, tokens_per_usd).filter(|_| price.0 > 0) else {
        return Err(format!("stored price {price} is not a price"));
    };
    if !b.contains(dollars) {
        return Err(format!("stored price {price} ({dollars}) is outside {}–{} for {rarity}", b.floor, b.ceiling));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jump_is_over_three_times_either_way() {
        assert!(!is_jump(Tokens(100), Tokens(300)));
        assert!(is_jump(Tokens(100), Tokens(301)));
        assert!(!is_jump(Tokens(300), Tokens(100)));
        assert!(is_jump(Tokens(301), Tokens(100)));
        assert!(is_jump(Tokens(1), Tokens(i64::MAX)), "no overflow at the extremes");
    }

    #[test]
    fn two_sources_disagree_past_twice_either_way() {
        assert!(!disagree(Usd::from_cents(100), Usd::from_cents(200)));
        assert!(disagree(Usd::from_cents(100), Usd::from_cents(201)));
        assert!(disagree(Usd::from_cents(201), Usd::from_cents(100)));
        assert!(disagree(Usd::from_cents(1), Usd::from_cents(i64::MAX)));
    }

    #[test]
    fn only_changes_over_a_quarter_are_reported() {
        assert!(!worth_reporting(Tokens(400), Tokens(500)));
        assert!(worth_reporting(Tokens(400), Tokens(501)));
        assert!(!worth_reporting(Tokens(400), Tokens(300)));
        assert!(worth_reporting(Tokens(400), Tokens(299)));
        assert_eq!(change_percent(Tokens(400), Tokens(800)), 100);
        assert_eq!(change_percent(Tokens(400), Tokens(100)), -75);
    }

    #[test]
    fn the_baseline_is_an_acceptance_in_the_window_then_the_price_at_its_start_then_the_default() {
        assert_eq!(baseline(Some(Tokens(5)), Some(Tokens(7)), Tokens(9)), Tokens(5));
        assert_eq!(baseline(None, Some(Tokens(7)), Tokens(9)), Tokens(7));
        assert_eq!(baseline(None, None, Tokens(9)), Tokens(9));
    }

    #[test]
    fn every_rarity_of_the_catalog_has_bounds_and_they_hold_the_committed_defaults() {
        for (rarity, _) in crate::domain::catalog::TIER_BP {
            assert!(bounds(rarity).is_some(), "{rarity}");
        }
        let catalog =
            crate::domain::catalog::Catalog::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/catalog")).unwrap();
        for item in &catalog.items {
            for vp in &item.prices {
                assert_eq!(usable(vp.price, &item.rarity, Tokens(10_000)), Ok(()), "{}", vp.variant.key(&item.id));
            }
        }
    }

    #[test]
    fn a_stored_price_outside_its_bounds_or_not_a_price_is_unusable() {
        let rate = Tokens(10_000);
        assert!(usable(Tokens(100), "milspec", rate).is_ok());
        assert!(usable(Tokens(0), "milspec", rate).is_err());
        assert!(usable(Tokens(-5), "milspec", rate).is_err());
        assert!(usable(Tokens(i64::MAX), "milspec", rate).is_err());
        assert!(usable(Tokens(100_000), "extraordinary", rate).is_err(), "a $10 knife");
        assert!(usable(Tokens(5_000_000), "extraordinary", rate).is_ok());
        assert!(usable(Tokens(100), "mythical", rate).is_err());
    }
}
