//! Everything the bot says, in Russian and English.
pub use webapp_api::domain::lang::Lang;
use webapp_api::domain::notifications::Notice;

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
            "Привет, {name}! 🎁\n\nFragBox — кейсы со скинами CS2 прямо в Telegram. Открывайте кейсы за токены, продавайте скины или выводите их в Steam, получайте ежедневные награды и приглашайте друзей.\n\nНажмите кнопку ниже, чтобы начать."
        ),
        Lang::En => format!(
            "Hi, {name}! 🎁\n\nFragBox is CS2 skin cases right inside Telegram. Open cases for tokens, sell skins or withdraw them to Steam, collect daily rewards and invite friends.\n\nTap the button below to start."
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

/// A shared skin's card: `name` in the reader's language (the catalog's weapon and finish), the
/// exterior translated, never Steam's English market name in a Russian message.
pub fn skin_card(lang: Lang, name: &str, condition: &str, price: &str, owner: &str) -> String {
    let condition = exterior(lang, condition);
    match lang {
        Lang::Ru => format!("🔫 {name}\nСостояние: {condition}\nЦена: {price} токенов\nВладелец: {owner}"),
        Lang::En => format!("🔫 {name}\nCondition: {condition}\nPrice: {price} tokens\nOwner: {owner}"),
    }
}

/// Steam's exterior names in the reader's language (as the mini app's dictionaries have them).
pub fn exterior(lang: Lang, steam: &str) -> &str {
    match (lang, steam) {
        (Lang::Ru, "Factory New") => "Прямо с завода",
        (Lang::Ru, "Minimal Wear") => "Немного поношенное",
        (Lang::Ru, "Field-Tested") => "После полевых испытаний",
        (Lang::Ru, "Well-Worn") => "Поношенное",
        (Lang::Ru, "Battle-Scarred") => "Закалённое в боях",
        _ => steam,
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

/// Where a player accepts the Steam trade offers sent to them.
pub const TRADE_OFFERS_URL: &str = "https://steamcommunity.com/my/tradeoffers";

/// The chat message for an outbox notice. A withdrawal's item is named as Steam names it (the
/// trade offer in Steam shows that name); Russian texts label it as Steam's name (issue 32).
pub fn notice(lang: Lang, notice: &Notice) -> String {
    let ru = lang == Lang::Ru;
    match notice {
        Notice::WithdrawalSent { item } => {
            if ru {
                format!("✅ Предмет «{item}» (название в Steam) отправлен. Примите обмен в Steam.")
            } else {
                format!("✅ {item} has been sent. Accept the trade offer in Steam.")
            }
        }
        Notice::WithdrawalOfferSent { item, .. } => {
            if ru {
                format!("📨 Предложение обмена на «{item}» (название в Steam) отправлено в Steam. Примите его: {TRADE_OFFERS_URL}")
            } else {
                format!("📨 The Steam trade offer for {item} is out. Accept it in Steam: {TRADE_OFFERS_URL}")
            }
        }
        Notice::WithdrawalDelivered { item } => {
            if ru {
                format!("✅ «{item}» (название в Steam) доставлен на ваш аккаунт Steam.")
            } else {
                format!("✅ {item} is in your Steam inventory.")
            }
        }
        Notice::WithdrawalCancelled { item } => {
            let item = item.read(lang);
            if ru {
                format!("↩️ Вывод «{item}» отменён: платёж, на который скин был выигран, возвращён, и скин забран обратно.")
            } else {
                format!("↩️ The withdrawal of {item} was cancelled: the payment it was won with was refunded, so the skin was taken back.")
            }
        }
        Notice::WithdrawalFailed { item, code, reason } => {
            let why = failure_reason(lang, code.as_deref().unwrap_or("other"));
            let note = match reason.as_deref() {
                Some(n) if ru => format!("\nКомментарий поддержки: {n}"),
                Some(n) => format!("\nNote from support: {n}"),
                None => String::new(),
            };
            if ru {
                format!("⚠️ Не удалось отправить «{item}» (название в Steam): {why}{note}\nПредмет снова доступен в инвентаре.")
            } else {
                format!("⚠️ Could not send {item}: {why}{note}\nThe item is available in your inventory again.")
            }
        }
        Notice::PurchaseCredited { tokens, stars } => {
            if ru {
                format!("💎 Оплата {stars} ⭐ получена: +{tokens} токенов.")
            } else {
                format!("💎 Payment of {stars} ⭐ received: +{tokens} tokens.")
            }
        }
        Notice::PurchaseRefunded { tokens, stars, items, debt } => {
            let mut out = if ru {
                format!("↩️ Возврат {stars} ⭐ выполнен, с баланса списано {tokens} токенов.")
            } else {
                format!("↩️ {stars} ⭐ refunded; {tokens} tokens were taken back from your balance.")
            };
            if !items.is_empty() {
                let items: Vec<&str> = items.iter().map(|n| n.read(lang)).collect();
                out.push_str(&if ru {
                    format!("\nТокены из этой покупки уже потрачены, поэтому изъяты скины, полученные после неё: {}.", items.join(", "))
                } else {
                    format!("\nThe purchase's tokens were already spent, so skins won since were taken back: {}.", items.join(", "))
                });
            }
            if let Some(d) = debt {
                out.push_str(&if ru {
                    format!("\nОстался долг {d} токенов: его погасят следующие начисления, до тех пор вывод недоступен.")
                } else {
                    format!("\n{d} tokens are still owed: your next credits repay it first, and withdrawals wait until then.")
                });
            }
            out
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
                format!("🎉 {friend} открыл первый кейс: +{tokens} токенов!")
            } else {
                format!("🎉 {friend} opened a first case: +{tokens} tokens!")
            }
        }
    }
}

/// A failed withdrawal's reason code, as the player reads it.
pub fn failure_reason(lang: Lang, code: &str) -> &'static str {
    let ru = lang == Lang::Ru;
    match code {
        "trade_url_invalid" if ru => "трейд-ссылка недействительна, обновите её в профиле",
        "trade_url_invalid" => "the trade link is not valid; update it in your profile",
        "inventory_private" if ru => "инвентарь Steam закрыт, откройте его в настройках приватности",
        "inventory_private" => "your Steam inventory is private; make it public in the privacy settings",
        "trade_restricted" if ru => "на аккаунте Steam ограничение обменов",
        "trade_restricted" => "your Steam account cannot trade right now",
        "item_unavailable" if ru => "предмет сейчас недоступен для отправки",
        "item_unavailable" => "the item cannot be sent right now",
        "steam_unavailable" if ru => "Steam не отвечает, попробуйте позже",
        "steam_unavailable" => "Steam is not answering; try again later",
        "inventory_full" if ru => "инвентарь Steam переполнен, освободите место",
        "inventory_full" => "your Steam inventory is full; make room in it",
        "no_offer" if ru => "на маркете сейчас нет этого скина по допустимой цене, попробуйте позже или продайте его",
        "no_offer" => "the market has no offer of this skin at an acceptable price right now; try again later or sell it",
        "offer_expired" if ru => "предложение обмена в Steam не было принято вовремя",
        "offer_expired" => "the Steam trade offer was not accepted in time",
        "seller_reversed" if ru => "продавец отменил обмен в Steam; скин вернулся в ваш инвентарь",
        "seller_reversed" => "the seller reversed the trade in Steam; the skin is back in your inventory",
        _ if ru => "обмен не состоялся",
        _ => "the trade did not go through",
    }
}

/// Why Telegram's payment sheet stops (shown by Telegram to the payer).
pub fn checkout_refused(lang: Lang, refusal: Option<webapp_api::domain::payments::CheckoutRefusal>) -> String {
    use webapp_api::domain::payments::CheckoutRefusal::*;
    if let Some(SelfExcluded { until }) = refusal {
        // The same text the API gives for `self_excluded`, with the end of the break.
        return webapp_api::domain::DomainError::SelfExcluded { until }.text(lang)
            + match lang {
                Lang::Ru => ". Покупки недоступны, пока идёт пауза.",
                Lang::En => ". Purchases are closed while it runs.",
            };
    }
    let text = match (lang, refusal) {
        (Lang::Ru, Some(Unknown)) => "Этот счёт не найден. Откройте покупку заново в приложении.",
        (Lang::En, Some(Unknown)) => "This invoice was not found. Start the purchase again in the app.",
        (Lang::Ru, Some(NotPending)) => "Этот счёт уже оплачен или устарел. Откройте покупку заново в приложении.",
        (Lang::En, Some(NotPending)) => "This invoice is already paid or expired. Start the purchase again in the app.",
        (Lang::Ru, Some(Mismatch)) => "Сумма счёта не совпадает с пакетом. Откройте покупку заново в приложении.",
        (Lang::En, Some(Mismatch)) => "The invoice amount does not match the pack. Start the purchase again in the app.",
        (Lang::Ru, None) => "Не удалось проверить платёж. Попробуйте через минуту.",
        (Lang::En, None) | (_, Some(SelfExcluded { .. })) => "The payment could not be checked. Try again in a minute.",
    };
    text.to_owned()
}

/// A payment that matched no purchase (kept for support).
pub fn payment_unmatched(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => "Оплата получена, но мы не смогли сопоставить её с покупкой. Поддержка разберётся и зачислит токены или вернёт звёзды. Команда /paysupport — если нужна помощь.",
        Lang::En => "Your payment arrived but could not be matched to a purchase. Support will credit the tokens or refund the Stars. Use /paysupport if you need help.",
    }
}

