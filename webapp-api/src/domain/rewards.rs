//! Earning: the daily reward with its 7-day streak chest, and the channel subscription.
use chrono::{Duration, NaiveDate};

use crate::domain::clock::{rfc3339, utc_day};
use crate::domain::ledger::{self, Funds, Posted};
use crate::domain::store::{query, Exec};
use crate::domain::telegram::TelegramError;
use crate::domain::{store, Domain, DomainError, DomainResult, Tokens};

pub const DAILY_REWARD: Tokens = Tokens::whole(100);
pub const STREAK_LENGTH: i64 = 7;
/// The chest after 7 consecutive daily claims: 5 days' worth, so finishing a week is worth more
/// than a week of claims (700) but less than a cheap case run.
pub const STREAK_BONUS: Tokens = Tokens::whole(500);
pub const SUBSCRIBE_REWARD: Tokens = Tokens::whole(100);

#[derive(Clone, Debug)]
struct LastClaim {
    day: NaiveDate,
    streak_day: i64,
    cycle_start: NaiveDate,
    at: i64,
}

fn parse_day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap_or_default()
}

fn day_start(d: NaiveDate) -> i64 {
    d.and_hms_opt(0, 0, 0).map(|t| t.and_utc().timestamp()).unwrap_or_default()
}

async fn last_claim(conn: &mut dyn Exec, user_id: i64) -> DomainResult<Option<LastClaim>> {
    let row: Option<(String, i64, String, i64)> =
        query("SELECT day, streak_day, cycle_start, created_at FROM daily_claims WHERE user_id = $1 ORDER BY day DESC LIMIT 1")
            .bind(user_id)
            .fetch_optional(conn)
            .await?;
    Ok(row.map(|(d, s, c, at)| LastClaim { day: parse_day(&d), streak_day: s, cycle_start: parse_day(&c), at }))
}

fn bonus_key(user_id: i64, cycle_start: NaiveDate) -> String {
    format!("streak-bonus:{user_id}:{cycle_start}")
}

pub struct Check {
    pub available: bool,
    pub next_claim_at: String,
}

pub struct StreakDay {
    pub date: String,
    pub claimed: bool,
}

pub struct Streak {
    pub current_streak: i64,
    pub has_streak: bool,
    pub last_claim: Option<String>,
    pub next_reward_available: bool,
    pub can_claim_bonus: bool,
    pub bonus_already_claimed: bool,
    pub streak_bonus_tokens: Tokens,
    pub streak_days: Vec<StreakDay>,
}

pub struct Awarded {
    pub tokens_awarded: Tokens,
    pub balance: Tokens,
}

pub async fn check(domain: &Domain, user_id: i64) -> DomainResult<Check> {
    let today = utc_day(domain.now());
    let last = domain.read(move |c| Box::pin(last_claim(c, user_id))).await?;
    let available = last.as_ref().is_none_or(|l| l.day < today);
    let next = match &last {
        Some(l) if l.day >= today => day_start(l.day + Duration::days(1)),
        _ => day_start(today),
    };
    Ok(Check { available, next_claim_at: rfc3339(next) })
}

pub async fn streak(domain: &Domain, user_id: i64) -> DomainResult<Streak> {
    let today = utc_day(domain.now());
    domain.read(move |c| Box::pin(streak_in(c, user_id, today))).await
}

async fn streak_in(conn: &mut dyn Exec, user_id: i64, today: NaiveDate) -> DomainResult<Streak> {
    let last = last_claim(&mut *conn, user_id).await?;
    let alive = last.as_ref().filter(|l| l.day >= today - Duration::days(1));
    let cycle_start = alive.map(|l| l.cycle_start).unwrap_or(today);
    let claimed: Vec<(String,)> = query("SELECT day FROM daily_claims WHERE user_id = $1 AND cycle_start = $2")
        .bind(user_id)
        .bind(cycle_start.to_string())
        .fetch_all(&mut *conn)
        .await?;
    let claimed: Vec<String> = if alive.is_some() { claimed.into_iter().map(|c| c.0).collect() } else { Vec::new() };
    let (can_bonus, bonus_claimed) = match &last {
        Some(l) if l.streak_day == STREAK_LENGTH => {
            let paid: Option<(i64,)> = query("SELECT id FROM ledger_entries WHERE idempotency_key = $1")
                .bind(bonus_key(user_id, l.cycle_start))
                .fetch_optional(&mut *conn)
                .await?;
            (paid.is_none(), paid.is_some())
        }
        _ => (false, false),
    };
    Ok(Streak {
        current_streak: alive.map(|l| l.streak_day).unwrap_or(0),
        has_streak: alive.is_some(),
        last_claim: last.as_ref().map(|l| rfc3339(l.at)),
        next_reward_available: last.as_ref().is_none_or(|l| l.day < today),
        can_claim_bonus: can_bonus,
        bonus_already_claimed: bonus_claimed,
        streak_bonus_tokens: STREAK_BONUS,
        streak_days: (0..STREAK_LENGTH)
            .map(|i| {
                let date = (cycle_start + Duration::days(i)).to_string();
                StreakDay { claimed: claimed.contains(&date), date }
            })
            .collect(),
    })
}

/// +100 once per UTC day. A claim the day after the last one continues the cycle; a missed day
/// or a finished 7-day cycle starts a new one (an unclaimed chest of the old cycle is gone).
pub async fn claim_daily(domain: &Domain, user_id: i64) -> DomainResult<Awarded> {
    let now = domain.now();
    domain.write(move |tx| Box::pin(claim_daily_in(tx, user_id, now))).await
}

