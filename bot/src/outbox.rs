//! Drains the outbox (`domain::outbox`): one loop for every channel — claim what is due, render
//! each message for its channel, send, mark it sent or failed (one back-off, given up on a chat
//! that blocked the bot). Every replica runs one; claimed rows are leased, so each message leaves
//! from one of them.
use std::future::Future;
use std::time::Duration;

use webapp_api::domain::outbox::{self, Outgoing};
use webapp_api::domain::telegram::{Button, TelegramError};
use webapp_api::domain::{notifications, users, Domain, DomainError};

use crate::texts;

pub const POLL_EVERY: Duration = Duration::from_millis(1000);

pub async fn run(domain: Domain, webapp_url: String, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    loop {
        tokio::select! {
            _ = &mut stop => return,
            _ = tokio::time::sleep(POLL_EVERY) => {}
        }
        if let Err(e) = drain_once(&domain, &webapp_url).await {
            tracing::warn!(error = %e, "outbox drain failed");
        }
    }
}

/// Sends what is due now (players' notices, ticket forwards and notices to the admins); answers
/// how many were sent.
pub async fn drain_once(domain: &Domain, webapp_url: &str) -> Result<usize, DomainError> {
    let mut sent = 0;
    // A forward's parts go in order: after a failure, the rest of that chat's ticket waits
    // (claimed, it comes due again after its lease, behind the failed part).
    let mut held: Vec<(i64, i64)> = Vec::new();
    for due in outbox::claim_due(domain, outbox::CLAIM_BATCH).await? {
        let sequence = due.sequence();
        if sequence.is_some_and(|s| held.contains(&s)) {
            continue;
        }
        let Some(message) = &due.message else {
            outbox::failed(domain, &due, "unreadable payload", true).await?;
            continue;
        };
        let (text, button) = render(domain, message, webapp_url).await;
        match domain.telegram.send_message(due.chat_id, text, button).await {
            Ok(message_id) => {
                outbox::sent(domain, &due, message_id).await?;
                sent += 1;
            }
            Err(TelegramError::Blocked(why)) => {
                outbox::failed(domain, &due, &why, true).await?;
                if let Some(player) = due.player() {
                    notifications::mark_user_blocked(domain, player).await?;
                }
            }
            Err(e) => {
                held.extend(sequence);
                outbox::failed(domain, &due, &e.to_string(), false).await?;
            }
        }
    }
    Ok(sent)
}

/// A message's text and button as its channel shows it: a player's notice in their language with
/// the mini app's button (only where the mini app is served over HTTPS, as Telegram requires);
/// the admins' messages as they were queued.
async fn render(domain: &Domain, message: &Outgoing, webapp_url: &str) -> (String, Option<Button>) {
    match message {
        Outgoing::Player { user_id, notice } => {
            let lang = users::language(domain, *user_id).await;
            let button = Button::WebApp { text: texts::open_app(lang).into(), url: webapp_url.to_owned() };
            (texts::notice(lang, notice), webapp_url.starts_with("https://").then_some(button))
        }
        Outgoing::TicketForward { text, .. } | Outgoing::AdminNotice { text, .. } => (text.clone(), None),
    }
}
