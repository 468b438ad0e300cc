//! The catalog as the store reads it: `GET /cases` and `GET /cases/{id}`. The domain's catalog
//! is fixed for the life of a process, so its answers are written once, when the router's state
//! is built, and served as shared bytes (with the list's ETag and, in `encoded`, its compressed
//! forms). `state` holds what it renders; the routes serve it.
use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::domain::catalog::{chance, Case, Catalog};
use crate::domain::goods::CatalogItem;
use crate::domain::Tokens;
use crate::http::dto::Data;

/// A case of the store: its card (with each skin's `CaseOdds`) in the list, its page (with a
/// `CaseSkin` each).
/// Fields in the order of their names, as the catalog's JSON has always been written (the same
/// bytes, so the same ETag, across versions).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaseBody<I> {
    id: String,
    image: String,
    items: Vec<I>,
    name: String,
    name_ru: String,
    /// The price in tokens.
    #[schema(value_type = f64)]
    tokens: Tokens,
}

/// An item in the case list: only what a store card and the odds need (the list stays small).
#[derive(Serialize, ToSchema)]
pub struct CaseOdds {
    /// Percent, rounded to 3 decimals: display only.
    chance: f64,
    id: String,
    rarity: String,
}

/// A skin of a case with its odds, as `GET /cases/{id}` and the fairness verifier show it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaseSkin {
    /// Percent, rounded to 3 decimals: display only.
    chance: f64,
    condition: String,
    icon_url: String,
    id: String,
    /// The skin's Steam name without StatTrak™ or exterior (`★ Karambit | Doppler`).
    market_hash_name: String,
    name: String,
    name_ru: String,
    #[schema(value_type = f64)]
    price_max: Tokens,
    #[schema(value_type = f64)]
    price_min: Tokens,
    rarity: String,
    stat_trak: bool,
    /// Expected value of a drop of this skin over its variants, in tokens.
    #[schema(value_type = f64)]
    token_price: Tokens,
    variant: String,
    variant_ru: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    wear_max: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wear_min: Option<f64>,
    /// The exact figure the draw uses.
    weight: u64,
}

impl CaseSkin {
    /// `item` at `weight` in a case weighing `total`.
    pub fn of(item: &CatalogItem, weight: u64, total: u64) -> CaseSkin {
        let (price_min, price_max) = item.price_range();
        CaseSkin {
            id: item.id.clone(),
            icon_url: item.image.clone(),
            market_hash_name: item.market_hash_name(),
            name: item.weapon.clone(),
            variant: item.finish.clone(),
            name_ru: item.weapon_ru.clone(),
            variant_ru: item.finish_ru.clone(),
            token_price: item.token_price,
            price_min,
            price_max,
            rarity: item.rarity.clone(),
            condition: item.condition.clone(),
            wear_min: item.wear_min,
            wear_max: item.wear_max,
            stat_trak: item.stat_trak,
            weight,
            chance: chance(weight, total),
        }
    }
}

/// The store's answers, written once.
pub struct Rendered {
    /// `GET /cases`: the cases on sale.
    pub list: Arc<str>,
    /// The list's ETag (quoted).
    pub etag: String,
    pages: HashMap<String, Arc<str>>,
}

impl Rendered {
    /// Off-sale cases are not in the store: neither in the list nor as a page.
    pub fn of(catalog: &Catalog) -> Rendered {
        let on_sale = || catalog.cases.iter().filter(|c| c.off_sale.is_none());
        let cards: Vec<CaseBody<CaseOdds>> = on_sale().map(|c| card(catalog, c)).collect();
        let list = serde_json::to_string(&Data { data: cards }).unwrap_or_default();
        let etag = format!("\"{}\"", &hex::encode(Sha256::digest(list.as_bytes()))[..32]);
        let pages =
            on_sale().map(|c| (c.id.clone(), serde_json::to_string(&Data { data: page(catalog, c) }).unwrap_or_default().into())).collect();
        Rendered { list: list.into(), etag, pages }
    }

    /// `GET /cases/{id}` of a case on sale.
    pub fn page(&self, id: &str) -> Option<Arc<str>> {
        self.pages.get(id).cloned()
    }
}

fn card(catalog: &Catalog, c: &Case) -> CaseBody<CaseOdds> {
    let items = c
        .entries
        .iter()
        .map(|&(i, w)| CaseOdds {
            id: catalog.items[i].id.clone(),
            rarity: catalog.items[i].rarity.clone(),
            chance: chance(w, c.total_weight),
        })
        .collect();
    case_body(c, items)
}

fn page(catalog: &Catalog, c: &Case) -> CaseBody<CaseSkin> {
    let items = c.entries.iter().map(|&(i, w)| CaseSkin::of(&catalog.items[i], w, c.total_weight)).collect();
    case_body(c, items)
}

fn case_body<I>(c: &Case, items: Vec<I>) -> CaseBody<I> {
    CaseBody { id: c.id.clone(), name: c.name.clone(), name_ru: c.name_ru.clone(), image: c.image.clone(), tokens: c.price, items }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::Path;

    use super::Rendered;
    use crate::domain::catalog::Catalog;

    fn repo_catalog() -> Catalog {
        Catalog::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/catalog")).unwrap()
    }

    #[test]
    fn the_store_names_the_shops_own_pictures() {
        let c = repo_catalog().with_served_pictures();
        let r = Rendered::of(&c);
        assert!(!r.list.contains("\"/images/") && !r.list.contains("https://"), "the list still names the library's host");
        let page = r.page(&c.cases[0].id).unwrap();
        assert!(page.contains("\"iconUrl\":\"/img/"), "{}", &page[..200]);
    }

    #[test]
    fn the_case_list_stays_under_64_kb() {
        let r = Rendered::of(&repo_catalog());
        assert!(r.list.len() < 64 * 1024, "{}", r.list.len());
    }

    #[test]
    fn a_case_off_sale_leaves_the_store() {
        let mut c = repo_catalog();
        let id = c.cases[0].id.clone();
        c.set_off_sale(&HashMap::from([(id.clone(), "test".to_owned())]));
        let r = Rendered::of(&c);
        assert!(r.page(&id).is_none());
        assert!(!r.list.contains(&format!("\"id\":\"{id}\"")));
        assert!(r.page(&c.cases[1].id).is_some());
    }
}
