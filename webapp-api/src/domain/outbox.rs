//! The outbox: every chat message a change causes — a notice to a player, a support ticket
//! forwarded to an admin, a notice to an admin — is one row of `outbox`, written in the write that
//! causes it (`enqueue`), so none is lost while Telegram is down. The bot's sender drains it
//! (`bot/src/outbox.rs`): `claim_due`, then `sent` or `failed` for each message, with one lease
//! and one back-off for every channel. The areas say what to tell (an `Outgoing`); only this
//! module knows how it is kept, claimed and retried.
use crate::domain::notifications::Notice;
use crate::domain::store::{query, Exec};
use crate::domain::{store, Domain, DomainError, DomainResult};

/// Give up on a message after this many failed tries: with `retry_delay`, about 2 h 12 min of
/// refusals after the first one (a Telegram outage of an hour loses nothing).
pub const MAX_ATTEMPTS: i64 = 12;

/// How long a claimed message stays invisible to other senders. A sender that dies between
/// claiming and marking lets the message come due again after this (sent at least once).
pub const CLAIM_LEASE_SECS: i64 = 60;

/// The most messages one claim takes.
pub const CLAIM_BATCH: i64 = 100;

/// Seconds before try `attempts + 1`, for every channel: 10 s, 20 s, 40 s … capped at 30 min.
pub fn retry_delay(attempts: i64) -> i64 {
    (5i64 << attempts.clamp(0, 9)).min(1800)
}

/// Where a message goes; each is rendered by the sender in its own way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// To a player's private chat, in their language, with the mini app's button.
    Player,
    /// A support ticket (or a part of one) to an admin's chat; a reply to it answers the ticket.
    Ticket,
    /// A message to an admin's chat that belongs to no ticket (prices, delivery).
    Admin,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Player => "player",
            Channel::Ticket => "ticket",
            Channel::Admin => "admin",
        }
    }

    fn parse(s: &str) -> Option<Channel> {
        match s {
            "player" => Some(Channel::Player),
            "ticket" => Some(Channel::Ticket),
            "admin" => Some(Channel::Admin),
            _ => None,
        }
    }
}

/// A message to queue: who it goes to and what it says.
#[derive(Clone, Debug, PartialEq)]
pub enum Outgoing {
    /// A notice to a player (rendered in their language when it is sent).
    Player { user_id: i64, notice: Notice },
    /// One part of a ticket forwarded to an admin's chat, as it is sent.
    TicketForward { admin_chat_id: i64, ticket_id: i64, text: String },
    /// A notice to an admin's chat, as it is sent.
    AdminNotice { admin_chat_id: i64, text: String },
}

impl Outgoing {
    pub fn channel(&self) -> Channel {
        match self {
            Outgoing::Player { .. } => Channel::Player,
            Outgoing::TicketForward { .. } => Channel::Ticket,
            Outgoing::AdminNotice { .. } => Channel::Admin,
        }
    }

    /// The Telegram chat it goes to.
    pub fn chat_id(&self) -> i64 {
        match self {
            Outgoing::Player { user_id, .. } => *user_id,
            Outgoing::TicketForward { admin_chat_id, .. } | Outgoing::AdminNotice { admin_chat_id, .. } => *admin_chat_id,
        }
    }

    /// The message as its row keeps it.
    fn row(&self) -> DomainResult<Row> {
        Ok(match self {
            Outgoing::Player { user_id, notice } => {
                let payload = serde_json::to_string(notice).map_err(|e| DomainError::Internal(e.to_string()))?;
                (Channel::Player, *user_id, Some(*user_id), None, notice.kind(), payload)
            }
            Outgoing::TicketForward { admin_chat_id, ticket_id, text } => {
                (Channel::Ticket, *admin_chat_id, None, Some(*ticket_id), "ticket_forward", text.clone())
            }
            Outgoing::AdminNotice { admin_chat_id, text } => (Channel::Admin, *admin_chat_id, None, None, "admin_notice", text.clone()),
        })
    }
}

