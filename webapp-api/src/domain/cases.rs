//! Opening a case, or up to `MAX_COUNT` of one case at once: one write transaction debits the
//! price of them all, draws each item provably fairly at its own nonce, puts them in the
//! inventory, records the opens and pays first-open rewards once.
use std::sync::Arc;

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

pub struct FairProof {
    pub server_seed_hash: String,
    pub client_seed: String,
    pub nonce: i64,
    pub roll: u64,
}

/// One drawn item of an open and the proof it was drawn fairly (the edge's `Render` writes it).
pub struct Drawn {
    pub item: Item,
    pub fair: FairProof,
}

/// How an open's answer is written: the HTTP edge's body (`http::routes::cases::OpenedBody`),
/// written once, stored with the open for a replay and sent as written. The domain keeps no
/// shape of its own for it.
pub type Render = fn(&[Drawn], Tokens) -> DomainResult<String>;

/// How many cases one request opens at once.
pub const MAX_COUNT: u32 = 5;

/// The number of cases a request opens: 1–`MAX_COUNT` (absent means 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count(u32);

impl Count {
    pub const ONE: Count = Count(1);

    /// A count as the player sent it: absent is one; 0 or above `MAX_COUNT` is refused.
    pub fn parse(count: Option<i64>) -> DomainResult<Count> {
        match count {
            None => Ok(Count::ONE),
            Some(n) if (1..=i64::from(MAX_COUNT)).contains(&n) => Ok(Count(n as u32)),
            Some(_) => Err(DomainError::BadRequest(format!("count must be 1-{MAX_COUNT}"))),
        }
    }

    pub fn get(self) -> u32 {
        self.0
    }
}

/// What an open answers.
pub enum Opened {
    /// A new open: its answer as `Render` wrote it (and as it was stored).
    Fresh(Box<RawValue>),
    /// A retried request: the answer stored with the first, as it was written then (a replay
    /// must answer exactly what the first answered, whatever has changed since).
    Replayed(Box<RawValue>),
}

/// What an open wrote: its answer and the drops it made, for the live feed (none for a replay:
/// its drops were recorded the first time).
pub struct Ran {
    pub answer: Opened,
    pub drops: Vec<feed::Drop>,
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
        s.id, s.server_seed, s.server_seed_hash, s.client_seed, s.next_nonce,
        (SELECT x.reason FROM cases_off_sale x WHERE x.case_id = $3)
 FROM users u LEFT JOIN fair_seeds s ON s.user_id = u.id AND s.revealed_at IS NULL
 WHERE u.id = $1";

/// `batch_open_id` ($14): for the second and later opens of one request, the first open, whose
/// key the request's one debit carries; NULL otherwise.
pub const INSERT_OPEN: &str = "INSERT INTO case_opens(user_id, case_id, request_id, seed_id, server_seed_hash, client_seed, nonce, roll,
                            total_weight, weights, item_id, price, response, created_at, batch_open_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, '', $13, $14) RETURNING id";

/// The answer's item is built from what was just written (no read-back); the row's own default
/// status comes back with its id.
pub const INSERT_ITEM: &str =
    "INSERT INTO inventory_items(user_id, open_id, catalog_item_id, case_id, weapon, finish, rarity, condition, image,
                                 token_price, created_at, updated_at, float, exterior, stat_trak, market_hash_name, bonus_cost)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id, status";

/// The stored answer a repeated request id replays.
pub const STORE_ANSWER: &str = "UPDATE case_opens SET response = $1 WHERE id = $2";

type StateRow = (
    Option<String>,
    Option<i64>,
    String,
    String,
    Option<String>,
    Option<i64>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<i64>,
    Option<String>,
);

/// What the open reads before it writes.
struct State {
    replay: Option<String>,
    first_case_at: Option<i64>,
    first_name: String,
    last_name: String,
    username: Option<String>,
    seed: Option<fair::ActiveSeed>,
    /// Why the case is stored off sale (`cases_off_sale`), read in the open's own write: an
    /// operator's `catalog off` stops opens on every replica at once.
    off_sale: Option<String>,
}

impl From<StateRow> for State {
    fn from(row: StateRow) -> Self {
        let (replay, first_case_at, first_name, last_name, username, seed_id, server_seed, server_seed_hash, client_seed, nonce, off_sale) =
            row;
        let seed = match (seed_id, server_seed, server_seed_hash, client_seed, nonce) {
            (Some(id), Some(server_seed), Some(server_seed_hash), Some(client_seed), Some(nonce)) => {
                Some(fair::ActiveSeed { id, server_seed, server_seed_hash, client_seed, nonce })
            }
            _ => None,
        };
        State { replay, first_case_at, first_name, last_name, username, seed, off_sale }
    }
}

/// The draw of one open: the roll and the won item.
struct Draw<'a> {
    roll: u64,
    won: &'a CatalogItem,
}

