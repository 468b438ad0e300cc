//! `fragbox audit`: the invariants that must hold at every commit.

use crate::domain::store::Pool;
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
    let mut problems = Vec::new();
    for (name, sql) in CHECKS {
        let rows: Vec<(String,)> = sqlx::query_as(sql).fetch_all(pool).await?;
        for (detail,) in rows {
            problems.push(format!("{name}: {detail}"));
        }
    }
    Ok(problems)
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
    let rows: Vec<(i64, i64, i64, i64, i64, i64)> = sqlx::query_as(&per_player).fetch_all(pool).await?;
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
    let (stars, tokens): (i64, i64) = sqlx::query_as(
        "SELECT CAST(COALESCE(SUM(stars), 0) AS BIGINT), CAST(COALESCE(SUM(tokens), 0) AS BIGINT) FROM payments WHERE status = 'success'",
    )
    .fetch_one(pool)
    .await?;
    let (grants,): (i64,) =
        sqlx::query_as(&format!("SELECT CAST(COALESCE(SUM(l.amount), 0) AS BIGINT) FROM ledger_entries l WHERE {PAID_GRANTS}"))
            .fetch_one(pool)
            .await?;
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
