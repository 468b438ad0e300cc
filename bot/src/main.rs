//! `fragbox`: serve (default) or run an operator command.
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() {
    let _ = dotenvy::dotenv();
    let config = match fragbox::Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("configuration error: {e}");
            std::process::exit(2);
        }
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,hyper=warn"));
    if config.log_format_json {
        tracing_subscriber::fmt().json().with_env_filter(filter).with_writer(std::io::stderr).init();
    } else {
        tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() || args[0] == "serve" {
        std::process::exit(serve(config).await);
    }
    if args[0] == "help" || args[0] == "--help" || args[0] == "-h" {
        println!("{}", fragbox::cli::USAGE);
        return;
    }
    match fragbox::cli::run(&config, &args).await {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}

async fn serve(config: fragbox::Config) -> i32 {
    let running = match fragbox::start(config).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("start-up failed: {e}");
            return 1;
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
