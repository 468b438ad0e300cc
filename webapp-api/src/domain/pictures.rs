//! The catalog's pictures, served from the shop's own origin (`/img/<hash>.webp`).
//!
//! The library names each picture by its content hash (`/images/<sha256>.webp` on its CDN). A
//! picture is fetched from `CATALOG_ASSETS_URL` into `CATALOG_IMAGES_DIR` the first time a player
//! asks for it (or all at once by `fragbox catalog images`) and read from that directory after:
//! no player's address ever reaches the outside host. A name is never fetched twice at once, at
//! most [`PARALLEL_FETCHES`] fetches run together, and a failed fetch is not tried again for
//! [`RETRY_AFTER`] (a CDN that is down costs one timeout per picture, not one per request).
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The shop's path of its cached pictures: `/img/<name>`.
pub const SERVED_PREFIX: &str = "/img/";
/// A picture larger than this is refused (the library's are 10–200 KB).
pub const MAX_PICTURE_BYTES: usize = 2 * 1024 * 1024;
/// First-use fetches running at once, across every picture.
pub const PARALLEL_FETCHES: usize = 4;
/// How long a failed picture answers "unavailable" without asking the origin again.
pub const RETRY_AFTER: Duration = Duration::from_secs(30);
const FETCH_TIMEOUT: Duration = Duration::from_secs(8);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// A picture's file name: a lowercase hex content hash (16–128 digits) and `.webp`. Nothing else
/// reaches the disk or the origin, so a name can never climb out of the cache directory.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PictureName(String);

