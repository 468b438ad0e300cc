//! Everything the bot says, in Russian and English.
use webapp_api::domain::notifications::Notice;
pub use webapp_api::domain::lang::Lang;

pub fn commands(lang: Lang) -> Vec<(&'static str, &'static str)> {
    match lang {
        Lang::Ru => vec![
            ("start", "Открыть FragBox"),
            ("help", "Помощь"),
            ("paysupport", "Помощь с оплатой"),
            ("language", "Сменить язык"),
        ],
        Lang::En => vec![
            ("start", "Open FragBox"),
            ("help", "Help"),
            ("paysupport", "Help with a payment"),
            ("language", "Change language"),
        ],
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
            if ru { format!("✅ {item} отправлен. Примите обмен в Steam.") } else { format!("✅ {item} has been sent. Accept the trade offer in Steam.") }
        }
        Notice::WithdrawalFailed { item, reason } => {
            if ru {
                format!("⚠️ Не удалось отправить {item}: {reason}\nПредмет снова доступен в инвентаре.")
            } else {
                format!("⚠️ Could not send {item}: {reason}\nThe item is available in your inventory again.")
            }
        }
        Notice::PurchaseCredited { tokens, stars } => {
            if ru { format!("💎 Оплата {stars} ⭐ получена: +{tokens} фрагов.") } else { format!("💎 Payment of {stars} ⭐ received: +{tokens} frags.") }
        }
        Notice::PurchaseRefunded { tokens, stars } => {
            if ru { format!("↩️ Возврат {stars} ⭐ выполнен, списано {tokens} фрагов.") } else { format!("↩️ {stars} ⭐ refunded; {tokens} frags were taken back.") }
        }
        Notice::SupportReply { ticket_id, message } => {
            if ru { format!("💬 Поддержка, тикет #{ticket_id}:\n{message}") } else { format!("💬 Support, ticket #{ticket_id}:\n{message}") }
        }
        Notice::TicketClosed { ticket_id } => {
            if ru { format!("Тикет #{ticket_id} закрыт.") } else { format!("Ticket #{ticket_id} is closed.") }
        }
        Notice::ReferralReward { tokens, friend } => {
            if ru { format!("🎉 {friend} открыл первый кейс: +{tokens} фрагов!") } else { format!("🎉 {friend} opened a first case: +{tokens} frags!") }
        }
    }
}
