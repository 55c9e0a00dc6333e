#!/usr/bin/env bash
# Installs redis-server from the Debian packages when it is missing. The tests start their own
# redis-server processes on 127.0.0.1 and free ports; this script only makes the binary available.
set -euo pipefail

if command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-redis: redis-server is missing; install it (e.g. 'sudo apt-get install redis-server')." >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
command -v redis-server >/dev/null
