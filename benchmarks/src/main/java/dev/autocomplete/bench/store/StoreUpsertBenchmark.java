package dev.autocomplete.bench.store;

import dev.autocomplete.server.store.CatalogRef;
import dev.autocomplete.server.store.CatalogStore;
import dev.autocomplete.server.store.JdbcCatalogStore;
import dev.autocomplete.server.store.OptionRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Durable upserts in batches of 1,000 records through the public store, in records a second: each batch one
 * acknowledged transaction (SQLite: WAL with synchronous=FULL; PostgreSQL: its defaults, fsync and synchronous
 * commit on). {@code insert}: new ids each batch; {@code update}: ids already stored, with new texts. PostgreSQL's
 * URL comes from {@code -Dautocomplete.bench.postgres} ({@code benchmarks/run store} starts a throwaway server).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 10)
public class StoreUpsertBenchmark {

    static final int BATCH = 1000;
    static final int UPDATED_IDS = 100_000;
    static final CatalogRef CATALOG = new CatalogRef("bench", "options");

    @Param({"sqlite", "postgres"})
    public String database;

    @Param({"insert", "update"})
    public String write;

    private Path directory;
    private CatalogStore store;
    private long batch;

    @Setup(Level.Trial)
    public void open() throws IOException {
        if (database.equals("sqlite")) {
            directory = Files.createTempDirectory("store-bench");
            store = JdbcCatalogStore.sqlite(directory.resolve("catalogs.db"));
        } else {
            String url = System.getProperty("autocomplete.bench.postgres");
            if (url == null) {
                throw new IllegalStateException("-Dautocomplete.bench.postgres=jdbc:postgresql://... is not set "
                        + "(benchmarks/run store sets it)");
            }
            store = JdbcCatalogStore.postgres(url, null, null);
        }
        // Every trial starts from the same catalog: the ids the update benchmark rewrites, nothing else.
        store.replace(
                CATALOG,
                Stream.iterate(0, i -> i + 1)
                        .limit(UPDATED_IDS)
                        .map(i -> new OptionRecord("u" + i, "Option " + i))
                        .iterator());
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int upsertBatch() {
        long n = batch++;
        List<OptionRecord> records = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            records.add(
                    write.equals("insert")
                            ? new OptionRecord(
                                    "n" + n + "-" + i,
                                    "New option " + n + " " + i,
                                    List.of("alias " + i),
                                    i,
                                    Map.of("fr", "Option nouvelle " + n + " " + i))
                            : new OptionRecord("u" + ((n * BATCH + i) % UPDATED_IDS), "Option " + (n * BATCH + i)));
        }
        return store.upsert(CATALOG, records).size();
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        store.close();
        if (directory != null) {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }
}
