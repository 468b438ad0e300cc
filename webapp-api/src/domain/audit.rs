//! `fragbox audit`: the invariants that must hold at every commit.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::domain::market::{self, CustomId, Market, MarketResult, PurchaseStatus, Stage, Usd};
use crate::domain::store::{self, query, Pool};
use crate::domain::withdrawals::{MarketState, Outcome};
use crate::domain::{DomainResult, Tokens};

/// Each check is a query that returns offending rows as text; an empty report is a clean bill.
const CHECKS: &[(&str, &str)] = &[
    (
        "balance differs from the ledger sum",
        "SELECT 'user ' || u.id || ': balance ' || u.balance || ' != ledger ' || COALESCE(SUM(l.amount), 0)
         FROM users u LEFT JOIN ledger_entries l ON l.user_id = u.id
         GROUP BY u.id HAVING u.balance <> COALESCE(SUM(l.amount), 0)",
    ),
    ("negative balance", "SELECT 'user ' || id || ': balance ' || balance FROM users WHERE balance < 0"),
    (
        "ledger running balance broken",
        "SELECT 'entry ' || id || ' of user ' || user_id FROM (
           SELECT id, user_id, balance_after,
                  SUM(amount) OVER (PARTITION BY user_id ORDER BY id) AS running FROM ledger_entries) AS r
         WHERE running <> balance_after OR balance_after < 0",
    ),
    (
        "open without its debit",
        // One debit pays every open of a request (keyed by its first open; `batch_open_id`).
        "SELECT 'open ' || g.first_id FROM (
           SELECT COALESCE(batch_open_id, id) AS first_id, SUM(price) AS total FROM case_opens GROUP BY COALESCE(batch_open_id, id)) g
         LEFT JOIN ledger_entries l ON l.idempotency_key = 'open:' || g.first_id
         WHERE l.id IS NULL OR l.amount <> -g.total",
    ),
    (
        "open without its item",
        "SELECT 'open ' || o.id FROM case_opens o LEFT JOIN inventory_items i ON i.open_id = o.id
         GROUP BY o.id HAVING COUNT(i.id) <> 1",
    ),
    (
        "sold item without its sale and credit",
        "SELECT 'item ' || i.id FROM inventory_items i
         LEFT JOIN sales s ON s.inventory_item_id = i.id
         LEFT JOIN ledger_entries l ON l.idempotency_key = 'sell:' || i.id
         WHERE i.status = 'sold' AND (s.id IS NULL OR l.id IS NULL OR l.amount <> s.amount)",
    ),
    (
        "sale of an item that is not sold",
        "SELECT 'item ' || i.id || ' is ' || i.status FROM sales s JOIN inventory_items i ON i.id = s.inventory_item_id
         WHERE i.status <> 'sold'",
    ),
    (
        "item in two states (pending without one pending withdrawal, or a pending withdrawal on a non-pending item)",
        "SELECT 'item ' || i.id || ' is ' || i.status || ' with ' || COUNT(w.id) || ' pending withdrawals'
         FROM inventory_items i LEFT JOIN withdrawals w ON w.inventory_item_id = i.id AND w.status = 'pending'
         GROUP BY i.id HAVING (i.status = 'pending') <> (COUNT(w.id) = 1)",
    ),
    (
        "sent item without a sent withdrawal",
        "SELECT 'item ' || i.id FROM inventory_items i WHERE i.status = 'sent'
         AND NOT EXISTS (SELECT 1 FROM withdrawals w WHERE w.inventory_item_id = i.id AND w.status = 'sent')",
    ),
    (
        "successful payment without its credit",
        "SELECT 'payment ' || p.id FROM payments p LEFT JOIN ledger_entries l ON l.idempotency_key = 'stars:' || p.charge_id
         WHERE p.status IN ('success', 'refunded') AND (l.id IS NULL OR l.amount <> p.tokens)",
    ),
    (
        "debt differs from its entries",
        "SELECT 'user ' || u.id || ': debt ' || u.debt || ' != entries ' || COALESCE(SUM(d.amount), 0)
         FROM users u LEFT JOIN debt_entries d ON d.user_id = u.id
         GROUP BY u.id HAVING u.debt <> COALESCE(SUM(d.amount), 0)",
    ),
    ("negative debt", "SELECT 'user ' || id || ': debt ' || debt FROM users WHERE debt < 0"),
    (
        "debt running total broken",
        "SELECT 'debt entry ' || id || ' of user ' || user_id FROM (
           SELECT id, user_id, debt_after, SUM(amount) OVER (PARTITION BY user_id ORDER BY id) AS running FROM debt_entries) x
         WHERE running <> debt_after OR debt_after < 0",
    ),
    (
        "debt repayment without its ledger entry",
        "SELECT 'debt entry ' || d.id FROM debt_entries d LEFT JOIN ledger_entries l ON l.idempotency_key = d.idempotency_key
         WHERE d.amount < 0 AND (l.id IS NULL OR l.amount <> d.amount OR l.user_id <> d.user_id)",
    ),
    (
        "ledger debt repayment without its debt entry",
        "SELECT 'entry ' || l.id FROM ledger_entries l LEFT JOIN debt_entries d ON d.idempotency_key = l.idempotency_key
         WHERE l.reason = 'debt_repayment' AND (d.id IS NULL OR d.amount <> l.amount)",
    ),
    (
        "debt opened without a refund settlement",
        "SELECT 'debt entry ' || d.id FROM debt_entries d
         WHERE d.amount > 0 AND NOT EXISTS (
           SELECT 1 FROM refund_settlements s JOIN payments p ON p.id = s.payment_id
           WHERE d.idempotency_key = 'refund-debt:' || p.charge_id AND s.debt = d.amount)",
    ),
    (
        "revoked item without its revocation (or a revocation of an item not revoked)",
        "SELECT 'item ' || i.id || ' is ' || i.status FROM inventory_items i
         LEFT JOIN item_revocations r ON r.inventory_item_id = i.id
         WHERE (i.status = 'revoked') <> (r.inventory_item_id IS NOT NULL)",
    ),
    (
        "bonus balance differs from its entries",
        "SELECT 'user ' || u.id || ': bonus ' || u.bonus_balance || ' != ' || (u.bonus_opening + COALESCE(SUM(l.bonus_amount), 0))
         FROM users u LEFT JOIN ledger_entries l ON l.user_id = u.id
         GROUP BY u.id HAVING u.bonus_balance <> u.bonus_opening + COALESCE(SUM(l.bonus_amount), 0)",
    ),
    (
        "bonus balance outside the balance",
        "SELECT 'user ' || id || ': bonus ' || bonus_balance || ' of ' || balance FROM users WHERE bonus_balance < 0 OR bonus_balance > balance",
    ),
    (
        "entry's bonus part larger than the entry or of the other sign",
        "SELECT 'entry ' || id FROM ledger_entries
         WHERE (amount > 0 AND (bonus_amount < 0 OR bonus_amount > amount)) OR (amount < 0 AND (bonus_amount > 0 OR bonus_amount < amount))",
    ),
    (
        "paid value credited as bonus or free value credited as paid",
        "SELECT 'entry ' || id || ' (' || reason || ')' FROM ledger_entries
         WHERE (reason IN ('stars_purchase') AND bonus_amount <> 0)
            OR (reason IN ('daily', 'streak_bonus', 'subscribe', 'first_case', 'referral', 'demo_grant', 'promo') AND bonus_amount <> amount)",
    ),
    (
        "paid grant credited as bonus",
        // An operator's paid grant (`grant:paid: …`, `admin::grant`) is paid value in full.
        "SELECT 'entry ' || id FROM ledger_entries WHERE reason LIKE 'grant:paid:%' AND (amount <= 0 OR bonus_amount <> 0)",
    ),
    (
        "skin that hides bonus its open spent (it could leave as paid value)",
        // The skins of one debit (several opened at once) carry its bonus part between them.
        "SELECT 'open ' || g.first_id FROM (
           SELECT COALESCE(o.batch_open_id, o.id) AS first_id, SUM(i.bonus_cost) AS bonus
           FROM inventory_items i JOIN case_opens o ON o.id = i.open_id GROUP BY COALESCE(o.batch_open_id, o.id)) g
         JOIN ledger_entries l ON l.idempotency_key = 'open:' || g.first_id
         WHERE g.bonus < -l.bonus_amount",
    ),
    (
        "promo redemption without its bonus credit",
        "SELECT 'promo ' || r.promo_id || ' of user ' || r.user_id FROM promo_redemptions r
         LEFT JOIN ledger_entries l ON l.idempotency_key = 'promo:' || r.promo_id || ':' || r.user_id
         WHERE l.id IS NULL OR l.user_id <> r.user_id OR l.amount <> r.tokens OR l.bonus_amount <> l.amount OR l.reason <> 'promo'",
    ),
    (
        "promo credit without its redemption",
        "SELECT 'entry ' || l.id FROM ledger_entries l WHERE l.reason = 'promo' AND NOT EXISTS (
           SELECT 1 FROM promo_redemptions r WHERE l.idempotency_key = 'promo:' || r.promo_id || ':' || r.user_id)",
    ),
    (
        "promo uses differ from its redemptions or exceed its limit",
        "SELECT 'promo ' || p.code || ': uses ' || p.uses || ' of ' || p.max_uses FROM promo_codes p
         WHERE p.uses > p.max_uses OR p.uses <> (SELECT COUNT(*) FROM promo_redemptions r WHERE r.promo_id = p.id)
            OR EXISTS (SELECT 1 FROM promo_redemptions r WHERE r.promo_id = p.id AND r.tokens <> p.tokens)",
    ),
    (
        "refund settlement does not add up to the purchase",
        "SELECT 'payment ' || s.payment_id FROM refund_settlements s JOIN payments p ON p.id = s.payment_id
         WHERE p.status <> 'refunded' OR s.tokens <> p.tokens OR s.taken > s.tokens
            OR (s.debt > 0 AND s.taken + s.revoked + s.debt <> s.tokens) OR (s.debt = 0 AND s.taken + s.revoked < s.tokens)
            OR s.taken <> COALESCE((SELECT -l.amount FROM ledger_entries l WHERE l.idempotency_key = 'stars-refund:' || p.charge_id), 0)
                        + COALESCE((SELECT SUM(h.amount) FROM refund_holds h WHERE h.charge_id = p.charge_id AND h.state = 'used'), 0)
            OR s.debt <> COALESCE((SELECT d.amount FROM debt_entries d WHERE d.idempotency_key = 'refund-debt:' || p.charge_id), 0)
            OR s.revoked <> COALESCE((SELECT SUM(r.value) FROM item_revocations r WHERE r.payment_id = p.id), 0)",
    ),
    (
        "automatic withdrawal whose market state and status disagree",
        "SELECT 'withdrawal ' || id || ': ' || market_state || ' is ' || status FROM withdrawals
         WHERE (market_state IN ('queued', 'buying', 'bought', 'offer_sent') AND status <> 'pending')
            OR (market_state IN ('settling', 'settled', 'player_reversed') AND status <> 'sent')
            OR (market_state IN ('bounced', 'reversed') AND status <> 'error')",
    ),
    (
        "market price paid over its cap",
        "SELECT 'withdrawal ' || id || ': paid ' || price_paid_cents || ' > cap ' || max_price_cents FROM withdrawals
         WHERE price_paid_cents IS NOT NULL AND (max_price_cents IS NULL OR price_paid_cents > max_price_cents)",
    ),
    (
        "item delivered by two withdrawals",
        "SELECT 'item ' || inventory_item_id FROM withdrawals WHERE status = 'sent' GROUP BY inventory_item_id HAVING COUNT(*) > 1",
    ),
    (
        "failed or reversed delivery whose item did not come back",
        "SELECT 'withdrawal ' || w.id || ': item ' || i.id || ' is ' || i.status FROM withdrawals w
         JOIN inventory_items i ON i.id = w.inventory_item_id
         WHERE w.market_state IN ('bounced', 'reversed') AND i.status IN ('pending', 'sent')
           AND NOT EXISTS (SELECT 1 FROM withdrawals later WHERE later.inventory_item_id = w.inventory_item_id AND later.id > w.id)",
    ),
    (
        "withdrawal bought twice on the market",
        "SELECT 'withdrawal ' || withdrawal_id FROM market_attempts WHERE outcome = 'bought' GROUP BY withdrawal_id HAVING COUNT(*) > 1",
    ),
    (
        "withdrawal's custom id is not one of its attempts",
        "SELECT 'withdrawal ' || w.id FROM withdrawals w WHERE w.custom_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM market_attempts a WHERE a.custom_id = w.custom_id AND a.withdrawal_id = w.id)",
    ),
    (
        "market attempt counted over its cap",
        "SELECT 'attempt ' || custom_id FROM market_attempts WHERE spent_cents > max_price_cents",
    ),
    (
        "market day's spend differs from its attempts",
        "SELECT 'day ' || s.day || ': ' || s.spent_cents || ' != ' || COALESCE(SUM(a.spent_cents), 0)
         FROM market_spend s LEFT JOIN market_attempts a ON a.day = s.day
         GROUP BY s.day, s.spent_cents HAVING s.spent_cents <> COALESCE(SUM(a.spent_cents), 0)",
    ),
];

