//! Admin commands and buttons. They act only for a sender in `ADMIN_IDS`, in that admin's
//! private chat with the bot, on a message that is not forwarded and whose `@mention`, if any,
//! names this bot; anything else is ignored without a word (a player in their own chat gets the
//! ordinary help). Texts follow the admin's language.
use teloxide::prelude::*;
use teloxide::types::{ForceReply, InlineKeyboardButton, InlineKeyboardMarkup, ReplyMarkup};
use webapp_api::domain::admin::{self, Actor};
use webapp_api::domain::lang::Lang;
use webapp_api::domain::payments::{self, Refunded};
use webapp_api::domain::promo::{self, NewPromo};
use webapp_api::domain::responsible;
use webapp_api::domain::tickets;
use webapp_api::domain::withdrawals::{self, Resolution};
use webapp_api::domain::{users, Domain, DomainError, Tokens};

use crate::handlers::HandlerResult;
use crate::texts;

/// A parsed admin command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdminCommand {
    /// `None`: status.
    Maintenance(Option<bool>),
    Withdrawals,
    Sent(i64),
    /// Withdrawal id, reason code, optional note.
    Fail(i64, String, Option<String>),
    /// `/grant <id> <tokens> [paid] <reason>`: bonus tokens, or with `paid`, compensation
    /// that counts as paid.
    Grant {
        user_id: i64,
        amount: Tokens,
        paid: bool,
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
    /// `/promo create <code> <tokens> <uses> [days] [deposit]`.
    PromoCreate(NewPromo),
    /// `/promo` or `/promo list`.
    PromoList,
    /// `/promo disable <code>`.
    PromoDisable(String),
}

/// The usage line of `/promo`.
pub const PROMO_USAGE: &str = "/promo create <code> <tokens> <uses> [days] [deposit] | /promo list | /promo disable <code>";

/// `/promo …`'s arguments.
fn parse_promo(args: &str) -> Result<AdminCommand, &'static str> {
    let words: Vec<&str> = args.split_whitespace().collect();
    match words.as_slice() {
        [] | ["list"] => Ok(AdminCommand::PromoList),
        ["disable", code] => Ok(AdminCommand::PromoDisable((*code).to_owned())),
        ["create", code, tokens, uses, rest @ ..] => {
            let tokens = Tokens::parse(tokens).filter(|t| t.0 > 0).ok_or(PROMO_USAGE)?;
            let uses = uses.parse::<i64>().ok().filter(|u| *u > 0).ok_or(PROMO_USAGE)?;
            let (mut days, mut deposit_only) = (None, false);
            for w in rest {
                match (*w, w.parse::<i64>()) {
                    ("deposit" | "deposit-only" | "--deposit-only", _) if !deposit_only => deposit_only = true,
                    (_, Ok(d)) if d > 0 && days.is_none() => days = Some(d),
                    _ => return Err(PROMO_USAGE),
                }
            }
            Ok(AdminCommand::PromoCreate(NewPromo { code: (*code).to_owned(), tokens, uses, days, deposit_only }))
        }
        _ => Err(PROMO_USAGE),
    }
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
        "fail" => match (id(it.next()), withdrawals::parse_failure(&tail(1))) {
            (Some(w), Some((code, note))) => Ok(AdminCommand::Fail(w, code, note)),
            _ => Err("/fail <withdrawal_id> <code> [note]"),
        },
        "grant" => {
            let (user_id, amount) = (id(it.next()), it.next().and_then(Tokens::parse));
            let paid = it.next() == Some("paid");
            let reason = tail(if paid { 3 } else { 2 });
            match (user_id, amount) {
                (Some(user_id), Some(amount)) if !reason.is_empty() && amount.0 != 0 => {
                    Ok(AdminCommand::Grant { user_id, amount, paid, reason })
                }
                _ => Err("/grant <telegram_id> <tokens> [paid] <reason>"),
            }
        }
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
        "promo" => parse_promo(args),
        _ => return None,
    };
    Some(cmd)
}

