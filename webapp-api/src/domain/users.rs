//! Players: registration from Telegram, profile, trade link, agreement, language.
use serde::Serialize;

use crate::domain::auth::TelegramUser;
use crate::domain::clock::{random_hex, Random};
use crate::domain::lang::Lang;
use crate::domain::store::{query, Exec};
use crate::domain::trade_url::TradeUrl;
use crate::domain::{demo, ledger, referrals, Domain, DomainError, DomainResult, Tokens};

/// What `/me` and sign-in answer.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub telegram_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub username: Option<String>,
    pub avatar_url: Option<String>,
    pub balance: Tokens,
    #[serde(rename = "ref")]
    pub ref_code: String,
    pub tg_subscribed: bool,
    pub case_opened: bool,
    #[serde(rename = "trade_url")]
    pub trade_url: Option<String>,
    pub language: &'static str,
    pub is_admin: bool,
    pub demo: bool,
    /// Owed after a refunded purchase; later credits repay it first (0 when none).
    pub debt: Tokens,
    /// False while a debt is open or the paid-deposit rule is not met yet.
    pub withdrawals_unlocked: bool,
    /// Stars of purchases still needed before withdrawals unlock (0 when met or off).
    pub stars_to_unlock_withdrawals: i64,
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
        if demo_mode && demo::is_demo_id(user.id) {
            query("UPDATE users SET is_demo = 1 WHERE id = $1").bind(user.id).execute(conn).await?;
            ledger::post(conn, user.id, demo::DEMO_GRANT, "demo_grant", &format!("demo-grant:{}", user.id), now).await?;
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

// Flags are stored as 0/1 integers on both engines.
type ProfileRow = (
    i64,
    String,
    String,
    Option<String>,
    Option<String>,
    i64,
    String,
    i64,
    Option<i64>,
    Option<String>,
    Option<String>,
    Option<String>,
    i64,
    i64,
);

pub async fn profile(domain: &Domain, user_id: i64) -> DomainResult<Profile> {
    let mut conn = domain.db.acquire().await?;
    let row: Option<ProfileRow> = query(
        "SELECT id, first_name, last_name, username, photo_url, balance, ref_code, tg_subscribed, first_case_at,
                trade_url, language, language_code, is_demo, debt FROM users WHERE id = $1",
    )
    .bind(user_id)
    .fetch_optional(&mut conn)
    .await?;
    let r = row.ok_or(DomainError::Unauthorized)?;
    let stars_left = crate::domain::withdrawals::stars_to_unlock(domain.config.withdraw_min_stars, &mut *conn, user_id).await?;
    Ok(Profile {
        telegram_id: r.0,
        first_name: r.1,
        last_name: r.2,
        username: r.3,
        avatar_url: r.4,
        balance: Tokens(r.5),
        ref_code: r.6,
        tg_subscribed: r.7 != 0,
        case_opened: r.8.is_some(),
        trade_url: r.9,
        language: Lang::resolve(r.10.as_deref(), r.11.as_deref()).as_str(),
        is_admin: domain.config.is_admin(r.0),
        demo: r.12 != 0,
        debt: Tokens(r.13),
        withdrawals_unlocked: r.13 == 0 && stars_left == 0,
        stars_to_unlock_withdrawals: stars_left,
    })
}

/// The language to speak to a user in (their choice, else their Telegram language).
pub async fn language(domain: &Domain, user_id: i64) -> Lang {
    language_or(domain, user_id, None).await
}

/// `language`, but for someone we may not know yet: their Telegram language code decides then.
pub async fn language_or(domain: &Domain, user_id: i64, telegram_code: Option<&str>) -> Lang {
    let row: Option<(Option<String>, Option<String>)> = sqlx::query_as("SELECT language, language_code FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(&domain.db)
        .await
        .ok()
        .flatten();
    match row {
        Some((chosen, code)) => Lang::resolve(chosen.as_deref(), code.as_deref().or(telegram_code)),
        None => Lang::from_telegram_code(telegram_code),
    }
}

/// The language a user is known to speak (their choice, else their stored Telegram language),
/// or `None` when nothing is known of them.
pub async fn known_language(domain: &Domain, user_id: i64) -> Option<Lang> {
    let row: Option<(Option<String>, Option<String>)> = sqlx::query_as("SELECT language, language_code FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(&domain.db)
        .await
        .ok()
        .flatten();
    match row {
        Some((None, None)) | None => None,
        Some((chosen, code)) => Some(Lang::resolve(chosen.as_deref(), code.as_deref())),
    }
}

pub async fn set_language(domain: &Domain, user_id: i64, language: &str) -> DomainResult<()> {
    let lang = Lang::parse(language).ok_or(DomainError::InvalidLanguage)?;
    domain
        .execute(
            query("UPDATE users SET language = $1, updated_at = $2 WHERE id = $3").bind(lang.as_str()).bind(domain.now()).bind(user_id),
        )
        .await?;
    Ok(())
}

pub async fn trade_url(domain: &Domain, user_id: i64) -> DomainResult<Option<String>> {
    let row: Option<(Option<String>,)> =
        sqlx::query_as("SELECT trade_url FROM users WHERE id = $1").bind(user_id).fetch_optional(&domain.db).await?;
    Ok(row.and_then(|r| r.0))
}

pub async fn set_trade_url(domain: &Domain, user_id: i64, raw: &str) -> DomainResult<TradeUrl> {
    let url = TradeUrl::parse(raw)?;
    let (saved, now) = (url.clone(), domain.now());
    domain.write(move |tx| Box::pin(async move { save_trade_url(tx, user_id, &saved, now).await })).await?;
    Ok(url)
}

pub async fn save_trade_url(conn: &mut dyn Exec, user_id: i64, url: &TradeUrl, now: i64) -> DomainResult<()> {
    query("UPDATE users SET trade_url = $1, updated_at = $2 WHERE id = $3")
        .bind(url.to_string())
        .bind(now)
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn has_agreed(domain: &Domain, user_id: i64) -> DomainResult<bool> {
    let row: Option<(Option<i64>,)> =
        sqlx::query_as("SELECT agreed_at FROM users WHERE id = $1").bind(user_id).fetch_optional(&domain.db).await?;
    Ok(row.and_then(|r| r.0).is_some())
}

pub async fn agree(domain: &Domain, user_id: i64) -> DomainResult<()> {
    domain
        .execute(
            query("UPDATE users SET agreed_at = COALESCE(agreed_at, $1), updated_at = $2 WHERE id = $3")
                .bind(domain.now())
                .bind(domain.now())
                .bind(user_id),
        )
        .await?;
    Ok(())
}

/// The name a skin's owner is shown by.
pub fn display_name(first: &str, last: &str, username: Option<&str>) -> String {
    let full = format!("{first} {last}").trim().to_string();
    if !full.is_empty() {
        full
    } else {
        username.map(|u| format!("@{u}")).unwrap_or_else(|| "Player".into())
    }
}
