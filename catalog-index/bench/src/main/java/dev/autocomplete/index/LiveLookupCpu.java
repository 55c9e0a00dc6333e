package dev.autocomplete.index;

import dev.autocomplete.bench.SyntheticCatalog;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * {@link LiveLookupBenchmark}'s lookups timed in CPU time of the querying thread rather than wall time, so that a
 * busy shared machine, which deschedules the thread for milliseconds, does not decide the tail: both snapshots
 * (no pending changes, 1% pending) in one JVM, in alternating rounds, every query timed on each. Prints the
 * percentiles over the queries of each one's CPU time (summed over the measured rounds) and their ratios.
 * Usage: {@code LiveLookupCpu repoRoot [rounds]}.
 */
public final class LiveLookupCpu {

    static final int WARMUP_ROUNDS = 3;
    /** Each timing covers this many runs of the query: the clock read costs about a microsecond. */
    static final int REPEATS = 3;

    private LiveLookupCpu() {}

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        List<SyntheticCatalog.Option> synthesized =
                SyntheticCatalog.distinct(SyntheticCatalog.generate(repo, 1_000_000));
        List<CatalogEntry> entries = new ArrayList<>(synthesized.size());
        synthesized.forEach(option -> entries.add(new CatalogEntry(option.text(), option.weight())));
        LiveOptions none = LiveOptions.of(entries);
        LiveOptions pending = LiveLookupBenchmark.withPending(none, entries, 10_000, new Random(11));
        QueryMix mix = QueryMix.of(synthesized);
        ThreadMXBean threads = header(rounds);
        for (String kind : List.of("prefix", "oneTypo")) {
            String[] queries = kind.equals("prefix") ? mix.prefixes() : mix.typos();
            long[][] nanos = new long[2][queries.length];
            for (int round = 0; round < WARMUP_ROUNDS + rounds; round++) {
                for (int variant = 0; variant < 2; variant++) {
                    // Alternate which goes first, so that neither always runs on a cache the other warmed.
                    int which = (round + variant) % 2;
                    LiveOptions options = which == 0 ? none : pending;
                    for (int q = 0; q < queries.length; q++) {
                        long start = threads.getCurrentThreadCpuTime();
                        for (int r = 0; r < REPEATS; r++) {
                            options.complete(queries[q], false, 10, option -> false, List.of());
                        }
                        if (round >= WARMUP_ROUNDS) {
                            nanos[which][q] += threads.getCurrentThreadCpuTime() - start;
                        }
                    }
                }
            }
            long[] plain = perRun(nanos[0], rounds);
            long[] live = perRun(nanos[1], rounds);
            System.out.printf(
                    Locale.ROOT,
                    "%s: p50 / p90 / p99 CPU us, none %.1f / %.1f / %.1f, 1%% pending %.1f / "
                            + "%.1f / %.1f; ratio %.2f / %.2f / %.2f; total ratio %.2f%n",
                    kind,
                    at(plain, 0.5),
                    at(plain, 0.9),
                    at(plain, 0.99),
                    at(live, 0.5),
                    at(live, 0.9),
                    at(live, 0.99),
                    at(live, 0.5) / at(plain, 0.5),
                    at(live, 0.9) / at(plain, 0.9),
                    at(live, 0.99) / at(plain, 0.99),
                    (double) Arrays.stream(live).sum() / Arrays.stream(plain).sum());
        }
    }

    /** Prints the rounds and the load; returns the clock of the querying thread. */
    static ThreadMXBean header(int rounds) {
        System.out.printf(
                Locale.ROOT,
                "%d rounds after %d of warmup, %d runs per timing; load average %.1f%n",
                rounds,
                WARMUP_ROUNDS,
                REPEATS,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return ManagementFactory.getThreadMXBean();
    }

    /** Each query's CPU time per run, sorted. */
    static long[] perRun(long[] totals, int rounds) {
        long[] each = new long[totals.length];
        for (int q = 0; q < totals.length; q++) {
            each[q] = totals[q] / ((long) rounds * REPEATS);
        }
        Arrays.sort(each);
        return each;
    }

    static double at(long[] sorted, double quantile) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(quantile * sorted.length) - 1)] / 1_000.0;
    }
}
