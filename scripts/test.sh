#!/usr/bin/env bash
# Runs every test: Rust unit and integration tests (real SQLite, real router over HTTP, real
# teloxide dispatcher against a fake Bot API), the integration suite again on PostgreSQL, the
# mini app's unit tests, bundle budget and generated API types, the API contract check (Schemathesis against the real
# binary in demo mode, scripts/contract.sh), and the browser journeys in Debian's chromium
# against the real binary in demo mode.
#
# PostgreSQL: a throwaway cluster (Debian's `postgresql`, installed when missing) in a temp dir on
# a free port, removed afterwards; FRAGBOX_TEST_POSTGRES_URL=postgres://user@host:port/db points
# the suite at an existing server instead (the user must be allowed to CREATE DATABASE: each
# test gets its own). SKIP_POSTGRES=1 skips that pass.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
need_node

echo "== Rust import circles"
python3 scripts/check-imports.py --self-test
python3 scripts/check-imports.py

echo "== cargo test (SQLite)"
env -u FRAGBOX_TEST_POSTGRES_URL cargo test --workspace --locked

if [ "${SKIP_POSTGRES:-0}" != 1 ]; then
  echo "== integration suite on PostgreSQL"
  started=0
  if [ -z "${FRAGBOX_TEST_POSTGRES_URL:-}" ]; then
    PG_EXTRA_OPTS="-c fsync=off -c full_page_writes=off" start_postgres
    trap stop_postgres EXIT
    export FRAGBOX_TEST_POSTGRES_URL="$PG_URL"
    started=1
  fi
  cargo test --locked -p fragbox --test it
  unset FRAGBOX_TEST_POSTGRES_URL
  if [ "$started" = 1 ]; then
    stop_postgres
    trap - EXIT
  fi
fi

echo "== API contract (Schemathesis against the OpenAPI document, demo mode)"
scripts/contract.sh

echo "== fragbox catalog check"
./target/debug/fragbox catalog check >/dev/null

echo "== mini app: install, API types against the OpenAPI document, unit tests, build (with bundle budget)"
# api:types --check regenerates src/lib/api-types.gen.ts from `fragbox openapi` into a temp file
# and fails, naming the command that fixes it, when the committed file differs.
(cd webapp && npm ci --no-audit --no-fund --loglevel=error \
  && FRAGBOX_BIN="$PWD/../target/debug/fragbox" npm run api:types -- --check \
  && npm run lint && npm test && npm run build)

echo "== browser journeys"
need_chromium
(cd webapp && FRAGBOX_BIN="$PWD/../target/debug/fragbox" npm run e2e)