/// Runs every check; answers the violations found (empty = clean).
pub async fn run(pool: &Pool) -> DomainResult<Vec<String>> {
    store::read(pool, None, |c| {
        Box::pin(async move {
            let mut problems = Vec::new();
            for (name, sql) in CHECKS {
                let rows: Vec<(String,)> = query(sql).fetch_all(&mut *c).await?;
                problems.extend(rows.into_iter().map(|(detail,)| format!("{name}: {detail}")));
            }
            Ok(problems)
        })
    })
    .await
}

/// Value that left against value paid, for one player (or the whole shop: `user_id` 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leakage {
    pub user_id: i64,
    /// Stars of purchases that stand (refunded ones do not count).
    pub paid_stars: i64,
    /// Tokens those purchases credited.
    pub bought: Tokens,
    /// Paid tokens operators granted (compensation, `fragbox grant --paid`): paid value no
    /// Stars stand behind, shown apart so that it is never mistaken for money received.
    pub granted_paid: Tokens,
    /// Token value of skins sent to Steam.
    pub sent: Tokens,
    /// Token value of skins waiting in a withdrawal.
    pub pending: Tokens,
}

impl Leakage {
    /// Paid value credited: purchases that stand and paid grants.
    pub fn paid_tokens(&self) -> Tokens {
        Tokens(self.bought.0 + self.granted_paid.0)
    }

