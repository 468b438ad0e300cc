//! Support tickets: a player opens one from the mini app (or `/paysupport`), support answers
//! from the bot. Every new ticket and player message is forwarded to each admin's chat; a reply
//! to that forwarded message (or `/reply <id> <text>`) answers the ticket.

use crate::domain::admin::{self, Actor};
use crate::domain::admin_audit;
use crate::domain::clock::rfc3339;
use crate::domain::lang::Lang;
use crate::domain::notifications::Notice;
use crate::domain::outbox::{self, Outgoing};
use crate::domain::store::{query, Exec};
use crate::domain::{inventory, store, users, Domain, DomainError, DomainResult};

pub const MAX_TITLE_CHARS: usize = 120;
pub const MAX_MESSAGE_CHARS: usize = 4000;
/// A player may have this many open tickets at once; closing one frees a place.
pub const MAX_OPEN_TICKETS: i64 = 5;

/// A ticket topic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Payment,
    Withdraw,
    Bug,
    Other,
}

impl Theme {
    pub fn parse(s: &str) -> DomainResult<Theme> {
        match s {
            "payment" => Ok(Theme::Payment),
            "withdraw" => Ok(Theme::Withdraw),
            "bug" => Ok(Theme::Bug),
            "other" => Ok(Theme::Other),
            _ => Err(DomainError::InvalidTheme),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Payment => "payment",
            Theme::Withdraw => "withdraw",
            Theme::Bug => "bug",
            Theme::Other => "other",
        }
    }
}

/// Telegram's limit on one message's text, in UTF-16 code units (what its clients count).
pub const TELEGRAM_TEXT_LIMIT: usize = 4096;

/// Whether a character is kept in player text: control characters other than line feed and
/// tab, and the bidirectional embedding, override and isolate characters (which can make an
/// admin's chat show text in another order than it was written) are stripped.
fn allowed_char(c: char) -> bool {
    if c == '\n' || c == '\t' {
        return true;
    }
    !(c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'))
}

/// Player text as it is stored and forwarded: disallowed characters stripped (`\r\n` becomes
/// `\n`), then trimmed.
pub fn clean_text(raw: &str) -> String {
    raw.replace("\r\n", "\n").chars().filter(|c| allowed_char(*c)).collect::<String>().trim().to_owned()
}

/// Splits a text into parts of at most `limit` UTF-16 code units, in order, preferring to cut
/// after a line break, then after a space; never inside a character.
pub fn split_for_telegram(text: &str, limit: usize) -> Vec<String> {
    let mut parts = Vec::new();
    let mut rest = text;
    while rest.encode_utf16().count() > limit {
        let mut units = 0;
        let mut hard = 0;
        for (i, c) in rest.char_indices() {
            if units + c.len_utf16() > limit {
                break;
            }
            units += c.len_utf16();
            hard = i + c.len_utf8();
        }
        let head = &rest[..hard];
        let cut = head.rfind('\n').or_else(|| head.rfind(' ')).map(|i| i + 1).filter(|&i| i > hard / 2).unwrap_or(hard);
        parts.push(rest[..cut].to_owned());
        rest = &rest[cut..];
    }
    if !rest.is_empty() || parts.is_empty() {
        parts.push(rest.to_owned());
    }
    parts
}

/// A message text: cleaned, not blank, at most 4000 characters.
pub fn message_text(raw: &str) -> DomainResult<String> {
    // The limit counts characters as sent, so the contract's `maxLength` is exactly the rule.
    if raw.chars().count() > MAX_MESSAGE_CHARS {
        return Err(DomainError::TooLong("message"));
    }
    let cleaned = clean_text(raw);
    let text = cleaned.as_str();
    if text.is_empty() {
        return Err(DomainError::EmptyMessage);
    }
    if text.chars().count() > MAX_MESSAGE_CHARS {
        return Err(DomainError::TooLong("message"));
    }
    Ok(text.to_owned())
}

/// An optional title: trimmed, blank is none, at most 120 characters.
pub fn title_text(raw: Option<&str>) -> DomainResult<Option<String>> {
    if raw.is_some_and(|t| t.chars().count() > MAX_TITLE_CHARS) {
        return Err(DomainError::TooLong("title"));
    }
    let cleaned = raw.map(clean_text);
    let Some(t) = cleaned.as_deref().filter(|t| !t.is_empty()) else { return Ok(None) };
    if t.chars().count() > MAX_TITLE_CHARS {
        return Err(DomainError::TooLong("title"));
    }
    Ok(Some(t.to_owned()))
}

/// The automatic first answer, in the player's language.
pub fn auto_reply(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => "Спасибо за обращение! Мы получили ваше сообщение и ответим в ближайшее время.",
        Lang::En => "Thank you for contacting us! We have received your message and will answer soon.",
    }
}