/// The `@name` a command is addressed to, if any (`/stats@fragbox_bot` → `fragbox_bot`).
pub fn command_mention(text: &str) -> Option<&str> {
    let word = text.trim_start().strip_prefix('/')?.split(char::is_whitespace).next()?;
    word.split_once('@').map(|(_, name)| name)
}

/// True when a message may carry an admin's command: their private chat with the bot, not
/// forwarded, and addressed to this bot if addressed at all.
pub fn admin_context(msg: &Message, bot_username: &str) -> bool {
    let Some(from) = msg.from.as_ref() else { return false };
    let mention_ok = msg.text().and_then(command_mention).is_none_or(|name| name.eq_ignore_ascii_case(bot_username));
    msg.chat.is_private()
        && msg.chat.id.0 == from.id.0 as i64
        && msg.forward_origin().is_none()
        && !msg.is_automatic_forward()
        && msg.via_bot.is_none()
        && mention_ok
}

/// The admin's language: their stored choice, else their Telegram language (English when
/// nothing is known: the operators' console spoke English before it spoke both).
pub async fn admin_lang(domain: &Domain, user: &teloxide::types::User) -> Lang {
    match users::known_language(domain, user.id.0 as i64).await {
        Some(lang) => lang,
        None if user.language_code.is_some() => Lang::from_telegram_code(user.language_code.as_deref()),
        None => Lang::En,
    }
}

/// `admin_lang` for an admin known by id only (notes the bot sends on its own).
pub async fn admin_lang_by_id(domain: &Domain, admin_id: i64) -> Lang {
    users::known_language(domain, admin_id).await.unwrap_or(Lang::En)
}

/// What an admin sees for a refusal (admins are trusted with the detail; internals stay in the log).
pub fn error_text(lang: Lang, e: &DomainError) -> String {
    match e {
        e if e.is_internal() => texts::admin::internal_error(lang),
        DomainError::TelegramUnavailable(why) => texts::admin::telegram_refused(lang, why),
        DomainError::RefundRefused(why) => texts::admin::refund_refused(lang, why),
        e => format!("⚠️ {} ({})", e.text(lang), e.code()),
    }
}

/// Someone who is not an admin gets the ordinary help and nothing happens — in their own
/// private chat only; elsewhere nothing at all.
pub async fn not_admin(bot: &Bot, msg: &Message, domain: &Domain) -> HandlerResult {
    let from = msg.from.as_ref();
    let own_chat = msg.chat.is_private() && from.is_some_and(|u| u.id.0 as i64 == msg.chat.id.0) && msg.forward_origin().is_none();
    if !own_chat {
        return Ok(());
    }
    let lang = users::language_or(domain, from.map(|u| u.id.0 as i64).unwrap_or(0), from.and_then(|u| u.language_code.as_deref())).await;
    bot.send_message(msg.chat.id, texts::help(lang)).await?;
    Ok(())
}

pub async fn command(
    bot: Bot,
    update: teloxide::types::Update,
    msg: Message,
    parsed: Result<AdminCommand, &'static str>,
    domain: Domain,
) -> HandlerResult {
    let Some(from) = msg.from.as_ref() else { return Ok(()) };
    let actor = Actor::Admin(from.id.0 as i64);
    if admin::ensure(&domain, actor).is_err() {
        return not_admin(&bot, &msg, &domain).await;
    }
    if !admin_context(&msg, &domain.config.bot_username) {
        tracing::warn!(admin = from.id.0, chat = msg.chat.id.0, "admin command outside the admin's private chat ignored");
        return Ok(());
    }
    let lang = admin_lang(&domain, from).await;
    let chat = msg.chat.id;
    let cmd = match parsed {
        Ok(c) => c,
        Err(usage) => {
            bot.send_message(chat, texts::admin::usage(lang, usage)).await?;
            return Ok(());
        }
    };
    // A replayed update grants once, however it came back (a webhook retry, another replica).
    let once = format!("update:{}", update.id.0);
    let reply = match run(&bot, chat, &domain, actor, lang, cmd, once).await {
        Ok(Some(text)) => text,
        Ok(None) => return Ok(()),
        Err(e) => error_text(lang, &e),
    };
    send_long(&bot, chat, reply).await
}

