//! Membership from Telegram's own updates: a player joining the channel (`chat_member`, sent
//! while the bot is an administrator of `CHANNEL_ID`), and a player blocking or unblocking the
//! bot (`my_chat_member` of the private chat).
use teloxide::types::{Chat, ChatMemberKind, ChatMemberUpdated};
use webapp_api::domain::{notifications, rewards, Domain};

use crate::handlers::HandlerResult;

/// True when `chat` is the channel named by `CHANNEL_ID` (`@name`, compared without case, or a
/// numeric id such as `-100…`).
pub fn is_channel(chat: &Chat, channel_id: &str) -> bool {
    let channel_id = channel_id.trim();
    match channel_id.strip_prefix('@') {
        Some(name) => chat.username().is_some_and(|u| u.eq_ignore_ascii_case(name)),
        None => channel_id.parse::<i64>().is_ok_and(|id| id == chat.id.0),
    }
}

/// Someone's status in a chat of ours changed. In the channel, a player who is now in it gets
/// the subscribe task's reward (once; the domain decides). Leaving takes nothing back, so a
/// leave changes nothing.
pub async fn chat_member(update: ChatMemberUpdated, domain: Domain) -> HandlerResult {
    let Some(channel) = domain.config.channel_id.as_deref() else { return Ok(()) };
    if !is_channel(&update.chat, channel) || !update.new_chat_member.kind.is_present() {
        return Ok(());
    }
    let user_id = update.new_chat_member.user.id.0 as i64;
    match rewards::joined_channel(&domain, user_id).await? {
        Some(s) if s.tokens_awarded.0 > 0 => tracing::info!(user_id, "joined the channel: subscribe task paid"),
        Some(_) => tracing::debug!(user_id, "joined the channel: subscribe task was already paid"),
        None => tracing::debug!(user_id, "joined the channel: not a player yet"),
    }
    Ok(())
}

/// The bot's own status in a chat changed. In a private chat, `kicked` means the player blocked
/// the bot and `member` that they unblocked (or started) it; the outbox follows.
pub async fn my_chat_member(update: ChatMemberUpdated, domain: Domain) -> HandlerResult {
    if !update.chat.is_private() {
        return Ok(());
    }
    let user_id = update.chat.id.0;
    let blocked = match update.new_chat_member.kind {
        ChatMemberKind::Banned(_) => true,
        ChatMemberKind::Member(_) => false,
        _ => return Ok(()),
    };
    notifications::set_bot_blocked(&domain, user_id, blocked).await?;
    tracing::info!(user_id, blocked, "the player changed the bot's status in their chat");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(id: i64, username: Option<&str>) -> Chat {
        let v = serde_json::json!({"id": id, "type": "channel", "title": "News", "username": username});
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn the_channel_is_matched_by_its_name_or_its_id() {
        let chat = channel(-1001234, Some("FragBox_News"));
        assert!(is_channel(&chat, "@fragbox_news"));
        assert!(is_channel(&chat, "-1001234"));
        assert!(!is_channel(&chat, "@other"));
        assert!(!is_channel(&chat, "-1009999"));
        assert!(!is_channel(&channel(-1001234, None), "@fragbox_news"));
    }
}
