#!/usr/bin/env bash
# The compatibility suite: the official vanilla client in Debian's headless Chromium (driven by
# playwright-core from npm) against a real `./autocomplete serve`. Installs what it needs: Chromium from
# apt, node/npm from apt if the machine has none, the npm packages pinned by web/package-lock.json.
# Screenshots of each final state land in web/test-output/.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
bash web/build.sh >/dev/null

report="$(mktemp)"
trap 'rm -f "$report"' EXIT
status=0
(cd web && node --test --test-concurrency=1 --test-reporter=tap test/*.test.mjs) | tee "$report" || status=$?
count() { sed -n "s/^# $1 \([0-9]*\)$/\1/p" "$report" | tail -n1; }
echo "browser: $(count pass) passed, $(count fail) failed, $(count skipped) skipped"
exit "$status"
