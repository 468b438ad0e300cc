use crate::domain::lang::Lang;
use crate::domain::Tokens;

pub type DomainResult<T> = Result<T, DomainError>;

/// Every refusal the rules can give, with a stable machine code.
#[derive(Debug, thiserror::Error)]
pub enum DomainError {
    #[error("bad request: {0}")]
    BadRequest(String),
    #[error("unauthorized")]
    Unauthorized,
    #[error("invalid init data: {0}")]
    InvalidInitData(&'static str),
    #[error("init data expired")]
    InitDataExpired,
    #[error("forbidden")]
    Forbidden,
    #[error("wrong password")]
    WrongPassword,
    #[error("dev gate required")]
    DevGateRequired,
    #[error("not found")]
    NotFound,
    #[error("case not found")]
    CaseNotFound,
    #[error("item not found")]
    ItemNotFound,
    #[error("ticket not found")]
    TicketNotFound,
    #[error("transaction not found")]
    TransactionNotFound,
    #[error("pack not found")]
    PackNotFound,
    #[error("insufficient tokens")]
    InsufficientTokens,
    #[error("item not available")]
    ItemNotAvailable,
    #[error("already claimed")]
    AlreadyClaimed,
    #[error("bonus not available")]
    BonusNotAvailable,
    #[error("ticket closed")]
    TicketClosed,
    #[error("too many open tickets")]
    TooManyOpenTickets,
    #[error("invalid trade url")]
    InvalidTradeUrl,
    #[error("invalid client seed")]
    InvalidClientSeed,
    #[error("invalid language")]
    InvalidLanguage,
    #[error("empty message")]
    EmptyMessage,
    #[error("item required")]
    ItemRequired,
    #[error("invalid theme")]
    InvalidTheme,
    #[error("too long: {0}")]
    TooLong(&'static str),
    #[error("share unavailable")]
    ShareUnavailable,
    #[error("rate limited, retry after {0}s")]
    RateLimited(u64),
    #[error("telegram unavailable: {0}")]
    TelegramUnavailable(String),
    #[error("subscription check failed: {0}")]
    SubscriptionCheckFailed(String),
    #[error("maintenance")]
    Maintenance,
    #[error("refund refused: {0}")]
    RefundRefused(String),
    #[error("debt outstanding: {0}")]
    DebtOutstanding(Tokens),
    #[error("deposit required: {stars_left} of {min_stars} stars to go")]
    DepositRequired { min_stars: i64, stars_left: i64 },
    /// A withdrawal of a skin won with bonus tokens while only paid value may leave.
    #[error("a skin won with bonus tokens cannot be withdrawn")]
    BonusItem,
    /// No such promo code (or a disabled one, which answers the same).
    #[error("promo code not found")]
    PromoNotFound,
    #[error("promo code expired")]
    PromoExpired,
    #[error("promo code used up")]
    PromoExhausted,
    #[error("promo code already redeemed")]
    PromoAlreadyRedeemed,
    /// A deposit-only code for a player without a successful Stars payment.
    #[error("promo code needs a deposit")]
    PromoDepositRequired,
    /// An admin created a code that exists.
    #[error("promo code exists")]
    PromoExists,
    /// An admin gave a code outside 3-32 of `[A-Za-z0-9_-]`.
    #[error("invalid promo code")]
    InvalidPromoCode,
    /// The player excluded themselves: until `until` (unix seconds), or for good (`None`).
    #[error("self-excluded")]
    SelfExcluded { until: Option<i64> },
    /// A self-exclusion that would end before the running one.
    #[error("a longer self-exclusion is running")]
    SelfExclusionActive { until: Option<i64> },
    /// The open would take the day's spending (UTC day) over the player's own limit.
    #[error("daily spend limit: {spent} of {limit} spent")]
    SpendLimit { limit: Tokens, spent: Tokens, resets_at: i64 },
    #[error("invalid limit")]
    InvalidLimit,
    /// An operator tried to resolve a withdrawal by hand while a market purchase for it is live.
    #[error("a market purchase of this withdrawal is in progress")]
    PurchaseLive,
    /// The client's address holds as many feed streams as it may (`feed::Limits::per_address`).
    #[error("too many feed streams from this address")]
    TooManyStreams,
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("internal: {0}")]
    Internal(String),
}

impl DomainError {
    pub fn code(&self) -> &'static str {
        use DomainError::*;
        match self {
            BadRequest(_) => "bad_request",
            Unauthorized => "unauthorized",
            InvalidInitData(_) => "invalid_init_data",
            InitDataExpired => "init_data_expired",
            Forbidden => "forbidden",
            WrongPassword => "wrong_password",
            DevGateRequired => "dev_gate_required",
            NotFound => "not_found",
            CaseNotFound => "case_not_found",
            ItemNotFound => "item_not_found",
            TicketNotFound => "ticket_not_found",
            TransactionNotFound => "transaction_not_found",
            PackNotFound => "pack_not_found",
            InsufficientTokens => "insufficient_tokens",
            ItemNotAvailable => "item_not_available",
            AlreadyClaimed => "already_claimed",
            BonusNotAvailable => "bonus_not_available",
            TicketClosed => "ticket_closed",
            TooManyOpenTickets => "too_many_tickets",
            InvalidTradeUrl => "invalid_trade_url",
            InvalidClientSeed => "invalid_client_seed",
            InvalidLanguage => "invalid_language",
            EmptyMessage => "empty_message",
            ItemRequired => "item_required",
            InvalidTheme => "invalid_theme",
            TooLong(_) => "too_long",
            ShareUnavailable => "share_unavailable",
            RateLimited(_) => "rate_limited",
            TelegramUnavailable(_) => "telegram_unavailable",
            SubscriptionCheckFailed(_) => "subscription_check_failed",
            Maintenance => "maintenance",
            RefundRefused(_) => "refund_refused",
            DebtOutstanding(_) => "debt_outstanding",
            DepositRequired { .. } => "deposit_required",
            BonusItem => "bonus_item",
            PromoNotFound => "promo_not_found",
            PromoExpired => "promo_expired",
            PromoExhausted => "promo_exhausted",
            PromoAlreadyRedeemed => "promo_already_redeemed",
            PromoDepositRequired => "deposit_required",
            PromoExists => "promo_exists",
            InvalidPromoCode => "invalid_promo_code",
            SelfExcluded { .. } => "self_excluded",
            SelfExclusionActive { .. } => "self_exclusion_active",
            SpendLimit { .. } => "spend_limit",
            InvalidLimit => "invalid_limit",
            PurchaseLive => "purchase_live",
            TooManyStreams => "too_many_streams",
            Database(_) | Internal(_) => "internal",
        }
    }