    /// More left (or is leaving) than was ever paid.
    pub fn leaks(&self) -> bool {
        self.sent.0 + self.pending.0 > self.paid_tokens().0
    }
}

/// The paid grants' credits: a grant's entry without a bonus part. Grants made before paid
/// grants were marked in the ledger (`grant:paid: …`) are recognised by that alone.
const PAID_GRANTS: &str = "l.reason LIKE 'grant:%' AND l.amount > 0 AND l.bonus_amount = 0";

/// Per player who has withdrawn anything, and in total (last, `user_id` 0): what left as skins
/// against what was paid. A shop can reconcile every balance and still give away more than it
/// took in; this shows it.
pub async fn leakage(pool: &Pool) -> DomainResult<Vec<Leakage>> {
    let per_player = format!(
        "SELECT u.id,
                CAST(COALESCE((SELECT SUM(p.stars) FROM payments p WHERE p.user_id = u.id AND p.status = 'success'), 0) AS BIGINT),
                CAST(COALESCE((SELECT SUM(p.tokens) FROM payments p WHERE p.user_id = u.id AND p.status = 'success'), 0) AS BIGINT),
                CAST(COALESCE((SELECT SUM(l.amount) FROM ledger_entries l WHERE l.user_id = u.id AND {PAID_GRANTS}), 0) AS BIGINT),
                CAST(COALESCE((SELECT SUM(i.token_price) FROM inventory_items i WHERE i.user_id = u.id AND i.status = 'sent'), 0) AS BIGINT),
                CAST(COALESCE((SELECT SUM(i.token_price) FROM inventory_items i WHERE i.user_id = u.id AND i.status = 'pending'), 0) AS BIGINT)
         FROM users u
         WHERE EXISTS (SELECT 1 FROM inventory_items i WHERE i.user_id = u.id AND i.status IN ('sent', 'pending'))
         ORDER BY u.id"
    );
    type Sums = (Vec<(i64, i64, i64, i64, i64, i64)>, (i64, i64), (i64,));
    let (rows, (stars, tokens), (grants,)): Sums = store::read(pool, None, move |c| {
        Box::pin(async move {
            let rows = query(&per_player).fetch_all(&mut *c).await?;
            let paid = query(
                "SELECT CAST(COALESCE(SUM(stars), 0) AS BIGINT), CAST(COALESCE(SUM(tokens), 0) AS BIGINT) FROM payments WHERE status = 'success'",
            )
            .fetch_one(&mut *c)
            .await?;
            let grants = query(&format!("SELECT CAST(COALESCE(SUM(l.amount), 0) AS BIGINT) FROM ledger_entries l WHERE {PAID_GRANTS}"))
                .fetch_one(&mut *c)
                .await?;
            Ok((rows, paid, grants))
        })
    })
    .await?;
    let mut out: Vec<Leakage> = rows
        .into_iter()
        .map(|(user_id, paid_stars, bought, granted, sent, pending)| Leakage {
            user_id,
            paid_stars,
            bought: Tokens(bought),
            granted_paid: Tokens(granted),
            sent: Tokens(sent),
            pending: Tokens(pending),
        })
        .collect();
    let total = Leakage {
        user_id: 0,
        paid_stars: stars,
        bought: Tokens(tokens),
        granted_paid: Tokens(grants),
        sent: Tokens(out.iter().map(|l| l.sent.0).sum()),
        pending: Tokens(out.iter().map(|l| l.pending.0).sum()),
    };
    out.push(total);
    Ok(out)
}

