//! A drop as a real CS2 item instance: its float, exterior, StatTrak™ and Steam market name, drawn
//! provably fairly from the open's seed, and the price of each variant (skin × exterior × StatTrak™).
//!
//! The draws use the convention of `fair::roll` (key = the server seed as its hex string):
//! - float: `h = HMAC_SHA256(server_seed, "{client_seed}:{nonce}:float")`,
//!   `u = (u64_be(h[0..8]) >> 11) / 2^53` (53 bits: exact in an `f64`, `0 <= u < 1`),
//!   `float = wear_min + u × (wear_max − wear_min)`;
//! - StatTrak™: `u64_be(HMAC_SHA256(server_seed, "{client_seed}:{nonce}:stattrak")[0..8]) mod 10 == 0`,
//!   only where the skin exists as StatTrak™.
use std::collections::HashMap;

use hmac::{Hmac, Mac};
use serde::Serialize;
use sha2::Sha256;

use crate::domain::store::Pool;
use crate::domain::Tokens;

/// A skin's wear class, as Steam names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Exterior {
    FactoryNew,
    MinimalWear,
    FieldTested,
    WellWorn,
    BattleScarred,
}

/// Wear is counted in millionths where odds and bands are summed in integers.
pub const WEAR_UNITS: i64 = 1_000_000;

impl Exterior {
    pub const ALL: [Exterior; 5] =
        [Exterior::FactoryNew, Exterior::MinimalWear, Exterior::FieldTested, Exterior::WellWorn, Exterior::BattleScarred];

    /// The name in Steam's market hash names: `Field-Tested`.
    pub fn steam_name(self) -> &'static str {
        match self {
            Exterior::FactoryNew => "Factory New",
            Exterior::MinimalWear => "Minimal Wear",
            Exterior::FieldTested => "Field-Tested",
            Exterior::WellWorn => "Well-Worn",
            Exterior::BattleScarred => "Battle-Scarred",
        }
    }

    /// The short code of price tables and variant keys: `fn`, `mw`, `ft`, `ww`, `bs`.
    pub fn code(self) -> &'static str {
        match self {
            Exterior::FactoryNew => "fn",
            Exterior::MinimalWear => "mw",
            Exterior::FieldTested => "ft",
            Exterior::WellWorn => "ww",
            Exterior::BattleScarred => "bs",
        }
    }

    pub fn from_code(code: &str) -> Option<Exterior> {
        Exterior::ALL.into_iter().find(|e| e.code() == code)
    }

    pub fn from_steam_name(name: &str) -> Option<Exterior> {
        Exterior::ALL.into_iter().find(|e| e.steam_name() == name)
    }

    /// The band `[low, high)` in millionths of wear (Battle-Scarred includes 1.0).
    pub fn band(self) -> (i64, i64) {
        match self {
            Exterior::FactoryNew => (0, 70_000),
            Exterior::MinimalWear => (70_000, 150_000),
            Exterior::FieldTested => (150_000, 380_000),
            Exterior::WellWorn => (380_000, 450_000),
            Exterior::BattleScarred => (450_000, WEAR_UNITS),
        }
    }
}

impl Serialize for Exterior {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.steam_name())
    }
}

/// The exterior of a float: Factory New < 0.07 ≤ Minimal Wear < 0.15 ≤ Field-Tested < 0.38 ≤
/// Well-Worn < 0.45 ≤ Battle-Scarred.
pub fn exterior_of(float: f64) -> Exterior {
    if float < 0.07 {
        Exterior::FactoryNew
    } else if float < 0.15 {
        Exterior::MinimalWear
    } else if float < 0.38 {
        Exterior::FieldTested
    } else if float < 0.45 {
        Exterior::WellWorn
    } else {
        Exterior::BattleScarred
    }
}

/// `u64_be(HMAC_SHA256(key = server_seed, msg)[0..8])`.
fn hmac_u64(server_seed: &str, msg: &str) -> u64 {
    // HMAC takes a key of any length, so this cannot fail.
    #[allow(clippy::expect_used)]
    let mut mac = Hmac::<Sha256>::new_from_slice(server_seed.as_bytes()).expect("hmac accepts any key");
    mac.update(msg.as_bytes());
    let h = mac.finalize().into_bytes();
    let mut first = [0u8; 8];
    first.copy_from_slice(&h[..8]);
    u64::from_be_bytes(first)
}