/// `/paysupport`: how payment help works, with the ticket opened for it.
pub fn paysupport(lang: Lang, ticket_id: i64, opened_now: bool) -> String {
    match (lang, opened_now) {
        (Lang::Ru, true) => format!(
            "💳 Помощь с оплатой звёздами\n\nЕсли токены не зачислились, списание прошло дважды или нужен возврат — мы поможем. Мы открыли для вас тикет #{ticket_id}: опишите, что произошло (дата, пакет, сколько звёзд), в разделе «Поддержка» в профиле приложения. Возврат звёзд делается на тот же аккаунт Telegram; уже потраченные токены при возврате списываются."
        ),
        (Lang::Ru, false) => format!(
            "💳 Помощь с оплатой звёздами\n\nУ вас уже открыт тикет #{ticket_id} по оплате — напишите в него в разделе «Поддержка» в профиле приложения, и мы ответим здесь. Возврат звёзд делается на тот же аккаунт Telegram."
        ),
        (Lang::En, true) => format!(
            "💳 Help with a Stars payment\n\nIf tokens were not credited, you were charged twice or you want a refund, we will help. We opened ticket #{ticket_id} for you: describe what happened (date, pack, Stars) under Support in the app's profile. Stars are refunded to the same Telegram account; tokens from a refunded purchase are taken back."
        ),
        (Lang::En, false) => format!(
            "💳 Help with a Stars payment\n\nYou already have payment ticket #{ticket_id} open: write in it under Support in the app's profile and we will answer here. Stars are refunded to the same Telegram account."
        ),
    }
}

