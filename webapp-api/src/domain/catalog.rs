//! The catalog: cases, their items with drop weights and sell prices, and token packages.
//! Operators edit `data/catalog/*.json`; the process loads it at start, upserts it into SQLite
//! and serves it from memory (pre-serialised, with an ETag).
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

use crate::domain::store::Pool;
use crate::domain::Tokens;

/// A case must give back this share of its price on average (basis points of the price).
pub const RTP_MIN_BP: i64 = 8000;
pub const RTP_MAX_BP: i64 = 9200;

#[derive(Clone, Debug)]
pub struct CatalogItem {
    pub id: String,
    pub weapon: String,
    pub finish: String,
    pub rarity: String,
    pub condition: String,
    pub image: String,
    pub token_price: Tokens,
}

impl CatalogItem {
    pub fn market_hash_name(&self) -> String {
        format!("{} | {}", self.weapon, self.finish)
    }
}

#[derive(Clone, Debug)]
pub struct Case {
    pub id: String,
    pub name: String,
    pub image: String,
    pub price: Tokens,
    /// (index into `Catalog::items`, weight), in draw order.
    pub entries: Vec<(usize, u64)>,
    pub total_weight: u64,
}

#[derive(Clone, Debug, Serialize)]
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
    /// `{"data":[...]}` of every case, and its ETag.
    pub cases_json: Arc<str>,
    pub cases_etag: String,
    case_json: HashMap<String, Arc<str>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseItemDto<'a> {
    pub id: &'a str,
    pub icon_url: &'a str,
    pub market_hash_name: String,
    pub name: &'a str,
    pub variant: &'a str,
    pub token_price: Tokens,
    pub rarity: &'a str,
    pub condition: &'a str,
    pub weight: u64,
    /// Percent, rounded to 3 decimals: display only.
    pub chance: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CaseDto<'a> {
    id: &'a str,
    name: &'a str,
    image: &'a str,
    tokens: Tokens,
    items: Vec<CaseItemDto<'a>>,
}

#[derive(Deserialize)]
struct ItemsFile {
    items: Vec<ItemRow>,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ItemRow {
    id: String,
    weapon: String,
    finish: String,
    rarity: String,
    condition: String,
    image: String,
    token_price: Box<RawValue>,
}
#[derive(Deserialize)]
struct CasesFile {
    cases: Vec<CaseRow>,
}
#[derive(Deserialize)]
struct CaseRow {
    id: String,
    name: String,
    image: String,
    price: Box<RawValue>,
    items: Vec<CaseEntryRow>,
}
#[derive(Deserialize)]
struct CaseEntryRow {
    item: String,
    weight: u64,
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

impl Catalog {
    /// Reads and checks the catalog folder. Refuses unknown item references, zero weights,
    /// empty cases, bad ids and prices with more than 2 decimals.
    pub fn load(dir: &Path) -> Result<Catalog, String> {
        let items: ItemsFile = read(dir, "items.json")?;
        let cases: CasesFile = read(dir, "cases.json")?;
        let packages: PackagesFile = read(dir, "packages.json")?;
        let mut out_items = Vec::new();
        let mut item_index = HashMap::new();
        for row in items.items {
            if !valid_id(&row.id) {
                return Err(format!("item id {:?}: use 1-40 of [a-z0-9-]", row.id));
            }
            let price = Tokens::parse(row.token_price.get())
                .filter(|p| p.0 > 0)
                .ok_or_else(|| format!("item {}: tokenPrice must be > 0 with at most 2 decimals", row.id))?;
            if item_index.insert(row.id.clone(), out_items.len()).is_some() {
                return Err(format!("item {} listed twice", row.id));
            }
            out_items.push(CatalogItem {
                id: row.id,
                weapon: row.weapon,
                finish: row.finish,
                rarity: row.rarity,
                condition: row.condition,
                image: row.image,
                token_price: price,
            });
        }
        let mut out_cases = Vec::new();
        let mut case_index = HashMap::new();
        for row in cases.cases {
            if !valid_id(&row.id) {
                return Err(format!("case id {:?}: use 1-40 of [a-z0-9-]", row.id));
            }
            let price = Tokens::parse(row.price.get())
                .filter(|p| p.0 > 0)
                .ok_or_else(|| format!("case {}: price must be > 0 with at most 2 decimals", row.id))?;
            if row.items.is_empty() {
                return Err(format!("case {} has no items", row.id));
            }
            let mut entries = Vec::new();
            let mut total: u64 = 0;
            for e in &row.items {
                let idx = *item_index.get(&e.item).ok_or_else(|| format!("case {}: unknown item {}", row.id, e.item))?;
                if e.weight == 0 {
                    return Err(format!("case {}: item {} has weight 0", row.id, e.item));
                }
                total = total.checked_add(e.weight).ok_or_else(|| format!("case {}: weights overflow", row.id))?;
                entries.push((idx, e.weight));
            }
            if case_index.insert(row.id.clone(), out_cases.len()).is_some() {
                return Err(format!("case {} listed twice", row.id));
            }
            out_cases.push(Case { id: row.id, name: row.name, image: row.image, price, entries, total_weight: total });
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
            cases_json: "".into(),
            cases_etag: String::new(),
            case_json: HashMap::new(),
        };
        catalog.render();
        Ok(catalog)
    }

