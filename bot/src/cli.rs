//! The `fragbox` command line: one clap table. `fragbox` alone serves; every other command is an
//! operator's action, safe while the server runs (each is one short write transaction on the
//! same database). Next season's commands are one more variant of [`Command`] and one more arm
//! in [`run`].
use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use webapp_api::domain::admin::{self, Actor};
use webapp_api::domain::market::Usd;
use webapp_api::domain::pricing;
use webapp_api::domain::store;
use webapp_api::domain::withdrawals::{self, Resolution};
use webapp_api::domain::{audit, delivery, finance, moving, settings, Domain, Tokens};
use webapp_api::domain::{promo, responsible};

use crate::config::{self, Config};

/// The process's arguments: a command (none = serve) and the settings.
#[derive(Parser)]
#[command(name = "fragbox", version, about = "FragBox: the Telegram bot, the mini app and its API, and the operator's commands")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub config: Config,
}

impl Cli {
    /// Parses the process's arguments and environment; `--help`, `--version` and a malformed
    /// command line end the process here (clap prints them; exit code 2 for an error).
    pub fn from_process() -> Cli {
        let matches = config::blank_variables_unset(Cli::command()).get_matches();
        Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
    }
}

#[derive(Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Serve the mini app, its API and the bot (the default).
    Serve,
    /// Add tokens to a player's balance (a negative amount takes them), as a ledger entry.
    Grant {
        /// The player's Telegram user id.
        telegram_id: i64,
        /// Tokens with at most 2 decimals, e.g. 12.5 or -3.
        #[arg(allow_negative_numbers = true, value_parser = an_amount)]
        tokens: Tokens,
        /// Why (kept in the ledger and the admin audit log): the words up to the next flag. A
        /// word that starts with `-` is taken for a flag (an unknown one is refused), never
        /// made part of the reason; `--reason="-…"` passes one.
        #[arg(long, required = true, num_args = 1.., value_name = "TEXT")]
        reason: Vec<String>,
        /// Compensation that counts as paid: real value, withdrawable as skins won with it, so
        /// marked as a paid grant in the ledger and the admin audit log and counted as paid in
        /// `fragbox audit`. Credits only. Without it a grant is bonus tokens.
        #[arg(long)]
        paid: bool,
    },
    /// Check the books, the money out on the market and where what left came from.
    ///
    /// The books: balance = ledger sum, nothing negative, items consistent. The money out (with
    /// MARKET_API_KEY): every purchase attempt the shop ever issued is looked up on the market,
    /// in batches; a purchase under an id recorded as not bought, two purchases for one
    /// withdrawal, a price over its cap, or dollars spent beyond the caps of the withdrawals
    /// delivered, settling or in flight are violations. Provenance: a skin that left (or is in a
    /// live withdrawal) won with bonus tokens while WITHDRAW_PAID_ONLY is on, or funded by a
    /// refunded purchase the refund did not settle. More value leaving than was paid is printed,
    /// never a failure.
    ///
    /// Exit status: 0 clean; 2 an integrity violation (books or market); 4 the market could not
    /// be checked (unreachable, an error, the key refused, or attempts exist but no market is
    /// configured); 3 a provenance finding. When several apply: 2, then 4, then 3.
    Audit,
    /// The books per UTC day and in total: Stars received and refunded and what they pay at
    /// STAR_USD, what the market charged net of its refunds, the margin between them, what was
    /// delivered, is settling or was reversed, and what players could still take out. Reads only.
    Finance {
        /// How many UTC days, ending today (1-366).
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=i64::from(finance::MAX_DAYS)))]
        days: u32,
        /// One JSON object: {"days": [{"date": ..., ...}], "total": {...}}.
        #[arg(long)]
        json: bool,
    },
    /// The catalog in CATALOG_DIR.
    Catalog {
        #[command(subcommand)]
        command: CatalogCommand,
    },
    /// Withdrawals waiting for the operator (no subcommand = list).
    Withdrawals {
        #[command(subcommand)]
        command: Option<WithdrawalsCommand>,
    },
    /// The P2P market of automatic withdrawals (MARKET_*).
    Market {
        #[command(subcommand)]
        command: MarketCommand,
    },
    /// The maintenance switch: players see a notice and cannot spend while it is on.
    Maintenance {
        #[command(subcommand)]
        command: MaintenanceCommand,
    },
    /// Promo codes: create, list, disable.
    Promo {
        #[command(subcommand)]
        command: PromoCommand,
    },
    /// Responsible play: lift a player's self-exclusion (the only way to end a permanent one).
    Responsible {
        #[command(subcommand)]
        command: ResponsibleCommand,
    },
    /// Write a consistent copy of the live database to a new file (PostgreSQL: pg_dump).
    Backup {
        /// A file that does not exist yet.
        file: PathBuf,
    },
    /// Copy a shop from its SQLite file into an empty PostgreSQL database, and verify the copy.
    MigrateDb {
        /// The shop's SQLite file: sqlite://<file>.
        #[arg(long, value_name = "sqlite://FILE")]
        from: String,
        /// The empty PostgreSQL database: postgres://<user>@<host>/<db>.
        #[arg(long, value_name = "postgres://URL")]
        to: String,
    },
    /// Print the OpenAPI document of the API (JSON): the one `GET /api/v1/openapi.json` serves,
    /// for generating the mini app's types or a client without starting the shop.
    Openapi,
}