#[derive(Clone, Debug)]
pub struct Ticket {
    pub id: i64,
    pub title: Option<String>,
    pub theme: String,
    pub status: String,
    pub created_at: String,
}

#[derive(Clone, Debug)]
pub struct TicketSummary {
    pub id: i64,
    pub title: Option<String>,
    pub theme: String,
    pub status: String,
    pub last_message: String,
    pub created_at: String,
}

#[derive(Clone, Debug)]
pub struct Message {
    pub id: i64,
    pub sender: String,
    pub message: String,
    pub created_at: String,
}

/// What the mini app sends to open a ticket.
#[derive(Clone, Debug, Default)]
pub struct NewTicket {
    pub theme: String,
    pub item_id: Option<i64>,
    pub title: Option<String>,
    pub message: String,
}

const LAST_MESSAGE: &str = "COALESCE((SELECT m.message FROM ticket_messages m WHERE m.ticket_id = t.id ORDER BY m.id DESC LIMIT 1), '')";

/// The player's tickets, newest first.
pub async fn list(domain: &Domain, user_id: i64) -> DomainResult<Vec<TicketSummary>> {
    let sql = format!(
        "SELECT t.id, t.title, t.theme, t.status, {LAST_MESSAGE}, t.created_at FROM tickets t
         WHERE t.user_id = $1 ORDER BY t.id DESC LIMIT 200"
    );
    let rows: Vec<(i64, Option<String>, String, String, String, i64)> =
        domain.read(move |c| Box::pin(async move { query(&sql).bind(user_id).fetch_all(c).await })).await?;
    Ok(rows
        .into_iter()
        .map(|(id, title, theme, status, last_message, at)| TicketSummary {
            id,
            title,
            theme,
            status,
            last_message,
            created_at: rfc3339(at),
        })
        .collect())
}

async fn ticket_in(conn: &mut dyn Exec, user_id: i64, ticket_id: i64) -> DomainResult<Ticket> {
    let row: Option<(i64, Option<String>, String, String, i64)> =
        query("SELECT id, title, theme, status, created_at FROM tickets WHERE id = $1 AND user_id = $2")
            .bind(ticket_id)
            .bind(user_id)
            .fetch_optional(conn)
            .await?;
    let (id, title, theme, status, at) = row.ok_or(DomainError::TicketNotFound)?;
    Ok(Ticket { id, title, theme, status, created_at: rfc3339(at) })
}

pub async fn get(domain: &Domain, user_id: i64, ticket_id: i64) -> DomainResult<Ticket> {
    domain.read(move |c| Box::pin(ticket_in(c, user_id, ticket_id))).await
}

/// A ticket's messages, oldest first.
pub async fn messages(domain: &Domain, user_id: i64, ticket_id: i64) -> DomainResult<Vec<Message>> {
    let rows: Vec<(i64, String, String, i64)> = domain
        .read(move |c| {
            Box::pin(async move {
                ticket_in(c, user_id, ticket_id).await?;
                query("SELECT id, sender, message, created_at FROM ticket_messages WHERE ticket_id = $1 ORDER BY id")
                    .bind(ticket_id)
                    .fetch_all(c)
                    .await
            })
        })
        .await?;
    Ok(rows.into_iter().map(|(id, sender, message, at)| Message { id, sender, message, created_at: rfc3339(at) }).collect())
}

