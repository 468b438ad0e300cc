//! Opening a case: one write transaction debits the price, draws the item provably fairly,
//! puts it in the inventory, records the open and pays first-open rewards.
use std::sync::Arc;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::domain::catalog::{Case, Catalog, CatalogItem};
use crate::domain::clock::rfc3339;
use crate::domain::clock::Random;
use crate::domain::goods::{self, Instance};
use crate::domain::inventory::{self, Item};
use crate::domain::lang::Lang;
use crate::domain::ledger::{self, Debited};
use crate::domain::store::{self, query, Exec};
use crate::domain::users::display_name;
use crate::domain::{fair, feed, referrals, responsible, Domain, DomainError, DomainResult, Tokens};

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

// The statements of an open (public: the benchmark's raw bound runs these very texts).

/// One read: an earlier answer to this request id, the first-open mark, the owner's name for the
/// answer and the active seed.
pub const STATE: &str = "SELECT (SELECT o.response FROM case_opens o WHERE o.user_id = u.id AND o.request_id = $2),
        u.first_case_at, u.first_name, u.last_name, u.username,
        s.id, s.server_seed, s.server_seed_hash, s.client_seed, s.next_nonce
 FROM users u LEFT JOIN fair_seeds s ON s.user_id = u.id AND s.revealed_at IS NULL
 WHERE u.id = $1";

pub const INSERT_OPEN: &str = "INSERT INTO case_opens(user_id, case_id, request_id, seed_id, server_seed_hash, client_seed, nonce, roll,
                            total_weight, weights, item_id, price, response, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '', $13) RETURNING id";

/// The answer's item is built from what was just written (no read-back); the row's own default
/// status comes back with its id.
pub const INSERT_ITEM: &str =
    "INSERT INTO inventory_items(user_id, open_id, catalog_item_id, case_id, weapon, finish, rarity, condition, image,
                                 token_price, created_at, updated_at, float, exterior, stat_trak, market_hash_name, bonus_cost)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id, status";

/// The stored answer a repeated request id replays.
pub const STORE_ANSWER: &str = "UPDATE case_opens SET response = $1 WHERE id = $2";

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

/// What the open wrote that its answer shows.
struct Won {
    inventory_id: i64,
    status: String,
    instance: Instance,
    bonus_cost: Tokens,
}