#[derive(Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum CatalogCommand {
    /// Per case: price, expected value, return-to-player, odds; per package: what its Stars earn
    /// against the most its tokens can take out (STAR_USD, TOKENS_PER_USD, MARKET_MAX_OVERPAY).
    /// Exit 1 outside the 80-95 % band, or when the smallest package's paid tokens cannot open
    /// the cheapest case. A package at a loss is printed (serve refuses it), never an exit status.
    Check,
    /// Fetch every item and case picture of the catalog from CATALOG_ASSETS_URL into
    /// CATALOG_IMAGES_DIR (those already there are kept), so players never wait on the outside
    /// host. Prints how many were cached, fetched and failed; exit 1 if any failed.
    Images,
    /// Set every variant's price from the market, one request: the delivery market's own price
    /// list when MARKET_PROVIDER is set (cross-checked by PRICE_FEED_URL), else PRICE_FEED_URL.
    /// Case prices follow at CASE_RTP. Held, unless --accept: a move over x3 from the 7-day
    /// baseline, a quote the cross-check puts over x2 away. Never applied: a quote outside its
    /// rarity's bounds. The admins are told what was held and what moved over 25 %. Servers
    /// charge the new prices from their next start.
    Reprice {
        /// Apply this run's jumps and cross-check disputes too (after checking them); never a
        /// quote outside the bounds. `fragbox catalog accept` applies held ones without a request.
        #[arg(long)]
        accept: bool,
    },
    /// Held price changes (what, from, to, why, since when), waiting for `catalog accept`.
    Held,
    /// Apply held price changes as the operator's prices (no request to any feed); they become
    /// the baseline of the next 7 days. A quote outside its rarity's bounds is never applied.
    Accept {
        /// The Steam name (as `catalog held` shows it) or the variant key.
        #[arg(required_unless_present = "all")]
        name: Option<String>,
        /// Every held change.
        #[arg(long, conflicts_with = "name")]
        all: bool,
    },
    /// Take a case off sale at once: opens are refused on every server now; the store lists it
    /// no more from each server's next start. Stays off across restarts until `catalog on`.
    Off {
        /// The case id (as `catalog check` shows it).
        case: String,
        /// A note kept with it; the rest of the line.
        #[arg(long, num_args = 1.., allow_hyphen_values = true, value_name = "TEXT")]
        reason: Option<Vec<String>>,
    },
    /// Put a case back on sale (servers sell it from their next start). Refused while one of its
    /// stored prices is still unusable.
    On {
        /// The case id.
        case: String,
    },
}

#[derive(Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum WithdrawalsCommand {
    /// Pending withdrawals with each player's risk summary (and automatic ones: market state,
    /// custom id, cap and price paid, settling ones included).
    List,
    /// Put an automatic withdrawal of the manual queue back in the market's hands.
    Retry {
        /// The withdrawal's id (#N in the list).
        id: i64,
    },
    /// The skin was sent: the withdrawal is done.
    Sent {
        /// The withdrawal's id (#N in the list).
        id: i64,
    },
    /// The withdrawal failed: the item is available again and the player is told why.
    Error {
        /// The withdrawal's id (#N in the list).
        id: i64,
        /// Why it failed (a note alone means `other`).
        #[arg(ignore_case = true, value_parser = PossibleValuesParser::new(withdrawals::REASON_CODES))]
        code: Option<String>,
        /// A note for the player: the words up to the next flag (as `grant --reason`).
        #[arg(long, num_args = 1.., value_name = "NOTE")]
        reason: Option<Vec<String>>,
    },
}

#[derive(Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum PromoCommand {
    /// Create a code worth TOKENS bonus tokens to each of at most USES players.
    Create {
        /// 3-32 of A-Z, a-z, 0-9, _ and -; matched case-insensitively.
        code: String,
        /// Bonus tokens per redemption (at most 2 decimals).
        #[arg(long, value_parser = an_amount)]
        tokens: Tokens,
        /// How many players may redeem it in all.
        #[arg(long, value_parser = clap::value_parser!(i64).range(1..=promo::MAX_USES))]
        uses: i64,
        /// Valid for this many days from now (no end without it).
        #[arg(long, value_parser = clap::value_parser!(i64).range(1..=promo::MAX_DAYS))]
        days: Option<i64>,
        /// Only for players with at least one successful Stars payment.
        #[arg(long)]
        deposit_only: bool,
    },
    /// Every code with its uses and state, newest first.
    List,
    /// Disable a code for good (players then get promo_not_found).
    Disable { code: String },
}

