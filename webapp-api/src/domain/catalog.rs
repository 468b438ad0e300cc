//! The catalog: real CS2 weapon cases and their skins (imported from `@ianlucas/cs2-lib` by
//! `scripts/catalog/import.mjs`), each variant's price, and the token packages. Operators edit or
//! regenerate `data/catalog/*.json`; the process loads it at start, upserts it into the store and
//! serves it from memory (pre-serialised, with an ETag).
//!
//! Odds: a case drops by rarity tier with Valve's published odds (`TIER_BP`), spread evenly over
//! the items of a tier; a tier the case lacks is left out and the others keep their proportions.
//! Prices: every variant (skin × exterior × StatTrak™) has a price (the default table of
//! `prices.json` until a market reprice sets one); a case without an explicit price costs its
//! expected drop value divided by the return-to-player target, rounded to a whole token.
use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::value::RawValue;

use crate::domain::goods::{self, Exterior, Variant, VariantPrice, EV_SCALE};
use crate::domain::store::Pool;
use crate::domain::Tokens;

/// A case must give back this share of its price on average (basis points of the price).
pub const RTP_MIN_BP: i64 = 8000;
pub const RTP_MAX_BP: i64 = 9500;
/// The return to player a computed case price aims at.
pub const DEFAULT_RTP_BP: i64 = 9000;

/// Valve's published odds per tier, in hundredths of a percent (they sum to 10 000): mil-spec
/// 79.92 %, restricted 15.98 %, classified 3.20 %, covert 0.64 %, rare special 0.26 %.
pub const TIER_BP: [(&str, u64); 5] = [("milspec", 7992), ("restricted", 1598), ("classified", 320), ("covert", 64), ("extraordinary", 26)];

use crate::domain::goods::round_scaled;
pub use crate::domain::goods::CatalogItem;

#[derive(Clone, Debug)]
pub struct Case {
    pub id: String,
    pub name: String,
    pub name_ru: String,
    pub image: String,
    pub price: Tokens,
    /// Whether the price came from the file (an operator's choice) rather than the RTP target.
    pub fixed_price: bool,
    /// (index into `Catalog::items`, weight), in draw order (most common tier first).
    pub entries: Vec<(usize, u64)>,
    pub total_weight: u64,
    /// Why the case is off sale (an operator's `catalog off`, or a price the shop cannot use);
    /// `None`: on sale. An off-sale case is left out of the store and cannot be opened; past
    /// opens of it still verify.
    pub off_sale: Option<String>,
}

/// A case the price rules took off sale while the catalog was built (`served_catalog`): one of
/// its variant prices is unusable, or its price does not compute. Start-up records it
/// (`pricing::sale`) and tells the admins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PriceProblem {
    pub case_id: String,
    pub detail: String,
}

#[derive(Clone, Debug)]
pub struct Package {
    pub id: String,
    /// Whole tokens.
    pub tokens: i64,
    pub bonus: i64,
    pub stars: i64,
}

#[derive(Debug)]
pub struct Catalog {
    pub items: Vec<CatalogItem>,
    item_index: HashMap<String, usize>,
    pub cases: Vec<Case>,
    case_index: HashMap<String, usize>,
    pub packages: Vec<Package>,
    /// The RTP target computed case prices aim at (basis points).
    pub rtp_bp: i64,
    /// Cases the price rules took off sale when this catalog was built (none for the files alone).
    pub price_problems: Vec<PriceProblem>,
}