// --- The money out: what the market holds against what the shop recorded (issue #30). ---

/// Market states of a withdrawal whose purchase is in flight, delivered or settling: the
/// withdrawals whose caps may be spent.
fn spending(state: &str) -> bool {
    MarketState::parse(state).is_some_and(|s| s.is_live() || MarketState::DELIVERED.contains(&s))
}

/// One purchase attempt the shop issued (a row of `market_attempts`), with what its withdrawal
/// became.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    pub custom_id: String,
    pub withdrawal_id: i64,
    /// The most this attempt could pay.
    pub cap: Usd,
    /// `buying`, `unknown`, `bought` or `not_bought`.
    pub outcome: String,
    /// The withdrawal's market state now (`manual` once taken over by hand).
    pub market_state: Option<String>,
    /// The withdrawal's cap now (its current attempt's), if it has one.
    pub withdrawal_cap: Option<Usd>,
}

/// Every purchase attempt the shop ever issued, by withdrawal and attempt.
pub async fn market_attempts(pool: &Pool) -> DomainResult<Vec<Attempt>> {
    type Row = (String, i64, i64, String, Option<String>, Option<i64>);
    let rows: Vec<Row> = store::read(pool, None, |c| {
        Box::pin(async move {
            query(
                "SELECT a.custom_id, a.withdrawal_id, a.max_price_cents, a.outcome, w.market_state, w.max_price_cents
                 FROM market_attempts a JOIN withdrawals w ON w.id = a.withdrawal_id ORDER BY a.withdrawal_id, a.attempt, a.custom_id",
            )
            .fetch_all(c)
            .await
        })
    })
    .await?;
    Ok(rows
        .into_iter()
        .map(|(custom_id, withdrawal_id, cap, outcome, market_state, withdrawal_cap)| Attempt {
            custom_id,
            withdrawal_id,
            cap: Usd::from_cents(cap),
            outcome,
            market_state,
            withdrawal_cap: withdrawal_cap.map(Usd::from_cents),
        })
        .collect())
}

