package dev.autocomplete.index;

import dev.autocomplete.bench.SyntheticCatalog;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.IntPredicate;

/**
 * {@link LiveLookupBenchmark}'s lookups timed in CPU time of the querying thread rather than wall time, so that a
 * busy shared machine, which deschedules the thread for milliseconds, does not decide the tail: both snapshots
 * (no pending changes, 1% pending) in one JVM, in alternating rounds, every query timed on each, after a warm-up
 * that lasts until the JIT is quiet ({@link #warmUp}). Prints the percentiles over the queries of each one's CPU time
 * (summed over the measured rounds), their ratios, and the JIT's compilation time during the measured rounds. Run it
 * on a heap committed and touched first ({@code benchmarks/run live-cpu} does): on a growing heap, allocations
 * fault fresh pages in, and the kernel's time clearing them counts as the thread's. Usage: {@code LiveLookupCpu
 * repoRoot [rounds]}.
 */
public final class LiveLookupCpu {

    /**
     * Warm-up rounds run at least this many, and until {@link #QUIET_ROUNDS} in a row added no JIT compilation: with
     * three rounds, the compiler was still replacing the lookups' code through the measured rounds, so runs differed
     * by which code each query ran, not by what it did.
     */
    static final int MIN_WARMUP_ROUNDS = 20;

    static final int QUIET_ROUNDS = 10;
    /** A warm-up that never turns quiet stops here (and says so). */
    static final long MAX_WARMUP_NANOS = 90_000_000_000L;

    /**
     * The exclusion of every lookup, warm-up and measured alike: a second lambda seen at the index's exclusion check
     * made the compiler throw its code away in the first measured round.
     */
    private static final IntPredicate NOTHING_EXCLUDED = option -> false;

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
        warmUp(() -> {
            for (String[] queries : List.of(mix.prefixes(), mix.typos())) {
                for (LiveOptions options : List.of(none, pending)) {
                    for (String query : queries) {
                        options.complete(query, false, 10, NOTHING_EXCLUDED, List.of());
                    }
                }
            }
        });
        for (String kind : List.of("prefix", "oneTypo")) {
            String[] queries = kind.equals("prefix") ? mix.prefixes() : mix.typos();
            long[][] nanos = new long[2][queries.length];
            long compiled = compilationMillis();
            for (int round = 0; round < rounds; round++) {
                for (int variant = 0; variant < 2; variant++) {
                    // Alternate which goes first, so that neither always runs on a cache the other warmed.
                    int which = (round + variant) % 2;
                    LiveOptions options = which == 0 ? none : pending;
                    for (int q = 0; q < queries.length; q++) {
                        long start = threads.getCurrentThreadCpuTime();
                        for (int r = 0; r < REPEATS; r++) {
                            options.complete(queries[q], false, 10, NOTHING_EXCLUDED, List.of());
                        }
                        nanos[which][q] += threads.getCurrentThreadCpuTime() - start;
                    }
                }
            }
            compiled = compilationMillis() - compiled;
            long[] plain = perRun(nanos[0], rounds);
            long[] live = perRun(nanos[1], rounds);
            System.out.printf(
                    Locale.ROOT,
                    "%s: p50 / p90 / p99 CPU us, none %.1f / %.1f / %.1f, 1%% pending %.1f / "
                            + "%.1f / %.1f; ratio %.2f / %.2f / %.2f; total ratio %.2f; JIT %d ms while measuring%n",
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
                    (double) Arrays.stream(live).sum() / Arrays.stream(plain).sum(),
                    compiled);
        }
    }

    /**
     * Runs {@code round} (every query of every kind and variant once) until the JIT is quiet: at least {@link
     * #MIN_WARMUP_ROUNDS}, then until {@link #QUIET_ROUNDS} in a row added no compilation time. Prints how many
     * rounds that took.
     */
    static void warmUp(Runnable round) {
        long start = System.nanoTime();
        int rounds = 0;
        int quiet = 0;
        while (rounds < MIN_WARMUP_ROUNDS || quiet < QUIET_ROUNDS) {
            long compiled = compilationMillis();
            round.run();
            rounds++;
            quiet = compilationMillis() == compiled ? quiet + 1 : 0;
            if (System.nanoTime() - start > MAX_WARMUP_NANOS) {
                System.out.printf(
                        Locale.ROOT, "warm-up: the JIT still compiling after %d rounds; measuring anyway%n", rounds);
                return;
            }
        }
        System.out.printf(
                Locale.ROOT,
                "warm-up: %d rounds of every query, %.1f s, the last %d without JIT compilation%n",
                rounds,
                (System.nanoTime() - start) / 1e9,
                QUIET_ROUNDS);
    }

    /** The JIT's compilation time so far, in milliseconds (all compiler threads). */
    static long compilationMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    /** Prints the rounds and the load; returns the clock of the querying thread. */
    static ThreadMXBean header(int rounds) {
        System.out.printf(
                Locale.ROOT,
                "%d rounds after a warm-up, %d runs per timing; load average %.1f%n",
                rounds,
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
