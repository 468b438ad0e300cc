//! Opening a case: one write transaction debits the price, draws the item provably fairly,
//! puts it in the inventory, records the open and pays first-open rewards.
use serde::Serialize;
use serde_json::value::RawValue;

use crate::domain::catalog::{Case, Catalog, CatalogItem};
use crate::domain::clock::rfc3339;
use crate::domain::inventory::Item;
use crate::domain::ledger::{self, Posted};
use crate::domain::users::display_name;
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

// The statements of an open. The pool's path (`open`, every store) and the SQLite writer's path
// (`open_sync`) run the same texts in the same order.

/// One read: an earlier answer to this request id, the first-open mark, the owner's name for the
/// answer and the active seed.
const STATE: &str = "SELECT (SELECT o.response FROM case_opens o WHERE o.user_id = u.id AND o.request_id = $2),
        u.first_case_at, u.first_name, u.last_name, u.username,
        s.id, s.server_seed, s.server_seed_hash, s.client_seed, s.next_nonce
 FROM users u LEFT JOIN fair_seeds s ON s.user_id = u.id AND s.revealed_at IS NULL
 WHERE u.id = $1";

const INSERT_OPEN: &str = "INSERT INTO case_opens(user_id, case_id, request_id, seed_id, server_seed_hash, client_seed, nonce, roll,
                            total_weight, weights, item_id, price, response, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '', $13) RETURNING id";

/// The answer's item is built from what was just written (no read-back); the row's own default
/// status comes back with its id.
const INSERT_ITEM: &str =
    "INSERT INTO inventory_items(user_id, open_id, catalog_item_id, case_id, weapon, finish, rarity, condition, image,
                                 token_price, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id, status";

/// The stored answer a repeated request id replays.
const STORE_ANSWER: &str = "UPDATE case_opens SET response = $1 WHERE id = $2";

type StateRow =
    (Option<String>, Option<i64>, String, String, Option<String>, Option<i64>, Option<String>, Option<String>, Option<String>, Option<i64>);

/// What the open reads before it writes.
struct State {
    replay: Option<String>,
    first_case_at: Option<i64>,
    first_name: String,
    last_name: String,
    username: Option<String>,
    seed: Option<fair::ActiveSeed>,
}

impl From<StateRow> for State {
    fn from(row: StateRow) -> Self {
        let (replay, first_case_at, first_name, last_name, username, seed_id, server_seed, server_seed_hash, client_seed, nonce) = row;
        let seed = match (seed_id, server_seed, server_seed_hash, client_seed, nonce) {
            (Some(id), Some(server_seed), Some(server_seed_hash), Some(client_seed), Some(nonce)) => {
                Some(fair::ActiveSeed { id, server_seed, server_seed_hash, client_seed, nonce })
            }
            _ => None,
        };
        State { replay, first_case_at, first_name, last_name, username, seed }
    }
}

/// The draw of one open: the roll, the won item and the weight table it was drawn against.
struct Draw<'a> {
    roll: u64,
    won: &'a CatalogItem,
    table: String,
}

fn draw<'a>(catalog: &'a Catalog, case: &Case, seed: &fair::ActiveSeed) -> DomainResult<Draw<'a>> {
    let weights: Vec<u64> = case.entries.iter().map(|e| e.1).collect();
    let roll = fair::roll(&seed.server_seed, &seed.client_seed, seed.nonce, case.total_weight);
    let (item_idx, _) = case.entries[fair::pick(&weights, roll)];
    let table: Vec<(&str, u64)> = case.entries.iter().map(|&(i, w)| (catalog.items[i].id.as_str(), w)).collect();
    let table = serde_json::to_string(&table).map_err(|e| DomainError::Internal(e.to_string()))?;
    Ok(Draw { roll, won: &catalog.items[item_idx], table })
}

/// The answer to an open, as stored with it and sent.
fn answer(
    state: &State,
    case: &Case,
    seed: fair::ActiveSeed,
    draw: &Draw<'_>,
    (inventory_id, status): (i64, String),
    balance: Tokens,
    now: i64,
) -> DomainResult<String> {
    let won = draw.won;
    let item = Item {
        id: inventory_id,
        weapon_id: won.id.clone(),
        market_hash_name: format!("{} | {}", won.weapon, won.finish),
        name: won.weapon.clone(),
        variant: won.finish.clone(),
        icon_url: won.image.clone(),
        token_price: won.token_price,
        rarity: won.rarity.clone(),
        condition: won.condition.clone(),
        status,
        status_reason_code: None,
        status_reason: None,
        owner: display_name(&state.first_name, &state.last_name, state.username.as_deref()),
        case_id: Some(case.id.clone()),
        opened_at: rfc3339(now),
    };
    let opened = Opened {
        success: true,
        item,
        balance,
        fair: FairProof { server_seed_hash: seed.server_seed_hash, client_seed: seed.client_seed, nonce: seed.nonce, roll: draw.roll },
    };
    serde_json::to_string(&opened).map_err(|e| DomainError::Internal(e.to_string()))
}

fn raw(body: String) -> DomainResult<Box<RawValue>> {
    RawValue::from_string(body).map_err(|e| DomainError::Internal(e.to_string()))
}

