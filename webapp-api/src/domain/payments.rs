//! Telegram Stars purchases of token packages.
//!
//! A purchase is a `payments` row: created `pending` with a 32-hex transaction id (the invoice
//! payload), credited once on `successful_payment` under the ledger key `stars:{charge_id}`, and
//! reversed on a refund under `stars-refund:{charge_id}`. Nothing is credited on the client's word.
use std::collections::{HashSet, VecDeque};

use crate::domain::admin::{self, Actor};
use crate::domain::admin_audit;
use crate::domain::auth::InitData;
use crate::domain::catalog::{Catalog, Package};
use crate::domain::clock::random_hex;
use crate::domain::lang::Lang;
use crate::domain::ledger::{self, Posted};
use crate::domain::notifications::Notice;
use crate::domain::notifications::SkinName;
use crate::domain::outbox;
use crate::domain::store::{query, Exec};
use crate::domain::telegram::{Invoice, TelegramError};
use crate::domain::{responsible, store, users, withdrawals, Domain, DomainError, DomainResult, Tokens};

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

#[derive(Clone, Debug)]
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
        Lang::Ru => format!("{tokens} токенов FragBox"),
        Lang::En => format!("{tokens} FragBox tokens"),
    }
}

fn invoice_description(lang: Lang, pack: &Package) -> String {
    match (lang, pack.bonus) {
        (Lang::Ru, 0) => format!("Пакет «{}»: {} токенов для открытия кейсов в FragBox.", pack.id, pack.tokens),
        (Lang::Ru, b) => format!("Пакет «{}»: {} токенов + {b} бонусных для открытия кейсов в FragBox.", pack.id, pack.tokens),
        (Lang::En, 0) => format!("Pack \"{}\": {} tokens to open cases in FragBox.", pack.id, pack.tokens),
        (Lang::En, b) => format!("Pack \"{}\": {} tokens + {b} bonus to open cases in FragBox.", pack.id, pack.tokens),
    }
}

/// `pending`, `success`, `failed` or `refunded`; someone else's transaction does not exist.
pub async fn status(domain: &Domain, user_id: i64, transaction_id: &str) -> DomainResult<String> {
    let transaction_id = transaction_id.to_owned();
    let row: Option<(String,)> = domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT status FROM payments WHERE id = $1 AND user_id = $2")
                    .bind(transaction_id)
                    .bind(user_id)
                    .fetch_optional(c)
                    .await
            })
        })
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
    let payload = payload.to_owned();
    let row: Option<(i64, String, String)> = domain
        .read(move |c| {
            Box::pin(async move {
                query("SELECT stars, currency, status FROM payments WHERE id = $1 AND user_id = $2")
                    .bind(payload)
                    .bind(user_id)
                    .fetch_optional(c)
                    .await
            })
        })
        .await?;
    if row.is_some() {
        let now = domain.now();
        match domain.read(move |c| Box::pin(responsible::ensure_not_excluded(c, user_id, now))).await {
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
    outbox::tell_player(conn, report.user_id, &Notice::PurchaseCredited { tokens: tokens.to_string(), stars }, now).await?;
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
        revoked: Vec<SkinName>,
        revoked_value: Tokens,
        debt: Tokens,
    },
    /// Marked refunded before: nothing changed.
    AlreadyRefunded { user_id: i64 },
    /// A payment that matched nothing (never credited): Stars returned, nothing to reverse.
    Orphan { user_id: i64, stars: i64 },
}

