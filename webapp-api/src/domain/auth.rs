//! Telegram init-data verification and session tokens.

use hmac::{Hmac, Mac};

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::domain::clock::random_hex;
use crate::domain::store::query;
use crate::domain::{registration, Domain, DomainError, DomainResult};

type HmacSha256 = Hmac<Sha256>;

/// Init data auth_date may run ahead of our clock by this much (clock skew), no more.
const MAX_FUTURE_SKEW_SECS: i64 = 300;

pub use crate::domain::caches::SESSION_CACHE_SECS;
use crate::domain::caches::{CachedSession, TokenHash};
pub use crate::domain::users::TelegramUser;

/// Init data whose signature, age and user were checked. Holding one means it is genuine.
#[derive(Clone, Debug, PartialEq)]
pub struct InitData {
    pub user: TelegramUser,
    pub auth_date: i64,
    pub start_param: Option<String>,
}

impl InitData {
    /// Checks Telegram's signature: secret = HMAC_SHA256(key "WebAppData", bot token); the
    /// data-check string is every URL-decoded pair but `hash`, sorted by key, joined by `\n`.
    pub fn verify(raw: &str, bot_token: &str, now: i64, max_age_secs: i64) -> DomainResult<InitData> {
        let mut hash: Option<String> = None;
        let mut pairs: Vec<(String, String)> = Vec::new();
        for (k, v) in form_urlencoded::parse(raw.trim().as_bytes()) {
            if k == "hash" {
                if hash.is_some() {
                    return Err(DomainError::InvalidInitData("duplicated hash"));
                }
                hash = Some(v.into_owned());
            } else {
                pairs.push((k.into_owned(), v.into_owned()));
            }
        }
        let hash = hash.ok_or(DomainError::InvalidInitData("missing hash"))?;
        let expected = hex::decode(&hash).map_err(|_| DomainError::InvalidInitData("hash is not hex"))?;
        if expected.len() != 32 {
            return Err(DomainError::InvalidInitData("hash has the wrong length"));
        }
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        for w in pairs.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(DomainError::InvalidInitData("duplicated field"));
            }
        }
        let check: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let check = check.join("\n");

        let mut secret = HmacSha256::new_from_slice(b"WebAppData").expect("hmac accepts any key");
        secret.update(bot_token.as_bytes());
        let secret = secret.finalize().into_bytes();
        let mut mac = HmacSha256::new_from_slice(&secret).expect("hmac accepts any key");
        mac.update(check.as_bytes());
        let actual = mac.finalize().into_bytes();
        if !bool::from(actual.as_slice().ct_eq(&expected)) {
            return Err(DomainError::InvalidInitData("signature mismatch"));
        }

        let field = |name: &str| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        let auth_date: i64 = field("auth_date")
            .ok_or(DomainError::InvalidInitData("missing auth_date"))?
            .parse()
            .map_err(|_| DomainError::InvalidInitData("auth_date is not an integer"))?;
        if auth_date > now + MAX_FUTURE_SKEW_SECS {
            return Err(DomainError::InvalidInitData("auth_date is in the future"));
        }
        if max_age_secs > 0 && now - auth_date > max_age_secs {
            return Err(DomainError::InitDataExpired);
        }
        let user: TelegramUser = serde_json::from_str(field("user").ok_or(DomainError::InvalidInitData("missing user"))?)
            .map_err(|_| DomainError::InvalidInitData("user is not valid JSON"))?;
        if user.id <= 0 {
            return Err(DomainError::InvalidInitData("user id is not positive"));
        }
        let start_param = field("start_param").filter(|s| !s.is_empty()).map(str::to_owned);
        Ok(InitData { user, auth_date, start_param })
    }
}

/// Signs init data the way Telegram does (demo mode and tests use it).
pub fn sign_init_data(pairs: &[(&str, &str)], bot_token: &str) -> String {
    let mut sorted: Vec<(&str, &str)> = pairs.to_vec();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    let check: Vec<String> = sorted.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut secret = HmacSha256::new_from_slice(b"WebAppData").expect("hmac accepts any key");
    secret.update(bot_token.as_bytes());
    let secret = secret.finalize().into_bytes();
    let mut mac = HmacSha256::new_from_slice(&secret).expect("hmac accepts any key");
    mac.update(check.join("\n").as_bytes());
    let hash = hex::encode(mac.finalize().into_bytes());
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        out.append_pair(k, v);
    }
    out.append_pair("hash", &hash);
    out.finish()
}

/// Live sessions one player may hold; a sign-in past it ends the oldest.
pub const MAX_SESSIONS_PER_USER: usize = 10;
/// Expired sessions of anyone deleted per sign-in (an indexed, bounded batch).
const PURGE_BATCH: i64 = 64;

