package dev.autocomplete.index;

import dev.autocomplete.bench.SyntheticCatalog;
import dev.autocomplete.server.catalogs.CatalogSeeds;
import dev.autocomplete.server.catalogs.SeedOption;
import dev.autocomplete.spi.ConfigTree;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Load time and heap of a million-option catalog, loaded the way a tenant without a store loads it: a CSV file
 * named under the tenant's {@code catalogs}, read as its seed ({@link CatalogSeeds}), then indexed. Lives in the
 * index's package to read its own size estimate. Usage: {@code CatalogScale repoRoot [options] [runs]}.
 */
public final class CatalogScale {

    private CatalogScale() {}

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Path dir = Files.createTempDirectory("autocomplete-scale");
        Path csv = dir.resolve("places.csv");
        List<SyntheticCatalog.Option> options = SyntheticCatalog.distinct(SyntheticCatalog.generate(repo, size));
        SyntheticCatalog.write(options, csv);
        ConfigTree declaration = ConfigTree.at("catalogs.places", Map.of("file", "places.csv"));
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf(
                Locale.ROOT,
                "Catalog of %,d options from %s (%,d bytes of CSV)%n",
                size,
                csv.getFileName(),
                Files.size(csv));
        for (int run = 1; run <= runs; run++) {
            long before = usedAfterGc(memory);
            long start = System.nanoTime();
            long cpuStart = threads.getCurrentThreadCpuTime();
            long allocatedStart = allocated(threads);
            LiveOptions catalog = LiveOptions.of(CatalogSeeds.read(declaration, dir, "en").stream()
                    .map(SeedOption::entry)
                    .toList());
            long millis = (System.nanoTime() - start) / 1_000_000;
            long cpuMillis = (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000;
            long allocatedMegabytes = (allocated(threads) - allocatedStart) >> 20;
            long after = usedAfterGc(memory);
            System.out.printf(
                    Locale.ROOT,
                    "run %d: load %,d ms wall, %,d ms CPU of the loading thread "
                            + "(load average %.1f; %,d MB allocated); heap retained %.1f bytes/option (GC-measured), %.1f bytes/option "
                            + "(catalog arrays)%n",
                    run,
                    millis,
                    cpuMillis,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                    allocatedMegabytes,
                    (double) (after - before) / size,
                    (double) catalog.heapBytes() / size);
            List<CatalogEntry> entries = options.stream()
                    .map(o -> new CatalogEntry(o.text(), o.weight()))
                    .toList();
            // 1% pending, as in LiveLookupBenchmark: what the delta and the deletions add to the same snapshot.
            long withoutPending = usedAfterGc(memory);
            LiveOptions pending = LiveLookupBenchmark.withPending(catalog, entries, size / 100, new Random(11));
            long withPending = usedAfterGc(memory);
            System.out.printf(
                    Locale.ROOT,
                    "       with 1%% pending (%,d updated, so in the delta, and %,d deleted): "
                            + "heap retained %.1f bytes/option (GC-measured: the run's figure plus what the pending snapshot "
                            + "adds), %.1f bytes/option (arrays); folding it: %s%n",
                    size / 200,
                    size / 200,
                    (double) (after - before + withPending - withoutPending) / size,
                    (double) pending.heapBytes() / size,
                    foldMillis(pending));
            java.lang.ref.Reference.reachabilityFence(catalog);
            java.lang.ref.Reference.reachabilityFence(pending);
            catalog = null;
            pending = null;
            start = System.nanoTime();
            OptionCatalog direct = new OptionCatalog(entries);
            System.out.printf(
                    Locale.ROOT,
                    "       of which building the index from parsed entries: %,d ms (%d)%n",
                    (System.nanoTime() - start) / 1_000_000,
                    direct.size());
            if (run == 1) {
                System.out.println("       where the index's arrays go (bytes/option):");
                direct.heapBreakdown()
                        .forEach((part, bytes) ->
                                System.out.printf(Locale.ROOT, "         %-36s %6.2f%n", part, (double) bytes / size));
            }
        }
        attributesHeap(options, memory);
        Files.delete(csv);
        Files.delete(dir);
    }

    /**
     * What two attributes an option (a team among 8, a country among 200) add to the index: the same options built
     * with and without them, retained heap measured by the GC, in one run.
     */
    private static void attributesHeap(List<SyntheticCatalog.Option> options, MemoryMXBean memory) throws Exception {
        List<CatalogEntry> plain = new java.util.ArrayList<>(options.size());
        List<CatalogEntry> attributed = new java.util.ArrayList<>(options.size());
        for (int i = 0; i < options.size(); i++) {
            plain.add(new CatalogEntry(options.get(i).text(), options.get(i).weight()));
            attributed.add(new CatalogEntry(
                    options.get(i).text(),
                    List.of(),
                    options.get(i).weight(),
                    Map.of(),
                    AttributesBenchmark.attributes(i)));
        }
        for (int run = 1; run <= 3; run++) {
            long before = usedAfterGc(memory);
            LiveOptions without = LiveOptions.of(plain);
            long withoutBytes = usedAfterGc(memory) - before;
            java.lang.ref.Reference.reachabilityFence(without);
            without = null;
            before = usedAfterGc(memory);
            LiveOptions with = LiveOptions.of(attributed);
            long withBytes = usedAfterGc(memory) - before;
            System.out.printf(
                    Locale.ROOT,
                    "attributes run %d: two attributes an option add %.1f bytes/option"
                            + " (GC-measured: %.1f with, %.1f without; arrays: %.1f)%n",
                    run,
                    (double) (withBytes - withoutBytes) / options.size(),
                    (double) withBytes / options.size(),
                    (double) withoutBytes / options.size(),
                    (double) with.heapBytes() / options.size());
            java.lang.ref.Reference.reachabilityFence(with);
        }
    }

    /** A fold's wall time and the folding thread's CPU time, as "W ms wall, C ms CPU". */
    private static String foldMillis(LiveOptions options) {
        var threads = ManagementFactory.getThreadMXBean();
        long start = System.nanoTime();
        long cpuStart = threads.getCurrentThreadCpuTime();
        LiveOptions folded = options.folded();
        long cpuMillis = (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000;
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (folded.size() != options.size()) {
            throw new IllegalStateException("a fold changed the options");
        }
        return String.format(Locale.ROOT, "%,d ms wall, %,d ms CPU", millis, cpuMillis);
    }

    /**
     * What the loading thread has allocated, in bytes: steadier than its CPU time on a shared machine, where
     * touching fresh heap pages (page faults and zeroing) is much of a load's cost and its price swings.
     */
    private static long allocated(java.lang.management.ThreadMXBean threads) {
        return ((com.sun.management.ThreadMXBean) threads).getCurrentThreadAllocatedBytes();
    }

    private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