/// (channel, chat, player, ticket, kind, payload) of a queued message.
type Row = (Channel, i64, Option<i64>, Option<i64>, &'static str, String);

/// Queues one message in the caller's write: it leaves only if that write commits.
pub async fn enqueue(tx: &mut dyn Exec, message: &Outgoing, now: i64) -> DomainResult<()> {
    let (channel, chat_id, user_id, ticket_id, kind, payload) = message.row()?;
    query(
        "INSERT INTO outbox(channel, chat_id, user_id, ticket_id, kind, payload, next_attempt_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(channel.as_str())
    .bind(chat_id)
    .bind(user_id)
    .bind(ticket_id)
    .bind(kind)
    .bind(payload)
    .bind(now)
    .bind(now)
    .execute(tx)
    .await?;
    Ok(())
}

/// Queues `notice` for the player, in the caller's write.
pub async fn tell_player(tx: &mut dyn Exec, user_id: i64, notice: &Notice, now: i64) -> DomainResult<()> {
    enqueue(tx, &Outgoing::Player { user_id, notice: notice.clone() }, now).await
}

/// Queues `text` for every admin chat, in the caller's write.
pub async fn tell_admins(tx: &mut dyn Exec, admins: &[i64], text: &str, now: i64) -> DomainResult<()> {
    for &admin_chat_id in admins {
        enqueue(tx, &Outgoing::AdminNotice { admin_chat_id, text: text.to_owned() }, now).await?;
    }
    Ok(())
}

/// A message due now, claimed by this sender for `CLAIM_LEASE_SECS`.
#[derive(Debug)]
pub struct Due {
    pub id: i64,
    /// The chat it goes to.
    pub chat_id: i64,
    /// Failed tries so far.
    pub attempts: i64,
    /// What to send; `None` when the row cannot be read (given up at once by the sender).
    pub message: Option<Outgoing>,
}

impl Due {
    /// The messages that must leave in order with this one: a forward's parts, per admin chat
    /// and ticket. After one of them fails, the sender skips the rest for this round.
    pub fn sequence(&self) -> Option<(i64, i64)> {
        match &self.message {
            Some(Outgoing::TicketForward { admin_chat_id, ticket_id, .. }) => Some((*admin_chat_id, *ticket_id)),
            _ => None,
        }
    }

    /// The player it goes to, if it goes to a player.
    pub fn player(&self) -> Option<i64> {
        match &self.message {
            Some(Outgoing::Player { user_id, .. }) => Some(*user_id),
            _ => None,
        }
    }
}

type DueRow = (i64, String, i64, Option<i64>, Option<i64>, String, i64);

fn due_of((id, channel, chat_id, user_id, ticket_id, payload, attempts): DueRow) -> Due {
    let message = match (Channel::parse(&channel), user_id, ticket_id) {
        (Some(Channel::Player), Some(user_id), _) => serde_json::from_str(&payload).ok().map(|notice| Outgoing::Player { user_id, notice }),
        (Some(Channel::Ticket), _, Some(ticket_id)) => Some(Outgoing::TicketForward { admin_chat_id: chat_id, ticket_id, text: payload }),
        (Some(Channel::Admin), _, _) => Some(Outgoing::AdminNotice { admin_chat_id: chat_id, text: payload }),
        _ => None,
    };
    Due { id, chat_id, attempts, message }
}

/// The claim every sender makes, for every channel: up to `limit` pending messages due now,
/// oldest first, in one write leased to this sender (their `next_attempt_at` moves
/// `CLAIM_LEASE_SECS` ahead), so a sender on another replica never picks the same row: where
/// writers lock rows, the pick skips rows another sender is claiming (`store::claim_suffix`).
/// Two kinds wait: a message to a player who blocked the bot (until they unblock it), and a
/// forward behind an earlier part to the same chat about the same ticket that waits for a retry
/// or is leased to another sender (so a long forward's parts arrive in order).
/// Answers them by id.
pub async fn claim_due(domain: &Domain, limit: i64) -> DomainResult<Vec<Due>> {
    let now = domain.now();
    let mut rows: Vec<DueRow> = domain
        .write(move |tx| {
            Box::pin(async move {
                adopt_legacy(tx, now).await?;
                let sql = format!(
                    "UPDATE outbox SET next_attempt_at = $3
                     WHERE status = 'pending' AND next_attempt_at <= $1 AND id IN (
                       SELECT o.id FROM outbox o WHERE o.status = 'pending' AND o.next_attempt_at <= $1
                         AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = o.user_id AND u.bot_blocked = 1)
                         AND NOT EXISTS (SELECT 1 FROM outbox e WHERE o.ticket_id IS NOT NULL AND e.ticket_id = o.ticket_id
                                           AND e.chat_id = o.chat_id AND e.status = 'pending' AND e.next_attempt_at > $1
                                           AND e.id < o.id)
                         ORDER BY o.id LIMIT $2{})
                     RETURNING id, channel, chat_id, user_id, ticket_id, payload, attempts",
                    store::claim_suffix(tx)
                );
                query(&sql).bind(now).bind(limit).bind(now + CLAIM_LEASE_SECS).fetch_all(tx).await
            })
        })
        .await?;
    rows.sort_by_key(|r| r.0);
    Ok(rows.into_iter().map(due_of).collect())
}

/// Delivered as chat message `message_id`: kept, so a reply to it finds what it was (a player's
/// reply to support's answer, an admin's reply to a forwarded ticket).
pub async fn sent(domain: &Domain, due: &Due, message_id: i32) -> DomainResult<()> {
    let (now, id, chat_id, forwarded) = (domain.now(), due.id, due.chat_id, due.sequence().map(|(_, ticket)| ticket));
    domain
        .write(move |tx| {
            Box::pin(async move {
                query("UPDATE outbox SET status = 'sent', sent_at = $1, message_id = $2, attempts = attempts + 1 WHERE id = $3")
                    .bind(now)
                    .bind(message_id)
                    .bind(id)
                    .execute(tx)
                    .await?;
                if let Some(ticket_id) = forwarded {
                    query(
                        "INSERT INTO ticket_forwards(admin_chat_id, message_id, ticket_id) VALUES ($1, $2, $3)
                         ON CONFLICT(admin_chat_id, message_id) DO UPDATE SET ticket_id = excluded.ticket_id",
                    )
                    .bind(chat_id)
                    .bind(message_id)
                    .bind(ticket_id)
                    .execute(tx)
                    .await?;
                }
                Ok(())
            })
        })
        .await
}

/// A failed try, on any channel: tried again after `retry_delay`, or given up for good when
/// `give_up` (the chat blocked the bot, the row cannot be read) or after `MAX_ATTEMPTS` tries.
pub async fn failed(domain: &Domain, due: &Due, error: &str, give_up: bool) -> DomainResult<()> {
    let attempts = due.attempts + 1;
    let give_up = give_up || attempts >= MAX_ATTEMPTS;
    domain
        .execute(
            query("UPDATE outbox SET status = $1, attempts = $2, last_error = $3, next_attempt_at = $4 WHERE id = $5")
                .bind(if give_up { "failed" } else { "pending" })
                .bind(attempts)
                .bind(error)
                .bind(domain.now() + retry_delay(attempts))
                .bind(due.id),
        )
        .await?;
    Ok(())
}

/// The notice delivered to the player as chat message `message_id`, if any.
pub async fn delivered_to_player(domain: &Domain, user_id: i64, message_id: i32) -> DomainResult<Option<Notice>> {
    let row: Option<(String,)> = domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT payload FROM outbox WHERE channel = 'player' AND chat_id = $1 AND message_id = $2 ORDER BY id DESC LIMIT 1")
                    .bind(user_id)
                    .bind(message_id)
                    .fetch_optional(c)
                    .await
            })
        })
        .await?;
    Ok(row.and_then(|(p,)| serde_json::from_str(&p).ok()))
}

