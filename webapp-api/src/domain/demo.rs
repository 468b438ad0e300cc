//! Demo mode (no bot token): signed init data for throwaway demo users, and an in-process
//! Telegram so purchases, the subscription check and sharing work end to end in a browser.
use std::sync::atomic::{AtomicI32, Ordering};

use crate::domain::auth::sign_init_data;
use crate::domain::clock::random_hex;
pub use crate::domain::registration::{is_demo_id, DEMO_GRANT, DEMO_ID_BASE};
use crate::domain::telegram::{BoxFuture, Button, Invoice, SharedSkin, Telegram, TgResult};
use crate::domain::{Domain, DomainError, DomainResult};

/// Demo invoice links end in this slug prefix followed by the transaction id.
pub const DEMO_INVOICE_PREFIX: &str = "https://t.me/$demo";

/// Signed init data for a demo user: `demo_id` when it is one, else a fresh one.
pub fn init_data(domain: &Domain, demo_id: Option<i64>, start_param: Option<&str>) -> DomainResult<(String, i64)> {
    if !domain.config.demo {
        return Err(DomainError::NotFound);
    }
    let id = match demo_id.filter(|&id| is_demo_id(id)) {
        Some(id) => id,
        None => {
            let mut b = [0u8; 4];
            domain.random.fill(&mut b);
            DEMO_ID_BASE + i64::from(u32::from_be_bytes(b) % 1_000_000_000)
        }
    };
    if let Some(p) = start_param {
        if p.len() > 512 || !p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
            return Err(DomainError::BadRequest("startParam: up to 512 of [A-Za-z0-9_-]".into()));
        }
    }
    let user = serde_json::json!({
        "id": id, "first_name": "Demo", "last_name": "Player", "username": format!("demo{}", id % 100_000),
        "language_code": "ru", "allows_write_to_pm": true
    })
    .to_string();
    let auth_date = domain.now().to_string();
    let query_id = format!("DEMO{}", random_hex(domain.random.as_ref(), 6));
    // Current clients also send Telegram's Ed25519 `signature`; the SDK expects the field. A demo
    // has no Telegram key, so it carries random bytes: only our HMAC `hash` is checked.
    let signature = random_hex(domain.random.as_ref(), 32);
    let mut pairs: Vec<(&str, &str)> = vec![("auth_date", &auth_date), ("query_id", &query_id), ("user", &user), ("signature", &signature)];
    if let Some(p) = start_param {
        pairs.push(("start_param", p));
    }
    Ok((sign_init_data(&pairs, &domain.config.bot_token), id))
}

/// Telegram as demo mode plays it: everyone is subscribed, invoices are paid through the demo
/// payment endpoint, messages go to the log.
#[derive(Default)]
pub struct DemoTelegram {
    next_message_id: AtomicI32,
}

impl Telegram for DemoTelegram {
    fn is_chat_member<'a>(&'a self, _chat: &'a str, _user_id: i64) -> BoxFuture<'a, TgResult<bool>> {
        Box::pin(async { Ok(true) })
    }
    fn create_invoice_link(&self, invoice: Invoice) -> BoxFuture<'_, TgResult<String>> {
        Box::pin(async move { Ok(format!("{DEMO_INVOICE_PREFIX}{}", invoice.payload)) })
    }
    fn save_prepared_inline_message(&self, skin: SharedSkin) -> BoxFuture<'_, TgResult<String>> {
        Box::pin(async move { Ok(format!("demo-{}", skin.result_id)) })
    }
    fn refund_star_payment<'a>(&'a self, _user_id: i64, _charge_id: &'a str) -> BoxFuture<'a, TgResult<()>> {
        Box::pin(async { Ok(()) })
    }
    fn send_message(&self, chat_id: i64, text: String, _button: Option<Button>) -> BoxFuture<'_, TgResult<i32>> {
        let id = self.next_message_id.fetch_add(1, Ordering::Relaxed) + 1;
        Box::pin(async move {
            tracing::info!(chat_id, %text, "demo: chat message (not sent: no bot token)");
            Ok(id)
        })
    }
}
