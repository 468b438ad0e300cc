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