/// The uniform number in `[0, 1)` behind the float: the top 53 bits of the HMAC over 2^53.
pub fn float_unit(server_seed: &str, client_seed: &str, nonce: i64) -> f64 {
    let bits = hmac_u64(server_seed, &format!("{client_seed}:{nonce}:float")) >> 11;
    // 53 bits convert to f64 exactly; dividing by a power of two is exact too.
    bits as f64 / (1u64 << 53) as f64
}

/// The drop's float inside the skin's wear range: `wear_min + u × (wear_max − wear_min)`.
pub fn float_of(server_seed: &str, client_seed: &str, nonce: i64, wear_min: f64, wear_max: f64) -> f64 {
    wear_min + float_unit(server_seed, client_seed, nonce) * (wear_max - wear_min)
}

/// Whether the drop is StatTrak™: one in ten, and never for a skin without StatTrak™.
pub fn stat_trak_of(server_seed: &str, client_seed: &str, nonce: i64, has_stat_trak: bool) -> bool {
    has_stat_trak && hmac_u64(server_seed, &format!("{client_seed}:{nonce}:stattrak")).is_multiple_of(10)
}

/// The name exactly as the Steam market writes it: `StatTrak™ AK-47 | Redline (Field-Tested)`,
/// `★ StatTrak™ Karambit | Doppler (Factory New)`, `★ Bayonet` (a vanilla knife: no exterior).
pub fn market_hash_name(item: &CatalogItem, stat_trak: bool, exterior: Option<Exterior>) -> String {
    let mut out = String::new();
    if item.is_special() {
        out.push_str("★ ");
    }
    if stat_trak {
        out.push_str("StatTrak™ ");
    }
    out.push_str(&item.weapon);
    if !item.finish.is_empty() {
        out.push_str(" | ");
        out.push_str(&item.finish);
    }
    if let Some(e) = exterior {
        out.push_str(" (");
        out.push_str(e.steam_name());
        out.push(')');
    }
    out
}

/// One sellable form of a skin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub stat_trak: bool,
    /// `None` only for a vanilla knife.
    pub exterior: Option<Exterior>,
}

impl Variant {
    /// The key of `catalog_prices` and of price overrides: `{item id}[:st][:{exterior code}]`,
    /// e.g. `ak47-redline:st:ft`, `karambit-doppler:fn`, `bayonet-vanilla`.
    pub fn key(&self, item_id: &str) -> String {
        let mut k = item_id.to_owned();
        if self.stat_trak {
            k.push_str(":st");
        }
        if let Some(e) = self.exterior {
            k.push(':');
            k.push_str(e.code());
        }
        k
    }

    /// Reads a key back into the item id and the variant.
    pub fn parse_key(key: &str) -> Option<(&str, Variant)> {
        let mut parts = key.split(':');
        let id = parts.next().filter(|s| !s.is_empty())?;
        let mut v = Variant { stat_trak: false, exterior: None };
        let mut rest: Vec<&str> = parts.collect();
        if rest.first() == Some(&"st") {
            v.stat_trak = true;
            rest.remove(0);
        }
        match rest.as_slice() {
            [] => {}
            [code] => v.exterior = Some(Exterior::from_code(code)?),
            _ => return None,
        }
        Some((id, v))
    }
}

/// A variant and its price in hundredths of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantPrice {
    pub variant: Variant,
    pub price: Tokens,
}

/// The exteriors a wear range can give, each with its share of the range in millionths of wear
/// (`share / (max − min)` is its chance). A vanilla knife (no range) answers `[(None, 1)]`.
pub fn exterior_shares(wear_min: Option<f64>, wear_max: Option<f64>) -> Vec<(Option<Exterior>, i64)> {
    let (Some(lo), Some(hi)) = (wear_min, wear_max) else {
        return vec![(None, 1)];
    };
    let (lo, hi) = (to_units(lo), to_units(hi));
    if hi <= lo {
        // A single float value: its exterior, with certainty.
        return vec![(Some(exterior_of(lo as f64 / WEAR_UNITS as f64)), 1)];
    }
    Exterior::ALL
        .into_iter()
        .filter_map(|e| {
            let (b_lo, b_hi) = e.band();
            let share = hi.min(b_hi) - lo.max(b_lo);
            (share > 0).then_some((Some(e), share))
        })
        .collect()
}

/// A wear value in millionths, rounded (the library writes wear with at most a few decimals).
pub fn to_units(wear: f64) -> i64 {
    (wear * WEAR_UNITS as f64).round() as i64
}

