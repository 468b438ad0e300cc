//! Steam trade-offer links.
use crate::domain::store::{query, Exec};
use crate::domain::{DomainError, DomainResult};

/// A trade link that passed the rule: `https://steamcommunity.com/tradeoffer/new/?partner=N&token=T`
/// with N an account id in 1..=4294967295 and T 1..=64 of `[A-Za-z0-9_-]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TradeUrl {
    pub partner: u32,
    pub token: String,
}

const PREFIX: &str = "https://steamcommunity.com/tradeoffer/new/?";

impl TradeUrl {
    pub fn parse(raw: &str) -> DomainResult<TradeUrl> {
        let query = raw.trim().strip_prefix(PREFIX).ok_or(DomainError::InvalidTradeUrl)?;
        let (p, t) = query.split_once('&').ok_or(DomainError::InvalidTradeUrl)?;
        let partner = p.strip_prefix("partner=").ok_or(DomainError::InvalidTradeUrl)?;
        let token = t.strip_prefix("token=").ok_or(DomainError::InvalidTradeUrl)?;
        if partner.is_empty() || partner.len() > 10 || !partner.bytes().all(|b| b.is_ascii_digit()) || partner.starts_with('0') {
            return Err(DomainError::InvalidTradeUrl);
        }
        let partner: u64 = partner.parse().map_err(|_| DomainError::InvalidTradeUrl)?;
        let partner = u32::try_from(partner).map_err(|_| DomainError::InvalidTradeUrl)?;
        if token.is_empty() || token.len() > 64 || !token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
            return Err(DomainError::InvalidTradeUrl);
        }
        Ok(TradeUrl { partner, token: token.to_owned() })
    }

    /// The 64-bit Steam id of the partner account.
    pub fn steam_id64(&self) -> u64 {
        76_561_197_960_265_728 + u64::from(self.partner)
    }
}

impl std::fmt::Display for TradeUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{PREFIX}partner={}&token={}", self.partner, self.token)
    }
}

/// Stores `url` as the player's trade link.
pub async fn save(conn: &mut dyn Exec, user_id: i64, url: &TradeUrl, now: i64) -> DomainResult<()> {
    query("UPDATE users SET trade_url = $1, updated_at = $2 WHERE id = $3")
        .bind(url.to_string())
        .bind(now)
        .bind(user_id)
        .execute(conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_well_formed_trade_url_is_accepted() {
        let url = TradeUrl::parse("https://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbC_d-9").unwrap();
        assert_eq!(url.partner, 123456789);
        assert_eq!(url.steam_id64(), 76561198083722517);
        assert_eq!(url.to_string(), "https://steamcommunity.com/tradeoffer/new/?partner=123456789&token=AbC_d-9");
        assert!(TradeUrl::parse("https://steamcommunity.com/tradeoffer/new/?partner=4294967295&token=x").is_ok());
    }

    #[test]
    fn trade_urls_that_break_the_rule_are_rejected() {
        for bad in [
            "",
            "http://steamcommunity.com/tradeoffer/new/?partner=1&token=x",
            "https://steamcommunity.com.evil.io/tradeoffer/new/?partner=1&token=x",
            "https://evil.io/tradeoffer/new/?partner=1&token=x",
            "https://steamcommunity.com/tradeoffer/new?partner=1&token=x",
            "https://steamcommunity.com/tradeoffer/new/?partner=0&token=x",
            "https://steamcommunity.com/tradeoffer/new/?partner=4294967296&token=x",
            "https://steamcommunity.com/tradeoffer/new/?partner=-1&token=x",
            "https://steamcommunity.com/tradeoffer/new/?partner=12a&token=x",
            "https://steamcommunity.com/tradeoffer/new/?partner=1&token=",
            "https://steamcommunity.com/tradeoffer/new/?partner=1&token=a b",
            "https://steamcommunity.com/tradeoffer/new/?partner=1&token=a&x=1",
            "https://steamcommunity.com/tradeoffer/new/?token=x&partner=1",
            "https://steamcommunity.com/tradeoffer/new/?partner=1",
        ] {
            assert!(matches!(TradeUrl::parse(bad), Err(DomainError::InvalidTradeUrl)), "{bad}");
        }
    }

    #[test]
    fn a_trade_url_with_partner_zero_is_rejected() {
        assert!(TradeUrl::parse("https://steamcommunity.com/tradeoffer/new/?partner=0&token=abc").is_err());
    }
}