/// The market part of the audit: the dollars that left against what the shop recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoneyOut {
    /// Attempt ids looked up (every one the shop issued).
    pub attempts: usize,
    /// Of them, the ones the market holds a purchase under.
    pub known: usize,
    /// What the market charged for them (an unknown price counts at its attempt's cap).
    pub spent: Usd,
    /// What it gave back: purchases timed out or cancelled (stage 5), except after a player's
    /// own reversal, where the market keeps part of the price.
    pub refunded: Usd,
    /// The caps of the withdrawals delivered, settling or in flight: what may have been spent.
    pub covered: Usd,
    /// Integrity violations found (each one line).
    pub violations: Vec<String>,
}

impl MoneyOut {
    /// Spent net of refunds.
    pub fn net(&self) -> Usd {
        Usd::from_cents(self.spent.cents() - self.refunded.cents())
    }
}

/// Holds what the market says (`held`: the purchases it knows, by id) against the attempts: a
/// purchase under an id recorded `not_bought`, two purchases for one withdrawal, a price over its
/// cap, a live purchase for a withdrawal that is neither in flight nor delivered, and dollars spent
/// beyond the caps of the withdrawals delivered, settling or in flight.
pub fn reconcile(attempts: &[Attempt], held: &HashMap<CustomId, PurchaseStatus>) -> MoneyOut {
    let mut out = MoneyOut { attempts: attempts.len(), ..MoneyOut::default() };
    let in_flight: BTreeSet<i64> =
        attempts.iter().filter(|a| Outcome::UNRESOLVED.iter().any(|o| o.as_str() == a.outcome)).map(|a| a.withdrawal_id).collect();
    let spending = |a: &Attempt| a.market_state.as_deref().is_some_and(spending) || in_flight.contains(&a.withdrawal_id);
    let mut bought_by: BTreeMap<i64, Vec<&str>> = BTreeMap::new();
    let mut covered: BTreeMap<i64, i64> = BTreeMap::new();
    for a in attempts {
        if spending(a) {
            // The withdrawal's cap counts once, however many attempts it took.
            let cap = a.withdrawal_cap.unwrap_or(a.cap).cents();
            covered.entry(a.withdrawal_id).and_modify(|c| *c = (*c).max(cap)).or_insert(cap);
        }
        let Some(status) = CustomId::parse(&a.custom_id).and_then(|id| held.get(&id)) else { continue };
        out.known += 1;
        bought_by.entry(a.withdrawal_id).or_default().push(&a.custom_id);
        let paid = status.paid.unwrap_or(a.cap);
        out.spent = Usd::from_cents(out.spent.cents() + paid.cents());
        let refunded = matches!(status.stage, Stage::TimedOut { .. }) && a.market_state.as_deref() != Some("player_reversed");
        if refunded {
            out.refunded = Usd::from_cents(out.refunded.cents() + paid.cents());
        }
        let what = format!("attempt {} of withdrawal {} ({}, paid {})", a.custom_id, a.withdrawal_id, stage_name(&status.stage), paid);
        if a.outcome == Outcome::NotBought.as_str() {
            out.violations.push(format!("purchase under an id the shop recorded as not bought: {what}"));
        } else if !refunded && !spending(a) {
            let state = a.market_state.as_deref().unwrap_or("taken over by hand");
            out.violations.push(format!("live purchase for a withdrawal neither in flight nor delivered ({state}): {what}"));
        }
        if status.paid.is_some_and(|p| p > a.cap) {
            out.violations.push(format!("market price paid over its cap: {what} > cap {}", a.cap));
        }
    }
    for (withdrawal, ids) in &bought_by {
        if ids.len() > 1 {
            out.violations.push(format!("two purchases for one withdrawal: withdrawal {withdrawal} under {}", ids.join(", ")));
        }
    }
    out.covered = Usd::from_cents(covered.values().sum());
    if out.net() > out.covered {
        out.violations.push(format!(
            "dollars spent beyond the value of withdrawals delivered, settling or in flight: {} net ({} spent, {} refunded) > {} at their caps",
            out.net(),
            out.spent,
            out.refunded,
            out.covered
        ));
    }
    out
}

