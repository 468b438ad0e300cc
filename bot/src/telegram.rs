//! The domain's `Telegram` port, implemented with teloxide.
use teloxide::prelude::*;
use teloxide::types::{
    ChatId, InlineKeyboardButton, InlineKeyboardMarkup, InlineQueryResult, InlineQueryResultArticle, InputMessageContent,
    InputMessageContentText, LabeledPrice, Recipient, TelegramTransactionId, UserId, WebAppInfo,
};
use teloxide::{ApiError, RequestError};
use webapp_api::domain::telegram::{BoxFuture, Button, Invoice, SharedSkin, Telegram, TelegramError, TgResult};

pub struct TeloxideTelegram {
    pub bot: Bot,
}

/// Sorts teloxide's errors into the three kinds the rules care about.
pub fn classify(e: RequestError) -> TelegramError {
    match e {
        RequestError::Api(ApiError::BotBlocked | ApiError::UserDeactivated | ApiError::CantInitiateConversation) => {
            TelegramError::Blocked(e.to_string())
        }
        RequestError::Api(api) => TelegramError::Refused(api.to_string()),
        RequestError::MigrateToChatId(_) => TelegramError::Refused(e.to_string()),
        RequestError::RetryAfter(_) | RequestError::Network(_) | RequestError::InvalidJson { .. } | RequestError::Io(_) => {
            TelegramError::Unavailable(e.to_string())
        }
    }
}

pub fn markup(button: Button) -> Option<InlineKeyboardMarkup> {
    let b = match button {
        Button::Url { text, url } => InlineKeyboardButton::url(text, url.parse().ok()?),
        Button::WebApp { text, url } => InlineKeyboardButton::web_app(text, WebAppInfo { url: url.parse().ok()? }),
    };
    Some(InlineKeyboardMarkup::new([[b]]))
}

fn recipient(chat: &str) -> Recipient {
    match chat.parse::<i64>() {
        Ok(id) => Recipient::Id(ChatId(id)),
        Err(_) => Recipient::ChannelUsername(chat.to_owned()),
    }
}

impl Telegram for TeloxideTelegram {
    fn is_chat_member<'a>(&'a self, chat: &'a str, user_id: i64) -> BoxFuture<'a, TgResult<bool>> {
        Box::pin(async move {
            let member = self.bot.get_chat_member(recipient(chat), UserId(user_id as u64)).await.map_err(classify)?;
            Ok(member.kind.is_present())
        })
    }

    fn create_invoice_link(&self, invoice: Invoice) -> BoxFuture<'_, TgResult<String>> {
        Box::pin(async move {
            let price = LabeledPrice::new(invoice.label, u32::try_from(invoice.stars).unwrap_or(u32::MAX));
            self.bot.create_invoice_link(invoice.title, invoice.description, invoice.payload, "XTR", vec![price]).await.map_err(classify)
        })
    }

    fn save_prepared_inline_message(&self, skin: SharedSkin) -> BoxFuture<'_, TgResult<String>> {
        Box::pin(async move {
            let text = format!("{}\n{}", skin.title, skin.description);
            let mut article =
                InlineQueryResultArticle::new(skin.result_id, skin.title, InputMessageContent::Text(InputMessageContentText::new(text)))
                    .description(skin.description);
            if let Some(m) = markup(Button::Url { text: skin.button_text, url: skin.button_url }) {
                article = article.reply_markup(m);
            }
            if let Some(url) = skin.photo_url.and_then(|u| u.parse().ok()) {
                article = article.thumbnail_url(url);
            }
            let prepared = self
                .bot
                .save_prepared_inline_message(UserId(skin.user_id as u64), InlineQueryResult::Article(article))
                .allow_user_chats(true)
                .allow_group_chats(true)
                .allow_channel_chats(true)
                .await
                .map_err(classify)?;
            Ok(prepared.id)
        })
    }

    fn refund_star_payment<'a>(&'a self, user_id: i64, charge_id: &'a str) -> BoxFuture<'a, TgResult<()>> {
        Box::pin(async move {
            match self.bot.refund_star_payment(UserId(user_id as u64), TelegramTransactionId(charge_id.to_owned())).await {
                Ok(_) => Ok(()),
                Err(RequestError::Api(ApiError::Unknown(text))) if text.contains("CHARGE_ALREADY_REFUNDED") => Ok(()),
                Err(e) => Err(classify(e)),
            }
        })
    }

    fn send_message(&self, chat_id: i64, text: String, button: Option<Button>) -> BoxFuture<'_, TgResult<i32>> {
        Box::pin(async move {
            let mut req = self.bot.send_message(ChatId(chat_id), text);
            if let Some(m) = button.and_then(markup) {
                req = req.reply_markup(m);
            }
            Ok(req.await.map_err(classify)?.id.0)
        })
    }
}