/// Admin-facing texts, in the admin's language (their stored choice, else Telegram's code).
pub mod admin {
    use webapp_api::domain::admin::{Stats, UserReport};
    use webapp_api::domain::promo::Promo;
    use webapp_api::domain::responsible::Limits;
    use webapp_api::domain::tickets::OpenTicket;
    use webapp_api::domain::withdrawals::{Pending, REASON_CODES};
    use webapp_api::domain::Tokens;

    use super::Lang;

    /// Russian or English by `lang`.
    fn t(lang: Lang, ru: &str, en: &str) -> String {
        if lang == Lang::Ru {
            ru.to_owned()
        } else {
            en.to_owned()
        }
    }

    /// The admin command menu.
    pub fn commands(lang: Lang) -> Vec<(&'static str, &'static str)> {
        if lang == Lang::Ru {
            vec![
                ("tickets", "Открытые тикеты"),
                ("reply", "<id тикета> <текст>: ответить"),
                ("close", "<id тикета>: закрыть тикет"),
                ("withdrawals", "Заявки на вывод"),
                ("sent", "<id>: вывод отправлен"),
                ("fail", "<id> <код> [комментарий]: вывод не удался"),
                ("grant", "<telegram id> <токены> <причина>"),
                ("refund", "<charge id> [force]"),
                ("orphans", "Платежи без покупки"),
                ("stats", "Игроки, открытия, токены, звёзды, RTP"),
                ("user", "<telegram id>: баланс, предметы, журнал"),
                ("maintenance", "on | off | status"),
                ("promo", "create <код> <токены> <активаций> [дней] [deposit] | list | disable <код>"),
            ]
        } else {
            vec![
                ("tickets", "Open support tickets"),
                ("reply", "<ticket id> <text>: answer a ticket"),
                ("close", "<ticket id>: close a ticket"),
                ("withdrawals", "Pending withdrawals"),
                ("sent", "<id>: withdrawal sent"),
                ("fail", "<id> <code> [note]: withdrawal failed"),
                ("grant", "<telegram id> <tokens> <reason>"),
                ("refund", "<charge id> [force]"),
                ("orphans", "Payments that matched nothing"),
                ("stats", "Users, opens, tokens, Stars, RTP"),
                ("user", "<telegram id>: balance, items, ledger"),
                ("maintenance", "on | off | status"),
                ("promo", "create <code> <tokens> <uses> [days] [deposit] | list | disable <code>"),
            ]
        }
    }

    pub fn help(lang: Lang) -> String {
        let codes = REASON_CODES.join(", ");
        if lang == Lang::Ru {
            format!("\n\nАдмин:\n/maintenance on|off|status\n/withdrawals — заявки с кнопками «Отправлен» / «Не удался»\n/sent <id>, /fail <id> <код> [комментарий]\n  коды: {codes}\n/grant <telegram_id> <токены> <причина>\n/refund <charge_id> [force]\n/orphans — платежи без покупки\n/stats\n/user <telegram_id>\n/tickets — открытые, старые первыми\n/reply <ticket_id> <текст> (или ответом на пересланный тикет)\n/close <ticket_id>\n/promo create <код> <токены> <активаций> [дней] [deposit] — промокод (deposit: только для пополнивших звёздами)\n/promo list, /promo disable <код>")
        } else {
            format!("\n\nAdmin:\n/maintenance on|off|status\n/withdrawals — pending, with Sent / Failed buttons\n/sent <id>, /fail <id> <code> [note]\n  codes: {codes}\n/grant <telegram_id> <tokens> <reason>\n/refund <charge_id> [force]\n/orphans — payments that matched nothing\n/stats\n/user <telegram_id>\n/tickets — open, oldest first\n/reply <ticket_id> <text> (or reply to a forwarded ticket)\n/close <ticket_id>\n/promo create <code> <tokens> <uses> [days] [deposit] — a promo code (deposit: only for players who paid with Stars)\n/promo list, /promo disable <code>")
        }
    }

    /// The force-reply prompt for a failed withdrawal; its reply carries the code and note.
    const FAIL_PROMPT: [(&str, &str); 2] = [
        ("❓ Withdrawal #", " failed: reply to this message with a reason code and an optional note for the player"),
        ("❓ Вывод #", " не удался: ответьте на это сообщение кодом причины и, если нужно, комментарием для игрока"),
    ];

    pub fn fail_prompt(lang: Lang, id: i64) -> String {
        let (pre, suf) = if lang == Lang::Ru { FAIL_PROMPT[1] } else { FAIL_PROMPT[0] };
        format!("{pre}{id}{suf} ({}).", REASON_CODES.join(", "))
    }