#[derive(Deserialize)]
struct ItemsFile {
    items: Vec<ItemRow>,
}
#[derive(Deserialize)]
struct Names {
    en: String,
    ru: String,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ItemRow {
    id: String,
    rarity: String,
    weapon: Names,
    finish: Names,
    wear_min: Option<f64>,
    wear_max: Option<f64>,
    stat_trak: bool,
    image: String,
}
#[derive(Deserialize)]
struct CasesFile {
    cases: Vec<CaseRow>,
}
#[derive(Deserialize)]
struct CaseRow {
    id: String,
    name: Names,
    image: String,
    #[serde(default)]
    price: Option<Box<RawValue>>,
    items: Vec<CaseEntryRow>,
}
/// `"item-id"` (weight from the tier odds) or `{"item": "item-id", "weight": 5}`.
#[derive(Deserialize)]
#[serde(untagged)]
enum CaseEntryRow {
    Id(String),
    Weighted { item: String, weight: u64 },
}
#[derive(Deserialize)]
struct PricesFile {
    /// rarity -> exterior code (or `vanilla`) -> [price, StatTrak™ price], in tokens.
    table: HashMap<String, HashMap<String, Vec<Box<RawValue>>>>,
    /// Variant key -> price in tokens, over the table.
    #[serde(default)]
    items: HashMap<String, Box<RawValue>>,
}
#[derive(Deserialize)]
struct PackagesFile {
    packages: Vec<Package>,
}
impl<'de> Deserialize<'de> for Package {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            id: String,
            tokens: i64,
            #[serde(default)]
            bonus: i64,
            stars: i64,
        }
        let r = Raw::deserialize(d)?;
        Ok(Package { id: r.id, tokens: r.tokens, bonus: r.bonus, stars: r.stars })
    }
}

fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 40 && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

