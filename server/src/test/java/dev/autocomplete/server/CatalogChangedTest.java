package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.store.CatalogRef;
import dev.autocomplete.server.store.CatalogStore;
import dev.autocomplete.server.store.OptionRecord;
import dev.autocomplete.server.store.StoreHooks;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large write whose catalog is replaced meanwhile on every try is refused with {@code 409 CATALOG_CHANGED} and
 * nothing of it written, where it used to be written in one transaction that held every other catalog's writes.
 */
class CatalogChangedTest {

    @TempDir
    static Path temp;

    private static AutocompleteServer server;
    private static ApiClient api;
    private static String secret;

    @BeforeAll
    static void start() throws Exception {
        Path tenants = TestTenants.copyOfDemoWithCatalog(temp, "bulk");
        secret = TestTenants.createKey(tenants, "demo", "secret", null);
        ServerSettings settings = ServerSettings.read(null, Map.of())
                .with("127.0.0.1", 0, tenants)
                .withManagement("127.0.0.1", 0)
                .withDataDir(temp.resolve("data"));
        server = AutocompleteServer.start(settings);
        api = new ApiClient(server.port());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void a_large_post_whose_catalog_is_replaced_on_every_try_is_refused_with_nothing_written() throws Exception {
        AtomicInteger replaces = replacedOnEveryTry(round ->
                List.of(new OptionRecord("r" + round, "Replaced meanwhile", List.of(), 0, Map.of(), Map.of())));
        try {
            StringBuilder records = new StringBuilder();
            for (int i = 0; i < 10_000; i++) {
                records.append("{\"id\": \"u")
                        .append(i)
                        .append("\", \"text\": \"Upserted ")
                        .append(i)
                        .append("\"}\n");
            }
            assertRefused(
                    api.call("POST", "/api/catalogs/bulk/options", secret, records.toString(), "application/x-ndjson"));
            assertEquals(3, replaces.get(), "a replace met each of the three tries");
        } finally {
            StoreHooks.beforeSwitch(server.catalogs().store(), null);
        }
        ApiClient.Reply page = api.call("GET", "/api/catalogs/bulk/options?limit=10", secret, null, null);
        assertEquals(200, page.status(), page.raw());
        assertEquals(1, page.data().path("options").size(), page.raw());
        assertEquals("r3", page.data().path("options").path(0).path("id").asText(), "the last replace alone");
    }

    @Test
    void a_large_patch_whose_catalog_is_replaced_on_every_try_is_refused_with_nothing_written() throws Exception {
        StringBuilder records = new StringBuilder();
        StringBuilder patches = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            records.append("{\"id\": \"p")
                    .append(i)
                    .append("\", \"text\": \"Patched ")
                    .append(i)
                    .append("\"}\n");
            patches.append("{\"id\": \"p").append(i).append("\", \"weight\": 7}\n");
        }
        ApiClient.Reply put =
                api.call("PUT", "/api/catalogs/bulk/options", secret, records.toString(), "application/x-ndjson");
        assertEquals(200, put.status(), put.raw());
        // The same ids replaced meanwhile, so each try reads and merges them again, and meets another replace.
        AtomicInteger replaces = replacedOnEveryTry(round -> IntStream.range(0, 10_000)
                .mapToObj(i -> new OptionRecord("p" + i, "Round " + round + " " + i, List.of(), 0, Map.of(), Map.of()))
                .toList());
        try {
            assertRefused(api.call(
                    "PATCH", "/api/catalogs/bulk/options", secret, patches.toString(), "application/x-ndjson"));
            assertEquals(3, replaces.get(), "a replace met each of the three tries");
        } finally {
            StoreHooks.beforeSwitch(server.catalogs().store(), null);
        }
        ApiClient.Reply one = api.call("GET", "/api/catalogs/bulk/options/p42", secret, null, null);
        assertEquals(200, one.status(), one.raw());
        assertEquals("Round 3 42", one.data().path("text").asText(), "the last replace alone: " + one.raw());
        assertEquals(0, one.data().path("weight").asDouble(), "no patch merged into it: " + one.raw());
    }

    /**
     * Before a large write switches to its new version, another writer replaces the catalog (with {@code records} of
     * the round), on a thread of its own; the replace's own switch, when it is large too, is let through.
     */
    private static AtomicInteger replacedOnEveryTry(IntFunction<List<OptionRecord>> records) {
        CatalogStore store = server.catalogs().store();
        CatalogRef bulk = new CatalogRef("demo", "bulk");
        AtomicInteger replaces = new AtomicInteger();
        AtomicBoolean replacing = new AtomicBoolean();
        StoreHooks.beforeSwitch(store, () -> {
            if (!replacing.compareAndSet(false, true)) {
                return;
            }
            try {
                List<OptionRecord> round = records.apply(replaces.incrementAndGet());
                CompletableFuture.runAsync(() -> store.replace(bulk, round.iterator()))
                        .get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("the replace meanwhile waited", e);
            } finally {
                replacing.set(false);
            }
        });
        return replaces;
    }

    private static void assertRefused(ApiClient.Reply refused) {
        assertEquals(409, refused.status(), refused.raw());
        assertEquals("CATALOG_CHANGED", refused.errorCode());
        assertTrue(refused.raw().contains("nothing of it was written"), refused.raw());
    }
}
