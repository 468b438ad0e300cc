//! What a player is told in the chat (`Notice`, queued through `outbox::tell_player` in the write
//! that causes it, rendered in their language by the bot), and whether they blocked the bot.
use serde::{Deserialize, Serialize};

use crate::domain::lang::Lang;
use crate::domain::store::query;
use crate::domain::{Domain, DomainResult};

/// A skin's name as each language reads it, kept in notices the bot renders later; notices
/// queued before names were localised carry the Steam name alone, which reads the same in both.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum SkinName {
    Both { en: String, ru: String },
    Steam(String),
}

impl SkinName {
    pub fn read(&self, lang: Lang) -> &str {
        match (self, lang) {
            (SkinName::Both { ru, .. }, Lang::Ru) => ru,
            (SkinName::Both { en, .. }, _) => en,
            (SkinName::Steam(name), _) => name,
        }
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Notice {
    WithdrawalSent {
        item: String,
    },
    /// `code` is one of `withdrawals::REASON_CODES` (absent in notices queued before codes
    /// existed: their `reason` is the whole text); `reason` is the operator's optional note.
    WithdrawalFailed {
        item: String,
        #[serde(default)]
        code: Option<String>,
        #[serde(default)]
        reason: Option<String>,
    },
    /// The market's seller sent the Steam trade offer of an automatic withdrawal: the player
    /// accepts it in Steam (their trade offers page).
    WithdrawalOfferSent {
        item: String,
        #[serde(default)]
        trade_id: Option<String>,
    },
    /// The player accepted the market seller's trade offer: the skin is in their Steam inventory.
    WithdrawalDelivered {
        item: String,
    },
    /// A refund of the purchase the skin was won with cancelled its withdrawal.
    WithdrawalCancelled {
        item: SkinName,
    },
    PurchaseCredited {
        tokens: String,
        stars: i64,
    },
    /// `tokens` came off the balance; `items` were taken back; `debt` is what later credits repay first.
    PurchaseRefunded {
        tokens: String,
        stars: i64,
        #[serde(default)]
        items: Vec<SkinName>,
        #[serde(default)]
        debt: Option<String>,
    },
    SupportReply {
        ticket_id: i64,
        message: String,
    },
    TicketClosed {
        ticket_id: i64,
    },
    ReferralReward {
        tokens: String,
        friend: String,
    },
}

impl Notice {
    /// The notice's kind as the outbox keeps it beside the notice.
    pub fn kind(&self) -> &'static str {
        match self {
            Notice::WithdrawalSent { .. } => "withdrawal_sent",
            Notice::WithdrawalFailed { .. } => "withdrawal_failed",
            Notice::WithdrawalCancelled { .. } => "withdrawal_cancelled",
            Notice::WithdrawalOfferSent { .. } => "withdrawal_offer_sent",
            Notice::WithdrawalDelivered { .. } => "withdrawal_delivered",
            Notice::PurchaseCredited { .. } => "purchase_credited",
            Notice::PurchaseRefunded { .. } => "purchase_refunded",
            Notice::SupportReply { .. } => "support_reply",
            Notice::TicketClosed { .. } => "ticket_closed",
            Notice::ReferralReward { .. } => "referral_reward",
        }
    }
}

/// The player blocked the bot (a send was refused, or Telegram told us): the outbox stops
/// writing to them.
pub async fn mark_user_blocked(domain: &Domain, user_id: i64) -> DomainResult<()> {
    set_bot_blocked(domain, user_id, true).await
}

/// Telegram's word (a `my_chat_member` update of the private chat) that the player blocked or
/// unblocked the bot. Unblocked, their waiting messages go out again.
pub async fn set_bot_blocked(domain: &Domain, user_id: i64, blocked: bool) -> DomainResult<()> {
    let sql = if blocked {
        "UPDATE users SET bot_blocked = 1, updated_at = $1 WHERE id = $2"
    } else {
        "UPDATE users SET bot_blocked = 0, updated_at = $1 WHERE id = $2"
    };
    domain.execute(query(sql).bind(domain.now()).bind(user_id)).await?;
    Ok(())
}