#[derive(Subcommand, Clone, Debug, PartialEq, Eq)]
pub enum ResponsibleCommand {
    /// End a player's running self-exclusion (timed or permanent); written to the admin audit log.
    Lift {
        /// The player's Telegram user id.
        user_id: i64,
        /// Why (kept in the admin audit log): the words up to the next flag (as `grant --reason`).
        #[arg(long, required = true, num_args = 1.., value_name = "TEXT")]
        reason: Vec<String>,
    },
}

#[derive(Subcommand, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarketCommand {
    /// The market account's balance (get-money), today's spend (UTC day) and the daily budget.
    Balance,
}

#[derive(Subcommand, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaintenanceCommand {
    /// Switch maintenance on.
    On,
    /// Switch maintenance off.
    Off,
    /// Print whether maintenance is on.
    Status,
}

impl Command {
    /// Whether the command reads or writes the shop in DATABASE_URL, which must then already
    /// exist: an operator's typo must never create an empty shop. Every new command answers here.
    pub fn needs_shop(&self) -> bool {
        match self {
            Command::Grant { .. }
            | Command::Audit
            | Command::Withdrawals { .. }
            | Command::Market { .. }
            | Command::Maintenance { .. }
            | Command::Backup { .. }
            | Command::Promo { .. }
            | Command::Responsible { .. }
            | Command::Finance { .. }
            | Command::Catalog {
                command:
                    CatalogCommand::Reprice { .. }
                    | CatalogCommand::Held
                    | CatalogCommand::Accept { .. }
                    | CatalogCommand::Off { .. }
                    | CatalogCommand::On { .. },
            } => true,
            // `serve` creates a new shop on purpose; `catalog check` and `catalog images` read files only;
            // `migrate-db` names its own databases and checks them itself; `openapi` prints what
            // the code declares.
            Command::Serve | Command::Catalog { .. } | Command::MigrateDb { .. } | Command::Openapi => false,
        }
    }
}

