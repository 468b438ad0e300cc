//! Provably fair draws. `h = HMAC_SHA256(key = server seed hex string, msg = "{client_seed}:{nonce}")`,
//! `roll = u64_be(h[0..8]) mod total_weight`, then walk the weights in order; the first item whose
//! running sum exceeds `roll` wins. The seed's SHA-256 is shown before it is used, the seed after.
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::domain::clock::{random_hex, rfc3339, Random};
use crate::domain::goods::{self, CatalogItem, Exterior};
use crate::domain::store::{self, query, Exec};
use crate::domain::{Domain, DomainError, DomainResult};

type HmacSha256 = Hmac<Sha256>;

/// The roll for one open.
pub fn roll(server_seed: &str, client_seed: &str, nonce: i64, total_weight: u64) -> u64 {
    let mut mac = HmacSha256::new_from_slice(server_seed.as_bytes()).expect("hmac accepts any key");
    mac.update(format!("{client_seed}:{nonce}").as_bytes());
    let h = mac.finalize().into_bytes();
    let mut first = [0u8; 8];
    first.copy_from_slice(&h[..8]);
    u64::from_be_bytes(first) % total_weight
}

/// Index of the winning entry for `roll` over `weights` (in draw order).
pub fn pick(weights: &[u64], roll: u64) -> usize {
    let mut sum = 0u64;
    for (i, w) in weights.iter().enumerate() {
        sum += w;
        if sum > roll {
            return i;
        }
    }
    weights.len() - 1
}

pub fn seed_hash(server_seed: &str) -> String {
    hex::encode(Sha256::digest(server_seed.as_bytes()))
}