/// The case's weight table as stored with each open (`[[item id, weight], ...]`, in draw order).
fn weight_table(catalog: &Catalog, case: &Case) -> DomainResult<String> {
    let table: Vec<(&str, u64)> = case.entries.iter().map(|&(i, w)| (catalog.items[i].id.as_str(), w)).collect();
    serde_json::to_string(&table).map_err(|e| DomainError::Internal(e.to_string()))
}

fn draw<'a>(catalog: &'a Catalog, case: &Case, seed: &fair::ActiveSeed, nonce: i64) -> Draw<'a> {
    let weights: Vec<u64> = case.entries.iter().map(|e| e.1).collect();
    let roll = fair::roll(&seed.server_seed, &seed.client_seed, nonce, case.total_weight);
    let (item_idx, _) = case.entries[fair::pick(&weights, roll)];
    Draw { roll, won: &catalog.items[item_idx] }
}

/// The bonus part of the `index`-th of `count` opens at `price` each, paid together by one debit
/// whose bonus part is `bonus`. Paid tokens are spent first and in draw order, so the bonus falls
/// on the last opens: open `index` is paid by the debit's tokens `[index × price, (index + 1) ×
/// price)`, of which those past the paid part are bonus. The parts sum to `bonus` exactly and none
/// exceeds `price` (a sale's bonus share is a fraction of the open's own price).
pub fn bonus_part(price: i64, count: u32, bonus: i64, index: u32) -> i64 {
    let paid = price * i64::from(count) - bonus;
    (price * (i64::from(index) + 1) - paid).clamp(0, price)
}

/// What the open wrote for one drawn item that its answer shows.
struct Won {
    inventory_id: i64,
    status: String,
    instance: Instance,
    bonus_cost: Tokens,
}

/// A drawn item as the answer shows it.
fn answered_item(open: &Open, state: &State, case: &Case, won: &CatalogItem, won_row: Won) -> Item {
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
    inventory::present(item, &open.catalog, open.lang, open.paid_only)
}

fn raw(body: String) -> DomainResult<Box<RawValue>> {
    RawValue::from_string(body).map_err(|e| DomainError::Internal(e.to_string()))
}

/// Opens `count` of `case_id` for `user_id`, all or none. The same `request_id` again answers the
/// first result (as stored JSON) and charges nothing.
pub async fn open(
    domain: &Domain,
    user_id: i64,
    case_id: &str,
    request_id: Option<&str>,
    count: Count,
    lang: Lang,
    render: Render,
) -> DomainResult<Opened> {
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
        count,
        now: domain.now(),
        lang,
        paid_only: domain.config.withdraw_paid_only,
        render,
    };
    let (answer, drops) = domain
        .write(move |tx| {
            Box::pin(async move {
                let Ran { answer, drops } = open.run(tx).await?;
                let drops = feed::record(tx, drops).await?;
                Ok((answer, drops))
            })
        })
        .await?;
    feed::publish(domain, drops).await;
    Ok(answer)
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
    /// How many cases, each drawn at the next nonce, paid by one debit.
    pub count: Count,
    pub now: i64,
    /// The language of the answer's names (a replay answers as first written).
    pub lang: Lang,
    /// `WITHDRAW_PAID_ONLY`: whether a bonus-won skin is shown as not withdrawable.
    pub paid_only: bool,
    /// Writes the answer (stored for a replay, and sent).
    pub render: Render,
}

