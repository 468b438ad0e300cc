//! The port through which the rules reach Telegram. The bot crate implements it with teloxide;
//! demo mode has an in-process implementation. Never called inside a database transaction.
use std::future::Future;
use std::pin::Pin;

/// What the port's calls answer: a boxed future, so `Telegram` stays usable as `dyn Telegram`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TelegramError {
    /// No answer, a timeout, a 5xx or a flood wait: worth retrying.
    Unavailable(String),
    /// Telegram answered with a refusal (its description).
    Refused(String),
    /// The user blocked the bot or deleted their account: give up.
    Blocked(String),
}

impl std::fmt::Display for TelegramError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TelegramError::Unavailable(s) => write!(f, "unavailable: {s}"),
            TelegramError::Refused(s) => write!(f, "refused: {s}"),
            TelegramError::Blocked(s) => write!(f, "blocked: {s}"),
        }
    }
}

pub type TgResult<T> = Result<T, TelegramError>;

#[derive(Clone, Debug)]
pub struct Invoice {
    pub title: String,
    pub description: String,
    pub payload: String,
    pub label: String,
    pub stars: i64,
}

/// A skin card a player can share through `shareMessage`.
#[derive(Clone, Debug)]
pub struct SharedSkin {
    pub user_id: i64,
    pub result_id: String,
    pub title: String,
    pub description: String,
    pub photo_url: Option<String>,
    pub button_text: String,
    pub button_url: String,
}

/// An inline button under a chat message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Button {
    Url { text: String, url: String },
    WebApp { text: String, url: String },
}

pub trait Telegram: Send + Sync {
    /// True when the user is in the chat (member, administrator, creator, or restricted but a member).
    fn is_chat_member<'a>(&'a self, chat: &'a str, user_id: i64) -> BoxFuture<'a, TgResult<bool>>;
    fn create_invoice_link(&self, invoice: Invoice) -> BoxFuture<'_, TgResult<String>>;
    fn save_prepared_inline_message(&self, skin: SharedSkin) -> BoxFuture<'_, TgResult<String>>;
    /// `CHARGE_ALREADY_REFUNDED` counts as success.
    fn refund_star_payment<'a>(&'a self, user_id: i64, charge_id: &'a str) -> BoxFuture<'a, TgResult<()>>;
    /// Sends a chat message; answers its message id.
    fn send_message(&self, chat_id: i64, text: String, button: Option<Button>) -> BoxFuture<'_, TgResult<i32>>;
}