/// Writes the served document's bytes, then a newline, to stdout.
fn print_openapi() -> Result<i32, String> {
    use std::io::Write;
    let doc = webapp_api::http::routes::document();
    let mut out = std::io::stdout().lock();
    out.write_all(doc.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(|e| format!("writing the document: {e}"))?;
    Ok(0)
}

fn an_amount(s: &str) -> Result<Tokens, String> {
    Tokens::parse(s).filter(|a| a.0 != 0).ok_or_else(|| format!("not an amount with at most 2 decimals: {s}"))
}

/// The operator id recorded in the admin audit log for CLI actions.
const CLI_OPERATOR: i64 = 0;

/// Runs one operator command; answers the process exit code.
pub async fn run(config: &Config, command: Command) -> Result<i32, String> {
    if command.needs_shop() {
        existing_shop(&config.database_url).await?;
    }
    let domain = match &command {
        Command::Serve => return Err("`serve` is not an operator command".into()),
        Command::Catalog { command: CatalogCommand::Check } => return catalog_check(config).await,
        Command::Catalog { command: CatalogCommand::Images } => return catalog_images(config).await,
        Command::MigrateDb { from, to } => return migrate_db(from, to).await,
        Command::Openapi => return print_openapi(),
        _ => {
            let pool = crate::open_store(config).await?.0;
            let catalog = load_catalog(config)?;
            let min_stars = crate::withdraw_min_stars(config, &pool, &catalog).await?;
            let clock = std::sync::Arc::new(webapp_api::domain::clock::SystemClock);
            crate::build_domain(config, pool, catalog, None, config.bot_username.clone(), clock, min_stars)
        }
    };
    let code = run_on(config, &domain, command).await;
    domain.db.close().await;
    code
}

async fn run_on(config: &Config, domain: &Domain, command: Command) -> Result<i32, String> {
    match command {
        Command::Grant { telegram_id: id, tokens: amount, reason, paid } => {
            let reason = reason.join(" ");
            let balance = grant(domain, id, amount, &reason, paid).await?;
            // Says what was done: which kind of tokens moved, and which way.
            let (sign, kind) = match (amount.0 > 0, paid) {
                (true, true) => ("+", "paid tokens"),
                (true, false) => ("+", "bonus tokens"),
                (false, _) => ("", "tokens (paid first)"),
            };
            println!("user {id}: {sign}{amount} {kind} ({reason}); balance {balance}");
            Ok(0)
        }
        Command::Audit => audit_command(config, domain).await,
        Command::Finance { days, json } => {
            let books = finance::books(&domain.db, config.finance(), domain.now(), days).await.map_err(|e| e.to_string())?;
            if json {
                println!("{}", books_json(&books));
            } else {
                print!("{}", books_text(&books));
            }
            Ok(0)
        }
        Command::Withdrawals { command: None | Some(WithdrawalsCommand::List) } => {
            for w in withdrawals::pending(domain).await.map_err(|e| e.to_string())? {
                let r = &w.risk;
                println!(
                    "#{} user {} ({}) item {} {} [{}] price {} steam {} {} since {}",
                    w.id,
                    w.user_id,
                    w.user,
                    w.item_id,
                    w.item,
                    w.condition,
                    w.token_price,
                    w.steam_id64.map(|s| s.to_string()).unwrap_or_default(),
                    w.trade_url,
                    w.created_at
                );
                println!(
                    "    risk: account {} days, stars paid {} refunded {}, free tokens {}, invited {}, opens {}, withdrawn {}, debt {}{}{}",
                    r.account_age_days,
                    r.stars_paid,
                    r.stars_refunded,
                    r.free_tokens,
                    r.invited_friends,
                    r.opens,
                    r.withdrawn_value,
                    r.debt,
                    if r.item_failed_before {
                        ", WARNING: this item was in status error before (a Steam offer may still be open)"
                    } else {
                        ""
                    },
                    if r.demo { ", DEMO user" } else { "" }
                );
                if let Some(m) = &w.market {
                    let usd = |c: Option<i64>| c.map(|c| Usd::from_cents(c).to_string()).unwrap_or_else(|| "-".into());
                    println!(
                        "    market: {}{} attempt {} custom id {} cap {} paid {}{}{}",
                        m.state,
                        m.reason.as_deref().map(|r| format!(" ({r})")).unwrap_or_default(),
                        m.attempt,
                        m.custom_id.as_deref().unwrap_or("-"),
                        usd(m.max_price_cents),
                        usd(m.price_paid_cents),
                        m.trade_id.as_deref().map(|t| format!(" trade {t}")).unwrap_or_default(),
                        if m.live { ", purchase live (no take-over by hand)" } else { "" }
                    );
                }
            }
            Ok(0)
        }
        Command::Withdrawals { command: Some(WithdrawalsCommand::Retry { id }) } => {
            delivery::requeue(domain, id).await.map_err(|e| match e {
                webapp_api::domain::DomainError::NotFound => {
                    format!("withdrawal #{id} is not in the manual queue of automatic withdrawals")
                }
                e => e.to_string(),
            })?;
            println!("withdrawal #{id} queued for the market again");
            Ok(0)
        }
        Command::Market { command: MarketCommand::Balance } => {
            let Some((market_config, buying)) = config.market() else {
                return Err("no market: set MARKET_PROVIDER and MARKET_API_KEY".into());
            };
            let market = delivery::connect_market(domain, &market_config).map_err(|e| e.to_string())?;
            let balance = market.balance().await.map_err(|e| format!("the market did not answer: {e}"))?;
            let day = delivery::budget_day(domain.now());
            let spent = delivery::spent_on(domain, &day).await.map_err(|e| e.to_string())?;
            let (settling, value) = delivery::settling(domain).await.map_err(|e| e.to_string())?;
            let shown = match balance.usd() {
                Some(usd) => usd.to_string(),
                None => format!(
                    "{}.{:02} {} (not USD: caps cannot be priced)",
                    balance.hundredths / 100,
                    balance.hundredths % 100,
                    balance.currency
                ),
            };
            println!(
                "market {}{}: balance {shown}",
                market.provider(),
                if buying { "" } else { " (switched off: purchases in flight finish)" }
            );
            let budget = market_config.daily_budget.map(|b| b.to_string()).unwrap_or_else(|| "no limit".into());
            println!("spent today ({day} UTC): {spent} of {budget}");
            println!("settling: {settling} withdrawals, {value} tokens");
            Ok(0)
        }
        Command::Withdrawals { command: Some(WithdrawalsCommand::Sent { id }) } => {
            withdrawals::resolve(domain, id, Resolution::Sent, CLI_OPERATOR).await.map_err(|e| e.to_string())?;
            println!("withdrawal #{id} sent");
            Ok(0)
        }
        Command::Withdrawals { command: Some(WithdrawalsCommand::Error { id, code, reason }) } => {
            let note = reason.map(|words| words.join(" "));
            let code = match (code, &note) {
                (Some(c), _) => c.to_ascii_lowercase(),
                // A note alone (the older form) is code `other`.
                (None, Some(_)) => "other".to_owned(),
                (None, None) => return Err(format!("a reason code is required: one of {}", withdrawals::REASON_CODES.join(", "))),
            };
            withdrawals::resolve(domain, id, Resolution::Failed { code: code.clone(), note }, CLI_OPERATOR)
                .await
                .map_err(|e| e.to_string())?;
            println!("withdrawal #{id} failed ({code}); item available again");
            Ok(0)
        }
        Command::Maintenance { command: MaintenanceCommand::Status } => {
            println!("maintenance {}", if settings::maintenance(domain).await.map_err(|e| e.to_string())? { "on" } else { "off" });
            Ok(0)
        }
        Command::Maintenance { command: switch } => {
            let on = switch == MaintenanceCommand::On;
            settings::set_maintenance_by_admin(domain, CLI_OPERATOR, on).await.map_err(|e| e.to_string())?;
            println!("maintenance {}", if on { "on" } else { "off" });
            Ok(0)
        }
        Command::Backup { file } => {
            let file = file.to_str().ok_or("the backup's file name must be UTF-8")?;
            println!("{}", store::backup::backup(&domain.db, &config.database_url, file).await?);
            Ok(0)
        }
        Command::Catalog { command: CatalogCommand::Reprice { accept } } => reprice(config, domain, accept).await,
        Command::Catalog { command: CatalogCommand::Held } => {
            let held = pricing::held::list(&domain.db).await.map_err(|e| e.to_string())?;
            for h in &held {
                let to = h.to.map_or_else(|| h.quote.to_string(), |t| format!("{} ({})", t, h.quote));
                let cross = h.cross.map(|c| format!(", cross-check {c}")).unwrap_or_default();
                println!(
                    "{:<60} {:>10} -> {:<24} {:<11} from {} since {}{}",
                    h.market_hash_name,
                    h.from.to_string(),
                    to,
                    h.reason.code(),
                    h.source,
                    utc(h.held_at),
                    cross
                );
            }
            println!("{} held price change(s); `fragbox catalog accept <name>` or `--all` applies them (never a `bounds` one)", held.len());
            Ok(0)
        }
        Command::Catalog { command: CatalogCommand::Accept { name, all } } => {
            let which = match (name, all) {
                (_, true) => pricing::held::Which::All,
                (Some(n), false) => pricing::held::Which::One(n),
                (None, false) => return Err("give a name or --all".into()),
            };
            let settings =
                pricing::Settings { tokens_per_usd: config.tokens_per_usd, accept_jumps: true, notify: config.admin_ids.clone() };
            let done = pricing::held::accept(domain, &domain.catalog, which.clone(), &settings).await.map_err(|e| match (e, &which) {
                (webapp_api::domain::DomainError::NotFound, pricing::held::Which::One(n)) => format!("no held price change named {n}"),
                (e, _) => e.to_string(),
            })?;
            for c in &done.applied {
                println!("set  {:<60} {:>10} -> {:>10} (accepted)", c.market_hash_name, c.old.to_string(), c.new.to_string());
            }
            for (h, why) in &done.refused {
                println!("KEPT {:<60} {}", h.market_hash_name, why);
            }
            println!(
                "accept: {} applied, {} still held; servers charge the new prices from their next start",
                done.applied.len(),
                done.refused.len()
            );
            Ok(if done.refused.is_empty() { 0 } else { 1 })
        }
        Command::Catalog { command: CatalogCommand::Off { case, reason } } => {
            let note = reason.map(|w| w.join(" ")).unwrap_or_default();
            let changed = pricing::sale::take_off(domain, &case, &note).await.map_err(|e| match e {
                webapp_api::domain::DomainError::CaseNotFound => format!("case {case} is not in the catalog"),
                e => e.to_string(),
            })?;
            if changed {
                println!("case {case} off sale: opens are refused now; the store lists it no more from each server's next start");
            } else {
                println!("case {case} was off sale already");
            }
            Ok(0)
        }
        Command::Catalog { command: CatalogCommand::On { case } } => {
            let served = pricing::served_catalog(&domain.db, &config.catalog_dir, config.case_rtp, config.tokens_per_usd).await?;
            match pricing::sale::put_on(domain, &served, &case).await {
                Ok(was) => {
                    println!("case {case} on sale again (was off: {}); servers sell it from their next start", was.why());
                    Ok(0)
                }
                Err(e @ (pricing::sale::OnError::NotOff(_) | pricing::sale::OnError::StillUnusable { .. })) => {
                    println!("{e}");
                    Ok(1)
                }
                Err(e) => Err(e.to_string()),
            }
        }
        Command::Promo { command: PromoCommand::Create { code, tokens, uses, days, deposit_only } } => {
            let new = promo::NewPromo { code, tokens, uses, days, deposit_only };
            let p = promo::create(domain, Actor::Cli, new).await.map_err(|e| format!("promo: {e}"))?;
            println!("created {}", p.line(domain.now()));
            Ok(0)
        }
        Command::Promo { command: PromoCommand::List } => {
            let list = promo::list(domain, Actor::Cli).await.map_err(|e| format!("promo: {e}"))?;
            for p in &list {
                println!("{}", p.line(domain.now()));
            }
            println!("{} promo code(s)", list.len());
            Ok(0)
        }
        Command::Promo { command: PromoCommand::Disable { code } } => {
            let p = promo::disable(domain, Actor::Cli, &code).await.map_err(|e| format!("promo {code}: {e}"))?;
            println!("disabled {}", p.line(domain.now()));
            Ok(0)
        }
        Command::Responsible { command: ResponsibleCommand::Lift { user_id, reason } } => {
            let reason = reason.join(" ");
            let lifted = responsible::lift(domain, Actor::Cli, user_id, &reason).await.map_err(|e| format!("user {user_id}: {e}"))?;
            if lifted {
                println!("user {user_id}: self-exclusion lifted ({reason})");
                Ok(0)
            } else {
                println!("user {user_id}: no self-exclusion is running");
                Ok(1)
            }
        }
        Command::Serve | Command::Catalog { .. } | Command::MigrateDb { .. } | Command::Openapi => {
            Err("not a command on the shop's database".into())
        }
    }
}

/// `fragbox audit`: the report, then one verdict line; the exit status is the verdict's.
async fn audit_command(config: &Config, domain: &Domain) -> Result<i32, String> {
    use webapp_api::domain::audit::{MarketPart, Verdict};

    // Through the port, as the worker asks: the same adapter, batching and pace.
    let connected = config.market().map(|(m, _)| delivery::connect_market(domain, &m));
    let port = connected.as_ref().map(|c| c.as_ref().map(|m| &**m).map_err(Clone::clone));
    let report = audit::check(&domain.db, port, domain.config.withdraw_paid_only).await.map_err(|e| e.to_string())?;
    // What left as skins against what was paid: information, whatever the verdict.
    for l in audit::leakage(&domain.db).await.map_err(|e| e.to_string())? {
        let who = if l.user_id == 0 { "total".to_owned() } else { format!("user {}", l.user_id) };
        println!(
            "value {who}: paid {} stars = {} tokens, granted as paid {} tokens; sent {} tokens, pending {} tokens{}",
            l.paid_stars,
            l.bought,
            l.granted_paid,
            l.sent,
            l.pending,
            if l.leaks() { "  LEAK: more left than was paid (information, not a failure)" } else { "" }
        );
    }
    match &report.market {
        MarketPart::NotConfigured => println!("market: none configured and no purchase attempts: nothing to look up"),
        MarketPart::Checked { provider, money } => println!(
            "market {provider}: {} attempt id(s) looked up, {} purchase(s) held; spent {}, refunded {}, net {}; withdrawals delivered, settling or in flight {} at their caps",
            money.attempts,
            money.known,
            money.spent,
            money.refunded,
            money.net(),
            money.covered
        ),
        MarketPart::Unchecked { attempts, why } => {
            println!("MARKET NOT CHECKED: {attempts} purchase attempt id(s) could not be looked up: {why}")
        }
    }
    if !report.paid_only {
        println!("provenance: WITHDRAW_PAID_ONLY is off: skins won with bonus tokens may leave (refunds still checked)");
    }
    let violations = report.violations();
    for v in &violations {
        println!("VIOLATION {v}");
    }
    for p in &report.provenance {
        println!("PROVENANCE {p}");
    }
    let verdict = report.verdict();
    match verdict {
        Verdict::Clean => println!("audit clean"),
        Verdict::Integrity => println!("{} violations", violations.len()),
        Verdict::MarketUnchecked => println!("market not checked: the money out is not proven"),
        Verdict::Provenance => println!("{} provenance finding(s)", report.provenance.len()),
    }
    Ok(verdict.exit_code())
}

/// `fragbox catalog check`: the files at CASE_RTP, with the market prices a reprice stored when
/// DATABASE_URL holds a shop (the prices that shop serves).
/// `fragbox catalog images`: fills the picture cache; exit 1 if a picture could not be fetched.
async fn catalog_images(config: &Config) -> Result<i32, String> {
    let catalog = load_catalog(config)?;
    let pictures = crate::pictures(config, &catalog);
    let report = pictures.fetch_all().await;
    for (name, why) in &report.failed {
        println!("FAILED {name}: {why}");
    }
    println!(
        "catalog images: {} pictures in {}: {} already cached, {} fetched from {}, {} failed",
        report.cached + report.fetched + report.failed.len(),
        pictures.dir().display(),
        report.cached,
        report.fetched,
        config.catalog_assets_url,
        report.failed.len()
    );
    Ok(if report.failed.is_empty() { 0 } else { 1 })
}

async fn catalog_check(config: &Config) -> Result<i32, String> {
    let catalog = match existing_shop(&config.database_url).await {
        Ok(()) => {
            let (pool, _) = crate::open_store(config).await?;
            let served = pricing::served_catalog(&pool, &config.catalog_dir, config.case_rtp, config.tokens_per_usd).await;
            pool.close().await;
            served?
        }
        Err(_) => load_catalog(config)?,
    };
    let (report, in_band) = catalog.check_report();
    print!("{report}");
    let economics = webapp_api::domain::economics::check(&catalog, config.economics());
    for line in economics.lines() {
        println!("{line}");
    }
    if let Some(why) = economics.loss_message() {
        println!("LOSS: {why}");
        println!(
            "{}",
            if config.allow_loss {
                "ALLOW_LOSS=true: `fragbox serve` starts anyway, and says so at every start"
            } else {
                "`fragbox serve` refuses to start with this catalog and these settings (ALLOW_LOSS=true overrides)"
            }
        );
    }
    let first_open = economics.first_open_message();
    if let Some(why) = &first_open {
        println!("REFUSED: {why}");
    }
    let ok = in_band && first_open.is_none();
    println!(
        "{}",
        match (in_band, first_open.is_none()) {
            (true, true) => "catalog ok",
            (false, true) => "catalog has cases outside the 80-95 % band",
            (true, false) => "catalog refused: the smallest package cannot open the cheapest case",
            (false, false) => "catalog has cases outside the 80-95 % band, and the smallest package cannot open the cheapest case",
        }
    );
    Ok(if ok { 0 } else { 1 })
}

/// `fragbox finance --json`: one object, dollars as JSON numbers with 2 decimals.
pub fn books_json(books: &finance::Books) -> String {
    let star_usd = books.settings.star_usd.to_string();
    let flows = |f: &finance::Flows| {
        format!(
            "\"starsReceived\":{},\"starsRefunded\":{},\"starUsd\":{star_usd},\"starsUsd\":{},\"marketSpendUsd\":{},\"marketChargedUsd\":{},\"marketRefundedUsd\":{},\"marketInDoubtUsd\":{},\"deliveredUsd\":{},\"settlingUsd\":{},\"reversedUsd\":{},\"playerReversedUsd\":{},\"marginUsd\":{}",
            f.stars_received,
            f.stars_refunded,
            finance::usd_number(f.stars_usd),
            finance::usd_number(f.market_spend()),
            finance::usd_number(f.market_charged),
            finance::usd_number(f.market_refunded),
            finance::usd_number(f.market_in_doubt),
            finance::usd_number(f.delivered),
            finance::usd_number(f.settling),
            finance::usd_number(f.reversed),
            finance::usd_number(f.player_reversed),
            finance::usd_number(f.margin()),
        )
    };
    let days: Vec<String> =
        books.days.iter().map(|d| format!("{{\"date\":\"{}\",{}}}", d.date.format("%Y-%m-%d"), flows(&d.flows))).collect();
    let t = &books.total;
    format!(
        "{{\"days\":[{}],\"total\":{{\"from\":\"{}\",\"to\":\"{}\",{},\"liabilityUsd\":{},\"liabilityTokens\":{},\"liabilitySkinTokens\":{},\"settlingNowUsd\":{},\"tokensPerUsd\":{},\"paidOnly\":{}}}}}",
        days.join(","),
        t.from.format("%Y-%m-%d"),
        t.to.format("%Y-%m-%d"),
        flows(&t.flows),
        finance::usd_number(t.liability),
        t.liability_tokens,
        t.liability_skins,
        finance::usd_number(t.settling_now),
        books.settings.tokens_per_usd,
        books.settings.paid_only,
    )
}

/// `fragbox finance`: a line per day, then the total.
pub fn books_text(books: &finance::Books) -> String {
    let usd = |u: Usd| u.to_string();
    let line = |label: &str, f: &finance::Flows| {
        format!(
            "{label:<10}  stars +{} -{} = {:>10}  market {:>10} (charged {}, refunded {}{})  margin {:>10}  delivered {}, settling {}, reversed {}{}\n",
            f.stars_received,
            f.stars_refunded,
            usd(f.stars_usd),
            usd(f.market_spend()),
            usd(f.market_charged),
            usd(f.market_refunded),
            if f.market_in_doubt.cents() > 0 { format!(", in doubt {}", usd(f.market_in_doubt)) } else { String::new() },
            usd(f.margin()),
            usd(f.delivered),
            usd(f.settling),
            usd(f.reversed),
            if f.player_reversed.cents() > 0 { format!(", reversed by players {}", usd(f.player_reversed)) } else { String::new() },
        )
    };
    let mut out = format!(
        "books (UTC days), STAR_USD {} per Star, TOKENS_PER_USD {}{}\n",
        books.settings.star_usd,
        books.settings.tokens_per_usd,
        if books.settings.paid_only { "" } else { ", every token withdraws (WITHDRAW_PAID_ONLY=false)" }
    );
    for d in &books.days {
        out.push_str(&line(&d.date.format("%Y-%m-%d").to_string(), &d.flows));
    }
    let t = &books.total;
    out.push_str(&line("total", &t.flows));
    out.push_str(&format!(
        "liability now: {} ({} withdrawable tokens held + {} in withdrawable skins); settling now {}\n",
        usd(t.liability),
        t.liability_tokens,
        t.liability_skins,
        usd(t.settling_now)
    ));
    out
}

/// A unix time as `2026-01-02 03:04 UTC`.
fn utc(at: i64) -> String {
    chrono::DateTime::from_timestamp(at, 0).map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string()).unwrap_or_else(|| at.to_string())
}

