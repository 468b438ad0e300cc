//! The bot's endpoints: each translates an update into one domain call and a reply.
pub mod admin;
pub mod members;
pub mod payments;
pub mod start;
pub mod support;

use teloxide::types::User;
use webapp_api::domain::auth::TelegramUser;

/// What every endpoint of the dispatcher's tree (`crate::schema`) answers.
pub type HandlerResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// The domain's view of a Telegram user.
pub fn telegram_user(u: &User) -> TelegramUser {
    TelegramUser {
        id: u.id.0 as i64,
        first_name: u.first_name.clone(),
        last_name: u.last_name.clone(),
        username: u.username.clone(),
        language_code: u.language_code.clone(),
        photo_url: None,
    }
}