    /// True for failures whose cause is ours, not the caller's: logged, never shown in detail.
    pub fn is_internal(&self) -> bool {
        matches!(self, DomainError::Database(_) | DomainError::Internal(_))
    }

    /// The human text for a player, in their language.
    pub fn text(&self, lang: Lang) -> String {
        use DomainError::*;
        let ru = lang == Lang::Ru;
        let s = match self {
            BadRequest(detail) => {
                return if ru { format!("Неверный запрос: {detail}") } else { format!("Bad request: {detail}") }
            }
            TooLong(field) => {
                return if ru { format!("Слишком длинный текст: {field}") } else { format!("Text is too long: {field}") }
            }
            RateLimited(secs) => {
                return if ru {
                    format!("Слишком много запросов. Попробуйте через {secs} с")
                } else {
                    format!("Too many requests. Try again in {secs} s")
                }
            }
            Unauthorized => ("Нужно войти заново", "Please sign in again"),
            InvalidInitData(_) => ("Не удалось проверить данные Telegram", "Telegram sign-in data could not be verified"),
            InitDataExpired => ("Сессия устарела. Откройте приложение заново", "Session expired. Please reopen the app"),
            Forbidden => ("Доступ запрещён", "Access denied"),
            WrongPassword => ("Неверный пароль", "Wrong password"),
            DevGateRequired => ("Сначала введите пароль доступа", "Enter the access password first"),
            NotFound => ("Не найдено", "Not found"),
            CaseNotFound => ("Кейс не найден", "Case not found"),
            ItemNotFound => ("Предмет не найден", "Item not found"),
            TicketNotFound => ("Тикет не найден", "Ticket not found"),
            TransactionNotFound => ("Платёж не найден", "Transaction not found"),
            PackNotFound => ("Пакет не найден", "Package not found"),
            InsufficientTokens => ("Недостаточно токенов", "Not enough tokens"),
            ItemNotAvailable => ("Предмет недоступен для этого действия", "This item is not available for that"),
            AlreadyClaimed => ("Награда уже получена сегодня", "Reward already claimed today"),
            BonusNotAvailable => ("Бонус серии недоступен", "Streak bonus is not available"),
            TicketClosed => ("Тикет закрыт", "The ticket is closed"),
            TooManyOpenTickets => (
                "Слишком много открытых тикетов. Закройте решённые или дождитесь ответа",
                "Too many open tickets. Close the solved ones or wait for an answer",
            ),
            InvalidTradeUrl => (
                "Неверная трейд-ссылка. Формат: https://steamcommunity.com/tradeoffer/new/?partner=...&token=...",
                "Invalid trade link. Format: https://steamcommunity.com/tradeoffer/new/?partner=...&token=...",
            ),
            InvalidClientSeed => ("Сид: от 1 до 64 символов A-Z, a-z, 0-9, _ или -", "Seed: 1 to 64 characters A-Z, a-z, 0-9, _ or -"),
            InvalidLanguage => ("Язык: ru или en", "Language must be ru or en"),
            EmptyMessage => ("Пожалуйста, заполните сообщение", "Please enter a message"),
            ItemRequired => ("Пожалуйста, выберите предмет", "Please choose an item"),
            InvalidTheme => ("Неизвестная тема обращения", "Unknown ticket topic"),
            ShareUnavailable => ("Этим предметом нельзя поделиться", "This item cannot be shared"),
            TelegramUnavailable(_) => ("Telegram не отвечает. Попробуйте позже", "Telegram is not answering. Try again later"),
            SubscriptionCheckFailed(_) => {
                ("Не удалось проверить подписку. Попробуйте позже", "Could not check the subscription. Try again later")
            }
            Maintenance => ("Технические работы. Сервис временно недоступен", "Maintenance. The service is temporarily unavailable"),
            RefundRefused(why) => return format!("refund refused: {why}"),
            DebtOutstanding(debt) => {
                return if ru {
                    format!("Вывод недоступен: после возврата платежа осталось {debt} токенов долга. Его погасят следующие начисления")
                } else {
                    format!("Withdrawals are locked: {debt} tokens are owed after a refunded payment. Your next credits repay it first")
                }
            }
            BonusItem => (
                "Этот скин выигран на бонусные токены: его можно оставить или продать, но не вывести. Скины с кейсов, открытых на купленные токены, выводятся",
                "This skin was won with bonus tokens: you can keep or sell it, not withdraw it. Skins from cases opened with bought tokens can be withdrawn",
            ),
            PurchaseLive => (
                "По этому выводу идёт покупка на маркете: дождитесь её итога",
                "A market purchase of this withdrawal is in progress: wait for its outcome",
            ),
            TooManyStreams => (
                "С вашего адреса открыто слишком много лент дропов. Попробуйте позже",
                "Too many live feeds are open from your address. Try again later",
            ),
            DepositRequired { min_stars, stars_left } => {
                return if ru {
                    format!(
                        "Вывод открывается после покупок на {min_stars} ⭐ (осталось {stars_left} ⭐). Пополните баланс в разделе пакетов"
                    )
                } else {
                    format!("Withdrawals unlock after {min_stars} ⭐ of purchases ({stars_left} ⭐ to go). Top up from the packages")
                }
            }
            PromoNotFound => ("Такого промокода нет", "There is no such promo code"),
            PromoExpired => ("Срок действия промокода истёк", "This promo code has expired"),
            PromoExhausted => ("Промокод уже использовали максимальное число раз", "This promo code has been used up"),
            PromoAlreadyRedeemed => ("Вы уже активировали этот промокод", "You have already redeemed this promo code"),
            PromoDepositRequired => (
                "Этот промокод — для игроков, которые уже пополняли баланс звёздами",
                "This promo code is for players who have topped up with Stars",
            ),
            PromoExists => ("Такой промокод уже есть", "This promo code already exists"),
            InvalidPromoCode => ("Промокод: от 3 до 32 символов A-Z, a-z, 0-9, _ или -", "Promo code: 3 to 32 characters A-Z, a-z, 0-9, _ or -"),
            SelfExcluded { until } | SelfExclusionActive { until } => {
                let head = match (self, ru) {
                    (SelfExcluded { .. }, true) => "Вы взяли паузу от игры",
                    (SelfExcluded { .. }, false) => "You are taking a break from play",
                    (_, true) => "Уже идёт более долгая пауза: её нельзя сократить",
                    (_, false) => "A longer break is already running: it cannot be shortened",
                };
                return match (until, ru) {
                    (Some(t), true) => format!("{head} до {} UTC", crate::domain::clock::rfc3339(*t).replace('T', " ").trim_end_matches('Z')),
                    (Some(t), false) => format!("{head} until {} UTC", crate::domain::clock::rfc3339(*t).replace('T', " ").trim_end_matches('Z')),
                    (None, true) => format!("{head} бессрочно"),
                    (None, false) => format!("{head} for good"),
                };
            }
            SpendLimit { limit, spent, .. } => {
                // What is left today, in tokens; the mini app says the reset in local time.
                let left = Tokens((limit.0 - spent.0).max(0));
                return if ru {
                    format!("Дневной лимит трат: потрачено {spent} из {limit} токенов, на сегодня осталось {left}. Лимит обновится в 00:00 UTC")
                } else {
                    format!("Daily spend limit: {spent} of {limit} tokens spent, {left} left today. It resets at 00:00 UTC")
                }
            }
            InvalidLimit => ("Лимит: целое число токенов от 1 или без лимита", "Limit: a whole number of tokens from 1, or no limit"),
            Database(_) | Internal(_) => ("Произошла ошибка на сервере", "Something went wrong on our side"),
        };
        if ru {
            s.0.to_string()
        } else {
            s.1.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_messages_that_name_the_currency_call_it_tokens_in_both_languages() {
        let money = [
            DomainError::DebtOutstanding(Tokens(12_345)),
            DomainError::BonusItem,
            DomainError::SpendLimit { limit: Tokens(50_000), spent: Tokens(45_000), resets_at: 0 },
            DomainError::InvalidLimit,
        ];
        for e in &money {
            for lang in [Lang::Ru, Lang::En] {
                let text = e.text(lang).to_lowercase();
                assert!(text.contains("токен") || text.contains("token"), "{text}");
                assert!(!text.contains(concat!("fr", "ag")) && !text.contains(concat!("фр", "аг")), "{text}");
            }
        }
    }

    #[test]
    fn a_spend_limit_refusal_says_what_is_left_today() {
        let e = DomainError::SpendLimit { limit: Tokens(50_000), spent: Tokens(45_000), resets_at: 0 };
        assert!(e.text(Lang::En).contains("50 left today"), "{}", e.text(Lang::En));
        assert!(e.text(Lang::Ru).contains("осталось 50"), "{}", e.text(Lang::Ru));
    }
}
