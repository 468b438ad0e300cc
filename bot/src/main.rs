//! `fragbox`: serve (default) or run an operator command.
use fragbox::cli::{Cli, Command};
use fragbox::config::LogFormat;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() {
    // Before clap reads the environment: `.env` fills what the environment leaves unset.
    let _ = dotenvy::dotenv();
    let cli = Cli::from_process();
    let config = match cli.config.finish() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("configuration error: {e}");
            std::process::exit(2);
        }
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,hyper=warn"));
    if config.log_format == LogFormat::Json {
        tracing_subscriber::fmt().json().with_env_filter(filter).with_writer(std::io::stderr).init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
    }
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => std::process::exit(serve(config).await),
        command => match fragbox::cli::run(&config, command).await {
            Ok(code) => std::process::exit(code),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        },
    }
}

async fn serve(config: fragbox::Config) -> i32 {
    let running = match fragbox::start(config).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("start-up failed: {e}");
            return e.exit_code;
        }
    };
    println!("FragBox is running at http://{}", running.addr);
    shutdown_signal().await;
    tracing::info!("shutting down");
    running.shutdown().await;
    0
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
