//! The outbox: a change that should reach the player in the chat writes a row here in its own
//! transaction; the bot drains it, retrying with back-off while Telegram fails.
use serde::{Deserialize, Serialize};

use crate::domain::catalog::SkinName;
use crate::domain::store::exec::FromRow;
use crate::domain::store::{query, Exec};
use crate::domain::{store, Domain, DomainResult};

/// Give up on a message after this many failed tries.
pub const MAX_ATTEMPTS: i64 = 8;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    WithdrawalSent {
        item: String,
    },
    /// `code` is one of `withdrawals::REASON_CODES` (absent in notices queued before codes
    /// existed: their `reason` is the whole text); `reason` is the operator's optional note.
    WithdrawalFailed {
        item: String,
        #[serde(default)]
        code: Option<String>,
        #[serde(default)]
        reason: Option<String>,
    },
    /// The market's seller sent the Steam trade offer of an automatic withdrawal: the player
    /// accepts it in Steam (their trade offers page).
    WithdrawalOfferSent {
        item: String,
        #[serde(default)]
        trade_id: Option<String>,
    },
    /// The player accepted the market seller's trade offer: the skin is in their Steam inventory.
    WithdrawalDelivered {
        item: String,
    },
    /// A refund of the purchase the skin was won with cancelled its withdrawal.
    WithdrawalCancelled {
        item: SkinName,
    },
    PurchaseCredited {
        tokens: String,
        stars: i64,
    },
    /// `tokens` came off the balance; `items` were taken back; `debt` is what later credits repay first.
    PurchaseRefunded {
        tokens: String,
        stars: i64,
        #[serde(default)]
        items: Vec<SkinName>,
        #[serde(default)]
        debt: Option<String>,
    },
    SupportReply {
        ticket_id: i64,
        message: String,
    },
    TicketClosed {
        ticket_id: i64,
    },
    ReferralReward {
        tokens: String,
        friend: String,
    },
}

impl Notice {
    fn kind(&self) -> &'static str {
        match self {
            Notice::WithdrawalSent { .. } => "withdrawal_sent",
            Notice::WithdrawalFailed { .. } => "withdrawal_failed",
            Notice::WithdrawalCancelled { .. } => "withdrawal_cancelled",
            Notice::WithdrawalOfferSent { .. } => "withdrawal_offer_sent",
            Notice::WithdrawalDelivered { .. } => "withdrawal_delivered",
            Notice::PurchaseCredited { .. } => "purchase_credited",
            Notice::PurchaseRefunded { .. } => "purchase_refunded",
            Notice::SupportReply { .. } => "support_reply",
            Notice::TicketClosed { .. } => "ticket_closed",
            Notice::ReferralReward { .. } => "referral_reward",
        }
    }
}

/// Queues `body` for every admin chat (`admin_notices`), in the caller's write; the bot's outbox
/// drains it. Every area that tells the admins something (delivery, prices) queues it here.
pub async fn tell_admins(tx: &mut dyn Exec, admins: &[i64], body: &str, now: i64) -> DomainResult<()> {
    for admin in admins {
        query("INSERT INTO admin_notices(admin_chat_id, body, next_attempt_at, created_at) VALUES ($1, $2, $3, $4)")
            .bind(*admin)
            .bind(body)
            .bind(now)
            .bind(now)
            .execute(tx)
            .await?;
    }
    Ok(())
}