async fn insert_message(
    conn: &mut dyn Exec,
    ticket_id: i64,
    sender: &str,
    admin_id: Option<i64>,
    text: &str,
    now: i64,
) -> DomainResult<Message> {
    let (id,): (i64,) =
        query("INSERT INTO ticket_messages(ticket_id, sender, admin_id, message, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id")
            .bind(ticket_id)
            .bind(sender)
            .bind(admin_id)
            .bind(text)
            .bind(now)
            .fetch_one(conn)
            .await?;
    query("UPDATE tickets SET updated_at = $1 WHERE id = $2").bind(now).bind(ticket_id).execute(conn).await?;
    Ok(Message { id, sender: sender.to_owned(), message: text.to_owned(), created_at: rfc3339(now) })
}

/// Opens a ticket with the player's first message and the automatic support answer, then
/// forwards it to the admins.
pub async fn create(domain: &Domain, user_id: i64, new: NewTicket) -> DomainResult<Ticket> {
    let theme = Theme::parse(&new.theme)?;
    let text = message_text(&new.message)?;
    let title = title_text(new.title.as_deref())?;
    if theme == Theme::Withdraw && new.item_id.is_none() {
        return Err(DomainError::ItemRequired);
    }
    let lang = users::language(domain, user_id).await;
    let now = domain.now();
    let admins = domain.config.admin_ids.clone();
    let item_id = new.item_id;
    domain.write(move |tx| Box::pin(create_in(tx, admins, user_id, theme, title, item_id, text, lang, now))).await
}

#[allow(clippy::too_many_arguments)]
async fn create_in(
    tx: &mut dyn Exec,
    admins: Vec<i64>,
    user_id: i64,
    theme: Theme,
    title: Option<String>,
    item_id: Option<i64>,
    text: String,
    lang: Lang,
    now: i64,
) -> DomainResult<Ticket> {
    // The player is locked: the open-ticket count decides the insert.
    store::lock_users(tx, &[user_id]).await?;
    if let Some(item_id) = item_id {
        inventory::item_in(tx, user_id, item_id).await?;
    }
    let (open,): (i64,) = query("SELECT COUNT(*) FROM tickets WHERE user_id = $1 AND status = 'open'").bind(user_id).fetch_one(tx).await?;
    if open >= MAX_OPEN_TICKETS {
        return Err(DomainError::TooManyOpenTickets);
    }
    let (id,): (i64,) =
        query("INSERT INTO tickets(user_id, theme, title, item_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id")
            .bind(user_id)
            .bind(theme.as_str())
            .bind(&title)
            .bind(item_id)
            .bind(now)
            .bind(now)
            .fetch_one(tx)
            .await?;
    insert_message(tx, id, "user", None, &text, now).await?;
    insert_message(tx, id, "support", None, auto_reply(lang), now).await?;
    let ticket = ticket_in(tx, user_id, id).await?;
    queue_forward(tx, &admins, id, &text, true, now).await?;
    Ok(ticket)
}

/// `/paysupport`: the player's open payment ticket, or a new one. Answers its id and whether
/// it was opened now.
pub async fn open_payment_help(domain: &Domain, user_id: i64) -> DomainResult<(i64, bool)> {
    let existing: Option<(i64,)> = domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT id FROM tickets WHERE user_id = $1 AND theme = 'payment' AND status = 'open' ORDER BY id DESC LIMIT 1")
                    .bind(user_id)
                    .fetch_optional(c)
                    .await
            })
        })
        .await?;
    if let Some((id,)) = existing {
        return Ok((id, false));
    }
    let lang = users::language(domain, user_id).await;
    let message = match lang {
        Lang::Ru => "Нужна помощь с оплатой звёздами (/paysupport).",
        Lang::En => "I need help with a Stars payment (/paysupport).",
    };
    let t = create(domain, user_id, NewTicket { theme: "payment".into(), message: message.into(), ..NewTicket::default() }).await?;
    Ok((t.id, true))
}