fn stage_name(stage: &Stage) -> String {
    match stage {
        Stage::New => "stage 1".into(),
        Stage::Delivered => "stage 2".into(),
        Stage::TimedOut { causer } => format!("stage 5 by {causer:?}").to_lowercase(),
        Stage::Other(s) => format!("stage {s:?}"),
    }
}

/// Asks the market about every attempt, in batches of its size (one paced request each, through
/// the port). An id we stored that is not a valid id cannot be asked about: a violation.
pub async fn money_out(market: &dyn Market, attempts: &[Attempt]) -> MarketResult<MoneyOut> {
    let ids: Vec<CustomId> = attempts.iter().filter_map(|a| CustomId::parse(&a.custom_id)).collect();
    let held = market::statuses_batched(market, &ids).await?;
    let mut out = reconcile(attempts, &held);
    for a in attempts.iter().filter(|a| CustomId::parse(&a.custom_id).is_none()) {
        out.violations.push(format!("attempt id the market cannot be asked about: {:?} of withdrawal {}", a.custom_id, a.withdrawal_id));
    }
    Ok(out)
}

// --- Provenance: only paid value leaves, and a refund settles what its tokens funded. ---

/// Each query answers the skins that left (or are leaving) without the paid value behind them.
const PAID_ONLY_CHECKS: &[(&str, &str)] = &[(
    "skin won with bonus tokens left or is leaving",
    "SELECT 'item ' || i.id || ' (bonus ' || i.bonus_cost || ') in withdrawal ' || w.id || ', ' || w.status
     FROM withdrawals w JOIN inventory_items i ON i.id = w.inventory_item_id
     WHERE i.bonus_cost > 0 AND w.status IN ('pending', 'sent') ORDER BY w.id",
)];

const REFUND_CHECKS: &[(&str, &str)] = &[
    (
        // The simplest sound test of FIFO attribution: a settlement that took back (balance),
        // revoked (skins) or recorded as debt the payment's whole value leaves nothing funded by
        // it unaccounted for, whichever skins those tokens paid for. Without one, every skin won
        // since the purchase (in ledger order, as the refund walks them) that left is suspect.
        "skin won since a refunded purchase left, and the refund did not settle the purchase",
        "SELECT 'payment ' || p.id || ': item ' || i.id || ' in withdrawal ' || w.id || ', ' || w.status
         FROM payments p JOIN ledger_entries c ON c.idempotency_key = 'stars:' || p.charge_id
         JOIN inventory_items i ON i.user_id = p.user_id
         JOIN case_opens o ON o.id = i.open_id
         JOIN ledger_entries l ON l.idempotency_key = 'open:' || COALESCE(o.batch_open_id, o.id)
         JOIN withdrawals w ON w.inventory_item_id = i.id AND w.status IN ('pending', 'sent')
         WHERE p.status = 'refunded' AND l.id > c.id
           AND NOT EXISTS (SELECT 1 FROM refund_settlements s WHERE s.payment_id = p.id AND s.tokens = p.tokens
                             AND s.taken + s.revoked + s.debt >= s.tokens)
         ORDER BY p.id, w.id",
    ),
    (
        "skin a refund revoked is in a live or delivered withdrawal",
        "SELECT 'item ' || r.inventory_item_id || ' (payment ' || r.payment_id || ') in withdrawal ' || w.id || ', ' || w.status
         FROM item_revocations r JOIN withdrawals w ON w.inventory_item_id = r.inventory_item_id
         WHERE w.status IN ('pending', 'sent') ORDER BY w.id",
    ),
];

