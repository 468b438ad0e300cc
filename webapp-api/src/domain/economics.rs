//! A margin by construction: what a package's Stars earn the operator against the most the
//! tokens they buy can take out of the shop as skins bought on the market.
//!
//! For each package: the tokens that may leave as skins (`withdrawable_tokens`) ÷
//! `TOKENS_PER_USD` × the highest return to player among the cases on sale × (1 +
//! `MARKET_MAX_OVERPAY`) is the most the market can charge for what those tokens win; the
//! package's Stars × `STAR_USD` is what the operator is paid. A package that can pay out more
//! than it earns refuses `fragbox serve` (unless `ALLOW_LOSS=true`). The smallest package's paid
//! tokens must also pay for one open of the cheapest case, so a first purchase wins a skin that
//! may leave. The arithmetic is exact (integers, the payout rounded up); `docs/economics.md`
//! gives it with the default numbers.
use crate::domain::catalog::{Case, Catalog, Package};
use crate::domain::goods::EV_SCALE;
use crate::domain::money::{StarUsd, Tokens};

/// Billionths of a dollar: a Star earns about 13 million of them, so per-Star figures stay exact
/// enough to compare and to print.
const NANO_PER_USD: i128 = 1_000_000_000;

/// The settings the check reads.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// `STAR_USD`: what one Star pays the operator after Telegram's share.
    pub star_usd: StarUsd,
    /// `TOKENS_PER_USD` (hundredths, like every `Tokens`).
    pub tokens_per_usd: Tokens,
    /// `MARKET_MAX_OVERPAY` in basis points: the most paid over a skin's market price.
    pub max_overpay_bp: u32,
    /// `WITHDRAW_PAID_ONLY`: only skins won with paid tokens may leave.
    pub paid_only: bool,
}

/// The cases players can open: those an operator or the price rules took off sale are left out.
pub fn on_sale(catalog: &Catalog) -> impl Iterator<Item = &Case> {
    catalog.cases.iter().filter(|c| c.off_sale.is_none())
}

/// The tokens a package credits as paid. A package's `bonus` is credited as paid too
/// (`payments::record_paid`: one `Funds::Paid` credit of tokens + bonus), so it counts here.
pub fn paid_tokens(pack: &Package) -> Tokens {
    Tokens::whole(pack.tokens + pack.bonus)
}

/// The tokens of a package whose skins may leave: the paid ones, or all of them when
/// `WITHDRAW_PAID_ONLY` is off.
pub fn withdrawable_tokens(pack: &Package, paid_only: bool) -> Tokens {
    let all = Tokens::whole(pack.tokens + pack.bonus);
    if paid_only {
        paid_tokens(pack).min(all)
    } else {
        all
    }
}

/// The case that gives back the most per token spent: its expected drop value (hundredths ×
/// `EV_SCALE`) over its price (hundredths), an exact fraction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestReturn {
    pub case_id: String,
    pub value_scaled: i128,
    pub price: Tokens,
}

impl BestReturn {
    /// Return to player in basis points, rounded up (the check's side).
    pub fn rtp_bp_ceil(&self) -> i64 {
        let den = EV_SCALE * i128::from(self.price.0.max(1));
        ((self.value_scaled * 10_000 + den - 1) / den) as i64
    }
}

/// The highest return to player among the cases on sale; `None` when nothing is on sale.
pub fn best_return(catalog: &Catalog) -> Option<BestReturn> {
    let mut best: Option<BestReturn> = None;
    for case in on_sale(catalog) {
        // A case whose value cannot be computed is taken off sale at start (its price is unusable).
        let Some(value) = catalog.expected_value_scaled(case) else { continue };
        let better = match &best {
            None => true,
            // value / price > best.value / best.price, cross-multiplied.
            Some(b) => value * i128::from(b.price.0) > b.value_scaled * i128::from(case.price.0),
        };
        if better && case.price.0 > 0 {
            best = Some(BestReturn { case_id: case.id.clone(), value_scaled: value, price: case.price });
        }
    }
    best
}

/// One package's margin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageMargin {
    pub id: String,
    pub stars: i64,
    /// Tokens whose skins may leave.
    pub withdrawable: Tokens,
    /// What its Stars pay the operator, in billionths of a dollar.
    pub earned_nano: i128,
    /// The most the market can charge for what `withdrawable` wins, in billionths of a dollar
    /// (rounded up).
    pub payout_nano: i128,
}

