package dev.autocomplete.engine.catalog;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.autocomplete.bench.SyntheticCatalog;
import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineContext;

/**
 * Load time and heap of a million-option catalog, loaded the way a tenant loads it: a CSV file named by a
 * catalog product's config, through {@link CatalogEngineFactory}. Lives in the engine's package to read
 * the catalog's own size estimate. Usage: {@code CatalogScale repoRoot [options] [runs]}.
 */
public final class CatalogScale {

    private CatalogScale() {
    }

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Path dir = Files.createTempDirectory("autocomplete-scale");
        Path csv = dir.resolve("places.csv");
        SyntheticCatalog.write(SyntheticCatalog.generate(repo, size), csv);
        Map<String, Object> config = Map.of(
                "catalogs", Map.of("places", Map.of("file", "places.csv")),
                "intents", List.of(Map.of("name", "go", "phrases", List.of("Go to"),
                        "params", List.of(Map.of("type", "place", "required", true, "catalog", "places")))));
        EngineContext context = new EngineContext("bench", "places", "en", dir, ConfigTree.of(config));
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf(Locale.ROOT, "Catalog of %,d options from %s (%,d bytes of CSV)%n", size,
                csv.getFileName(), Files.size(csv));
        for (int run = 1; run <= runs; run++) {
            long before = usedAfterGc(memory);
            long start = System.nanoTime();
            long cpuStart = threads.getCurrentThreadCpuTime();
            Engine engine = new CatalogEngineFactory().create(context);
            long millis = (System.nanoTime() - start) / 1_000_000;
            long cpuMillis = (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000;
            long after = usedAfterGc(memory);
            OptionCatalog catalog = ((CatalogEngine) engine).model().intents().getFirst().params().getFirst().catalog();
            System.out.printf(Locale.ROOT, "run %d: load %,d ms wall, %,d ms CPU of the loading thread "
                    + "(load average %.1f); heap retained %.1f bytes/option (GC-measured), %.1f bytes/option "
                    + "(catalog arrays)%n", run, millis, cpuMillis,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                    (double) (after - before) / size, (double) catalog.heapBytes() / size);
            java.lang.ref.Reference.reachabilityFence(engine);
            engine = null;
            catalog = null;
            List<OptionCatalog.Entry> entries = SyntheticCatalog.generate(repo, size).stream()
                    .map(o -> new OptionCatalog.Entry(o.text(), o.weight(), List.of())).toList();
            start = System.nanoTime();
            OptionCatalog direct = new OptionCatalog(entries);
            System.out.printf(Locale.ROOT, "       of which building the index from parsed entries: %,d ms (%d)%n",
                    (System.nanoTime() - start) / 1_000_000, direct.size());
        }
        Files.delete(csv);
        Files.delete(dir);
    }

    private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
