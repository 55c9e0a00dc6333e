package dev.autocomplete.index;

import dev.autocomplete.bench.SyntheticCatalog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Top-10 lookups on a live catalog of the million synthesized places, as the engine asks them
 * ({@link LiveOptions#complete}: exact options, then prefix matches, then typo matches), with 1% of the options
 * pending ({@code pending=1}: 5,000 options updated with a new weight, so in the delta and gone from the main index,
 * and 5,000 deleted) or none ({@code pending=0}: the same options in one main index). The queries are those of
 * {@link LookupBenchmark}: 1,000 prefixes of 1 to 6 letters and 1,000 prefixes of 5 to 7 letters with two inner
 * letters swapped. Sample-time mode gives the percentiles. The repository root comes from the system property
 * {@code autocomplete.repo}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+AlwaysPreTouch"})
public class LiveLookupBenchmark {

    private static final int OPTIONS = 1_000_000;
    private static final int LIMIT = 10;
    private static final IntPredicate NONE = option -> false;

    /** The catalog, with or without pending changes, and the query mix. */
    @State(Scope.Benchmark)
    public static class Live {
        /** Percent of the options pending: 0 or 1. */
        @Param({"0", "1"})
        int pending;

        LiveOptions options;
        String[] prefixes;
        String[] typos;

        @Setup(Level.Trial)
        public void load() throws IOException {
            List<SyntheticCatalog.Option> synthesized = SyntheticCatalog.distinct(
                    SyntheticCatalog.generate(Path.of(System.getProperty("autocomplete.repo", ".")), OPTIONS));
            List<CatalogEntry> entries = new ArrayList<>(synthesized.size());
            synthesized.forEach(option -> entries.add(new CatalogEntry(option.text(), option.weight())));
            options = LiveOptions.of(entries);
            if (pending > 0) {
                options = withPending(options, entries, OPTIONS * pending / 100, new Random(11));
            }
            QueryMix mix = QueryMix.of(synthesized);
            prefixes = mix.prefixes();
            typos = mix.typos();
        }
    }

    /**
     * Half the pending options are updates (a new weight: the option moves to the delta, its main copy is gone),
     * half deletions, drawn at random over the whole catalog; written in batches of 1,000, as the core applies them.
     */
    static LiveOptions withPending(LiveOptions options, List<CatalogEntry> entries, int pending, Random random) {
        List<CatalogEntry> updates = new ArrayList<>();
        List<String> deletions = new ArrayList<>();
        BitSet picked = new BitSet(entries.size());
        while (updates.size() + deletions.size() < pending) {
            int i = random.nextInt(entries.size());
            if (picked.get(i)) {
                continue;
            }
            picked.set(i);
            CatalogEntry entry = entries.get(i);
            if (updates.size() <= deletions.size()) {
                updates.add(new CatalogEntry(entry.text(), entry.weight() * (0.5 + random.nextDouble())));
            } else {
                deletions.add(entry.text());
            }
        }
        for (int from = 0; from < updates.size(); from += 500) {
            int to = Math.min(from + 500, updates.size());
            options = options.with(updates.subList(from, to), deletions.subList(from, Math.min(to, deletions.size())));
        }
        return options;
    }

    @Benchmark
    public List<Integer> prefix(Live live, LookupBenchmark.Cursor cursor) {
        return live.options.complete(cursor.of(live.prefixes), false, LIMIT, NONE, List.of());
    }

    @Benchmark
    public List<Integer> oneTypo(Live live, LookupBenchmark.Cursor cursor) {
        return live.options.complete(cursor.of(live.typos), false, LIMIT, NONE, List.of());
    }
}