/// Skins that left, or are in a live withdrawal, without paid value behind them: won with bonus
/// tokens while `paid_only` is on, or funded by a refunded purchase the refund did not settle.
/// More value leaving than was paid is not one of them: that is `leakage`, information only.
pub async fn provenance(pool: &Pool, paid_only: bool) -> DomainResult<Vec<String>> {
    let checks = if paid_only { PAID_ONLY_CHECKS } else { &[] };
    store::read(pool, None, move |c| {
        Box::pin(async move {
            let mut found = Vec::new();
            for (name, sql) in checks.iter().chain(REFUND_CHECKS) {
                let rows: Vec<(String,)> = query(sql).fetch_all(&mut *c).await?;
                found.extend(rows.into_iter().map(|(detail,)| format!("{name}: {detail}")));
            }
            Ok(found)
        })
    })
    .await
}

// --- The whole audit and its exit status. ---

/// What the audit could say about the market.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MarketPart {
    /// No market configured and no attempt ever made: nothing to ask.
    NotConfigured,
    /// Every attempt looked up.
    Checked { provider: &'static str, money: MoneyOut },
    /// Attempts exist but the market could not be asked (none configured, unreachable, 5xx, the
    /// key refused): the money out is not proven.
    Unchecked { attempts: usize, why: String },
}

/// The audit's findings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The books (`run`): each line a violation.
    pub integrity: Vec<String>,
    pub market: MarketPart,
    /// Skins that left without paid value behind them (`provenance`).
    pub provenance: Vec<String>,
    /// The paid-only rule was on (bonus-won skins count as provenance failures).
    pub paid_only: bool,
}

/// The audit's verdict, one exit status each. When several apply the worst wins, in the order
/// integrity (2) > market not checked (4) > provenance (3) > clean (0): a proven violation of
/// the books or the money out is the worst; a market that could not be asked may hide one, so it
/// outranks a provenance finding, which is proven but smaller (value left, the books still hold).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Clean,
    Integrity,
    MarketUnchecked,
    Provenance,
}

impl Verdict {
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Clean => 0,
            Verdict::Integrity => 2,
            Verdict::Provenance => 3,
            Verdict::MarketUnchecked => 4,
        }
    }
}

impl Report {
    /// Every integrity violation: the books', then the market's.
    pub fn violations(&self) -> Vec<&str> {
        let market: &[String] = match &self.market {
            MarketPart::Checked { money, .. } => &money.violations,
            _ => &[],
        };
        self.integrity.iter().chain(market).map(String::as_str).collect()
    }

    pub fn verdict(&self) -> Verdict {
        if !self.violations().is_empty() {
            Verdict::Integrity
        } else if matches!(self.market, MarketPart::Unchecked { .. }) {
            Verdict::MarketUnchecked
        } else if !self.provenance.is_empty() {
            Verdict::Provenance
        } else {
            Verdict::Clean
        }
    }
}