    /// The withdrawal a force-reply prompt (in either language) asked about.
    pub fn fail_prompt_id(text: &str) -> Option<i64> {
        FAIL_PROMPT.iter().find_map(|(pre, suf)| {
            let rest = text.strip_prefix(pre)?;
            let end = rest.find(suf)?;
            rest[..end].parse().ok()
        })
    }

    pub fn usage(lang: Lang, usage: &str) -> String {
        format!("{}{usage}", t(lang, "Формат: ", "Usage: "))
    }

    fn promo_line(lang: Lang, p: &Promo, now: i64) -> String {
        let state = match (lang, p.state(now)) {
            (Lang::Ru, "disabled") => "отключён",
            (Lang::Ru, "expired") => "истёк",
            (Lang::Ru, "used up") => "исчерпан",
            (Lang::Ru, _) => "активен",
            (_, s) => s,
        };
        let until = |t: i64| webapp_api::domain::clock::rfc3339(t).replace('T', " ").trim_end_matches('Z').to_owned();
        if lang == Lang::Ru {
            format!(
                "{} — {} токенов, {}/{} активаций, {}{}, {state}",
                p.code,
                p.tokens,
                p.uses,
                p.max_uses,
                p.expires_at.map(|t| format!("до {} UTC", until(t))).unwrap_or_else(|| "без срока".into()),
                if p.deposit_only { ", только пополнившим" } else { "" }
            )
        } else {
            format!(
                "{} — {} tokens, {}/{} uses, {}{}, {state}",
                p.code,
                p.tokens,
                p.uses,
                p.max_uses,
                p.expires_at.map(|t| format!("until {} UTC", until(t))).unwrap_or_else(|| "no end".into()),
                if p.deposit_only { ", deposit only" } else { "" }
            )
        }
    }

    /// The responsible-play lines of `/user` (nothing when the player set nothing).
    pub fn user_play(lang: Lang, user_id: i64, l: &Limits) -> String {
        let mut out = String::new();
        let ex = &l.self_exclusion;
        if ex.active {
            let until = ex.until.as_deref().map(|u| u.replace('T', " ").trim_end_matches('Z').to_owned());
            out.push_str(&match (lang, until) {
                (Lang::Ru, Some(u)) => format!("\n⏸ Самоисключение до {u} UTC"),
                (Lang::Ru, None) => format!("\n⏸ Самоисключение бессрочно (снять: fragbox responsible lift {user_id} --reason …)"),
                (_, Some(u)) => format!("\n⏸ Self-excluded until {u} UTC"),
                (_, None) => format!("\n⏸ Self-excluded for good (lift: fragbox responsible lift {user_id} --reason …)"),
            });
        }
        if let Some(limit) = l.daily_limit {
            out.push_str(&if lang == Lang::Ru {
                format!("\nДневной лимит: {limit} (сегодня потрачено {})", l.spent_today)
            } else {
                format!("\nDaily limit: {limit} (spent today {})", l.spent_today)
            });
        }
        out
    }

    pub fn promo_created(lang: Lang, p: &Promo, now: i64) -> String {
        format!("🎟 {}\n{}", t(lang, "Промокод создан:", "Promo code created:"), promo_line(lang, p, now))
    }

    pub fn promo_list(lang: Lang, list: &[Promo], now: i64) -> String {
        if list.is_empty() {
            return t(
                lang,
                "Промокодов нет. /promo create <код> <токены> <активаций> [дней] [deposit]",
                "No promo codes. /promo create <code> <tokens> <uses> [days] [deposit]",
            );
        }
        let lines: Vec<String> = list.iter().map(|p| promo_line(lang, p, now)).collect();
        format!("🎟 {}\n{}", t(lang, "Промокоды:", "Promo codes:"), lines.join("\n"))
    }

    pub fn promo_disabled(lang: Lang, p: &Promo) -> String {
        if lang == Lang::Ru {
            format!("🎟 Промокод {} отключён ({} из {} активаций использовано)", p.code, p.uses, p.max_uses)
        } else {
            format!("🎟 Promo code {} disabled ({} of {} uses taken)", p.code, p.uses, p.max_uses)
        }
    }

    pub fn maintenance_set(lang: Lang, on: bool) -> String {
        match (lang, on) {
            (Lang::Ru, true) => "🛠 Техработы ВКЛЮЧЕНЫ (мини-приложение подхватит в течение минуты)".into(),
            (Lang::Ru, false) => "🛠 Техработы выключены (мини-приложение подхватит в течение минуты)".into(),
            (_, on) => format!("🛠 Maintenance is {} (the mini app follows within a minute)", if on { "ON" } else { "off" }),
        }
    }

    pub fn maintenance_status(lang: Lang, on: bool) -> String {
        match (lang, on) {
            (Lang::Ru, true) => "🛠 Техработы ВКЛЮЧЕНЫ".into(),
            (Lang::Ru, false) => "🛠 Техработы выключены".into(),
            (_, on) => format!("🛠 Maintenance is {}", if on { "ON" } else { "off" }),
        }
    }

    pub fn no_withdrawals(lang: Lang) -> String {
        t(lang, "Заявок на вывод нет.", "No pending withdrawals.")
    }

    pub fn more_withdrawals(lang: Lang, n: usize) -> String {
        if lang == Lang::Ru {
            format!("… и ещё {n} (сначала разберите эти)")
        } else {
            format!("… and {n} more (resolve these first)")
        }
    }