impl Open {
    /// The open, inside the caller's write: answers the stored answer of an earlier open with the
    /// same request id, or debits the price of every case asked for at once, draws each item at
    /// the next nonce, stores them and pays first-open rewards.
    pub async fn run(self, tx: &mut dyn Exec) -> DomainResult<Ran> {
        let (user_id, now, catalog) = (self.user_id, self.now, self.catalog.clone());
        let count = self.count.get();
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
        let state: Option<StateRow> = query(STATE).bind(user_id).bind(request_id).bind(&self.case_id).fetch_optional(tx).await?;
        let Some(state) = state.map(State::from) else {
            return Err(DomainError::NotFound);
        };
        if let Some(response) = state.replay {
            return Ok(Ran { answer: Opened::Replayed(raw(response)?), drops: Vec::new() });
        }
        // Off sale (here, or stored by an operator or the price rules since this process
        // started): gone from the store. A replay above still answers what was opened.
        if case.off_sale.is_some() || state.off_sale.is_some() {
            return Err(DomainError::CaseNotFound);
        }
        let seed = match state.seed.clone() {
            Some(seed) => seed,
            None => fair::active_seed(tx, self.random.as_ref(), user_id, now).await?,
        };
        let table = weight_table(&catalog, case)?;
        let first = draw(&catalog, case, &seed, seed.nonce);
        let first_id = insert_open(tx, &self, case, &seed, seed.nonce, &first, &table, None).await?;
        // One debit pays every case of the request, under the first open's key: all or nothing.
        // An error from here on undoes the whole write, the open rows included.
        let cost = Tokens(
            case.price.0.checked_mul(i64::from(count)).ok_or_else(|| DomainError::Internal(format!("case {} price overflows", case.id)))?,
        );
        responsible::check_open(tx, user_id, cost, now).await?;
        let (mut balance, bonus) = match ledger::debit(tx, user_id, cost, "case_open", &format!("open:{first_id}"), now).await? {
            Debited::Applied { balance, bonus } => (balance, bonus),
            Debited::Duplicate => return Err(DomainError::Internal(format!("open {first_id} debited twice"))),
        };
        let mut drawn = Vec::with_capacity(count as usize);
        let mut drops = Vec::with_capacity(count as usize);
        let mut next = Some(first);
        for index in 0..count {
            let nonce = seed.nonce + i64::from(index);
            let (open_id, draw) = match next.take() {
                Some(first) => (first_id, first),
                None => {
                    let d = draw(&catalog, case, &seed, nonce);
                    (insert_open(tx, &self, case, &seed, nonce, &d, &table, Some(first_id)).await?, d)
                }
            };
            let won = draw.won;
            let bonus_cost = Tokens(bonus_part(case.price.0, count, bonus.0, index));
            // The drop is an instance of the skin: its float, exterior and StatTrak™ drawn from the
            // same seed, nonce and client seed as the item (`goods::instance_of`).
            let instance = goods::instance_of(won, &seed.server_seed, &seed.client_seed, nonce);
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
            drops.push(feed::Drop {
                item_id: inventory_id,
                user_id,
                case_id: case.id.clone(),
                catalog_item_id: won.id.clone(),
                at: now,
                id: None,
            });
            let fair = FairProof {
                server_seed_hash: seed.server_seed_hash.clone(),
                client_seed: seed.client_seed.clone(),
                nonce,
                roll: draw.roll,
            };
            let item = answered_item(&self, &state, case, won, Won { inventory_id, status, instance, bonus_cost });
            drawn.push(Drawn { item, fair });
        }
        fair::bump_nonce(tx, seed.id, count).await?;
        if state.first_case_at.is_none() {
            if let Some(b) = referrals::on_first_open(tx, user_id, self.demo, now).await? {
                balance = b;
            }
        }
        if drawn.is_empty() {
            return Err(DomainError::Internal("an open drew nothing".into()));
        }
        let body = (self.render)(&drawn, balance)?;
        query(STORE_ANSWER).bind(&body).bind(first_id).execute(tx).await?;
        Ok(Ran { answer: Opened::Fresh(raw(body)?), drops })
    }
}

/// Writes one open's row (`batch_of`: the request's first open, for the later ones). Only the
/// first carries the request id (and, once stored, the answer a replay reads).
#[allow(clippy::too_many_arguments)]
async fn insert_open(
    tx: &mut dyn Exec,
    open: &Open,
    case: &Case,
    seed: &fair::ActiveSeed,
    nonce: i64,
    draw: &Draw<'_>,
    table: &str,
    batch_of: Option<i64>,
) -> DomainResult<i64> {
    let request_id = if batch_of.is_none() { open.request_id.as_deref() } else { None };
    let (id,): (i64,) = query(INSERT_OPEN)
        .bind(open.user_id)
        .bind(&case.id)
        .bind(request_id)
        .bind(seed.id)
        .bind(&seed.server_seed_hash)
        .bind(&seed.client_seed)
        .bind(nonce)
        .bind(draw.roll as i64)
        .bind(case.total_weight as i64)
        .bind(table)
        .bind(&draw.won.id)
        .bind(case.price.0)
        .bind(open.now)
        .bind(batch_of)
        .fetch_one(tx)
        .await?;
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_is_one_to_five_and_absent_is_one() {
        assert_eq!(Count::parse(None).unwrap(), Count::ONE);
        assert_eq!(Count::parse(Some(5)).unwrap().get(), 5);
        for bad in [0, 6, -1, i64::MAX] {
            assert!(matches!(Count::parse(Some(bad)), Err(DomainError::BadRequest(_))), "{bad}");
        }
    }

    #[test]
    fn the_bonus_of_one_debit_falls_on_the_last_opens_and_adds_up_exactly() {
        // A single open carries the whole bonus part.
        assert_eq!(bonus_part(700, 1, 0, 0), 0);
        assert_eq!(bonus_part(700, 1, 250, 0), 250);
        for (price, count, bonus) in [(700, 5, 0), (700, 5, 3500), (700, 5, 1), (700, 3, 701), (999, 4, 2997), (100, 2, 150)] {
            let parts: Vec<i64> = (0..count).map(|i| bonus_part(price, count, bonus, i)).collect();
            assert_eq!(parts.iter().sum::<i64>(), bonus, "{parts:?}");
            assert!(parts.iter().all(|&p| (0..=price).contains(&p)), "{parts:?}");
            assert!(parts.windows(2).all(|w| w[0] <= w[1]), "paid first: {parts:?}");
        }
        assert_eq!((0..3).map(|i| bonus_part(700, 3, 701, i)).collect::<Vec<_>>(), vec![0, 1, 700]);
    }
}
