//! Everything the bot says, in Russian and English.
pub use webapp_api::domain::lang::Lang;
use webapp_api::domain::notifications::Notice;

/// The admin command list, shown in the menu of `ADMIN_IDS` chats only (admin texts are English).
pub const ADMIN_COMMANDS: &[(&str, &str)] = &[
    ("tickets", "Open support tickets"),
    ("reply", "<ticket id> <text>: answer a ticket"),
    ("close", "<ticket id>: close a ticket"),
    ("withdrawals", "Pending withdrawals"),
    ("sent", "<id>: withdrawal sent"),
    ("fail", "<id> <reason>: withdrawal failed"),
    ("grant", "<telegram id> <tokens> <reason>"),
    ("refund", "<charge id> [force]"),
    ("orphans", "Payments that matched nothing"),
    ("stats", "Users, opens, tokens, Stars, RTP"),
    ("user", "<telegram id>: balance, items, ledger"),
    ("maintenance", "on | off | status"),
];

pub fn commands(lang: Lang) -> Vec<(&'static str, &'static str)> {
    match lang {
        Lang::Ru => {
            vec![("start", "Открыть FragBox"), ("help", "Помощь"), ("paysupport", "Помощь с оплатой"), ("language", "Сменить язык")]
        }
        Lang::En => {
            vec![("start", "Open FragBox"), ("help", "Help"), ("paysupport", "Help with a payment"), ("language", "Change language")]
        }
    }
}

pub fn greeting(lang: Lang, name: &str) -> String {
    match lang {
        Lang::Ru => format!(
            "Привет, {name}! 🎁\n\nFragBox — кейсы со скинами CS2 прямо в Telegram. Открывайте кейсы за фраги, продавайте скины или выводите их в Steam, получайте ежедневные награды и приглашайте друзей.\n\nНажмите кнопку ниже, чтобы начать."
        ),
        Lang::En => format!(
            "Hi, {name}! 🎁\n\nFragBox is CS2 skin cases right inside Telegram. Open cases for frags, sell skins or withdraw them to Steam, collect daily rewards and invite friends.\n\nTap the button below to start."
        ),
    }
}

pub fn sent_to_ticket(lang: Lang, ticket_id: i64) -> String {
    match lang {
        Lang::Ru => format!("✉️ Отправлено в поддержку (тикет #{ticket_id})."),
        Lang::En => format!("✉️ Sent to support (ticket #{ticket_id})."),
    }
}

pub fn open_app(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => "Открыть FragBox",
        Lang::En => "Open FragBox",
    }
}

pub fn open_skin(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => "Посмотреть скин",
        Lang::En => "View the skin",
    }
}

pub fn skin_card(lang: Lang, name: &str, condition: &str, price: &str, owner: &str) -> String {
    match lang {
        Lang::Ru => format!("🔫 {name}\nСостояние: {condition}\nЦена: {price} фрагов\nВладелец: {owner}"),
        Lang::En => format!("🔫 {name}\nCondition: {condition}\nPrice: {price} frags\nOwner: {owner}"),
    }
}

pub fn skin_missing(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => "Этот скин больше не доступен, но в FragBox много других.",
        Lang::En => "That skin is no longer available, but FragBox has plenty more.",
    }
}

pub fn help(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => "FragBox: откройте приложение кнопкой меню.\n\n/start — открыть FragBox\n/paysupport — помощь с оплатой звёздами\n/language — сменить язык\n\nВопросы — в разделе «Поддержка» в профиле приложения.",
        Lang::En => "FragBox: open the app with the menu button.\n\n/start — open FragBox\n/paysupport — help with a Stars payment\n/language — change language\n\nQuestions go to Support in the app's profile.",
    }
}

pub fn language_prompt(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => "Выберите язык:",
        Lang::En => "Choose a language:",
    }
}

pub fn language_set(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => "Язык: русский",
        Lang::En => "Language: English",
    }
}

