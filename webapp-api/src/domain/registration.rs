//! First and repeated contact (mini-app sign-in, bot `/start`): a player is registered or their
//! Telegram fields refreshed; a new one is attributed to their inviter and, in demo mode, a demo
//! user gets the demo tokens.
use crate::domain::clock::{random_hex, Random};
use crate::domain::store::{query, Exec};
use crate::domain::users::TelegramUser;
use crate::domain::{ledger, referrals, Domain, DomainResult, Tokens};

/// Demo users get ids from here up, far above real Telegram ids in use.
pub const DEMO_ID_BASE: i64 = 900_000_000_000;
/// What a demo user starts with, so every screen can be tried.
pub const DEMO_GRANT: Tokens = Tokens::whole(5000);

/// Whether `id` is a demo user's (demo mode hands these out).
pub fn is_demo_id(id: i64) -> bool {
    (DEMO_ID_BASE..DEMO_ID_BASE + 1_000_000_000).contains(&id)
}

/// Inserts a user seen for the first time or refreshes their Telegram fields. True when new.
/// Insert first, `ON CONFLICT DO NOTHING`: two first contacts at once (two replicas) make one
/// user; the second waits for the first and then refreshes it. Either way this transaction holds
/// the user's row from here on.
pub async fn upsert_from_telegram(conn: &mut dyn Exec, random: &dyn Random, user: &TelegramUser, now: i64) -> DomainResult<bool> {
    let inserted = query(
        "INSERT INTO users(id, first_name, last_name, username, language_code, photo_url, ref_code, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT(id) DO NOTHING",
    )
    .bind(user.id)
    .bind(&user.first_name)
    .bind(user.last_name.as_deref().unwrap_or(""))
    .bind(&user.username)
    .bind(&user.language_code)
    .bind(&user.photo_url)
    .bind(random_hex(random, 5))
    .bind(now)
    .bind(now)
    .execute(conn)
    .await?;
    if inserted == 1 {
        return Ok(true);
    }
    query(
        "UPDATE users SET first_name = $1, last_name = $2, username = $3, language_code = $4, photo_url = $5, updated_at = $6
         WHERE id = $7",
    )
    .bind(&user.first_name)
    .bind(user.last_name.as_deref().unwrap_or(""))
    .bind(&user.username)
    .bind(&user.language_code)
    .bind(&user.photo_url)
    .bind(now)
    .bind(user.id)
    .execute(conn)
    .await?;
    Ok(false)
}

/// A first or repeated contact (mini-app sign-in or bot `/start`): registers or refreshes the
/// user; for a new user, attributes the referral in `start_param` and (demo mode) grants the
/// demo tokens. True when the user is new.
pub async fn register_in(
    conn: &mut dyn Exec,
    random: &dyn Random,
    demo_mode: bool,
    user: &TelegramUser,
    start_param: Option<&str>,
    now: i64,
) -> DomainResult<bool> {
    let is_new = upsert_from_telegram(conn, random, user, now).await?;
    if is_new {
        if let Some(code) = start_param.and_then(referrals::code_from_start_param) {
            referrals::attribute(conn, user.id, &code, now).await?;
        }
        if demo_mode && is_demo_id(user.id) {
            query("UPDATE users SET is_demo = 1 WHERE id = $1").bind(user.id).execute(conn).await?;
            ledger::credit(conn, user.id, DEMO_GRANT, ledger::Funds::Bonus, "demo_grant", &format!("demo-grant:{}", user.id), now).await?;
        }
    }
    Ok(is_new)
}

pub async fn register(domain: &Domain, user: &TelegramUser, start_param: Option<&str>) -> DomainResult<bool> {
    let (random, demo_mode, now) = (domain.random.clone(), domain.config.demo, domain.now());
    let (user, start_param) = (user.clone(), start_param.map(str::to_owned));
    domain
        .write(move |tx| Box::pin(async move { register_in(tx, random.as_ref(), demo_mode, &user, start_param.as_deref(), now).await }))
        .await
}