pub async fn enqueue(conn: &mut dyn Exec, user_id: i64, notice: &Notice, now: i64) -> DomainResult<()> {
    let payload = serde_json::to_string(notice).map_err(|e| crate::domain::DomainError::Internal(e.to_string()))?;
    query("INSERT INTO notifications(user_id, kind, payload, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(user_id)
        .bind(notice.kind())
        .bind(payload)
        .bind(now)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(())
}

#[derive(Debug)]
pub struct Pending {
    pub id: i64,
    pub user_id: i64,
    pub attempts: i64,
    pub notice: Option<Notice>,
}

/// How long a claimed message stays invisible to other senders. A sender that dies between
/// claiming and marking lets the message come due again after this (sent at least once).
pub const CLAIM_LEASE_SECS: i64 = 60;

/// An outbox table as `claim_leased` claims from it (each has `id`, `status`, `next_attempt_at`).
pub(crate) struct Outbox {
    pub table: &'static str,
    /// What else a due row, named `o`, must meet to be claimed now (`""`: nothing).
    pub also: &'static str,
    /// The columns answered for each claimed row.
    pub returning: &'static str,
}

/// The claim every outbox makes (the players' notices, the admins' ticket forwards, the admins'
/// notices): up to `limit` pending rows due now, oldest first, in one write leased to this sender
/// (their `next_attempt_at` moves `CLAIM_LEASE_SECS` ahead), so a sender on another replica never
/// picks the same row: where writers lock rows, the pick skips rows another sender is claiming
/// (`store::claim_suffix`). The rows come in no set order: the caller sorts them by id.
pub(crate) async fn claim_leased<R: FromRow + Send + 'static>(
    domain: &Domain,
    outbox: &'static Outbox,
    limit: i64,
) -> DomainResult<Vec<R>> {
    let now = domain.now();
    domain
        .write(move |tx| {
            Box::pin(async move {
                let Outbox { table, also, returning } = outbox;
                let sql = format!(
                    "UPDATE {table} SET next_attempt_at = $3
         WHERE status = 'pending' AND next_attempt_at <= $1 AND id IN (
           SELECT o.id FROM {table} o WHERE o.status = 'pending' AND o.next_attempt_at <= $1{also}
             ORDER BY o.id LIMIT $2{})
         RETURNING {returning}",
                    store::claim_suffix(tx)
                );
                query(&sql).bind(now).bind(limit).bind(now + CLAIM_LEASE_SECS).fetch_all(tx).await
            })
        })
        .await
}

/// Claims messages due now (`claim_leased`). Messages to a player who blocked the bot wait
/// (nothing is sent to them) until they unblock it.
pub async fn claim_due(domain: &Domain, limit: i64) -> DomainResult<Vec<Pending>> {
    static PLAYERS: Outbox = Outbox {
        table: "notifications",
        also: " AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = o.user_id AND u.bot_blocked = 1)",
        returning: "id, user_id, attempts, payload",
    };
    let mut rows: Vec<(i64, i64, i64, String)> = claim_leased(domain, &PLAYERS, limit).await?;
    rows.sort_by_key(|r| r.0);
    Ok(rows
        .into_iter()
        .map(|(id, user_id, attempts, payload)| Pending { id, user_id, attempts, notice: serde_json::from_str(&payload).ok() })
        .collect())
}

/// Delivered as chat message `message_id`.
pub async fn mark_sent(domain: &Domain, id: i64, message_id: i32) -> DomainResult<()> {
    domain
        .execute(
            query("UPDATE notifications SET status = 'sent', sent_at = $1, message_id = $2, attempts = attempts + 1 WHERE id = $3")
                .bind(domain.now())
                .bind(message_id)
                .bind(id),
        )
        .await?;
    Ok(())
}

/// Seconds before try `attempts + 1`: 10 s, 20 s, 40 s ... capped at 30 min.
pub fn retry_delay(attempts: i64) -> i64 {
    (5i64 << attempts.clamp(0, 9)).min(1800)
}

/// A failed try: back off exponentially (5 s, 10 s, 20 s ... capped at 30 min), or give up for good.
pub async fn mark_failed(domain: &Domain, id: i64, attempts_so_far: i64, error: &str, give_up: bool) -> DomainResult<()> {
    let attempts = attempts_so_far + 1;
    let give_up = give_up || attempts >= MAX_ATTEMPTS;
    let delay = retry_delay(attempts);
    domain
        .execute(
            query("UPDATE notifications SET status = $1, attempts = $2, last_error = $3, next_attempt_at = $4 WHERE id = $5")
                .bind(if give_up { "failed" } else { "pending" })
                .bind(attempts)
                .bind(error)
                .bind(domain.now() + delay)
                .bind(id),
        )
        .await?;
    Ok(())
}

/// The player blocked the bot (a send was refused, or Telegram told us): the outbox stops
/// writing to them.
pub async fn mark_user_blocked(domain: &Domain, user_id: i64) -> DomainResult<()> {
    set_bot_blocked(domain, user_id, true).await
}

/// Telegram's word (a `my_chat_member` update of the private chat) that the player blocked or
/// unblocked the bot. Unblocked, their waiting messages go out again.
pub async fn set_bot_blocked(domain: &Domain, user_id: i64, blocked: bool) -> DomainResult<()> {
    let sql = if blocked {
        "UPDATE users SET bot_blocked = 1, updated_at = $1 WHERE id = $2"
    } else {
        "UPDATE users SET bot_blocked = 0, updated_at = $1 WHERE id = $2"
    };
    domain.execute(query(sql).bind(domain.now()).bind(user_id)).await?;
    Ok(())
}