impl PackageMargin {
    pub fn margin_nano(&self) -> i128 {
        self.earned_nano - self.payout_nano
    }

    /// The margin as a share of what the Stars earn, in basis points (rounded down; negative at
    /// a loss).
    pub fn margin_bp(&self) -> i64 {
        if self.earned_nano <= 0 {
            return if self.payout_nano > 0 { i64::MIN } else { 0 };
        }
        let m = self.margin_nano() * 10_000;
        let q = m.div_euclid(self.earned_nano);
        i64::try_from(q).unwrap_or(if q < 0 { i64::MIN } else { i64::MAX })
    }

    /// It can pay out more than its Stars earn.
    pub fn loses(&self) -> bool {
        self.payout_nano > self.earned_nano
    }
}

/// Whether the smallest package (fewest Stars) pays for one open of the cheapest case on sale
/// with its paid tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstOpen {
    pub package_id: String,
    pub stars: i64,
    pub paid: Tokens,
    pub case_id: String,
    pub price: Tokens,
}

impl FirstOpen {
    pub fn ok(&self) -> bool {
        self.paid >= self.price
    }
}

/// The check over a catalog and the settings.
#[derive(Clone, Debug)]
pub struct Report {
    pub settings: Settings,
    pub best: Option<BestReturn>,
    pub packages: Vec<PackageMargin>,
    /// `None` without packages or without cases.
    pub first_open: Option<FirstOpen>,
}

/// Runs the check.
pub fn check(catalog: &Catalog, settings: Settings) -> Report {
    let best = best_return(catalog);
    let packages = catalog.packages.iter().map(|p| margin(p, best.as_ref(), &settings)).collect();
    let smallest = catalog.packages.iter().min_by_key(|p| (p.stars, paid_tokens(p)));
    let cheapest = on_sale(catalog).min_by_key(|c| c.price);
    let first_open = match (smallest, cheapest) {
        (Some(p), Some(c)) => {
            Some(FirstOpen { package_id: p.id.clone(), stars: p.stars, paid: paid_tokens(p), case_id: c.id.clone(), price: c.price })
        }
        _ => None,
    };
    Report { settings, best, packages, first_open }
}

fn margin(pack: &Package, best: Option<&BestReturn>, s: &Settings) -> PackageMargin {
    let withdrawable = withdrawable_tokens(pack, s.paid_only);
    let earned_nano = i128::from(pack.stars) * i128::from(s.star_usd.micros()) * (NANO_PER_USD / 1_000_000);
    let payout_nano = match best {
        None => 0,
        // tokens ÷ tokens per dollar × value ÷ price × (1 + overpay), in billionths, rounded
        // up; a product too large for i128 counts as a loss (never a wrapped number).
        Some(b) => {
            let num = [i128::from(withdrawable.0), b.value_scaled, 10_000 + i128::from(s.max_overpay_bp), NANO_PER_USD]
                .into_iter()
                .try_fold(1i128, |acc, x| acc.checked_mul(x));
            let den = [i128::from(s.tokens_per_usd.0.max(1)), EV_SCALE, i128::from(b.price.0.max(1)), 10_000]
                .into_iter()
                .try_fold(1i128, |acc, x| acc.checked_mul(x));
            match (num, den) {
                (Some(n), Some(d)) => (n + d - 1) / d,
                _ => i128::MAX,
            }
        }
    };
    PackageMargin { id: pack.id.clone(), stars: pack.stars, withdrawable, earned_nano, payout_nano }
}

/// Dollars with `decimals` decimals from billionths (rounded to the nearest; display only).
pub fn usd_text(nano: i128, decimals: u32) -> String {
    let unit = 10i128.pow(9 - decimals.min(9));
    let v = (nano.abs() + unit / 2) / unit;
    let scale = 10i128.pow(decimals.min(9));
    let sign = if nano < 0 && v != 0 { "-" } else { "" };
    if decimals == 0 {
        return format!("{sign}${v}");
    }
    format!("{sign}${}.{:0width$}", v / scale, v % scale, width = decimals as usize)
}