/// Takes back a refunded payment's value, marks it refunded and tells the player. `None` when it
/// was not a credited payment. In order: the purchase's tokens from the paid part of the balance
/// (bonus tokens never settle a refund); if it is short, the skins those tokens paid for
/// (`skins_paid_by`) that are still here or in a withdrawal nothing has bought yet (cancelled),
/// newest first, each counted at its token price, until the shortfall is covered (no change is
/// given: those skins were won with the refunded tokens); what still lacks — skins that left, are
/// leaving or were sold — becomes a debt that later credits repay first. One settlement row
/// records the split; a repeated refund changes nothing.
async fn reverse_in(conn: &mut dyn Exec, catalog: &Catalog, charge_id: &str, now: i64) -> DomainResult<Option<Refunded>> {
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
    // the paid part of the balance holds now: bonus tokens were not bought with these Stars, and
    // taking them would let the skins the Stars bought stay and leave.
    let taken = match active_hold(conn, charge_id).await? {
        Some(held) => {
            mark_hold(conn, charge_id, "used", now).await?;
            held
        }
        None => {
            let paid = ledger::paid_balance(conn, user_id).await?;
            let taken = Tokens(credited.0.min(paid.0).max(0));
            if taken.0 > 0 {
                ledger::debit_paid(conn, user_id, taken, "stars_refund", &format!("stars-refund:{charge_id}"), now).await?;
            }
            taken
        }
    };
    let shortfall = credited.0 - taken.0;
    let mut revoked = Vec::new();
    let mut revoked_value = 0i64;
    if shortfall > 0 {
        // The skins these tokens paid for, newest first: the ones here, and the ones in a
        // withdrawal nothing has bought yet (the withdrawal is cancelled). A skin the market is
        // buying or delivering is not taken from under it: it counts as gone, like a sent one.
        let skins = skins_paid_by(conn, catalog, user_id, charge_id).await?;
        for skin in skins.iter().rev() {
            if revoked_value >= shortfall {
                break;
            }
            match skin.place() {
                Place::Here => {}
                Place::Waiting => {
                    let wid: Option<(i64,)> =
                        query("SELECT id FROM withdrawals WHERE inventory_item_id = $1 AND status = 'pending' ORDER BY id DESC LIMIT 1")
                            .bind(skin.id)
                            .fetch_optional(conn)
                            .await?;
                    let Some((wid,)) = wid else { continue };
                    let set = vec![
                        ("status", "error".into()),
                        ("reason", None::<String>.into()),
                        ("reason_code", "refund".into()),
                        ("resolved_at", now.into()),
                        ("market_reason", if skin.market_state.is_some() { Some("refund") } else { None }.into()),
                        ("lease_holder", None::<String>.into()),
                        ("lease_until", None::<i64>.into()),
                    ];
                    let cancelled = withdrawals::transition(
                        conn,
                        withdrawals::Move {
                            id: wid,
                            from: withdrawals::From::NotLive,
                            to: withdrawals::MarketState::Manual,
                            when: vec![withdrawals::Cond::Pending, withdrawals::Cond::NoOpenAttempt],
                            set,
                        },
                    )
                    .await?;
                    if !cancelled {
                        continue;
                    }
                    outbox::tell_player(conn, user_id, &Notice::WithdrawalCancelled { item: skin.name.clone() }, now).await?;
                }
                Place::Leaving(_) | Place::Left(_) => continue,
            }
            use withdrawals::ItemStatus;
            let from = [ItemStatus::Received, ItemStatus::Error, ItemStatus::Pending];
            withdrawals::move_item(conn, skin.id, &from, ItemStatus::Revoked, Some("refund"), None, now).await?;
            query("INSERT INTO item_revocations(inventory_item_id, user_id, payment_id, value, created_at) VALUES ($1, $2, $3, $4, $5)")
                .bind(skin.id)
                .bind(user_id)
                .bind(&id)
                .bind(skin.price)
                .bind(now)
                .execute(conn)
                .await?;
            revoked_value += skin.price;
            revoked.push(skin.name.clone());
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
    outbox::tell_player(conn, user_id, &notice, now).await?;
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
/// Without `force` it is refused before Telegram is asked while a skin the purchase's tokens paid
/// for is being bought, offered or delivered, or already left as a withdrawal (listed), and when
/// the paid part of the balance no longer holds the purchase's tokens; otherwise those paid
/// tokens are held (taken off the balance, so they cannot be spent or withdrawn during the call)
/// and the hold is released if Telegram refuses. `force` claws back after the call: the paid
/// balance, then the skins the purchase paid for, then a debt. `CHARGE_ALREADY_REFUNDED` from
/// Telegram counts as done (the port maps it to success).
pub async fn refund(domain: &Domain, actor: Actor, charge_id: &str, force: bool) -> DomainResult<Refunded> {
    admin::ensure(domain, actor)?;
    let charge_id = charge_id.trim();
    let charge = charge_id.to_owned();
    type Found = (Option<(i64, i64, String)>, Option<(i64, i64, Option<i64>)>);
    let (row, orphan): Found = domain
        .read(move |c| {
            Box::pin(async move {
                let row = query("SELECT user_id, tokens, status FROM payments WHERE charge_id = $1")
                    .bind(charge.as_str())
                    .fetch_optional(&mut *c)
                    .await?;
                let orphan = query("SELECT user_id, stars, refunded_at FROM orphan_payments WHERE charge_id = $1")
                    .bind(charge.as_str())
                    .fetch_optional(c)
                    .await?;
                Ok((row, orphan))
            })
        })
        .await?;
    let user_id = match (&row, &orphan) {
        (Some((user_id, _, status)), _) if status == "refunded" => return Ok(Refunded::AlreadyRefunded { user_id: *user_id }),
        (Some((user_id, tokens, _)), _) => {
            if !force {
                let (user_id, tokens, charge, now) = (*user_id, Tokens(*tokens), charge_id.to_owned(), domain.now());
                let catalog = domain.catalog.clone();
                domain.write(move |tx| Box::pin(async move { hold_in(tx, &catalog, user_id, &charge, tokens, now).await })).await?;
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
    let catalog = domain.catalog.clone();
    domain
        .write(move |tx| {
            Box::pin(async move {
                // The Stars are gone now, so the reversal cannot be refused any more: if the player
                // spent tokens since the check above, it claws back like a forced refund.
                let outcome = match reverse_in(tx, &catalog, &charge_id, now).await? {
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
                admin_audit::record(tx, operator, "refund", &format!("{charge_id} force={force} {outcome:?}"), now).await?;
                Ok(outcome)
            })
        })
        .await
}

/// Holds a refund's tokens before Telegram is asked (`refund` without `force`), in one write
/// with its checks: refused while a skin the purchase's tokens paid for is being bought, offered
/// or delivered, or already left as a withdrawal, and when the paid part of the balance no longer
/// holds the purchase's tokens (bonus tokens never pay a refund, not even held).
async fn hold_in(tx: &mut dyn Exec, catalog: &Catalog, user_id: i64, charge_id: &str, tokens: Tokens, now: i64) -> DomainResult<()> {
    store::lock_users(tx, &[user_id]).await?;
    let leaving: Vec<String> = skins_paid_by(tx, catalog, user_id, charge_id)
        .await?
        .into_iter()
        .filter_map(|skin| match skin.place() {
            Place::Leaving(state) => Some(format!("{} ({state})", skin.steam)),
            Place::Left(state) if state != "sold" => Some(format!("{} ({state})", skin.steam)),
            _ => None,
        })
        .collect();
    if !leaving.is_empty() {
        return Err(DomainError::RefundRefused(format!(
            "skins won with this purchase's tokens are being delivered or already left as withdrawals: {}; /refund <charge_id> force takes the paid balance, then the skins still here, then records a debt",
            leaving.join(", ")
        )));
    }
    if active_hold(tx, charge_id).await?.is_some() {
        return Err(DomainError::RefundRefused("a refund of this payment is already under way".into()));
    }
    let (attempt,): (i64,) = query("SELECT COUNT(*) + 1 FROM refund_holds WHERE charge_id = $1").bind(charge_id).fetch_one(tx).await?;
    let key = format!("refund-hold:{charge_id}:{attempt}");
    match ledger::debit_paid(tx, user_id, tokens, "refund_hold", &key, now).await {
        Ok(ledger::Posted::Applied(_)) => {}
        Ok(ledger::Posted::Duplicate) => return Err(DomainError::Internal(format!("{key} posted twice"))),
        Err(DomainError::InsufficientTokens) => return Err(DomainError::RefundRefused(
            "the purchase's tokens are no longer in the paid balance (spent; bonus tokens do not pay a refund); /refund <charge_id> force takes the paid balance, then the skins won with the purchase, then records a debt"
                .into(),
        )),
        Err(e) => return Err(e),
    }
    query(
        "INSERT INTO refund_holds(charge_id, attempt, user_id, amount, bonus, state, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 0, 'held', $5, $5)",
    )
    .bind(charge_id)
    .bind(attempt)
    .bind(user_id)
    .bind(tokens.0)
    .bind(now)
    .execute(tx)
    .await?;
    Ok(())
}

/// A skin a purchase's paid tokens paid for, at least in part, as a refund finds it.
#[derive(Clone, Debug)]
struct PaidSkin {
    id: i64,
    /// The catalog's name in both languages (the notices are read in the player's).
    name: SkinName,
    /// Steam's name: what the market buys, in the admins' refusal that names withdrawals.
    steam: String,
    /// Its token price: what it counts for when it is taken back.
    price: i64,
    status: String,
    /// The market state of its live withdrawal (pending or sent), if that one is automatic;
    /// `buying` while an attempt of it may still have bought (even from the admins' queue).
    market_state: Option<String>,
}

/// "AK-47 | Redline" in both languages for the skin `catalog_item_id`, as the notices name it;
/// the stored Steam name alone when the catalog no longer has the skin.
fn skin_name(catalog: &Catalog, catalog_item_id: &str, steam: &str) -> SkinName {
    let label = |weapon: &str, finish: &str| if finish.is_empty() { weapon.to_owned() } else { format!("{weapon} | {finish}") };
    match catalog.item(catalog_item_id) {
        Some(i) => SkinName::Both { en: label(&i.weapon, &i.finish), ru: label(&i.weapon_ru, &i.finish_ru) },
        None => SkinName::Steam(steam.to_owned()),
    }
}

/// Where a skin stands for a refund.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Place {
    /// In the inventory (received, or back after a failed withdrawal): the refund takes it.
    Here,
    /// In a withdrawal nothing has bought or sent yet (manual, queued or in the admins' queue):
    /// the withdrawal is cancelled and the skin taken.
    Waiting,
    /// A market purchase of it may be live (the state): it must not be taken from under the
    /// market, so it counts as gone.
    Leaving(String),
    /// Gone: sent (the market state, e.g. settling, or `sent`) or `sold`.
    Left(String),
}

impl PaidSkin {
    fn place(&self) -> Place {
        match (self.status.as_str(), self.market_state.as_deref()) {
            ("received" | "error", _) => Place::Here,
            ("pending", None | Some("queued" | "manual")) => Place::Waiting,
            ("pending", Some(state)) => Place::Leaving(state.to_owned()),
            ("sent", Some(state)) => Place::Left(state.to_owned()),
            (status, _) => Place::Left(status.to_owned()),
        }
    }
}

/// A skin as `skins_paid_by` reads it: its open's ledger entry, its id, its share of the open's
/// paid tokens, status, name, token price, the market state of its live withdrawal.
type SkinRow = (i64, i64, i64, String, String, i64, Option<String>, String);

/// Ledger reasons that settle refunds (a refund's take, its holds and their releases) or repay
/// the debts refunds left: they buy nothing, so they spend no one's tokens in `paid_for`.
const SETTLEMENT_REASONS: &[&str] = &["stars_refund", "refund_hold", "refund_release", "debt_repayment"];

/// The player's skins the purchase credited under `stars:{charge_id}` paid for (`paid_for`), in
/// ledger order, as they are now. Each other refunded purchase was settled on its own: its
/// credit, its settlement and the skins it took back are left out, so a purchase whose
/// refund took another purchase's tokens from the balance is found to have paid for the first
/// one's skins.
async fn skins_paid_by(tx: &mut dyn Exec, catalog: &Catalog, user_id: i64, charge_id: &str) -> DomainResult<Vec<PaidSkin>> {
    let (opening,): (i64,) = query("SELECT bonus_opening FROM users WHERE id = $1").bind(user_id).fetch_one(tx).await?;
    let refunded: Vec<(String,)> =
        query("SELECT 'stars:' || charge_id FROM payments WHERE user_id = $1 AND status = 'refunded' AND charge_id IS NOT NULL AND charge_id <> $2")
            .bind(user_id)
            .bind(charge_id)
            .fetch_all(tx)
            .await?;
    let refunded: HashSet<String> = refunded.into_iter().map(|(k,)| k).collect();
    let entries: Vec<(i64, i64, i64, String, String)> =
        query("SELECT id, amount, bonus_amount, reason, idempotency_key FROM ledger_entries WHERE user_id = $1 ORDER BY id")
            .bind(user_id)
            .fetch_all(tx)
            .await?;
    // A skin's share of its open's debit is its case's price less the bonus its open spent; the
    // skins of one debit (several opened at once) are spent in draw order, as the debit split them.
    let rows: Vec<SkinRow> = query(
        "SELECT l.id, i.id, o.price - i.bonus_cost, i.status, COALESCE(i.market_hash_name, i.weapon || ' | ' || i.finish), i.token_price,
                (SELECT CASE WHEN EXISTS (SELECT 1 FROM market_attempts a WHERE a.withdrawal_id = w.id AND a.outcome IN ('buying', 'unknown'))
                             THEN 'buying' ELSE w.market_state END
                 FROM withdrawals w WHERE w.inventory_item_id = i.id AND w.status IN ('pending', 'sent')
                 ORDER BY w.id DESC LIMIT 1),
                i.catalog_item_id
         FROM inventory_items i JOIN case_opens o ON o.id = i.open_id
         JOIN ledger_entries l ON l.idempotency_key = 'open:' || COALESCE(o.batch_open_id, o.id)
         WHERE i.user_id = $1 AND i.status <> 'revoked'
         ORDER BY l.id, o.id",
    )
    .bind(user_id)
    .fetch_all(tx)
    .await?;
    let ours = format!("stars:{charge_id}");
    let mut skins = rows.iter().peekable();
    let mut steps = Vec::new();
    for (entry, amount, bonus, reason, key) in &entries {
        if SETTLEMENT_REASONS.contains(&reason.as_str()) || refunded.contains(key) {
            continue;
        }
        if key.starts_with("open:") {
            // An open spends through its skins; skins another refund took back are left out with it.
            while let Some(skin) = skins.next_if(|s| s.0 <= *entry) {
                if skin.0 == *entry {
                    steps.push(Step::Spend { paid: skin.2.max(0), item: Some(skin.1) });
                }
            }
            continue;
        }
        let paid = amount - bonus;
        if *amount > 0 {
            steps.push(Step::Credit { paid, ours: *key == ours });
        } else {
            steps.push(Step::Spend { paid: -paid, item: None });
        }
    }
    let paid: HashSet<i64> = paid_for(opening, steps).into_iter().collect();
    Ok(rows
        .into_iter()
        .filter(|r| paid.contains(&r.1))
        .map(|(_, id, _, status, steam, price, market_state, catalog_id)| PaidSkin {
            id,
            name: skin_name(catalog, &catalog_id, &steam),
            steam,
            price,
            status,
            market_state,
        })
        .collect())
}

/// One step of a player's paid history, in ledger order, as a refund reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Paid tokens credited; `ours` marks the refunded purchase's own credit.
    Credit { paid: i64, ours: bool },
    /// Paid tokens spent: a skin's share of its open (`item`), or anything else (`None`).
    Spend { paid: i64, item: Option<i64> },
}

/// The skins the refunded purchase's paid tokens paid for, at least in part, in the order their
/// spends were paid. Paid tokens are spent first in, first out: each spend takes the oldest paid
/// credit not yet spent, so the purchase paid for what was spent once the paid tokens ahead of it
/// were gone, until its own were. A spend that finds no paid credit (the one that paid for it was
/// refunded and left out) waits, and the next credit pays for it first. `opening` waits before
/// everything: the bonus part of the balance when the ledger began to split paid and bonus
/// (migration 0010), whose earlier entries all read as paid.
fn paid_for(opening: i64, steps: impl IntoIterator<Item = Step>) -> Vec<i64> {
    // Paid credits not yet spent, oldest first: (the purchase's own, tokens left).
    let mut credits: VecDeque<(bool, i64)> = VecDeque::new();
    // Spends no credit has paid for yet, oldest first: (skin, tokens unpaid).
    let mut waiting: VecDeque<(Option<i64>, i64)> = VecDeque::new();
    if opening > 0 {
        waiting.push_back((None, opening));
    }
    let mut seen = false;
    let mut items = Vec::new();
    for step in steps {
        match step {
            Step::Credit { paid, ours } => {
                seen |= ours;
                let mut left = paid;
                while left > 0 {
                    let Some(front) = waiting.front_mut() else { break };
                    let n = left.min(front.1);
                    (left, front.1) = (left - n, front.1 - n);
                    if let (true, Some(item)) = (ours, front.0) {
                        items.push(item);
                    }
                    if front.1 == 0 {
                        waiting.pop_front();
                    }
                }
                if left > 0 {
                    credits.push_back((ours, left));
                }
            }
            Step::Spend { paid, item } => {
                if seen && !credits.iter().any(|c| c.0) {
                    // The purchase's tokens are all spent: nothing later was paid with them.
                    break;
                }
                let (mut left, mut ours) = (paid, false);
                while left > 0 {
                    let Some(front) = credits.front_mut() else { break };
                    let n = left.min(front.1);
                    (left, front.1) = (left - n, front.1 - n);
                    ours |= front.0;
                    if front.1 == 0 {
                        credits.pop_front();
                    }
                }
                if let (true, Some(item)) = (ours, item) {
                    items.push(item);
                }
                if left > 0 {
                    waiting.push_back((item, left));
                }
            }
        }
    }
    items
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

/// Telegram refused the refund: the held tokens go back, paid and bonus parts as they were (a
/// hold is paid tokens only now; one taken before may carry bonus).
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
/// outside our command), so its value is clawed back by the forced rule (paid balance, the skins
/// the purchase paid for, then a debt). Only the
/// payer's own message counts (`from_user`): anyone else's is ignored (`None`).
pub async fn record_refunded(domain: &Domain, charge_id: &str, from_user: i64) -> DomainResult<Option<Refunded>> {
    let charge = charge_id.to_owned();
    let payer: Option<(i64,)> = domain
        .read(move |c| {
            Box::pin(async move {
                query(
                    "SELECT user_id FROM payments WHERE charge_id = $1 UNION ALL SELECT user_id FROM orphan_payments WHERE charge_id = $1",
                )
                .bind(charge)
                .fetch_optional(c)
                .await
            })
        })
        .await?;
    if payer.is_some_and(|(p,)| p != from_user) {
        tracing::warn!(%charge_id, from_user, "refunded_payment from someone other than the payer: ignored");
        return Ok(None);
    }
    let now = domain.now();
    let charge_id = charge_id.to_owned();
    let catalog = domain.catalog.clone();
    domain
        .write(move |tx| {
            Box::pin(async move {
                let outcome = reverse_in(tx, &catalog, &charge_id, now).await?;
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

/// The fewest Stars of any purchase that went through (`None` before the first). Read at start,
/// before the `Domain` exists, to default `WITHDRAW_MIN_STARS`.
pub async fn smallest_purchase(pool: &store::Pool) -> DomainResult<Option<i64>> {
    let (bought,): (Option<i64>,) = store::read(pool, None, |c| {
        Box::pin(async move { query("SELECT MIN(stars) FROM payments WHERE status = 'success'").fetch_one(c).await })
    })
    .await?;
    Ok(bought)
}

/// Orphan payments not refunded yet, oldest first: `(charge_id, user_id, payload, stars)`.
pub async fn orphans(domain: &Domain, actor: Actor) -> DomainResult<Vec<(String, i64, String, i64)>> {
    admin::ensure(domain, actor)?;
    domain
        .read(move |c| {
            Box::pin(async move {
                query(
                    "SELECT charge_id, user_id, payload, stars FROM orphan_payments WHERE refunded_at IS NULL ORDER BY created_at LIMIT 50",
                )
                .fetch_all(c)
                .await
            })
        })
        .await
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

    fn credit(paid: i64) -> Step {
        Step::Credit { paid, ours: false }
    }

    fn skin(item: i64, paid: i64) -> Step {
        Step::Spend { paid, item: Some(item) }
    }

    const OURS: Step = Step::Credit { paid: 1000, ours: true };

    #[test]
    fn a_purchase_pays_for_what_is_spent_once_the_paid_tokens_ahead_of_it_are_gone() {
        // 300 paid tokens before the purchase: skin 1 spends them and 100 of the purchase's.
        let steps = [credit(300), OURS, skin(1, 400), skin(2, 500), skin(3, 400), skin(4, 400)];
        assert_eq!(paid_for(0, steps), vec![1, 2, 3]);
    }

    #[test]
    fn skins_won_before_the_purchase_or_with_bonus_tokens_alone_are_not_the_purchases() {
        let steps = [credit(500), skin(1, 500), OURS, skin(2, 0), skin(3, 700), skin(4, 0), skin(5, 300)];
        assert_eq!(paid_for(0, steps), vec![3, 5]);
    }

    #[test]
    fn a_later_paid_credit_waits_behind_the_purchase() {
        // A sale or another purchase after it is spent only once the purchase's tokens are.
        let steps = [OURS, credit(2000), skin(1, 600), Step::Spend { paid: 300, item: None }, skin(2, 200), skin(3, 900)];
        assert_eq!(paid_for(0, steps), vec![1, 2]);
    }

    #[test]
    fn a_spend_no_credit_paid_for_is_paid_by_the_next_credit_first() {
        // Skin 1's own purchase was refunded and left out: the purchase pays for it first.
        let steps = [skin(1, 600), OURS, skin(2, 400), skin(3, 100)];
        assert_eq!(paid_for(0, steps), vec![1, 2]);
    }

    #[test]
    fn the_opening_bonus_is_spent_before_any_credit() {
        // Of the 500 paid before the purchase, 200 were bonus: skin 1 spends the other 300.
        let steps = [credit(500), OURS, skin(1, 300), skin(2, 400)];
        assert_eq!(paid_for(200, steps), vec![2]);
    }
}