/// The chat message for an outbox notice.
pub fn notice(lang: Lang, notice: &Notice) -> String {
    let ru = lang == Lang::Ru;
    match notice {
        Notice::WithdrawalSent { item } => {
            if ru {
                format!("✅ {item} отправлен. Примите обмен в Steam.")
            } else {
                format!("✅ {item} has been sent. Accept the trade offer in Steam.")
            }
        }
        Notice::WithdrawalFailed { item, reason } => {
            if ru {
                format!("⚠️ Не удалось отправить {item}: {reason}\nПредмет снова доступен в инвентаре.")
            } else {
                format!("⚠️ Could not send {item}: {reason}\nThe item is available in your inventory again.")
            }
        }
        Notice::PurchaseCredited { tokens, stars } => {
            if ru {
                format!("💎 Оплата {stars} ⭐ получена: +{tokens} фрагов.")
            } else {
                format!("💎 Payment of {stars} ⭐ received: +{tokens} frags.")
            }
        }
        Notice::PurchaseRefunded { tokens, stars } => {
            if ru {
                format!("↩️ Возврат {stars} ⭐ выполнен, списано {tokens} фрагов.")
            } else {
                format!("↩️ {stars} ⭐ refunded; {tokens} frags were taken back.")
            }
        }
        Notice::SupportReply { ticket_id, message } => {
            if ru {
                format!("💬 Поддержка, тикет #{ticket_id}:\n{message}")
            } else {
                format!("💬 Support, ticket #{ticket_id}:\n{message}")
            }
        }
        Notice::TicketClosed { ticket_id } => {
            if ru {
                format!("Тикет #{ticket_id} закрыт.")
            } else {
                format!("Ticket #{ticket_id} is closed.")
            }
        }
        Notice::ReferralReward { tokens, friend } => {
            if ru {
                format!("🎉 {friend} открыл первый кейс: +{tokens} фрагов!")
            } else {
                format!("🎉 {friend} opened a first case: +{tokens} frags!")
            }
        }
    }
}

/// Why Telegram's payment sheet stops (shown by Telegram to the payer).
pub fn checkout_refused(lang: Lang, refusal: Option<webapp_api::domain::payments::CheckoutRefusal>) -> &'static str {
    use webapp_api::domain::payments::CheckoutRefusal::*;
    match (lang, refusal) {
        (Lang::Ru, Some(Unknown)) => "Этот счёт не найден. Откройте покупку заново в приложении.",
        (Lang::En, Some(Unknown)) => "This invoice was not found. Start the purchase again in the app.",
        (Lang::Ru, Some(NotPending)) => "Этот счёт уже оплачен или устарел. Откройте покупку заново в приложении.",
        (Lang::En, Some(NotPending)) => "This invoice is already paid or expired. Start the purchase again in the app.",
        (Lang::Ru, Some(Mismatch)) => "Сумма счёта не совпадает с пакетом. Откройте покупку заново в приложении.",
        (Lang::En, Some(Mismatch)) => "The invoice amount does not match the pack. Start the purchase again in the app.",
        (Lang::Ru, None) => "Не удалось проверить платёж. Попробуйте через минуту.",
        (Lang::En, None) => "The payment could not be checked. Try again in a minute.",
    }
}

/// A payment that matched no purchase (kept for support).
pub fn payment_unmatched(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => "Оплата получена, но мы не смогли сопоставить её с покупкой. Поддержка разберётся и зачислит фраги или вернёт звёзды. Команда /paysupport — если нужна помощь.",
        Lang::En => "Your payment arrived but could not be matched to a purchase. Support will credit the frags or refund the Stars. Use /paysupport if you need help.",
    }
}

/// `/paysupport`: how payment help works, with the ticket opened for it.
pub fn paysupport(lang: Lang, ticket_id: i64, opened_now: bool) -> String {
    match (lang, opened_now) {
        (Lang::Ru, true) => format!(
            "💳 Помощь с оплатой звёздами\n\nЕсли фраги не зачислились, списание прошло дважды или нужен возврат — мы поможем. Мы открыли для вас тикет #{ticket_id}: опишите, что произошло (дата, пакет, сколько звёзд), в разделе «Поддержка» в профиле приложения. Возврат звёзд делается на тот же аккаунт Telegram; уже потраченные фраги при возврате списываются."
        ),
        (Lang::Ru, false) => format!(
            "💳 Помощь с оплатой звёздами\n\nУ вас уже открыт тикет #{ticket_id} по оплате — напишите в него в разделе «Поддержка» в профиле приложения, и мы ответим здесь. Возврат звёзд делается на тот же аккаунт Telegram."
        ),
        (Lang::En, true) => format!(
            "💳 Help with a Stars payment\n\nIf frags were not credited, you were charged twice or you want a refund, we will help. We opened ticket #{ticket_id} for you: describe what happened (date, pack, Stars) under Support in the app's profile. Stars are refunded to the same Telegram account; frags from a refunded purchase are taken back."
        ),
        (Lang::En, false) => format!(
            "💳 Help with a Stars payment\n\nYou already have payment ticket #{ticket_id} open: write in it under Support in the app's profile and we will answer here. Stars are refunded to the same Telegram account."
        ),
    }
}

/// Admin-facing texts. The operators' console speaks English only.
pub mod admin {
    use webapp_api::domain::admin::{Stats, UserReport};
    use webapp_api::domain::tickets::OpenTicket;
    use webapp_api::domain::withdrawals::Pending;
    use webapp_api::domain::Tokens;