/// Runs one command; answers the text to send (`None` when it already sent its own messages).
async fn run(
    bot: &Bot,
    chat: ChatId,
    domain: &Domain,
    actor: Actor,
    lang: Lang,
    cmd: AdminCommand,
    once: String,
) -> Result<Option<String>, DomainError> {
    use texts::admin as t;
    Ok(Some(match cmd {
        AdminCommand::Maintenance(Some(on)) => {
            admin::set_maintenance(domain, actor, on).await?;
            t::maintenance_set(lang, on)
        }
        AdminCommand::Maintenance(None) => t::maintenance_status(lang, admin::maintenance_status(domain, actor).await?),
        AdminCommand::Withdrawals => {
            let list = admin::pending_withdrawals(domain, actor).await?;
            if list.is_empty() {
                return Ok(Some(t::no_withdrawals(lang)));
            }
            let total = list.len();
            for w in list.iter().take(20) {
                // Buttons only where an operator may act: not while a purchase is live, not once delivered.
                let actionable = w.market.as_ref().is_none_or(|m| !m.live && m.state != "settling");
                let request = bot.send_message(chat, t::withdrawal(lang, w));
                if actionable {
                    let kb = InlineKeyboardMarkup::new([[
                        InlineKeyboardButton::callback(t::sent_button(lang), format!("wd:sent:{}", w.id)),
                        InlineKeyboardButton::callback(t::failed_button(lang), format!("wd:fail:{}", w.id)),
                    ]]);
                    request.reply_markup(kb).await.map_err(tg)?;
                } else {
                    request.await.map_err(tg)?;
                }
            }
            if total <= 20 {
                return Ok(None);
            }
            t::more_withdrawals(lang, total - 20)
        }
        AdminCommand::Sent(id) => {
            admin::resolve_withdrawal(domain, actor, id, Resolution::Sent).await?;
            t::marked_sent(lang, id)
        }
        AdminCommand::Fail(id, code, note) => {
            admin::resolve_withdrawal(domain, actor, id, Resolution::Failed { code: code.clone(), note: note.clone() }).await?;
            t::marked_failed(lang, id, &code, note.as_deref())
        }
        AdminCommand::Grant { user_id, amount, paid, reason } => {
            let balance = admin::grant(domain, actor, user_id, amount, &reason, paid, Some(once)).await?;
            t::granted(lang, user_id, amount, balance)
        }
        AdminCommand::Refund { charge_id, force } => refund_text(lang, payments::refund(domain, actor, &charge_id, force).await?),
        AdminCommand::Orphans => {
            let list = payments::orphans(domain, actor).await?;
            if list.is_empty() {
                t::no_orphans(lang)
            } else {
                t::orphans(lang, &list)
            }
        }
        AdminCommand::Stats => t::stats(lang, &admin::stats(domain, actor).await?),
        AdminCommand::User(id) => {
            let report = t::user(lang, &admin::user_report(domain, actor, id).await?);
            // The player's own limits, so support knows why opens or purchases are refused.
            report + &t::user_play(lang, id, &responsible::limits(domain, id).await?)
        }
        AdminCommand::Tickets => {
            let list = tickets::open_tickets(domain, actor).await?;
            if list.is_empty() {
                t::no_tickets(lang)
            } else {
                let lines: Vec<String> = list.iter().map(t::ticket_line).collect();
                t::tickets(lang, &lines)
            }
        }
        AdminCommand::Reply(id, text) => {
            tickets::reply(domain, actor, id, &text).await?;
            t::ticket_answered(lang, id)
        }
        AdminCommand::Close(id) => {
            tickets::close(domain, tickets::Closer::Support(actor), id).await?;
            t::ticket_closed(lang, id)
        }
        AdminCommand::PromoCreate(new) => t::promo_created(lang, &promo::create(domain, actor, new).await?, domain.now()),
        AdminCommand::PromoList => t::promo_list(lang, &promo::list(domain, actor).await?, domain.now()),
        AdminCommand::PromoDisable(code) => t::promo_disabled(lang, &promo::disable(domain, actor, &code).await?),
    }))
}

