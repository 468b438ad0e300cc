#!/usr/bin/env bash
# Runs every test: Rust unit and integration tests (real SQLite, real router over HTTP, real
# teloxide dispatcher against a fake Bot API), the mini app's unit tests and bundle budget,
# the API contract check (Schemathesis against the real binary in demo mode, scripts/contract.sh),
# and the browser journeys in Debian's chromium against the real binary in demo mode.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_node

echo "== cargo test"
cargo test --workspace --locked

echo "== API contract (Schemathesis against the OpenAPI document, demo mode)"
scripts/contract.sh

echo "== fragbox catalog check"
./target/debug/fragbox catalog check >/dev/null

echo "== mini app: install, unit tests, build (with bundle budget)"
(cd webapp && npm ci --no-audit --no-fund --loglevel=error && npm test && npm run build)

echo "== browser journeys"
need_chromium
(cd webapp && FRAGBOX_BIN="$PWD/../target/debug/fragbox" npm run e2e)
