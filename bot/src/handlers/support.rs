//! Support in the chat: an admin's reply to a forwarded ticket answers it; a player's reply to
//! support's answer goes into their ticket.
//! (`/reply`, `/close` and `/tickets` are admin commands; `/paysupport` lives with `/start`.)
use teloxide::prelude::*;
use webapp_api::domain::admin::{self, Actor};
use webapp_api::domain::{tickets, users, Domain, DomainError};

use crate::handlers::admin::{admin_context, admin_lang, error_text, not_admin};
use crate::handlers::HandlerResult;
use crate::texts;

/// An admin's reply to one of the bot's messages in their chat: if it is a forwarded ticket,
/// the text is stored as support's answer and sent to the player.
pub async fn answer_forward(bot: Bot, msg: Message, domain: Domain) -> HandlerResult {
    let (Some(from), Some(replied), Some(text)) = (msg.from.as_ref(), msg.reply_to_message(), msg.text()) else { return Ok(()) };
    let actor = Actor::Admin(from.id.0 as i64);
    if admin::ensure(&domain, actor).is_err() {
        if !msg.chat.is_private() {
            return Ok(());
        }
        return player_reply(&bot, &msg, &domain, from.id.0 as i64, replied.id.0, text).await;
    }
    // An admin's reply answers a ticket only in their own private chat, never forwarded.
    if !admin_context(&msg, &domain.config.bot_username) {
        return Ok(());
    }
    let lang = admin_lang(&domain, from).await;
    let answer = match tickets::reply_to_forward(&domain, actor, msg.chat.id.0, replied.id.0, text).await {
        Ok(ticket_id) => texts::admin::ticket_answered(lang, ticket_id),
        Err(DomainError::TicketNotFound) => texts::admin::not_a_forward(lang),
        Err(e) => error_text(lang, &e),
    };
    bot.send_message(msg.chat.id, answer).await?;
    Ok(())
}

/// A player's reply to one of support's answers: stored in that ticket (and forwarded to the
/// admins); any other reply gets the ordinary help.
async fn player_reply(bot: &Bot, msg: &Message, domain: &Domain, user_id: i64, replied: i32, text: &str) -> HandlerResult {
    let lang = users::language(domain, user_id).await;
    let answer = match tickets::reply_from_chat(domain, user_id, replied, text).await {
        Ok((ticket_id, _)) => texts::sent_to_ticket(lang, ticket_id),
        Err(DomainError::TicketNotFound) => return not_admin(bot, msg, domain).await,
        Err(e) => e.text(lang),
    };
    bot.send_message(msg.chat.id, answer).await?;
    Ok(())
}
