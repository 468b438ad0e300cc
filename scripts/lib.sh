# Shared helpers for the project's scripts.

need_node() {
  if ! command -v node >/dev/null 2>&1; then
    echo "Node.js >= 20.19 with npm 11 is required (https://nodejs.org)" >&2
    exit 1
  fi
  local v
  v=$(node -p 'process.versions.node')
  if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)'; then
    echo "Node.js $v is too old: the mini app build needs >= 20.19" >&2
    exit 1
  fi
}

# Debian's chromium for the browser tests (a Playwright browser download does not work here).
need_chromium() {
  if [ -x /usr/bin/chromium ]; then
    return
  fi
  echo "installing Debian's chromium for the browser tests" >&2
  local sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
}

# A throwaway PostgreSQL cluster in a temp dir on a free port, for the tests and the benchmark.
# Sets PG_URL (a superuser URL to the `postgres` database) and PG_DIR; `stop_postgres` removes it.
# The server refuses to run as root: as root the cluster belongs to the `postgres` user.
start_postgres() {
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "installing Debian's postgresql" >&2
    local sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  fi
  PG_BIN="$bin"
  PG_DIR=$(mktemp -d /tmp/fragbox-pg.XXXXXX)
  chmod 755 "$PG_DIR"
  local as=()
  if [ "$(id -u)" = 0 ]; then
    chown postgres:postgres "$PG_DIR"
    as=(runuser -u postgres --)
  fi
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "${as[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U postgres --no-sync >"$PG_DIR/initdb.log" 2>&1 ||
    { cat "$PG_DIR/initdb.log" >&2; return 1; }
  # ${PG_EXTRA_OPTS:-}: e.g. "-c fsync=off" for the tests (a throwaway cluster needs no durability).
  "${as[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
    -o "-p $port -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=400 ${PG_EXTRA_OPTS:-}" start >/dev/null ||
    { cat "$PG_DIR/server.log" >&2; return 1; }
  PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
  PG_AS=("${as[@]}")
  echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on port $port ($PG_DIR)" >&2
}

stop_postgres() {
  if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR" ]; then
    "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
    PG_DIR=""
  fi
}
