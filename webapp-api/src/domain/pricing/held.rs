//! Held price changes (`catalog_held`): what a reprice would not apply on its own, kept so an
//! operator can review them (`fragbox catalog held`) and accept them one by one or all
//! (`fragbox catalog accept <name>|--all`) without asking the feed again. A quote outside its
//! rarity's bounds is listed but never accepted.
use std::collections::HashMap;

use crate::domain::catalog::Catalog;
use crate::domain::goods::Variant;
use crate::domain::money::Usd;
use crate::domain::pricing::{queue_notice, rules, set_price, Change, HoldReason, Settings, SHOWN};
use crate::domain::store::{self, query, Exec};
use crate::domain::{Domain, DomainError, DomainResult, Tokens};

/// One held change as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldRow {
    pub variant: String,
    pub market_hash_name: String,
    pub reason: HoldReason,
    /// The price that stays.
    pub from: Tokens,
    /// The quote in tokens; `None` when it does not fit.
    pub to: Option<Tokens>,
    pub quote: Usd,
    pub cross: Option<Usd>,
    pub source: String,
    /// Unix seconds: first held, last quoted, last told to the admins.
    pub held_at: i64,
    pub updated_at: i64,
    pub reported_at: i64,
}

type Row = (String, String, String, i64, Option<i64>, i64, Option<i64>, String, i64, i64, i64);

const SELECT: &str =
    "SELECT variant, market_hash_name, reason, from_price, to_price, to_cents, cross_cents, source, held_at, updated_at, reported_at
     FROM catalog_held ORDER BY market_hash_name, variant";

fn from_row(r: Row) -> HeldRow {
    let (variant, market_hash_name, reason, from, to, quote, cross, source, held_at, updated_at, reported_at) = r;
    HeldRow {
        variant,
        market_hash_name,
        // The column's CHECK admits only the three codes.
        reason: HoldReason::parse(&reason).unwrap_or(HoldReason::Bounds),
        from: Tokens(from),
        to: to.map(Tokens),
        quote: Usd::from_cents(quote),
        cross: cross.map(Usd::from_cents),
        source,
        held_at,
        updated_at,
        reported_at,
    }
}

/// Every held change, by Steam name.
pub async fn list(pool: &store::Pool) -> DomainResult<Vec<HeldRow>> {
    let rows: Vec<Row> = store::read(pool, None, |c| Box::pin(async move { store::query(SELECT).fetch_all(c).await })).await?;
    Ok(rows.into_iter().map(from_row).collect())
}

/// Which held changes to accept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Which {
    /// By Steam name (`AK-47 | Redline (Field-Tested)`) or variant key (`ak47-redline:ft`).
    One(String),
    All,
}

/// What an acceptance did.
#[derive(Clone, Debug, Default)]
pub struct Accepted {
    /// Written as prices an operator accepted (the new baseline), each with a history row.
    pub applied: Vec<Change>,
    /// Left held, and why (outside the bounds).
    pub refused: Vec<(HeldRow, String)>,
}

/// Applies held changes as an operator's prices, in one write: each becomes the variant's price
/// with a history row marked accepted (the baseline of the next 7 days) and leaves the held list;
/// a quote outside its rarity's bounds stays held (refused). The admins are told what was
/// accepted. `catalog` is the committed one (rarities). `NotFound` when `One` names nothing held.
pub async fn accept(domain: &Domain, catalog: &Catalog, which: Which, settings: &Settings) -> Result<Accepted, DomainError> {
    let rarities: HashMap<String, String> = catalog.items.iter().map(|i| (i.id.clone(), i.rarity.clone())).collect();
    let (rate, notify, now) = (settings.tokens_per_usd, settings.notify.clone(), domain.now());
    domain.write(move |tx| Box::pin(accept_in(tx, which, rarities, rate, notify, now))).await
}

async fn accept_in(
    tx: &mut dyn Exec,
    which: Which,
    rarities: HashMap<String, String>,
    rate: Tokens,
    notify: Vec<i64>,
    now: i64,
) -> Result<Accepted, DomainError> {
    store::lock_key(tx, "catalog-prices").await?;
    let rows: Vec<HeldRow> = query(SELECT).fetch_all::<Row>(tx).await?.into_iter().map(from_row).collect();
    let chosen: Vec<HeldRow> = match &which {
        Which::All => rows,
        Which::One(name) => rows.into_iter().filter(|r| &r.market_hash_name == name || &r.variant == name).collect(),
    };
    if chosen.is_empty() && matches!(which, Which::One(_)) {
        return Err(DomainError::NotFound);
    }
    let mut out = Accepted::default();
    for row in chosen {
        let rarity = Variant::parse_key(&row.variant).and_then(|(id, _)| rarities.get(id)).cloned().unwrap_or_default();
        let in_bounds = rules::bounds(&rarity).is_some_and(|b| b.contains(row.quote));
        let usable = row.to.filter(|t| rules::usable(*t, &rarity, rate).is_ok());
        let new = match (row.reason, usable) {
            (HoldReason::Bounds, _) => None,
            (_, Some(t)) if in_bounds => Some(t),
            _ => None,
        };
        let Some(new) = new else {
            let why = match rules::bounds(&rarity) {
                Some(b) => format!("{} is outside {}–{} for {rarity}: never applied", row.quote, b.floor, b.ceiling),
                None => "no longer in the catalog".to_owned(),
            };
            out.refused.push((row, why));
            continue;
        };
        let current: Option<(i64,)> =
            query("SELECT price FROM catalog_prices WHERE variant = $1").bind(&row.variant).fetch_optional(tx).await?;
        set_price(tx, &row.variant, new, &row.source, true, now).await?;
        query("DELETE FROM catalog_held WHERE variant = $1").bind(&row.variant).execute(tx).await?;
        out.applied.push(Change {
            variant: row.variant.clone(),
            market_hash_name: row.market_hash_name.clone(),
            old: current.map_or(row.from, |c| Tokens(c.0)),
            new,
        });
    }
    if !out.applied.is_empty() {
        let mut body = format!("✅ {} held price change(s) accepted by an operator:\n", out.applied.len());
        for c in out.applied.iter().take(SHOWN) {
            body.push_str(&format!("• {}: {} → {} ({:+} %)\n", c.market_hash_name, c.old, c.new, rules::change_percent(c.old, c.new)));
        }
        if out.applied.len() > SHOWN {
            body.push_str(&format!("… and {} more\n", out.applied.len() - SHOWN));
        }
        body.push_str("Servers charge new prices from their next start.");
        queue_notice(tx, &notify, &body, now).await?;
    }
    Ok(out)
}
