#!/usr/bin/env bash
# Starts `./autocomplete serve` as a newcomer would (on free ports), takes the URLs and demo key it prints,
# checks one real suggestion over HTTP, health on the management port only, the bare readiness answer, and that a
# rebuild of the JAR while it runs leaves the running server whole.
# Stops the server whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."

out="$(mktemp)"
./autocomplete serve --port 0 --management-port 0 >"$out" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$out"' EXIT

for _ in $(seq 1 120); do
  grep -q '^Try it:' "$out" && break
  kill -0 "$pid" 2>/dev/null || { cat "$out"; echo "smoke: server exited early"; exit 1; }
  sleep 0.5
done
url="$(sed -n 's/^Serving .* on \(http:[^ ]*\)$/\1/p' "$out")"
key="$(sed -n 's/^  travel: \(pk_v1_[0-9A-Za-z]*\)$/\1/p' "$out")"
management="$(sed -n 's/^Management .*: \(http:[^ ]*\)\/observe\/health and .*$/\1/p' "$out")"
[ -n "$url" ] && [ -n "$key" ] && [ -n "$management" ] || { cat "$out"; echo "smoke: no URLs or demo key printed"; exit 1; }

body='{"data":{"raw_query":"Book a flight from {{ORIGIN_1}} to lon","completed_params":[{"placeholder":"{{ORIGIN_1}}","type":"origin","text":"Paris"}]},"meta":{"request_id":"0b1e4c9a-7d2f-4e8b-9c3a-5f6d7e8a9b0c","request_at":"2026-11-22T10:00:00Z"}}'
reply="$(curl -sS -w '\n%{http_code}' "$url/api/suggest" -H "Authorization: Bearer $key" \
  -H 'Content-Type: application/json' -d "$body")"
status="$(tail -n1 <<<"$reply")"
json="$(head -n -1 <<<"$reply")"
if [ "$status" != 200 ] || ! grep -q '"text":"London"' <<<"$json"; then
  echo "smoke: unexpected reply ($status): $json"; exit 1
fi
code() { curl -s -o /dev/null -w '%{http_code}' "$1"; }
if [ "$(code "$management/observe/health")" != 200 ] || [ "$(code "$url/observe/health")" != 404 ]; then
  echo "smoke: health must answer on $management only"; exit 1
fi
if [ "$(curl -sS "$url/ready")" != '{"status":"UP"}' ]; then
  echo "smoke: $url/ready is not the bare readiness answer"; exit 1
fi
if grep -q "$key" "$out" && [ -f tenants/demo/keys.yaml ] && grep -q "$key" tenants/demo/keys.yaml; then
  echo "smoke: the demo key was written to disk"; exit 1
fi
# A rebuild while the server runs (./autocomplete test or package in another terminal) replaces the JAR by a new
# file: the running server keeps the one it opened, and classes it loads later still load (a field of the wrong type
# reads through a Jackson class no earlier request needed). Rewriting the JAR in place made that request a 500.
touch web/src/console.css
./autocomplete package >/dev/null
if ! ls -l "/proc/$pid/fd" | grep -q 'autocomplete.jar (deleted)$'; then
  echo "smoke: the rebuild wrote into the JAR the running server reads"; exit 1
fi
typed="$(curl -sS -w ' %{http_code}' "$url/api/suggest" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
  -d '{"data":{"raw_query":1.5},"meta":{"request_id":"0b1e4c9a-7d2f-4e8b-9c3a-5f6d7e8a9b0d","request_at":"2026-11-22T10:00:00Z"}}')"
if [[ "$typed" != *'"code":"INVALID_REQUEST"'*' 400' ]] || [ "$(curl -sS "$url/ready")" != '{"status":"UP"}' ]; then
  echo "smoke: after a rebuild the running server answered: $typed"; exit 1
fi
echo "smoke: 4 passed, 0 failed"