/// A player's message on their open ticket; forwarded to the admins.
pub async fn add_message(domain: &Domain, user_id: i64, ticket_id: i64, raw: &str) -> DomainResult<Message> {
    let text = message_text(raw)?;
    let now = domain.now();
    let admins = domain.config.admin_ids.clone();
    domain
        .write(move |tx| {
            Box::pin(async move {
                store::lock_key(tx, &format!("ticket:{ticket_id}")).await?;
                let ticket = ticket_in(tx, user_id, ticket_id).await?;
                if ticket.status != "open" {
                    return Err(DomainError::TicketClosed);
                }
                let message = insert_message(tx, ticket_id, "user", None, &text, now).await?;
                queue_forward(tx, &admins, ticket_id, &text, false, now).await?;
                Ok(message)
            })
        })
        .await
}

/// A player's chat reply to support's answer (as the outbox delivered it) goes into that ticket.
/// Answers the ticket id and the stored message; `TicketNotFound` when the replied message is
/// not one of support's answers to this player.
pub async fn reply_from_chat(domain: &Domain, user_id: i64, replied_message_id: i32, raw: &str) -> DomainResult<(i64, Message)> {
    let ticket_id = match outbox::delivered_to_player(domain, user_id, replied_message_id).await? {
        Some(Notice::SupportReply { ticket_id, .. }) => ticket_id,
        _ => return Err(DomainError::TicketNotFound),
    };
    let message = add_message(domain, user_id, ticket_id, raw).await?;
    Ok((ticket_id, message))
}

/// Who closes a ticket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closer {
    /// The player, on their own ticket (another player's is `TicketNotFound`).
    Player(i64),
    /// Support, on any player's ticket (the actor is checked against `ADMIN_IDS`).
    Support(Actor),
}

/// Closes a ticket. The player's close of a closed ticket changes nothing; support's is
/// `TicketClosed`, and support's close tells the player and is audited.
pub async fn close(domain: &Domain, by: Closer, ticket_id: i64) -> DomainResult<()> {
    if let Closer::Support(actor) = by {
        admin::ensure(domain, actor)?;
    }
    let now = domain.now();
    domain
        .write(move |tx| {
            Box::pin(async move {
                store::lock_key(tx, &format!("ticket:{ticket_id}")).await?;
                let user_id = match by {
                    Closer::Player(user_id) => {
                        ticket_in(tx, user_id, ticket_id).await?;
                        user_id
                    }
                    Closer::Support(_) => open_ticket_owner(tx, ticket_id).await?,
                };
                // Support's ticket was found open under the ticket's lock, so `status = 'open'` holds for it.
                query("UPDATE tickets SET status = 'closed', closed_at = $1, updated_at = $2 WHERE id = $3 AND status = 'open'")
                    .bind(now)
                    .bind(now)
                    .bind(ticket_id)
                    .execute(tx)
                    .await?;
                if let Closer::Support(actor) = by {
                    outbox::tell_player(tx, user_id, &Notice::TicketClosed { ticket_id }, now).await?;
                    admin_audit::record(tx, actor.audit_id(), "ticket_close", &format!("ticket {ticket_id}"), now).await?;
                }
                Ok(())
            })
        })
        .await
}