/// Basis points as a percent with 2 decimals.
pub fn bp_text(bp: i64) -> String {
    let sign = if bp < 0 { "-" } else { "" };
    format!("{sign}{}.{:02} %", bp.unsigned_abs() / 100, bp.unsigned_abs() % 100)
}

impl Report {
    /// The packages that can pay out more than they earn.
    pub fn losses(&self) -> Vec<&PackageMargin> {
        self.packages.iter().filter(|p| p.loses()).collect()
    }

    /// The package with the smallest margin share.
    pub fn thinnest(&self) -> Option<&PackageMargin> {
        self.packages.iter().min_by_key(|p| p.margin_bp())
    }

    /// Why `serve` refuses to start at a loss: the variables and the packages named.
    pub fn loss_message(&self) -> Option<String> {
        let losses = self.losses();
        if losses.is_empty() {
            return None;
        }
        let s = &self.settings;
        let named: Vec<String> = losses
            .iter()
            .map(|p| {
                format!(
                    "package {}: {} Stars earn {}, its {} withdrawable tokens can take out {}",
                    p.id,
                    p.stars,
                    usd_text(p.earned_nano, 4),
                    p.withdrawable,
                    usd_text(p.payout_nano, 4)
                )
            })
            .collect();
        let best = self.best.as_ref().map(|b| format!("{} ({})", bp_text(b.rtp_bp_ceil()), b.case_id)).unwrap_or_default();
        Some(format!(
            "a package pays out more than its Stars earn (STAR_USD {} a Star, TOKENS_PER_USD {}, MARKET_MAX_OVERPAY {}, the highest return to player {best}{}): {}. \
             Sell fewer tokens per Star (CATALOG_DIR packages.json), raise TOKENS_PER_USD, lower CASE_RTP or MARKET_MAX_OVERPAY, \
             set STAR_USD to what a Star really pays you, or set ALLOW_LOSS=true to run at a loss on purpose (docs/economics.md)",
            s.star_usd,
            s.tokens_per_usd,
            bp_text(i64::from(s.max_overpay_bp)),
            if s.paid_only { "" } else { ", WITHDRAW_PAID_ONLY=false: every token may leave" },
            named.join("; "),
        ))
    }

    /// Why the catalog is refused: the smallest package cannot pay for the cheapest case.
    pub fn first_open_message(&self) -> Option<String> {
        let f = self.first_open.as_ref().filter(|f| !f.ok())?;
        Some(format!(
            "the smallest package {} ({} Stars) credits {} paid tokens, less than the cheapest case {} costs ({}): \
             a first purchase could not open it with paid tokens, so its skin could not be withdrawn. \
             Give package {} at least {} tokens (CATALOG_DIR packages.json) or drop it",
            f.package_id, f.stars, f.paid, f.case_id, f.price, f.package_id, f.price
        ))
    }