    fn render(&mut self) {
        let all: Vec<CaseDto> = self.cases.iter().map(|c| self.case_dto(c)).collect();
        let body = serde_json::to_string(&serde_json::json!({ "data": all })).expect("catalog serialises");
        self.cases_etag = format!("\"{}\"", &hex::encode(Sha256::digest(body.as_bytes()))[..32]);
        let mut one = HashMap::new();
        for c in &self.cases {
            let body = serde_json::to_string(&serde_json::json!({ "data": self.case_dto(c) })).expect("case serialises");
            one.insert(c.id.clone(), body.into());
        }
        self.cases_json = body.into();
        self.case_json = one;
    }

    fn case_dto<'a>(&'a self, c: &'a Case) -> CaseDto<'a> {
        CaseDto {
            id: &c.id,
            name: &c.name,
            image: &c.image,
            tokens: c.price,
            items: c.entries.iter().map(|&(i, w)| self.item_dto(&self.items[i], w, c.total_weight)).collect(),
        }
    }

    pub fn item_dto<'a>(&'a self, item: &'a CatalogItem, weight: u64, total: u64) -> CaseItemDto<'a> {
        let chance = (weight as f64 * 100_000.0 / total as f64).round() / 1000.0;
        CaseItemDto {
            id: &item.id,
            icon_url: &item.image,
            market_hash_name: item.market_hash_name(),
            name: &item.weapon,
            variant: &item.finish,
            token_price: item.token_price,
            rarity: &item.rarity,
            condition: &item.condition,
            weight,
            chance,
        }
    }

    pub fn case(&self, id: &str) -> Option<&Case> {
        self.case_index.get(id).map(|&i| &self.cases[i])
    }

    pub fn case_json(&self, id: &str) -> Option<Arc<str>> {
        self.case_json.get(id).cloned()
    }

    pub fn item(&self, id: &str) -> Option<&CatalogItem> {
        self.item_index.get(id).map(|&i| &self.items[i])
    }

    pub fn package(&self, id: &str) -> Option<&Package> {
        self.packages.iter().find(|p| p.id == id)
    }

    /// Expected sell value of one drop, in hundredths (rounded down).
    pub fn expected_value(&self, case: &Case) -> Tokens {
        let sum: i128 = case.entries.iter().map(|&(i, w)| i128::from(self.items[i].token_price.0) * i128::from(w)).sum();
        Tokens((sum / i128::from(case.total_weight)) as i64)
    }

    /// Return to player in basis points of the price.
    pub fn rtp_bp(&self, case: &Case) -> i64 {
        let sum: i128 = case.entries.iter().map(|&(i, w)| i128::from(self.items[i].token_price.0) * i128::from(w)).sum();
        (sum * 10_000 / (i128::from(case.total_weight) * i128::from(case.price.0))) as i64
    }

    /// `fragbox catalog check`: a printable report and whether every case is within the band.
    pub fn check_report(&self) -> (String, bool) {
        let mut out = String::new();
        let mut ok = true;
        for c in &self.cases {
            let rtp = self.rtp_bp(c);
            let inside = (RTP_MIN_BP..=RTP_MAX_BP).contains(&rtp);
            ok &= inside;
            out.push_str(&format!(
                "case {:<16} price {:>8}  expected value {:>9}  RTP {:>3}.{:02} %  {}\n",
                c.id,
                c.price.to_string(),
                self.expected_value(c).to_string(),
                rtp / 100,
                rtp % 100,
                if inside { "ok" } else { "OUTSIDE 80-92 %" }
            ));
            for &(i, w) in &c.entries {
                let item = &self.items[i];
                out.push_str(&format!(
                    "    {:<40} {:>10}  weight {:>7}  chance {:>8.3} %\n",
                    item.market_hash_name(),
                    item.token_price.to_string(),
                    w,
                    w as f64 * 100.0 / c.total_weight as f64
                ));
            }
        }
        (out, ok)
    }

    /// Writes the catalog into SQLite (cases, items, packages); rows no longer in the files are
    /// deactivated, never deleted, so history keeps its references.
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
/// The catalog upsert speaks `sqlx::Error`; the store helpers answer `DomainError`.
fn into_sqlx(e: crate::domain::DomainError) -> sqlx::Error {
    match e {
        crate::domain::DomainError::Database(e) => e,
        other => sqlx::Error::Protocol(other.to_string()),
    }
}
