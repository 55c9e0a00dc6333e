package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.autocomplete.server.tenant.Tenant;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changed tenant files are picked up by a running server within two seconds: tenant.yaml under concurrent
 * load (each response entirely old or entirely new), engine JARs, invalid changes (the old tenant keeps
 * serving), new and removed tenant directories; requests in flight finish on the old engines, which are
 * closed after them.
 */
class HotReloadTest {

    private static final long RELOAD_MILLIS = 2000;

    static final String SHOP_YAML = """
            display_name: Shop
            products:
              - id: 55555555-5555-4555-8555-555555555555
                slug: store
                engine_budget_ms: 5000
                prompt: Buy %1$s
                intents:
                  - name: buy
                    phrases: [Buy]
                    params:
                      - type: item
                        label: item
                        required: true
                        options: [%1$s 1, %1$s 2, %1$s 3, %1$s 4, %1$s 5]
            """;

    @TempDir
    Path temp;

    /** Writes the shop tenant whose prompt and options all carry {@code generation}. */
    private static void writeShop(Path tenants, String generation) throws java.io.IOException {
        Files.createDirectories(tenants.resolve("shop"));
        Files.writeString(tenants.resolve("shop/tenant.yaml"), SHOP_YAML.formatted(generation));
    }

    @Test
    void changed_options_under_concurrent_load_never_fail_a_request_and_never_mix_old_and_new() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        writeShop(tenants, "Old");
        String key = TestTenants.createKey(tenants, "shop", "public", "store");
        try (AutocompleteServer server = TestServers.start(tenants);
                ExecutorService pool = Executors.newFixedThreadPool(8)) {
            ApiClient api = new ApiClient(server.port());
            AtomicBoolean running = new AtomicBoolean(true);
            ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
            List<Future<Integer>> clients = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                clients.add(pool.submit(() -> {
                    int sent = 0;
                    while (running.get()) {
                        ApiClient.Reply reply = api.suggest(key, envelope(sent % 2 == 0 ? "" : "Buy "));
                        sent++;
                        assertEquals(200, reply.status(), reply.raw());
                        seen.add(generation(reply));
                    }
                    return sent;
                }));
            }
            Thread.sleep(300);
            long changedAt = System.nanoTime();
            writeShop(tenants, "New");
            await(() -> seen.contains("New"), "new options served");
            long millis = (System.nanoTime() - changedAt) / 1_000_000;
            Thread.sleep(300);
            running.set(false);
            int total = 0;
            for (Future<Integer> client : clients) {
                total += client.get();
            }
            assertTrue(millis <= RELOAD_MILLIS, "reload took " + millis + " ms");
            assertTrue(seen.contains("Old"), "old options were served before the change");
            assertTrue(total > 50, "only " + total + " requests");
            assertEquals(1, server.tenants().reloads());
        }
    }

    /** "Old" or "New" when every prompt and option of a reply belongs to one version; fails otherwise. */
    private static String generation(ApiClient.Reply reply) {
        List<String> texts = new ArrayList<>(reply.options("item"));
        reply.data().path("suggestions").forEach(s -> {
            if (s.path("type").asText().equals("placeholder")) {
                texts.add(s.path("text").asText().replace("Buy ", ""));
            }
        });
        assertFalse(texts.isEmpty(), reply.raw());
        boolean old = texts.stream().allMatch(t -> t.startsWith("Old"));
        boolean fresh = texts.stream().allMatch(t -> t.startsWith("New"));
        assertTrue(old || fresh, "mixed versions in one response: " + reply.raw());
        return old ? "Old" : "New";
    }

    @Test
    void an_invalid_change_keeps_the_old_tenant_serving_and_is_reported_until_fixed() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        writeShop(tenants, "Old");
        String key = TestTenants.createKey(tenants, "shop", "public", "store");
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            Files.writeString(
                    tenants.resolve("shop/tenant.yaml"),
                    SHOP_YAML.formatted("Broken").replace("label: item", "label: item\n            engine: nowhere"));
            await(() -> server.tenants().failedReloads() == 1, "the failed reload is counted");
            String problems = server.tenants().problems().toString();
            assertTrue(problems.contains("shop/tenant.yaml") && problems.contains("nowhere"), problems);
            ApiClient.Reply old = api.suggest(key, envelope("Buy "));
            assertEquals(200, old.status(), old.raw());
            assertEquals("Old", generation(old));
            ApiClient management = ApiClient.management(server.managementPort());
            ApiClient.Reply health = management.get("/observe/health");
            assertTrue(
                    health.raw().contains("problems_of_last_change_not_loaded")
                            && health.raw().contains("shop/tenant.yaml"),
                    health.raw());
            ApiClient.Reply metrics = management.get("/observe/metrics");
            assertTrue(metrics.raw().contains("autocomplete_tenant_reloads_total{result=\"failed\"} 1"), metrics.raw());

            Files.writeString(tenants.resolve("shop/tenant.yaml"), SHOP_YAML.formatted("New"));
            await(() -> generation(api.suggest(key, envelope("Buy "))).equals("New"), "the fixed file is served");
            assertEquals(List.of(), server.tenants().problems());
        }
    }

    @Test
    void a_replaced_engine_jar_is_loaded_in_a_new_class_loader() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        EngineIsolationTest.addTenant(
                tenants,
                "alpha",
                EngineIsolationTest.engineJar("autocomplete.test.libAEngineJar"),
                "11111111-1111-4111-8111-111111111111",
                "library-probe",
                "");
        String key = TestTenants.createKey(tenants, "alpha", "public", "probe");
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            assertEquals("commons-csv " + EngineIsolationTest.PREVIOUS_CSV, probe(api.suggest(key, envelope(""))));
            Path engines = tenants.resolve("alpha/engines");
            try (var jars = Files.list(engines)) {
                for (Path jar : jars.toList()) {
                    Files.delete(jar);
                }
            }
            Path next = EngineIsolationTest.engineJar("autocomplete.test.libBEngineJar");
            Files.copy(next, engines.resolve(next.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            await(
                    () -> probe(api.suggest(key, envelope("")))
                            .equals("commons-csv " + EngineIsolationTest.CURRENT_CSV),
                    "the new JAR serves");
        }
    }

    @Test
    void requests_in_flight_finish_on_the_old_engine_which_is_closed_after_them() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path engines = Files.createDirectories(tenants.resolve("faulty/engines"));
        Files.copy(EngineIsolationTest.engineJar("autocomplete.test.faultyEngineJar"), engines.resolve("faulty.jar"));
        String yaml = """
                display_name: Faulty
                products:
                  - id: 33333333-3333-4333-8333-333333333333
                    slug: flaky
                    engine_budget_ms: %d
                    prompt: Find
                    intents:
                      - name: find
                        phrases: [Find]
                        params:
                          - type: thing
                            required: true
                            engine: faulty
                """;
        // "Find slow" meets the slow fault twice (a span match, then options): about four seconds within the budget.
        Files.writeString(tenants.resolve("faulty/tenant.yaml"), yaml.formatted(8000));
        String key = TestTenants.createKey(tenants, "faulty", "public", "flaky");
        Path closed = tenants.resolve("faulty/.closed-flaky");
        try (AutocompleteServer server = TestServers.start(tenants);
                ExecutorService pool = Executors.newSingleThreadExecutor()) {
            ApiClient api = new ApiClient(server.port());
            Tenant before = server.tenants().tenant("faulty").orElseThrow();
            Future<ApiClient.Reply> slow = pool.submit(() -> api.suggest(key, envelope("Find slow")));
            await(() -> Files.exists(tenants.resolve("faulty/.slow-flaky")), "the slow request reached the engine");
            Files.writeString(tenants.resolve("faulty/tenant.yaml"), yaml.formatted(7000));
            await(() -> server.tenants().tenant("faulty").orElseThrow() != before, "the new tenant is swapped in");
            assertFalse(slow.isDone(), "the slow request was still running at the swap");
            assertFalse(Files.exists(closed), "the old engine was closed under a running request");
            ApiClient.Reply reply = slow.get();
            assertEquals(200, reply.status(), reply.raw());
            // The old engine's own answer (the param it serves, active: no fruit is called "slow"), not the fallback.
            assertEquals(List.of("thing"), reply.suggestionTypes(), reply.raw());
            await(() -> Files.exists(closed), "the old engine is closed once its request finished");
        }
    }

    @Test
    void tenant_directories_added_and_removed_at_run_time_are_served_and_unloaded() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            writeShop(tenants, "Old");
            String key = TestTenants.createKey(tenants, "shop", "public", "store");
            await(() -> api.suggest(key, envelope("Buy ")).status() == 200, "the new tenant serves");

            TestTenants.deleteTree(tenants.resolve("shop"));
            await(() -> server.tenants().tenant("shop").isEmpty(), "the removed tenant is unloaded");
            await(() -> api.suggest(key, envelope("Buy ")).status() == 401, "its keys are gone too");
            assertTrue(server.tenants().tenant("demo").isPresent());
        }
    }

    @Test
    void a_tenant_directory_that_never_loaded_is_said_removed_and_its_problems_cleared() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        try (CapturedLog log = CapturedLog.of("dev.autocomplete.server.tenant.TenantRegistry");
                AutocompleteServer server = TestServers.start(tenants)) {
            Files.createDirectories(tenants.resolve("broken"));
            Files.writeString(tenants.resolve("broken/tenant.yaml"), "products: nope\n");
            await(() -> server.tenants().problems().toString().contains("broken/tenant.yaml"), "its problem shows");

            TestTenants.deleteTree(tenants.resolve("broken"));
            await(() -> !server.tenants().problems().toString().contains("broken"), "its problem is cleared");
            await(
                    () -> log.messages().stream().anyMatch(m -> m.startsWith("Tenant directory removed: broken")),
                    "the removal is logged: " + log.messages());
        }
    }

    /** The first option of the library probe's param: the version of the library it runs with. */
    private static String probe(ApiClient.Reply reply) {
        List<String> options = reply.options("probe");
        return options.isEmpty() ? reply.raw() : options.getFirst();
    }

    /** Waits up to the reload bound for a condition, checking often. */
    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + RELOAD_MILLIS * 1_000_000;
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(20);
        }
        fail("not within " + RELOAD_MILLIS + " ms: " + what);
    }
}
