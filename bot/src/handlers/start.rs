//! `/start` with its deep links, `/help`, `/language`, and the language buttons.
use std::sync::Arc;

use teloxide::prelude::*;
use teloxide::types::{InlineKeyboardButton, InlineKeyboardMarkup};
use teloxide::utils::command::BotCommands;
use webapp_api::domain::lang::Lang;
use webapp_api::domain::telegram::Button;
use webapp_api::domain::{inventory, registration, tickets, users, Domain};

use crate::config::Config;
use crate::handlers::{telegram_user, HandlerResult};
use crate::telegram::markup;
use crate::texts;

/// The players' slash commands.
#[derive(BotCommands, Clone, Debug)]
#[command(rename_rule = "lowercase")]
pub enum Command {
    Start(String),
    Help,
    Paysupport,
    Language,
}

/// `item_{id}_ref{code}`: the skin id and the sharer's referral code of a shared-skin link
/// (the code is empty when the link lacks it: such a card is not shown).
fn shared_item(payload: &str) -> Option<(i64, &str)> {
    let rest = payload.strip_prefix("item_")?;
    let (id, code) = rest.split_once("_ref").unwrap_or((rest, ""));
    Some((id.parse().ok()?, code))
}

/// "AK-47 | Redline" from the catalog's names in the reader's language ("Karambit" alone for a
/// vanilla knife).
fn skin_label(name: &str, variant: &str) -> String {
    if variant.is_empty() {
        name.to_owned()
    } else {
        format!("{name} | {variant}")
    }
}

fn valid_payload(p: &str) -> bool {
    p.len() <= 64 && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

pub async fn command(bot: Bot, msg: Message, cmd: Command, domain: Domain, config: Arc<Config>) -> HandlerResult {
    let Some(from) = msg.from.as_ref() else { return Ok(()) };
    let user = telegram_user(from);
    match cmd {
        Command::Start(payload) => {
            let payload = payload.trim();
            let payload = (!payload.is_empty() && valid_payload(payload)).then_some(payload);
            registration::register(&domain, &user, payload).await?;
            let lang = users::language(&domain, user.id).await;
            if let Some((item_id, code)) = payload.and_then(shared_item) {
                let (text, url) = match inventory::public(&domain, item_id, code, lang).await {
                    Ok(item) => (
                        texts::skin_card(
                            lang,
                            &skin_label(&item.name, &item.variant),
                            &item.condition,
                            &item.token_price.to_string(),
                            &item.owner,
                        ),
                        format!("{}/skin/{item_id}?ref={code}", config.webapp_url().trim_end_matches('/')),
                    ),
                    Err(_) => (texts::skin_missing(lang).to_owned(), config.webapp_url()),
                };
                send(&bot, msg.chat.id, text, Button::WebApp { text: texts::open_skin(lang).into(), url }).await?;
                return Ok(());
            }
            let button = Button::WebApp { text: texts::open_app(lang).into(), url: config.webapp_url() };
            send(&bot, msg.chat.id, texts::greeting(lang, &user.first_name), button).await?;
        }
        Command::Help => {
            let lang = users::language_or(&domain, user.id, user.language_code.as_deref()).await;
            let mut text = texts::help(lang).to_owned();
            // The admin list only in the admin's own chat, where admin commands act.
            if domain.config.is_admin(user.id) && msg.chat.id.0 == user.id {
                text.push_str(&texts::admin::help(lang));
            }
            bot.send_message(msg.chat.id, text).await?;
        }
        Command::Paysupport => {
            registration::register(&domain, &user, None).await?;
            let lang = users::language(&domain, user.id).await;
            let (ticket_id, opened_now) = tickets::open_payment_help(&domain, user.id).await?;
            bot.send_message(msg.chat.id, texts::paysupport(lang, ticket_id, opened_now)).await?;
        }
        Command::Language => {
            registration::register(&domain, &user, None).await?;
            let lang = users::language(&domain, user.id).await;
            let kb = InlineKeyboardMarkup::new([[
                InlineKeyboardButton::callback("Русский", "lang:ru"),
                InlineKeyboardButton::callback("English", "lang:en"),
            ]]);
            bot.send_message(msg.chat.id, texts::language_prompt(lang)).reply_markup(kb).await?;
        }
    }
    Ok(())
}

/// Any other private text: the help, so nobody talks to a wall.
pub async fn anything_else(bot: Bot, msg: Message, domain: Domain) -> HandlerResult {
    let Some(from) = msg.from.as_ref() else { return Ok(()) };
    let lang = users::language_or(&domain, from.id.0 as i64, from.language_code.as_deref()).await;
    bot.send_message(msg.chat.id, texts::help(lang)).await?;
    Ok(())
}

async fn send(bot: &Bot, chat: ChatId, text: String, button: Button) -> HandlerResult {
    let mut req = bot.send_message(chat, text);
    if let Some(m) = markup(button) {
        req = req.reply_markup(m);
    }
    req.await?;
    Ok(())
}

pub async fn callback(bot: Bot, q: CallbackQuery, domain: Domain) -> HandlerResult {
    let data = q.data.as_deref().unwrap_or("");
    if let Some(code) = data.strip_prefix("lang:") {
        let user = telegram_user(&q.from);
        registration::register(&domain, &user, None).await?;
        users::set_language(&domain, user.id, code).await?;
        let lang = Lang::parse(code).unwrap_or(Lang::En);
        bot.answer_callback_query(q.id.clone()).text(texts::language_set(lang)).await?;
        if let Some(m) = q.regular_message() {
            bot.send_message(m.chat.id, texts::language_set(lang)).await?;
        }
        return Ok(());
    }
    bot.answer_callback_query(q.id.clone()).await?;
    Ok(())
}
