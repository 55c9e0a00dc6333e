package dev.autocomplete.index;

import dev.autocomplete.bench.SyntheticCatalog;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.LongBinaryOperator;
import java.util.stream.IntStream;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.search.suggest.analyzing.FuzzySuggester;
import org.apache.lucene.search.suggest.fst.WFSTCompletionLookup;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * {@link LookupBenchmark}'s catalog lookups (top 10, the static index, the same query mix) timed per query in CPU
 * time of the querying thread, as {@link LiveLookupCpu} times the live ones: which queries make the tail. Prints
 * the percentiles over the 1,000 queries of each kind and the slowest queries. Given the JAR of another build of
 * {@code catalog-index} (say main's, copied aside), runs both builds in this one JVM, each in a class loader of its
 * own, alternating round by round, and prints their ratios: on a shared machine two builds compare fairly only
 * under the same load. Both are warmed up until the JIT is quiet ({@link LiveLookupCpu#warmUp}). Against its own JAR
 * a build's prefix ratios read 0.98 to 1.07, its one-typo ratios 0.90 to 1.14 (1.81 with the three warm-up rounds of
 * before: the two copies of the typo walk were not compiled alike), so a one-typo A/B of builds resolves about 10 %.
 * {@code lucene} instead of a JAR times Lucene's suggesters of {@link LookupBenchmark}
 * ({@link FuzzySuggester} for one typo, {@link WFSTCompletionLookup} for prefixes) the same way. Usage:
 * {@code LookupCpu repoRoot [rounds] [slowest] [baseline.jar|lucene]...} ({@code benchmarks/run lookup-cpu ...}).
 */
public final class LookupCpu {

    private LookupCpu() {}

    public static void main(String[] args) throws Exception {
        String repo = Path.of(args.length > 0 ? args[0] : ".")
                .toAbsolutePath()
                .normalize()
                .toString();
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int slowest = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        List<String> builds = new ArrayList<>(List.of("this build"));
        List<LongBinaryOperator> timers = new ArrayList<>(List.of(new Timer(repo)));
        for (int a = 3; a < args.length; a++) {
            builds.add(args[a]);
            timers.add(args[a].equals("lucene") ? new LuceneTimer(repo) : baseline(Path.of(args[a]), repo));
        }
        LiveLookupCpu.header(rounds);
        LiveLookupCpu.warmUp(() -> {
            for (int kind = 0; kind < 2; kind++) {
                int count = ((Timer) timers.get(0)).queries(kind).length;
                for (LongBinaryOperator timer : timers) {
                    for (int q = 0; q < count; q++) {
                        timer.applyAsLong(kind, q);
                    }
                }
            }
        });
        for (int kind = 0; kind < 2; kind++) {
            String[] queries = ((Timer) timers.get(0)).queries(kind);
            long[][] nanos = new long[timers.size()][queries.length];
            long compiled = LiveLookupCpu.compilationMillis();
            for (int round = 0; round < rounds; round++) {
                for (int variant = 0; variant < timers.size(); variant++) {
                    // Alternate which goes first, so that neither always runs on a cache the other warmed.
                    int which = (round + variant) % timers.size();
                    for (int q = 0; q < queries.length; q++) {
                        nanos[which][q] += timers.get(which).applyAsLong(kind, q);
                    }
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "%s: JIT %d ms while measuring%n",
                    kind == 0 ? "prefix" : "oneTypo",
                    LiveLookupCpu.compilationMillis() - compiled);
            double[] first = null;
            for (int b = 0; b < timers.size(); b++) {
                long[] each = Arrays.stream(nanos[b])
                        .map(n -> n / ((long) rounds * LiveLookupCpu.REPEATS))
                        .toArray();
                long[] sorted = LiveLookupCpu.perRun(nanos[b], rounds);
                double[] figures = {
                    LiveLookupCpu.at(sorted, 0.5),
                    LiveLookupCpu.at(sorted, 0.9),
                    LiveLookupCpu.at(sorted, 0.99),
                    Arrays.stream(each).average().orElse(0) / 1_000.0
                };
                System.out.printf(
                        Locale.ROOT,
                        "%s, %s: p50 / p90 / p99 CPU us %.1f / %.1f / %.1f, mean %.1f%s%n",
                        kind == 0 ? "prefix" : "oneTypo",
                        builds.get(b),
                        figures[0],
                        figures[1],
                        figures[2],
                        figures[3],
                        first == null
                                ? ""
                                : String.format(
                                        Locale.ROOT,
                                        "; this build / it %.2f / %.2f / %.2f, mean %.2f",
                                        first[0] / figures[0],
                                        first[1] / figures[1],
                                        first[2] / figures[2],
                                        first[3] / figures[3]));
                first = first == null ? figures : first;
                IntStream.range(0, queries.length)
                        .boxed()
                        .sorted(Comparator.comparingLong(q -> -each[q]))
                        .limit(slowest)
                        .forEach(
                                q -> System.out.printf(Locale.ROOT, "  %8.1f us  %s%n", each[q] / 1_000.0, queries[q]));
            }
        }
    }

    /** The timer of the build in {@code jar}, loaded with this module's own classes in a loader of its own. */
    private static LongBinaryOperator baseline(Path jar, String repo) throws Exception {
        URL[] urls = {
            LookupCpu.class.getProtectionDomain().getCodeSource().getLocation(),
            jar.toUri().toURL()
        };
        ClassLoader loader = new URLClassLoader(urls, LookupCpu.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                synchronized (getClassLoadingLock(name)) {
                    // The index's and the benchmark's classes from this loader first: the other build's.
                    Class<?> loaded = findLoadedClass(name);
                    if (loaded == null && name.startsWith("dev.autocomplete.")) {
                        try {
                            loaded = findClass(name);
                        } catch (ClassNotFoundException notHere) {
                            loaded = null;
                        }
                    }
                    return loaded != null ? loaded : super.loadClass(name, resolve);
                }
            }
        };
        return (LongBinaryOperator) loader.loadClass(Timer.class.getName())
                .getConstructor(String.class)
                .newInstance(repo);
    }

    /** Lucene's suggesters over the same options and queries, as {@link LookupBenchmark} builds them. */
    private static final class LuceneTimer implements LongBinaryOperator {
        private final WFSTCompletionLookup prefix;
        private final FuzzySuggester fuzzy;
        private final QueryMix mix;
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

        LuceneTimer(String repo) throws IOException {
            List<SyntheticCatalog.Option> options = SyntheticCatalog.generate(Path.of(repo), 1_000_000);
            prefix = new WFSTCompletionLookup(new ByteBuffersDirectory(), "wfst");
            prefix.build(LookupBenchmark.inputs(options));
            fuzzy = new FuzzySuggester(new ByteBuffersDirectory(), "fuzzy", new KeywordAnalyzer());
            fuzzy.build(LookupBenchmark.inputs(options));
            mix = QueryMix.of(options);
        }

        @Override
        public long applyAsLong(long kind, long q) {
            String query = kind == 0 ? mix.prefixes()[(int) q] : mix.typos()[(int) q];
            long start = threads.getCurrentThreadCpuTime();
            try {
                for (int r = 0; r < LiveLookupCpu.REPEATS; r++) {
                    (kind == 0 ? prefix : fuzzy).lookup(query, false, 10);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return threads.getCurrentThreadCpuTime() - start;
        }
    }

    /** One build's catalog and the query mix: {@code applyAsLong(kind, q)} times query q, kind 0 prefix, 1 typo. */
    public static final class Timer implements LongBinaryOperator {
        private final OptionCatalog catalog;
        private final QueryMix mix;
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

        public Timer(String repo) throws IOException {
            List<SyntheticCatalog.Option> options = SyntheticCatalog.generate(Path.of(repo), 1_000_000);
            catalog = new OptionCatalog(options.stream()
                    .map(o -> new CatalogEntry(o.text(), o.weight()))
                    .toList());
            mix = QueryMix.of(options);
        }

        String[] queries(long kind) {
            return kind == 0 ? mix.prefixes() : mix.typos();
        }

        @Override
        public long applyAsLong(long kind, long q) {
            String query = queries(kind)[(int) q];
            long start = threads.getCurrentThreadCpuTime();
            for (int r = 0; r < LiveLookupCpu.REPEATS; r++) {
                if (kind == 0) {
                    catalog.complete(query, 10, option -> false);
                } else {
                    catalog.completeWithTypos(query, 10, option -> false);
                }
            }
            return threads.getCurrentThreadCpuTime() - start;
        }
    }
}
