//! Admin commands (only `ADMIN_IDS`; the domain checks, anyone else gets the ordinary help).
use teloxide::prelude::*;
use teloxide::types::{ForceReply, InlineKeyboardButton, InlineKeyboardMarkup, ReplyMarkup};
use webapp_api::domain::admin::{self, Actor};
use webapp_api::domain::payments::{self, Refunded};
use webapp_api::domain::tickets;
use webapp_api::domain::withdrawals::Resolution;
use webapp_api::domain::{users, Domain, DomainError, Tokens};

use crate::schema::HandlerResult;
use crate::texts;

/// A parsed admin command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdminCommand {
    /// `None`: status.
    Maintenance(Option<bool>),
    Withdrawals,
    Sent(i64),
    Fail(i64, String),
    Grant {
        user_id: i64,
        amount: Tokens,
        reason: String,
    },
    Refund {
        charge_id: String,
        force: bool,
    },
    Orphans,
    Stats,
    User(i64),
    Tickets,
    Reply(i64, String),
    Close(i64),
}

/// `None` when `text` is not an admin command at all; `Some(Err(usage))` when it is one with
/// bad arguments.
pub fn parse(text: &str) -> Option<Result<AdminCommand, &'static str>> {
    let text = text.trim_start();
    let rest = text.strip_prefix('/')?;
    let (word, args) = match rest.find(char::is_whitespace) {
        Some(i) => (&rest[..i], rest[i..].trim()),
        None => (rest, ""),
    };
    let word = word.split('@').next().unwrap_or(word).to_ascii_lowercase();
    let mut it = args.split_whitespace();
    let id = |s: Option<&str>| s.and_then(|s| s.parse::<i64>().ok());
    // Everything after the first `n` words, line breaks kept.
    let tail = |n: usize| -> String {
        let mut s = args;
        for _ in 0..n {
            s = s.trim_start();
            s = s.find(char::is_whitespace).map(|i| &s[i..]).unwrap_or("");
        }
        s.trim().to_owned()
    };
    let cmd = match word.as_str() {
        "maintenance" => match args {
            "on" => Ok(AdminCommand::Maintenance(Some(true))),
            "off" => Ok(AdminCommand::Maintenance(Some(false))),
            "" | "status" => Ok(AdminCommand::Maintenance(None)),
            _ => Err("/maintenance on|off|status"),
        },
        "withdrawals" => Ok(AdminCommand::Withdrawals),
        "sent" => id(it.next()).map(AdminCommand::Sent).ok_or("/sent <withdrawal_id>"),
        "fail" => match (id(it.next()), tail(1)) {
            (Some(w), reason) if !reason.is_empty() => Ok(AdminCommand::Fail(w, reason)),
            _ => Err("/fail <withdrawal_id> <reason>"),
        },
        "grant" => match (id(it.next()), it.next().and_then(Tokens::parse), tail(2)) {
            (Some(user_id), Some(amount), reason) if !reason.is_empty() && amount.0 != 0 => {
                Ok(AdminCommand::Grant { user_id, amount, reason })
            }
            _ => Err("/grant <telegram_id> <tokens> <reason>"),
        },
        "refund" => match (it.next(), it.next(), it.next()) {
            (Some(c), None, None) => Ok(AdminCommand::Refund { charge_id: c.to_owned(), force: false }),
            (Some(c), Some("force"), None) => Ok(AdminCommand::Refund { charge_id: c.to_owned(), force: true }),
            _ => Err("/refund <charge_id> [force]"),
        },
        "orphans" => Ok(AdminCommand::Orphans),
        "stats" => Ok(AdminCommand::Stats),
        "user" => id(it.next()).map(AdminCommand::User).ok_or("/user <telegram_id>"),
        "tickets" => Ok(AdminCommand::Tickets),
        "reply" => match (id(it.next()), tail(1)) {
            (Some(t), text) if !text.is_empty() => Ok(AdminCommand::Reply(t, text)),
            _ => Err("/reply <ticket_id> <text>"),
        },
        "close" => id(it.next()).map(AdminCommand::Close).ok_or("/close <ticket_id>"),
        _ => return None,
    };
    Some(cmd)
}

/// What an admin sees for a refusal (admins are trusted with the detail; internals stay in the log).
pub fn error_text(e: &DomainError) -> String {
    match e {
        e if e.is_internal() => "⚠️ Internal error (see the log)".into(),
        DomainError::TelegramUnavailable(why) => format!("⚠️ Telegram refused or did not answer: {why}"),
        DomainError::RefundRefused(why) => format!("⛔ Refund refused: {why}"),
        e => format!("⚠️ {} ({})", e.text(webapp_api::domain::lang::Lang::En), e.code()),
    }
}

/// Someone who is not an admin gets the ordinary help and nothing happens.
pub async fn not_admin(bot: &Bot, msg: &Message, domain: &Domain) -> HandlerResult {
    let from = msg.from.as_ref();
    let lang = users::language_or(domain, from.map(|u| u.id.0 as i64).unwrap_or(0), from.and_then(|u| u.language_code.as_deref())).await;
    bot.send_message(msg.chat.id, texts::help(lang)).await?;
    Ok(())
}

