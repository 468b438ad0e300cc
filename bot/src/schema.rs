//! The dispatcher's tree. Payment branches come first and stay outside any dialogue
//! (pre-checkout queries have no chat, and a payment must never be dropped).
//!
//! The tree depends on the handlers, never the other way round: what handlers share (their
//! result type, the player commands they parse) lives in `handlers`.
use teloxide::dispatching::{HandlerExt, UpdateHandler};
use teloxide::prelude::*;
use teloxide::types::AllowedUpdate;

use crate::handlers;
use crate::handlers::start::Command;

/// Every update type the tree below handles: asked for in `setWebhook` and `getUpdates`
/// (Telegram sends `chat_member` only when it is named).
pub const ALLOWED_UPDATES: [AllowedUpdate; 5] = [
    AllowedUpdate::Message,
    AllowedUpdate::CallbackQuery,
    AllowedUpdate::PreCheckoutQuery,
    AllowedUpdate::ChatMember,
    AllowedUpdate::MyChatMember,
];

pub fn schema() -> UpdateHandler<Box<dyn std::error::Error + Send + Sync>> {
    let messages = Update::filter_message()
        .branch(Message::filter_successful_payment().endpoint(handlers::payments::successful))
        .branch(dptree::filter_map(handlers::payments::refunded_payment).endpoint(handlers::payments::refunded))
        .branch(dptree::entry().filter_command::<Command>().endpoint(handlers::start::command))
        .branch(dptree::filter_map(|msg: Message| msg.text().and_then(handlers::admin::parse)).endpoint(handlers::admin::command))
        .branch(
            dptree::filter_map(|msg: Message| msg.reply_to_message()?.text().and_then(crate::texts::admin::fail_prompt_id))
                .filter(|msg: Message| msg.text().is_some())
                .endpoint(handlers::admin::fail_reason),
        )
        .branch(
            dptree::filter(|msg: Message| msg.reply_to_message().is_some() && msg.text().is_some())
                .endpoint(handlers::support::answer_forward),
        )
        .branch(dptree::filter(|msg: Message| msg.chat.is_private() && msg.text().is_some()).endpoint(handlers::start::anything_else));
    let callbacks = Update::filter_callback_query()
        .branch(
            dptree::filter(|q: CallbackQuery| q.data.as_deref().is_some_and(|d| d.starts_with("wd:"))).endpoint(handlers::admin::callback),
        )
        .branch(dptree::endpoint(handlers::start::callback));
    dptree::entry()
        .branch(Update::filter_pre_checkout_query().endpoint(handlers::payments::pre_checkout))
        .branch(messages)
        .branch(callbacks)
        .branch(Update::filter_chat_member().endpoint(handlers::members::chat_member))
        .branch(Update::filter_my_chat_member().endpoint(handlers::members::my_chat_member))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_update_type_the_tree_handles_is_asked_for() {
        // teloxide keeps the tree's update kinds to itself; its description's Debug lists them
        // as `observed: {Kind(Message), Kind(ChatMember), ...}`.
        let description = format!("{:?}", schema().description());
        let observed = description.split("observed: {").nth(1).and_then(|s| s.split('}').next()).unwrap_or_default();
        let mut handled: Vec<String> = observed.split("Kind(").skip(1).filter_map(|s| s.split(')').next()).map(str::to_owned).collect();
        handled.sort();
        handled.dedup();
        let mut asked: Vec<String> = ALLOWED_UPDATES.iter().map(|k| format!("{k:?}")).collect();
        asked.sort();
        assert_eq!(handled, asked, "{description}");
    }
}