fn token_hash(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

/// Verifies init data, registers or refreshes the user, attributes a first-contact referral,
/// and opens a session. Answers the bearer token and the user's id.
///
/// One transaction also keeps the sessions table small: the player's sessions past
/// `MAX_SESSIONS_PER_USER` (oldest first), their revoked and expired ones, and a bounded batch
/// of anyone's expired ones are deleted. Every statement uses an index, so the cost does not
/// grow with the number of sessions.
pub async fn sign_in(domain: &Domain, raw_init_data: &str) -> DomainResult<(String, i64)> {
    let now = domain.now();
    let init = InitData::verify(raw_init_data, &domain.config.bot_token, now, domain.config.auth_max_age_secs)?;
    let token = random_hex(domain.random.as_ref(), 32);
    let hash = token_hash(&token);
    let expires_at = now + domain.config.session_ttl_secs;
    let user_id = init.user.id;
    let (random, demo_mode, stored_hash) = (domain.random.clone(), domain.config.demo, hex::encode(hash));
    let ended = domain
        .write(move |tx| {
            Box::pin(async move {
                // A demo user (made by demo mode on this database) never acts on a server with a bot token.
                if !demo_mode {
                    let demo: Option<(i64,)> =
                        query("SELECT is_demo FROM users WHERE id = $1").bind(init.user.id).fetch_optional(tx).await?;
                    if demo.is_some_and(|(d,)| d != 0) {
                        return Err(DomainError::Unauthorized);
                    }
                }
                registration::register_in(tx, random.as_ref(), demo_mode, &init.user, init.start_param.as_deref(), now).await?;
                // The provably-fair seed exists before anything reads it, so reading it never writes.
                crate::domain::fair::active_seed(tx, random.as_ref(), user_id, now).await?;
                let live: Vec<(String,)> = query(
                    "SELECT token_hash FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY seq DESC, created_at DESC",
                )
                .bind(user_id)
                .bind(now)
                .fetch_all(tx)
                .await?;
                let ended: Vec<String> = live.into_iter().skip(MAX_SESSIONS_PER_USER - 1).map(|(h,)| h).collect();
                for h in &ended {
                    query("DELETE FROM sessions WHERE token_hash = $1").bind(h).execute(tx).await?;
                }
                query("DELETE FROM sessions WHERE user_id = $1 AND (revoked_at IS NOT NULL OR expires_at <= $2)")
                    .bind(user_id)
                    .bind(now)
                    .execute(tx)
                    .await?;
                query(
                    "DELETE FROM sessions WHERE token_hash IN (SELECT token_hash FROM sessions WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2)",
                )
                .bind(now)
                .bind(PURGE_BATCH)
                .execute(tx)
                .await?;
                query(
                    "INSERT INTO sessions(token_hash, user_id, created_at, expires_at, seq)
                     VALUES ($1, $2, $3, $4, (SELECT COALESCE(MAX(seq), 0) + 1 FROM sessions WHERE user_id = $2))",
                )
                .bind(&stored_hash)
                .bind(user_id)
                .bind(now)
                .bind(expires_at)
                .execute(tx)
                .await?;
                Ok(ended)
            })
        })
        .await?;
    for h in ended {
        if let Ok(Ok(h)) = hex::decode(h).map(TokenHash::try_from) {
            domain.sessions.remove(&h);
        }
    }
    domain.sessions.put(hash, CachedSession { user_id, expires_at, cached_at: now });
    Ok((token, user_id))
}

/// The user behind a bearer token, or `Unauthorized`.
pub async fn authenticate(domain: &Domain, token: &str) -> DomainResult<i64> {
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(DomainError::Unauthorized);
    }
    let now = domain.now();
    let hash = token_hash(token);
    if let Some(s) = domain.sessions.get(&hash, now) {
        return if s.expires_at > now { Ok(s.user_id) } else { Err(DomainError::Unauthorized) };
    }
    // Not in memory, or cached too long ago: the database is the source of truth.
    // A demo user's session (left by demo mode on this database) is refused with a bot token;
    // sessions reach the cache only through here or sign-in, which refuses them too.
    let row: Option<(i64, i64, i64)> = domain
        .read(move |c| {
            Box::pin(async move {
                query(
                    "SELECT s.user_id, s.expires_at, u.is_demo FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.token_hash = $1 AND s.revoked_at IS NULL",
                )
                .bind(hex::encode(hash))
                .fetch_optional(c)
                .await
            })
        })
        .await?;
    match row {
        Some((_, _, demo)) if demo != 0 && !domain.config.demo => Err(DomainError::Unauthorized),
        Some((user_id, expires_at, _)) if expires_at > now => {
            domain.sessions.put(hash, CachedSession { user_id, expires_at, cached_at: now });
            Ok(user_id)
        }
        _ => {
            domain.sessions.remove(&hash);
            Err(DomainError::Unauthorized)
        }
    }
}