/// Opens `case_id` for `user_id`. The same `request_id` again answers the first result (as
/// stored JSON) and charges nothing. Answers the JSON body to send.
///
/// On SQLite the open runs on the writer thread (`domain::writer`, group commit) when it can:
/// every open but a player's first (whose rewards go through the pool's path) and one made before
/// the player has a seed.
pub async fn open(domain: &Domain, user_id: i64, case_id: &str, request_id: Option<&str>) -> DomainResult<Box<RawValue>> {
    if let Some(r) = request_id {
        if !valid_request_id(r) {
            return Err(DomainError::BadRequest("requestId must be 1-64 of [A-Za-z0-9-]".into()));
        }
    }
    let case = domain.catalog.case(case_id).ok_or(DomainError::CaseNotFound)?;
    if let Some(writer) = &domain.writer {
        let catalog = domain.catalog.clone();
        let case_id = case.id.clone();
        let request_id = request_id.map(str::to_owned);
        let now = domain.now();
        let done = writer.run(move |conn| open_sync(conn, &catalog, user_id, &case_id, request_id.as_deref(), now)).await?;
        if let Some(body) = done {
            return raw(body);
        }
    }
    let now = domain.now();
    let mut tx = db::begin_write(&domain.db).await?;
    // PostgreSQL: the player (and the inviter, while the first-open reward is to pay) is locked
    // before the open reads the seed, the balance or the first-open mark: one open per player at
    // a time. SQLite: the write lock already excludes every other writer; nothing to read for it.
    if db::Dialect::of_conn(&tx) == db::Dialect::Postgres {
        let locks = referrals::users_an_open_locks(&mut tx, user_id).await?;
        db::lock_users(&mut tx, &locks).await?;
    }
    let state: Option<StateRow> = sqlx::query_as(STATE).bind(user_id).bind(request_id).fetch_optional(&mut *tx).await?;
    let Some(state) = state.map(State::from) else {
        return Err(DomainError::NotFound);
    };
    if let Some(response) = state.replay {
        tx.rollback().await?;
        return raw(response);
    }
    let seed = match state.seed.clone() {
        Some(seed) => seed,
        None => fair::active_seed(&mut tx, domain, user_id).await?,
    };
    let draw = draw(&domain.catalog, case, &seed)?;
    let won = draw.won;
    let (open_id,): (i64,) = sqlx::query_as(INSERT_OPEN)
        .bind(user_id)
        .bind(&case.id)
        .bind(request_id)
        .bind(seed.id)
        .bind(&seed.server_seed_hash)
        .bind(&seed.client_seed)
        .bind(seed.nonce)
        .bind(draw.roll as i64)
        .bind(case.total_weight as i64)
        .bind(&draw.table)
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
    let inventory: (i64, String) = sqlx::query_as(INSERT_ITEM)
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
    if state.first_case_at.is_none() {
        if let Some(b) = referrals::on_first_open(&mut tx, user_id, domain.config.demo, now).await? {
            balance = b;
        }
    }
    let body = answer(&state, case, seed, &draw, inventory, balance, now)?;
    sqlx::query(STORE_ANSWER).bind(&body).bind(open_id).execute(&mut *tx).await?;
    tx.commit().await?;
    raw(body)
}

/// `open` on the SQLite writer thread: the same statements, synchronously, inside the writer's
/// batch. `None` (nothing written) for a player's first open or a player without a seed yet:
/// those take the pool's path, which pays the first-open rewards and makes the seed.
fn open_sync(
    conn: &rusqlite::Connection,
    catalog: &Catalog,
    user_id: i64,
    case_id: &str,
    request_id: Option<&str>,
    now: i64,
) -> DomainResult<Option<String>> {
    use rusqlite::{named_params, OptionalExtension};
    let case = catalog.case(case_id).ok_or(DomainError::CaseNotFound)?;
    let row: Option<StateRow> = conn
        .prepare_cached(STATE)?
        .query_row(named_params! {"$1": user_id, "$2": request_id}, |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?, r.get(9)?))
        })
        .optional()?;
    let Some(state) = row.map(State::from) else {
        return Err(DomainError::NotFound);
    };
    if let Some(response) = state.replay {
        return Ok(Some(response));
    }
    let (Some(_), Some(seed)) = (state.first_case_at, state.seed.clone()) else {
        return Ok(None);
    };
    let draw = draw(catalog, case, &seed)?;
    let won = draw.won;
    let open_id: i64 = conn.prepare_cached(INSERT_OPEN)?.query_row(
        named_params! {
            "$1": user_id, "$2": case.id, "$3": request_id, "$4": seed.id, "$5": seed.server_seed_hash,
            "$6": seed.client_seed, "$7": seed.nonce, "$8": draw.roll as i64, "$9": case.total_weight as i64,
            "$10": draw.table, "$11": won.id, "$12": case.price.0, "$13": now,
        },
        |r| r.get(0),
    )?;
    let balance = match ledger::debit_sync(conn, user_id, Tokens(-case.price.0), "case_open", &format!("open:{open_id}"), now)? {
        Posted::Applied(b) => b,
        Posted::Duplicate => return Err(DomainError::Internal(format!("open {open_id} debited twice"))),
    };
    let inventory: (i64, String) = conn.prepare_cached(INSERT_ITEM)?.query_row(
        named_params! {
            "$1": user_id, "$2": open_id, "$3": won.id, "$4": case.id, "$5": won.weapon, "$6": won.finish,
            "$7": won.rarity, "$8": won.condition, "$9": won.image, "$10": won.token_price.0, "$11": now, "$12": now,
        },
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    conn.prepare_cached(fair::BUMP_NONCE)?.execute(named_params! {"$1": seed.id})?;
    let body = answer(&state, case, seed, &draw, inventory, balance, now)?;
    conn.prepare_cached(STORE_ANSWER)?.execute(named_params! {"$1": body, "$2": open_id})?;
    Ok(Some(body))
}