/// Queues the ticket for every admin's chat (`outbox`, channel ticket), inside the caller's
/// transaction, so a forward is never lost while Telegram is down; the outbox remembers where it
/// was delivered (`ticket_forwards`), so a reply to it answers the ticket.
async fn queue_forward(conn: &mut dyn Exec, admins: &[i64], ticket_id: i64, text: &str, is_new: bool, now: i64) -> DomainResult<()> {
    if admins.is_empty() {
        return Ok(());
    }
    type Row = (i64, String, String, String, Option<String>, Option<String>, Option<i64>, Option<String>, Option<String>);
    let row: Row = query(
        "SELECT t.user_id, t.theme, u.first_name, u.last_name, u.username, t.title, t.item_id,
                i.weapon || ' | ' || i.finish, i.status
         FROM tickets t JOIN users u ON u.id = t.user_id LEFT JOIN inventory_items i ON i.id = t.item_id WHERE t.id = $1",
    )
    .bind(ticket_id)
    .fetch_one(conn)
    .await?;
    let (user_id, theme, first, last, username, title, item_id, item, item_status) = row;
    let mut body =
        if is_new { format!("🆕 Ticket #{ticket_id} [{theme}]") } else { format!("💬 Ticket #{ticket_id} [{theme}]: new message") };
    body.push_str(&format!(
        "\nFrom: {} (id {user_id}{})",
        users::display_name(&first, &last, None),
        username.map(|u| format!(", @{u}")).unwrap_or_default()
    ));
    if let Some(t) = title {
        body.push_str(&format!("\nTitle: {t}"));
    }
    if let (Some(id), Some(name)) = (item_id, item) {
        body.push_str(&format!("\nItem: #{id} {name} ({})", item_status.unwrap_or_default()));
    }
    body.push_str(&format!("\n\n{text}\n\nReply to this message to answer, or /reply {ticket_id} <text>; /close {ticket_id}"));
    // Past Telegram's limit the forward goes as several messages, queued in order.
    let parts = split_for_telegram(&body, TELEGRAM_TEXT_LIMIT);
    for &admin_chat_id in admins {
        for text in parts.iter().cloned() {
            outbox::enqueue(conn, &Outgoing::TicketForward { admin_chat_id, ticket_id, text }, now).await?;
        }
    }
    Ok(())
}

/// The player of an open ticket (support's side: any ticket id).
async fn open_ticket_owner(conn: &mut dyn Exec, ticket_id: i64) -> DomainResult<i64> {
    let row: Option<(i64, String)> =
        query("SELECT user_id, status FROM tickets WHERE id = $1").bind(ticket_id).fetch_optional(conn).await?;
    let (user_id, status) = row.ok_or(DomainError::TicketNotFound)?;
    if status != "open" {
        return Err(DomainError::TicketClosed);
    }
    Ok(user_id)
}

/// Support's answer on a ticket: stored as a support message and sent to the player.
pub async fn reply(domain: &Domain, actor: Actor, ticket_id: i64, raw: &str) -> DomainResult<Message> {
    admin::ensure(domain, actor)?;
    let text = message_text(raw)?;
    let now = domain.now();
    let operator = actor.audit_id();
    domain
        .write(move |tx| {
            Box::pin(async move {
                store::lock_key(tx, &format!("ticket:{ticket_id}")).await?;
                let user_id = open_ticket_owner(tx, ticket_id).await?;
                let message = insert_message(tx, ticket_id, "support", Some(operator), &text, now).await?;
                outbox::tell_player(tx, user_id, &Notice::SupportReply { ticket_id, message: text }, now).await?;
                admin_audit::record(tx, operator, "ticket_reply", &format!("ticket {ticket_id}"), now).await?;
                Ok(message)
            })
        })
        .await
}

/// An admin's reply to a forwarded ticket message in their chat. Answers the ticket id.
pub async fn reply_to_forward(domain: &Domain, actor: Actor, chat_id: i64, message_id: i32, raw: &str) -> DomainResult<i64> {
    admin::ensure(domain, actor)?;
    let row: Option<(i64,)> = domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT ticket_id FROM ticket_forwards WHERE admin_chat_id = $1 AND message_id = $2")
                    .bind(chat_id)
                    .bind(message_id)
                    .fetch_optional(c)
                    .await
            })
        })
        .await?;
    let (ticket_id,) = row.ok_or(DomainError::TicketNotFound)?;
    reply(domain, actor, ticket_id, raw).await?;
    Ok(ticket_id)
}