    pub fn sent_button(lang: Lang) -> String {
        t(lang, "✅ Отправлен", "✅ Sent")
    }

    pub fn failed_button(lang: Lang) -> String {
        t(lang, "❌ Не удался", "❌ Failed")
    }

    pub fn marked_sent(lang: Lang, id: i64) -> String {
        if lang == Lang::Ru {
            format!("✅ Вывод #{id} отмечен отправленным; игрок уведомлён.")
        } else {
            format!("✅ Withdrawal #{id} marked sent; the player is told.")
        }
    }

    pub fn marked_failed(lang: Lang, id: i64, code: &str, note: Option<&str>) -> String {
        let what = match note {
            Some(n) => format!("{code}: {n}"),
            None => code.to_owned(),
        };
        if lang == Lang::Ru {
            format!("❌ Вывод #{id} не удался ({what}); предмет снова доступен, игрок уведомлён.")
        } else {
            format!("❌ Withdrawal #{id} failed ({what}); the item is available again and the player is told.")
        }
    }

    pub fn reason_placeholder(lang: Lang) -> String {
        t(lang, "код [комментарий]", "code [note]")
    }

    /// One pending withdrawal with what the operator should weigh before sending it.
    pub fn withdrawal(lang: Lang, w: &Pending) -> String {
        let r = &w.risk;
        let ru = lang == Lang::Ru;
        let steam = w.steam_id64.map(|s| s.to_string()).unwrap_or_else(|| "?".into());
        let mut out = if ru {
            format!(
                "📦 Вывод #{}\nИгрок: {} (id {})\nПредмет: #{} {} [{}], {} токенов\nSteam id: {}\nТрейд-ссылка: {}\nС {}\n\nРиск:\nАккаунту дней: {}\nЗвёзд оплачено: {} (возвращено: {})\nТокенов бесплатно (награды, рефералы, начисления): {}\nПриглашено друзей: {}\nОткрытий: {}\nУже выведено на: {} токенов\nДолг: {}",
                w.id, w.user, w.user_id, w.item_id, w.item, w.condition, w.token_price, steam, w.trade_url, w.created_at,
                r.account_age_days, r.stars_paid, r.stars_refunded, r.free_tokens, r.invited_friends, r.opens, r.withdrawn_value, r.debt
            )
        } else {
            format!(
                "📦 Withdrawal #{}\nUser: {} (id {})\nItem: #{} {} [{}], {} tokens\nSteam id: {}\nTrade URL: {}\nSince {}\n\nRisk:\nAccount age: {} days\nStars paid: {} (refunded: {})\nTokens earned free (rewards, referrals, grants): {}\nInvited friends: {}\nOpens: {}\nAlready withdrawn: {} tokens\nDebt: {}",
                w.id, w.user, w.user_id, w.item_id, w.item, w.condition, w.token_price, steam, w.trade_url, w.created_at,
                r.account_age_days, r.stars_paid, r.stars_refunded, r.free_tokens, r.invited_friends, r.opens, r.withdrawn_value, r.debt
            )
        };
        if let Some(m) = &w.market {
            out.push_str(&market_line(lang, m));
        }
        if r.item_failed_before {
            out.push_str(&t(
                lang,
                "\n⚠️ Этот предмет уже был в статусе «ошибка»: предложение обмена в Steam может быть ещё открыто — проверьте, прежде чем отправлять снова.",
                "\n⚠️ This item was in status error before: a Steam trade offer for it may still be open — check before sending again.",
            ));
        }
        if r.debt.0 > 0 {
            out.push_str(&t(lang, "\n⚠️ У игрока открыт долг.", "\n⚠️ The player has an open debt."));
        }
        if r.stars_refunded > 0 {
            out.push_str(&t(lang, "\n⚠️ У игрока были возвраты звёзд.", "\n⚠️ The player has refunded Stars before."));
        }
        if r.demo {
            out.push_str(&t(lang, "\n⚠️ DEMO-пользователь.", "\n⚠️ DEMO user."));
        }
        out
    }