pub fn valid_client_seed(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The active seed of a user, as the open needs it.
#[derive(Clone, Debug)]
pub struct ActiveSeed {
    pub id: i64,
    pub server_seed: String,
    pub server_seed_hash: String,
    pub client_seed: String,
    pub nonce: i64,
}

/// The user's active seed, if there is one (a read).
async fn find_active_seed(tx: &mut dyn Exec, user_id: i64) -> DomainResult<Option<ActiveSeed>> {
    let row: Option<(i64, String, String, String, i64)> = query(
        "SELECT id, server_seed, server_seed_hash, client_seed, next_nonce FROM fair_seeds WHERE user_id = $1 AND revealed_at IS NULL",
    )
    .bind(user_id)
    .fetch_optional(tx)
    .await?;
    Ok(row.map(|(id, server_seed, server_seed_hash, client_seed, nonce)| ActiveSeed {
        id,
        server_seed,
        server_seed_hash,
        client_seed,
        nonce,
    }))
}

/// The user's active seed, made on first use (inside the caller's write).
pub async fn active_seed(tx: &mut dyn Exec, random: &dyn Random, user_id: i64, now: i64) -> DomainResult<ActiveSeed> {
    if let Some(a) = find_active_seed(tx, user_id).await? {
        return Ok(a);
    }
    let client_seed = random_hex(random, 8);
    new_seed(tx, random, user_id, &client_seed, now).await
}

async fn new_seed(tx: &mut dyn Exec, random: &dyn Random, user_id: i64, client_seed: &str, now: i64) -> DomainResult<ActiveSeed> {
    let server_seed = random_hex(random, 32);
    let hash = seed_hash(&server_seed);
    let (id,): (i64,) = query(
        "INSERT INTO fair_seeds(user_id, server_seed, server_seed_hash, client_seed, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id",
    )
    .bind(user_id)
    .bind(&server_seed)
    .bind(&hash)
    .bind(client_seed)
    .bind(now)
    .fetch_one(tx)
    .await?;
    Ok(ActiveSeed { id, server_seed, server_seed_hash: hash, client_seed: client_seed.to_owned(), nonce: 0 })
}

/// Moves a seed past the nonces an open used (one per case opened).
pub const BUMP_NONCE: &str = "UPDATE fair_seeds SET next_nonce = next_nonce + $2 WHERE id = $1";

pub async fn bump_nonce(tx: &mut dyn Exec, seed_id: i64, used: u32) -> DomainResult<()> {
    query(BUMP_NONCE).bind(seed_id).bind(i64::from(used)).execute(tx).await?;
    Ok(())
}

/// The player's active seed, made (a write) when a session opened before sign-in made it.
async fn ensure_seed(domain: &Domain, user_id: i64) -> DomainResult<ActiveSeed> {
    let (random, now) = (domain.random.clone(), domain.now());
    domain
        .write(move |tx| {
            Box::pin(async move {
                store::lock_users(tx, &[user_id]).await?;
                active_seed(tx, random.as_ref(), user_id, now).await
            })
        })
        .await
}

pub struct RevealedSeed {
    pub server_seed: String,
    pub server_seed_hash: String,
    pub client_seed: String,
    pub first_nonce: i64,
    /// Null when no open used the seed.
    pub last_nonce: Option<i64>,
    pub revealed_at: String,
}

pub struct FairState {
    pub server_seed_hash: String,
    pub client_seed: String,
    pub nonce: i64,
    pub revealed: Vec<RevealedSeed>,
}

///
/// A read: sign-in makes the first seed, so this takes the write lock only for a session opened
/// before sign-in did that (once per such player).
pub async fn state(domain: &Domain, user_id: i64) -> DomainResult<FairState> {
    let found = domain.read(move |c| Box::pin(find_active_seed(c, user_id))).await?;
    let active = match found {
        Some(a) => a,
        None => ensure_seed(domain, user_id).await?,
    };
    let rows: Vec<(String, String, String, i64, i64)> = domain
        .read(move |c| {
            Box::pin(async move {
                query(
                    "SELECT server_seed, server_seed_hash, client_seed, next_nonce, revealed_at FROM fair_seeds
         WHERE user_id = $1 AND revealed_at IS NOT NULL ORDER BY id DESC LIMIT 50",
                )
                .bind(user_id)
                .fetch_all(c)
                .await
            })
        })
        .await?;
    Ok(FairState {
        server_seed_hash: active.server_seed_hash,
        client_seed: active.client_seed,
        nonce: active.nonce,
        revealed: rows
            .into_iter()
            .map(|(server_seed, server_seed_hash, client_seed, next, at)| RevealedSeed {
                server_seed,
                server_seed_hash,
                client_seed,
                first_nonce: 0,
                last_nonce: (next > 0).then_some(next - 1),
                revealed_at: rfc3339(at),
            })
            .collect(),
    })
}

/// Reveals the active server seed and starts a new one (with `client_seed`, or the old one).
pub async fn rotate(domain: &Domain, user_id: i64, client_seed: Option<&str>) -> DomainResult<FairState> {
    if let Some(cs) = client_seed {
        if !valid_client_seed(cs) {
            return Err(DomainError::InvalidClientSeed);
        }
    }
    let (random, now, client_seed) = (domain.random.clone(), domain.now(), client_seed.map(str::to_owned));
    domain
        .write(move |tx| {
            Box::pin(async move {
                store::lock_users(tx, &[user_id]).await?;
                let old = active_seed(tx, random.as_ref(), user_id, now).await?;
                query("UPDATE fair_seeds SET revealed_at = $1 WHERE id = $2").bind(now).bind(old.id).execute(tx).await?;
                new_seed(tx, random.as_ref(), user_id, client_seed.as_deref().unwrap_or(&old.client_seed), now).await
            })
        })
        .await?;
    state(domain, user_id).await
}

pub struct Verified<'a> {
    pub server_seed_hash: String,
    pub roll: u64,
    pub total_weight: u64,
    /// The drawn skin of the catalog and its weight in the case.
    pub item: &'a CatalogItem,
    pub weight: u64,
    /// The drop's float (`goods::float_of` over the skin's wear range); null for a vanilla knife.
    pub float: Option<f64>,
    /// The float's exterior as Steam names it (`Field-Tested`); null without a float.
    pub exterior: Option<Exterior>,
    /// Whether the drop is StatTrak™ (`goods::stat_trak_of`; false where the skin has none).
    pub stat_trak: bool,
}

