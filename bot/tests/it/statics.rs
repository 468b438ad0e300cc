//! The mini app's files: compression, caching and robots.txt (issue 14, fast first open).
use reqwest::header::{ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE};
use reqwest::StatusCode;

use crate::common::*;

fn header(res: &reqwest::Response, name: reqwest::header::HeaderName) -> String {
    res.headers().get(name).map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default()
}

#[tokio::test]
async fn hashed_assets_are_served_precompressed_and_cached_for_a_year() {
    let app = TestApp::demo().await;
    let assets = app.dir.0.join("dist/assets");
    std::fs::create_dir_all(&assets).unwrap();
    std::fs::write(assets.join("index-abc123.js"), "console.log('plain');".repeat(50)).unwrap();
    std::fs::write(assets.join("index-abc123.js.br"), b"brotli twin").unwrap();
    std::fs::write(assets.join("index-abc123.js.gz"), b"gzip twin").unwrap();

    let url = format!("{}/assets/index-abc123.js", app.base);
    let res = app.http.get(&url).header(ACCEPT_ENCODING, "gzip, deflate, br").send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, CONTENT_ENCODING), "br");
    assert_eq!(header(&res, CACHE_CONTROL), "public, max-age=31536000, immutable");
    assert_eq!(res.bytes().await.unwrap().as_ref(), b"brotli twin");

    let res = app.http.get(&url).header(ACCEPT_ENCODING, "gzip").send().await.unwrap();
    assert_eq!(header(&res, CONTENT_ENCODING), "gzip");
    assert_eq!(res.bytes().await.unwrap().as_ref(), b"gzip twin");

    let res = app.http.get(&url).send().await.unwrap();
    assert_eq!(header(&res, CONTENT_ENCODING), "");
    assert!(res.text().await.unwrap().starts_with("console.log"));
    app.stop().await;
}

#[tokio::test]
async fn files_without_a_twin_styles_svg_and_api_json_are_compressed_on_the_fly() {
    let app = TestApp::demo().await;
    let assets = app.dir.0.join("dist/assets");
    std::fs::create_dir_all(&assets).unwrap();
    std::fs::write(assets.join("index-def456.css"), "body{color:red}\n".repeat(100)).unwrap();

    let res = app.http.get(format!("{}/assets/index-def456.css", app.base)).header(ACCEPT_ENCODING, "br").send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(header(&res, CONTENT_ENCODING), "br");
    assert_eq!(header(&res, CACHE_CONTROL), "public, max-age=31536000, immutable");

    let res = app.http.get(format!("{}/api/v1/cases", app.base)).header(ACCEPT_ENCODING, "gzip").send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(header(&res, CONTENT_TYPE).starts_with("application/json"));
    assert_eq!(header(&res, CONTENT_ENCODING), "gzip");

    let res = app.http.get(format!("{}/catalog/images/cases/starter.svg", app.base)).header(ACCEPT_ENCODING, "br").send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(header(&res, CONTENT_TYPE).starts_with("image/svg+xml"));
    assert_eq!(header(&res, CONTENT_ENCODING), "br");
    app.stop().await;
}

#[tokio::test]
async fn index_html_and_the_spa_fallback_are_revalidated() {
    let app = TestApp::demo().await;
    for path in ["/", "/index.html", "/skins/anything", "/assets/missing-000.js"] {
        let res = app.http.get(format!("{}{path}", app.base)).send().await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert_eq!(header(&res, CACHE_CONTROL), "no-cache", "{path}");
        assert!(res.text().await.unwrap().contains("<title>FragBox"), "{path}");
    }
    app.stop().await;
}

#[tokio::test]
async fn robots_txt_is_a_real_robots_file() {
    let app = TestApp::demo().await;
    let res = app.http.get(format!("{}/robots.txt", app.base)).send().await.unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(header(&res, CONTENT_TYPE).starts_with("text/plain"));
    let body = res.text().await.unwrap();
    assert!(body.starts_with("User-agent: *"), "{body}");
    assert!(!body.contains("<html"), "{body}");
    app.stop().await;
}