/// The variants a skin is sold as: every exterior its range reaches, each also as StatTrak™
/// where the skin has it.
pub fn variants_of(wear_min: Option<f64>, wear_max: Option<f64>, stat_trak: bool) -> Vec<Variant> {
    let mut out = Vec::new();
    for (exterior, _) in exterior_shares(wear_min, wear_max) {
        out.push(Variant { stat_trak: false, exterior });
        if stat_trak {
            out.push(Variant { stat_trak: true, exterior });
        }
    }
    out
}

/// The expected market value of one drop of a skin, in hundredths × `EV_SCALE` (floored once):
/// the float is uniform over the range (each exterior weighs its share of it) and StatTrak™ is one
/// in ten where it exists. `None` when the sum does not fit: an absurd price is an error, never a
/// wrapped number.
pub fn expected_value_scaled(item: &CatalogItem) -> Option<i128> {
    let shares = exterior_shares(item.wear_min, item.wear_max);
    let range: i128 = shares.iter().map(|s| i128::from(s.1)).sum();
    let mut num: i128 = 0;
    for (exterior, share) in shares {
        let plain = i128::from(item.price(false, exterior).map_or(0, |p| p.0));
        let tenths = if item.stat_trak {
            plain.checked_mul(9)?.checked_add(i128::from(item.price(true, exterior).map_or(0, |p| p.0)))?
        } else {
            plain.checked_mul(10)?
        };
        num = num.checked_add(i128::from(share).checked_mul(tenths)?)?;
    }
    num.checked_mul(EV_SCALE)?.checked_div(range.checked_mul(10)?)
}

/// Expected values are carried in billionths of a hundredth until the one rounding to a price.
pub const EV_SCALE: i128 = 1_000_000_000;

/// What one drop is: the skin, drawn elsewhere (`fair::roll`), made an instance here.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// `None` for a vanilla knife.
    pub float: Option<f64>,
    pub exterior: Option<Exterior>,
    pub stat_trak: bool,
    pub market_hash_name: String,
    /// The variant's price now (hundredths).
    pub price: Tokens,
}

impl Instance {
    /// What `condition` answers for the instance: its exterior's Steam name, or `Not Painted` (as
    /// Steam tags a vanilla knife).
    pub fn condition(&self) -> &'static str {
        self.exterior.map_or(NOT_PAINTED, Exterior::steam_name)
    }
}

/// Steam's exterior tag of a vanilla knife.
pub const NOT_PAINTED: &str = "Not Painted";

/// The drop instance of `item` for one open: float (inside the skin's range), exterior, StatTrak™,
/// Steam name and the variant's current price. Call with the same seed and nonce as the item's roll.
pub fn instance_of(item: &CatalogItem, server_seed: &str, client_seed: &str, nonce: i64) -> Instance {
    let float = match (item.wear_min, item.wear_max) {
        (Some(lo), Some(hi)) => Some(float_of(server_seed, client_seed, nonce, lo, hi)),
        _ => None,
    };
    let exterior = float.map(exterior_of);
    let stat_trak = stat_trak_of(server_seed, client_seed, nonce, item.stat_trak);
    Instance {
        float,
        exterior,
        stat_trak,
        market_hash_name: market_hash_name(item, stat_trak, exterior),
        price: variant_price(item, stat_trak, exterior),
    }
}

/// The price of a variant. A variant the catalog does not list (a float outside the bands the
/// range reaches can only come from rounding at a band edge) takes the nearest listed exterior of
/// the same StatTrak™, so a drop always has a price.
pub fn variant_price(item: &CatalogItem, stat_trak: bool, exterior: Option<Exterior>) -> Tokens {
    if let Some(p) = item.price(stat_trak, exterior) {
        return p;
    }
    let rank = |e: Option<Exterior>| e.map_or(0, |e| e as i32);
    item.prices
        .iter()
        .filter(|p| p.variant.stat_trak == stat_trak)
        .min_by_key(|p| (rank(p.variant.exterior) - rank(exterior)).abs())
        .or_else(|| item.prices.first())
        .map_or(item.token_price, |p| p.price)
}

/// The market prices a reprice stored (`catalog_prices`), by variant key; hand them to
/// `Catalog::apply_prices`. Variants without a row keep the committed default.
pub async fn stored_prices(pool: &Pool) -> crate::domain::DomainResult<HashMap<String, Tokens>> {
    let rows: Vec<(String, i64)> = crate::domain::store::read(pool, None, |c| {
        Box::pin(async move { crate::domain::store::query("SELECT variant, price FROM catalog_prices").fetch_all(c).await })
    })
    .await?;
    Ok(rows.into_iter().filter(|r| r.1 > 0).map(|(k, p)| (k, Tokens(p))).collect())
}