    /// The printable report (`fragbox catalog check`, the start-up log).
    pub fn lines(&self) -> Vec<String> {
        let s = &self.settings;
        let mut out = Vec::new();
        let best = match &self.best {
            Some(b) => format!("highest return to player {} ({})", bp_text(b.rtp_bp_ceil()), b.case_id),
            None => "no case on sale".to_owned(),
        };
        out.push(format!(
            "margin: STAR_USD {} per Star, TOKENS_PER_USD {}, MARKET_MAX_OVERPAY {}, {best}, {}",
            s.star_usd,
            s.tokens_per_usd,
            bp_text(i64::from(s.max_overpay_bp)),
            if s.paid_only { "paid tokens withdraw" } else { "every token withdraws (WITHDRAW_PAID_ONLY=false)" }
        ));
        for p in &self.packages {
            let stars = i128::from(p.stars.max(1));
            out.push(format!(
                "package {:<10} {:>5} Stars  {:>6} withdrawable tokens  earns {:>9}  pays out at most {:>9}  margin {:>9} ({:>8})  per Star {} vs {}  {}",
                p.id,
                p.stars,
                p.withdrawable.to_string(),
                usd_text(p.earned_nano, 4),
                usd_text(p.payout_nano, 4),
                usd_text(p.margin_nano(), 4),
                bp_text(p.margin_bp()),
                usd_text(p.earned_nano / stars, 6),
                usd_text(p.payout_nano / stars, 6),
                if p.loses() { "LOSS" } else { "ok" }
            ));
        }
        if let Some(f) = &self.first_open {
            out.push(format!(
                "first open: the smallest package {} ({} Stars, {} paid tokens) {} the cheapest case {} ({})",
                f.package_id,
                f.stars,
                f.paid,
                if f.ok() { "opens" } else { "CANNOT open" },
                f.case_id,
                f.price
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn repo_catalog() -> Catalog {
        Catalog::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/catalog")).unwrap()
    }

    fn defaults() -> Settings {
        Settings { star_usd: StarUsd::from_micros(13_000), tokens_per_usd: Tokens::whole(100), max_overpay_bp: 1_000, paid_only: true }
    }

    #[test]
    fn every_default_package_keeps_a_tenth_of_what_its_stars_earn() {
        let report = check(&repo_catalog(), defaults());
        assert!(!report.packages.is_empty());
        for p in &report.packages {
            assert!(p.margin_bp() >= 1_000, "{}: {}", p.id, report.lines().join("\n"));
        }
        assert!(report.loss_message().is_none());
    }

    #[test]
    fn the_smallest_default_package_opens_the_cheapest_case_with_paid_tokens() {
        let report = check(&repo_catalog(), defaults());
        let f = report.first_open.clone().unwrap();
        assert!(f.ok(), "{f:?}");
        assert!(report.first_open_message().is_none());
    }

    #[test]
    fn fifty_tokens_per_dollar_pays_out_more_than_a_star_earns_and_names_the_variables() {
        let report = check(&repo_catalog(), Settings { tokens_per_usd: Tokens::whole(50), ..defaults() });
        let why = report.loss_message().unwrap();
        for name in ["TOKENS_PER_USD", "STAR_USD", "MARKET_MAX_OVERPAY", "ALLOW_LOSS", "package pack-s"] {
            assert!(why.contains(name), "{name}: {why}");
        }
    }

    #[test]
    fn the_payout_is_the_formula_rounded_up() {
        // 146 tokens, a case returning exactly 90 %, 10 % overpay, 100 tokens per dollar:
        // 1.46 × 0.9 × 1.1 = $1.4454; 125 Stars × $0.013 = $1.625.
        let best = BestReturn { case_id: "c".into(), value_scaled: 9_000 * EV_SCALE, price: Tokens(10_000) };
        let pack = Package { id: "p".into(), tokens: 146, bonus: 0, stars: 125 };
        let m = margin(&pack, Some(&best), &defaults());
        assert_eq!(m.payout_nano, 1_445_400_000);
        assert_eq!(m.earned_nano, 1_625_000_000);
        assert_eq!(m.margin_bp(), 1105);
        assert!(!m.loses());
        // A third more tokens than that loses.
        let m = margin(&Package { tokens: 200, ..pack.clone() }, Some(&best), &defaults());
        assert!(m.loses() && m.margin_bp() < 0, "{m:?}");
    }

    #[test]
    fn bonus_tokens_count_because_they_are_credited_as_paid() {
        let best = BestReturn { case_id: "c".into(), value_scaled: 9_000 * EV_SCALE, price: Tokens(10_000) };
        let pack = Package { id: "p".into(), tokens: 100, bonus: 46, stars: 125 };
        assert_eq!(margin(&pack, Some(&best), &defaults()).withdrawable, Tokens::whole(146));
        assert_eq!(margin(&pack, Some(&best), &Settings { paid_only: false, ..defaults() }).withdrawable, Tokens::whole(146));
    }

    #[test]
    fn nothing_on_sale_pays_nothing_out() {
        let pack = Package { id: "p".into(), tokens: 146, bonus: 0, stars: 125 };
        let m = margin(&pack, None, &defaults());
        assert_eq!((m.payout_nano, m.margin_bp()), (0, 10_000));
    }

    #[test]
    fn dollars_and_percents_print_rounded() {
        assert_eq!(usd_text(1_445_400_000, 4), "$1.4454");
        assert_eq!(usd_text(11_563_200, 6), "$0.011563");
        assert_eq!(usd_text(-179_600_000, 2), "-$0.18");
        assert_eq!(usd_text(4_000_000, 2), "$0.00");
        assert_eq!(bp_text(1105), "11.05 %");
        assert_eq!(bp_text(-42), "-0.42 %");
    }
}
