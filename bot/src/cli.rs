//! Operator commands of the `fragbox` binary. Safe while the server runs: each is one short
//! write transaction on the same database.
use webapp_api::domain::admin::{self, Actor};
use webapp_api::domain::store;
use webapp_api::domain::store::transfer;
use webapp_api::domain::withdrawals::{self, Resolution};
use webapp_api::domain::{audit, settings, Domain, Tokens};

use crate::config::Config;

pub const USAGE: &str = "usage: fragbox [serve]
       fragbox grant <telegram_id> <tokens> --reason <text>
       fragbox audit
       fragbox catalog check
       fragbox withdrawals list | sent <id> | error <id> [<code>] [--reason <note>]
         codes: trade_url_invalid, inventory_private, trade_restricted, item_unavailable, steam_unavailable, other
         (a note alone means code other)
       fragbox maintenance on|off|status
       fragbox backup <file>
       fragbox migrate-db --from sqlite://<file> --to postgres://<user>@<host>/<db>";

/// The operator id recorded in the admin audit log for CLI actions.
const CLI_OPERATOR: i64 = 0;

fn flag(args: &[String], name: &str) -> Option<String> {
    let i = args.iter().position(|a| a == name)?;
    let rest: Vec<&str> = args[i + 1..].iter().map(String::as_str).collect();
    (!rest.is_empty()).then(|| rest.join(" "))
}

/// Runs one operator command; answers the process exit code.
pub async fn run(config: &Config, args: &[String]) -> Result<i32, String> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    if words.first() == Some(&"catalog") {
        if words.get(1) != Some(&"check") {
            return Err(USAGE.into());
        }
        let catalog = webapp_api::domain::catalog::Catalog::load(&config.catalog_dir).map_err(|e| format!("catalog: {e}"))?;
        let (report, ok) = catalog.check_report();
        print!("{report}");
        println!("{}", if ok { "catalog ok" } else { "catalog has cases outside the 80-92 % band" });
        return Ok(if ok { 0 } else { 1 });
    }
    if words.first() == Some(&"migrate-db") {
        return migrate_db(args).await;
    }
    let domain = crate::build_domain(
        config,
        crate::open_store(config).await?.0,
        load_catalog(config)?,
        None,
        config.bot_username.clone(),
        std::sync::Arc::new(webapp_api::domain::clock::SystemClock),
    );
    match words.as_slice() {
        ["grant", id, amount, ..] => {
            let id: i64 = id.parse().map_err(|_| format!("not a Telegram id: {id}"))?;
            let amount =
                Tokens::parse(amount).filter(|a| a.0 != 0).ok_or_else(|| format!("not an amount with at most 2 decimals: {amount}"))?;
            let reason = flag(args, "--reason").ok_or("--reason <text> is required")?;
            let balance = grant(&domain, id, amount, &reason).await?;
            println!("user {id}: {amount:+} tokens ({reason}); balance {balance}", amount = amount.to_string());
            Ok(0)
        }
        ["audit"] => {
            let problems = audit::run(&domain.db).await.map_err(|e| e.to_string())?;
            if problems.is_empty() {
                println!("audit clean");
                Ok(0)
            } else {
                for p in &problems {
                    println!("VIOLATION {p}");
                }
                println!("{} violations", problems.len());
                Ok(2)
            }
        }
        ["withdrawals", "list"] | ["withdrawals"] => {
            for w in withdrawals::pending(&domain).await.map_err(|e| e.to_string())? {
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
            }
            Ok(0)
        }
        ["withdrawals", "sent", id] => {
            let id: i64 = id.parse().map_err(|_| format!("not a withdrawal id: {id}"))?;
            withdrawals::resolve(&domain, id, Resolution::Sent, CLI_OPERATOR).await.map_err(|e| e.to_string())?;
            println!("withdrawal #{id} sent");
            Ok(0)
        }
        ["withdrawals", "error", id, rest @ ..] => {
            let id: i64 = id.parse().map_err(|_| format!("not a withdrawal id: {id}"))?;
            let note = flag(args, "--reason");
            let code = match rest.first() {
                Some(c) if !c.starts_with("--") => {
                    let c = c.to_ascii_lowercase();
                    if !withdrawals::REASON_CODES.contains(&c.as_str()) {
                        return Err(format!("unknown reason code {c}; one of {}", withdrawals::REASON_CODES.join(", ")));
                    }
                    c
                }
                // A note alone (the older form) is code `other`.
                _ if note.is_some() => "other".to_owned(),
                _ => return Err(format!("a reason code is required: one of {}", withdrawals::REASON_CODES.join(", "))),
            };
            withdrawals::resolve(&domain, id, Resolution::Failed { code: code.clone(), note }, CLI_OPERATOR)
                .await
                .map_err(|e| e.to_string())?;
            println!("withdrawal #{id} failed ({code}); item available again");
            Ok(0)
        }
        ["maintenance", "on"] | ["maintenance", "off"] => {
            let on = words[1] == "on";
            settings::set_maintenance_by_admin(&domain, CLI_OPERATOR, on).await.map_err(|e| e.to_string())?;
            println!("maintenance {}", words[1]);
            Ok(0)
        }
        ["maintenance", "status"] => {
            println!("maintenance {}", if settings::maintenance(&domain).await.map_err(|e| e.to_string())? { "on" } else { "off" });
            Ok(0)
        }
        ["backup", file] => {
            println!("{}", store::backup::backup(&domain.db, &config.database_url, file).await?);
            Ok(0)
        }
        _ => Err(USAGE.into()),
    }
}

/// `fragbox migrate-db --from sqlite://… --to postgres://…`: copies the shop into an empty
/// PostgreSQL database and verifies the copy. Exit code 0 only when everything matches.
async fn migrate_db(args: &[String]) -> Result<i32, String> {
    let from = flag_value(args, "--from").ok_or("--from sqlite://<file> is required")?;
    let to = flag_value(args, "--to").ok_or("--to postgres://… is required")?;
    let (source, target) = transfer::open_pair(&from, &to).await.map_err(|e| e.to_string())?;
    println!("copying {} -> {}", from, crate::config::redact_password(&to));
    let report = transfer::copy_sqlite_to_postgres(&source, &target).await.map_err(|e| e.to_string())?;
    for (table, s, t) in &report.tables {
        println!("{:<4} {table}: {s} -> {t}", if s == t { "ok" } else { "DIFF" });
    }
    for (what, s, t) in &report.totals {
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

/// The word after `name` (`--from X`).
fn flag_value(args: &[String], name: &str) -> Option<String> {
    let i = args.iter().position(|a| a == name)?;
    args.get(i + 1).filter(|v| !v.starts_with("--")).cloned()
}

fn load_catalog(config: &Config) -> Result<webapp_api::domain::catalog::Catalog, String> {
    webapp_api::domain::catalog::Catalog::load(&config.catalog_dir).map_err(|e| format!("catalog: {e}"))
}

/// `fragbox grant`: the same rule the bot's `/grant` uses, run as the CLI operator.
pub async fn grant(domain: &Domain, user_id: i64, amount: Tokens, reason: &str) -> Result<Tokens, String> {
    admin::grant(domain, Actor::Cli, user_id, amount, reason).await.map_err(|e| format!("user {user_id}: {e}"))
}