/// Revokes one session (logout).
pub async fn revoke(domain: &Domain, token: &str) -> DomainResult<()> {
    let hash = token_hash(token);
    domain
        .execute(
            query("UPDATE sessions SET revoked_at = $1 WHERE token_hash = $2 AND revoked_at IS NULL")
                .bind(domain.now())
                .bind(hex::encode(hash)),
        )
        .await?;
    domain.sessions.remove(&hash);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "7342037359:AAHI25ES9xCOMPWYWjxpYd1ak7HgwOeZpX8";
    const NOW: i64 = 1_763_800_000;
    const USER: &str =
        r#"{"id":5768337691,"first_name":"Anna Maria","last_name":"","username":"anna","language_code":"ru","allows_write_to_pm":true}"#;

    fn signed(extra: &[(&str, &str)]) -> String {
        let date = NOW.to_string();
        let mut pairs = vec![("auth_date", date.as_str()), ("query_id", "AAH"), ("user", USER), ("signature", "abc")];
        pairs.extend_from_slice(extra);
        sign_init_data(&pairs, TOKEN)
    }

    #[test]
    fn genuine_init_data_is_accepted() {
        let init = InitData::verify(&signed(&[("start_param", "ref_abc")]), TOKEN, NOW, 86400).unwrap();
        assert_eq!(init.user.id, 5768337691);
        assert_eq!(init.user.first_name, "Anna Maria");
        assert_eq!(init.start_param.as_deref(), Some("ref_abc"));
    }

    #[test]
    fn a_tampered_field_is_rejected() {
        let raw = signed(&[]).replace("anna", "bob");
        assert!(matches!(InitData::verify(&raw, TOKEN, NOW, 86400), Err(DomainError::InvalidInitData(_))));
    }

    #[test]
    fn another_bots_token_is_rejected() {
        let raw = signed(&[]);
        assert!(matches!(InitData::verify(&raw, "1:other", NOW, 86400), Err(DomainError::InvalidInitData("signature mismatch"))));
    }

    #[test]
    fn a_missing_or_malformed_or_duplicated_hash_is_rejected() {
        let raw = signed(&[]);
        let no_hash: String = raw.split('&').filter(|p| !p.starts_with("hash=")).collect::<Vec<_>>().join("&");
        assert!(matches!(InitData::verify(&no_hash, TOKEN, NOW, 0), Err(DomainError::InvalidInitData("missing hash"))));
        let bad = format!("{no_hash}&hash=zz");
        assert!(matches!(InitData::verify(&bad, TOKEN, NOW, 0), Err(DomainError::InvalidInitData(_))));
        let twice = format!("{raw}&hash=00");
        assert!(matches!(InitData::verify(&twice, TOKEN, NOW, 0), Err(DomainError::InvalidInitData("duplicated hash"))));
    }

    #[test]
    fn old_init_data_is_expired_unless_the_age_check_is_off() {
        let raw = signed(&[]);
        assert!(matches!(InitData::verify(&raw, TOKEN, NOW + 86401, 86400), Err(DomainError::InitDataExpired)));
        assert!(InitData::verify(&raw, TOKEN, NOW + 10 * 86400, 0).is_ok());
    }

    #[test]
    fn future_dated_init_data_is_rejected() {
        let raw = signed(&[]);
        assert!(matches!(InitData::verify(&raw, TOKEN, NOW - 3600, 86400), Err(DomainError::InvalidInitData(_))));
    }

    #[test]
    fn init_data_without_a_user_or_date_is_rejected() {
        let date = NOW.to_string();
        let raw = sign_init_data(&[("auth_date", &date), ("query_id", "x")], TOKEN);
        assert!(matches!(InitData::verify(&raw, TOKEN, NOW, 0), Err(DomainError::InvalidInitData("missing user"))));
        let raw = sign_init_data(&[("user", USER)], TOKEN);
        assert!(matches!(InitData::verify(&raw, TOKEN, NOW, 0), Err(DomainError::InvalidInitData("missing auth_date"))));
        let raw = sign_init_data(&[("user", USER), ("auth_date", "12x")], TOKEN);
        assert!(matches!(InitData::verify(&raw, TOKEN, NOW, 0), Err(DomainError::InvalidInitData(_))));
    }

    #[test]
    fn a_plus_decodes_as_a_space_and_the_hash_need_not_be_last() {
        // Signed over "Anna Maria"; sent with '+' for the space and the hash first.
        let raw = signed(&[]);
        assert!(raw.contains("Anna+Maria"));
        let (hash, rest): (Vec<&str>, Vec<&str>) = raw.split('&').partition(|p| p.starts_with("hash="));
        let reordered = format!("{}&{}", hash[0], rest.join("&"));
        let init = InitData::verify(&reordered, TOKEN, NOW, 86400).unwrap();
        assert_eq!(init.user.first_name, "Anna Maria");
    }

    #[test]
    fn a_vector_signed_by_an_independent_implementation_verifies() {
        // Signed with Python's hmac module, not with sign_init_data: keeps `signature` in the string.
        let raw = "query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D&auth_date=1662771648&signature=SIG&hash=368fccf64523932545195a093903a003b7e50741cca77041800bca9b756071b7";
        let token = "5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8";
        let init = InitData::verify(raw, token, 1662771648, 86400).unwrap();
        assert_eq!(init.user.id, 279058397);
        assert_eq!(init.user.username.as_deref(), Some("vdkfrost"));
        let without_signature = raw.replace("&signature=SIG", "");
        assert!(InitData::verify(&without_signature, token, 1662771648, 86400).is_err());
    }
}