/// One skin of the catalog (every variant of it: exteriors × StatTrak™).
#[derive(Clone, Debug)]
pub struct CatalogItem {
    pub id: String,
    /// English weapon name as Steam writes it (`AK-47`, `Karambit`), without the ★.
    pub weapon: String,
    /// English finish (`Redline`); empty for a vanilla knife.
    pub finish: String,
    pub weapon_ru: String,
    pub finish_ru: String,
    /// `milspec`, `restricted`, `classified`, `covert`, or `extraordinary` (★ knives and gloves).
    pub rarity: String,
    /// The float range; both `None` for a vanilla knife (no float, no exterior).
    pub wear_min: Option<f64>,
    pub wear_max: Option<f64>,
    /// Whether the skin exists as StatTrak™.
    pub stat_trak: bool,
    /// The picture: the library's `/images/<hash>.webp` as read, the shop's `/img/<hash>.webp` once
    /// `Catalog::with_served_pictures` ran, or a `/catalog/images/...` path of this process.
    pub image: String,
    /// Every variant the skin is sold as, with its price.
    pub prices: Vec<VariantPrice>,
    /// Transitional, for the open before it draws instances: the exterior of the middle of the
    /// range (`Not Painted` for a vanilla knife).
    pub condition: String,
    /// Transitional: the expected value of one drop of this skin over its variants (hundredths).
    pub token_price: Tokens,
}

impl CatalogItem {
    /// ★ knives and gloves.
    pub fn is_special(&self) -> bool {
        self.rarity == "extraordinary"
    }

    /// The skin's Steam name without StatTrak™ or exterior: `AK-47 | Redline`, `★ Bayonet`.
    pub fn market_hash_name(&self) -> String {
        market_hash_name(self, false, None)
    }

    /// The price of one variant, if the skin is sold as it.
    pub fn price(&self, stat_trak: bool, exterior: Option<Exterior>) -> Option<Tokens> {
        self.prices.iter().find(|p| p.variant == Variant { stat_trak, exterior }).map(|p| p.price)
    }

    /// The cheapest and dearest variant (the case page shows the range).
    pub fn price_range(&self) -> (Tokens, Tokens) {
        let min = self.prices.iter().map(|p| p.price).min().unwrap_or(self.token_price);
        let max = self.prices.iter().map(|p| p.price).max().unwrap_or(self.token_price);
        (min, max)
    }

    /// The variants, in order (exterior, then StatTrak™).
    pub fn variants(&self) -> Vec<Variant> {
        variants_of(self.wear_min, self.wear_max, self.stat_trak)
    }

    /// Recomputes the expected value and the middle condition from the variant prices; `Err`
    /// (nothing changed) when the prices overflow the arithmetic.
    pub(crate) fn refresh_derived(&mut self) -> Result<(), String> {
        let value = expected_value_scaled(self)
            .and_then(round_scaled)
            .ok_or_else(|| format!("item {}: its variant prices overflow the expected value", self.id))?;
        self.token_price = Tokens(value.max(1));
        self.condition = match (self.wear_min, self.wear_max) {
            (Some(lo), Some(hi)) => exterior_of((lo + hi) / 2.0).steam_name().to_owned(),
            _ => NOT_PAINTED.to_owned(),
        };
        Ok(())
    }

    /// A skin for unit tests: every variant priced 1.00 × its position (dearer for StatTrak™).
    #[doc(hidden)]
    pub fn for_tests(weapon: &str, finish: &str, rarity: &str, wear: Option<(f64, f64)>, stat_trak: bool) -> CatalogItem {
        let mut it = CatalogItem {
            id: "test-item".into(),
            weapon: weapon.into(),
            finish: finish.into(),
            weapon_ru: weapon.into(),
            finish_ru: finish.into(),
            rarity: rarity.into(),
            wear_min: wear.map(|w| w.0),
            wear_max: wear.map(|w| w.1),
            stat_trak,
            image: String::new(),
            prices: Vec::new(),
            condition: String::new(),
            token_price: Tokens(1),
        };
        it.prices = it
            .variants()
            .into_iter()
            .enumerate()
            .map(|(i, variant)| VariantPrice { variant, price: Tokens(100 * (i as i64 + 1)) })
            .collect();
        // Test prices are small: the sum cannot overflow.
        let _ = it.refresh_derived();
        it
    }
}

