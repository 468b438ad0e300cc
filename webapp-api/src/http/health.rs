//! The bot's link to Telegram as the process sees it: written by the bot's loops, read by
//! `/readyz` and `/metrics` (both in `ops`). A leaf: it uses nothing else of `crate::http`.
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The bot counts as up while its last call to Telegram succeeded and is at most this old.
/// The bot polls (or, on webhooks, checks in) far more often than this.
pub const BOT_RECENT: Duration = Duration::from_secs(90);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    /// No call has been answered or failed yet.
    Starting,
    Up,
    Down,
}

struct BotState {
    enabled: bool,
    link: Link,
    last_ok: Option<Instant>,
}

/// The bot's link to Telegram: written by the bot's loops after each call, read by `/readyz` and
/// `/metrics`. Without a bot (demo mode) it stays disabled.
pub struct BotHealth {
    state: Mutex<BotState>,
}

impl Default for BotHealth {
    fn default() -> Self {
        BotHealth { state: Mutex::new(BotState { enabled: false, link: Link::Starting, last_ok: None }) }
    }
}

/// What a call to Telegram changed, so the caller logs state changes only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The first success, or the first after failures.
    CameUp,
    /// The first failure, or the first after successes.
    WentDown,
    Same,
}

impl BotHealth {
    fn lock(&self) -> std::sync::MutexGuard<'_, BotState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A bot runs in this process: `/readyz` now depends on it.
    pub fn enable(&self) {
        self.lock().enabled = true;
    }

    pub fn enabled(&self) -> bool {
        self.lock().enabled
    }

    /// Telegram answered a call.
    pub fn reached(&self) -> Change {
        let mut s = self.lock();
        s.last_ok = Some(Instant::now());
        let was = std::mem::replace(&mut s.link, Link::Up);
        if was == Link::Up {
            Change::Same
        } else {
            Change::CameUp
        }
    }

    /// A call to Telegram failed (no answer, or an error answer).
    pub fn failed(&self) -> Change {
        let mut s = self.lock();
        let was = std::mem::replace(&mut s.link, Link::Down);
        if was == Link::Down {
            Change::Same
        } else {
            Change::WentDown
        }
    }

    /// Up: the last call succeeded, recently.
    pub fn is_up(&self) -> bool {
        let s = self.lock();
        s.enabled && s.link == Link::Up && s.last_ok.is_some_and(|t| t.elapsed() <= BOT_RECENT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bot_link_reports_each_change_once() {
        let h = BotHealth::default();
        assert!(!h.is_up());
        h.enable();
        assert_eq!(h.failed(), Change::WentDown);
        assert_eq!(h.failed(), Change::Same);
        assert!(!h.is_up());
        assert_eq!(h.reached(), Change::CameUp);
        assert_eq!(h.reached(), Change::Same);
        assert!(h.is_up());
        assert_eq!(h.failed(), Change::WentDown);
        assert!(!h.is_up());
    }

    #[test]
    fn a_disabled_bot_is_never_up() {
        let h = BotHealth::default();
        h.reached();
        assert!(!h.is_up());
    }
}
