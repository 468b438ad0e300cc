//! The real catalog in a running app: the store's cases match the catalog's skins, migration 0008
//! is in place, and market prices stored by a reprice move the case prices.
use reqwest::StatusCode;

use webapp_api::domain::catalog::Catalog;
use webapp_api::domain::goods::{self, Exterior};
use webapp_api::domain::Tokens;

use crate::common::*;

#[tokio::test]
async fn every_case_of_the_store_shows_the_catalogs_skins_with_their_names_rarity_and_wear() {
    let app = TestApp::demo().await;
    let (s, list) = app.get("/api/v1/cases", None).await;
    assert_eq!(s, StatusCode::OK);
    let cases = list["data"].as_array().unwrap();
    assert!(cases.len() >= 20, "{}", cases.len());
    for c in cases {
        let id = c["id"].as_str().unwrap();
        let (s, one) = app.get(&format!("/api/v1/cases/{id}"), None).await;
        assert_eq!(s, StatusCode::OK);
        let items = one["data"]["items"].as_array().unwrap();
        assert_eq!(items.len(), c["items"].as_array().unwrap().len());
        assert!(items.iter().any(|i| i["rarity"] == "extraordinary"), "{id} has no ★ special");
        for i in items {
            let it = repo_catalog().item(i["id"].as_str().unwrap()).unwrap();
            assert_eq!((i["name"].as_str(), i["variant"].as_str()), (Some(it.weapon.as_str()), Some(it.finish.as_str())));
            assert_eq!((i["nameRu"].as_str(), i["variantRu"].as_str()), (Some(it.weapon_ru.as_str()), Some(it.finish_ru.as_str())));
            assert_eq!(i["rarity"].as_str(), Some(it.rarity.as_str()));
            assert_eq!(i["wearMin"].as_f64(), it.wear_min);
            assert_eq!(i["wearMax"].as_f64(), it.wear_max);
            assert_eq!(i["statTrak"].as_bool(), Some(it.stat_trak));
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn a_stored_market_price_moves_its_variant_and_the_case_price() {
    let app = TestApp::demo().await;
    // Migration 0008: the instance columns exist (old rows keep stat_trak 0 and nulls).
    sqlx::query("SELECT float, exterior, stat_trak, market_hash_name FROM inventory_items LIMIT 0")
        .fetch_all(&app.domain().db)
        .await
        .unwrap();
    // A reprice stored one price: a ★ special of the cheapest case, Field-Tested, not StatTrak™, at a million tokens.
    let case = repo_catalog().cheapest_case().unwrap().clone();
    let knife = case
        .entries
        .iter()
        .map(|&(i, _)| &repo_catalog().items[i])
        .find(|i| i.is_special() && i.price(false, Some(Exterior::FieldTested)).is_some())
        .unwrap();
    let key = goods::Variant { stat_trak: false, exterior: Some(Exterior::FieldTested) }.key(&knife.id);
    sqlx::query("INSERT INTO catalog_prices(variant, price, source, updated_at) VALUES ($1, $2, 'test', 0)")
        .bind(&key)
        .bind(100_000_000i64)
        .execute(&app.domain().db)
        .await
        .unwrap();
    let prices = goods::stored_prices(&app.domain().db).await.unwrap();
    assert_eq!(prices.get(&key), Some(&Tokens(100_000_000)));

    let mut catalog = Catalog::load(&repo_root().join("data/catalog")).unwrap();
    catalog.apply_prices(&prices, 9000);
    assert_eq!(catalog.item(&knife.id).unwrap().price(false, Some(Exterior::FieldTested)), Some(Tokens(100_000_000)));
    let after = catalog.case(&case.id).unwrap();
    assert!(after.price > case.price, "{} -> {}", case.price, after.price);
    assert!((8950..=9050).contains(&catalog.rtp_bp(after).unwrap()));
    // Other variants keep the committed default.
    assert_eq!(catalog.item(&knife.id).unwrap().price(true, Some(Exterior::FieldTested)), knife.price(true, Some(Exterior::FieldTested)));
    app.stop().await;
}
