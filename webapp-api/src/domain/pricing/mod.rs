//! Prices follow the market: the `PriceFeed` port and the reprice rule.
//!
//! A reprice asks its source once for every price (Steam market hash name → US cents) — the
//! delivery market's own list when one is configured (`market_list`), Skinport otherwise — and,
//! with a market, Skinport as a cross-check. It converts to tokens at `TOKENS_PER_USD` and in one
//! write sets each catalog variant it may (`catalog_prices`, one `catalog_price_history` row per
//! change). Case prices follow from the variant prices and `CASE_RTP` when a catalog is served
//! (`served_catalog`): running servers pick the new prices up at their next start.
//!
//! Prices that cannot be poisoned (`rules`): a feed that fails writes nothing; a variant the feed
//! lacks or prices at zero keeps its price; a quote outside its rarity's bounds is never applied;
//! a quote the cross-check disputes (over ×2 apart) or that moves over ×3 from the baseline (the
//! last accepted price of the last 7 days, else the price in effect 7 days ago, else the committed
//! default) is held (`catalog_held`) until an operator accepts it (`held::accept`, or `reprice
//! --accept`); every run tells the admins, in one message, what it newly held and what it applied
//! over 25 %; a change held for 7 days is told again, never applied silently. A stored price the
//! shop cannot use takes its case off sale at start (`sale`), never stops the server.
pub mod held;
pub mod market_list;
pub mod notices;
pub mod rules;
pub mod sale;
pub mod skinport;

use std::collections::HashMap;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::time::Duration;

pub(crate) use notices::queue_notice;
pub use rules::JUMP_FACTOR;

use crate::domain::catalog::{Catalog, PriceProblem};
use crate::domain::goods;
use crate::domain::money::Usd;
use crate::domain::store::{self, query, Exec};
use crate::domain::{Domain, DomainError, Tokens};

/// What a feed answered: each Steam market hash name's price (0 when the feed gave none).
#[derive(Clone, Debug, Default)]
pub struct Quotes {
    pub prices: HashMap<String, Usd>,
}

/// Why a feed gave no prices.
#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    #[error("the price feed answered HTTP {0}")]
    Status(u16),
    #[error("the price feed did not answer within {0} ms")]
    Timeout(u64),
    #[error("the price feed's answer does not parse: {0}")]
    Unreadable(String),
    #[error("the price feed cannot be reached: {0}")]
    Unreachable(String),
}

/// The answer of `PriceFeed::fetch`.
pub type FeedFuture<'a> = Pin<Box<dyn Future<Output = Result<Quotes, FeedError>> + Send + 'a>>;

/// The market's prices, as the domain needs them. Adapters: `skinport::Skinport`, and the
/// delivery market's own list (`market_list::MarketList`).
pub trait PriceFeed: Send + Sync {
    /// Recorded with every price it sets (`catalog_prices.source`): `skinport`, `marketcsgo`.
    fn source(&self) -> &'static str;
    /// Every price, in one request.
    fn fetch(&self) -> FeedFuture<'_>;
}

/// Where a reprice reads its prices: the source it applies, and a second opinion.
pub struct Feeds {
    /// The prices applied: the delivery market's list with a market, else Skinport.
    pub price: Box<dyn PriceFeed>,
    /// With a market: Skinport, whose quote must agree within ×`rules::CROSS_FACTOR`.
    pub cross: Option<Box<dyn PriceFeed>>,
}

/// A reprice that wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum RepriceError {
    #[error("{0}; no price changed")]
    Feed(#[from] FeedError),
    #[error("the price feed priced no variant of the catalog; no price changed")]
    NothingPriced,
    #[error("{0}")]
    Domain(#[from] DomainError),
}

/// The daily run runs when the last reprice is at least this old.
pub const DAILY_EVERY_SECS: i64 = 24 * 3600;
/// How often the daily job looks whether a reprice is due (and how long it waits after start).
pub const DAILY_CHECK_EVERY: Duration = Duration::from_secs(3600);
/// `settings` key of the last reprice's time (unix seconds).
const LAST_REPRICE_KEY: &str = "last_reprice_at";
/// The lease name of the daily job across replicas.
const LEASE: &str = "daily-reprice";
/// Lines per section of an admin message (Telegram takes 4096 characters).
pub(crate) const SHOWN: usize = 8;

/// How a reprice runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Tokens per US dollar (hundredths: 100 tokens = `Tokens(10_000)`).
    pub tokens_per_usd: Tokens,
    /// An operator accepts this run's jumps and cross-check disputes (`--accept`); never a quote
    /// outside the bounds.
    pub accept_jumps: bool,
    /// Admin chats told what the run held and applied over 25 % (one message per run).
    pub notify: Vec<i64>,
}

