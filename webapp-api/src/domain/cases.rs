//! Opening a case: one write transaction debits the price, draws the item provably fairly,
//! puts it in the inventory, records the open and pays first-open rewards.
use serde::Serialize;
use serde_json::value::RawValue;

use crate::domain::inventory::{self, Item};
use crate::domain::ledger::{self, Posted};
use crate::domain::{db, fair, referrals, Domain, DomainError, DomainResult, Tokens};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FairProof {
    pub server_seed_hash: String,
    pub client_seed: String,
    pub nonce: i64,
    pub roll: u64,
}

#[derive(Serialize)]
pub struct Opened {
    pub success: bool,
    pub item: Item,
    pub balance: Tokens,
    pub fair: FairProof,
}

/// A request id: 1–64 of `[A-Za-z0-9-]` (a UUID fits).
pub fn valid_request_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Opens `case_id` for `user_id`. The same `request_id` again answers the first result (as
/// stored JSON) and charges nothing. Answers the JSON body to send.
pub async fn open(domain: &Domain, user_id: i64, case_id: &str, request_id: Option<&str>) -> DomainResult<Box<RawValue>> {
    if let Some(r) = request_id {
        if !valid_request_id(r) {
            return Err(DomainError::BadRequest("requestId must be 1-64 of [A-Za-z0-9-]".into()));
        }
    }
    let case = domain.catalog.case(case_id).ok_or(DomainError::CaseNotFound)?;
    let now = domain.now();
    let mut tx = db::begin_write(&domain.db).await?;
    // The player (and the inviter, while the first-open reward is to pay) is locked before the
    // open reads the seed, the balance or the first-open mark: one open per player at a time.
    let locks = referrals::users_an_open_locks(&mut tx, user_id).await?;
    db::lock_users(&mut tx, &locks).await?;
    if let Some(r) = request_id {
        let seen: Option<(String,)> = sqlx::query_as("SELECT response FROM case_opens WHERE user_id = $1 AND request_id = $2")
            .bind(user_id)
            .bind(r)
            .fetch_optional(&mut *tx)
            .await?;
        if let Some((response,)) = seen {
            return RawValue::from_string(response).map_err(|e| DomainError::Internal(e.to_string()));
        }
    }
    let seed = fair::active_seed(&mut tx, domain, user_id).await?;
    let weights: Vec<u64> = case.entries.iter().map(|e| e.1).collect();
    let roll = fair::roll(&seed.server_seed, &seed.client_seed, seed.nonce, case.total_weight);
    let (item_idx, _) = case.entries[fair::pick(&weights, roll)];
    let won = &domain.catalog.items[item_idx];
    let table: Vec<(&str, u64)> = case.entries.iter().map(|&(i, w)| (domain.catalog.items[i].id.as_str(), w)).collect();
    let table = serde_json::to_string(&table).map_err(|e| DomainError::Internal(e.to_string()))?;

    let (open_id,): (i64,) = sqlx::query_as(
        "INSERT INTO case_opens(user_id, case_id, request_id, seed_id, server_seed_hash, client_seed, nonce, roll,
                                total_weight, weights, item_id, price, response, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '', $13) RETURNING id",
    )
    .bind(user_id)
    .bind(&case.id)
    .bind(request_id)
    .bind(seed.id)
    .bind(&seed.server_seed_hash)
    .bind(&seed.client_seed)
    .bind(seed.nonce)
    .bind(roll as i64)
    .bind(case.total_weight as i64)
    .bind(&table)
    .bind(&won.id)
    .bind(case.price.0)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    // Dropping `tx` on an error rolls everything back, the open row included.
    let mut balance = match ledger::post(&mut tx, user_id, Tokens(-case.price.0), "case_open", &format!("open:{open_id}"), now).await? {
        Posted::Applied(b) => b,
        Posted::Duplicate => return Err(DomainError::Internal(format!("open {open_id} debited twice"))),
    };
    let (inventory_id,): (i64,) = sqlx::query_as(
        "INSERT INTO inventory_items(user_id, open_id, catalog_item_id, case_id, weapon, finish, rarity, condition, image,
                                     token_price, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
    )
    .bind(user_id)
    .bind(open_id)
    .bind(&won.id)
    .bind(&case.id)
    .bind(&won.weapon)
    .bind(&won.finish)
    .bind(&won.rarity)
    .bind(&won.condition)
    .bind(&won.image)
    .bind(won.token_price.0)
    .bind(now)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    fair::bump_nonce(&mut tx, seed.id).await?;
    if let Some(b) = referrals::on_first_open(&mut tx, user_id, domain.config.demo, now).await? {
        balance = b;
    }
    let item = inventory::item_in(&mut tx, user_id, inventory_id).await?;
    let opened = Opened {
        success: true,
        item,
        balance,
        fair: FairProof { server_seed_hash: seed.server_seed_hash, client_seed: seed.client_seed, nonce: seed.nonce, roll },
    };
    let body = serde_json::to_string(&opened).map_err(|e| DomainError::Internal(e.to_string()))?;
    sqlx::query("UPDATE case_opens SET response = $1 WHERE id = $2").bind(&body).bind(open_id).execute(&mut *tx).await?;
    tx.commit().await?;
    RawValue::from_string(body).map_err(|e| DomainError::Internal(e.to_string()))
}
