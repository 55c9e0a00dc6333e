package dev.autocomplete.index;

import dev.autocomplete.bench.SyntheticCatalog;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * {@link LookupBenchmark}'s catalog lookups (top 10, the static index, the same query mix) timed per query in CPU
 * time of the querying thread, as {@link LiveLookupCpu} times the live ones: which queries make the tail. Prints
 * the percentiles over the 1,000 queries of each kind and the slowest queries. Usage:
 * {@code LookupCpu repoRoot [rounds] [slowest]} ({@code benchmarks/run lookup-cpu}).
 */
public final class LookupCpu {

    private LookupCpu() {}

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int slowest = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        List<SyntheticCatalog.Option> options = SyntheticCatalog.generate(repo, 1_000_000);
        OptionCatalog catalog = new OptionCatalog(options.stream()
                .map(o -> new CatalogEntry(o.text(), o.weight()))
                .toList());
        QueryMix mix = QueryMix.of(options);
        ThreadMXBean threads = LiveLookupCpu.header(rounds);
        for (String kind : List.of("prefix", "oneTypo")) {
            boolean typos = kind.equals("oneTypo");
            String[] queries = typos ? mix.typos() : mix.prefixes();
            long[] nanos = new long[queries.length];
            for (int round = 0; round < LiveLookupCpu.WARMUP_ROUNDS + rounds; round++) {
                for (int q = 0; q < queries.length; q++) {
                    long start = threads.getCurrentThreadCpuTime();
                    for (int r = 0; r < LiveLookupCpu.REPEATS; r++) {
                        if (typos) {
                            catalog.completeWithTypos(queries[q], 10, option -> false);
                        } else {
                            catalog.complete(queries[q], 10, option -> false);
                        }
                    }
                    if (round >= LiveLookupCpu.WARMUP_ROUNDS) {
                        nanos[q] += threads.getCurrentThreadCpuTime() - start;
                    }
                }
            }
            long[] each = Arrays.stream(nanos)
                    .map(n -> n / ((long) rounds * LiveLookupCpu.REPEATS))
                    .toArray();
            long[] sorted = LiveLookupCpu.perRun(nanos, rounds);
            System.out.printf(
                    Locale.ROOT,
                    "%s: p50 / p90 / p99 CPU us %.1f / %.1f / %.1f, mean %.1f%n",
                    kind,
                    LiveLookupCpu.at(sorted, 0.5),
                    LiveLookupCpu.at(sorted, 0.9),
                    LiveLookupCpu.at(sorted, 0.99),
                    Arrays.stream(each).average().orElse(0) / 1_000.0);
            IntStream.range(0, queries.length)
                    .boxed()
                    .sorted(Comparator.comparingLong(q -> -each[q]))
                    .limit(slowest)
                    .forEach(q -> System.out.printf(Locale.ROOT, "  %8.1f us  %s%n", each[q] / 1_000.0, queries[q]));
        }
    }
}
