//! Drains the notification outbox: claim, send, mark sent, retry with back-off, give up on blocked
//! users. Every replica runs one; claimed rows are leased, so each message leaves from one of them.
use std::future::Future;
use std::time::Duration;

use webapp_api::domain::telegram::{Button, TelegramError};
use webapp_api::domain::{notifications, pricing, tickets};
use webapp_api::domain::{users, Domain};

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

/// Sends what is due now (players' notices and ticket forwards to the admins); answers how many
/// were sent.
pub async fn drain_once(domain: &Domain, webapp_url: &str) -> Result<usize, webapp_api::domain::DomainError> {
    let mut sent = 0;
    // A forward's parts go in order: after a failure, the rest of that chat's ticket waits
    // (claimed, it comes due again after its lease, behind the failed part).
    let mut held: Vec<(i64, i64)> = Vec::new();
    for f in tickets::claim_due_forwards(domain, 50).await? {
        if held.contains(&(f.admin_chat_id, f.ticket_id)) {
            continue;
        }
        let key = (f.admin_chat_id, f.ticket_id);
        match domain.telegram.send_message(f.admin_chat_id, f.body.clone(), None).await {
            Ok(message_id) => {
                tickets::forward_sent(domain, &f, message_id).await?;
                sent += 1;
            }
            Err(TelegramError::Blocked(why)) => tickets::forward_failed(domain, &f, &why, true).await?,
            Err(e) => {
                held.push(key);
                tickets::forward_failed(domain, &f, &e.to_string(), false).await?
            }
        }
    }
    // Admin notices that belong to no ticket (a reprice that held price jumps).
    for n in pricing::claim_due_notices(domain, 50).await? {
        match domain.telegram.send_message(n.admin_chat_id, n.body.clone(), None).await {
            Ok(_) => {
                pricing::notice_sent(domain, n.id).await?;
                sent += 1;
            }
            Err(TelegramError::Blocked(why)) => pricing::notice_failed(domain, &n, &why, true).await?,
            Err(e) => pricing::notice_failed(domain, &n, &e.to_string(), false).await?,
        }
    }
    for p in notifications::claim_due(domain, 50).await? {
        let Some(notice) = p.notice else {
            notifications::mark_failed(domain, p.id, p.attempts, "unreadable payload", true).await?;
            continue;
        };
        let lang = users::language(domain, p.user_id).await;
        let button = Button::WebApp { text: texts::open_app(lang).into(), url: webapp_url.to_owned() };
        let button = webapp_url.starts_with("https://").then_some(button);
        match domain.telegram.send_message(p.user_id, texts::notice(lang, &notice), button).await {
            Ok(message_id) => {
                notifications::mark_sent(domain, p.id, message_id).await?;
                sent += 1;
            }
            Err(TelegramError::Blocked(why)) => {
                notifications::mark_failed(domain, p.id, p.attempts, &why, true).await?;
                notifications::mark_user_blocked(domain, p.user_id).await?;
            }
            Err(e) => notifications::mark_failed(domain, p.id, p.attempts, &e.to_string(), false).await?,
        }
    }
    Ok(sent)
}