/// Rounds a scaled hundredths value (`EV_SCALE`) to the nearest hundredth; `None` past `i64`.
pub(crate) fn round_scaled(v: i128) -> Option<i64> {
    i64::try_from(v.checked_add(EV_SCALE / 2)? / EV_SCALE).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(finish: &str, special: bool, wear: Option<(f64, f64)>, stat_trak: bool) -> CatalogItem {
        CatalogItem::for_tests(
            if special { "Karambit" } else { "AK-47" },
            finish,
            if special { "extraordinary" } else { "classified" },
            wear,
            stat_trak,
        )
    }

    #[test]
    fn exteriors_follow_the_steam_bands() {
        assert_eq!(exterior_of(0.0), Exterior::FactoryNew);
        assert_eq!(exterior_of(0.069_999), Exterior::FactoryNew);
        assert_eq!(exterior_of(0.07), Exterior::MinimalWear);
        assert_eq!(exterior_of(0.149_99), Exterior::MinimalWear);
        assert_eq!(exterior_of(0.15), Exterior::FieldTested);
        assert_eq!(exterior_of(0.38), Exterior::WellWorn);
        assert_eq!(exterior_of(0.449), Exterior::WellWorn);
        assert_eq!(exterior_of(0.45), Exterior::BattleScarred);
        assert_eq!(exterior_of(1.0), Exterior::BattleScarred);
    }

    #[test]
    fn the_float_is_the_documented_hmac_formula() {
        // h = HMAC_SHA256("s", "c:1:float"): u64_be(h[0..8]) >> 11, over 2^53.
        let mut mac = Hmac::<Sha256>::new_from_slice(b"s").unwrap();
        mac.update(b"c:1:float");
        let h = mac.finalize().into_bytes();
        let u = (u64::from_be_bytes(h[..8].try_into().unwrap()) >> 11) as f64 / 9_007_199_254_740_992.0;
        assert_eq!(float_of("s", "c", 1, 0.0, 1.0), u);
        assert_eq!(float_of("s", "c", 1, 0.1, 0.5), 0.1 + u * 0.4);
    }

    #[test]
    fn floats_stay_inside_the_skin_range() {
        for nonce in 0..2000 {
            let f = float_of("seed", "client", nonce, 0.06, 0.8);
            assert!((0.06..0.8).contains(&f), "{f}");
        }
    }

    #[test]
    fn stat_trak_is_one_in_ten_and_never_without_stat_trak() {
        let hits = (0..10_000).filter(|&n| stat_trak_of("seed", "client", n, true)).count();
        assert!((850..1150).contains(&hits), "{hits}");
        assert!((0..1000).all(|n| !stat_trak_of("seed", "client", n, false)));
        // The documented formula.
        let mut mac = Hmac::<Sha256>::new_from_slice(b"s").unwrap();
        mac.update(b"c:7:stattrak");
        let h = mac.finalize().into_bytes();
        let expected = u64::from_be_bytes(h[..8].try_into().unwrap()) % 10 == 0;
        assert_eq!(stat_trak_of("s", "c", 7, true), expected);
    }

    #[test]
    fn market_hash_names_are_written_as_steam_writes_them() {
        let redline = item("Redline", false, Some((0.1, 0.7)), true);
        assert_eq!(market_hash_name(&redline, true, Some(Exterior::FieldTested)), "StatTrak™ AK-47 | Redline (Field-Tested)");
        assert_eq!(market_hash_name(&redline, false, Some(Exterior::WellWorn)), "AK-47 | Redline (Well-Worn)");
        let doppler = item("Doppler", true, Some((0.0, 0.08)), true);
        assert_eq!(market_hash_name(&doppler, false, Some(Exterior::FactoryNew)), "★ Karambit | Doppler (Factory New)");
        assert_eq!(market_hash_name(&doppler, true, Some(Exterior::FactoryNew)), "★ StatTrak™ Karambit | Doppler (Factory New)");
        let mut bayonet = item("", true, None, true);
        bayonet.weapon = "Bayonet".into();
        assert_eq!(market_hash_name(&bayonet, false, None), "★ Bayonet");
        assert_eq!(market_hash_name(&bayonet, true, None), "★ StatTrak™ Bayonet");
    }

    #[test]
    fn a_vanilla_knife_has_no_float_and_no_exterior() {
        let mut bayonet = item("", true, None, true);
        bayonet.weapon = "Bayonet".into();
        for nonce in 0..50 {
            let i = instance_of(&bayonet, "seed", "client", nonce);
            assert_eq!((i.float, i.exterior), (None, None));
            assert!(i.market_hash_name.starts_with("★ "));
            assert!(i.price.0 > 0);
        }
    }

    #[test]
    fn an_instance_agrees_with_its_float_and_prices_its_variant() {
        let redline = item("Redline", false, Some((0.1, 0.7)), true);
        for nonce in 0..300 {
            let i = instance_of(&redline, "seed", "client", nonce);
            let f = i.float.unwrap();
            assert!((0.1..0.7).contains(&f));
            assert_eq!(i.exterior, Some(exterior_of(f)));
            assert_eq!(i.stat_trak, stat_trak_of("seed", "client", nonce, true));
            assert_eq!(i.price, redline.price(i.stat_trak, i.exterior).unwrap());
            assert_eq!(i.market_hash_name, market_hash_name(&redline, i.stat_trak, i.exterior));
        }
    }

    #[test]
    fn drawn_instances_average_the_expected_value() {
        // Prices 1..10 tokens by variant; the draw's mean over many opens meets the formula.
        let skin = item("Redline", false, Some((0.06, 0.8)), true);
        let n = 40_000;
        let total: i64 = (0..n).map(|nonce| instance_of(&skin, "seed", "client", nonce).price.0).sum();
        let mean = total as f64 / n as f64;
        let expected = expected_value_scaled(&skin).unwrap() as f64 / EV_SCALE as f64;
        assert!((mean - expected).abs() < expected * 0.02, "mean {mean} expected {expected}");
    }

    #[test]
    fn a_range_reaches_only_the_exteriors_it_overlaps() {
        let shares = exterior_shares(Some(0.0), Some(0.08));
        assert_eq!(shares, vec![(Some(Exterior::FactoryNew), 70_000), (Some(Exterior::MinimalWear), 10_000)]);
        assert_eq!(exterior_shares(Some(0.4), Some(1.0)).len(), 2);
        assert_eq!(variants_of(Some(0.0), Some(0.08), true).len(), 4);
        assert_eq!(variants_of(Some(0.0), Some(1.0), false).len(), 5);
        assert_eq!(variants_of(None, None, true).len(), 2);
    }

    #[test]
    fn variant_keys_read_back() {
        let v = Variant { stat_trak: true, exterior: Some(Exterior::FieldTested) };
        assert_eq!(v.key("ak47-redline"), "ak47-redline:st:ft");
        assert_eq!(Variant::parse_key("ak47-redline:st:ft"), Some(("ak47-redline", v)));
        assert_eq!(Variant::parse_key("bayonet-vanilla"), Some(("bayonet-vanilla", Variant { stat_trak: false, exterior: None })));
        assert_eq!(Variant::parse_key("x:zz"), None);
    }

    #[test]
    fn the_expected_value_weighs_exteriors_by_their_share_and_stat_trak_one_in_ten() {
        // FN 70 % / MW 10 % / … of 0..0.08: FN 7/8, MW 1/8.
        let mut k = item("Doppler", true, Some((0.0, 0.08)), true);
        k.prices = vec![
            VariantPrice { variant: Variant { stat_trak: false, exterior: Some(Exterior::FactoryNew) }, price: Tokens(800) },
            VariantPrice { variant: Variant { stat_trak: true, exterior: Some(Exterior::FactoryNew) }, price: Tokens(1800) },
            VariantPrice { variant: Variant { stat_trak: false, exterior: Some(Exterior::MinimalWear) }, price: Tokens(400) },
            VariantPrice { variant: Variant { stat_trak: true, exterior: Some(Exterior::MinimalWear) }, price: Tokens(1400) },
        ];
        // FN: 0.9×800 + 0.1×1800 = 900; MW: 0.9×400 + 0.1×1400 = 500; 7/8×900 + 1/8×500 = 850.
        assert_eq!(expected_value_scaled(&k), Some(850 * EV_SCALE));
    }

    #[test]
    fn the_expected_value_of_the_dearest_prices_stays_a_price() {
        // A weighted mean of the variant prices: at most the dearest, so it fits whatever they are.
        let mut k = item("Doppler", true, Some((0.0, 0.08)), true);
        for p in &mut k.prices {
            p.price = Tokens(i64::MAX);
        }
        assert!(k.refresh_derived().is_ok());
        assert!(k.token_price.0 > i64::MAX / 2, "{}", k.token_price);
    }
}
