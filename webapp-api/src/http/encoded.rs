//! The case list compressed once per process: it is the largest answer the store screen reads
//! (~60 KB of JSON for the real catalog) and the same bytes for everyone until a restart, so
//! compressing it per request (the compression layer's way) would cost every request the same
//! milliseconds of CPU. It is compressed on first use; the compression layer passes a response
//! that already has a `Content-Encoding`.
use std::io::Write;
use std::sync::{Arc, OnceLock};

use axum::body::Bytes;
use axum::http::HeaderMap;

/// A body and its compressed forms.
pub struct Encoded {
    pub gzip: Bytes,
    pub br: Bytes,
}

/// The compressed forms of one body, made once.
#[derive(Default)]
pub struct Precompressed(OnceLock<Arc<Encoded>>);

impl Precompressed {
    pub fn get(&self, body: &str) -> Arc<Encoded> {
        self.0.get_or_init(|| Arc::new(encode(body.as_bytes()))).clone()
    }
}

fn encode(body: &[u8]) -> Encoded {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let gzip = gz.write_all(body).and_then(|_| gz.finish()).unwrap_or_default();
    let mut br = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut br, 4096, 11, 22);
        let _ = w.write_all(body);
    }
    Encoded { gzip: Bytes::from(gzip), br: Bytes::from(br) }
}

/// The encoding to answer with, from `Accept-Encoding` (`br` before `gzip`; a `q=0` refuses).
pub fn preferred(headers: &HeaderMap) -> Option<&'static str> {
    let accepted = headers.get(axum::http::header::ACCEPT_ENCODING)?.to_str().ok()?;
    let mut gzip = false;
    for part in accepted.split(',') {
        let mut it = part.split(';');
        let name = it.next().unwrap_or("").trim().to_ascii_lowercase();
        let refused = it.any(|p| p.trim().strip_prefix("q=").is_some_and(|q| q.trim().parse::<f32>().is_ok_and(|q| q <= 0.0)));
        if refused {
            continue;
        }
        match name.as_str() {
            "br" => return Some("br"),
            "gzip" => gzip = true,
            _ => {}
        }
    }
    gzip.then_some("gzip")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(v: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(axum::http::header::ACCEPT_ENCODING, v.parse().unwrap());
        h
    }

    #[test]
    fn brotli_is_preferred_then_gzip_and_q_zero_refuses() {
        assert_eq!(preferred(&accept("gzip, deflate, br")), Some("br"));
        assert_eq!(preferred(&accept("gzip")), Some("gzip"));
        assert_eq!(preferred(&accept("br;q=0, gzip")), Some("gzip"));
        assert_eq!(preferred(&accept("identity")), None);
        assert_eq!(preferred(&HeaderMap::new()), None);
    }

    #[test]
    fn both_forms_decode_to_the_body() {
        let body = "{\"data\":[".to_owned() + &"{\"id\":\"x\"},".repeat(500) + "{}]}";
        let e = encode(body.as_bytes());
        let mut out = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&e.gzip[..]), &mut out).unwrap();
        assert_eq!(out, body);
        let mut out = Vec::new();
        brotli::BrotliDecompress(&mut &e.br[..], &mut out).unwrap();
        assert_eq!(out, body.as_bytes());
    }
}