/// `fragbox catalog reprice [--accept]`: one request to each feed, the prices written (or
/// nothing, on a bad answer), then the case prices the shop will serve. The admins are told
/// what the run held and applied over 25 % (the bot's outbox delivers it).
async fn reprice(config: &Config, domain: &Domain, accept: bool) -> Result<i32, String> {
    let feeds = crate::price_feeds(config, domain)?;
    let settings = pricing::Settings { tokens_per_usd: config.tokens_per_usd, accept_jumps: accept, notify: config.admin_ids.clone() };
    let outcome = pricing::reprice(domain, &domain.catalog, &feeds, &settings).await.map_err(|e| format!("reprice: {e}"))?;
    match &outcome.cross_check {
        pricing::CrossCheck::Off => println!("prices from {}", outcome.source),
        pricing::CrossCheck::Checked { source } => println!("prices from {}, cross-checked by {source}", outcome.source),
        pricing::CrossCheck::Failed { source, why } => {
            println!("prices from {}; the cross-check {source} FAILED ({why}): the rules alone checked them", outcome.source)
        }
    }
    for c in &outcome.applied {
        println!("set  {:<60} {:>10} -> {:>10}", c.market_hash_name, c.old.to_string(), c.new.to_string());
    }
    for h in &outcome.held {
        println!("HELD {} [{}]", pricing::held_line(h), h.reason.code());
    }
    const SHOWN: usize = 20;
    for name in outcome.missing.iter().take(SHOWN) {
        println!("kept {name} (the feed has no price for it)");
    }
    if outcome.missing.len() > SHOWN {
        println!("kept {} more without a market price", outcome.missing.len() - SHOWN);
    }
    let catalog = pricing::served_catalog(&domain.db, &config.catalog_dir, config.case_rtp, config.tokens_per_usd).await?;
    for c in &catalog.cases {
        let off = c.off_sale.as_ref().map(|why| format!("  OFF SALE ({why})")).unwrap_or_default();
        match catalog.rtp_bp(c) {
            Some(rtp) => println!("case {:<24} price {:>10}  RTP {}.{:02} %{off}", c.id, c.price.to_string(), rtp / 100, rtp % 100),
            None => println!("case {:<24} price does not compute{off}", c.id),
        }
    }
    println!(
        "reprice: {} set, {} unchanged, {} held, {} kept without a market price; servers charge the new prices from their next start",
        outcome.applied.len(),
        outcome.unchanged,
        outcome.held.len(),
        outcome.missing.len()
    );
    if !outcome.held.is_empty() {
        println!(
            "{} change(s) held: review them with `fragbox catalog held`, then `fragbox catalog accept <name>` or `--all` (no new request; `reprice --accept` asks the feed again)",
            outcome.held.len()
        );
    }
    if outcome.notice.is_some() {
        println!("the admins are told ({} chat(s))", config.admin_ids.len());
    }
    // What the new prices do to the packages: the next start checks the same.
    let economics = webapp_api::domain::economics::check(&catalog, config.economics());
    for line in economics.lines() {
        println!("{line}");
    }
    if let Some(why) = economics.first_open_message() {
        println!("NEXT START REFUSED: {why}");
    }
    if let Some(why) = economics.loss_message() {
        let verdict = if config.allow_loss { "LOSS (ALLOW_LOSS=true: the next start serves anyway)" } else { "NEXT START REFUSED" };
        println!("{verdict}: {why}");
    }
    Ok(if catalog.check_report().1 { 0 } else { 1 })
}

