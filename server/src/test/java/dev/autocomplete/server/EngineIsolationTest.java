package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two tenants drop in engine JARs that bundle two versions of commons-csv (the server itself carries a
 * third copy, for the catalog engine); each engine sees its own version while both serve at once, and
 * none can load the server's classes.
 */
class EngineIsolationTest {

    static final String PREVIOUS_CSV = "1.10.0";
    static final String CURRENT_CSV = "1.14.1";

    @TempDir
    Path temp;

    static Path engineJar(String property) {
        String path = System.getProperty(property);
        assertTrue(
                path != null && path.endsWith(".jar") && Files.isRegularFile(Path.of(path)),
                "the test engine JARs must be built first; run the tests with 'mvn verify' (got " + path + ")");
        return Path.of(path);
    }

    /**
     * Adds a tenant with one product, {@code probe} (phrase {@code Probe}), whose one required param, {@code probe},
     * is served by the engine {@code engine} in {@code jar}; {@code paramKeys} are more keys of that param (YAML).
     */
    static void addTenant(Path tenants, String id, Path jar, String productId, String engine, String paramKeys)
            throws Exception {
        Path engines = Files.createDirectories(tenants.resolve(id).resolve("engines"));
        Files.copy(jar, engines.resolve(jar.getFileName()));
        Files.writeString(
                tenants.resolve(id).resolve("tenant.yaml"), """
                display_name: %s
                products:
                  - id: %s
                    slug: probe
                    prompt: Probe
                    intents:
                      - name: probe
                        phrases: [Probe]
                        params:
                          - type: probe
                            required: true
                            engine: %s
                %s""".formatted(id, productId, engine, paramKeys.indent(12)));
    }

    @Test
    void two_tenants_each_run_their_own_version_of_one_library_at_the_same_time() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        addTenant(
                tenants,
                "alpha",
                engineJar("autocomplete.test.libAEngineJar"),
                "11111111-1111-4111-8111-111111111111",
                "library-probe",
                "values: one,two");
        addTenant(
                tenants,
                "beta",
                engineJar("autocomplete.test.libBEngineJar"),
                "22222222-2222-4222-8222-222222222222",
                "library-probe",
                "values: three");
        String alphaKey = TestTenants.createKey(tenants, "alpha", "public", "probe");
        String betaKey = TestTenants.createKey(tenants, "beta", "public", "probe");

        try (AutocompleteServer server = TestServers.start(tenants);
                ExecutorService pool = Executors.newFixedThreadPool(8)) {
            assertTrue(
                    server.tenants().tenant("alpha").isPresent()
                            && server.tenants().tenant("beta").isPresent(),
                    server.tenants().problems().toString());
            ApiClient api = new ApiClient(server.port());
            List<Future<ApiClient.Reply>> alpha = new ArrayList<>();
            List<Future<ApiClient.Reply>> beta = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                alpha.add(pool.submit(() -> api.suggest(alphaKey, envelope("Probe "))));
                beta.add(pool.submit(() -> api.suggest(betaKey, envelope("Probe "))));
            }
            for (Future<ApiClient.Reply> reply : alpha) {
                assertProbe(reply.get(), PREVIOUS_CSV, List.of("one", "two"));
            }
            for (Future<ApiClient.Reply> reply : beta) {
                assertProbe(reply.get(), CURRENT_CSV, List.of("three"));
            }
        }
    }

    @Test
    void an_engine_gets_class_not_found_for_server_classes_and_server_libraries() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        addTenant(
                tenants,
                "alpha",
                engineJar("autocomplete.test.libAEngineJar"),
                "11111111-1111-4111-8111-111111111111",
                "library-probe",
                "");
        String key = TestTenants.createKey(tenants, "alpha", "public", "probe");
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient.Reply reply = new ApiClient(server.port()).suggest(key, envelope("Probe "));
            assertEquals(200, reply.status(), reply.raw());
            List<String> options = reply.options("probe");
            for (String serverClass : List.of(
                    "dev.autocomplete.server.Main",
                    "com.fasterxml.jackson.databind.ObjectMapper",
                    "io.helidon.webserver.WebServer")) {
                assertTrue(options.contains(serverClass + ": ClassNotFoundException"), options.toString());
            }
        }
    }

    private static void assertProbe(ApiClient.Reply reply, String csvVersion, List<String> values) {
        assertEquals(200, reply.status(), reply.raw());
        List<String> options = reply.options("probe");
        assertEquals("commons-csv " + csvVersion, options.getFirst(), reply.raw());
        assertEquals(values, options.subList(2, 2 + values.size()), reply.raw());
    }
}
