#!/usr/bin/env bash
# Checks deploy/haproxy.cfg for real on loopback: two groups of replicas (group_a: two servers over tenant
# `alpha`, group_b: one server over tenant `beta`, one shared token secret), HAProxy routing each request by
# its credential's tenant. Every request below is sent to HAProxy only; a request routed to the wrong group
# would be 401 there. Then picks reported through HAProxy must reach the replica that offered their options.
# See docs/scaling.md. Needs haproxy 2.6+ (Debian: apt-get install haproxy); CI runs it (.ci/run).
#
#   deploy/check-haproxy.sh
#
# Builds server/target/autocomplete.jar (package, not install) unless JAR names one.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JAVA_HOME="$(bash -c 'source <(sed -n "/^java_major()/,/^}/p;/^find_jdk()/,/^}/p" "$0"); find_jdk' "$ROOT/autocomplete")"
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
command -v haproxy >/dev/null || { echo "haproxy is not installed (apt-get install haproxy)" >&2; exit 2; }
if [ -z "${JAR:-}" ]; then
  (cd "$ROOT" && mvn -B -q package -DskipTests -pl server -am >&2)
  JAR="$ROOT/server/target/autocomplete.jar"
fi

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

tenant() { # id product-uuid
  mkdir -p "$WORK/$1/tenants/$1"
  cat >"$WORK/$1/tenants/$1/tenant.yaml" <<EOF
display_name: $1
products:
  - id: $2
    slug: travel
    prompt: Book a flight from
    intents:
      - name: book_flight
        phrases: [Book a flight from]
        params:
          - {type: origin, label: From, required: true, cues: [from], options: [Paris, London, Lisbon]}
EOF
}
tenant alpha 11111111-1111-4111-8111-111111111111
tenant beta 22222222-2222-4222-8222-222222222222
key() { java -jar "$JAR" keys create --tenants "$WORK/$1/tenants" --tenant "$1" "${@:2}" | tail -1; }
ALPHA_PK="$(key alpha --type public --product travel)"
BETA_PK="$(key beta --type public --product travel)"
BETA_SK="$(key beta --type secret)"

# The maps: key ids (as in keys.yaml, without "key_") and tenants to groups.
for t in alpha beta; do
  group=$([ "$t" = alpha ] && echo group_a || echo group_b)
  sed -n 's/^- id: key_\(.*\)$/\1 '"$group"'/p' "$WORK/$t/tenants/$t/keys.yaml"
done >"$WORK/key-groups.map"
printf 'alpha group_a\nbeta group_b\n' >"$WORK/tenant-groups.map"

SECRET="$(head -c 48 /dev/urandom | base64)"
serve() { # tenant port name management-port
  AUTOCOMPLETE_TOKEN_SECRET="$SECRET" java -Xmx256m -jar "$JAR" serve --tenants "$WORK/$1/tenants" \
    --data-dir "$WORK/data-$3" --port "$2" --management-port "$4" >"$WORK/$3.log" 2>&1 &
  PIDS+=($!)
}
serve alpha 18080 a1 18085
serve alpha 18090 a2 18095
serve beta 18180 b1 0
sed "s#/etc/haproxy/#$WORK/#g" "$ROOT/deploy/haproxy.cfg" >"$WORK/haproxy.cfg"
haproxy -f "$WORK/haproxy.cfg" >"$WORK/haproxy.log" 2>&1 &
PIDS+=($!)
HAPROXY=$!
for port in 18080 18090 18180; do
  for _ in $(seq 1 240); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/ready")" = 200 ] && break
    sleep 0.5
  done
done
sleep 3 # HAProxy's health checks mark the servers up (rise 2, every second)
kill -0 "$HAPROXY" 2>/dev/null || { cat "$WORK/haproxy.log" >&2; echo "haproxy did not start" >&2; exit 1; }

FAILED=0
body='{"data":{"raw_query":""},"meta":{"request_id":"3f0c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61","request_at":"2026-01-01T00:00:00Z"}}'
expect() { # name status curl-args...
  local got
  got="$(curl -s -o /dev/null -w '%{http_code}' "${@:3}" || true)"
  if [ "$got" = "$2" ]; then echo "ok   $1: $got"; else echo "FAIL $1: $got, expected $2"; FAILED=1; fi
}
suggest=(-X POST http://127.0.0.1:8443/api/suggest -H 'Content-Type: application/json' -d "$body")
expect "alpha's public key (Bearer) reaches group_a" 200 "${suggest[@]}" -H "Authorization: Bearer $ALPHA_PK"
expect "beta's public key (Bearer) reaches group_b" 200 "${suggest[@]}" -H "Authorization: Bearer $BETA_PK"
expect "beta's public key (Basic, with ':') reaches group_b" 200 "${suggest[@]}" \
  -H "Authorization: Basic $(printf '%s:' "$BETA_PK" | base64 -w0)"
expect "beta's secret key reaches group_b" 200 "${suggest[@]}" -H "Authorization: Bearer $BETA_SK"
TOKEN="$(curl -s -X POST http://127.0.0.1:8443/api/auth/token -H "Authorization: Bearer $BETA_SK" \
  -H 'Content-Type: application/json' -d '{"product_id":"22222222-2222-4222-8222-222222222222"}' \
  | sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')"
[ -n "$TOKEN" ] || { echo "FAIL no token minted through HAProxy"; FAILED=1; }
expect "beta's access token reaches group_b" 200 "${suggest[@]}" -H "Authorization: Bearer $TOKEN"
expect "an unknown key goes to the default group, which refuses it" 401 "${suggest[@]}" \
  -H "Authorization: Bearer pk_v1_00000000000000000000000000000000000000"
expect "/ready through HAProxy" 200 http://127.0.0.1:8443/ready

# Learning behind the balancer: a pick is credited only by the replica that offered the option in that session
# (docs/configuration.md, learning from picks), so each client must reach one replica. Six journeys of a suggest
# request and the official client's pick event, each in a session of its own, then what both replicas made of them.
for i in 1 2 3 4 5 6; do
  session="$(cat /proc/sys/kernel/random/uuid)"
  curl -s -o /dev/null -X POST http://127.0.0.1:8443/api/suggest -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $ALPHA_PK" -d "${body%\}\}},\"session_id\":\"$session\"}}"
  curl -s -o /dev/null -X POST http://127.0.0.1:8443/api/telemetry/events -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $ALPHA_PK" -d '{"source":"full-sdk","session_id":"'"$session"'","type":"option",
    "at":"2026-01-01T00:00:00Z","query_data":{"raw_query":"","selected_option":"Lisbon","other_options":[]}}'
done
picks() { # outcome: the pick events of that outcome on both replicas of group_a
  for port in 18085 18095; do curl -s "http://127.0.0.1:$port/observe/metrics"; done \
    | awk -v o="outcome=\"$1\"" 'index($0, "autocomplete_learning_events_total{") == 1 && index($0, o) {n += $NF}
      END {printf "%d", n}'
}
# Honest picks: credited, or not ranked (the address had Lisbon credited already today, on that replica).
honest() { echo $(( $(picks credited) + $(picks not_ranked) )); }
for _ in $(seq 1 20); do [ "$(( $(honest) + $(picks not_offered) ))" -ge 6 ] && break; sleep 0.5; done
if [ "$(honest)" = 6 ] && [ "$(picks not_offered)" = 0 ]; then
  echo "ok   every pick reached the replica that offered it: 6 honest picks ($(picks credited) credited)"
else
  echo "FAIL honest picks $(honest), not offered $(picks not_offered), expected 6 and 0"; FAILED=1
fi
exit "$FAILED"
