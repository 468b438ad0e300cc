//! Shapes shared by several areas of `routes`: the error and success envelopes, paging. A leaf
//! beside `error`, so the areas need nothing of each other.
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::domain::DomainError;
use crate::http::error::ApiError;

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
    /// `self_excluded`, `self_exclusion_active`: the end of the break (RFC 3339), null when permanent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable)]
    pub until: Option<String>,
    /// `self_excluded`, `self_exclusion_active`: the break has no end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permanent: Option<bool>,
    /// `spend_limit`: the daily limit in tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<f64>,
    /// `spend_limit`: tokens already spent on opens today (UTC day).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spent: Option<f64>,
    /// `spend_limit`: when the day's spending starts from zero again (RFC 3339).
    #[serde(rename = "resetsAt", skip_serializing_if = "Option::is_none")]
    pub resets_at: Option<String>,
}

/// `{"data": …}`, serialised straight from the data's type: no JSON value tree built and then
/// written (a tenth of the server's time on the inventory under load went to that tree).
#[derive(Serialize)]
pub struct Data<T> {
    pub data: T,
}

/// `{"status": "success", "data": …}` (the profile's envelope), written the same way.
#[derive(Serialize)]
pub struct Success<T> {
    pub status: &'static str,
    pub data: T,
}

/// `{"success": true}`.
#[derive(Serialize, ToSchema)]
pub struct Ok {
    pub success: bool,
}

/// `?page=`: one page of a list.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// From 1 to 1000000 (default 1).
    #[param(minimum = 1, maximum = 1000000)]
    pub page: Option<i64>,
}

impl PageQuery {
    /// The page asked for, or `bad_request` past the documented range.
    pub fn page(&self) -> Result<i64, ApiError> {
        match self.page {
            None => Ok(1),
            Some(p) if (1..=1_000_000).contains(&p) => Ok(p),
            Some(_) => Err(DomainError::BadRequest("page: 1 to 1000000".into()).into()),
        }
    }
}