/// The tables the outbox had before migration 0018, and how each row reads as an `outbox` row.
struct Legacy {
    table: &'static str,
    /// What else a row, named `o`, must meet to move now (`""`: nothing).
    also: &'static str,
    /// `channel, chat_id, user_id, ticket_id, kind, payload, status, attempts, next_attempt_at,
    /// last_error, created_at, sent_at, message_id` of a row of `table`.
    columns: &'static str,
}

const LEGACY: [Legacy; 3] = [
    Legacy {
        table: "notifications",
        also: "",
        columns: "CAST('player' AS TEXT), user_id, user_id, CAST(NULL AS BIGINT), kind, payload, status, attempts, next_attempt_at,
                  last_error, created_at, sent_at, message_id",
    },
    Legacy {
        table: "admin_outbox",
        // A forward's later part waits while an earlier one stays behind (the old sender holds
        // it, or it waits for a retry there), so the parts still arrive in order.
        also: " AND NOT EXISTS (SELECT 1 FROM admin_outbox e WHERE e.admin_chat_id = o.admin_chat_id
                 AND e.ticket_id = o.ticket_id AND e.status = 'pending' AND e.next_attempt_at > $1 AND e.id < o.id)",
        columns: "CAST('ticket' AS TEXT), admin_chat_id, CAST(NULL AS BIGINT), ticket_id, CAST('ticket_forward' AS TEXT), body,
                  status, attempts, next_attempt_at, last_error, created_at, sent_at, CAST(NULL AS BIGINT)",
    },
    Legacy {
        table: "admin_notices",
        also: "",
        columns: "CAST('admin' AS TEXT), admin_chat_id, CAST(NULL AS BIGINT), CAST(NULL AS BIGINT), CAST('admin_notice' AS TEXT),
                  body, status, attempts, next_attempt_at, last_error, created_at, sent_at, CAST(NULL AS BIGINT)",
    },
];

