//! The dispatcher's tree. Payment branches stay outside any dialogue (pre-checkout queries have no chat).
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
    let commands = Update::filter_message().filter_command::<Command>().endpoint(handlers::start::command);
    dptree::entry()
        .branch(commands)
        .branch(Update::filter_callback_query().endpoint(handlers::start::callback))
}
