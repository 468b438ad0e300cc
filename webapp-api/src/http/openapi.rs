//! The OpenAPI 3.1 document of `/api/v1`, generated from the handlers' annotations and the
//! request and response types (utoipa), served at `GET /api/v1/openapi.json`.
use std::sync::OnceLock;

use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};

use crate::http::routes;

/// Every refusal: `{"success":false,"error","message","code"}`; `code` is from the registry in
/// docs/api.md.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub success: bool,
    /// The human text, in the request's `Accept-Language` (ru or en).
    pub error: String,
    /// The same text.
    pub message: String,
    /// The stable machine code.
    pub code: String,
}

/// `{"success": true}`.
#[derive(Serialize, ToSchema)]
pub struct Ok {
    pub success: bool,
}

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
    paths(
        routes::public::status, routes::public::config, routes::public::dev_gate, routes::public::demo_init_data,
        routes::public::sign_in, routes::public::logout,
        routes::users::me, routes::users::settings, routes::users::trade_url, routes::users::set_trade_url,
        routes::users::check_agreements, routes::users::agree,
        routes::cases::list, routes::cases::one, routes::cases::open,
        routes::fair::state, routes::fair::client_seed, routes::fair::rotate, routes::fair::verify, routes::fair::opens,
        routes::inventory::list, routes::inventory::one, routes::inventory::withdraw, routes::inventory::public, routes::inventory::sell,
        routes::rewards::check, routes::rewards::streak, routes::rewards::claim, routes::rewards::claim_bonus,
        routes::rewards::subscription, routes::rewards::referral_page, routes::rewards::share,
        routes::payments::packages, routes::payments::create_invoice_link, routes::payments::status, routes::payments::demo_pay,
        routes::support::list, routes::support::create, routes::support::one, routes::support::messages,
        routes::support::add_message, routes::support::close,
        document_endpoint,
    ),
    components(schemas(ErrorBody, Ok))
)]
pub struct ApiDoc;

/// The document (built once).
pub fn document() -> &'static str {
    static DOC: OnceLock<String> = OnceLock::new();
    DOC.get_or_init(|| {
        let mut doc = serde_json::to_value(ApiDoc::openapi()).expect("the OpenAPI document serializes");
        spell_links(&mut doc);
        serde_json::to_string_pretty(&doc).expect("the OpenAPI document serializes")
    })
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
pub async fn document_endpoint() -> Response {
    ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], document()).into_response()
}
