//! Promo codes: admins create them (bot `/promo`, CLI `fragbox promo`), players redeem them for
//! bonus tokens.
//!
//! A code is 3-32 of `[A-Za-z0-9_-]`, stored in upper case and matched case-insensitively. A
//! redemption is one write: the player's `promo_redemptions` row (its primary key allows one per
//! player and code), one conditional `UPDATE promo_codes SET uses = uses + 1 WHERE uses <
//! max_uses` (no read-then-write: the row's own condition holds the limit on every replica and
//! under any concurrency), and the ledger credit `promo:{promo_id}:{user_id}` (reason `promo`,
//! bonus funds). Any refusal undoes the whole write.

use crate::domain::admin::{self, Actor};
use crate::domain::admin_audit;
use crate::domain::clock::rfc3339;
use crate::domain::ledger::{self, Funds, Posted};
use crate::domain::rewards::Awarded;
use crate::domain::store::{query, Exec};
use crate::domain::{responsible, store, Domain, DomainError, DomainResult, Tokens};

/// The ledger reason of a promo credit.
pub const REASON: &str = "promo";
/// Largest value of one code (a typo guard).
pub const MAX_TOKENS: Tokens = Tokens::whole(1_000_000);
/// Most uses of one code (a typo guard).
pub const MAX_USES: i64 = 10_000_000;
/// Longest validity an admin may give, in days.
pub const MAX_DAYS: i64 = 3650;

/// The stored form of a code: upper case, or `None` when it cannot be a code.
pub fn normalise(code: &str) -> Option<String> {
    let code = code.trim();
    let ok = (3..=32).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    ok.then(|| code.to_ascii_uppercase())
}

/// The ledger key of a player's credit from a code.
pub fn ledger_key(promo_id: i64, user_id: i64) -> String {
    format!("promo:{promo_id}:{user_id}")
}

/// What an admin asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPromo {
    pub code: String,
    pub tokens: Tokens,
    pub uses: i64,
    /// Valid for this many days from now (`None`: no end).
    pub days: Option<i64>,
    /// Only for players with at least one successful Stars payment.
    pub deposit_only: bool,
}

/// A code as the admins see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Promo {
    pub code: String,
    pub tokens: Tokens,
    pub max_uses: i64,
    pub uses: i64,
    pub expires_at: Option<i64>,
    pub deposit_only: bool,
    pub disabled: bool,
    pub created_at: i64,
}

impl Promo {
    /// `active`, `disabled`, `expired` or `used up` at `now`.
    pub fn state(&self, now: i64) -> &'static str {
        if self.disabled {
            "disabled"
        } else if self.expires_at.is_some_and(|t| t <= now) {
            "expired"
        } else if self.uses >= self.max_uses {
            "used up"
        } else {
            "active"
        }
    }

    /// One line for the CLI and the bot.
    pub fn line(&self, now: i64) -> String {
        format!(
            "{} {} tokens, {}/{} used, {}{}, {}",
            self.code,
            self.tokens,
            self.uses,
            self.max_uses,
            self.expires_at.map(|t| format!("until {}", rfc3339(t))).unwrap_or_else(|| "no end".into()),
            if self.deposit_only { ", deposit only" } else { "" },
            self.state(now)
        )
    }
}

type PromoRow = (String, i64, i64, i64, Option<i64>, i64, Option<i64>, i64);
const COLUMNS: &str = "code, tokens, max_uses, uses, expires_at, deposit_only, disabled_at, created_at";

fn to_promo(r: PromoRow) -> Promo {
    Promo {
        code: r.0,
        tokens: Tokens(r.1),
        max_uses: r.2,
        uses: r.3,
        expires_at: r.4,
        deposit_only: r.5 != 0,
        disabled: r.6.is_some(),
        created_at: r.7,
    }
}

/// Creates a code; `promo_exists` when one with the same (case-insensitive) text exists.
pub async fn create(domain: &Domain, actor: Actor, new: NewPromo) -> DomainResult<Promo> {
    admin::ensure(domain, actor)?;
    let code = normalise(&new.code).ok_or(DomainError::InvalidPromoCode)?;
    if new.tokens.0 <= 0 || new.tokens.0 > MAX_TOKENS.0 {
        return Err(DomainError::BadRequest(format!("tokens must be more than 0 and at most {MAX_TOKENS}")));
    }
    if new.uses <= 0 || new.uses > MAX_USES {
        return Err(DomainError::BadRequest(format!("uses must be 1 to {MAX_USES}")));
    }
    if new.days.is_some_and(|d| d <= 0 || d > MAX_DAYS) {
        return Err(DomainError::BadRequest(format!("days must be 1 to {MAX_DAYS}")));
    }
    let now = domain.now();
    let expires_at = new.days.map(|d| now + d * 86_400);
    let operator = actor.audit_id();
    let NewPromo { tokens, uses, deposit_only, .. } = new;
    domain
        .write(move |tx| {
            Box::pin(async move {
                let inserted = query(
                    "INSERT INTO promo_codes(code, tokens, max_uses, expires_at, deposit_only, created_by, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (code) DO NOTHING",
                )
                .bind(&code)
                .bind(tokens.0)
                .bind(uses)
                .bind(expires_at)
                .bind(i64::from(deposit_only))
                .bind(operator)
                .bind(now)
                .execute(tx)
                .await?;
                if inserted != 1 {
                    return Err(DomainError::PromoExists);
                }
                let promo = Promo { code, tokens, max_uses: uses, uses: 0, expires_at, deposit_only, disabled: false, created_at: now };
                admin_audit::record(tx, operator, "promo_create", &promo.line(now), now).await?;
                Ok(promo)
            })
        })
        .await
}