/// Recomputes a draw from public inputs against the case's current weights.
pub fn verify<'a>(domain: &'a Domain, server_seed: &str, client_seed: &str, nonce: i64, case_id: &str) -> DomainResult<Verified<'a>> {
    let case = domain.catalog.case(case_id).ok_or(DomainError::CaseNotFound)?;
    if server_seed.is_empty() || server_seed.len() > 128 || client_seed.len() > 64 || nonce < 0 {
        return Err(DomainError::BadRequest("server_seed, client_seed or nonce out of range".into()));
    }
    let r = roll(server_seed, client_seed, nonce, case.total_weight);
    let weights: Vec<u64> = case.entries.iter().map(|e| e.1).collect();
    let (idx, w) = case.entries[pick(&weights, r)];
    let item = &domain.catalog.items[idx];
    let (float, stat_trak) = drop_wear(item, server_seed, client_seed, nonce);
    Ok(Verified {
        server_seed_hash: seed_hash(server_seed),
        roll: r,
        total_weight: case.total_weight,
        item,
        weight: w,
        float,
        exterior: float.map(goods::exterior_of),
        stat_trak,
    })
}

/// The float and StatTrak™ of the drop of `item` for one open, drawn as `goods::instance_of` does.
fn drop_wear(item: &CatalogItem, server_seed: &str, client_seed: &str, nonce: i64) -> (Option<f64>, bool) {
    let float = match (item.wear_min, item.wear_max) {
        (Some(lo), Some(hi)) => Some(goods::float_of(server_seed, client_seed, nonce, lo, hi)),
        _ => None,
    };
    (float, goods::stat_trak_of(server_seed, client_seed, nonce, item.stat_trak))
}

pub struct WeightRow {
    pub id: String,
    pub weight: u64,
}

pub struct OpenRecord {
    pub id: i64,
    pub case_id: String,
    pub server_seed_hash: String,
    pub server_seed: Option<String>,
    pub client_seed: String,
    pub nonce: i64,
    pub roll: i64,
    pub total_weight: i64,
    pub weights: Vec<WeightRow>,
    pub item_id: String,
    pub inventory_id: Option<i64>,
    pub created_at: String,
}

pub const OPENS_PAGE: i64 = 20;

type OpenRow = (i64, String, String, Option<String>, String, i64, i64, i64, String, String, Option<i64>, i64);

