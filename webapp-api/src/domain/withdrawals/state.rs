//! The withdrawal's states, and the two writes that move them: `transition` is the only `UPDATE`
//! of a withdrawal's state (`withdrawals.market_state` and `status`), `move_item` the only move of
//! a withdrawal's skin. Delivery, operators, refunds and the audit name states through
//! `MarketState` and move them through these, so no other file spells a state list.
use crate::domain::store::{query, Exec, Param};
use crate::domain::{DomainError, DomainResult};

/// Where an automatic withdrawal stands on the market (`NULL` in the row: a manual withdrawal).
/// The life of each is drawn in `domain/delivery/mod.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarketState {
    Queued,
    Buying,
    Bought,
    OfferSent,
    Settling,
    Settled,
    Bounced,
    Reversed,
    PlayerReversed,
    Manual,
}

impl MarketState {
    /// A purchase may be live on the market: no take-over by hand, no refund cancel.
    pub const LIVE: &'static [MarketState] = &[MarketState::Buying, MarketState::Bought, MarketState::OfferSent];
    /// A purchase the poller follows on the market until it is delivered or comes back.
    pub const IN_FLIGHT: &'static [MarketState] = &[MarketState::Bought, MarketState::OfferSent];
    /// Not finished: the worker or the admins still have to act.
    pub const OPEN: &'static [MarketState] = &[MarketState::Queued, MarketState::Buying, MarketState::Bought, MarketState::OfferSent];
    /// Delivered: the skin left (and may still come back while it settles).
    pub const DELIVERED: &'static [MarketState] = &[MarketState::Settling, MarketState::Settled, MarketState::PlayerReversed];

    pub const fn as_str(self) -> &'static str {
        match self {
            MarketState::Queued => "queued",
            MarketState::Buying => "buying",
            MarketState::Bought => "bought",
            MarketState::OfferSent => "offer_sent",
            MarketState::Settling => "settling",
            MarketState::Settled => "settled",
            MarketState::Bounced => "bounced",
            MarketState::Reversed => "reversed",
            MarketState::PlayerReversed => "player_reversed",
            MarketState::Manual => "manual",
        }
    }

    pub fn parse(raw: &str) -> Option<MarketState> {
        [
            MarketState::Queued,
            MarketState::Buying,
            MarketState::Bought,
            MarketState::OfferSent,
            MarketState::Settling,
            MarketState::Settled,
            MarketState::Bounced,
            MarketState::Reversed,
            MarketState::PlayerReversed,
            MarketState::Manual,
        ]
        .into_iter()
        .find(|s| s.as_str() == raw)
    }

    pub fn is_live(self) -> bool {
        Self::LIVE.contains(&self)
    }

    /// `('a', 'b')`, for an SQL `IN` (the names are this enum's own constants, never input).
    pub fn sql_list(states: &[MarketState]) -> String {
        let names: Vec<String> = states.iter().map(|s| format!("'{}'", s.as_str())).collect();
        format!("({})", names.join(", "))
    }
}

/// What a purchase attempt came to (`market_attempts.outcome`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The call may be on the wire.
    Buying,
    /// The answer was lost or not understood: looked up until the market says or the window passes.
    Unknown,
    Bought,
    NotBought,
}

impl Outcome {
    /// Attempts that may still have bought: a withdrawal with one is live whatever its state.
    pub const UNRESOLVED: &'static [Outcome] = &[Outcome::Buying, Outcome::Unknown];

    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Buying => "buying",
            Outcome::Unknown => "unknown",
            Outcome::Bought => "bought",
            Outcome::NotBought => "not_bought",
        }
    }

    pub fn sql_list(outcomes: &[Outcome]) -> String {
        let names: Vec<String> = outcomes.iter().map(|o| format!("'{}'", o.as_str())).collect();
        format!("({})", names.join(", "))
    }
}

/// Whether any attempt of withdrawal `id` may still have bought (`Outcome::UNRESOLVED`): such a
/// withdrawal is live whatever its state, so nobody may take it over, retry it or cancel it.
pub async fn has_open_attempt(tx: &mut dyn Exec, id: i64) -> DomainResult<bool> {
    let sql =
        format!("SELECT COUNT(*) FROM market_attempts WHERE withdrawal_id = $1 AND outcome IN {}", Outcome::sql_list(Outcome::UNRESOLVED));
    let (open,): (i64,) = query(&sql).bind(id).fetch_one(tx).await?;
    Ok(open > 0)
}

/// Where a transition may start.
#[derive(Clone, Copy, Debug)]
pub enum From<'a> {
    /// From one of these market states.
    In(&'a [MarketState]),
    /// A manual withdrawal, or an automatic one whose purchase cannot be live (a take-over).
    NotLive,
}

