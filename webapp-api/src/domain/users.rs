//! Players: who they are on Telegram, profile, trade link, agreement, language, what unlocks
//! withdrawals. Registration is `registration.rs`.

use serde::Deserialize;

use crate::domain::lang::Lang;
use crate::domain::store::{query, Exec};
use crate::domain::trade_url::{self, TradeUrl};
use crate::domain::{Domain, DomainError, DomainResult, Tokens};

/// A Telegram user as init data or an update names them.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct TelegramUser {
    pub id: i64,
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: Option<String>,
    #[serde(default)]
    pub username: Option<String>,
    #[serde(default)]
    pub language_code: Option<String>,
    #[serde(default)]
    pub photo_url: Option<String>,
}

/// What `/me` and sign-in answer.
#[derive(Clone, Debug)]
pub struct Profile {
    pub telegram_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub username: Option<String>,
    pub avatar_url: Option<String>,
    pub balance: Tokens,
    pub ref_code: String,
    pub tg_subscribed: bool,
    pub case_opened: bool,
    pub trade_url: Option<String>,
    pub language: &'static str,
    pub is_admin: bool,
    pub demo: bool,
    /// Owed after a refunded purchase; later credits repay it first (0 when none).
    pub debt: Tokens,
    /// The part of `balance` that came free (rewards, referrals, promo codes, grants, demo):
    /// skins won with it can be kept and sold, not withdrawn.
    pub bonus_balance: Tokens,
    /// False while a debt is open or the paid-deposit rule is not met yet.
    pub withdrawals_unlocked: bool,
    /// Stars of purchases still needed before withdrawals unlock (0 when met or off).
    pub stars_to_unlock_withdrawals: i64,
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
    i64,
);

pub async fn profile(domain: &Domain, user_id: i64) -> DomainResult<Profile> {
    let min_stars = domain.config.withdraw_min_stars;
    let (r, stars_left) = domain
        .read(move |c| {
            Box::pin(async move {
                let row: Option<ProfileRow> = query(
                    "SELECT id, first_name, last_name, username, photo_url, balance, ref_code, tg_subscribed, first_case_at,
                            trade_url, language, language_code, is_demo, debt, bonus_balance FROM users WHERE id = $1",
                )
                .bind(user_id)
                .fetch_optional(&mut *c)
                .await?;
                let r = row.ok_or(DomainError::Unauthorized)?;
                Ok((r, stars_to_unlock(min_stars, c, user_id).await?))
            })
        })
        .await?;
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
        bonus_balance: Tokens(r.14),
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
    let row: Option<(Option<String>, Option<String>)> = domain
        .read(move |c| {
            Box::pin(async move { query("SELECT language, language_code FROM users WHERE id = $1").bind(user_id).fetch_optional(c).await })
        })
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
    let row: Option<(Option<String>, Option<String>)> = domain
        .read(move |c| {
            Box::pin(async move { query("SELECT language, language_code FROM users WHERE id = $1").bind(user_id).fetch_optional(c).await })
        })
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
    let row: Option<(Option<String>,)> = domain
        .read(move |c| Box::pin(async move { query("SELECT trade_url FROM users WHERE id = $1").bind(user_id).fetch_optional(c).await }))
        .await?;
    Ok(row.and_then(|r| r.0))
}

pub async fn set_trade_url(domain: &Domain, user_id: i64, raw: &str) -> DomainResult<TradeUrl> {
    let url = TradeUrl::parse(raw)?;
    let (saved, now) = (url.clone(), domain.now());
    domain.write(move |tx| Box::pin(async move { trade_url::save(tx, user_id, &saved, now).await })).await?;
    Ok(url)
}

/// What the player agreed to: the terms, and that they are 18 or older (asked beside the terms;
/// a player who agreed to the terms before that question existed answers it once more).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agreement {
    pub agreed: bool,
    pub adult: bool,
}

pub async fn agreement(domain: &Domain, user_id: i64) -> DomainResult<Agreement> {
    let row: Option<(Option<i64>, Option<i64>)> = domain
        .read(move |c| {
            Box::pin(
                async move { query("SELECT agreed_at, adult_confirmed_at FROM users WHERE id = $1").bind(user_id).fetch_optional(c).await },
            )
        })
        .await?;
    let (agreed, adult) = row.unwrap_or_default();
    Ok(Agreement { agreed: agreed.is_some(), adult: adult.is_some() })
}

/// Records the terms' agreement and, with `adult`, the 18+ confirmation (each once: the first
/// time stays).
pub async fn agree(domain: &Domain, user_id: i64, adult: bool) -> DomainResult<Agreement> {
    let now = domain.now();
    domain
        .execute(
            query(
                "UPDATE users SET agreed_at = COALESCE(agreed_at, $1),
                        adult_confirmed_at = CASE WHEN $2 = 1 THEN COALESCE(adult_confirmed_at, $3) ELSE adult_confirmed_at END,
                        updated_at = $4 WHERE id = $5",
            )
            .bind(now)
            .bind(i64::from(adult))
            .bind(now)
            .bind(now)
            .bind(user_id),
        )
        .await?;
    agreement(domain, user_id).await
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

/// Lifetime Stars a player paid that stand (refunded purchases do not count). Demo mode's
/// purchases are ordinary rows, so there they count too.
pub async fn paid_stars(conn: &mut dyn Exec, user_id: i64) -> DomainResult<i64> {
    let (stars,): (i64,) = query("SELECT CAST(COALESCE(SUM(stars), 0) AS BIGINT) FROM payments WHERE user_id = $1 AND status = 'success'")
        .bind(user_id)
        .fetch_one(conn)
        .await?;
    Ok(stars)
}

/// Stars still to pay before withdrawals unlock (0 = unlocked, or the rule is off).
pub async fn stars_to_unlock(min: i64, conn: &mut dyn Exec, user_id: i64) -> DomainResult<i64> {
    if min <= 0 {
        return Ok(0);
    }
    Ok((min - paid_stars(conn, user_id).await?).max(0))
}
