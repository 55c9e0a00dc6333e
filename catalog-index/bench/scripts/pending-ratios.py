#!/usr/bin/env python3
"""Reads a LiveLookupBenchmark JSON result (benchmarks/run jmh ... -rf json) and prints, per benchmark, the
percentiles of every measurement iteration with and without pending changes, the median over iterations of each
percentile, and the ratio pending / none of those medians. On a shared machine a burst of other work inflates the
tail of a whole iteration; the median over iterations keeps one such burst from deciding the ratio. Usage:
catalog-index/bench/scripts/pending-ratios.py catalog-index/bench/target/jmh.json

For LookupBenchmark results in the same file it prints the ratios catalog / Lucene (one typo against
FuzzySuggester, prefix against WFSTCompletionLookup), both of JMH's percentiles over the whole run and of the
medians over iterations."""
import json
import statistics
import sys

PERCENTILES = (0.5, 0.9, 0.99)


def percentile(histogram, p):
    """The value at quantile p of one iteration's histogram of [value, count] pairs."""
    pairs = sorted(histogram)
    total = sum(count for _, count in pairs)
    rank = p * total
    seen = 0
    for value, count in pairs:
        seen += count
        if seen >= rank:
            return value
    return pairs[-1][0]


results = {}
static = {}
for run in json.load(open(sys.argv[1])):
    name = run["benchmark"].rsplit(".", 1)[1]
    if "params" not in run or "pending" not in run["params"]:
        histograms = [h for fork in run["primaryMetric"]["rawDataHistogram"] for h in fork]
        whole = run["primaryMetric"]["scorePercentiles"]
        static[name] = ([whole[f"{p * 100:.1f}"] for p in PERCENTILES],
                        [statistics.median(percentile(h, p) for h in histograms) for p in PERCENTILES])
        continue
    pending = run["params"]["pending"]
    iterations = [percentile_set for fork in run["primaryMetric"]["rawDataHistogram"]
                  for percentile_set in [[percentile(h, p) for p in PERCENTILES] for h in fork]]
    results[(name, pending)] = iterations

for name in sorted({name for name, _ in results}):
    medians = {}
    for pending in ("0", "1"):
        iterations = results.get((name, pending))
        if iterations is None:
            continue
        medians[pending] = [statistics.median(i[k] for i in iterations) for k in range(len(PERCENTILES))]
        print(f"{name} pending={pending}% per iteration p50/p90/p99 (us): "
              + ", ".join("/".join(f"{v:.0f}" for v in i) for i in iterations))
        print(f"{name} pending={pending}% median over iterations p50/p90/p99: "
              + " / ".join(f"{v:.1f}" for v in medians[pending]) + " us")
    if len(medians) == 2:
        print(f"{name} ratio pending/none p50/p90/p99: "
              + " / ".join(f"{a / b:.2f}" for a, b in zip(medians["1"], medians["0"])))

for kind, lucene in (("OneTypo", "luceneOneTypo"), ("Prefix", "lucenePrefix")):
    ours = static.get("catalog" + kind)
    theirs = static.get(lucene)
    if ours is None or theirs is None:
        continue
    for label, index in (("whole run", 0), ("median over iterations", 1)):
        print(f"catalog{kind} / {lucene} p50/p90/p99, {label}: "
              + " / ".join(f"{a:.1f}" for a in ours[index]) + " us against "
              + " / ".join(f"{b:.1f}" for b in theirs[index]) + " us, ratio "
              + " / ".join(f"{a / b:.2f}" for a, b in zip(ours[index], theirs[index])))