fn read<T: for<'de> Deserialize<'de>>(dir: &Path, name: &str) -> Result<T, String> {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn tier_of(rarity: &str) -> Option<usize> {
    TIER_BP.iter().position(|t| t.0 == rarity)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The price table of `prices.json`: (rarity, exterior code or `vanilla`) -> [plain, StatTrak™].
struct PriceTable {
    table: HashMap<(String, String), [Tokens; 2]>,
    overrides: HashMap<String, Tokens>,
}

impl PriceTable {
    fn parse(file: PricesFile) -> Result<PriceTable, String> {
        let money = |raw: &RawValue, what: &str| {
            Tokens::parse(raw.get())
                .filter(|p| p.0 > 0)
                .ok_or_else(|| format!("prices.json: {what}: a price must be > 0 with at most 2 decimals"))
        };
        let mut table = HashMap::new();
        for (rarity, row) in file.table {
            tier_of(&rarity).ok_or_else(|| format!("prices.json: unknown rarity {rarity}"))?;
            for (code, pair) in row {
                if code != "vanilla" && Exterior::from_code(&code).is_none() {
                    return Err(format!("prices.json: {rarity}.{code}: use fn, mw, ft, ww, bs or vanilla"));
                }
                let [plain, st] = pair.as_slice() else {
                    return Err(format!("prices.json: {rarity}.{code}: give [price, StatTrak price]"));
                };
                let what = format!("{rarity}.{code}");
                table.insert((rarity.clone(), code), [money(plain, &what)?, money(st, &what)?]);
            }
        }
        let mut overrides = HashMap::new();
        for (key, raw) in &file.items {
            Variant::parse_key(key).ok_or_else(|| format!("prices.json: bad variant key {key}"))?;
            overrides.insert(key.clone(), money(raw, key)?);
        }
        Ok(PriceTable { table, overrides })
    }

    fn price(&self, item_id: &str, rarity: &str, v: Variant) -> Option<Tokens> {
        if let Some(p) = self.overrides.get(&v.key(item_id)) {
            return Some(*p);
        }
        let code = v.exterior.map_or("vanilla", Exterior::code);
        self.table.get(&(rarity.to_owned(), code.to_owned())).map(|pair| pair[usize::from(v.stat_trak)])
    }
}

impl Catalog {
    /// Reads and checks the catalog folder, pricing cases for `DEFAULT_RTP_BP`.
    pub fn load(dir: &Path) -> Result<Catalog, String> {
        Catalog::load_with_rtp(dir, DEFAULT_RTP_BP)
    }

    /// Reads and checks the catalog folder (`items.json`, `cases.json`, the optional
    /// `custom-cases.json`, `prices.json`, `packages.json`); a case without a price costs its
    /// expected drop value over `rtp_bp`. Refuses unknown item references, zero weights, empty
    /// cases, bad ids, bad wear ranges, unpriced variants and prices with more than 2 decimals.
    pub fn load_with_rtp(dir: &Path, rtp_bp: i64) -> Result<Catalog, String> {
        if !(RTP_MIN_BP..=RTP_MAX_BP).contains(&rtp_bp) {
            return Err(format!("return to player {rtp_bp} bp: accepted {RTP_MIN_BP}-{RTP_MAX_BP}"));
        }
        let items: ItemsFile = read(dir, "items.json")?;
        let mut cases: CasesFile = read(dir, "cases.json")?;
        if dir.join("custom-cases.json").exists() {
            let custom: CasesFile = read(dir, "custom-cases.json")?;
            cases.cases.extend(custom.cases);
        }
        let prices = PriceTable::parse(read(dir, "prices.json")?)?;
        let packages: PackagesFile = read(dir, "packages.json")?;

        let mut out_items = Vec::new();
        let mut item_index = HashMap::new();
        for row in items.items {
            let item = Catalog::item_from_row(row, &prices)?;
            if item_index.insert(item.id.clone(), out_items.len()).is_some() {
                return Err(format!("item {} listed twice", item.id));
            }
            out_items.push(item);
        }
        for key in prices.overrides.keys() {
            let (id, v) = Variant::parse_key(key).ok_or_else(|| format!("prices.json: bad variant key {key}"))?;
            let known = item_index.get(id).is_some_and(|&i| out_items[i].variants().contains(&v));
            if !known {
                return Err(format!("prices.json: {key} is not a variant of the catalog"));
            }
        }

        let mut out_cases = Vec::new();
        let mut case_index = HashMap::new();
        for row in cases.cases {
            let case = Catalog::case_from_row(row, &item_index, &out_items)?;
            if case_index.insert(case.id.clone(), out_cases.len()).is_some() {
                return Err(format!("case {} listed twice", case.id));
            }
            out_cases.push(case);
        }
        for p in &packages.packages {
            if !valid_id(&p.id) || p.tokens <= 0 || p.bonus < 0 || p.stars <= 0 {
                return Err(format!("package {}: id [a-z0-9-], tokens > 0, bonus >= 0, stars > 0", p.id));
            }
        }
        let mut catalog = Catalog {
            items: out_items,
            item_index,
            cases: out_cases,
            case_index,
            packages: packages.packages,
            rtp_bp,
            price_problems: Vec::new(),
        };
        // The committed files must price every case: an overflow there is the operator's to fix.
        if let Some(p) = catalog.price_cases().into_iter().next() {
            return Err(format!("case {}: {}", p.case_id, p.detail));
        }
        Ok(catalog)
    }

    /// Points the library's pictures (`/images/<hash>.webp`) at the shop's own copies
    /// (`/img/<hash>.webp`, `domain::pictures`), so every answer that carries a picture (case
    /// list, case detail, the items a draw stores) names this origin; `/catalog/images/...` paths
    /// of this process stay.
    pub fn with_served_pictures(mut self) -> Catalog {
        for item in &mut self.items {
            item.image = crate::domain::pictures::served_path(&item.image);
        }
        for case in &mut self.cases {
            case.image = crate::domain::pictures::served_path(&case.image);
        }
        self
    }

    /// Every library picture the catalog shows (items and cases): what the shop's picture cache
    /// may fetch.
    pub fn pictures(&self) -> std::collections::BTreeSet<crate::domain::pictures::PictureName> {
        let paths = self.items.iter().map(|i| &i.image).chain(self.cases.iter().map(|c| &c.image));
        paths.filter_map(|p| crate::domain::pictures::library_picture(p)).collect()
    }

    fn item_from_row(row: ItemRow, prices: &PriceTable) -> Result<CatalogItem, String> {
        if !valid_id(&row.id) {
            return Err(format!("item id {:?}: use 1-40 of [a-z0-9-]", row.id));
        }
        tier_of(&row.rarity)
            .ok_or_else(|| format!("item {}: rarity {} (milspec, restricted, classified, covert, extraordinary)", row.id, row.rarity))?;
        match (row.wear_min, row.wear_max) {
            (Some(lo), Some(hi)) if (0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi) && lo < hi => {}
            (None, None) if row.finish.en.is_empty() && row.rarity == "extraordinary" => {}
            _ => return Err(format!("item {}: wearMin < wearMax within 0..1 (both absent only for a vanilla ★ knife)", row.id)),
        }
        let mut item = CatalogItem {
            id: row.id,
            weapon: row.weapon.en,
            finish: row.finish.en,
            weapon_ru: row.weapon.ru,
            finish_ru: row.finish.ru,
            rarity: row.rarity,
            wear_min: row.wear_min,
            wear_max: row.wear_max,
            stat_trak: row.stat_trak,
            image: row.image,
            prices: Vec::new(),
            condition: String::new(),
            token_price: Tokens(1),
        };
        for variant in item.variants() {
            let price = prices
                .price(&item.id, &item.rarity, variant)
                .ok_or_else(|| format!("item {}: no price for {}", item.id, variant.key(&item.id)))?;
            item.prices.push(VariantPrice { variant, price });
        }
        item.refresh_derived()?;
        Ok(item)
    }

    fn case_from_row(row: CaseRow, item_index: &HashMap<String, usize>, items: &[CatalogItem]) -> Result<Case, String> {
        if !valid_id(&row.id) {
            return Err(format!("case id {:?}: use 1-40 of [a-z0-9-]", row.id));
        }
        let price = match &row.price {
            Some(raw) => Some(
                Tokens::parse(raw.get())
                    .filter(|p| p.0 > 0)
                    .ok_or_else(|| format!("case {}: price must be > 0 with at most 2 decimals", row.id))?,
            ),
            None => None,
        };
        if row.items.is_empty() {
            return Err(format!("case {} has no items", row.id));
        }
        let weighted = row.items.iter().filter(|e| matches!(e, CaseEntryRow::Weighted { .. })).count();
        if weighted != 0 && weighted != row.items.len() {
            return Err(format!("case {}: give a weight to every item or to none", row.id));
        }
        let mut picked: Vec<(usize, u64)> = Vec::new();
        for e in &row.items {
            let (id, weight) = match e {
                CaseEntryRow::Id(id) => (id, 0),
                CaseEntryRow::Weighted { item, weight } => {
                    if *weight == 0 {
                        return Err(format!("case {}: item {item} has weight 0", row.id));
                    }
                    (item, *weight)
                }
            };
            let idx = *item_index.get(id).ok_or_else(|| format!("case {}: unknown item {id}", row.id))?;
            if picked.iter().any(|p| p.0 == idx) {
                return Err(format!("case {}: item {id} listed twice", row.id));
            }
            picked.push((idx, weight));
        }
        let entries = if weighted == 0 { tier_weights(&picked, items) } else { picked };
        let mut total: u64 = 0;
        for e in &entries {
            total = total.checked_add(e.1).ok_or_else(|| format!("case {}: weights overflow", row.id))?;
        }
        Ok(Case {
            id: row.id,
            name: row.name.en,
            name_ru: row.name.ru,
            image: row.image,
            price: price.unwrap_or(Tokens(0)),
            fixed_price: price.is_some(),
            entries,
            total_weight: total,
            off_sale: None,
        })
    }

    /// Sets every case without a fixed price to its expected value over `rtp_bp`. A case whose
    /// price does not compute (overflow) keeps the price it had and is answered as a problem.
    fn price_cases(&mut self) -> Vec<PriceProblem> {
        let mut problems = Vec::new();
        for i in 0..self.cases.len() {
            if self.cases[i].fixed_price {
                continue;
            }
            match self.price_for_rtp(&self.cases[i], self.rtp_bp) {
                Some(price) => self.cases[i].price = price,
                None => problems
                    .push(PriceProblem { case_id: self.cases[i].id.clone(), detail: "its price overflows at these variant prices".into() }),
            }
        }
        problems
    }

    /// Replaces variant prices (keys as `Variant::key`; unknown keys are ignored), then re-prices
    /// the cases without a fixed price for `rtp_bp`. A skin whose new
    /// prices overflow its expected value keeps its old prices; such skins and cases whose price
    /// overflows are answered as problems (the caller takes those cases off sale).
    pub fn apply_prices(&mut self, prices: &HashMap<String, Tokens>, rtp_bp: i64) -> Vec<PriceProblem> {
        let mut bad_items = Vec::new();
        for (idx, item) in self.items.iter_mut().enumerate() {
            let before = item.prices.clone();
            for vp in &mut item.prices {
                if let Some(p) = prices.get(&vp.variant.key(&item.id)).filter(|p| p.0 > 0) {
                    vp.price = *p;
                }
            }
            if let Err(why) = item.refresh_derived() {
                item.prices = before;
                bad_items.push((idx, why));
            }
        }
        self.rtp_bp = rtp_bp;
        let mut problems = self.price_cases();
        for (idx, why) in bad_items {
            for c in self.cases.iter().filter(|c| c.entries.iter().any(|e| e.0 == idx)) {
                problems.push(PriceProblem { case_id: c.id.clone(), detail: why.clone() });
            }
        }
        problems
    }

    /// Takes the named cases off sale (case id → why): the store leaves them out. Unknown ids
    /// are ignored.
    pub fn set_off_sale(&mut self, off: &HashMap<String, String>) {
        for case in &mut self.cases {
            if let Some(why) = off.get(&case.id) {
                case.off_sale = Some(why.clone());
            }
        }
    }

    /// A case of the catalog, on sale or not (past opens verify, the feed names it).
    pub fn case(&self, id: &str) -> Option<&Case> {
        self.case_index.get(id).map(|&i| &self.cases[i])
    }

    /// The ids of the cases that can drop the skin `item_id`.
    pub fn cases_with_item(&self, item_id: &str) -> Vec<String> {
        let Some(&idx) = self.item_index.get(item_id) else { return Vec::new() };
        self.cases.iter().filter(|c| c.entries.iter().any(|e| e.0 == idx)).map(|c| c.id.clone()).collect()
    }

    /// A case that can be opened: in the catalog and on sale.
    pub fn case_on_sale(&self, id: &str) -> Option<&Case> {
        self.case(id).filter(|c| c.off_sale.is_none())
    }

    pub fn item(&self, id: &str) -> Option<&CatalogItem> {
        self.item_index.get(id).map(|&i| &self.items[i])
    }

    pub fn package(&self, id: &str) -> Option<&Package> {
        self.packages.iter().find(|p| p.id == id)
    }

    /// The cheapest case on sale (tests and demos open it).
    pub fn cheapest_case(&self) -> Option<&Case> {
        self.cases.iter().filter(|c| c.off_sale.is_none()).min_by_key(|c| c.price)
    }

    /// Expected market value of one drop, in hundredths × `EV_SCALE` (floored once per skin).
    /// `None` when it overflows: never a wrapped number.
    pub fn expected_value_scaled(&self, case: &Case) -> Option<i128> {
        let mut sum: i128 = 0;
        for &(i, w) in &case.entries {
            sum = sum.checked_add(goods::expected_value_scaled(&self.items[i])?.checked_mul(i128::from(w))?)?;
        }
        Some(sum / i128::from(case.total_weight.max(1)))
    }

    /// Expected market value of one drop, in hundredths (rounded to the nearest).
    pub fn expected_value(&self, case: &Case) -> Option<Tokens> {
        self.expected_value_scaled(case).and_then(round_scaled).map(Tokens)
    }

    /// The case price whose return to player is `rtp_bp`: expected value ÷ RTP, rounded once to
    /// the nearest whole token (the store shows whole tokens), at least one token. `None` when it
    /// does not fit: an overflow is an error, never a wrapped (negative) price.
    pub fn price_for_rtp(&self, case: &Case, rtp_bp: i64) -> Option<Tokens> {
        let num = self.expected_value_scaled(case)?.checked_mul(10_000)?;
        let den = EV_SCALE * i128::from(rtp_bp.max(1)) * 100;
        let whole = num.checked_add(den / 2)? / den;
        let whole = i64::try_from(whole).ok()?.max(1);
        whole.checked_mul(100).map(Tokens)
    }

    /// Return to player in basis points of the price (floored); `None` when it does not compute.
    pub fn rtp_bp(&self, case: &Case) -> Option<i64> {
        let num = self.expected_value_scaled(case)?.checked_mul(10_000)?;
        i64::try_from(num / (EV_SCALE * i128::from(case.price.0.max(1)))).ok()
    }

    /// `fragbox catalog check`: a printable report and whether every case is within the band.
    pub fn check_report(&self) -> (String, bool) {
        let mut out = String::new();
        let mut ok = true;
        for c in &self.cases {
            let Some(rtp) = self.rtp_bp(c) else {
                ok = false;
                out.push_str(&format!("case {:<24} PRICE DOES NOT COMPUTE (overflow){}\n", c.id, off_sale_note(c)));
                continue;
            };
            let inside = (RTP_MIN_BP..=RTP_MAX_BP).contains(&rtp);
            ok &= inside;
            out.push_str(&format!(
                "case {:<24} price {:>8}  expected value {:>9}  RTP {:>3}.{:02} %  {} items  {}{}\n",
                c.id,
                c.price.to_string(),
                self.expected_value(c).map(|v| v.to_string()).unwrap_or_default(),
                rtp / 100,
                rtp % 100,
                c.entries.len(),
                if inside { "ok" } else { "OUTSIDE 80-95 %" },
                off_sale_note(c)
            ));
            for &(i, w) in &c.entries {
                let item = &self.items[i];
                let (lo, hi) = item.price_range();
                out.push_str(&format!(
                    "    {:<44} {:<13} chance {:>8.4} %  value {:>9}  variants {:>9} .. {:>9}\n",
                    item.market_hash_name(),
                    item.rarity,
                    w as f64 * 100.0 / c.total_weight as f64,
                    item.token_price.to_string(),
                    lo.to_string(),
                    hi.to_string(),
                ));
            }
        }
        out.push_str(&format!(
            "{} cases, {} skins, {} variants priced\n",
            self.cases.len(),
            self.items.len(),
            self.items.iter().map(|i| i.prices.len()).sum::<usize>(),
        ));
        (out, ok)
    }

    /// Writes the catalog into the store (cases, items, packages); rows no longer in the files are
    /// deactivated, never deleted, so history keeps its references. Variant prices are not written:
    /// `catalog_prices` holds only what a market reprice set, and never a committed default.
    pub async fn upsert(&self, pool: &Pool) -> Result<(), sqlx::Error> {
        let mut tx = crate::domain::store::begin_write(pool).await.map_err(into_sqlx)?;
        crate::domain::store::lock_key(&mut tx, "catalog").await.map_err(into_sqlx)?;
        for it in &self.items {
            sqlx::query(
                "INSERT INTO catalog_items(id, weapon, finish, rarity, condition, image, token_price) VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT(id) DO UPDATE SET weapon = excluded.weapon, finish = excluded.finish, rarity = excluded.rarity,
                 condition = excluded.condition, image = excluded.image, token_price = excluded.token_price",
            )
            .bind(&it.id)
            .bind(&it.weapon)
            .bind(&it.finish)
            .bind(&it.rarity)
            .bind(&it.condition)
            .bind(&it.image)
            .bind(it.token_price.0)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query("UPDATE cases SET active = 0").execute(&mut *tx).await?;
        for (pos, c) in self.cases.iter().enumerate() {
            sqlx::query(
                "INSERT INTO cases(id, name, image, price, position, active) VALUES ($1, $2, $3, $4, $5, 1)
                 ON CONFLICT(id) DO UPDATE SET name = excluded.name, image = excluded.image, price = excluded.price,
                 position = excluded.position, active = 1",
            )
            .bind(&c.id)
            .bind(&c.name)
            .bind(&c.image)
            .bind(c.price.0)
            .bind(pos as i64)
            .execute(&mut *tx)
            .await?;
        }
        // What an operator or the price rules took off sale stays off: only `catalog on` ends it.
        sqlx::query("UPDATE cases SET active = 0 WHERE id IN (SELECT case_id FROM cases_off_sale)").execute(&mut *tx).await?;
        sqlx::query("UPDATE packages SET active = 0").execute(&mut *tx).await?;
        for (pos, p) in self.packages.iter().enumerate() {
            sqlx::query(
                "INSERT INTO packages(id, tokens, bonus, stars, position, active) VALUES ($1, $2, $3, $4, $5, 1)
                 ON CONFLICT(id) DO UPDATE SET tokens = excluded.tokens, bonus = excluded.bonus, stars = excluded.stars,
                 position = excluded.position, active = 1",
            )
            .bind(&p.id)
            .bind(p.tokens)
            .bind(p.bonus)
            .bind(p.stars)
            .bind(pos as i64)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await
    }
}

/// `  OFF SALE (why)` for a report line.
fn off_sale_note(c: &Case) -> String {
    c.off_sale.as_ref().map(|why| format!("  OFF SALE ({why})")).unwrap_or_default()
}

/// Percent, rounded to 3 decimals: display only.
pub fn chance(weight: u64, total: u64) -> f64 {
    (weight as f64 * 100_000.0 / total.max(1) as f64).round() / 1000.0
}

/// Integer weights giving each tier exactly its `TIER_BP` share, spread evenly over its items:
/// with `m` the least common multiple of the tiers' item counts, an item of a tier with `n`
/// items weighs `bp × m / n`, and the case totals `m × (sum of the present tiers' bp)`. Entries
/// come out in tier order (mil-spec first), keeping the file's order within a tier.
fn tier_weights(picked: &[(usize, u64)], items: &[CatalogItem]) -> Vec<(usize, u64)> {
    let mut counts = [0u64; TIER_BP.len()];
    for &(i, _) in picked {
        counts[tier_of(&items[i].rarity).unwrap_or(0)] += 1;
    }
    let m = counts.iter().filter(|&&n| n > 0).fold(1u64, |acc, &n| acc / gcd(acc, n) * n);
    let mut out: Vec<(usize, usize, u64)> = picked
        .iter()
        .map(|&(i, _)| {
            let t = tier_of(&items[i].rarity).unwrap_or(0);
            (t, i, TIER_BP[t].1 * (m / counts[t]))
        })
        .collect();
    out.sort_by_key(|e| e.0); // stable: the file's order within a tier
    out.into_iter().map(|(_, i, w)| (i, w)).collect()
}

/// The catalog upsert speaks `sqlx::Error`; the store helpers answer `DomainError`.
fn into_sqlx(e: crate::domain::DomainError) -> sqlx::Error {
    match e {
        crate::domain::DomainError::Database(e) => e,
        other => sqlx::Error::Protocol(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo_catalog() -> Catalog {
        Catalog::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/catalog")).unwrap()
    }

    #[test]
    fn library_pictures_are_served_by_the_shop_and_own_pictures_stay() {
        let c = repo_catalog().with_served_pictures();
        let case = &c.cases[0];
        assert!(case.image.starts_with("/img/"), "{}", case.image);
        assert!(c.items.iter().all(|i| !i.image.starts_with("/images/") && !i.image.contains("://")));
        assert!(c.cases.iter().all(|k| !k.image.starts_with("/images/") && !k.image.contains("://")));
    }

    #[test]
    fn the_committed_catalog_loads_with_at_least_twenty_real_cases() {
        let c = repo_catalog();
        assert!(c.cases.len() >= 20, "{}", c.cases.len());
        for case in &c.cases {
            assert!(case.entries.iter().any(|&(i, _)| c.items[i].is_special()), "{} has no ★ special", case.id);
        }
    }

    #[test]
    fn tiers_drop_with_valves_odds_exactly() {
        let c = repo_catalog();
        for case in &c.cases {
            let mut per_tier = [0u64; 5];
            for &(i, w) in &case.entries {
                per_tier[tier_of(&c.items[i].rarity).unwrap()] += w;
            }
            let present: u64 = TIER_BP.iter().zip(per_tier).filter(|(_, w)| *w > 0).map(|(t, _)| t.1).sum();
            for (t, w) in TIER_BP.iter().zip(per_tier) {
                if w > 0 {
                    // w / total == bp / present, exactly.
                    assert_eq!(u128::from(w) * u128::from(present), u128::from(t.1) * u128::from(case.total_weight), "{} {}", case.id, t.0);
                }
            }
            assert_eq!(present, 10_000, "{} lacks a tier", case.id);
        }
    }

    #[test]
    fn every_case_returns_ninety_percent_within_rounding() {
        let c = repo_catalog();
        let (report, ok) = c.check_report();
        assert!(ok, "{report}");
        for case in &c.cases {
            let rtp = c.rtp_bp(case).unwrap();
            assert!((8950..=9050).contains(&rtp), "{} {rtp}", case.id);
            assert_eq!(case.price.0 % 100, 0, "{} costs whole tokens", case.id);
        }
    }

    #[test]
    fn every_variant_of_every_skin_has_a_price() {
        let c = repo_catalog();
        for it in &c.items {
            assert_eq!(it.prices.len(), it.variants().len(), "{}", it.id);
            assert!(it.prices.iter().all(|p| p.price.0 > 0));
            if it.stat_trak {
                assert!(it.price(true, it.prices[0].variant.exterior).is_some());
            }
        }
    }

    #[test]
    fn a_missing_tier_renormalises_the_others() {
        let mut a = CatalogItem::for_tests("AK-47", "A", "milspec", Some((0.0, 1.0)), true);
        a.id = "a".into();
        let mut b = CatalogItem::for_tests("AK-47", "B", "milspec", Some((0.0, 1.0)), true);
        b.id = "b".into();
        let mut k = CatalogItem::for_tests("Karambit", "Fade", "extraordinary", Some((0.0, 0.08)), true);
        k.id = "k".into();
        let w = tier_weights(&[(2, 0), (0, 0), (1, 0)], &[a, b, k]);
        // mil-spec first; lcm(2, 1) = 2: 7992 each, the special 26 × 2.
        assert_eq!(w, vec![(0, 7992), (1, 7992), (2, 52)]);
    }

    #[test]
    fn an_operators_custom_case_of_real_skins_is_priced_and_renormalised() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/catalog");
        let dir = std::env::temp_dir().join(format!("fragbox-custom-cases-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for f in ["items.json", "cases.json", "prices.json", "packages.json"] {
            std::fs::copy(repo.join(f), dir.join(f)).unwrap();
        }
        // The README's example: two mil-spec skins and two ★ specials (no middle tiers).
        std::fs::write(
            dir.join("custom-cases.json"),
            r#"{"cases": [{"id":"knife-lottery","name":{"en":"Knife Lottery","ru":"Ножевая лотерея"},
              "image":"/catalog/images/cases/blade-vault.svg",
              "items":["m4a4-choppa","mag7-resupply","bowie-knife-doppler","butterfly-knife-vanilla"]}]}"#,
        )
        .unwrap();
        let c = Catalog::load(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let case = c.case("knife-lottery").unwrap();
        // 7992 : 26 between the two tiers, even within each.
        let weights: Vec<u64> = case.entries.iter().map(|e| e.1).collect();
        assert_eq!(weights, vec![7992, 7992, 26, 26]);
        assert_eq!(case.total_weight, 2 * 8018);
        assert!((8950..=9050).contains(&c.rtp_bp(case).unwrap()));
        assert!(c.check_report().1);
    }

    #[test]
    fn applied_prices_move_the_case_price_and_keep_the_rtp() {
        let mut c = repo_catalog();
        let case = c.cases[0].clone();
        let before = c.case(&case.id).unwrap().price;
        let mut prices = HashMap::new();
        for &(i, _) in &case.entries {
            let it = &c.items[i];
            for vp in &it.prices {
                prices.insert(vp.variant.key(&it.id), Tokens(vp.price.0 * 2));
            }
        }
        assert!(c.apply_prices(&prices, 9000).is_empty());
        let after = c.case(&case.id).unwrap();
        assert!(after.price.0 > before.0 * 19 / 10, "{} -> {}", before, after.price);
        assert!((8950..=9050).contains(&c.rtp_bp(after).unwrap()));
    }

    #[test]
    fn a_case_whose_price_overflows_keeps_its_price_and_is_answered_as_a_problem() {
        let mut c = repo_catalog();
        let case = c.cases[0].clone();
        let before = case.price;
        // Every variant of the case at the largest price a row can hold: the expected value (a
        // weighted mean) fits, the case price (÷ 0.90) does not.
        let mut prices: HashMap<String, Tokens> = HashMap::new();
        for &(i, _) in &case.entries {
            let it = &c.items[i];
            prices.extend(it.prices.iter().map(|vp| (vp.variant.key(&it.id), Tokens(i64::MAX))));
        }
        let problems = c.apply_prices(&prices, 9000);
        assert!(problems.iter().any(|p| p.case_id == case.id), "{problems:?}");
        assert_eq!(c.case(&case.id).unwrap().price, before, "never a wrapped price");
        assert!(c.cases.iter().all(|k| k.price.0 > 0));
        // Taken off sale, it leaves the store but stays a case (past opens verify).
        let off: HashMap<String, String> = problems.iter().map(|p| (p.case_id.clone(), p.detail.clone())).collect();
        c.set_off_sale(&off);
        assert!(c.case_on_sale(&case.id).is_none());
        assert!(c.case(&case.id).is_some());
        assert_ne!(c.cheapest_case().map(|k| k.id.clone()), Some(case.id.clone()));
        assert!(!c.check_report().1);
    }
}