    /// An automatic withdrawal's market side: state, reason, custom id, cap and price paid.
    pub fn market_line(lang: Lang, m: &webapp_api::domain::withdrawals::MarketView) -> String {
        let usd = |c: Option<i64>| c.map(|c| webapp_api::domain::market::Usd::from_cents(c).to_string()).unwrap_or_else(|| "—".into());
        let reason = m.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default();
        let custom = m.custom_id.as_deref().unwrap_or("—");
        let mut out = if lang == Lang::Ru {
            format!(
                "\n\n🛒 Маркет: {}{reason}\nПопытка {}, custom id {custom}\nЛимит {}, оплачено {}",
                m.state,
                m.attempt,
                usd(m.max_price_cents),
                usd(m.price_paid_cents)
            )
        } else {
            format!(
                "\n\n🛒 Market: {}{reason}\nAttempt {}, custom id {custom}\nCap {}, paid {}",
                m.state,
                m.attempt,
                usd(m.max_price_cents),
                usd(m.price_paid_cents)
            )
        };
        if let Some(trade) = &m.trade_id {
            out.push_str(&format!("\nSteam trade {trade}"));
        }
        if m.live {
            out.push_str(&t(lang, "\n⏳ Покупка идёт: вручную не закрыть.", "\n⏳ A purchase is live: it cannot be taken over by hand."));
        }
        out
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

    pub fn no_tickets(lang: Lang) -> String {
        t(lang, "Открытых тикетов нет.", "No open tickets.")
    }

    pub fn tickets(lang: Lang, lines: &[String]) -> String {
        format!("{}\n{}", t(lang, "Открытые тикеты (старые первыми):", "Open tickets (oldest first):"), lines.join("\n"))
    }

    pub fn ticket_answered(lang: Lang, id: i64) -> String {
        if lang == Lang::Ru {
            format!("✅ Ответ отправлен в тикет #{id}.")
        } else {
            format!("✅ Answer sent to ticket #{id}.")
        }
    }

    pub fn ticket_closed(lang: Lang, id: i64) -> String {
        if lang == Lang::Ru {
            format!("✅ Тикет #{id} закрыт; игрок уведомлён.")
        } else {
            format!("✅ Ticket #{id} closed; the player is told.")
        }
    }

    pub fn not_a_forward(lang: Lang) -> String {
        t(
            lang,
            "Это сообщение не пересланный тикет. Используйте /reply <ticket_id> <текст>.",
            "That message is not a forwarded ticket. Use /reply <ticket_id> <text>.",
        )
    }

    pub fn no_orphans(lang: Lang) -> String {
        t(lang, "Платежей без покупки нет.", "No orphan payments.")
    }

    pub fn orphans(lang: Lang, list: &[(String, i64, String, i64)]) -> String {
        let lines: Vec<String> = list
            .iter()
            .map(|(c, u, p, s)| {
                if lang == Lang::Ru {
                    format!("{s} ⭐ от {u}, payload {p:?}\n  /refund {c}")
                } else {
                    format!("{s} ⭐ from {u}, payload {p:?}\n  /refund {c}")
                }
            })
            .collect();
        format!("{}\n{}", t(lang, "Платежи без покупки:", "Orphan payments:"), lines.join("\n"))
    }

    /// What a refund took back: balance, skins, change, debt.
    #[allow(clippy::too_many_arguments)]
    pub fn refunded(
        lang: Lang,
        stars: i64,
        user_id: i64,
        transaction: &str,
        credited: Tokens,
        taken: Tokens,
        revoked: &[webapp_api::domain::notifications::SkinName],
        revoked_value: Tokens,
        debt: Tokens,
    ) -> String {
        let revoked: Vec<&str> = revoked.iter().map(|n| n.read(lang)).collect();
        let mut out = if lang == Lang::Ru {
            format!(
                "↩️ Возвращено {stars} ⭐ игроку {user_id} (транзакция {transaction}); с баланса списано {taken} из {credited} токенов."
            )
        } else {
            format!("↩️ Refunded {stars} ⭐ to user {user_id} (transaction {transaction}); {taken} of {credited} tokens taken back.")
        };
        if !revoked.is_empty() {
            out.push_str(&if lang == Lang::Ru {
                format!("\nИзъяты скины на {revoked_value}: {}", revoked.join(", "))
            } else {
                format!("\nSkins revoked, worth {revoked_value}: {}", revoked.join(", "))
            });
        }
        if debt.0 > 0 {
            out.push_str(&if lang == Lang::Ru { format!("\nДолг игрока: {debt}") } else { format!("\nDebt recorded: {debt}") });
        }
        out
    }

    pub fn refund_outside(lang: Lang, details: &str, charge_id: &str) -> String {
        if lang == Lang::Ru {
            format!("↩️ Возврат не через /refund.\n{details}\nCharge id: {charge_id}")
        } else {
            format!("↩️ Refund outside /refund.\n{details}\nCharge id: {charge_id}")
        }
    }

    pub fn already_refunded(lang: Lang, user_id: i64) -> String {
        if lang == Lang::Ru {
            format!("Уже возвращено (игрок {user_id}); ничего не изменилось.")
        } else {
            format!("Already refunded (user {user_id}); nothing changed.")
        }
    }

    pub fn orphan_refunded(lang: Lang, stars: i64, user_id: i64) -> String {
        if lang == Lang::Ru {
            format!("↩️ Платёж без покупки возвращён: {stars} ⭐ игроку {user_id}; ничего не зачислялось.")
        } else {
            format!("↩️ Orphan payment refunded: {stars} ⭐ to user {user_id}; nothing was credited.")
        }
    }

    pub fn orphan_note(lang: Lang, stars: i64, currency: &str, user_id: i64, payload: &str, charge_id: &str) -> String {
        if lang == Lang::Ru {
            format!("⚠️ Платёж без покупки: {stars} ⭐ ({currency}) от игрока {user_id}, payload {payload:?}.\nCharge id: {charge_id}\nЗачислите через /grant или верните: /refund {charge_id}")
        } else {
            format!("⚠️ Orphan payment: {stars} ⭐ ({currency}) from user {user_id} with payload {payload:?}.\nCharge id: {charge_id}\nCredit it with /grant or return it with /refund {charge_id}")
        }
    }

    pub fn internal_error(lang: Lang) -> String {
        t(lang, "⚠️ Внутренняя ошибка (см. журнал)", "⚠️ Internal error (see the log)")
    }

    pub fn telegram_refused(lang: Lang, why: &str) -> String {
        if lang == Lang::Ru {
            format!("⚠️ Telegram отказал или не ответил: {why}")
        } else {
            format!("⚠️ Telegram refused or did not answer: {why}")
        }
    }

    pub fn refund_refused(lang: Lang, why: &str) -> String {
        if lang == Lang::Ru {
            format!("⛔ Возврат отклонён: {why}")
        } else {
            format!("⛔ Refund refused: {why}")
        }
    }

    fn bp(v: i64) -> String {
        format!("{}.{:02}%", v / 100, v % 100)
    }

    pub fn stats(lang: Lang, s: &Stats) -> String {
        let ru = lang == Lang::Ru;
        let mut out = if ru {
            format!(
                "📊 Статистика\nИгроков: {}\nОткрытий сегодня (UTC): {}, всего: {}\nТокенов в обороте: {}\nЗвёзд получено: {} (возвращено: {})\nПлатежей без покупки: {}\nОткрытых тикетов: {}\nЗаявок на вывод: {}\n\nФактический RTP по кейсам:",
                s.users, s.opens_today, s.opens_total, s.tokens_in_circulation, s.stars_received, s.stars_refunded, s.orphan_payments, s.open_tickets, s.pending_withdrawals
            )
        } else {
            format!(
                "📊 Stats\nUsers: {}\nOpens today (UTC): {}, total: {}\nTokens in circulation: {}\nStars received: {} (refunded: {})\nOrphan payments: {}\nOpen tickets: {}\nPending withdrawals: {}\n\nRealised RTP per case:",
                s.users, s.opens_today, s.opens_total, s.tokens_in_circulation, s.stars_received, s.stars_refunded, s.orphan_payments, s.open_tickets, s.pending_withdrawals
            )
        };
        if s.settling_withdrawals > 0 {
            // Delivered by the market, still reversible in Steam (trade protection).
            out.insert_str(
                out.find("\n\n").unwrap_or(out.len()),
                &if ru {
                    format!("\nДоставлено, но ещё отменяемо в Steam: {} на {} токенов", s.settling_withdrawals, s.settling_value)
                } else {
                    format!(
                        "\nDelivered, still reversible in Steam (settling): {} worth {} tokens",
                        s.settling_withdrawals, s.settling_value
                    )
                },
            );
        }
        // The books go between the counters and the per-case section.
        let at = out.find(if ru { "\n\nФактический" } else { "\n\nRealised" }).unwrap_or(out.len());
        out.insert_str(at, &books(lang, &s.books));
        if s.cases.is_empty() {
            out.push_str(&t(lang, "\n(открытий ещё нет)", "\n(no opens yet)"));
        }
        let repriced =
            s.repriced_at.and_then(|at| chrono::DateTime::from_timestamp(at, 0)).map(|at| at.format("%Y-%m-%d %H:%M UTC").to_string());
        out.push_str(&match (repriced, ru) {
            (None, true) => "\n\nЦены: по умолчанию (рыночной переоценки ещё не было)".to_owned(),
            (None, false) => "\n\nPrices: defaults (never repriced)".to_owned(),
            (Some(at), true) => format!("\n\nЦены: рыночные, переоценка {at}"),
            (Some(at), false) => format!("\n\nPrices: market, repriced {at}"),
        });
        for c in &s.cases {
            let expected = c.expected_rtp_bp.map(bp).unwrap_or_else(|| "?".into());
            out.push_str(&if ru {
                format!(
                    "\n{}: {} открытий, потрачено {}, выпало {}, RTP {} (ожидается {expected})",
                    c.case_id,
                    c.opens,
                    c.spent,
                    c.dropped,
                    bp(c.realised_rtp_bp)
                )
            } else {
                format!(
                    "\n{}: {} opens, spent {}, dropped {}, RTP {} (expected {expected})",
                    c.case_id,
                    c.opens,
                    c.spent,
                    c.dropped,
                    bp(c.realised_rtp_bp)
                )
            });
        }
        out
    }

    /// The books of `/stats`: the numbers `fragbox finance` prints, a line per UTC day and the total.
    pub fn books(lang: Lang, b: &webapp_api::domain::finance::Books) -> String {
        use webapp_api::domain::finance::Flows;
        let ru = lang == Lang::Ru;
        let line = |label: String, f: &Flows| {
            if ru {
                format!(
                    "\n{label}: ★ +{} −{} = {}, маркет {} (списано {}, возвращено {}), маржа {}; доставлено {}, в удержании {}, отменено продавцом {}",
                    f.stars_received, f.stars_refunded, f.stars_usd, f.market_spend(), f.market_charged, f.market_refunded, f.margin(), f.delivered, f.settling, f.reversed
                )
            } else {
                format!(
                    "\n{label}: ★ +{} −{} = {}, market {} (charged {}, refunded {}), margin {}; delivered {}, settling {}, reversed {}",
                    f.stars_received,
                    f.stars_refunded,
                    f.stars_usd,
                    f.market_spend(),
                    f.market_charged,
                    f.market_refunded,
                    f.margin(),
                    f.delivered,
                    f.settling,
                    f.reversed
                )
            }
        };
        let mut out = if ru {
            format!("\n\n💵 Книги (UTC), звезда = ${}, {} токенов = $1:", b.settings.star_usd, b.settings.tokens_per_usd)
        } else {
            format!("\n\n💵 Books (UTC), a Star = ${}, {} tokens = $1:", b.settings.star_usd, b.settings.tokens_per_usd)
        };
        for d in &b.days {
            out.push_str(&line(d.date.format("%Y-%m-%d").to_string(), &d.flows));
        }
        let total = &b.total;
        out.push_str(&line(t(lang, "Итого", "Total"), &total.flows));
        if total.flows.market_in_doubt.cents() > 0 {
            out.push_str(&if ru {
                format!("\nПокупки с неизвестным исходом: {}", total.flows.market_in_doubt)
            } else {
                format!("\nPurchases of unknown outcome: {}", total.flows.market_in_doubt)
            });
        }
        out.push_str(&if ru {
            format!(
                "\nИгроки ещё могут вывести: {} ({} токенов + скины на {}); в удержании сейчас {}",
                total.liability, total.liability_tokens, total.liability_skins, total.settling_now
            )
        } else {
            format!(
                "\nPlayers could still take out: {} ({} tokens + skins worth {}); settling now {}",
                total.liability, total.liability_tokens, total.liability_skins, total.settling_now
            )
        });
        out
    }

    pub fn user(lang: Lang, u: &UserReport) -> String {
        let ru = lang == Lang::Ru;
        let counts: Vec<String> = u.item_counts.iter().map(|(s, n)| format!("{s} {n}")).collect();
        let none = t(lang, "нет", "none");
        let blocked = if u.bot_blocked { t(lang, ", заблокировал бота", ", blocked the bot") } else { String::new() };
        let username = u.username.as_deref().map(|x| format!(", @{x}")).unwrap_or_default();
        let items = if counts.is_empty() { none } else { counts.join(", ") };
        let mut out = if ru {
            format!(
                "👤 {} (id {}{username})\nБаланс: {} токенов\nДолг: {}\nЯзык: {}{blocked}\nС: {}\nПредметы: {items}\nПлатежей: {}",
                u.name, u.id, u.balance, u.debt, u.language, u.created_at, u.payments
            )
        } else {
            format!(
                "👤 {} (id {}{username})\nBalance: {} tokens\nDebt: {}\nLanguage: {}{blocked}\nSince: {}\nItems: {items}\nPayments: {}",
                u.name, u.id, u.balance, u.debt, u.language, u.created_at, u.payments
            )
        };
        if u.debt.0 > 0 {
            out.push_str(&t(
                lang,
                "\n⚠️ Открыт долг после возврата: вывод закрыт, начисления гасят его первыми.",
                "\n⚠️ Open debt after a refund: withdrawals are locked, credits repay it first.",
            ));
        }
        if u.demo {
            out.push_str(&t(lang, "\n⚠️ DEMO-пользователь.", "\n⚠️ DEMO user."));
        }
        for i in &u.items {
            out.push_str(&format!("\n  #{} {} [{}] {}", i.id, i.name, i.status, i.token_price));
        }
        out.push_str(&t(lang, "\nПоследние записи журнала:", "\nRecent ledger:"));
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

    pub fn granted(lang: Lang, user_id: i64, amount: Tokens, balance: Tokens) -> String {
        let sign = if amount.0 > 0 { "+" } else { "" };
        if lang == Lang::Ru {
            format!("✅ {sign}{amount} токенов игроку {user_id}; баланс {balance}")
        } else {
            format!("✅ {sign}{amount} tokens to {user_id}; balance {balance}")
        }
    }
}

#[cfg(test)]
mod currency_tests {
    use super::*;

    #[test]
    fn refund_notices_name_skins_in_the_readers_language_and_old_notices_still_read() {
        let queued =
            r#"{"kind":"purchase_refunded","tokens":"5","stars":50,"items":[{"en":"P250 | Sand Dune","ru":"P250 | Песчаная дюна"}]}"#;
        let notice: Notice = serde_json::from_str(queued).unwrap();
        assert!(super::notice(Lang::Ru, &notice).contains("P250 | Песчаная дюна"));
        assert!(super::notice(Lang::En, &notice).contains("P250 | Sand Dune"));
        // Queued before the names were localised: the Steam name, as it was.
        let old = r#"{"kind":"withdrawal_cancelled","item":"P250 | Sand Dune (Field-Tested)"}"#;
        let notice: Notice = serde_json::from_str(old).unwrap();
        assert!(super::notice(Lang::Ru, &notice).contains("«P250 | Sand Dune (Field-Tested)»"));
    }

    #[test]
    fn a_shared_skin_card_speaks_the_readers_language_and_counts_in_tokens() {
        let ru = skin_card(Lang::Ru, "M4A4 | Чоппа", "Field-Tested", "12", "Аня");
        assert!(ru.contains("После полевых испытаний") && ru.contains("12 токенов") && !ru.contains("Field-Tested"), "{ru}");
        let en = skin_card(Lang::En, "M4A4 | Choppa", "Field-Tested", "12", "Ann");
        assert!(en.contains("Field-Tested") && en.contains("12 tokens"), "{en}");
    }

    #[test]
    fn no_player_or_admin_text_calls_the_currency_by_its_old_name() {
        let src = include_str!("texts.rs");
        let words = src.replace("FragBox", "").replace("fragbox", "");
        // This test's own needles are split so they do not match themselves.
        for needle in [concat!("fr", "ag"), concat!("фр", "аг"), concat!("Фр", "аг")] {
            assert!(!words.contains(needle), "texts.rs still says {needle}");
        }
    }
}