/// A user's past opens, newest first, with the seed once it is revealed.
pub async fn opens(domain: &Domain, user_id: i64, page: i64) -> DomainResult<Vec<OpenRecord>> {
    let page = page.max(1);
    let rows: Vec<OpenRow> = domain
        .read(move |c| {
            Box::pin(async move {
                query(
                    "SELECT o.id, o.case_id, o.server_seed_hash,
                CASE WHEN s.revealed_at IS NOT NULL THEN s.server_seed END,
                o.client_seed, o.nonce, o.roll, o.total_weight, o.weights, o.item_id,
                (SELECT i.id FROM inventory_items i WHERE i.open_id = o.id), o.created_at
         FROM case_opens o JOIN fair_seeds s ON s.id = o.seed_id
         WHERE o.user_id = $1 ORDER BY o.id DESC LIMIT $2 OFFSET $3",
                )
                .bind(user_id)
                .bind(OPENS_PAGE)
                .bind((page - 1) * OPENS_PAGE)
                .fetch_all(c)
                .await
            })
        })
        .await?;
    rows.into_iter()
        .map(|r| {
            let weights: Vec<(String, u64)> =
                serde_json::from_str(&r.8).map_err(|e| DomainError::Internal(format!("open {} weights: {e}", r.0)))?;
            Ok(OpenRecord {
                id: r.0,
                case_id: r.1,
                server_seed_hash: r.2,
                server_seed: r.3,
                client_seed: r.4,
                nonce: r.5,
                roll: r.6,
                total_weight: r.7,
                weights: weights.into_iter().map(|(id, weight)| WeightRow { id, weight }).collect(),
                item_id: r.9,
                inventory_id: r.10,
                created_at: rfc3339(r.11),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The README's worked example.
    #[test]
    fn the_documented_example_draws_the_documented_item() {
        let seed = "5d2b0f8e3a6c4b1d9e7f0a2c4e6b8d1f3a5c7e9b0d2f4a6c8e1b3d5f7a9c0e2b";
        assert_eq!(seed_hash(seed), README_HASH);
        let r = roll(seed, "lucky-player", 0, 10_000);
        assert_eq!(r, README_ROLL);
        assert_eq!(pick(&[7000, 2000, 800, 200], r), README_PICK);
    }
    const README_HASH: &str = "0dcac7aa5435ca628a31165c58ada40031599e7e97885547e4db61b6320463b5";
    const README_ROLL: u64 = 6023; // first 8 bytes a74598d6c7163827 = 12053208025957546023
    const README_PICK: usize = 0;

    #[test]
    fn pick_walks_running_sums() {
        let w = [50, 30, 20];
        assert_eq!(pick(&w, 0), 0);
        assert_eq!(pick(&w, 49), 0);
        assert_eq!(pick(&w, 50), 1);
        assert_eq!(pick(&w, 79), 1);
        assert_eq!(pick(&w, 80), 2);
        assert_eq!(pick(&w, 99), 2);
    }

    #[test]
    fn draws_follow_the_weights_chi_square() {
        let weights = [5000u64, 2500, 1500, 700, 250, 50];
        let total: u64 = weights.iter().sum();
        let n = 100_000;
        let mut counts = [0u64; 6];
        let seed = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
        for nonce in 0..n {
            counts[pick(&weights, roll(seed, "chi", nonce, total))] += 1;
        }
        let chi: f64 = weights
            .iter()
            .zip(counts)
            .map(|(&w, c)| {
                let e = n as f64 * w as f64 / total as f64;
                (c as f64 - e).powi(2) / e
            })
            .sum();
        // 5 degrees of freedom: p = 0.001 at 20.52.
        assert!(chi < 20.52, "chi-square {chi} for {counts:?}");
    }

    /// The fixed vector the mini app's `verify.test.ts` checks too: both sides agree on the number.
    #[test]
    fn the_shared_float_vector() {
        let seed = "5d2b0f8e3a6c4b1d9e7f0a2c4e6b8d1f3a5c7e9b0d2f4a6c8e1b3d5f7a9c0e2b";
        let f = goods::float_of(seed, "cs", 7, 0.06, 0.8);
        println!(
            "float_of(seed, cs, 7, 0.06, 0.8) = {f:?}; exterior {:?}; stattrak {}",
            goods::exterior_of(f),
            goods::stat_trak_of(seed, "cs", 7, true)
        );
        assert_eq!(f, SHARED_FLOAT);
        assert_eq!(goods::exterior_of(f), SHARED_EXTERIOR);
        assert_eq!(goods::stat_trak_of(seed, "cs", 7, true), SHARED_STAT_TRAK);
    }
    const SHARED_FLOAT: f64 = 0.6967838342375317; // u = 7750863347534332 / 2^53 (h[0..8] = dc4af404424fe471)
    const SHARED_EXTERIOR: Exterior = Exterior::BattleScarred;
    const SHARED_STAT_TRAK: bool = false; // u64 = 4279667919968099262, mod 10 = 2

    /// Verify recomputes the drop exactly as the open makes it.
    #[test]
    fn verify_draws_the_instance_of_the_open() {
        let items = [
            CatalogItem::for_tests("AK-47", "Redline", "classified", Some((0.1, 0.7)), true),
            CatalogItem::for_tests("M4A4", "Howl", "covert", Some((0.0, 0.4)), false),
            CatalogItem::for_tests("Bayonet", "", "extraordinary", None, true),
        ];
        let seed = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
        let mut stat_traks = 0;
        for item in &items {
            for nonce in 0..200 {
                let (float, stat_trak) = drop_wear(item, seed, "cs", nonce);
                let inst = goods::instance_of(item, seed, "cs", nonce);
                assert_eq!(float, inst.float);
                assert_eq!(float.map(goods::exterior_of), inst.exterior);
                assert_eq!(stat_trak, inst.stat_trak);
                stat_traks += usize::from(stat_trak);
            }
        }
        assert!(stat_traks > 0, "some drops of StatTrak™ skins are StatTrak™");
    }

    #[test]
    fn client_seeds_follow_the_rule() {
        assert!(valid_client_seed("abc_DEF-123"));
        assert!(!valid_client_seed(""));
        assert!(!valid_client_seed("a b"));
        assert!(!valid_client_seed(&"a".repeat(65)));
    }
}