/// One variant's applied price move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub variant: String,
    pub market_hash_name: String,
    pub old: Tokens,
    pub new: Tokens,
}

/// Why a quote waits for an operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoldReason {
    /// Over ×`JUMP_FACTOR` from the baseline.
    Jump,
    /// The cross-check's quote is over ×`CROSS_FACTOR` away.
    CrossCheck,
    /// Outside the rarity's bounds (or not a price in tokens at all): never applied.
    Bounds,
}

impl HoldReason {
    pub fn code(self) -> &'static str {
        match self {
            HoldReason::Jump => "jump",
            HoldReason::CrossCheck => "cross_check",
            HoldReason::Bounds => "bounds",
        }
    }

    pub fn parse(code: &str) -> Option<HoldReason> {
        [HoldReason::Jump, HoldReason::CrossCheck, HoldReason::Bounds].into_iter().find(|r| r.code() == code)
    }
}

/// A quote a run held: the old price stays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held {
    pub variant: String,
    pub market_hash_name: String,
    pub rarity: String,
    pub reason: HoldReason,
    /// The price that stays.
    pub old: Tokens,
    /// The quote in tokens; `None` when it does not fit.
    pub new: Option<Tokens>,
    pub quote: Usd,
    /// The cross-check's quote, if it had one.
    pub cross: Option<Usd>,
    /// What a jump is measured against.
    pub baseline: Tokens,
    /// When it was first held (unix seconds).
    pub held_at: i64,
    /// First held by this run (else held by an earlier run and still).
    pub first: bool,
    /// Told to the admins by this run (new, changed reason, or held for `REPORT_AGAIN_SECS`).
    pub told: bool,
}

/// How the cross-check went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CrossCheck {
    /// No second source (no delivery market: Skinport is the source).
    #[default]
    Off,
    /// Asked; quotes compared where it has them.
    Checked { source: &'static str },
    /// Asked, and it failed: prices were applied on the source alone, and the admins told.
    Failed { source: &'static str, why: String },
}

/// What a reprice did.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The source of the prices (`skinport`, `marketcsgo`).
    pub source: &'static str,
    /// Written, with a history row each.
    pub applied: Vec<Change>,
    /// Not applied: the old price stays (stored in `catalog_held`).
    pub held: Vec<Held>,
    /// Variants the feed did not price (missing, or at zero): their price stays.
    pub missing: Vec<String>,
    /// Priced by the feed at the price they already have.
    pub unchanged: usize,
    pub cross_check: CrossCheck,
    /// The admins' message this run queued, if it had anything to tell.
    pub notice: Option<String>,
}

/// A catalog variant as the reprice sees it (owned: the write may run on the writer thread).
struct Candidate {
    key: String,
    name: String,
    rarity: String,
    /// The committed default (`prices.json`), used when no market price was stored yet.
    default: Tokens,
    /// The source's quote; `None` when missing or zero.
    quote: Option<Usd>,
    /// The cross-check's quote; `None` when it has none.
    cross: Option<Usd>,
}

/// Whether `new` is more than ×`JUMP_FACTOR` away from `old`, either way.
pub fn is_jump(old: Tokens, new: Tokens) -> bool {
    rules::is_jump(old, new)
}

