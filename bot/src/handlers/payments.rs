//! Telegram Stars: pre-checkout answers, successful and refunded payments. These branches sit
//! outside any dialogue so they are never dropped.
use std::time::Duration;

use teloxide::prelude::*;
use teloxide::types::{PreCheckoutQuery, RefundedPayment, SuccessfulPayment};
use webapp_api::domain::payments::{self, Paid, PaidReport, Refunded};
use webapp_api::domain::{users, Domain};

use crate::handlers::HandlerResult;
use crate::texts;

/// Answers within Telegram's 10 seconds: `ok` only for a pending transaction of the payer with
/// the same amount; otherwise (or when the check itself fails) a refusal in the payer's language.
pub async fn pre_checkout(bot: Bot, q: PreCheckoutQuery, domain: Domain) -> HandlerResult {
    let user_id = q.from.id.0 as i64;
    let verdict = tokio::time::timeout(
        Duration::from_secs(7),
        payments::pre_checkout(&domain, user_id, &q.invoice_payload, &q.currency, i64::from(q.total_amount)),
    )
    .await;
    let refusal = match verdict {
        Ok(Ok(Ok(()))) => {
            bot.answer_pre_checkout_query(q.id, true).await?;
            return Ok(());
        }
        Ok(Ok(Err(r))) => Some(r),
        Ok(Err(e)) => {
            tracing::error!(error = %e, payload = %q.invoice_payload, "pre-checkout check failed");
            None
        }
        Err(_) => {
            tracing::error!(payload = %q.invoice_payload, "pre-checkout check timed out");
            None
        }
    };
    let lang = users::language_or(&domain, user_id, q.from.language_code.as_deref()).await;
    bot.answer_pre_checkout_query(q.id, false).error_message(texts::checkout_refused(lang, refusal)).await?;
    Ok(())
}

/// Credits once per charge id; the player hears about it through the outbox. A payment that
/// matches nothing is kept for the admins, who are told at once.
pub async fn successful(bot: Bot, msg: Message, payment: SuccessfulPayment, domain: Domain) -> HandlerResult {
    let Some(from) = msg.from.as_ref() else { return Ok(()) };
    let report = PaidReport {
        user_id: from.id.0 as i64,
        payload: payment.invoice_payload.clone(),
        currency: payment.currency.clone(),
        total_amount: i64::from(payment.total_amount),
        charge_id: payment.telegram_payment_charge_id.0.clone(),
        provider_charge_id: Some(payment.provider_payment_charge_id.clone()).filter(|s| !s.is_empty()),
    };
    // Telegram does not deliver an update twice on our say-so: retry a failing write here.
    let mut outcome = payments::record_paid(&domain, &report).await;
    for delay in [200, 1000, 3000] {
        if outcome.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(delay)).await;
        outcome = payments::record_paid(&domain, &report).await;
    }
    match outcome {
        Ok(Paid::Credited { transaction_id, tokens, .. }) => {
            tracing::info!(%transaction_id, %tokens, user_id = report.user_id, "stars payment credited");
        }
        Ok(Paid::AlreadyCredited) => tracing::info!(charge_id = %report.charge_id, "repeated successful_payment ignored"),
        Ok(Paid::Orphan { new }) => {
            tracing::warn!(?report, "payment matched no pending transaction: kept as an orphan");
            if new {
                let lang = users::language_or(&domain, report.user_id, from.language_code.as_deref()).await;
                bot.send_message(msg.chat.id, texts::payment_unmatched(lang)).await?;
                let r = report.clone();
                tell_admins(&bot, &domain, move |lang| {
                    texts::admin::orphan_note(lang, r.total_amount, &r.currency, r.user_id, &r.payload, &r.charge_id)
                })
                .await;
            }
        }
        Err(e) => {
            // Logged with everything needed to credit it by hand.
            tracing::error!(error = %e, ?report, "SUCCESSFUL PAYMENT NOT RECORDED");
            return Err(e.into());
        }
    }
    Ok(())
}

/// A refund made outside `/refund` (Telegram tells us with a service message): the purchase's
/// value is clawed back (balance, skins won since, then a debt) and the admins are told.
pub async fn refunded(bot: Bot, msg: Message, refund: RefundedPayment, domain: Domain) -> HandlerResult {
    let charge_id = refund.telegram_payment_charge_id.0;
    match payments::record_refunded(&domain, &charge_id, msg.chat.id.0).await? {
        Some(r @ Refunded::Reversed { .. }) => {
            tell_admins(&bot, &domain, move |lang| {
                texts::admin::refund_outside(lang, &crate::handlers::admin::refund_text(lang, r.clone()), &charge_id)
            })
            .await;
        }
        Some(_) => tracing::info!(%charge_id, "refunded_payment for a refund already recorded"),
        None => tracing::warn!(%charge_id, "refunded_payment for no credited payment"),
    }
    Ok(())
}

/// Sends a note to every admin chat, each in that admin's language; failures are logged only.
pub async fn tell_admins(bot: &Bot, domain: &Domain, text: impl Fn(texts::Lang) -> String) {
    for &admin in &domain.config.admin_ids {
        let lang = crate::handlers::admin::admin_lang_by_id(domain, admin).await;
        if let Err(e) = bot.send_message(ChatId(admin), text(lang)).await {
            tracing::warn!(admin, error = %e, "admin note not delivered");
        }
    }
}

/// The payment in a `refunded_payment` service message (teloxide has no filter for it).
pub fn refunded_payment(msg: Message) -> Option<RefundedPayment> {
    match msg.kind {
        teloxide::types::MessageKind::RefundedPayment(r) => Some(r.refunded_payment),
        _ => None,
    }
}