pub async fn command(bot: Bot, msg: Message, parsed: Result<AdminCommand, &'static str>, domain: Domain) -> HandlerResult {
    let Some(from) = msg.from.as_ref() else { return Ok(()) };
    let actor = Actor::Admin(from.id.0 as i64);
    if admin::ensure(&domain, actor).is_err() {
        return not_admin(&bot, &msg, &domain).await;
    }
    let chat = msg.chat.id;
    let cmd = match parsed {
        Ok(c) => c,
        Err(usage) => {
            bot.send_message(chat, format!("Usage: {usage}")).await?;
            return Ok(());
        }
    };
    let reply = match run(&bot, chat, &domain, actor, cmd).await {
        Ok(Some(text)) => text,
        Ok(None) => return Ok(()),
        Err(e) => error_text(&e),
    };
    send_long(&bot, chat, reply).await
}

/// Runs one command; answers the text to send (`None` when it already sent its own messages).
async fn run(bot: &Bot, chat: ChatId, domain: &Domain, actor: Actor, cmd: AdminCommand) -> Result<Option<String>, DomainError> {
    Ok(Some(match cmd {
        AdminCommand::Maintenance(Some(on)) => {
            admin::set_maintenance(domain, actor, on).await?;
            format!("🛠 Maintenance is {} (the mini app follows within a minute)", if on { "ON" } else { "off" })
        }
        AdminCommand::Maintenance(None) => {
            format!("🛠 Maintenance is {}", if admin::maintenance_status(domain, actor).await? { "ON" } else { "off" })
        }
        AdminCommand::Withdrawals => {
            let list = admin::pending_withdrawals(domain, actor).await?;
            if list.is_empty() {
                return Ok(Some("No pending withdrawals.".into()));
            }
            let total = list.len();
            for w in list.iter().take(20) {
                let kb = InlineKeyboardMarkup::new([[
                    InlineKeyboardButton::callback("✅ Sent", format!("wd:sent:{}", w.id)),
                    InlineKeyboardButton::callback("❌ Failed", format!("wd:fail:{}", w.id)),
                ]]);
                bot.send_message(chat, texts::admin::withdrawal(w)).reply_markup(kb).await.map_err(tg)?;
            }
            if total <= 20 {
                return Ok(None);
            }
            format!("… and {} more (resolve these first)", total - 20)
        }
        AdminCommand::Sent(id) => {
            admin::resolve_withdrawal(domain, actor, id, Resolution::Sent).await?;
            format!("✅ Withdrawal #{id} marked sent; the player is told.")
        }
        AdminCommand::Fail(id, reason) => {
            admin::resolve_withdrawal(domain, actor, id, Resolution::Failed { reason: reason.clone() }).await?;
            format!("❌ Withdrawal #{id} failed ({reason}); the item is available again and the player is told.")
        }
        AdminCommand::Grant { user_id, amount, reason } => {
            let balance = admin::grant(domain, actor, user_id, amount, &reason).await?;
            texts::admin::granted(user_id, amount, balance)
        }
        AdminCommand::Refund { charge_id, force } => match payments::refund(domain, actor, &charge_id, force).await? {
            Refunded::Reversed { user_id, transaction_id, stars, credited, taken } => {
                format!("↩️ Refunded {stars} ⭐ to user {user_id} (transaction {transaction_id}); {taken} of {credited} tokens taken back.")
            }
            Refunded::AlreadyRefunded { user_id } => format!("Already refunded (user {user_id}); nothing changed."),
            Refunded::Orphan { user_id, stars } => {
                format!("↩️ Orphan payment refunded: {stars} ⭐ to user {user_id}; nothing was credited.")
            }
        },
        AdminCommand::Orphans => {
            let list = payments::orphans(domain, actor).await?;
            if list.is_empty() {
                "No orphan payments.".into()
            } else {
                let lines: Vec<String> = list.iter().map(|(c, u, p, s)| format!("{s} ⭐ from {u}, payload {p:?}\n  /refund {c}")).collect();
                format!("Orphan payments:\n{}", lines.join("\n"))
            }
        }
        AdminCommand::Stats => texts::admin::stats(&admin::stats(domain, actor).await?),
        AdminCommand::User(id) => texts::admin::user(&admin::user_report(domain, actor, id).await?),
        AdminCommand::Tickets => {
            let list = tickets::open_tickets(domain, actor).await?;
            if list.is_empty() {
                "No open tickets.".into()
            } else {
                let lines: Vec<String> = list.iter().map(texts::admin::ticket_line).collect();
                format!("Open tickets (oldest first):\n{}", lines.join("\n"))
            }
        }
        AdminCommand::Reply(id, text) => {
            tickets::reply(domain, actor, id, &text).await?;
            format!("✅ Answer sent to ticket #{id}.")
        }
        AdminCommand::Close(id) => {
            tickets::close_by_admin(domain, actor, id).await?;
            format!("✅ Ticket #{id} closed; the player is told.")
        }
    }))
}