/// Every code, newest first.
pub async fn list(domain: &Domain, actor: Actor) -> DomainResult<Vec<Promo>> {
    admin::ensure(domain, actor)?;
    let sql = format!("SELECT {COLUMNS} FROM promo_codes ORDER BY id DESC");
    let rows: Vec<PromoRow> = domain.read(move |c| Box::pin(async move { query(&sql).fetch_all(c).await })).await?;
    Ok(rows.into_iter().map(to_promo).collect())
}

/// Disables a code for good (it then answers as not found). Disabling a disabled code is fine.
pub async fn disable(domain: &Domain, actor: Actor, code: &str) -> DomainResult<Promo> {
    admin::ensure(domain, actor)?;
    let code = normalise(code).ok_or(DomainError::PromoNotFound)?;
    let (now, operator) = (domain.now(), actor.audit_id());
    domain
        .write(move |tx| {
            Box::pin(async move {
                query("UPDATE promo_codes SET disabled_at = COALESCE(disabled_at, $1) WHERE code = $2")
                    .bind(now)
                    .bind(&code)
                    .execute(tx)
                    .await?;
                let row: Option<PromoRow> =
                    query(&format!("SELECT {COLUMNS} FROM promo_codes WHERE code = $1")).bind(&code).fetch_optional(tx).await?;
                let promo = row.map(to_promo).ok_or(DomainError::PromoNotFound)?;
                admin_audit::record(tx, operator, "promo_disable", &code, now).await?;
                Ok(promo)
            })
        })
        .await
}

/// A player redeems `code`: its tokens as bonus, once per player, within its uses.
pub async fn redeem(domain: &Domain, user_id: i64, code: &str) -> DomainResult<Awarded> {
    // A text that cannot be a code is not one: the same answer as an unknown code.
    let code = normalise(code).ok_or(DomainError::PromoNotFound)?;
    let now = domain.now();
    domain.write(move |tx| Box::pin(redeem_in(tx, user_id, code, now))).await
}

/// A promo code as a redemption reads it: id, tokens, max uses, uses, expiry, deposit-only, disabled at.
type CodeRow = (i64, i64, i64, i64, Option<i64>, i64, Option<i64>);

async fn redeem_in(tx: &mut dyn Exec, user_id: i64, code: String, now: i64) -> DomainResult<Awarded> {
    store::lock_users(tx, &[user_id]).await?;
    responsible::ensure_not_excluded(tx, user_id, now).await?;
    let row: Option<CodeRow> =
        query("SELECT id, tokens, max_uses, uses, expires_at, deposit_only, disabled_at FROM promo_codes WHERE code = $1")
            .bind(&code)
            .fetch_optional(tx)
            .await?;
    let Some((promo_id, tokens, max_uses, uses, expires_at, deposit_only, disabled_at)) = row else {
        return Err(DomainError::PromoNotFound);
    };
    if disabled_at.is_some() {
        return Err(DomainError::PromoNotFound);
    }
    if expires_at.is_some_and(|t| t <= now) {
        return Err(DomainError::PromoExpired);
    }
    let seen: Option<(i64,)> = query("SELECT promo_id FROM promo_redemptions WHERE promo_id = $1 AND user_id = $2")
        .bind(promo_id)
        .bind(user_id)
        .fetch_optional(tx)
        .await?;
    if seen.is_some() {
        return Err(DomainError::PromoAlreadyRedeemed);
    }
    if deposit_only != 0 {
        let (paid,): (i64,) =
            query("SELECT COUNT(*) FROM payments WHERE user_id = $1 AND status = 'success'").bind(user_id).fetch_one(tx).await?;
        if paid == 0 {
            return Err(DomainError::PromoDepositRequired);
        }
    }
    // A quick answer for a code seen used up; the conditional UPDATE below is what decides.
    if uses >= max_uses {
        return Err(DomainError::PromoExhausted);
    }
    let mine = query(
        "INSERT INTO promo_redemptions(promo_id, user_id, tokens, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (promo_id, user_id) DO NOTHING",
    )
    .bind(promo_id)
    .bind(user_id)
    .bind(tokens)
    .bind(now)
    .execute(tx)
    .await?;
    if mine != 1 {
        return Err(DomainError::PromoAlreadyRedeemed);
    }
    let taken = query("UPDATE promo_codes SET uses = uses + 1 WHERE id = $1 AND uses < max_uses AND disabled_at IS NULL")
        .bind(promo_id)
        .execute(tx)
        .await?;
    if taken != 1 {
        // Used up (or disabled) by a redemption that committed first: this write is undone.
        return Err(DomainError::PromoExhausted);
    }
    let tokens = Tokens(tokens);
    let balance = match ledger::credit(tx, user_id, tokens, Funds::Bonus, REASON, &ledger_key(promo_id, user_id), now).await? {
        Posted::Applied(b) => b,
        Posted::Duplicate => return Err(DomainError::PromoAlreadyRedeemed),
    };
    Ok(Awarded { tokens_awarded: tokens, balance })
}
