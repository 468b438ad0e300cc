//! Support tickets (see the bot issue).
