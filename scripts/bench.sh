#!/usr/bin/env bash
# The load benchmark of docs/performance.md: builds release binaries, then runs fragbox-bench,
# which starts the real fragbox on a fresh database, drives it, compares it with the raw-SQLite
# baseline, prints peak RSS and runs `fragbox audit`. Not part of the test command.
# Usage: scripts/bench.sh [--duration SECS] [--conns N] [--users N]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p fragbox --bins
exec target/release/fragbox-bench "$@"
