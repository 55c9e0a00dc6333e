#!/usr/bin/env bash
# Prints what a test run (./autocomplete test) did, from the reports Maven's surefire and failsafe wrote under
# DIR (every target/surefire-reports and target/failsafe-reports) after the file MARKER: tests per module, the
# totals, and for each test that failed its name and the end of its class's own output (the logs it provoked,
# kept out of the console while it ran). Usage: test-summary.sh DIR MARKER MAVEN_EXIT_STATUS
set -uo pipefail

root="$1"
marker="$2"
status="$3"
# How many lines of a failed class's output to show; the whole file is named.
tail_lines="${AUTOCOMPLETE_TEST_LOG_LINES:-80}"

# The reports of this run (newer than the marker), surefire's before failsafe's (the tests after packaging).
reports_of() {
  find "$root" -path "$root/web/node_modules" -prune -o -path "*/target/$1/*.txt" ! -name '*-output.txt' \
    -newer "$marker" -print 2>/dev/null | sort
}
reports="$(reports_of surefire-reports; reports_of failsafe-reports)"

echo
echo "================================ Test summary ================================"
if [ -z "$reports" ]; then
  echo "No test ran (the build stopped before the tests, or none matched): see the [ERROR] lines above."
  exit 0
fi

# One line per module: its tests, failed and skipped ones. Each report's first "Tests run:" line counts its class.
echo "$reports" | while IFS= read -r report; do
  dir="${report%/*}"
  kind="${dir##*/}"
  module="${dir%/target/*}"
  module="${module#"$root"/}"
  [ "$module" = "$root" ] && module="${root##*/}"
  [ "$kind" = failsafe-reports ] && module="$module (after packaging)"
  sed -n 's/^Tests run: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\), Skipped: \([0-9]*\).*/\1 \2 \3 \4/p' \
    "$report" | head -n1 | sed "s|^|$module\t|"
done | awk -F'\t' '
  { split($2, n, " "); run[$1] += n[1]; failed[$1] += n[2] + n[3]; skipped[$1] += n[4]
    if (!($1 in seen)) { seen[$1] = 1; order[++count] = $1 } }
  END {
    for (i = 1; i <= count; i++) {
      m = order[i]; line = sprintf("  %-40s %5d tests", m, run[m])
      if (failed[m]) line = line sprintf(", %d FAILED", failed[m])
      if (skipped[m]) line = line sprintf(", %d skipped", skipped[m])
      print line; total += run[m]; totalFailed += failed[m]; totalSkipped += skipped[m]
    }
    printf "  %-40s %5d tests: %d passed, %d failed, %d skipped\n", "all", total,
      total - totalFailed - totalSkipped, totalFailed, totalSkipped
  }'

# The tests that failed: "<class>.<method> -- Time elapsed: ... <<< FAILURE!" (or ERROR) in the class's report.
failures="$(echo "$reports" | while IFS= read -r report; do
  grep -E '<<< (FAILURE|ERROR)!$' "$report" | grep -v '^Tests run:' | sed "s|^\([^ ]*\) .*<<< \([A-Z]*\)!$|\2 \1\t$report|"
done)"

if [ -n "$failures" ]; then
  echo
  echo "Failed:"
  echo "$failures" | cut -f1 | sed 's/^/  /'
  # Each failed class's own output, once: what it logged while it failed.
  echo "$failures" | cut -f2 | sort -u | while IFS= read -r report; do
    output="${report%.txt}-output.txt"
    [ -f "$output" ] || continue
    echo
    echo "--- the last $tail_lines lines of ${output#"$root"/} (what the class printed and logged):"
    tail -n "$tail_lines" "$output"
  done
  echo
  echo "Failure messages and stack traces: above, and in each class's report next to its output file."
elif [ "$status" -ne 0 ]; then
  echo
  echo "Every test that ran passed, but the build failed: see the [ERROR] lines above."
else
  echo
  # Where the output went: this repository's build redirects it to files (redirectTestOutputToFile); a project of
  # its own (an engine's, -f) may print it on the console above instead.
  if [ -n "$(find "$root" -path "$root/web/node_modules" -prune -o -path '*/target/*-reports/*-output.txt' \
      -newer "$marker" -print 2>/dev/null | head -n1)" ]; then
    echo "All passed. What each test class printed and logged (warnings of the faults the tests provoke on purpose"
    echo "included) is kept in target/surefire-reports/CLASS-output.txt and target/failsafe-reports/ of its module."
  else
    echo "All passed. What the tests printed and logged is in the build's output above."
  fi
fi
