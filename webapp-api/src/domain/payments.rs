//! Telegram Stars purchases of token packages (see the bot issue).