/// Asks the feeds once each and writes the prices the rules allow. Nothing is written when the
/// source fails or prices no variant of `catalog` (the committed catalog: names and defaults);
/// a failing cross-check is told to the admins and the source's prices go on under the rules.
pub async fn reprice(domain: &Domain, catalog: &Catalog, feeds: &Feeds, settings: &Settings) -> Result<Outcome, RepriceError> {
    let quotes = feeds.price.fetch().await?;
    let (cross_quotes, cross_check) = match &feeds.cross {
        None => (None, CrossCheck::Off),
        Some(cross) => match cross.fetch().await {
            Ok(q) => (Some(q), CrossCheck::Checked { source: cross.source() }),
            Err(e) => {
                tracing::warn!(error = %e, source = cross.source(), "the cross-check feed failed; prices go on without it");
                (None, CrossCheck::Failed { source: cross.source(), why: e.to_string() })
            }
        },
    };
    let mut candidates = Vec::new();
    for item in &catalog.items {
        for vp in &item.prices {
            let name = goods::market_hash_name(item, vp.variant.stat_trak, vp.variant.exterior);
            let quote = quotes.prices.get(&name).copied().filter(|c| c.cents() > 0);
            let cross = cross_quotes.as_ref().and_then(|q| q.prices.get(&name).copied()).filter(|c| c.cents() > 0);
            candidates.push(Candidate {
                key: vp.variant.key(&item.id),
                name,
                rarity: item.rarity.clone(),
                default: vp.price,
                quote,
                cross,
            });
        }
    }
    if candidates.iter().all(|c| c.quote.is_none()) {
        return Err(RepriceError::NothingPriced);
    }
    let run = Run {
        source: feeds.price.source(),
        cross_check,
        accept: settings.accept_jumps,
        notify: settings.notify.clone(),
        tokens_per_usd: settings.tokens_per_usd,
        now: domain.now(),
    };
    let outcome = domain.write(move |tx| Box::pin(write_prices(tx, candidates, run))).await?;
    Ok(outcome)
}

/// What one run needs in its write (owned).
struct Run {
    source: &'static str,
    cross_check: CrossCheck,
    accept: bool,
    notify: Vec<i64>,
    tokens_per_usd: Tokens,
    now: i64,
}

/// The prices the baseline reads: per variant, the last price an operator accepted within the
/// window, and the price in effect when the window began.
async fn baselines(tx: &mut dyn Exec, now: i64) -> Result<(HashMap<String, i64>, HashMap<String, i64>), DomainError> {
    let start = now - rules::BASELINE_WINDOW_SECS;
    let accepted: Vec<(String, i64)> = query(
        "SELECT h.variant, h.price FROM catalog_price_history h
         JOIN (SELECT variant, MAX(id) AS id FROM catalog_price_history WHERE accepted = 1 AND created_at > $1 GROUP BY variant) l
           ON l.id = h.id",
    )
    .bind(start)
    .fetch_all(tx)
    .await?;
    let at_start: Vec<(String, i64)> = query(
        "SELECT h.variant, h.price FROM catalog_price_history h
         JOIN (SELECT variant, MAX(id) AS id FROM catalog_price_history WHERE created_at <= $1 GROUP BY variant) l
           ON l.id = h.id",
    )
    .bind(start)
    .fetch_all(tx)
    .await?;
    Ok((accepted.into_iter().collect(), at_start.into_iter().collect()))
}

