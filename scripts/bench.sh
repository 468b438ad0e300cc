#!/usr/bin/env bash
# The load benchmark of docs/performance.md and docs/scaling.md: builds release binaries, then
# runs fragbox-bench, which measures the raw bound of the store, starts the real fragbox (as N
# replicas on PostgreSQL), drives it, prints rates, p99s, peak RSS and runs `fragbox audit`.
# Not part of the test command.
#
# Usage: scripts/bench.sh [--store sqlite|postgres] [--replicas N] [--postgres-url URL]
#                         [--pool N] [--duration SECS] [--conns N] [--users N]
#        scripts/bench.sh --feed N [--opens M] [--every MS]   (the live feed: N open SSE connections, each
#                         drop's delivery latency to all of them, and the server's peak RSS)
# --store postgres without --postgres-url (or FRAGBOX_BENCH_POSTGRES_URL) starts a throwaway
# PostgreSQL cluster (default settings: fsync and synchronous_commit on) and removes it after.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

store=sqlite
has_url=0
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[$i]}" in
    --store) store="${args[$((i + 1))]:-}" ;;
    --postgres-url) has_url=1 ;;
  esac
done

cargo build --release -p fragbox -p fragbox-bench

if [[ "$store" == postgres* ]] && [ "$has_url" = 0 ] && [ -z "${FRAGBOX_BENCH_POSTGRES_URL:-}" ]; then
  start_postgres
  trap stop_postgres EXIT
  export FRAGBOX_BENCH_POSTGRES_URL="$PG_URL"
fi
target/release/fragbox-bench "$@"
