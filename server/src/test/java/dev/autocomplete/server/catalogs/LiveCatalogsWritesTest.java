package dev.autocomplete.server.catalogs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.index.LiveOptions;
import dev.autocomplete.server.CapturedLog;
import dev.autocomplete.server.store.CatalogRef;
import dev.autocomplete.server.store.CatalogStore;
import dev.autocomplete.server.store.JdbcCatalogStore;
import dev.autocomplete.server.store.OptionPatch;
import dev.autocomplete.server.store.OptionRecord;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write through {@link LiveCatalogs} is applied from the changes its own transaction returned, not read back from
 * the change log; a change another writer put in between is not skipped (on a real SQLite store).
 */
class LiveCatalogsWritesTest {

    /** Runs each task on a thread of its own (the common pool has one thread on two cores). */
    private static final Executor OWN_THREAD = task -> Thread.ofPlatform().start(task);

    private static final CatalogRef CITIES = new CatalogRef("t", "cities");

    private static OptionRecord city(String id, String text) {
        return new OptionRecord(id, text, List.of(), 1, Map.of(), Map.of());
    }

    private static boolean holds(LiveCatalogs catalogs, String text) {
        LiveOptions options = catalogs.find(CITIES).orElseThrow().options();
        return options.exactMatch(TextFolding.fold(text), List.of()) >= 0;
    }

    @Test
    void aSeededCatalogIsBuiltOnceNotAgainForItsSeedsOwnChange(@TempDir Path dir) {
        CatalogStore store = JdbcCatalogStore.sqlite(dir.resolve("catalogs.db"));
        try (LiveCatalogs catalogs = new LiveCatalogs(store)) {
            LiveCatalog live = catalogs.open(
                    CITIES, new LiveCatalogs.Seed("test", () -> List.of(city("1", "Paris"), city("2", "Lyon")), null));
            LiveOptions built = live.options();
            catalogs.catchUp(); // reads the seed's replace from the change log
            assertSame(built, live.options(), "the index built at the open is kept");
            assertEquals(0, live.generation());

            // Changes after the open are applied, the next replace too.
            catalogs.upsert(CITIES, List.of(city("3", "Nice")));
            store.replace(CITIES, List.of(city("4", "Lille")).iterator());
            catalogs.catchUp();
            assertTrue(holds(catalogs, "Lille") && !holds(catalogs, "Paris") && !holds(catalogs, "Nice"));
            assertEquals(2, live.generation());
        }
    }

    @Test
    void writesApplyTheirOwnChangesAndNeverSkipAnotherWritersChange(@TempDir Path dir) {
        CatalogStore store = JdbcCatalogStore.sqlite(dir.resolve("catalogs.db"));
        try (LiveCatalogs catalogs = new LiveCatalogs(store)) {
            catalogs.open(CITIES, new LiveCatalogs.Seed("test", () -> List.of(city("1", "Paris")), null));
            catalogs.catchUp();
            long before = catalogs.directlyApplied();

            catalogs.upsert(CITIES, List.of(city("2", "Lyon"), city("3", "Nice")));
            catalogs.patch(CITIES, List.of(new OptionPatch("3", "Nizza", null, null, null, null)));
            catalogs.delete(CITIES, "2");
            assertEquals(before + 3, catalogs.directlyApplied(), "each write applied from its own changes");
            assertTrue(holds(catalogs, "Nizza") && !holds(catalogs, "Nice") && !holds(catalogs, "Lyon"));

            // Another writer of the same store (a CLI import, another replica): its change comes first.
            store.upsert(CITIES, List.of(city("4", "Lille")));
            catalogs.upsert(CITIES, List.of(city("5", "Brest")));
            assertEquals(before + 3, catalogs.directlyApplied(), "a gap is read from the change log");
            assertTrue(holds(catalogs, "Lille") && holds(catalogs, "Brest") && holds(catalogs, "Paris"));
        }
    }

