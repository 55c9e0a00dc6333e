package dev.autocomplete.index;

import dev.autocomplete.bench.SyntheticCatalog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * Top-10 option lookups through the index's {@link OptionLookup} (what serves catalog params) on a million synthesized places that each carry two attributes
 * (a team among 8 values, a country among 200), with no context and with a context boost by team, in the same run:
 * what a boost costs a lookup. The repository root comes from the system property {@code autocomplete.repo}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+AlwaysPreTouch"})
public class AttributesBenchmark {

    static final String[] TEAMS = {"Sales", "Support", "Engineering", "Finance", "Legal", "Design", "Ops", "People"};

    /** Two attributes for option {@code i}: a team among 8 and a country among 200. */
    static Map<String, List<String>> attributes(int i) {
        return Map.of("team", List.of(TEAMS[i % TEAMS.length]), "country", List.of("C" + (i * 7919 % 200)));
    }

    @State(Scope.Benchmark)
    public static class Data {
        LiveOptions live;
        String[] prefixes;
        Map<String, List<String>> boost = Map.of("team", List.of("Finance"));

        @Setup(Level.Trial)
        public void load() throws IOException {
            List<SyntheticCatalog.Option> options = SyntheticCatalog.distinct(
                    SyntheticCatalog.generate(Path.of(System.getProperty("autocomplete.repo", ".")), 1_000_000));
            List<CatalogEntry> entries = new ArrayList<>(options.size());
            for (int i = 0; i < options.size(); i++) {
                entries.add(new CatalogEntry(
                        options.get(i).text(), List.of(), options.get(i).weight(), Map.of(), attributes(i)));
            }
            live = LiveOptions.of(entries);
            prefixes = QueryMix.of(options).prefixes();
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

    @Benchmark
    public List<Integer> prefixWithoutBoost(Data data, Cursor cursor) {
        return OptionLookup.offer(data.live, new OptionLookup.Offer(cursor.of(data.prefixes), 10), List.of());
    }

    @Benchmark
    public List<Integer> prefixWithBoost(Data data, Cursor cursor) {
        return OptionLookup.offer(
                data.live,
                new OptionLookup.Offer(cursor.of(data.prefixes), 10, option -> false, Map.of(), data.boost),
                List.of());
    }
}