impl PictureName {
    pub fn parse(file: &str) -> Option<PictureName> {
        let hash = file.strip_suffix(".webp")?;
        let ok = (16..=128).contains(&hash.len()) && hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        ok.then(|| PictureName(file.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for PictureName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The picture a stored path names, if it is one of the library's: its relative
/// `/images/<name>`, an absolute URL of any host with that path (rows stored while pictures came
/// from the CDN), or the shop's own `/img/<name>`.
pub fn library_picture(image: &str) -> Option<PictureName> {
    let path = match image.find("://") {
        Some(i) => {
            let rest = &image[i + 3..];
            &rest[rest.find('/')?..]
        }
        None => image,
    };
    let file = path.strip_prefix("/images/").or_else(|| path.strip_prefix(SERVED_PREFIX))?;
    PictureName::parse(file)
}

/// What the mini app is given for a stored picture path: a library picture becomes the shop's
/// `/img/<name>`; the shop's own files (`/catalog/images/...`) stay; any other address becomes
/// empty (no picture: the app draws the item type's silhouette), since the page's content policy
/// pictures nothing from outside but Telegram's avatars.
pub fn served_path(image: &str) -> String {
    if let Some(name) = library_picture(image) {
        format!("{SERVED_PREFIX}{name}")
    } else if image.starts_with('/') && !image.starts_with("//") {
        image.to_owned()
    } else {
        String::new()
    }
}

/// Why a picture is not served. Both are a 404 to the player (the app then draws a silhouette).
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// Not a picture of this catalog (and not cached): never asked of the origin.
    #[error("not a picture of the catalog")]
    Unknown,
    /// The origin did not give it (down, slow, refused, not a WebP, too large), or did not a
    /// moment ago.
    #[error("origin: {0}")]
    Unavailable(String),
}

/// How `fetch_all` went.
#[derive(Debug, Default)]
pub struct FillReport {
    /// Already in the cache.
    pub cached: usize,
    pub fetched: usize,
    pub failed: Vec<(PictureName, String)>,
}

/// The cache of the catalog's pictures and the one way to fill it.
pub struct Pictures {
    dir: PathBuf,
    /// `CATALOG_ASSETS_URL` without its trailing slash; empty: serve only what is cached.
    origin: String,
    known: BTreeSet<PictureName>,
    /// `None` when no client could be built (no TLS roots): the cache alone is served.
    client: Option<reqwest::Client>,
    /// One lock per name being fetched: a second request for it waits for the first's file.
    inflight: Mutex<HashMap<PictureName, Arc<tokio::sync::Mutex<()>>>>,
    failed: Mutex<HashMap<PictureName, Instant>>,
    fetches: tokio::sync::Semaphore,
}

impl Pictures {
    /// A cache in `dir` filled from `origin` (no path) with the pictures `known` names only.
    pub fn new(dir: impl Into<PathBuf>, origin: &str, known: impl IntoIterator<Item = PictureName>) -> Pictures {
        let client = reqwest::Client::builder()
            .timeout(FETCH_TIMEOUT)
            .connect_timeout(CONNECT_TIMEOUT)
            .redirect(reqwest::redirect::Policy::limited(2))
            .user_agent("fragbox-pictures")
            .build()
            .map_err(|e| tracing::error!(error = %e, "catalog pictures: no HTTP client, serving the cache only"))
            .ok();
        Pictures {
            dir: dir.into(),
            origin: origin.trim().trim_end_matches('/').to_owned(),
            known: known.into_iter().collect(),
            client,
            inflight: Mutex::default(),
            failed: Mutex::default(),
            fetches: tokio::sync::Semaphore::new(PARALLEL_FETCHES),
        }
    }

    pub fn known(&self) -> impl Iterator<Item = &PictureName> {
        self.known.iter()
    }

    fn file(&self, name: &PictureName) -> PathBuf {
        self.dir.join(name.as_str())
    }

    /// The picture's bytes: from the cache, or fetched once into it.
    pub async fn get(&self, name: &PictureName) -> Result<Vec<u8>, PictureError> {
        if let Ok(bytes) = tokio::fs::read(self.file(name)).await {
            return Ok(bytes);
        }
        if !self.known.contains(name) {
            return Err(PictureError::Unknown);
        }
        self.fetch_once(name, true).await
    }

    /// Fetches every known picture missing from the cache (`fragbox catalog images`); a recent
    /// failure is tried again.
    pub async fn fetch_all(&self) -> FillReport {
        use futures_util::stream::{self, StreamExt};
        let mut report = FillReport::default();
        let mut missing = Vec::new();
        for name in &self.known {
            if tokio::fs::try_exists(self.file(name)).await.unwrap_or(false) {
                report.cached += 1;
            } else {
                missing.push(name.clone());
            }
        }
        let results: Vec<_> = stream::iter(missing)
            .map(|name| async move { (self.fetch_once(&name, false).await, name) })
            .buffer_unordered(PARALLEL_FETCHES)
            .collect()
            .await;
        for (result, name) in results {
            match result {
                Ok(_) => report.fetched += 1,
                Err(e) => report.failed.push((name, e.to_string())),
            }
        }
        report.failed.sort();
        report
    }

    async fn fetch_once(&self, name: &PictureName, respect_failures: bool) -> Result<Vec<u8>, PictureError> {
        let gate = self.lock_map(&self.inflight).entry(name.clone()).or_default().clone();
        let held = gate.lock().await;
        // The request we waited behind may have filled it.
        let result = if let Ok(bytes) = tokio::fs::read(self.file(name)).await {
            Ok(bytes)
        } else if respect_failures && self.lock_map(&self.failed).get(name).is_some_and(|at| at.elapsed() < RETRY_AFTER) {
            Err(PictureError::Unavailable("failed a moment ago".into()))
        } else {
            match self.download(name).await {
                Ok(bytes) => {
                    self.lock_map(&self.failed).remove(name);
                    Ok(bytes)
                }
                Err(e) => {
                    tracing::warn!(picture = %name, error = %e, "catalog picture not fetched");
                    self.lock_map(&self.failed).insert(name.clone(), Instant::now());
                    Err(PictureError::Unavailable(e))
                }
            }
        };
        drop(held);
        let mut inflight = self.lock_map(&self.inflight);
        // Only the last holder removes the lock (two references: the map's and ours).
        if inflight.get(name).is_some_and(|g| Arc::ptr_eq(g, &gate) && Arc::strong_count(g) == 2) {
            inflight.remove(name);
        }
        result
    }

    fn lock_map<'a, T>(&self, m: &'a Mutex<T>) -> std::sync::MutexGuard<'a, T> {
        m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// One GET of `{origin}/images/<name>`, checked (200, `image/webp`, at most
    /// [`MAX_PICTURE_BYTES`], a RIFF/WEBP header) and written to the cache atomically.
    async fn download(&self, name: &PictureName) -> Result<Vec<u8>, String> {
        let Some(client) = self.client.as_ref().filter(|_| !self.origin.is_empty()) else {
            return Err("no CATALOG_ASSETS_URL or no HTTP client".into());
        };
        let _permit = self.fetches.acquire().await.map_err(|e| e.to_string())?;
        let url = format!("{}/images/{name}", self.origin);
        let mut res = client.get(&url).send().await.map_err(|e| format!("GET {url}: {}", without_url(&e)))?;
        if res.status() != reqwest::StatusCode::OK {
            return Err(format!("GET {url}: HTTP {}", res.status().as_u16()));
        }
        let kind = res.headers().get(reqwest::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
        if !kind.trim().to_ascii_lowercase().starts_with("image/webp") {
            return Err(format!("GET {url}: content type {kind:?}, not image/webp"));
        }
        if res.content_length().is_some_and(|n| n > MAX_PICTURE_BYTES as u64) {
            return Err(format!("GET {url}: over {MAX_PICTURE_BYTES} bytes"));
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = res.chunk().await.map_err(|e| format!("GET {url}: {}", without_url(&e)))? {
            if bytes.len() + chunk.len() > MAX_PICTURE_BYTES {
                return Err(format!("GET {url}: over {MAX_PICTURE_BYTES} bytes"));
            }
            bytes.extend_from_slice(&chunk);
        }
        if bytes.len() < 12 || &bytes[..4] != b"RIFF" || &bytes[8..12] != b"WEBP" {
            return Err(format!("GET {url}: not a WebP file"));
        }
        self.store(name, &bytes).await.map_err(|e| format!("{}: {e}", self.dir.display()))?;
        Ok(bytes)
    }

    /// Written under a temporary name and renamed: a reader never sees half a picture.
    async fn store(&self, name: &PictureName, bytes: &[u8]) -> std::io::Result<()> {
        tokio::fs::create_dir_all(&self.dir).await?;
        let tmp = self.dir.join(format!(".{name}.{}.part", std::process::id()));
        tokio::fs::write(&tmp, bytes).await?;
        let renamed = tokio::fs::rename(&tmp, self.file(name)).await;
        if renamed.is_err() {
            let _ = tokio::fs::remove_file(&tmp).await;
        }
        renamed
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// reqwest's error text without the URL it repeats.
fn without_url(e: &reqwest::Error) -> String {
    let kind = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "could not connect"
    } else {
        "failed"
    };
    kind.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str = "39a87800098ce05ab2835a57600ec3d301308e24f1e24da97344870c7fd6ffb3";

    #[test]
    fn only_hex_webp_names_are_picture_names() {
        assert!(PictureName::parse(&format!("{HASH}.webp")).is_some());
        for bad in
            ["../etc/passwd.webp", "ABCDEF0123456789.webp", "0123456789abcdef.png", "0123.webp", "0123456789abcdef/.webp", ".webp", ""]
        {
            assert!(PictureName::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn library_pictures_are_served_by_the_shop_and_outside_addresses_are_dropped() {
        let served = format!("/img/{HASH}.webp");
        assert_eq!(served_path(&format!("/images/{HASH}.webp")), served);
        assert_eq!(served_path(&format!("https://cdn.cstrike.app/images/{HASH}.webp")), served);
        assert_eq!(served_path(&format!("http://127.0.0.1:9/images/{HASH}.webp")), served);
        assert_eq!(served_path(&served), served);
        assert_eq!(served_path("/catalog/images/skins/ak.svg"), "/catalog/images/skins/ak.svg");
        assert_eq!(served_path("https://other.test/x.png"), "");
        assert_eq!(served_path("//other.test/x.png"), "");
        assert_eq!(served_path("https://cdn.cstrike.app/images/../x.webp"), "");
    }
}
