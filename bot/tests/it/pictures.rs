//! Pictures served by the shop (issue 32, point 8): item and case pictures come from the shop's
//! own origin, fetched from the CDN (a fake on 127.0.0.1 here) into a cache on first use or by
//! `fragbox catalog images`.
use std::time::Duration;

use reqwest::header::{CACHE_CONTROL, CONTENT_TYPE};
use reqwest::StatusCode;
use serde_json::Value;

use crate::common::*;
use crate::fake_cdn::{webp, FakeCdn};

async fn app_with(cdn: &FakeCdn) -> TestApp {
    TestApp::start(Options { env: vec![("CATALOG_ASSETS_URL", cdn.url.clone())], ..Options::default() }).await
}

fn cache_dir(app: &TestApp) -> std::path::PathBuf {
    app.dir.0.join("image-cache")
}

/// The picture file names of the catalog, from its library paths.
fn catalog_pictures() -> Vec<String> {
    repo_catalog().pictures().into_iter().map(|n| n.as_str().to_owned()).collect()
}

fn header(res: &reqwest::Response, name: reqwest::header::HeaderName) -> String {
    res.headers().get(name).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default()
}

#[tokio::test]
async fn a_picture_is_fetched_once_on_first_use_and_then_served_from_the_cache_for_a_year() {
    let cdn = FakeCdn::start().await;
    // Slow enough that the two requests below overlap at the CDN if both went there.
    cdn.set_delay(Duration::from_millis(300));
    let app = app_with(&cdn).await;
    let (_, cases) = app.get("/api/v1/cases", None).await;
    let path = cases["data"][0]["image"].as_str().or_else(|| cases[0]["image"].as_str()).unwrap().to_owned();
    let file = path.strip_prefix("/img/").unwrap_or_else(|| panic!("the case list names the shop's own picture: {path}"));

    let url = format!("{}{path}", app.base);
    let (a, b) = tokio::join!(app.http.get(&url).send(), app.http.get(&url).send());
    for res in [a.unwrap(), b.unwrap()] {
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(header(&res, CONTENT_TYPE), "image/webp");
        assert_eq!(header(&res, CACHE_CONTROL), "public, max-age=31536000, immutable");
        assert_eq!(res.bytes().await.unwrap().as_ref(), webp(file).as_slice());
    }
    assert_eq!(cdn.hits(file), 1, "two requests, one fetch");
    assert!(cache_dir(&app).join(file).is_file());

    cdn.set_down(true);
    let res = app.http.get(&url).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK, "served from the cache with the CDN down");
    assert_eq!(cdn.hits(file), 1);
    app.stop().await;
}