    pub const HELP: &str = "\n\nAdmin:\n/maintenance on|off|status\n/withdrawals — pending, with Sent / Failed buttons\n/sent <id>, /fail <id> <reason>\n/grant <telegram_id> <tokens> <reason>\n/refund <charge_id> [force]\n/orphans — payments that matched nothing\n/stats\n/user <telegram_id>\n/tickets — open, oldest first\n/reply <ticket_id> <text> (or reply to a forwarded ticket)\n/close <ticket_id>";

    /// The force-reply prompt for a failed withdrawal; its reply carries the reason.
    pub const FAIL_PROMPT_PREFIX: &str = "❓ Withdrawal #";
    pub const FAIL_PROMPT_SUFFIX: &str = " failed: reply to this message with the reason the player will see.";

    pub fn fail_prompt(id: i64) -> String {
        format!("{FAIL_PROMPT_PREFIX}{id}{FAIL_PROMPT_SUFFIX}")
    }

    /// The withdrawal a force-reply prompt asked about.
    pub fn fail_prompt_id(text: &str) -> Option<i64> {
        text.strip_prefix(FAIL_PROMPT_PREFIX)?.strip_suffix(FAIL_PROMPT_SUFFIX)?.parse().ok()
    }

    pub fn withdrawal(w: &Pending) -> String {
        format!(
            "📦 Withdrawal #{}\nUser: {} (id {})\nItem: #{} {} [{}], {} tokens\nSteam id: {}\nTrade URL: {}\nSince {}",
            w.id,
            w.user,
            w.user_id,
            w.item_id,
            w.item,
            w.condition,
            w.token_price,
            w.steam_id64.map(|s| s.to_string()).unwrap_or_else(|| "?".into()),
            w.trade_url,
            w.created_at
        )
    }

    pub fn ticket_line(t: &OpenTicket) -> String {
        let mut last: String = t.last_message.chars().take(80).collect();
        if t.last_message.chars().count() > 80 {
            last.push('…');
        }
        format!(
            "#{} [{}] {} (id {}), {}{}\n   {last}",
            t.id,
            t.theme,
            t.user,
            t.user_id,
            t.created_at,
            t.title.as_deref().map(|x| format!(", \"{x}\"")).unwrap_or_default()
        )
    }

    fn bp(v: i64) -> String {
        format!("{}.{:02}%", v / 100, v % 100)
    }

    pub fn stats(s: &Stats) -> String {
        let mut out = format!(
            "📊 Stats\nUsers: {}\nOpens today (UTC): {}, total: {}\nTokens in circulation: {}\nStars received: {} (refunded: {})\nOrphan payments: {}\nOpen tickets: {}\nPending withdrawals: {}\n\nRealised RTP per case:",
            s.users,
            s.opens_today,
            s.opens_total,
            s.tokens_in_circulation,
            s.stars_received,
            s.stars_refunded,
            s.orphan_payments,
            s.open_tickets,
            s.pending_withdrawals
        );
        if s.cases.is_empty() {
            out.push_str("\n(no opens yet)");
        }
        for c in &s.cases {
            out.push_str(&format!(
                "\n{}: {} opens, spent {}, dropped {}, RTP {} (expected {})",
                c.case_id,
                c.opens,
                c.spent,
                c.dropped,
                bp(c.realised_rtp_bp),
                c.expected_rtp_bp.map(bp).unwrap_or_else(|| "?".into())
            ));
        }
        out
    }

    pub fn user(u: &UserReport) -> String {
        let counts: Vec<String> = u.item_counts.iter().map(|(s, n)| format!("{s} {n}")).collect();
        let mut out = format!(
            "👤 {} (id {}{})\nBalance: {} tokens\nLanguage: {}{}\nSince: {}\nItems: {}\nPayments: {}",
            u.name,
            u.id,
            u.username.as_deref().map(|x| format!(", @{x}")).unwrap_or_default(),
            u.balance,
            u.language,
            if u.bot_blocked { ", blocked the bot" } else { "" },
            u.created_at,
            if counts.is_empty() { "none".into() } else { counts.join(", ") },
            u.payments
        );
        for i in &u.items {
            out.push_str(&format!("\n  #{} {} [{}] {}", i.id, i.name, i.status, i.token_price));
        }
        out.push_str("\nRecent ledger:");
        for l in &u.ledger {
            out.push_str(&format!(
                "\n  {} {}{} → {} ({})",
                webapp_api::domain::clock::rfc3339(l.created_at),
                if l.amount.0 > 0 { "+" } else { "" },
                l.amount,
                l.balance_after,
                l.reason
            ));
        }
        out
    }

    pub fn granted(user_id: i64, amount: Tokens, balance: Tokens) -> String {
        format!("✅ {}{amount} tokens to {user_id}; balance {balance}", if amount.0 > 0 { "+" } else { "" })
    }
}