/// An open ticket as `/tickets` lists it.
#[derive(Clone, Debug)]
pub struct OpenTicket {
    pub id: i64,
    pub user_id: i64,
    pub user: String,
    pub theme: String,
    pub title: Option<String>,
    pub last_message: String,
    pub created_at: String,
}

/// Open tickets, oldest first (at most 50).
pub async fn open_tickets(domain: &Domain, actor: Actor) -> DomainResult<Vec<OpenTicket>> {
    admin::ensure(domain, actor)?;
    let sql = format!(
        "SELECT t.id, t.user_id, u.first_name, u.last_name, u.username, t.theme, t.title, {LAST_MESSAGE}, t.created_at
         FROM tickets t JOIN users u ON u.id = t.user_id WHERE t.status = 'open' ORDER BY t.id LIMIT 50"
    );
    type Row = (i64, i64, String, String, Option<String>, String, Option<String>, String, i64);
    let rows: Vec<Row> = domain.read(move |c| Box::pin(async move { query(&sql).fetch_all(c).await })).await?;
    let (operator, detail, now) = (actor.audit_id(), format!("{} open", rows.len()), domain.now());
    domain.write(move |tx| Box::pin(async move { admin_audit::record(tx, operator, "tickets_list", &detail, now).await })).await?;
    Ok(rows
        .into_iter()
        .map(|r| OpenTicket {
            id: r.0,
            user_id: r.1,
            user: users::display_name(&r.2, &r.3, r.4.as_deref()),
            theme: r.5,
            title: r.6,
            last_message: r.7,
            created_at: rfc3339(r.8),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blank_message_is_refused_and_a_long_one_too() {
        assert!(matches!(message_text("   \n "), Err(DomainError::EmptyMessage)));
        assert!(matches!(message_text(&"я".repeat(4001)), Err(DomainError::TooLong("message"))));
        assert_eq!(message_text(&format!(" {} ", "я".repeat(3998))).unwrap().chars().count(), 3998);
        assert!(matches!(message_text(&format!(" {} ", "я".repeat(3999))), Err(DomainError::TooLong("message"))));
    }

    #[test]
    fn control_and_bidi_override_characters_are_stripped() {
        assert_eq!(message_text("a\u{202E}b\u{0000}c\u{2066}d\u{0007}\r\ne\tf").unwrap(), "abcd\ne\tf");
        assert!(matches!(message_text("\u{202E}\u{0000} "), Err(DomainError::EmptyMessage)));
        assert_eq!(title_text(Some("\u{202D}Hi")).unwrap().as_deref(), Some("Hi"));
    }

    #[test]
    fn a_forward_splits_into_ordered_parts_within_telegrams_limit() {
        let text = format!("{}\n{}", "x".repeat(3000), "😀".repeat(2000));
        let parts = split_for_telegram(&text, TELEGRAM_TEXT_LIMIT);
        assert!(parts.len() >= 2);
        assert!(parts.iter().all(|p| p.encode_utf16().count() <= TELEGRAM_TEXT_LIMIT && !p.is_empty()));
        assert_eq!(parts.concat(), text);
        assert_eq!(split_for_telegram("short", TELEGRAM_TEXT_LIMIT), vec!["short".to_owned()]);
    }

    #[test]
    fn a_title_is_optional_and_at_most_120_characters() {
        assert_eq!(title_text(None).unwrap(), None);
        assert_eq!(title_text(Some("  ")).unwrap(), None);
        assert_eq!(title_text(Some(" Hi ")).unwrap(), Some("Hi".into()));
        assert!(matches!(title_text(Some(&"x".repeat(121))), Err(DomainError::TooLong("title"))));
    }

    #[test]
    fn only_the_four_topics_exist() {
        for t in ["payment", "withdraw", "bug", "other"] {
            assert_eq!(Theme::parse(t).unwrap().as_str(), t);
        }
        assert!(matches!(Theme::parse("refund"), Err(DomainError::InvalidTheme)));
    }
}
