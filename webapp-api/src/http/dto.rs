//! Shapes shared by several areas of `routes`: the error and success envelopes, paging, and the
//! bodies more than one area answers (a skin, the profile). A leaf beside `error`, so the areas
//! need nothing of each other.
//!
//! Each body is at once what a handler writes and its schema in the OpenAPI document: a struct
//! deriving `Serialize` and `ToSchema`, built from domain types (which do not serialise).
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::domain::inventory::Item;
use crate::domain::rewards;
use crate::domain::users::Profile;
use crate::domain::{DomainError, Tokens};
use crate::http::error::ApiError;

/// Every refusal: `{"success":false,"error","message","code"}`; `code` is from the registry in
/// docs/api.md.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    pub success: bool,
    /// The human text, in the request's `Accept-Language` (ru or en).
    pub error: String,
    /// The same text.
    pub message: String,
    /// The stable machine code.
    pub code: String,
    /// `self_excluded`, `self_exclusion_active`: the end of the break (RFC 3339), null when permanent.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable)]
    pub until: Option<String>,
    /// `self_excluded`, `self_exclusion_active`: the break has no end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub permanent: Option<bool>,
    /// `spend_limit`: the daily limit in tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<f64>,
    /// `spend_limit`: tokens already spent on opens today (UTC day).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spent: Option<f64>,
    /// `spend_limit`: when the day's spending starts from zero again (RFC 3339).
    #[serde(rename = "resetsAt", skip_serializing_if = "Option::is_none")]
    pub resets_at: Option<String>,
}

/// `{"data": …}`, serialised straight from the data's type: no JSON value tree built and then
/// written (a tenth of the server's time on the inventory under load went to that tree).
#[derive(Serialize, ToSchema)]
pub struct Data<T> {
    pub data: T,
}

/// `{"status": "success", "data": …}` (the profile's envelope), written the same way.
#[derive(Serialize, ToSchema)]
pub struct Success<T> {
    /// Always `success`.
    #[schema(value_type = String)]
    pub status: &'static str,
    pub data: T,
}

impl<T> Success<T> {
    pub fn new(data: T) -> Success<T> {
        Success { status: "success", data }
    }
}

/// `{"success": true, "data": …}`: most areas' envelope.
#[derive(Serialize, ToSchema)]
pub struct Answer<T> {
    pub success: bool,
    pub data: T,
}

impl<T> Answer<T> {
    pub fn new(data: T) -> Answer<T> {
        Answer { success: true, data }
    }
}

/// `{"success": true}`.
#[derive(Serialize, ToSchema)]
pub struct Ok {
    pub success: bool,
}

impl Ok {
    pub const YES: Ok = Ok { success: true };
}

/// A skin of the player's inventory, as `GET /user/items` lists it and every answer that shows
/// one of the player's skins (an open, a withdrawal, the best drop).
#[derive(Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemBody {
    pub id: i64,
    pub weapon_id: String,
    pub name: String,
    pub variant: String,
    pub icon_url: String,
    pub market_hash_name: String,
    /// Tokens (decimal, at most 2 places).
    #[schema(value_type = f64)]
    pub token_price: Tokens,
    pub rarity: String,
    pub condition: String,
    /// `received`, `pending`, `sent`, `error`, `sold` or `revoked`.
    pub status: String,
    /// Why a withdrawal failed (status `error`).
    pub status_reason_code: Option<String>,
    /// The operator's optional note with that code.
    pub status_reason: Option<String>,
    pub owner: String,
    pub case_id: Option<String>,
    /// RFC 3339.
    pub opened_at: String,
    /// The drawn float; null for a vanilla ★ knife and for skins from before real goods.
    pub float: Option<f64>,
    /// Steam's exterior name (`Field-Tested`); null as for `float`.
    pub exterior: Option<String>,
    pub stat_trak: bool,
    /// A ★ knife or gloves.
    pub special: bool,
    /// The skin's float range (for the wear bar); null for a vanilla knife or an old skin.
    pub wear_min: Option<f64>,
    pub wear_max: Option<f64>,
    /// False for a skin won with bonus tokens while only paid value may leave.
    pub withdrawable: bool,
    /// Automatic delivery of its latest withdrawal: `queued`, `buying`, `bought`, `offer_sent`,
    /// `settling`, `settled`, `bounced`, `reversed`, `player_reversed`, `manual`; null for a
    /// manual withdrawal or none.
    pub delivery_state: Option<String>,
}