type LegacyRow = (String, i64, Option<i64>, Option<i64>, String, String, String, i64, i64, Option<String>, i64, Option<i64>, Option<i64>);

/// Moves into `outbox` what a replica of the release before 0018 wrote into the old tables
/// while it still ran beside this one (a rolling deploy): every row but a pending one under a
/// lease or retry wait (the old sender may be sending it; it moves once it comes due), with its
/// state. One row at a time, each deleted and inserted in this write, so a row moves once.
/// Goes with the old tables in the next release.
async fn adopt_legacy(tx: &mut dyn Exec, now: i64) -> DomainResult<()> {
    for Legacy { table, also, columns } in &LEGACY {
        let pick = format!(
            "SELECT o.id FROM {table} o WHERE (o.status <> 'pending' OR o.next_attempt_at <= $1){also} ORDER BY o.id LIMIT 100{}",
            store::claim_suffix(tx)
        );
        let ids: Vec<(i64,)> = query(&pick).bind(now).fetch_all(tx).await?;
        for (id,) in ids {
            let take = format!("DELETE FROM {table} WHERE id = $1 AND (status <> 'pending' OR next_attempt_at <= $2) RETURNING {columns}");
            let Some(row): Option<LegacyRow> = query(&take).bind(id).bind(now).fetch_optional(tx).await? else { continue };
            let (
                channel,
                chat_id,
                user_id,
                ticket_id,
                kind,
                payload,
                status,
                attempts,
                next_at,
                last_error,
                created_at,
                sent_at,
                message_id,
            ) = row;
            query(
                "INSERT INTO outbox(channel, chat_id, user_id, ticket_id, kind, payload, status, attempts, next_attempt_at,
                                    last_error, created_at, sent_at, message_id)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
            )
            .bind(channel)
            .bind(chat_id)
            .bind(user_id)
            .bind(ticket_id)
            .bind(kind)
            .bind(payload)
            .bind(status)
            .bind(attempts)
            .bind(next_at)
            .bind(last_error)
            .bind(created_at)
            .bind(sent_at)
            .bind(message_id)
            .execute(tx)
            .await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_channel_backs_off_by_one_rule_and_gives_up_after_the_same_tries() {
        let waits: Vec<i64> = (1..MAX_ATTEMPTS).map(retry_delay).collect();
        assert_eq!(&waits[..4], &[10, 20, 40, 80]);
        assert!(waits.windows(2).all(|w| w[0] <= w[1]), "never shorter: {waits:?}");
        assert_eq!(*waits.last().unwrap(), 1800, "capped at 30 min");
        assert!(waits.iter().sum::<i64>() > 2 * 3600, "an hour-long outage loses nothing: {waits:?}");
    }

    #[test]
    fn a_queued_message_reads_back_as_it_was_queued() {
        let messages = [
            Outgoing::Player { user_id: 7, notice: Notice::TicketClosed { ticket_id: 3 } },
            Outgoing::TicketForward { admin_chat_id: 9, ticket_id: 3, text: "part".into() },
            Outgoing::AdminNotice { admin_chat_id: 9, text: "prices".into() },
        ];
        for (i, m) in messages.into_iter().enumerate() {
            let (channel, chat, user, ticket, _, payload) = m.row().unwrap();
            let due = due_of((i as i64, channel.as_str().into(), chat, user, ticket, payload, 0));
            assert_eq!(due.chat_id, m.chat_id());
            assert_eq!(due.message, Some(m));
        }
    }

    #[test]
    fn an_unreadable_row_is_due_without_a_message() {
        let due = due_of((1, "player".into(), 7, Some(7), None, "{not json".into(), 0));
        assert_eq!(due.message, None);
        assert_eq!(due_of((2, "carrier pigeon".into(), 7, None, None, "x".into(), 0)).message, None);
    }
}