/// A further condition of a transition, checked in the same statement.
#[derive(Clone, Debug)]
pub enum Cond {
    /// Still pending (not sent, not back with the player).
    Pending,
    /// Still under this purchase attempt.
    Attempt(String),
    /// Still leased by this worker.
    LeaseHolder(String),
    /// Its settling window closed at or before this time.
    SettledBy(i64),
    /// None of its attempts may still have bought.
    NoOpenAttempt,
}

/// One move of one withdrawal: from where, to which market state (a manual withdrawal, whose
/// market state is `NULL`, keeps it), on which further conditions, and which other columns the
/// same write sets (`status`, reasons, times, the lease...).
pub struct Move<'a> {
    pub id: i64,
    pub from: From<'a>,
    pub to: MarketState,
    pub when: Vec<Cond>,
    pub set: Vec<(&'static str, Param)>,
}

/// The only `UPDATE` of a withdrawal's state: conditional on where it is; true when it moved
/// (false: another writer moved it first, and the caller must not act as if it had).
pub async fn transition(tx: &mut dyn Exec, m: Move<'_>) -> DomainResult<bool> {
    let mut params: Vec<Param> = vec![m.to.as_str().into()];
    let mut sets = vec!["market_state = CASE WHEN market_state IS NULL THEN NULL ELSE $1 END".to_owned()];
    for (column, value) in m.set {
        params.push(value);
        sets.push(format!("{column} = ${}", params.len()));
    }
    params.push(m.id.into());
    let mut wheres = vec![format!("id = ${}", params.len())];
    wheres.push(match m.from {
        From::In(states) => format!("market_state IN {}", MarketState::sql_list(states)),
        From::NotLive => format!("(market_state IS NULL OR market_state NOT IN {})", MarketState::sql_list(MarketState::LIVE)),
    });
    for cond in m.when {
        wheres.push(match cond {
            Cond::Pending => "status = 'pending'".to_owned(),
            Cond::Attempt(cid) => {
                params.push(cid.into());
                format!("custom_id = ${}", params.len())
            }
            Cond::LeaseHolder(holder) => {
                params.push(holder.into());
                format!("lease_holder = ${}", params.len())
            }
            Cond::SettledBy(at) => {
                params.push(at.into());
                format!("settle_until <= ${}", params.len())
            }
            Cond::NoOpenAttempt => format!(
                "NOT EXISTS (SELECT 1 FROM market_attempts a WHERE a.withdrawal_id = withdrawals.id AND a.outcome IN {})",
                Outcome::sql_list(Outcome::UNRESOLVED)
            ),
        });
    }
    let sql = format!("UPDATE withdrawals SET {} WHERE {}", sets.join(", "), wheres.join(" AND "));
    let mut q = query(&sql);
    for p in params {
        q = q.bind(p);
    }
    Ok(q.execute(tx).await? == 1)
}

/// The states of a skin a withdrawal moves (`inventory_items.status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemStatus {
    Received,
    Pending,
    Sent,
    Error,
    Revoked,
}

impl ItemStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            ItemStatus::Received => "received",
            ItemStatus::Pending => "pending",
            ItemStatus::Sent => "sent",
            ItemStatus::Error => "error",
            ItemStatus::Revoked => "revoked",
        }
    }

    fn sql_list(statuses: &[ItemStatus]) -> String {
        let names: Vec<String> = statuses.iter().map(|s| format!("'{}'", s.as_str())).collect();
        format!("({})", names.join(", "))
    }
}

/// Moves skin `item_id` from one of `from` to `to` with the player's reason (a code the app
/// translates, and an operator's note). Exactly one row must move: a skin that is not where its
/// withdrawal says is an internal error, and nothing of the caller's write is kept.
pub async fn move_item(
    tx: &mut dyn Exec,
    item_id: i64,
    from: &[ItemStatus],
    to: ItemStatus,
    code: Option<&str>,
    note: Option<&str>,
    now: i64,
) -> DomainResult<()> {
    let sql = format!(
        "UPDATE inventory_items SET status = $1, status_reason = $2, status_reason_code = $3, updated_at = $4
         WHERE id = $5 AND status IN {}",
        ItemStatus::sql_list(from)
    );
    let moved = query(&sql).bind(to.as_str()).bind(note).bind(code).bind(now).bind(item_id).execute(tx).await?;
    if moved != 1 {
        return Err(DomainError::Internal(format!("skin {item_id}: not in {} to become {}", ItemStatus::sql_list(from), to.as_str())));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_reads_back_and_the_lists_are_sql() {
        for s in [MarketState::Queued, MarketState::OfferSent, MarketState::PlayerReversed, MarketState::Manual] {
            assert_eq!(MarketState::parse(s.as_str()), Some(s));
        }
        assert_eq!(MarketState::parse("lost"), None);
        assert_eq!(MarketState::sql_list(MarketState::LIVE), "('buying', 'bought', 'offer_sent')");
        assert_eq!(Outcome::sql_list(Outcome::UNRESOLVED), "('buying', 'unknown')");
        assert!(MarketState::Buying.is_live() && !MarketState::Manual.is_live());
    }
}
