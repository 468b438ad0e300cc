//! The admins' messages the price rules queue (through the outbox, which the bot drains).
use crate::domain::outbox;
use crate::domain::store::Exec;
use crate::domain::DomainError;

/// Telegram refuses a message over 4096 characters; the rest is left out, whole lines only.
const MAX_CHARS: usize = 3_900;

/// `body` cut to whole lines within `MAX_CHARS` characters, marked when cut.
pub fn fit(body: &str) -> String {
    if body.chars().count() <= MAX_CHARS {
        return body.to_owned();
    }
    let mut out = String::new();
    for line in body.lines() {
        if out.chars().count() + line.chars().count() + 1 > MAX_CHARS - 40 {
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("… (cut: `fragbox catalog held` lists all)");
    out
}

/// Queues one message to each admin chat (`outbox::tell_admins`), in the caller's
/// write; a body too long for Telegram is cut (`fit`).
pub async fn queue_notice(tx: &mut dyn Exec, admins: &[i64], body: &str, now: i64) -> Result<(), DomainError> {
    outbox::tell_admins(tx, admins, &fit(body), now).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_message_is_cut_to_whole_lines_telegram_takes() {
        assert_eq!(fit("short\nmessage"), "short\nmessage");
        let long: String = (0..200).map(|i| format!("• ★ StatTrak™ Karambit | Doppler (Factory New) line {i}\n")).collect();
        let cut = fit(&long);
        assert!(cut.chars().count() <= MAX_CHARS, "{}", cut.chars().count());
        assert!(cut.ends_with("lists all)"));
        assert!(cut.lines().rev().nth(1).unwrap().starts_with("• ★"), "whole lines only");
    }
}
