#!/usr/bin/env bash
# Two builds of the server against each other, end to end: benchmarks/ab.sh A.jar B.jar [rounds] [seconds].
# Each JAR serves the tenant that `benchmarks/run wrk` prepared (benchmarks/target/wrk: a million places, and the
# key its keystrokes.lua sends) in a process of its own on loopback, with a data directory of its own. After a
# warm-up, rounds of `wrk -t2 -c16` sending the keystroke bodies alternate between the two (A then B, then B then
# A, ...), and each round's CPU per request of the process it hit is read from /proc/PID/stat. Prints each round and
# the median of B/A: under 1, B costs less. The two rounds of a pair run back to back, so a change of the machine's
# pace weighs on both alike. Ports: 18081/18082, management 18091/18092. JVM options for one side only go in
# AB_A_JAVA_OPTS or AB_B_JAVA_OPTS (for example AB_B_JAVA_OPTS=-XX:+UseTransparentHugePages with the same JAR twice);
# the environment (AUTOCOMPLETE_CACHE_MAX_ENTRIES=0 for uncached answers) reaches both.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
A="$(realpath "$1")"; B="$(realpath "$2")"; ROUNDS="${3:-16}"; SECONDS_PER_ROUND="${4:-8}"
JAVA_HOME="$(cd "$ROOT" && bash -c 'source <(sed -n "/^java_major()/,/^}/p;/^find_jdk()/,/^}/p" ./autocomplete); find_jdk')"
WORK="$ROOT/benchmarks/target/wrk"
SCRIPT="$WORK/keystrokes.lua"
if [ ! -f "$SCRIPT" ]; then
  echo "benchmarks/ab.sh: run 'benchmarks/run wrk' once first: it prepares $WORK" >&2
  exit 2
fi
command -v wrk >/dev/null || { echo "benchmarks/ab.sh: wrk is missing (benchmarks/install-wrk.sh)" >&2; exit 2; }
DATA="$(mktemp -d)"
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$DATA"' EXIT

# The access log goes to a pipe that drops it, as in `benchmarks/run wrk`.
serve() { # jar port management-port name [jvm options]
  # shellcheck disable=SC2086 # the options are words
  "$JAVA_HOME/bin/java" -Xmx4g ${5:-} -jar "$1" serve --port "$2" --management-port "$3" --tenants "$WORK/tenants" \
    --data-dir "$DATA/$4" > /dev/null 2> >(cat > /dev/null) &
  PIDS+=("$!")
}
serve "$A" 18081 18091 a "${AB_A_JAVA_OPTS:-}"
serve "$B" 18082 18092 b "${AB_B_JAVA_OPTS:-}"
for port in 18081 18082; do
  until curl -sf "http://127.0.0.1:$port/ready" > /dev/null; do sleep 1; done
done
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
load() { # port seconds -> requests answered
  wrk -t2 -c16 -d"$2"s -s "$SCRIPT" "http://127.0.0.1:$1/api/suggest" | awk '/requests in/ {print $1}'
}
for _ in 1 2 3; do load 18081 5 > /dev/null; load 18082 5 > /dev/null; done
HZ="$(getconf CLK_TCK)"
ratios=()
for round in $(seq 1 "$ROUNDS"); do
  if (( round % 2 )); then order="a b"; else order="b a"; fi
  for side in $order; do
    if [ "$side" = a ]; then port=18081; pid="${PIDS[0]}"; else port=18082; pid="${PIDS[1]}"; fi
    before="$(ticks "$pid")"; requests="$(load "$port" "$SECONDS_PER_ROUND")"; after="$(ticks "$pid")"
    declare "us_$side=$(awk -v t=$((after - before)) -v hz="$HZ" -v n="$requests" 'BEGIN {printf "%.2f", t / hz * 1e6 / n}')"
  done
  ratio="$(awk -v a="$us_a" -v b="$us_b" 'BEGIN {printf "%.3f", b / a}')"
  ratios+=("$ratio")
  echo "round $round: A $us_a us CPU/request, B $us_b us CPU/request, B/A $ratio"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{r[NR] = $1} END {m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2;
  below = 0; for (i = 1; i <= NR; i++) if (r[i] < 1) below++; printf "median B/A over %d rounds: %.3f (B cheaper in %d)\n", NR, m, below}'
