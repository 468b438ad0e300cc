//! Provably fair: seeds, rotation, past opens and public verification.
use axum::extract::State;
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, OpenApi, ToSchema};

use crate::domain::fair;
use crate::domain::goods::Exterior;
use crate::http::catalog::CaseSkin;
use crate::http::dto::{Answer, Data, ErrorBody, PageQuery};
use crate::http::error::ApiError;
use crate::http::extract::{AppJson, AppQuery, AuthUser};
use crate::http::state::AppState;

/// This area's operations in the OpenAPI document (`routes::api` merges the areas).
#[derive(OpenApi)]
#[openapi(paths(state, client_seed, rotate, verify, opens))]
pub struct Doc;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/fair", get(state))
        .route("/fair/client-seed", put(client_seed))
        .route("/fair/rotate", post(rotate))
        .route("/fair/verify", get(verify))
        .route("/fair/opens", get(opens))
}

/// The player's seeds: the active one (by its hash) and the revealed ones.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FairState {
    server_seed_hash: String,
    client_seed: String,
    /// The nonce of the next open.
    nonce: i64,
    revealed: Vec<RevealedSeed>,
}

/// A server seed after its rotation, with the opens it served.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RevealedSeed {
    server_seed: String,
    server_seed_hash: String,
    client_seed: String,
    first_nonce: i64,
    /// Null when no open used the seed.
    last_nonce: Option<i64>,
    /// RFC 3339.
    revealed_at: String,
}

impl From<fair::FairState> for FairState {
    fn from(s: fair::FairState) -> FairState {
        FairState {
            server_seed_hash: s.server_seed_hash,
            client_seed: s.client_seed,
            nonce: s.nonce,
            revealed: s
                .revealed
                .into_iter()
                .map(|r| RevealedSeed {
                    server_seed: r.server_seed,
                    server_seed_hash: r.server_seed_hash,
                    client_seed: r.client_seed,
                    first_nonce: r.first_nonce,
                    last_nonce: r.last_nonce,
                    revealed_at: r.revealed_at,
                })
                .collect(),
        }
    }
}

/// A draw recomputed from its seeds.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Verified {
    server_seed_hash: String,
    roll: u64,
    total_weight: u64,
    /// The drawn skin as `GET /cases/{id}` lists it.
    item: CaseSkin,
    /// The drop's float; null for a vanilla knife.
    float: Option<f64>,
    /// The float's exterior as Steam names it (`Field-Tested`); null without a float.
    #[schema(value_type = Option<String>)]
    exterior: Option<&'static str>,
    stat_trak: bool,
}

impl From<fair::Verified<'_>> for Verified {
    fn from(v: fair::Verified<'_>) -> Verified {
        Verified {
            server_seed_hash: v.server_seed_hash,
            roll: v.roll,
            total_weight: v.total_weight,
            item: CaseSkin::of(v.item, v.weight, v.total_weight),
            float: v.float,
            exterior: v.exterior.map(Exterior::steam_name),
            stat_trak: v.stat_trak,
        }
    }
}

/// A past open and what verifies it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OpenRecord {
    id: i64,
    case_id: String,
    server_seed_hash: String,
    /// Null until the seed is revealed.
    server_seed: Option<String>,
    client_seed: String,
    nonce: i64,
    roll: i64,
    total_weight: i64,
    /// The case's weight table at the open.
    weights: Vec<WeightRow>,
    /// The catalog id of the drawn skin.
    item_id: String,
    /// The inventory item it became (null when gone).
    inventory_id: Option<i64>,
    /// RFC 3339.
    created_at: String,
}

/// One skin's weight in a case's table.
#[derive(Serialize, ToSchema)]
pub struct WeightRow {
    id: String,
    weight: u64,
}

impl From<fair::OpenRecord> for OpenRecord {
    fn from(o: fair::OpenRecord) -> OpenRecord {
        OpenRecord {
            id: o.id,
            case_id: o.case_id,
            server_seed_hash: o.server_seed_hash,
            server_seed: o.server_seed,
            client_seed: o.client_seed,
            nonce: o.nonce,
            roll: o.roll,
            total_weight: o.total_weight,
            weights: o.weights.into_iter().map(|w| WeightRow { id: w.id, weight: w.weight }).collect(),
            item_id: o.item_id,
            inventory_id: o.inventory_id,
            created_at: o.created_at,
        }
    }
}

/// The active seed's hash, the client seed, the nonce, and revealed seeds.
#[utoipa::path(get, path = "/fair", tag = "fair", security(("bearer" = [])),
    responses((status = 200, body = Answer<FairState>)))]
pub async fn state(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Answer<FairState>>, ApiError> {
    Ok(Json(Answer::new(fair::state(&app.domain, id).await?.into())))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClientSeed {
    /// 1 to 64 of `[A-Za-z0-9_-]`.
    #[schema(pattern = "^[A-Za-z0-9_-]{1,64}$")]
    client_seed: String,
}

/// Reveals the active seed and starts a new one with this client seed.
#[utoipa::path(put, path = "/fair/client-seed", tag = "fair", request_body = ClientSeed, security(("bearer" = [])),
    responses((status = 200, body = Answer<FairState>),
        (status = 422, description = "`invalid_client_seed`", body = ErrorBody)))]
pub async fn client_seed(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppJson(b): AppJson<ClientSeed>,
) -> Result<Json<Answer<FairState>>, ApiError> {
    Ok(Json(Answer::new(fair::rotate(&app.domain, id, Some(&b.client_seed)).await?.into())))
}

/// Reveals the active seed and starts a new one.
#[utoipa::path(post, path = "/fair/rotate", tag = "fair", security(("bearer" = [])),
    responses((status = 200, body = Answer<FairState>)))]
pub async fn rotate(State(app): State<AppState>, AuthUser(id): AuthUser) -> Result<Json<Answer<FairState>>, ApiError> {
    Ok(Json(Answer::new(fair::rotate(&app.domain, id, None).await?.into())))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct VerifyQuery {
    server_seed: String,
    client_seed: String,
    nonce: i64,
    case_id: String,
}

/// Recomputes an open from its seeds (public).
#[utoipa::path(get, path = "/fair/verify", tag = "fair", params(VerifyQuery),
    responses((status = 200, body = Answer<Verified>), (status = 400, description = "`bad_request`", body = ErrorBody),
        (status = 404, description = "`case_not_found`", body = ErrorBody), (status = 422, description = "`invalid_client_seed`", body = ErrorBody)))]
pub async fn verify(State(app): State<AppState>, AppQuery(q): AppQuery<VerifyQuery>) -> Result<Json<Answer<Verified>>, ApiError> {
    let v = fair::verify(&app.domain, &q.server_seed, &q.client_seed, q.nonce, &q.case_id)?;
    Ok(Json(Answer::new(v.into())))
}

/// The player's past opens, newest first, with what verifies them.
#[utoipa::path(get, path = "/fair/opens", tag = "fair", params(PageQuery), security(("bearer" = [])),
    responses((status = 200, body = Data<Vec<OpenRecord>>), (status = 400, description = "`bad_request`", body = ErrorBody)))]
pub async fn opens(
    State(app): State<AppState>,
    AuthUser(id): AuthUser,
    AppQuery(q): AppQuery<PageQuery>,
) -> Result<Json<Data<Vec<OpenRecord>>>, ApiError> {
    let opens = fair::opens(&app.domain, id, q.page()?).await?;
    Ok(Json(Data { data: opens.into_iter().map(OpenRecord::from).collect() }))
}
