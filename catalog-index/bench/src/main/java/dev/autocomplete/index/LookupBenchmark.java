package dev.autocomplete.index;

import dev.autocomplete.bench.SyntheticCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.search.suggest.InputIterator;
import org.apache.lucene.search.suggest.Lookup;
import org.apache.lucene.search.suggest.analyzing.FuzzySuggester;
import org.apache.lucene.search.suggest.fst.WFSTCompletionLookup;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Top-10 lookups on the same million synthesized places: the catalog engine's index against Lucene's
 * {@link WFSTCompletionLookup} (weighted prefix) and {@link FuzzySuggester} (one edit, transpositions,
 * first letter exact: the same rules). Keys are folded the same way for both. Sample-time mode gives the
 * percentiles. The repository root comes from the system property {@code autocomplete.repo}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+AlwaysPreTouch"})
public class LookupBenchmark {

    private static final int OPTIONS = 1_000_000;
    private static final int LIMIT = 10;

    /** The synthesized options and the query mix, identical for every benchmark. */
    @State(Scope.Benchmark)
    public static class Data {
        List<SyntheticCatalog.Option> options;
        String[] prefixes;
        String[] typos;

        @Setup(Level.Trial)
        public void load() throws IOException {
            options = SyntheticCatalog.generate(Path.of(System.getProperty("autocomplete.repo", ".")), OPTIONS);
            QueryMix mix = QueryMix.of(options);
            prefixes = mix.prefixes();
            typos = mix.typos();
        }
    }

    /** Which query a thread sends next. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        String of(String[] queries) {
            next = next + 1 == queries.length ? 0 : next + 1;
            return queries[next];
        }
    }

    /** The catalog engine's index. */
    @State(Scope.Benchmark)
    public static class Catalog {
        OptionCatalog catalog;

        @Setup(Level.Trial)
        public void build(Data data) {
            catalog = new OptionCatalog(data.options.stream()
                    .map(o -> new CatalogEntry(o.text(), o.weight()))
                    .toList());
        }
    }

    /** Lucene's weighted FST prefix suggester. */
    @State(Scope.Benchmark)
    public static class Wfst {
        WFSTCompletionLookup lookup;

        @Setup(Level.Trial)
        public void build(Data data) throws IOException {
            lookup = new WFSTCompletionLookup(new ByteBuffersDirectory(), "wfst");
            lookup.build(inputs(data.options));
        }
    }

    /** Lucene's fuzzy suggester over the same folded keys. */
    @State(Scope.Benchmark)
    public static class Fuzzy {
        FuzzySuggester lookup;

        @Setup(Level.Trial)
        public void build(Data data) throws IOException {
            lookup = new FuzzySuggester(new ByteBuffersDirectory(), "fuzzy", new KeywordAnalyzer());
            lookup.build(inputs(data.options));
        }
    }

    @Benchmark
    public List<OptionCatalog.Match> catalogPrefix(Catalog catalog, Data data, Cursor cursor) {
        return catalog.catalog.complete(cursor.of(data.prefixes), LIMIT, option -> false);
    }

    @Benchmark
    public List<Lookup.LookupResult> lucenePrefix(Wfst wfst, Data data, Cursor cursor) throws IOException {
        return wfst.lookup.lookup(cursor.of(data.prefixes), false, LIMIT);
    }

    @Benchmark
    public List<OptionCatalog.Match> catalogOneTypo(Catalog catalog, Data data, Cursor cursor) {
        return catalog.catalog.completeWithTypos(cursor.of(data.typos), LIMIT, option -> false);
    }

    @Benchmark
    public List<Lookup.LookupResult> luceneOneTypo(Fuzzy fuzzy, Data data, Cursor cursor) throws IOException {
        return fuzzy.lookup.lookup(cursor.of(data.typos), false, LIMIT);
    }

    static InputIterator inputs(List<SyntheticCatalog.Option> options) {
        Iterator<SyntheticCatalog.Option> it = options.iterator();
        return new InputIterator() {
            private long weight;

            @Override
            public BytesRef next() {
                if (!it.hasNext()) {
                    return null;
                }
                SyntheticCatalog.Option option = it.next();
                weight = (long) option.weight();
                return new BytesRef(Folding.fold(option.text()).getBytes(StandardCharsets.UTF_8));
            }

            @Override
            public long weight() {
                return weight;
            }

            @Override
            public BytesRef payload() {
                return null;
            }

            @Override
            public boolean hasPayloads() {
                return false;
            }

            @Override
            public Set<BytesRef> contexts() {
                return null;
            }

            @Override
            public boolean hasContexts() {
                return false;
            }
        };
    }
}