/// What a refund did, for an admin.
pub fn refund_text(lang: Lang, r: Refunded) -> String {
    match r {
        Refunded::Reversed { user_id, transaction_id, stars, credited, taken, revoked, revoked_value, debt } => {
            texts::admin::refunded(lang, stars, user_id, &transaction_id, credited, taken, &revoked, revoked_value, debt)
        }
        Refunded::AlreadyRefunded { user_id } => texts::admin::already_refunded(lang, user_id),
        Refunded::Orphan { user_id, stars } => texts::admin::orphan_refunded(lang, stars, user_id),
    }
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

/// The Sent / Failed buttons under a pending withdrawal: only an admin's press on a message in
/// their own private chat with the bot does anything.
pub async fn callback(bot: Bot, q: CallbackQuery, domain: Domain) -> HandlerResult {
    let actor = Actor::Admin(q.from.id.0 as i64);
    let data = q.data.as_deref().unwrap_or("");
    let own_chat = q.regular_message().is_some_and(|m| m.chat.is_private() && m.chat.id.0 == q.from.id.0 as i64);
    if admin::ensure(&domain, actor).is_err() || !own_chat {
        bot.answer_callback_query(q.id.clone()).await?;
        return Ok(());
    }
    let chat = ChatId(q.from.id.0 as i64);
    let lang = admin_lang(&domain, &q.from).await;
    let (action, id) = match data.strip_prefix("wd:").and_then(|r| r.split_once(':')) {
        Some((a, id)) => (a, id.parse::<i64>().unwrap_or(0)),
        None => ("", 0),
    };
    match action {
        "sent" => {
            let text = match admin::resolve_withdrawal(&domain, actor, id, Resolution::Sent).await {
                Ok(()) => texts::admin::marked_sent(lang, id),
                Err(e) => error_text(lang, &e),
            };
            bot.answer_callback_query(q.id.clone()).await?;
            bot.send_message(chat, text).await?;
        }
        "fail" => {
            bot.answer_callback_query(q.id.clone()).await?;
            let ask = ForceReply::new().input_field_placeholder(Some(texts::admin::reason_placeholder(lang)));
            bot.send_message(chat, texts::admin::fail_prompt(lang, id)).reply_markup(ReplyMarkup::ForceReply(ask)).await?;
        }
        _ => {
            bot.answer_callback_query(q.id.clone()).await?;
        }
    }
    Ok(())
}

/// An admin's reply to the force-reply prompt of a failed withdrawal: `<code> [note]`, or a
/// note alone (code `other`).
pub async fn fail_reason(bot: Bot, msg: Message, withdrawal_id: i64, domain: Domain) -> HandlerResult {
    let (Some(from), Some(text)) = (msg.from.as_ref(), msg.text()) else { return Ok(()) };
    let actor = Actor::Admin(from.id.0 as i64);
    if admin::ensure(&domain, actor).is_err() {
        return not_admin(&bot, &msg, &domain).await;
    }
    if !admin_context(&msg, &domain.config.bot_username) {
        return Ok(());
    }
    let lang = admin_lang(&domain, from).await;
    let Some((code, note)) = withdrawals::parse_failure(text) else { return Ok(()) };
    let resolution = Resolution::Failed { code: code.clone(), note: note.clone() };
    let answer = match admin::resolve_withdrawal(&domain, actor, withdrawal_id, resolution).await {
        Ok(()) => texts::admin::marked_failed(lang, withdrawal_id, &code, note.as_deref()),
        Err(e) => error_text(lang, &e),
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
            Some(Ok(AdminCommand::Grant { user_id: 42, amount: Tokens(1250), paid: false, reason: "contest winner".into() }))
        );
        assert_eq!(parse("/refund stxABC force"), Some(Ok(AdminCommand::Refund { charge_id: "stxABC".into(), force: true })));
        assert_eq!(parse("/reply 7 Hello\nsecond line"), Some(Ok(AdminCommand::Reply(7, "Hello\nsecond line".into()))));
        assert_eq!(
            parse("/fail 3 Inventory is private"),
            Some(Ok(AdminCommand::Fail(3, "other".into(), Some("Inventory is private".into()))))
        );
        assert_eq!(parse("/fail 3 inventory_private"), Some(Ok(AdminCommand::Fail(3, "inventory_private".into(), None))));
        assert_eq!(
            parse("/fail 3 trade_restricted 7 days"),
            Some(Ok(AdminCommand::Fail(3, "trade_restricted".into(), Some("7 days".into()))))
        );
    }

    #[test]
    fn bad_arguments_give_the_usage_and_other_commands_are_not_ours() {
        assert_eq!(parse("/grant 42 1.234 x"), Some(Err("/grant <telegram_id> <tokens> [paid] <reason>")));
        assert_eq!(parse("/grant 42 10"), Some(Err("/grant <telegram_id> <tokens> [paid] <reason>")));
        assert_eq!(
            parse("/grant 42 10 paid refund for a lost skin"),
            Some(Ok(AdminCommand::Grant { user_id: 42, amount: Tokens(1000), paid: true, reason: "refund for a lost skin".into() }))
        );
        assert_eq!(parse("/refund"), Some(Err("/refund <charge_id> [force]")));
        assert_eq!(parse("/refund a b"), Some(Err("/refund <charge_id> [force]")));
        assert_eq!(parse("/maintenance maybe"), Some(Err("/maintenance on|off|status")));
        assert_eq!(parse("/start"), None);
        assert_eq!(parse("hello"), None);
    }

    #[test]
    fn promo_commands_parse_with_their_arguments() {
        assert_eq!(parse("/promo"), Some(Ok(AdminCommand::PromoList)));
        assert_eq!(parse("/promo list"), Some(Ok(AdminCommand::PromoList)));
        assert_eq!(parse("/promo disable stream24"), Some(Ok(AdminCommand::PromoDisable("stream24".into()))));
        assert_eq!(
            parse("/promo create STREAM24 50 100 7 deposit"),
            Some(Ok(AdminCommand::PromoCreate(NewPromo {
                code: "STREAM24".into(),
                tokens: Tokens::whole(50),
                uses: 100,
                days: Some(7),
                deposit_only: true
            })))
        );
        assert_eq!(
            parse("/promo create abc 2.5 1"),
            Some(Ok(AdminCommand::PromoCreate(NewPromo {
                code: "abc".into(),
                tokens: Tokens(250),
                uses: 1,
                days: None,
                deposit_only: false
            })))
        );
        assert_eq!(parse("/promo create abc 0 1"), Some(Err(PROMO_USAGE)));
        assert_eq!(parse("/promo create abc 5 x"), Some(Err(PROMO_USAGE)));
        assert_eq!(parse("/promo create abc 5 1 7 7"), Some(Err(PROMO_USAGE)));
        assert_eq!(parse("/promo delete abc"), Some(Err(PROMO_USAGE)));
    }

    #[test]
    fn a_fail_prompt_names_its_withdrawal_in_either_language() {
        assert_eq!(texts::admin::fail_prompt_id(&texts::admin::fail_prompt(Lang::En, 12)), Some(12));
        assert_eq!(texts::admin::fail_prompt_id(&texts::admin::fail_prompt(Lang::Ru, 13)), Some(13));
        assert_eq!(texts::admin::fail_prompt_id("Withdrawal #12"), None);
    }

    #[test]
    fn a_command_mention_is_read_from_the_command_word() {
        assert_eq!(command_mention("/grant@other_bot 1 2 x"), Some("other_bot"));
        assert_eq!(command_mention("/stats"), None);
        assert_eq!(command_mention("hello @x"), None);
    }
}
