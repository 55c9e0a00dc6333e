#!/usr/bin/env bash
# Idle cost of a server with many tenants: process CPU (user + system, every thread) of `serve` over a
# window in which no request arrives and no file changes, so what it measures is the cost of watching files
# and of the JVM sitting still. See docs/benchmarks.md.
#
#   benchmarks/idle-cpu.sh [tenants=1000] [seconds=300] [settle=30]
#
# Builds server/target/autocomplete.jar with Maven (package, not install) unless JAR names one; makes
# `tenants` copies of tenants/demo (each with a keys.yaml) in a temporary directory; starts the JAR on a free
# loopback port; waits `settle` seconds after it serves (start-up, JIT, the GC after loading), then reads
# /proc/PID/stat at the start and the end of the window. AUTOCOMPLETE_* variables (for example
# AUTOCOMPLETE_TENANTS_WATCH=poll) reach the server. Linux only (/proc).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TENANTS="${1:-1000}"
SECONDS_IDLE="${2:-300}"
SETTLE="${3:-30}"

JAVA_HOME="$(bash -c 'source <(sed -n "/^java_major()/,/^}/p;/^find_jdk()/,/^}/p" "$0"); find_jdk' "$ROOT/autocomplete")"
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
if [ -z "${JAR:-}" ]; then
  (cd "$ROOT" && mvn -B -q package -DskipTests -pl server -am >&2)
  JAR="$ROOT/server/target/autocomplete.jar"
fi

WORK="$(mktemp -d)"
PID=""
cleanup() {
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/tenants/t0000"
cp -r "$ROOT/tenants/demo/." "$WORK/tenants/t0000/"
java -jar "$JAR" keys create --tenants "$WORK/tenants" --tenant t0000 --type secret >/dev/null
for i in $(seq 1 $((TENANTS - 1))); do
  copy="$WORK/tenants/$(printf 't%04d' "$i")"
  cp -r "$WORK/tenants/t0000" "$copy"
  # A product id names one product of one tenant (the server refuses a second): each copy its own ids.
  sed -i -E "s/^(  - id: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-)[0-9a-f]{12}$/\1$(printf '%012d' "$i")/" "$copy/tenant.yaml"
done

java -jar "$JAR" serve --port 0 --tenants "$WORK/tenants" >"$WORK/server.log" 2>&1 &
PID=$!
for _ in $(seq 1 600); do
  grep -q '^Serving ' "$WORK/server.log" && break
  kill -0 "$PID" 2>/dev/null || { cat "$WORK/server.log" >&2; exit 1; }
  sleep 0.5
done
grep -q '^Serving ' "$WORK/server.log" || { echo "the server did not start" >&2; exit 1; }
grep -q "^Serving $TENANTS tenant" "$WORK/server.log" || { grep -E '^(Serving|Skipped)' "$WORK/server.log" >&2; echo "not every tenant loaded" >&2; exit 1; }
grep -E '^Serving |[Ww]atch' "$WORK/server.log" >&2 || true
sleep "$SETTLE"

ticks() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; }
HZ="$(getconf CLK_TCK)"
before="$(ticks)"
sleep "$SECONDS_IDLE"
after="$(ticks)"
awk -v t="$((after - before))" -v hz="$HZ" -v s="$SECONDS_IDLE" -v n="$TENANTS" 'BEGIN {
  cpu = t / hz
  printf "%d tenants, %d s idle: %.2f s of CPU, %.2f%% of one core, %.3f s per 10 s\n", n, s, cpu, 100 * cpu / s, 10 * cpu / s
}'