impl From<Item> for ItemBody {
    fn from(i: Item) -> ItemBody {
        ItemBody {
            id: i.id,
            weapon_id: i.weapon_id,
            name: i.name,
            variant: i.variant,
            icon_url: i.icon_url,
            market_hash_name: i.market_hash_name,
            token_price: i.token_price,
            rarity: i.rarity,
            condition: i.condition,
            status: i.status,
            status_reason_code: i.status_reason_code,
            status_reason: i.status_reason,
            owner: i.owner,
            case_id: i.case_id,
            opened_at: i.opened_at,
            float: i.float,
            exterior: i.exterior,
            stat_trak: i.stat_trak,
            special: i.special,
            wear_min: i.wear_min,
            wear_max: i.wear_max,
            withdrawable: i.withdrawable,
            delivery_state: i.delivery_state,
        }
    }
}

/// Tokens just credited (a daily reward, a streak bonus, a promo code) and the balance after.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Awarded {
    #[schema(value_type = f64)]
    pub tokens_awarded: Tokens,
    #[schema(value_type = f64)]
    pub balance: Tokens,
}

impl From<rewards::Awarded> for Awarded {
    fn from(a: rewards::Awarded) -> Awarded {
        Awarded { tokens_awarded: a.tokens_awarded, balance: a.balance }
    }
}

/// The signed-in player's profile (`GET /me`, sign-in).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileBody {
    pub telegram_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub username: Option<String>,
    pub avatar_url: Option<String>,
    /// Tokens (decimal, at most 2 places).
    #[schema(value_type = f64)]
    pub balance: Tokens,
    /// The player's referral code.
    #[serde(rename = "ref")]
    pub ref_code: String,
    pub tg_subscribed: bool,
    pub case_opened: bool,
    #[serde(rename = "trade_url")]
    pub trade_url: Option<String>,
    /// `ru` or `en`.
    #[schema(value_type = String)]
    pub language: &'static str,
    pub is_admin: bool,
    pub demo: bool,
    /// Owed after a refunded purchase; later credits repay it first (0 when none).
    #[schema(value_type = f64)]
    pub debt: Tokens,
    /// The part of `balance` that came free: skins won with it can be kept and sold, not withdrawn.
    #[schema(value_type = f64)]
    pub bonus_balance: Tokens,
    /// False while a debt is open or the paid-deposit rule is not met yet.
    pub withdrawals_unlocked: bool,
    /// Stars of purchases still needed before withdrawals unlock (0 when met or off).
    pub stars_to_unlock_withdrawals: i64,
}

impl From<Profile> for ProfileBody {
    fn from(p: Profile) -> ProfileBody {
        ProfileBody {
            telegram_id: p.telegram_id,
            first_name: p.first_name,
            last_name: p.last_name,
            username: p.username,
            avatar_url: p.avatar_url,
            balance: p.balance,
            ref_code: p.ref_code,
            tg_subscribed: p.tg_subscribed,
            case_opened: p.case_opened,
            trade_url: p.trade_url,
            language: p.language,
            is_admin: p.is_admin,
            demo: p.demo,
            debt: p.debt,
            bonus_balance: p.bonus_balance,
            withdrawals_unlocked: p.withdrawals_unlocked,
            stars_to_unlock_withdrawals: p.stars_to_unlock_withdrawals,
        }
    }
}

/// `?page=`: one page of a list.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// From 1 to 1000000 (default 1).
    #[param(minimum = 1, maximum = 1000000)]
    pub page: Option<i64>,
}

impl PageQuery {
    /// The page asked for, or `bad_request` past the documented range.
    pub fn page(&self) -> Result<i64, ApiError> {
        match self.page {
            None => Ok(1),
            Some(p) if (1..=1_000_000).contains(&p) => Ok(p),
            Some(_) => Err(DomainError::BadRequest("page: 1 to 1000000".into()).into()),
        }
    }
}
