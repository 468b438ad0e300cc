#!/usr/bin/env bash
# Runs the whole app from a fresh clone on the embedded defaults (demo mode unless
# TELEGRAM_BOT_TOKEN is set): builds the mini app, builds the server, starts it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_node
(cd webapp && npm ci --no-audit --no-fund --loglevel=error && npm run build)
cargo build --release --locked -p fragbox
exec ./target/release/fragbox serve