    @Test
    void pendingChangesPastAThousandAreFoldedInTheBackgroundAndTheFoldIsLogged(@TempDir Path dir) throws Exception {
        CatalogStore store = JdbcCatalogStore.sqlite(dir.resolve("catalogs.db"));
        try (CapturedLog log = CapturedLog.of(LiveCatalog.class.getName());
                LiveCatalogs catalogs = new LiveCatalogs(store)) {
            catalogs.open(CITIES, new LiveCatalogs.Seed("test", () -> List.of(city("1", "Paris")), null));
            catalogs.catchUp();
            catalogs.upsert(
                    CITIES,
                    java.util.stream.IntStream.range(0, 1_200)
                            .mapToObj(i -> city("c" + i, "City " + i))
                            .toList());
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            while (log.messages().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            List<String> logged = log.messages();
            assertEquals(1, logged.size(), "one fold, logged: " + logged);
            // The count is formatted in the JVM's locale (1,201 or 1.201).
            assertTrue(
                    logged.get(0)
                            .matches("catalog t/cities: pending changes folded into one index of 1\\D?201 options"
                                    + " in .+ ms \\(\\d+ writes arrived meanwhile, applied again\\)"),
                    logged.get(0));
            LiveOptions options = catalogs.find(CITIES).orElseThrow().options();
            assertFalse(options.wantsFold(), "nothing pending after the fold");
            assertEquals(1_201, options.size());
            assertTrue(holds(catalogs, "City 1199") && holds(catalogs, "Paris"));
        }
    }

    @Test
    void anotherCatalogsWriteIsServedWhileAReplacedCatalogsIndexIsBuilt(@TempDir Path dir) throws Exception {
        CatalogRef bulk = new CatalogRef("t", "bulk");
        CatalogStore store = JdbcCatalogStore.sqlite(dir.resolve("catalogs.db"));
        // The real store, with the read that builds the replaced catalog's new index held until released.
        AtomicBoolean armed = new AtomicBoolean();
        CountDownLatch building = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CatalogStore held = (CatalogStore) Proxy.newProxyInstance(
                CatalogStore.class.getClassLoader(), new Class<?>[] {CatalogStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("forEach") && bulk.equals(args[0]) && armed.get()) {
                        building.countDown();
                        assertTrue(release.await(30, TimeUnit.SECONDS));
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        try (LiveCatalogs catalogs = new LiveCatalogs(held)) {
            catalogs.open(CITIES, new LiveCatalogs.Seed("test", () -> List.of(city("1", "Paris")), null));
            LiveCatalog live =
                    catalogs.open(bulk, new LiveCatalogs.Seed("test", () -> List.of(city("o", "Old")), null));
            armed.set(true);
            CompletableFuture<Long> replace = CompletableFuture.supplyAsync(
                    () -> catalogs.replace(
                            bulk,
                            List.of(city("n1", "New one"), city("n2", "New two"))
                                    .iterator()),
                    OWN_THREAD);
            assertTrue(building.await(30, TimeUnit.SECONDS), "the new index is being built");

            // Another catalog's write is served now, not after the build (which held every catalog's writes).
            CompletableFuture.runAsync(() -> catalogs.upsert(CITIES, List.of(city("2", "Lyon"))), OWN_THREAD)
                    .get(10, TimeUnit.SECONDS);
            assertTrue(holds(catalogs, "Lyon"));
            // A write to the catalog being rebuilt waits for its new index, and goes in after it.
            CompletableFuture<Integer> sameCatalog = CompletableFuture.supplyAsync(
                    () -> catalogs.upsert(bulk, List.of(city("n3", "New three"))), OWN_THREAD);
            Thread.sleep(300);
            assertFalse(replace.isDone() || sameCatalog.isDone());
            assertEquals(1, live.options().size(), "the old index serves meanwhile");

            release.countDown();
            assertEquals(2, replace.get(30, TimeUnit.SECONDS));
            assertEquals(1, sameCatalog.get(30, TimeUnit.SECONDS));
            LiveOptions options = live.options();
            assertEquals(3, options.size());
            assertTrue(options.exactMatch(TextFolding.fold("New three"), List.of()) >= 0);
            assertTrue(options.exactMatch(TextFolding.fold("Old"), List.of()) < 0);
        }
    }

    @Test
    void openingALargeCatalogHoldsNoOtherCatalogsWritesAndMissesNoChangeMadeMeanwhile(@TempDir Path dir)
            throws Exception {
        CatalogRef bulk = new CatalogRef("t", "bulk");
        CatalogStore store = JdbcCatalogStore.sqlite(dir.resolve("catalogs.db"));
        CountDownLatch building = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // The real store, with the opened catalog's index held once built (its records read) until released.
        CatalogStore held = (CatalogStore) Proxy.newProxyInstance(
                CatalogStore.class.getClassLoader(), new Class<?>[] {CatalogStore.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("forEach") && bulk.equals(args[0]) && building.getCount() > 0) {
                        building.countDown();
                        assertTrue(release.await(30, TimeUnit.SECONDS));
                    }
                    return result;
                });
        try (LiveCatalogs catalogs = new LiveCatalogs(held)) {
            catalogs.open(CITIES, new LiveCatalogs.Seed("test", () -> List.of(city("1", "Paris")), null));
            CompletableFuture<LiveCatalog> opening = CompletableFuture.supplyAsync(
                    () -> catalogs.open(bulk, new LiveCatalogs.Seed("test", () -> List.of(city("s", "Seeded")), null)),
                    OWN_THREAD);
            assertTrue(building.await(30, TimeUnit.SECONDS), "the opened catalog's records are read");

            CompletableFuture.runAsync(() -> catalogs.upsert(CITIES, List.of(city("2", "Lyon"))), OWN_THREAD)
                    .get(10, TimeUnit.SECONDS);
            assertTrue(holds(catalogs, "Lyon"), "another catalog's write went through meanwhile");
            // Another writer changes the catalog being opened, and this process applies it (passing the catalog by).
            store.upsert(bulk, List.of(city("m", "Meanwhile")));
            catalogs.catchUp();

            release.countDown();
            LiveOptions options = opening.get(30, TimeUnit.SECONDS).options();
            assertTrue(options.exactMatch(TextFolding.fold("Seeded"), List.of()) >= 0);
            assertTrue(options.exactMatch(TextFolding.fold("Meanwhile"), List.of()) >= 0, "the change meanwhile is in");
        }
    }
}