async fn write_prices(tx: &mut dyn Exec, candidates: Vec<Candidate>, run: Run) -> Result<Outcome, DomainError> {
    // One reprice at a time: where writers lock rows, a named lock; a single writer needs none.
    store::lock_key(tx, "catalog-prices").await?;
    let stored: HashMap<String, i64> = query("SELECT variant, price FROM catalog_prices").fetch_all(tx).await?.into_iter().collect();
    let (accepted, at_start) = baselines(tx, run.now).await?;
    let was_held: HashMap<String, (String, i64, i64)> = query("SELECT variant, reason, held_at, reported_at FROM catalog_held")
        .fetch_all::<(String, String, i64, i64)>(tx)
        .await?
        .into_iter()
        .map(|(v, r, h, t)| (v, (r, h, t)))
        .collect();
    let mut out = Outcome { source: run.source, cross_check: run.cross_check.clone(), ..Outcome::default() };
    for c in candidates {
        let Some(quote) = c.quote else {
            out.missing.push(c.name);
            continue;
        };
        let stored_price = stored.get(&c.key).map(|p| Tokens(*p));
        // Never priced by the market: the old price is the committed default.
        let old = stored_price.unwrap_or(c.default);
        let baseline = rules::baseline(accepted.get(&c.key).map(|p| Tokens(*p)), at_start.get(&c.key).map(|p| Tokens(*p)), c.default);
        let new = quote.to_tokens(run.tokens_per_usd).filter(|t| t.0 > 0);
        let in_bounds = rules::bounds(&c.rarity).is_some_and(|b| b.contains(quote));
        let hold = match new {
            // Outside the bounds (or not a token price at all): never applied, not even accepted.
            _ if !in_bounds => Some(HoldReason::Bounds),
            None => Some(HoldReason::Bounds),
            Some(n) if stored_price == Some(n) || (stored_price.is_none() && n == c.default) => None,
            Some(_) if !run.accept && c.cross.is_some_and(|x| rules::disagree(quote, x)) => Some(HoldReason::CrossCheck),
            Some(n) if !run.accept && rules::is_jump(baseline, n) => Some(HoldReason::Jump),
            Some(_) => None,
        };
        if let Some(reason) = hold {
            let previous = was_held.get(&c.key);
            let told = match previous {
                None => true,
                Some((r, _, reported_at)) => r != reason.code() || run.now - reported_at >= rules::REPORT_AGAIN_SECS,
            };
            let held_at = previous.map_or(run.now, |p| p.1);
            let held = Held {
                variant: c.key,
                market_hash_name: c.name,
                rarity: c.rarity,
                reason,
                old,
                new,
                quote,
                cross: c.cross,
                baseline,
                held_at,
                first: previous.is_none(),
                told,
            };
            store_held(tx, &held, run.source, run.now).await?;
            out.held.push(held);
            continue;
        }
        // `hold` is `None` only with a token price in bounds.
        let Some(new) = new else { continue };
        if was_held.contains_key(&c.key) {
            query("DELETE FROM catalog_held WHERE variant = $1").bind(&c.key).execute(tx).await?;
        }
        if stored_price == Some(new) {
            out.unchanged += 1;
            continue;
        }
        if new == old {
            // The market confirms the default: stored, so it is a market price from now on.
            set_price(tx, &c.key, new, run.source, run.accept, run.now).await?;
            out.unchanged += 1;
            continue;
        }
        set_price(tx, &c.key, new, run.source, run.accept, run.now).await?;
        out.applied.push(Change { variant: c.key, market_hash_name: c.name, old, new });
    }
    query("INSERT INTO settings(key, value) VALUES ($1, $2) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        .bind(LAST_REPRICE_KEY)
        .bind(run.now.to_string())
        .execute(tx)
        .await?;
    out.notice = run_notice(&out, run.accept);
    if let Some(body) = &out.notice {
        queue_notice(tx, &run.notify, body, run.now).await?;
    }
    Ok(out)
}

/// Records a held quote (the first time it was held stays; `reported_at` moves when told).
async fn store_held(tx: &mut dyn Exec, h: &Held, source: &str, now: i64) -> Result<(), DomainError> {
    query(
        "INSERT INTO catalog_held(variant, market_hash_name, reason, from_price, to_price, to_cents, cross_cents, source,
                                  held_at, updated_at, reported_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
         ON CONFLICT(variant) DO UPDATE SET market_hash_name = excluded.market_hash_name, reason = excluded.reason,
             from_price = excluded.from_price, to_price = excluded.to_price, to_cents = excluded.to_cents,
             cross_cents = excluded.cross_cents, source = excluded.source, updated_at = excluded.updated_at,
             reported_at = CASE WHEN $11 = 1 THEN excluded.reported_at ELSE catalog_held.reported_at END",
    )
    .bind(&h.variant)
    .bind(&h.market_hash_name)
    .bind(h.reason.code())
    .bind(h.old.0)
    .bind(h.new.map(|t| t.0))
    .bind(h.quote.cents())
    .bind(h.cross.map(|c| c.cents()))
    .bind(source)
    .bind(h.held_at)
    .bind(now)
    .bind(i64::from(h.told))
    .execute(tx)
    .await?;
    Ok(())
}

/// Sets a variant's market price and records it in the history (`accepted`: an operator's).
pub(crate) async fn set_price(
    tx: &mut dyn Exec,
    key: &str,
    price: Tokens,
    source: &str,
    accepted: bool,
    now: i64,
) -> Result<(), DomainError> {
    query(
        "INSERT INTO catalog_prices(variant, price, source, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT(variant) DO UPDATE SET price = excluded.price, source = excluded.source, updated_at = excluded.updated_at",
    )
    .bind(key)
    .bind(price.0)
    .bind(source)
    .bind(now)
    .execute(tx)
    .await?;
    query("INSERT INTO catalog_price_history(variant, price, source, created_at, accepted) VALUES ($1, $2, $3, $4, $5)")
        .bind(key)
        .bind(price.0)
        .bind(source)
        .bind(now)
        .bind(i64::from(accepted))
        .execute(tx)
        .await?;
    Ok(())
}

/// One line about a held quote.
pub fn held_line(h: &Held) -> String {
    let to = h.new.map_or_else(|| h.quote.to_string(), |t| format!("{t} ({})", h.quote));
    match h.reason {
        HoldReason::Jump => {
            format!("{}: {} → {to}: over ×{JUMP_FACTOR} from {} (the 7-day baseline)", h.market_hash_name, h.old, h.baseline)
        }
        HoldReason::CrossCheck => format!(
            "{}: {} → {to}: the cross-check says {}, over ×{} apart",
            h.market_hash_name,
            h.old,
            h.cross.map(|c| c.to_string()).unwrap_or_default(),
            rules::CROSS_FACTOR
        ),
        HoldReason::Bounds => {
            let range = rules::bounds(&h.rarity).map(|b| format!("{}–{}", b.floor, b.ceiling)).unwrap_or_default();
            format!("{}: {} kept; quoted {}, outside {range} for {} (never applied)", h.market_hash_name, h.old, h.quote, h.rarity)
        }
    }
}

/// Up to `SHOWN` lines, then how many more.
fn section(body: &mut String, title: String, lines: Vec<String>) {
    if lines.is_empty() {
        return;
    }
    body.push_str(&title);
    body.push('\n');
    for l in lines.iter().take(SHOWN) {
        body.push_str("• ");
        body.push_str(l);
        body.push('\n');
    }
    if lines.len() > SHOWN {
        body.push_str(&format!("… and {} more\n", lines.len() - SHOWN));
    }
}

/// The admins' one message about a run: what it newly held (and what is still held after 7
/// days), what it applied over 25 %, and a failed cross-check. `None`: nothing to tell.
pub fn run_notice(out: &Outcome, accepted: bool) -> Option<String> {
    let new_held: Vec<String> = out.held.iter().filter(|h| h.told && h.first).map(held_line).collect();
    let still: Vec<String> = out.held.iter().filter(|h| h.told && !h.first).map(held_line).collect();
    let big: Vec<String> = out
        .applied
        .iter()
        .filter(|c| rules::worth_reporting(c.old, c.new))
        .map(|c| format!("{}: {} → {} ({:+} %)", c.market_hash_name, c.old, c.new, rules::change_percent(c.old, c.new)))
        .collect();
    let failed = match &out.cross_check {
        CrossCheck::Failed { source, why } => {
            Some(format!("The cross-check ({source}) failed: {why}. Prices were checked by the rules alone.\n"))
        }
        _ => None,
    };
    if new_held.is_empty() && still.is_empty() && big.is_empty() && failed.is_none() {
        return None;
    }
    let mut body = format!("⚠️ Reprice from {}{}:\n", out.source, if accepted { ", accepted by an operator" } else { "" });
    section(&mut body, format!("Held, the old prices stay ({}):", new_held.len()), new_held);
    section(&mut body, format!("Still held, told again ({}):", still.len()), still);
    section(&mut body, format!("Applied, over 25 % ({}):", big.len()), big);
    if let Some(f) = failed {
        body.push_str(&f);
    }
    if out.held.iter().any(|h| h.told) {
        body.push_str("Review: `fragbox catalog held`; apply: `fragbox catalog accept <name>` or `fragbox catalog accept --all`.\n");
    }
    body.push_str("Servers charge new prices from their next start.");
    Some(body)
}

/// When the last reprice ran (unix seconds); `None`: never repriced.
pub async fn last_reprice(pool: &store::Pool) -> crate::domain::DomainResult<Option<i64>> {
    let row: Option<(String,)> = store::read(pool, None, |c| {
        Box::pin(async move { store::query("SELECT value FROM settings WHERE key = $1").bind(LAST_REPRICE_KEY).fetch_optional(c).await })
    })
    .await?;
    Ok(row.and_then(|r| r.0.parse().ok()))
}

/// The catalog a process serves: the files in `dir`, every usable price a reprice stored over
/// the committed defaults, case prices for `rtp_bp`, and the cases off sale. A stored price the
/// shop cannot use (outside its rarity's bounds at `tokens_per_usd`, or one whose case price
/// overflows) is not served: its cases are off sale and listed in `Catalog::price_problems`
/// (start-up records them and tells the admins, `sale::record_price_problems`). Never an error
/// for a price: only for files that do not load or a store that does not answer.
pub async fn served_catalog(pool: &store::Pool, dir: &Path, rtp_bp: i64, tokens_per_usd: Tokens) -> Result<Catalog, String> {
    let mut catalog = Catalog::load_with_rtp(dir, rtp_bp).map_err(|e| format!("CATALOG_DIR: {e}"))?;
    let stored = goods::stored_prices(pool).await.map_err(|e| format!("stored prices: {e}"))?;
    let mut problems: Vec<PriceProblem> = Vec::new();
    let mut usable = HashMap::new();
    for (key, price) in stored {
        let Some((item_id, variant)) = goods::Variant::parse_key(&key) else { continue };
        // A variant the files no longer have is not served anyway.
        let Some(item) = catalog.item(item_id) else { continue };
        match rules::usable(price, &item.rarity, tokens_per_usd) {
            Ok(()) => {
                usable.insert(key, price);
            }
            Err(why) => {
                let name = goods::market_hash_name(item, variant.stat_trak, variant.exterior);
                for case_id in catalog.cases_with_item(item_id) {
                    problems.push(PriceProblem { case_id, detail: format!("{name}: {why}") });
                }
            }
        }
    }
    if !usable.is_empty() {
        problems.extend(catalog.apply_prices(&usable, rtp_bp));
    }
    let mut off: HashMap<String, String> =
        sale::list(pool).await.map_err(|e| format!("cases off sale: {e}"))?.into_iter().map(|o| (o.case_id.clone(), o.why())).collect();
    let mut seen = std::collections::HashSet::new();
    problems.retain(|p| seen.insert(p.case_id.clone()));
    for p in &problems {
        off.entry(p.case_id.clone()).or_insert_with(|| format!("price: {}", p.detail));
    }
    if !off.is_empty() {
        catalog.set_off_sale(&off);
    }
    catalog.price_problems = problems;
    Ok(catalog)
}

/// One turn of the daily job: when the last reprice is a day old and no other replica holds the
/// job, reprice (jumps held, admins told). `None`: not due, or another replica has it.
/// `catalog` is the committed one (names and defaults).
pub async fn daily_once(domain: &Domain, catalog: &Catalog, feeds: &Feeds, settings: &Settings) -> Result<Option<Outcome>, RepriceError> {
    let Some(lease) = store::try_lease(&domain.db, LEASE).await? else { return Ok(None) };
    let due = match last_reprice(&domain.db).await? {
        Some(at) => domain.now() - at >= DAILY_EVERY_SECS,
        None => true,
    };
    let result = if due { reprice(domain, catalog, feeds, settings).await.map(Some) } else { Ok(None) };
    lease.release().await;
    result
}

/// The daily job: looks every `DAILY_CHECK_EVERY` (the first time that long after start) and
/// reprices once a day, on one replica at a time; stops with `stop`. A failed run is logged and
/// tried again at the next look. `catalog` is the committed one (the files): its defaults are the
/// baseline of a variant never priced, which the served catalog (stored prices over them) is not.
pub async fn run_daily(domain: Domain, catalog: Catalog, feeds: Feeds, settings: Settings, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    loop {
        tokio::select! {
            _ = &mut stop => return,
            _ = tokio::time::sleep(DAILY_CHECK_EVERY) => {}
        }
        let turn = tokio::select! {
            _ = &mut stop => return,
            r = daily_once(&domain, &catalog, &feeds, &settings) => r,
        };
        match turn {
            Ok(None) => {}
            Ok(Some(o)) => tracing::info!(
                applied = o.applied.len(),
                held = o.held.len(),
                missing = o.missing.len(),
                "daily reprice done; servers charge the new prices from their next start"
            ),
            Err(e) => tracing::error!(error = %e, "daily reprice failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(reason: HoldReason, first: bool, told: bool) -> Held {
        Held {
            variant: "ak47-redline:ft".into(),
            market_hash_name: "AK-47 | Redline (Field-Tested)".into(),
            rarity: "classified".into(),
            reason,
            old: Tokens(1_000),
            new: Some(Tokens(4_000)),
            quote: Usd::from_cents(40),
            cross: Some(Usd::from_cents(10)),
            baseline: Tokens(1_000),
            held_at: 0,
            first,
            told,
        }
    }

    #[test]
    fn a_run_tells_new_holds_big_changes_and_a_failed_cross_check_in_one_message() {
        let quiet = Outcome { source: "skinport", unchanged: 3, held: vec![held(HoldReason::Jump, false, false)], ..Outcome::default() };
        assert_eq!(run_notice(&quiet, false), None, "a hold already told and a small world: nothing to say");

        let out = Outcome {
            source: "marketcsgo",
            applied: vec![
                Change { variant: "a".into(), market_hash_name: "Big".into(), old: Tokens(400), new: Tokens(800) },
                Change { variant: "b".into(), market_hash_name: "Small".into(), old: Tokens(400), new: Tokens(500) },
            ],
            held: vec![held(HoldReason::CrossCheck, true, true), held(HoldReason::Bounds, false, true)],
            cross_check: CrossCheck::Failed { source: "skinport", why: "HTTP 500".into() },
            ..Outcome::default()
        };
        let body = run_notice(&out, false).unwrap();
        assert!(body.contains("Big: 4 → 8 (+100 %)"), "{body}");
        assert!(!body.contains("Small"), "{body}");
        assert!(body.contains("Held, the old prices stay (1)") && body.contains("cross-check says $0.10"), "{body}");
        assert!(body.contains("Still held, told again (1)") && body.contains("outside $0.03–$10000.00 for classified"), "{body}");
        assert!(body.contains("skinport") && body.contains("HTTP 500"), "{body}");
        assert!(body.contains("fragbox catalog accept"), "{body}");
    }

    #[test]
    fn cents_become_tokens_at_the_rate_rounded_to_a_hundredth() {
        assert_eq!(Usd::from_cents(1234).to_tokens(Tokens(10_000)), Some(Tokens(123_400)));
        assert_eq!(Usd::from_cents(3).to_tokens(Tokens(12_345)), Some(Tokens(370)));
        assert_eq!(Usd::from_cents(0).to_tokens(Tokens(10_000)), Some(Tokens(0)));
        assert_eq!(Usd::from_cents(i64::MAX).to_tokens(Tokens(10_000)), None, "an absurd quote is refused, never wrapped");
        // One rounding rule both ways: a price converted and back is where it started.
        for (cents, per_usd) in [(521, 117), (1, 117), (99_999, 10_000), (7, 5_000)] {
            let tokens = Usd::from_cents(cents).to_tokens(Tokens(per_usd)).unwrap();
            assert_eq!(Usd::from_tokens(tokens, Tokens(per_usd)), Some(Usd::from_cents(cents)), "{cents} at {per_usd}");
        }
    }
}