#[tokio::test]
async fn a_name_that_is_not_a_catalog_picture_is_refused_without_asking_the_cdn() {
    let cdn = FakeCdn::start().await;
    let app = app_with(&cdn).await;
    let known = catalog_pictures()[0].clone();
    let hash = known.trim_end_matches(".webp");
    let unknown = format!("{}.webp", "0".repeat(64));
    for bad in [
        format!("/img/{}", hash.to_uppercase() + ".webp"),
        format!("/img/{hash}.png"),
        format!("/img/{hash}"),
        "/img/..%2F..%2Fetc%2Fpasswd".to_owned(),
        "/img/%2E%2E.webp".to_owned(),
        format!("/img/{unknown}"),
    ] {
        let res = app.http.get(format!("{}{bad}", app.base)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{bad}");
    }
    assert_eq!(cdn.total_hits(), 0, "no bad or unknown name reaches the CDN");
    app.stop().await;
}

#[tokio::test]
async fn with_the_cdn_down_or_wrong_a_picture_is_a_clean_404_and_nothing_is_cached() {
    let cdn = FakeCdn::start().await;
    let app = app_with(&cdn).await;
    let names = catalog_pictures();
    let (down, html, huge_status) = (&names[0], &names[1], &names[2]);

    cdn.set_down(true);
    let res = app.http.get(format!("{}/img/{down}", app.base)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&res, CACHE_CONTROL), "no-store", "the browser asks again later");
    // A failure is remembered for a while: the next request does not wait on the CDN again.
    let res = app.http.get(format!("{}/img/{down}", app.base)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(cdn.hits(down), 1);
    cdn.set_down(false);

    cdn.break_file(html, 200, "text/html");
    cdn.break_file(huge_status, 404, "image/webp");
    for name in [html, huge_status] {
        let res = app.http.get(format!("{}/img/{name}", app.base)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_FOUND, "{name}");
    }
    let cached: Vec<_> = std::fs::read_dir(cache_dir(&app)).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(cached.is_empty(), "nothing cached: {cached:?}");
    app.stop().await;
}

#[tokio::test]
async fn skins_stored_with_the_cdns_address_are_served_by_the_shop_and_the_page_pictures_nothing_outside() {
    let cdn = FakeCdn::start().await;
    let app = app_with(&cdn).await;
    let t = app.player_with(3201, 10_000).await;
    let (item, _, _) = app.open_skin(cheap_case(), &t).await;
    let file = catalog_pictures()[0].clone();
    sqlx::query("UPDATE inventory_items SET image = $1 WHERE id = $2")
        .bind(format!("https://cdn.cstrike.app/images/{file}"))
        .bind(item)
        .execute(&app.domain().db)
        .await
        .unwrap();

    let (_, items) = app.get("/api/v1/user/items", Some(&t)).await;
    let listed: Vec<&Value> = items["data"].as_array().unwrap().iter().filter(|i| i["id"] == item).collect();
    assert_eq!(listed[0]["iconUrl"], format!("/img/{file}"));
    let (_, one) = app.get(&format!("/api/v1/user/item/{item}"), Some(&t)).await;
    assert_eq!(one["item"]["iconUrl"], format!("/img/{file}"), "{one}");
    let res = app.http.get(format!("{}/img/{file}", app.base)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);

    let res = app.http.get(format!("{}/", app.base)).send().await.unwrap();
    let csp = header(&res, reqwest::header::CONTENT_SECURITY_POLICY);
    let img = csp.split(';').map(str::trim).find(|d| d.starts_with("img-src")).unwrap();
    assert_eq!(img, "img-src 'self' data: blob: https://t.me", "{csp}");
    assert!(!csp.contains("cstrike") && !csp.contains(&cdn.url), "{csp}");
    app.stop().await;
}

/// Runs `fragbox catalog images` (no database needed) against `cdn` into `cache`.
async fn catalog_images(cdn: &FakeCdn, dir: &std::path::Path) -> (i32, String) {
    let (url, dir) = (cdn.url.clone(), dir.to_owned());
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(BIN)
            .args(["catalog", "images"])
            .current_dir(&dir)
            .env_remove("TELEGRAM_BOT_TOKEN")
            .env("DATABASE_URL", format!("sqlite://{}", dir.join("unused.db").display()))
            .env("CATALOG_DIR", repo_root().join("data/catalog"))
            .env("CATALOG_ASSETS_URL", url)
            .env("CATALOG_IMAGES_DIR", dir.join("cache"))
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    (out.status.code().unwrap_or(-1), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

#[tokio::test]
async fn fragbox_catalog_images_fills_the_cache_and_says_what_failed() {
    let cdn = FakeCdn::start().await;
    let dir = TempDir::new();
    let names = catalog_pictures();
    cdn.break_file(&names[3], 503, "text/html");

    let (code, out) = catalog_images(&cdn, &dir.0).await;
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("0 already cached, {} fetched", names.len() - 1)), "{out}");
    assert!(out.contains("1 failed") && out.contains(&format!("FAILED {}", names[3])), "{out}");
    assert!(!dir.0.join("cache").join(&names[3]).exists());

    cdn.mend_file(&names[3]);
    let (code, out) = catalog_images(&cdn, &dir.0).await;
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("{} already cached, 1 fetched", names.len() - 1)) && out.contains("0 failed"), "{out}");
    let files = std::fs::read_dir(dir.0.join("cache")).unwrap().count();
    assert_eq!(files, names.len(), "every picture, and no leftover part file");
    assert_eq!(cdn.total_hits(), names.len() + 1, "each picture fetched once, the failed one twice");
}