/// Refuses a DATABASE_URL that holds no shop, and creates nothing while looking
/// (`store::existing_shop`).
pub async fn existing_shop(database_url: &str) -> Result<(), String> {
    store::existing_shop(database_url, &config::redact_password(database_url)).await
}

/// `fragbox migrate-db --from sqlite://… --to postgres://…`: copies the shop into an empty
/// PostgreSQL database and verifies the copy. Exit code 0 only when everything matches.
async fn migrate_db(from: &str, to: &str) -> Result<i32, String> {
    let (source, target) = moving::open_pair(from, to).await.map_err(|e| e.to_string())?;
    println!("copying {} -> {}", from, config::redact_password(to));
    let report = moving::copy(&source, &target).await.map_err(|e| e.to_string())?;
    for (table, s, t) in &report.copy.tables {
        println!("{:<4} {table}: {s} -> {t}", if s == t { "ok" } else { "DIFF" });
    }
    for (what, s, t) in &report.copy.totals {
        println!("{:<4} {what}: {s} -> {t}", if s == t { "ok" } else { "DIFF" });
    }
    for (side, problems) in [("source", &report.source_audit), ("target", &report.target_audit)] {
        if problems.is_empty() {
            println!("ok   audit of the {side}: clean");
        }
        for p in problems.iter() {
            println!("VIOLATION in the {side}: {p}");
        }
    }
    source.close().await;
    target.close().await;
    if report.verified() {
        println!("migrate-db: copied and verified; point DATABASE_URL at the PostgreSQL database");
        Ok(0)
    } else {
        println!("migrate-db: the copy does not match (was the shop still writing? stop it and copy into a fresh database)");
        Ok(2)
    }
}

fn load_catalog(config: &Config) -> Result<webapp_api::domain::catalog::Catalog, String> {
    webapp_api::domain::catalog::Catalog::load_with_rtp(&config.catalog_dir, config.case_rtp)
        .map(|c| c.with_served_pictures())
        .map_err(|e| format!("catalog: {e}"))
}

/// `fragbox grant`: the same rule the bot's `/grant` uses, run as the CLI operator.
pub async fn grant(domain: &Domain, user_id: i64, amount: Tokens, reason: &str, paid: bool) -> Result<Tokens, String> {
    admin::grant(domain, Actor::Cli, user_id, amount, reason, paid, None).await.map_err(|e| format!("user {user_id}: {e}"))
}
