#!/usr/bin/env bash
# Installs PostgreSQL from the Debian packages when its server binaries are missing. The tests create their own
# clusters (initdb) in temporary directories and start postgres on 127.0.0.1 and free ports, as the unprivileged
# postgres user when they run as root; this script only makes the binaries available.
set -euo pipefail

have_binaries() {
  local bin
  for bin in /usr/lib/postgresql/*/bin; do
    if [ -x "$bin/initdb" ] && [ -x "$bin/postgres" ]; then return 0; fi
  done
  command -v initdb >/dev/null 2>&1 && command -v postgres >/dev/null 2>&1
}

if have_binaries; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-postgres: PostgreSQL (initdb, postgres) is missing; install it (e.g. 'sudo apt-get install postgresql')." >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
have_binaries