/// The whole audit: the books, the money out on `market` (`None`: none configured; `Some(Err)`:
/// configured but unusable) and the provenance of what left.
pub async fn check(pool: &Pool, market: Option<MarketResult<&dyn Market>>, paid_only: bool) -> DomainResult<Report> {
    let integrity = run(pool).await?;
    let attempts = market_attempts(pool).await?;
    let market = match market {
        None if attempts.is_empty() => MarketPart::NotConfigured,
        None => MarketPart::Unchecked {
            attempts: attempts.len(),
            why: "no market configured (MARKET_API_KEY unset): the purchases cannot be looked up".into(),
        },
        Some(Err(e)) => MarketPart::Unchecked { attempts: attempts.len(), why: e.to_string() },
        Some(Ok(m)) => match money_out(m, &attempts).await {
            Ok(money) => MarketPart::Checked { provider: m.provider(), money },
            Err(e) => MarketPart::Unchecked { attempts: attempts.len(), why: e.to_string() },
        },
    };
    let provenance = provenance(pool, paid_only).await?;
    Ok(Report { integrity, market, provenance, paid_only })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::market::Causer;

    fn attempt(id: &str, withdrawal: i64, cap: i64, outcome: &str, state: &str) -> Attempt {
        Attempt {
            custom_id: id.into(),
            withdrawal_id: withdrawal,
            cap: Usd::from_cents(cap),
            outcome: outcome.into(),
            market_state: Some(state.into()),
            withdrawal_cap: Some(Usd::from_cents(cap)),
        }
    }

    fn held(entries: &[(&str, Stage, i64)]) -> HashMap<CustomId, PurchaseStatus> {
        entries
            .iter()
            .map(|(id, stage, paid)| {
                let status = PurchaseStatus { stage: stage.clone(), trade_id: None, paid: Some(Usd::from_cents(*paid)), settled_at: None };
                (CustomId::parse(id).unwrap(), status)
            })
            .collect()
    }

    #[test]
    fn a_delivered_purchase_under_its_cap_is_clean() {
        let out = reconcile(&[attempt("a", 1, 110, "bought", "settling")], &held(&[("a", Stage::Delivered, 100)]));
        assert!(out.violations.is_empty(), "{:?}", out.violations);
        assert_eq!((out.known, out.net(), out.covered), (1, Usd::from_cents(100), Usd::from_cents(110)));
    }

    #[test]
    fn a_purchase_under_an_id_recorded_not_bought_is_a_violation() {
        let attempts = [attempt("a", 1, 110, "not_bought", "bounced")];
        let out = reconcile(&attempts, &held(&[("a", Stage::New, 100)]));
        assert!(
            out.violations.iter().any(|v| v.starts_with("purchase under an id the shop recorded as not bought")),
            "{:?}",
            out.violations
        );
    }

    #[test]
    fn two_purchases_for_one_withdrawal_are_a_violation_even_when_one_was_refunded() {
        let attempts = [attempt("a", 1, 110, "unknown", "bought"), attempt("b", 1, 110, "bought", "bought")];
        let out = reconcile(&attempts, &held(&[("a", Stage::TimedOut { causer: Causer::Seller }, 100), ("b", Stage::New, 100)]));
        assert!(out.violations.iter().any(|v| v.contains("two purchases for one withdrawal: withdrawal 1")), "{:?}", out.violations);
    }

    #[test]
    fn a_price_over_its_cap_is_a_violation() {
        let out = reconcile(&[attempt("a", 1, 110, "bought", "bought")], &held(&[("a", Stage::New, 111)]));
        assert!(out.violations.iter().any(|v| v.starts_with("market price paid over its cap")), "{:?}", out.violations);
    }

    #[test]
    fn refunded_purchases_do_not_count_as_spent_but_a_players_reversal_does() {
        let attempts = [attempt("a", 1, 110, "bought", "bounced"), attempt("b", 2, 110, "bought", "player_reversed")];
        let out = reconcile(
            &attempts,
            &held(&[("a", Stage::TimedOut { causer: Causer::Seller }, 100), ("b", Stage::TimedOut { causer: Causer::Buyer }, 100)]),
        );
        assert!(out.violations.is_empty(), "{:?}", out.violations);
        assert_eq!((out.spent, out.refunded, out.covered), (Usd::from_cents(200), Usd::from_cents(100), Usd::from_cents(110)));
    }

    #[test]
    fn a_live_purchase_of_a_withdrawal_that_came_back_is_money_out_for_nothing() {
        let attempts = [attempt("a", 1, 110, "bought", "reversed")];
        let out = reconcile(&attempts, &held(&[("a", Stage::Delivered, 100)]));
        assert!(out.violations.iter().any(|v| v.starts_with("live purchase for a withdrawal neither in flight nor delivered")));
        assert!(out.violations.iter().any(|v| v.starts_with("dollars spent beyond")), "{:?}", out.violations);
    }

    #[test]
    fn an_attempt_in_flight_counts_its_withdrawal_as_spending() {
        let attempts = [attempt("a", 1, 110, "unknown", "manual")];
        let out = reconcile(&attempts, &held(&[("a", Stage::New, 100)]));
        assert!(out.violations.is_empty(), "{:?}", out.violations);
        assert_eq!(out.covered, Usd::from_cents(110));
    }

    #[test]
    fn the_worst_verdict_wins_integrity_then_market_then_provenance() {
        let report = |integrity: bool, unchecked: bool, provenance: bool| Report {
            integrity: if integrity { vec!["x".into()] } else { vec![] },
            market: if unchecked { MarketPart::Unchecked { attempts: 1, why: "down".into() } } else { MarketPart::NotConfigured },
            provenance: if provenance { vec!["p".into()] } else { vec![] },
            paid_only: true,
        };
        assert_eq!(report(true, true, true).verdict().exit_code(), 2);
        assert_eq!(report(false, true, true).verdict().exit_code(), 4);
        assert_eq!(report(false, false, true).verdict().exit_code(), 3);
        assert_eq!(report(false, false, false).verdict().exit_code(), 0);
        let market_violation = Report {
            market: MarketPart::Checked { provider: "marketcsgo", money: MoneyOut { violations: vec!["v".into()], ..MoneyOut::default() } },
            ..report(false, false, true)
        };
        assert_eq!(market_violation.verdict(), Verdict::Integrity);
    }
}
