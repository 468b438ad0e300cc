//! The dispatcher's tree. Payment branches come first and stay outside any dialogue
//! (pre-checkout queries have no chat, and a payment must never be dropped).
use teloxide::dispatching::{HandlerExt, UpdateHandler};
use teloxide::prelude::*;
use teloxide::utils::command::BotCommands;

use crate::handlers;

pub type HandlerResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

#[derive(BotCommands, Clone, Debug)]
#[command(rename_rule = "lowercase")]
pub enum Command {
    Start(String),
    Help,
    Paysupport,
    Language,
}

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
}
