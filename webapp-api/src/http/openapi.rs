//! The OpenAPI 3.1 document of `/api/v1`, generated from the handlers' annotations and the
//! request and response types (utoipa), served at `GET /api/v1/openapi.json`.
//!
//! What every operation shares (info, security schemes, envelopes) is here; each area of
//! `routes` lists its own operations, and `routes::api` hands them to `Document::build`. So
//! this module needs nothing of the routes, and a new handler is listed beside its route.
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::http::dto::{ErrorBody, Ok};

struct Security;

impl Modify for Security {
    fn modify(&self, api: &mut utoipa::openapi::OpenApi) {
        let c = api.components.get_or_insert_with(Default::default);
        c.add_security_scheme("bearer", SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()));
        c.add_security_scheme("devGate", SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("X-Dev-Gate"))));
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "FragBox API", description = "The mini app's API. Prose guide, conventions and the error-code registry: docs/api.md."),
    servers((url = "/api/v1")),
    modifiers(&Security),
    paths(document_endpoint),
    components(schemas(ErrorBody, Ok))
)]
struct Base;

/// The document as served: built once per router, shared by every request for it.
#[derive(Clone)]
pub struct Document(Bytes);

impl Document {
    /// The shared parts with every area's operations, then `common` (the answers every
    /// operation of a kind shares, declared once: `gate::CommonErrors`).
    pub fn build(areas: impl IntoIterator<Item = utoipa::openapi::OpenApi>, common: &dyn Modify) -> Document {
        let mut api = Base::openapi();
        for area in areas {
            api.merge(area);
        }
        common.modify(&mut api);
        let mut doc = serde_json::to_value(api).expect("the OpenAPI document serializes");
        spell_links(&mut doc);
        Document(Bytes::from(serde_json::to_string_pretty(&doc).expect("the OpenAPI document serializes")))
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

/// utoipa 5 writes a Link Object's fields in snake case; OpenAPI spells them `operationId`,
/// `operationRef` and `requestBody`.
fn spell_links(doc: &mut serde_json::Value) {
    let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) else { return };
    for item in paths.values_mut().filter_map(|i| i.as_object_mut()) {
        for op in item.values_mut() {
            let Some(responses) = op.get_mut("responses").and_then(|r| r.as_object_mut()) else { continue };
            for response in responses.values_mut() {
                let Some(links) = response.get_mut("links").and_then(|l| l.as_object_mut()) else { continue };
                for link in links.values_mut().filter_map(|l| l.as_object_mut()) {
                    for (from, to) in [("operation_id", "operationId"), ("operation_ref", "operationRef"), ("request_body", "requestBody")]
                    {
                        if let Some(v) = link.remove(from) {
                            link.insert(to.to_owned(), v);
                        }
                    }
                }
            }
        }
    }
}

/// This document.
#[utoipa::path(get, path = "/openapi.json", tag = "public", responses((status = 200, description = "The OpenAPI 3.1 document", body = Object)))]
pub async fn document_endpoint(State(doc): State<Document>) -> Response {
    ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], doc.0).into_response()
}
