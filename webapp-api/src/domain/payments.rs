//! Telegram Stars purchases of token packages.
//!
//! A purchase is a `payments` row: created `pending` with a 32-hex transaction id (the invoice
//! payload), credited once on `successful_payment` under the ledger key `stars:{charge_id}`, and
//! reversed on a refund under `stars-refund:{charge_id}`. Nothing is credited on the client's word.
use serde::Serialize;

use crate::domain::admin::{self, Actor};
use crate::domain::auth::InitData;
use crate::domain::catalog::Package;
use crate::domain::clock::random_hex;
use crate::domain::lang::Lang;
use crate::domain::ledger::{self, Posted};
use crate::domain::notifications::{self, Notice};
use crate::domain::settings::audit_admin;
use crate::domain::store::{query, Exec};
use crate::domain::telegram::{Invoice, TelegramError};
use crate::domain::{responsible, store, users, Domain, DomainError, DomainResult, Tokens};

/// Stars are the only currency for digital goods.
pub const CURRENCY: &str = "XTR";

/// What the package list shows.
pub fn packages(domain: &Domain) -> &[Package] {
    &domain.catalog.packages
}

/// A transaction id: 32 lowercase hex characters.
pub fn valid_transaction_id(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

#[derive(Clone, Debug, Serialize)]
pub struct InvoiceCreated {
    pub invoice_link: String,
    pub transaction_id: String,
}

/// Creates a pending transaction for `pack_id` and its Telegram invoice link. `init_data` is
/// verified again (a stolen session alone cannot start a purchase) and must name the signed-in
/// user, as must `telegram_id`.
pub async fn create_invoice(
    domain: &Domain,
    user_id: i64,
    pack_id: &str,
    telegram_id: i64,
    init_data: &str,
) -> DomainResult<InvoiceCreated> {
    let now = domain.now();
    let init = InitData::verify(init_data, &domain.config.bot_token, now, domain.config.auth_max_age_secs)?;
    if init.user.id != user_id || telegram_id != user_id {
        return Err(DomainError::Forbidden);
    }
    let pack = domain.catalog.package(pack_id).ok_or(DomainError::PackNotFound)?;
    let tokens = Tokens::whole(pack.tokens + pack.bonus);
    let transaction_id = random_hex(domain.random.as_ref(), 16);
    let (id, pack_id, stars) = (transaction_id.clone(), pack.id.clone(), pack.stars);
    domain
        .write(move |tx| {
            Box::pin(async move {
                // A self-excluded player buys nothing (responsible play).
                responsible::ensure_not_excluded(tx, user_id, now).await?;
                query("INSERT INTO payments(id, user_id, pack_id, stars, tokens, currency, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
                    .bind(id)
                    .bind(user_id)
                    .bind(pack_id)
                    .bind(stars)
                    .bind(tokens.0)
                    .bind(CURRENCY)
                    .bind(now)
                    .execute(tx)
                    .await
            })
        })
        .await?;

    // Telegram is called with no transaction open.
    let lang = users::language(domain, user_id).await;
    let invoice = Invoice {
        title: invoice_title(lang, tokens),
        description: invoice_description(lang, pack),
        payload: transaction_id.clone(),
        label: invoice_title(lang, tokens),
        stars: pack.stars,
    };
    let link = domain.telegram.create_invoice_link(invoice).await;
    let id = transaction_id.clone();
    match link {
        Ok(link) => {
            let saved = link.clone();
            domain
                .write(move |tx| {
                    Box::pin(
                        async move { query("UPDATE payments SET invoice_link = $1 WHERE id = $2").bind(saved).bind(id).execute(tx).await },
                    )
                })
                .await?;
            Ok(InvoiceCreated { invoice_link: link, transaction_id })
        }
        Err(e) => {
            // No link exists, so nobody can pay this transaction: it is over.
            domain
                .write(move |tx| {
                    Box::pin(async move {
                        query("UPDATE payments SET status = 'failed' WHERE id = $1 AND status = 'pending'").bind(id).execute(tx).await
                    })
                })
                .await?;
            Err(DomainError::TelegramUnavailable(e.to_string()))
        }
    }
}

fn invoice_title(lang: Lang, tokens: Tokens) -> String {
    match lang {
        Lang::Ru => format!("{tokens} фрагов FragBox"),
        Lang::En => format!("{tokens} FragBox frags"),
    }
}

fn invoice_description(lang: Lang, pack: &Package) -> String {
    match (lang, pack.bonus) {
        (Lang::Ru, 0) => format!("Пакет «{}»: {} фрагов для открытия кейсов в FragBox.", pack.id, pack.tokens),
        (Lang::Ru, b) => format!("Пакет «{}»: {} фрагов + {b} бонусных для открытия кейсов в FragBox.", pack.id, pack.tokens),
        (Lang::En, 0) => format!("Pack \"{}\": {} frags to open cases in FragBox.", pack.id, pack.tokens),
        (Lang::En, b) => format!("Pack \"{}\": {} frags + {b} bonus to open cases in FragBox.", pack.id, pack.tokens),
    }
}

/// `pending`, `success`, `failed` or `refunded`; someone else's transaction does not exist.
pub async fn status(domain: &Domain, user_id: i64, transaction_id: &str) -> DomainResult<String> {
    let row: Option<(String,)> = sqlx::query_as("SELECT status FROM payments WHERE id = $1 AND user_id = $2")
        .bind(transaction_id)
        .bind(user_id)
        .fetch_optional(&domain.db)
        .await?;
    row.map(|r| r.0).ok_or(DomainError::TransactionNotFound)
}

/// Why a pre-checkout query is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckoutRefusal {
    /// The payload names no transaction of this user.
    Unknown,
    /// Already paid, failed or refunded.
    NotPending,
    /// Amount or currency differ from the transaction's.
    Mismatch,
    /// The payer excluded themselves from play after creating the invoice: until `until` (unix
    /// seconds), or for good (`None`).
    SelfExcluded { until: Option<i64> },
}

/// Decides a pre-checkout query: `Ok` only for a pending transaction of `user_id` named by
/// `payload`, with the same amount in Stars.
pub async fn pre_checkout(
    domain: &Domain,
    user_id: i64,
    payload: &str,
    currency: &str,
    total_amount: i64,
) -> DomainResult<Result<(), CheckoutRefusal>> {
    let row: Option<(i64, String, String)> = sqlx::query_as("SELECT stars, currency, status FROM payments WHERE id = $1 AND user_id = $2")
        .bind(payload)
        .bind(user_id)
        .fetch_optional(&domain.db)
        .await?;
    if row.is_some() {
        let mut conn = domain.db.acquire().await?;
        match responsible::ensure_not_excluded(&mut conn, user_id, domain.now()).await {
            Err(DomainError::SelfExcluded { until }) => return Ok(Err(CheckoutRefusal::SelfExcluded { until })),
            Err(e) => return Err(e),
            Ok(()) => {}
        }
    }
    Ok(match row {
        None => Err(CheckoutRefusal::Unknown),
        Some((_, _, status)) if status != "pending" => Err(CheckoutRefusal::NotPending),
        Some((stars, cur, _)) if stars != total_amount || cur != currency || currency != CURRENCY => Err(CheckoutRefusal::Mismatch),
        Some(_) => Ok(()),
    })
}

/// What Telegram told us about a completed payment (`successful_payment`).
#[derive(Clone, Debug)]
pub struct PaidReport {
    pub user_id: i64,
    pub payload: String,
    pub currency: String,
    pub total_amount: i64,
    pub charge_id: String,
    pub provider_charge_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Paid {
    /// Tokens credited now; the balance after.
    Credited { transaction_id: String, tokens: Tokens, balance: Tokens },
    /// This charge id was handled before: nothing changed.
    AlreadyCredited,
    /// The payload matches no pending transaction of the payer with that amount: kept in
    /// `orphan_payments` for an admin (to credit by hand or refund). `new` is false on a repeat.
    Orphan { new: bool },
}

/// Credits a successful payment exactly once per charge id, marks the transaction `success`
/// and notifies the player, all in one transaction.
pub async fn record_paid(domain: &Domain, report: &PaidReport) -> DomainResult<Paid> {
    let now = domain.now();
    // The payer is locked first: the same charge delivered to two replicas at once is decided
    // by one of them, the other finds it seen.
    let report = report.clone();
    domain
        .write(move |tx| {
            Box::pin(async move {
                store::lock_users(tx, &[report.user_id]).await?;
                record_paid_in(tx, &report, now).await
            })
        })
        .await
}

/// `record_paid` inside the caller's write transaction.
async fn record_paid_in(conn: &mut dyn Exec, report: &PaidReport, now: i64) -> DomainResult<Paid> {
    let seen: Option<(String,)> =
        query("SELECT id FROM payments WHERE charge_id = $1").bind(&report.charge_id).fetch_optional(conn).await?;
    if seen.is_some() {
        return Ok(Paid::AlreadyCredited);
    }
    let row: Option<(i64, i64)> =
        query("SELECT tokens, stars FROM payments WHERE id = $1 AND user_id = $2 AND status = 'pending' AND currency = $3 AND stars = $4")
            .bind(&report.payload)
            .bind(report.user_id)
            .bind(&report.currency)
            .bind(report.total_amount)
            .fetch_optional(conn)
            .await?;
    let Some((tokens, stars)) = row.filter(|_| report.currency == CURRENCY) else {
        let inserted = query(
            "INSERT INTO orphan_payments(charge_id, user_id, payload, stars, currency, created_at) VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT(charge_id) DO NOTHING",
        )
        .bind(&report.charge_id)
        .bind(report.user_id)
        .bind(&report.payload)
        .bind(report.total_amount)
        .bind(&report.currency)
        .bind(now)
        .execute(conn)
        .await?;
        return Ok(Paid::Orphan { new: inserted == 1 });
    };
    let tokens = Tokens(tokens);
    let balance = match ledger::credit(
        conn,
        report.user_id,
        tokens,
        ledger::Funds::Paid,
        "stars_purchase",
        &format!("stars:{}", report.charge_id),
        now,
    )
    .await?
    {
        Posted::Applied(b) => b,
        Posted::Duplicate => return Ok(Paid::AlreadyCredited),
    };
    let moved = query(
        "UPDATE payments SET status = 'success', charge_id = $1, provider_charge_id = $2, paid_at = $3 WHERE id = $4 AND status = 'pending'",
    )
    .bind(&report.charge_id)
    .bind(&report.provider_charge_id)
    .bind(now)
    .bind(&report.payload)
    .execute(conn)
    .await?;
    if moved != 1 {
        return Err(DomainError::Internal(format!("payment {} changed under us", report.payload)));
    }
    notifications::enqueue(conn, report.user_id, &Notice::PurchaseCredited { tokens: tokens.to_string(), stars }, now).await?;
    Ok(Paid::Credited { transaction_id: report.payload.clone(), tokens, balance })
}

/// Demo mode's stand-in for Telegram's payment sheet: pays the signed-in demo user's own
/// pending transaction through the same path a real `successful_payment` takes. "Still
/// pending" is checked inside the paying transaction, so racing calls pay once and the rest
/// answer `transaction_not_found` (never an orphan row).
pub async fn demo_pay(domain: &Domain, user_id: i64, transaction_id: &str) -> DomainResult<Paid> {
    if !domain.config.demo {
        return Err(DomainError::NotFound);
    }
    let now = domain.now();
    let charge_id = format!("stxdemo{}", random_hex(domain.random.as_ref(), 24));
    let transaction_id = transaction_id.to_owned();
    domain
        .write(move |tx| {
            Box::pin(async move {
                store::lock_users(tx, &[user_id]).await?;
                // The stand-in for the payment sheet refuses as the bot's pre-checkout does.
                responsible::ensure_not_excluded(tx, user_id, now).await?;
                let row: Option<(i64, String)> =
                    query("SELECT stars, currency FROM payments WHERE id = $1 AND user_id = $2 AND status = 'pending'")
                        .bind(&transaction_id)
                        .bind(user_id)
                        .fetch_optional(tx)
                        .await?;
                let (stars, currency) = row.ok_or(DomainError::TransactionNotFound)?;
                let report =
                    PaidReport { user_id, payload: transaction_id, currency, total_amount: stars, charge_id, provider_charge_id: None };
                let paid = record_paid_in(tx, &report, now).await?;
                if !matches!(paid, Paid::Credited { .. }) {
                    return Err(DomainError::TransactionNotFound);
                }
                Ok(paid)
            })
        })
        .await
}

/// What a refund did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refunded {
    /// Stars returned and the purchase's value taken back: `taken` from the balance, then the
    /// skins in `revoked` (worth `revoked_value` at token price), and what still lacked became `debt`.
    Reversed {
        user_id: i64,
        transaction_id: String,
        stars: i64,
        credited: Tokens,
        taken: Tokens,
        revoked: Vec<String>,
        revoked_value: Tokens,
        debt: Tokens,
    },
    /// Marked refunded before: nothing changed.
    AlreadyRefunded { user_id: i64 },
    /// A payment that matched nothing (never credited): Stars returned, nothing to reverse.
    Orphan { user_id: i64, stars: i64 },
}

/// Takes back a refunded payment's value, marks it refunded and tells the player. `None` when it
/// was not a credited payment. In order: the purchase's tokens from the balance; if the balance
/// is short, the player's skins acquired at or after the purchase that are still held (received
/// or error), newest first, each counted at its token price, until the shortfall is covered (no
/// change is given: those skins were won with the refunded tokens); what still lacks becomes a
/// debt that later credits repay first. One settlement row records the split; a repeated refund changes nothing.
async fn reverse_in(conn: &mut dyn Exec, charge_id: &str, now: i64) -> DomainResult<Option<Refunded>> {
    let row: Option<(String, i64, i64, i64, String, Option<i64>)> =
        query("SELECT id, user_id, tokens, stars, status, paid_at FROM payments WHERE charge_id = $1")
            .bind(charge_id)
            .fetch_optional(conn)
            .await?;
    let Some((id, user_id, tokens, stars, status, _paid_at)) = row else { return Ok(None) };
    // Where writers lock rows, the player's row is held while the balance and the skins are decided on.
    store::lock_users(conn, &[user_id]).await?;
    if status == "refunded" {
        return Ok(Some(Refunded::AlreadyRefunded { user_id }));
    }
    let moved = query("UPDATE payments SET status = 'refunded', refunded_at = $1 WHERE id = $2 AND status = 'success'")
        .bind(now)
        .bind(&id)
        .execute(conn)
        .await?;
    if moved != 1 {
        return Ok(Some(Refunded::AlreadyRefunded { user_id }));
    }
    let credited = Tokens(tokens);
    // A refund without `force` held the tokens before Telegram was asked: that hold is what is
    // taken back from the balance. Otherwise (forced, or a refund Telegram reported) as much as
    // the balance holds now.
    let taken = match active_hold(conn, charge_id).await? {
        Some(held) => {
            mark_hold(conn, charge_id, "used", now).await?;
            held
        }
        None => {
            let balance = ledger::balance(conn, user_id).await?;
            let taken = Tokens(credited.0.min(balance.0));
            if taken.0 > 0 {
                ledger::debit(conn, user_id, taken, "stars_refund", &format!("stars-refund:{charge_id}"), now).await?;
            }
            taken
        }
    };
    let shortfall = credited.0 - taken.0;
    let mut revoked = Vec::new();
    let mut revoked_value = 0i64;
    if shortfall > 0 {
        // Skins won after the purchase, in the ledger's order (not by clock: a skin won in the same
        // second before the purchase is not one of them), newest first: held ones, and ones in a
        // withdrawal that nothing has bought or sent yet (the withdrawal is cancelled).
        let held: Vec<(i64, String, i64, String)> = query(
            "SELECT i.id, COALESCE(i.market_hash_name, i.weapon || ' | ' || i.finish), i.token_price, i.status
             FROM inventory_items i JOIN case_opens o ON o.id = i.open_id
             JOIN ledger_entries l ON l.idempotency_key = 'open:' || COALESCE(o.batch_open_id, o.id)
             WHERE i.user_id = $1 AND i.status IN ('received', 'error', 'pending')
               AND l.id > (SELECT p.id FROM ledger_entries p WHERE p.idempotency_key = 'stars:' || $2)
               AND NOT EXISTS (SELECT 1 FROM withdrawals w WHERE w.inventory_item_id = i.id AND w.status = 'pending'
                               AND w.market_state IN ('buying', 'bought', 'offer_sent'))
             ORDER BY l.id DESC, i.id DESC",
        )
        .bind(user_id)
        .bind(charge_id)
        .fetch_all(conn)
        .await?;
        for (item_id, name, price, status) in held {
            if revoked_value >= shortfall {
                break;
            }
            if status == "pending" {
                let cancelled = query(
                    "UPDATE withdrawals SET status = 'error', reason = NULL, reason_code = 'refund', resolved_at = $1,
                            market_state = CASE WHEN market_state IS NULL THEN NULL ELSE 'manual' END,
                            market_reason = CASE WHEN market_state IS NULL THEN NULL ELSE 'refund' END,
                            lease_holder = NULL, lease_until = NULL
                     WHERE inventory_item_id = $2 AND status = 'pending'
                       AND (market_state IS NULL OR market_state NOT IN ('buying', 'bought', 'offer_sent'))",
                )
                .bind(now)
                .bind(item_id)
                .execute(conn)
                .await?;
                if cancelled != 1 {
                    continue;
                }
                notifications::enqueue(conn, user_id, &Notice::WithdrawalCancelled { item: name.clone() }, now).await?;
            }
            let gone = query(
                "UPDATE inventory_items SET status = 'revoked', status_reason_code = 'refund', status_reason = NULL, updated_at = $1
                 WHERE id = $2 AND status IN ('received', 'error', 'pending')",
            )
            .bind(now)
            .bind(item_id)
            .execute(conn)
            .await?;
            if gone != 1 {
                continue;
            }
            query("INSERT INTO item_revocations(inventory_item_id, user_id, payment_id, value, created_at) VALUES ($1, $2, $3, $4, $5)")
                .bind(item_id)
                .bind(user_id)
                .bind(&id)
                .bind(price)
                .bind(now)
                .execute(conn)
                .await?;
            revoked_value += price;
            revoked.push(name);
        }
    }
    let debt = Tokens((shortfall - revoked_value).max(0));
    if debt.0 > 0 {
        ledger::open_debt(conn, user_id, debt, "refund", &format!("refund-debt:{charge_id}"), now).await?;
    }
    query(
        "INSERT INTO refund_settlements(payment_id, user_id, tokens, taken, revoked, debt, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&id)
    .bind(user_id)
    .bind(credited.0)
    .bind(taken.0)
    .bind(revoked_value)
    .bind(debt.0)
    .bind(now)
    .execute(conn)
    .await?;
    let notice =
        Notice::PurchaseRefunded { tokens: taken.to_string(), stars, items: revoked.clone(), debt: (debt.0 > 0).then(|| debt.to_string()) };
    notifications::enqueue(conn, user_id, &notice, now).await?;
    Ok(Some(Refunded::Reversed {
        user_id,
        transaction_id: id,
        stars,
        credited,
        taken,
        revoked,
        revoked_value: Tokens(revoked_value),
        debt,
    }))
}

/// `/refund <charge_id> [force]`: returns the Stars through Telegram, then takes the value back.
/// Without `force` it is refused before Telegram is asked when skins won since the purchase
/// already left as withdrawals (listed) or the tokens were already spent; otherwise the tokens
/// are held (taken off the balance, so they cannot be spent or withdrawn during the call) and
/// the hold is released if Telegram refuses. `force` claws back after the call: the balance,
/// then the skins won since, then a debt. `CHARGE_ALREADY_REFUNDED` from Telegram counts as done
/// (the port maps it to success).
pub async fn refund(domain: &Domain, actor: Actor, charge_id: &str, force: bool) -> DomainResult<Refunded> {
    admin::ensure(domain, actor)?;
    let charge_id = charge_id.trim();
    let row: Option<(i64, i64, String)> = sqlx::query_as("SELECT user_id, tokens, status FROM payments WHERE charge_id = $1")
        .bind(charge_id)
        .fetch_optional(&domain.db)
        .await?;
    let orphan: Option<(i64, i64, Option<i64>)> =
        sqlx::query_as("SELECT user_id, stars, refunded_at FROM orphan_payments WHERE charge_id = $1")
            .bind(charge_id)
            .fetch_optional(&domain.db)
            .await?;
    let user_id = match (&row, &orphan) {
        (Some((user_id, _, status)), _) if status == "refunded" => return Ok(Refunded::AlreadyRefunded { user_id: *user_id }),
        (Some((user_id, tokens, _)), _) => {
            if !force {
                let (user_id, tokens, charge, now) = (*user_id, Tokens(*tokens), charge_id.to_owned(), domain.now());
                domain.write(move |tx| Box::pin(async move { hold_in(tx, user_id, &charge, tokens, now).await })).await?;
            }
            *user_id
        }
        (None, Some((user_id, _, Some(_)))) => return Ok(Refunded::AlreadyRefunded { user_id: *user_id }),
        (None, Some((user_id, _, None))) => *user_id,
        (None, None) => return Err(DomainError::TransactionNotFound),
    };

    // Telegram first, outside any transaction: only a refund that went through is reversed.
    if let Err(e) = domain.telegram.refund_star_payment(user_id, charge_id).await {
        let (charge, now) = (charge_id.to_owned(), domain.now());
        domain.write(move |tx| Box::pin(async move { release_in(tx, &charge, now).await })).await?;
        return Err(match e {
            TelegramError::Refused(why) | TelegramError::Blocked(why) => DomainError::TelegramUnavailable(why),
            TelegramError::Unavailable(why) => DomainError::TelegramUnavailable(why),
        });
    }

    let now = domain.now();
    let (charge_id, operator) = (charge_id.to_owned(), actor.audit_id());
    domain
        .write(move |tx| {
            Box::pin(async move {
                // The Stars are gone now, so the reversal cannot be refused any more: if the player
                // spent tokens since the check above, it claws back like a forced refund.
                let outcome = match reverse_in(tx, &charge_id, now).await? {
                    Some(r) => r,
                    None => {
                        let stars = orphan.map(|o| o.1).unwrap_or(0);
                        query("UPDATE orphan_payments SET refunded_at = $1 WHERE charge_id = $2")
                            .bind(now)
                            .bind(&charge_id)
                            .execute(tx)
                            .await?;
                        Refunded::Orphan { user_id, stars }
                    }
                };
                audit_admin(tx, operator, "refund", &format!("{charge_id} force={force} {outcome:?}"), now).await?;
                Ok(outcome)
            })
        })
        .await
}

/// Holds a refund's tokens before Telegram is asked (`refund` without `force`), in one write
/// with its checks: refused when skins won since the purchase already left as withdrawals, or
/// when the balance no longer holds the purchase's tokens.
async fn hold_in(tx: &mut dyn Exec, user_id: i64, charge_id: &str, tokens: Tokens, now: i64) -> DomainResult<()> {
    store::lock_users(tx, &[user_id]).await?;
    let gone: Vec<(String,)> = query(
        "SELECT COALESCE(i.market_hash_name, i.weapon || ' | ' || i.finish)
         FROM inventory_items i JOIN case_opens o ON o.id = i.open_id
         JOIN ledger_entries l ON l.idempotency_key = 'open:' || COALESCE(o.batch_open_id, o.id)
         WHERE i.user_id = $1 AND i.status = 'sent'
           AND l.id > (SELECT p.id FROM ledger_entries p WHERE p.idempotency_key = 'stars:' || $2)
         ORDER BY l.id, i.id",
    )
    .bind(user_id)
    .bind(charge_id)
    .fetch_all(tx)
    .await?;
    if !gone.is_empty() {
        let names: Vec<String> = gone.into_iter().map(|(n,)| n).collect();
        return Err(DomainError::RefundRefused(format!(
            "skins won since this purchase already left as withdrawals ({}); /refund <charge_id> force takes the balance, then the skins still here, then records a debt",
            names.join(", ")
        )));
    }
    if active_hold(tx, charge_id).await?.is_some() {
        return Err(DomainError::RefundRefused("a refund of this payment is already under way".into()));
    }
    let (attempt,): (i64,) = query("SELECT COUNT(*) + 1 FROM refund_holds WHERE charge_id = $1").bind(charge_id).fetch_one(tx).await?;
    let key = format!("refund-hold:{charge_id}:{attempt}");
    let bonus =
        match ledger::debit(tx, user_id, tokens, "refund_hold", &key, now).await {
            Ok(ledger::Debited::Applied { bonus, .. }) => bonus,
            Ok(ledger::Debited::Duplicate) => return Err(DomainError::Internal(format!("{key} posted twice"))),
            Err(DomainError::InsufficientTokens) => return Err(DomainError::RefundRefused(
                "the tokens were already spent; /refund <charge_id> force takes the balance, then the skins won since, then records a debt"
                    .into(),
            )),
            Err(e) => return Err(e),
        };
    query(
        "INSERT INTO refund_holds(charge_id, attempt, user_id, amount, bonus, state, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, 'held', $6, $6)",
    )
    .bind(charge_id)
    .bind(attempt)
    .bind(user_id)
    .bind(tokens.0)
    .bind(bonus.0)
    .bind(now)
    .execute(tx)
    .await?;
    Ok(())
}

/// The tokens a refund of `charge_id` holds now, if any.
async fn active_hold(tx: &mut dyn Exec, charge_id: &str) -> DomainResult<Option<Tokens>> {
    let row: Option<(i64,)> =
        query("SELECT amount FROM refund_holds WHERE charge_id = $1 AND state = 'held'").bind(charge_id).fetch_optional(tx).await?;
    Ok(row.map(|(a,)| Tokens(a)))
}

async fn mark_hold(tx: &mut dyn Exec, charge_id: &str, state: &str, now: i64) -> DomainResult<()> {
    query("UPDATE refund_holds SET state = $1, updated_at = $2 WHERE charge_id = $3 AND state = 'held'")
        .bind(state)
        .bind(now)
        .bind(charge_id)
        .execute(tx)
        .await?;
    Ok(())
}

/// Telegram refused the refund: the held tokens go back, paid and bonus parts as they were.
async fn release_in(tx: &mut dyn Exec, charge_id: &str, now: i64) -> DomainResult<()> {
    let row: Option<(i64, i64, i64, i64)> =
        query("SELECT attempt, user_id, amount, bonus FROM refund_holds WHERE charge_id = $1 AND state = 'held'")
            .bind(charge_id)
            .fetch_optional(tx)
            .await?;
    let Some((attempt, user_id, amount, bonus)) = row else { return Ok(()) };
    store::lock_users(tx, &[user_id]).await?;
    let key = format!("refund-release:{charge_id}:{attempt}");
    ledger::credit(tx, user_id, Tokens(amount), ledger::Funds::Split { bonus: Tokens(bonus) }, "refund_release", &key, now).await?;
    mark_hold(tx, charge_id, "released", now).await
}

/// A `refunded_payment` service message: Telegram already returned the Stars (a refund made
/// outside our command), so its value is clawed back (balance, skins, then a debt). Only the
/// payer's own message counts (`from_user`): anyone else's is ignored (`None`).
pub async fn record_refunded(domain: &Domain, charge_id: &str, from_user: i64) -> DomainResult<Option<Refunded>> {
    let payer: Option<(i64,)> = sqlx::query_as(
        "SELECT user_id FROM payments WHERE charge_id = $1 UNION ALL SELECT user_id FROM orphan_payments WHERE charge_id = $1",
    )
    .bind(charge_id)
    .fetch_optional(&domain.db)
    .await?;
    if payer.is_some_and(|(p,)| p != from_user) {
        tracing::warn!(%charge_id, from_user, "refunded_payment from someone other than the payer: ignored");
        return Ok(None);
    }
    let now = domain.now();
    let charge_id = charge_id.to_owned();
    domain
        .write(move |tx| {
            Box::pin(async move {
                let outcome = reverse_in(tx, &charge_id, now).await?;
                if outcome.is_none() {
                    query("UPDATE orphan_payments SET refunded_at = COALESCE(refunded_at, $1) WHERE charge_id = $2")
                        .bind(now)
                        .bind(&charge_id)
                        .execute(tx)
                        .await?;
                }
                Ok(outcome)
            })
        })
        .await
}

/// Orphan payments not refunded yet, oldest first: `(charge_id, user_id, payload, stars)`.
pub async fn orphans(domain: &Domain, actor: Actor) -> DomainResult<Vec<(String, i64, String, i64)>> {
    admin::ensure(domain, actor)?;
    Ok(sqlx::query_as(
        "SELECT charge_id, user_id, payload, stars FROM orphan_payments WHERE refunded_at IS NULL ORDER BY created_at LIMIT 50",
    )
    .fetch_all(&domain.db)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transaction_id_is_32_lowercase_hex_characters() {
        assert!(valid_transaction_id("0123456789abcdef0123456789abcdef"));
        assert!(!valid_transaction_id("0123456789ABCDEF0123456789abcdef"));
        assert!(!valid_transaction_id("0123456789abcdef"));
        assert!(!valid_transaction_id("../etc/passwd0123456789abcdef012"));
    }
}