/// The answer to an open, as stored with it and sent.
fn answer(
    open: &Open,
    state: &State,
    case: &Case,
    seed: fair::ActiveSeed,
    draw: &Draw<'_>,
    won_row: Won,
    balance: Tokens,
) -> DomainResult<String> {
    let won = draw.won;
    let Won { inventory_id, status, instance, bonus_cost } = won_row;
    let item = Item {
        id: inventory_id,
        weapon_id: won.id.clone(),
        market_hash_name: instance.market_hash_name.clone(),
        name: won.weapon.clone(),
        variant: won.finish.clone(),
        icon_url: won.image.clone(),
        token_price: instance.price,
        rarity: won.rarity.clone(),
        condition: instance.condition().to_owned(),
        status,
        status_reason_code: None,
        status_reason: None,
        owner: display_name(&state.first_name, &state.last_name, state.username.as_deref()),
        case_id: Some(case.id.clone()),
        opened_at: rfc3339(open.now),
        float: instance.float,
        exterior: instance.exterior.map(|e| e.steam_name().to_owned()),
        stat_trak: instance.stat_trak,
        special: false,
        wear_min: None,
        wear_max: None,
        withdrawable: bonus_cost.0 == 0,
        delivery_state: None,
        bonus_cost: bonus_cost.0,
    };
    let item = inventory::present(item, &open.catalog, open.lang, open.paid_only);
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
pub async fn open(domain: &Domain, user_id: i64, case_id: &str, request_id: Option<&str>, lang: Lang) -> DomainResult<Box<RawValue>> {
    if let Some(r) = request_id {
        if !valid_request_id(r) {
            return Err(DomainError::BadRequest("requestId must be 1-64 of [A-Za-z0-9-]".into()));
        }
    }
    domain.catalog.case(case_id).ok_or(DomainError::CaseNotFound)?;
    let open = Open {
        catalog: domain.catalog.clone(),
        random: domain.random.clone(),
        demo: domain.config.demo,
        user_id,
        case_id: case_id.to_owned(),
        request_id: request_id.map(str::to_owned),
        now: domain.now(),
        lang,
        paid_only: domain.config.withdraw_paid_only,
    };
    let now = open.now;
    let (body, drops) = domain
        .write(move |tx| {
            Box::pin(async move {
                let body = open.run(tx).await?;
                let drops = feed::record(tx, user_id, &body, now).await?;
                Ok((body, drops))
            })
        })
        .await?;
    feed::publish(domain, drops).await;
    raw(body)
}

/// One open, with everything it needs owned: it may run on the store's writer thread.
pub struct Open {
    pub catalog: Arc<Catalog>,
    pub random: Arc<dyn Random>,
    /// Demo mode (a demo inviter is paid for an invite only then).
    pub demo: bool,
    pub user_id: i64,
    pub case_id: String,
    pub request_id: Option<String>,
    pub now: i64,
    /// The language of the answer's names (a replay answers as first written).
    pub lang: Lang,
    /// `WITHDRAW_PAID_ONLY`: whether a bonus-won skin is shown as not withdrawable.
    pub paid_only: bool,
}

impl Open {
    /// The open, inside the caller's write: answers the stored answer of an earlier open with the
    /// same request id, or debits the price, draws the item, stores it and pays first-open rewards.
    pub async fn run(self, tx: &mut dyn Exec) -> DomainResult<String> {
        let (user_id, now, catalog) = (self.user_id, self.now, self.catalog.clone());
        let request_id = self.request_id.as_deref();
        let case = catalog.case(&self.case_id).ok_or(DomainError::CaseNotFound)?;
        // Where writers lock rows (`store::locks_rows`), the player and, while the first-open reward is to
        // pay, the inviter are locked before the open reads the seed, the balance or the
        // first-open mark: one open per player at a time. Where one write lock excludes every
        // other writer there is nothing to lock and nothing to read for it.
        if store::locks_rows(tx) {
            let locks = referrals::users_an_open_locks(tx, user_id).await?;
            store::lock_users(tx, &locks).await?;
        }
        let state: Option<StateRow> = query(STATE).bind(user_id).bind(request_id).fetch_optional(tx).await?;
        let Some(state) = state.map(State::from) else {
            return Err(DomainError::NotFound);
        };
        if let Some(response) = state.replay {
            return Ok(response);
        }
        let seed = match state.seed.clone() {
            Some(seed) => seed,
            None => fair::active_seed(tx, self.random.as_ref(), user_id, now).await?,
        };
        let draw = draw(&catalog, case, &seed)?;
        let won = draw.won;
        let (open_id,): (i64,) = query(INSERT_OPEN)
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
            .fetch_one(tx)
            .await?;
        // An error from here on undoes the whole write, the open row included.
        responsible::check_open(tx, user_id, case.price, now).await?;
        let (mut balance, bonus_cost) = match ledger::debit(tx, user_id, case.price, "case_open", &format!("open:{open_id}"), now).await? {
            Debited::Applied { balance, bonus } => (balance, bonus),
            Debited::Duplicate => return Err(DomainError::Internal(format!("open {open_id} debited twice"))),
        };
        // The drop is an instance of the skin: its float, exterior and StatTrak™ drawn from the
        // same seed, nonce and client seed as the item (`goods::instance_of`).
        let instance = goods::instance_of(won, &seed.server_seed, &seed.client_seed, seed.nonce);
        let (inventory_id, status): (i64, String) = query(INSERT_ITEM)
            .bind(user_id)
            .bind(open_id)
            .bind(&won.id)
            .bind(&case.id)
            .bind(&won.weapon)
            .bind(&won.finish)
            .bind(&won.rarity)
            .bind(instance.condition())
            .bind(&won.image)
            .bind(instance.price.0)
            .bind(now)
            .bind(now)
            .bind(instance.float)
            .bind(instance.exterior.map(|e| e.steam_name()))
            .bind(instance.stat_trak)
            .bind(&instance.market_hash_name)
            .bind(bonus_cost.0)
            .fetch_one(tx)
            .await?;
        fair::bump_nonce(tx, seed.id).await?;
        if state.first_case_at.is_none() {
            if let Some(b) = referrals::on_first_open(tx, user_id, self.demo, now).await? {
                balance = b;
            }
        }
        let won_row = Won { inventory_id, status, instance, bonus_cost };
        let body = answer(&self, &state, case, seed, &draw, won_row, balance)?;
        query(STORE_ANSWER).bind(&body).bind(open_id).execute(tx).await?;
        Ok(body)
    }
}
