//! Referrals: who invited whom (first contact only) and the reward when the friend opens a first case.

use crate::domain::clock::rfc3339;
use crate::domain::ledger::{self, Funds, Posted};
use crate::domain::notifications::Notice;
use crate::domain::outbox;
use crate::domain::store::{query, Exec};
use crate::domain::users::display_name;
use crate::domain::{Domain, DomainResult, Tokens};

/// Paid to the inviter once per friend, when the friend opens a first case.
pub const REFERRAL_REWARD: Tokens = Tokens::whole(500);
/// Paid to a player with their first case open.
pub const FIRST_CASE_REWARD: Tokens = Tokens::whole(100);
pub const PAGE_SIZE: i64 = 10;

/// The referral code inside a start parameter: `ref_{code}` or `item_{id}_ref{code}`.
pub fn code_from_start_param(param: &str) -> Option<String> {
    let code = if let Some(code) = param.strip_prefix("ref_") {
        code
    } else {
        let rest = param.strip_prefix("item_")?;
        let (id, code) = rest.split_once("_ref")?;
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        code
    };
    let ok = !code.is_empty() && code.len() <= 32 && code.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    ok.then(|| code.to_owned())
}

/// Makes `user_id` a referral of the owner of `code`: never of themselves, never twice.
/// Callers call it only for a user's very first contact. True when attributed.
pub async fn attribute(conn: &mut dyn Exec, user_id: i64, code: &str, now: i64) -> DomainResult<bool> {
    let done = query(
        "UPDATE users SET referred_by = (SELECT id FROM users WHERE ref_code = $1), referred_at = $3
         WHERE id = $2 AND referred_by IS NULL AND first_case_at IS NULL
           AND EXISTS (SELECT 1 FROM users WHERE ref_code = $1 AND id <> $2)",
    )
    .bind(code)
    .bind(user_id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(done == 1)
}

/// The players an open of `user_id` must lock: the player, and their inviter while the
/// first-open reward is still to pay (the open pays it), so both are locked up front in one
/// order (`store::lock_users` sorts them). Read before locking: `referred_by` is written only in the
/// player's first sign-in, before any open, and `first_case_at` only ever goes from empty to set,
/// so a stale read can only lock the inviter needlessly, never miss them.
pub async fn users_an_open_locks(conn: &mut dyn Exec, user_id: i64) -> DomainResult<Vec<i64>> {
    let row: Option<(Option<i64>, Option<i64>)> =
        query("SELECT referred_by, first_case_at FROM users WHERE id = $1").bind(user_id).fetch_optional(conn).await?;
    Ok(match row {
        Some((Some(inviter), None)) => vec![user_id, inviter],
        _ => vec![user_id],
    })
}

/// Called inside the open's transaction: on the user's first open, marks it, pays the
/// first-case reward and the inviter's reward. Answers the user's new balance when it changed.
/// With a bot token (`demo_mode` false) a demo user is never paid for an invite.
pub async fn on_first_open(conn: &mut dyn Exec, user_id: i64, demo_mode: bool, now: i64) -> DomainResult<Option<Tokens>> {
    let first =
        query("UPDATE users SET first_case_at = $1 WHERE id = $2 AND first_case_at IS NULL").bind(now).bind(user_id).execute(conn).await?;
    if first == 0 {
        return Ok(None);
    }
    let balance =
        match ledger::credit(conn, user_id, FIRST_CASE_REWARD, Funds::Bonus, "first_case", &format!("first-case:{user_id}"), now).await? {
            Posted::Applied(b) => Some(b),
            Posted::Duplicate => None,
        };
    // The inviter, the friend's names, and whether the inviter is a demo user.
    type Row = (Option<i64>, String, String, Option<String>, Option<i64>);
    let inviter: Option<Row> = query(
        "SELECT u.referred_by, u.first_name, u.last_name, u.username, r.is_demo FROM users u
         LEFT JOIN users r ON r.id = u.referred_by WHERE u.id = $1",
    )
    .bind(user_id)
    .fetch_optional(conn)
    .await?;
    if let Some((Some(inviter), first, last, username, inviter_demo)) = inviter {
        if inviter_demo.unwrap_or(0) != 0 && !demo_mode {
            return Ok(balance);
        }
        let paid = ledger::credit(conn, inviter, REFERRAL_REWARD, Funds::Bonus, "referral", &format!("referral:{user_id}"), now).await?;
        if matches!(paid, Posted::Applied(_)) {
            let notice =
                Notice::ReferralReward { tokens: REFERRAL_REWARD.to_string(), friend: display_name(&first, &last, username.as_deref()) };
            outbox::tell_player(conn, inviter, &notice, now).await?;
        }
    }
    Ok(balance)
}

pub struct Referral {
    pub telegram_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub username: Option<String>,
    pub avatar_url: Option<String>,
    pub joined_at: String,
    pub first_case_opened_at: Option<String>,
    pub tokens_earned: Tokens,
}

pub struct Stats {
    pub invited_count: i64,
    pub active_users: i64,
    pub total_earned: Tokens,
}

pub struct Pagination {
    pub page: i64,
    pub limit: i64,
    pub total: i64,
    pub total_pages: i64,
}

pub struct ReferralPage {
    pub referral_code: String,
    pub invite_link: String,
    pub stats: Stats,
    pub referrals: Vec<Referral>,
    pub pagination: Pagination,
}

pub fn invite_link(bot_username: &str, code: &str) -> String {
    format!("https://t.me/{bot_username}?startapp=ref_{code}")
}

pub async fn page(domain: &Domain, user_id: i64, page: i64) -> DomainResult<ReferralPage> {
    let page = page.max(1);
    let (code,): (String,) = domain
        .read(move |c| Box::pin(async move { query("SELECT ref_code FROM users WHERE id = $1").bind(user_id).fetch_one(c).await }))
        .await?;
    let (invited, active): (i64, i64) = domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT COUNT(*), COUNT(first_case_at) FROM users WHERE referred_by = $1").bind(user_id).fetch_one(c).await
            })
        })
        .await?;
    let (earned,): (i64,) = domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM ledger_entries WHERE user_id = $1 AND reason = 'referral'")
                    .bind(user_id)
                    .fetch_one(c)
                    .await
            })
        })
        .await?;
    type Row = (i64, String, String, Option<String>, Option<String>, i64, Option<i64>, Option<i64>);
    let rows: Vec<Row> = domain
        .read(move |c| {
            Box::pin(async move {
                query(
                    "SELECT u.id, u.first_name, u.last_name, u.username, u.photo_url, u.referred_at, u.first_case_at,
                (SELECT l.amount FROM ledger_entries l WHERE l.idempotency_key = 'referral:' || u.id)
         FROM users u WHERE u.referred_by = $1 ORDER BY u.referred_at DESC, u.id DESC LIMIT $2 OFFSET $3",
                )
                .bind(user_id)
                .bind(PAGE_SIZE)
                .bind((page - 1) * PAGE_SIZE)
                .fetch_all(c)
                .await
            })
        })
        .await?;
    Ok(ReferralPage {
        invite_link: invite_link(&domain.config.bot_username, &code),
        referral_code: code,
        stats: Stats { invited_count: invited, active_users: active, total_earned: Tokens(earned) },
        referrals: rows
            .into_iter()
            .map(|r| Referral {
                telegram_id: r.0,
                first_name: r.1,
                last_name: r.2,
                username: r.3,
                avatar_url: r.4,
                joined_at: rfc3339(r.5),
                first_case_opened_at: r.6.map(rfc3339),
                tokens_earned: Tokens(r.7.unwrap_or(0)),
            })
            .collect(),
        pagination: Pagination { page, limit: PAGE_SIZE, total: invited, total_pages: (invited + PAGE_SIZE - 1) / PAGE_SIZE },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_params_carry_referral_codes() {
        assert_eq!(code_from_start_param("ref_a1b2c3d4e5").as_deref(), Some("a1b2c3d4e5"));
        assert_eq!(code_from_start_param("item_42_refa1b2c3").as_deref(), Some("a1b2c3"));
        for bad in ["ref_", "ref_XYZ", "item__refab", "item_4x_refab", "item_42_ref", "hello", "ref_ab cd"] {
            assert_eq!(code_from_start_param(bad), None, "{bad}");
        }
    }
}