async fn claim_daily_in(tx: &mut dyn Exec, user_id: i64, now: i64) -> DomainResult<Awarded> {
    let today = utc_day(now);
    store::lock_users(tx, &[user_id]).await?;
    let last = last_claim(tx, user_id).await?;
    if last.as_ref().is_some_and(|l| l.day >= today) {
        return Err(DomainError::AlreadyClaimed);
    }
    let (streak_day, cycle_start) = match &last {
        Some(l) if l.day == today - Duration::days(1) && l.streak_day < STREAK_LENGTH => (l.streak_day + 1, l.cycle_start),
        _ => (1, today),
    };
    query("INSERT INTO daily_claims(user_id, day, streak_day, cycle_start, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(user_id)
        .bind(today.to_string())
        .bind(streak_day)
        .bind(cycle_start.to_string())
        .bind(now)
        .execute(tx)
        .await?;
    let balance = match ledger::credit(tx, user_id, DAILY_REWARD, Funds::Bonus, "daily", &format!("daily:{user_id}:{today}"), now).await? {
        Posted::Applied(b) => b,
        Posted::Duplicate => return Err(DomainError::AlreadyClaimed),
    };
    Ok(Awarded { tokens_awarded: DAILY_REWARD, balance })
}

/// The chest, once, after the 7th consecutive claim and before the next daily claim.
pub async fn claim_streak_bonus(domain: &Domain, user_id: i64) -> DomainResult<Awarded> {
    let now = domain.now();
    domain
        .write(move |tx| {
            Box::pin(async move {
                store::lock_users(tx, &[user_id]).await?;
                let last = last_claim(tx, user_id).await?.ok_or(DomainError::BonusNotAvailable)?;
                if last.streak_day != STREAK_LENGTH {
                    return Err(DomainError::BonusNotAvailable);
                }
                let key = bonus_key(user_id, last.cycle_start);
                let balance = match ledger::credit(tx, user_id, STREAK_BONUS, Funds::Bonus, "streak_bonus", &key, now).await? {
                    Posted::Applied(b) => b,
                    Posted::Duplicate => return Err(DomainError::BonusNotAvailable),
                };
                Ok(Awarded { tokens_awarded: STREAK_BONUS, balance })
            })
        })
        .await
}

pub struct Subscription {
    pub subscribed: bool,
    pub tokens_awarded: Tokens,
}

/// Asks Telegram whether the user is in the channel; pays +100 the first time they are.
/// Telegram failing is an error to retry, never a "not subscribed".
pub async fn check_subscription(domain: &Domain, user_id: i64) -> DomainResult<Subscription> {
    let channel =
        domain.config.channel_id.clone().ok_or_else(|| DomainError::SubscriptionCheckFailed("CHANNEL_ID is not configured".into()))?;
    let asked = tokio::time::timeout(domain.config.telegram_timeout, domain.telegram.is_chat_member(&channel, user_id));
    let answer = asked.await.unwrap_or_else(|_| Err(TelegramError::Unavailable("no answer in time".into())));
    let member = match answer {
        Ok(m) => m,
        Err(TelegramError::Refused(why)) => {
            tracing::error!(%channel, %why, "subscription check refused: is the bot an admin of the channel?");
            return Err(DomainError::SubscriptionCheckFailed(why));
        }
        Err(e) => {
            tracing::warn!(%channel, error = %e, "subscription check failed");
            return Err(DomainError::TelegramUnavailable(e.to_string()));
        }
    };
    if !member {
        return Ok(Subscription { subscribed: false, tokens_awarded: Tokens::ZERO });
    }
    subscribed(domain, user_id).await?.ok_or(DomainError::NotFound)
}

/// Telegram told us (a `chat_member` update of the channel) that `user_id` is in the channel:
/// the same as a check that finds them there, so the task completes and pays once, whichever
/// comes first. Someone who is not a player yet gets `None`: they are paid when they check.
/// Leaving the channel later takes nothing back.
pub async fn joined_channel(domain: &Domain, user_id: i64) -> DomainResult<Option<Subscription>> {
    subscribed(domain, user_id).await
}

/// Marks the task done and pays +100 the first time (one ledger key per player); `None` when
/// there is no such player.
async fn subscribed(domain: &Domain, user_id: i64) -> DomainResult<Option<Subscription>> {
    let now = domain.now();
    domain.write(move |tx| Box::pin(subscribed_in(tx, user_id, now))).await
}

async fn subscribed_in(tx: &mut dyn Exec, user_id: i64, now: i64) -> DomainResult<Option<Subscription>> {
    store::lock_users(tx, &[user_id]).await?;
    let marked = query("UPDATE users SET tg_subscribed = 1, updated_at = $1 WHERE id = $2").bind(now).bind(user_id).execute(tx).await?;
    if marked == 0 {
        return Ok(None);
    }
    let paid = ledger::credit(tx, user_id, SUBSCRIBE_REWARD, Funds::Bonus, "subscribe", &format!("subscribe:{user_id}"), now).await?;
    let tokens_awarded = if matches!(paid, Posted::Applied(_)) { SUBSCRIBE_REWARD } else { Tokens::ZERO };
    Ok(Some(Subscription { subscribed: true, tokens_awarded }))
}