fn tg(e: teloxide::RequestError) -> DomainError {
    DomainError::TelegramUnavailable(e.to_string())
}

/// Telegram caps a message at 4096 characters.
async fn send_long(bot: &Bot, chat: ChatId, text: String) -> HandlerResult {
    let chars: Vec<char> = text.chars().collect();
    for part in chars.chunks(4000) {
        bot.send_message(chat, part.iter().collect::<String>()).await?;
    }
    Ok(())
}

/// The Sent / Failed buttons under a pending withdrawal.
pub async fn callback(bot: Bot, q: CallbackQuery, domain: Domain) -> HandlerResult {
    let actor = Actor::Admin(q.from.id.0 as i64);
    let data = q.data.as_deref().unwrap_or("");
    let chat = q.regular_message().map(|m| m.chat.id).unwrap_or(ChatId(q.from.id.0 as i64));
    if admin::ensure(&domain, actor).is_err() {
        bot.answer_callback_query(q.id.clone()).await?;
        return Ok(());
    }
    let (action, id) = match data.strip_prefix("wd:").and_then(|r| r.split_once(':')) {
        Some((a, id)) => (a, id.parse::<i64>().unwrap_or(0)),
        None => ("", 0),
    };
    match action {
        "sent" => {
            let text = match admin::resolve_withdrawal(&domain, actor, id, Resolution::Sent).await {
                Ok(()) => format!("✅ Withdrawal #{id} marked sent; the player is told."),
                Err(e) => error_text(&e),
            };
            bot.answer_callback_query(q.id.clone()).await?;
            bot.send_message(chat, text).await?;
        }
        "fail" => {
            bot.answer_callback_query(q.id.clone()).await?;
            let ask = ForceReply::new().input_field_placeholder(Some("Reason".to_owned()));
            bot.send_message(chat, texts::admin::fail_prompt(id)).reply_markup(ReplyMarkup::ForceReply(ask)).await?;
        }
        _ => {
            bot.answer_callback_query(q.id.clone()).await?;
        }
    }
    Ok(())
}

/// An admin's reply to the force-reply prompt of a failed withdrawal: the text is the reason.
pub async fn fail_reason(bot: Bot, msg: Message, withdrawal_id: i64, domain: Domain) -> HandlerResult {
    let (Some(from), Some(text)) = (msg.from.as_ref(), msg.text()) else { return Ok(()) };
    let actor = Actor::Admin(from.id.0 as i64);
    if admin::ensure(&domain, actor).is_err() {
        return not_admin(&bot, &msg, &domain).await;
    }
    let answer = match admin::resolve_withdrawal(&domain, actor, withdrawal_id, Resolution::Failed { reason: text.to_owned() }).await {
        Ok(()) => format!("❌ Withdrawal #{withdrawal_id} failed; the item is available again and the player is told."),
        Err(e) => error_text(&e),
    };
    bot.send_message(msg.chat.id, answer).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admin_commands_parse_with_their_arguments() {
        assert_eq!(parse("/maintenance on"), Some(Ok(AdminCommand::Maintenance(Some(true)))));
        assert_eq!(parse("/maintenance"), Some(Ok(AdminCommand::Maintenance(None))));
        assert_eq!(parse("/stats@fragbox_bot"), Some(Ok(AdminCommand::Stats)));
        assert_eq!(
            parse("/grant 42 12.5 contest winner"),
            Some(Ok(AdminCommand::Grant { user_id: 42, amount: Tokens(1250), reason: "contest winner".into() }))
        );
        assert_eq!(parse("/refund stxABC force"), Some(Ok(AdminCommand::Refund { charge_id: "stxABC".into(), force: true })));
        assert_eq!(parse("/reply 7 Hello\nsecond line"), Some(Ok(AdminCommand::Reply(7, "Hello\nsecond line".into()))));
        assert_eq!(parse("/fail 3 Inventory is private"), Some(Ok(AdminCommand::Fail(3, "Inventory is private".into()))));
    }

    #[test]
    fn bad_arguments_give_the_usage_and_other_commands_are_not_ours() {
        assert_eq!(parse("/grant 42 1.234 x"), Some(Err("/grant <telegram_id> <tokens> <reason>")));
        assert_eq!(parse("/grant 42 10"), Some(Err("/grant <telegram_id> <tokens> <reason>")));
        assert_eq!(parse("/refund"), Some(Err("/refund <charge_id> [force]")));
        assert_eq!(parse("/refund a b"), Some(Err("/refund <charge_id> [force]")));
        assert_eq!(parse("/maintenance maybe"), Some(Err("/maintenance on|off|status")));
        assert_eq!(parse("/start"), None);
        assert_eq!(parse("hello"), None);
    }

    #[test]
    fn a_fail_prompt_names_its_withdrawal() {
        assert_eq!(texts::admin::fail_prompt_id(&texts::admin::fail_prompt(12)), Some(12));
        assert_eq!(texts::admin::fail_prompt_id("Withdrawal #12"), None);
    }
}
