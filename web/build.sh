#!/usr/bin/env bash
# Installs the pinned npm packages (npm ci, only when package-lock.json changed since the last install)
# and bundles the demo page into the directory given (default web/dist). Called by the Maven build of
# server/ and by .ci/run; needs node and npm, nothing else.
set -euo pipefail
out="$(realpath -m "${1:-$(dirname "${BASH_SOURCE[0]}")/dist}")"
cd "$(dirname "${BASH_SOURCE[0]}")"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "web/build.sh: node and npm are needed to build the demo page (e.g. 'apt-get install nodejs npm')." >&2
  exit 1
fi
if ! cmp -s package-lock.json node_modules/.installed-lock.json 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.installed-lock.json
fi
node build.mjs "$out"
