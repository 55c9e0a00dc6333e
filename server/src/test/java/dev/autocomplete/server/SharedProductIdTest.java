package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.HotReloadTest.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A product id names one product of one tenant: a tenant whose product id another tenant already has is refused,
 * by {@code validate} and by the server (at start and when a tenant appears later), naming both tenants. Once the
 * tenant holding the id is removed, or reloaded with another id, the refused tenant is loaded at once.
 */
class SharedProductIdTest {

    private static final String SHARED_ID = "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    private static final String OTHER_ID = "0c9d8e7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f";
    private static final String TENANT = """
            display_name: %s
            products:
              - id: %s
                slug: shop
                intents:
                  - name: buy
                    phrases: [Buy]
                    params:
                      - type: item
                        options: [Shoes, Socks]
            """;

    @TempDir
    Path temp;

    private Path tenants(String... namesAndIds) throws Exception {
        Path tenants = Files.createDirectories(temp.resolve("tenants"));
        for (int i = 0; i < namesAndIds.length; i += 2) {
            write(tenants, namesAndIds[i], namesAndIds[i + 1]);
        }
        return tenants;
    }

    private static void write(Path tenants, String name, String productId) throws Exception {
        Path directory = Files.createDirectories(tenants.resolve(name));
        Files.writeString(directory.resolve("tenant.yaml"), TENANT.formatted(name, productId));
    }

    private static String refusal(String later, String earlier) {
        return later + "/tenant.yaml:3: products[0].id: product id " + SHARED_ID + " is already a product of tenant '"
                + earlier + "'; tenant '" + later + "' is not loaded";
    }

    @Test
    void validate_reports_the_later_tenant_naming_both() throws Exception {
        Path tenants = tenants("alpha", SHARED_ID, "beta", SHARED_ID, "gamma", OTHER_ID);

        TestTenants.Cli result = TestTenants.cli("validate", "--tenants", tenants.toString());

        assertEquals(1, result.exit(), result.out());
        assertTrue(
                result.err().contains(tenants.resolve(refusal("beta", "alpha")).toString()), result.err());
        assertFalse(result.err().contains("alpha/tenant.yaml"), "the first tenant keeps its id:\n" + result.err());
        assertFalse(result.err().contains("gamma/tenant.yaml"), result.err());
        assertTrue(result.err().contains("1 problem(s)"), result.err());
    }

    @Test
    void validate_accepts_tenants_with_their_own_product_ids() throws Exception {
        Path tenants = tenants("alpha", SHARED_ID, "beta", OTHER_ID);

        TestTenants.Cli result = TestTenants.cli("validate", "--tenants", tenants.toString());

        assertEquals(0, result.exit(), result.err());
    }

    @Test
    void the_server_refuses_the_later_tenant_at_start_and_one_that_appears_while_it_runs() throws Exception {
        Path tenants = tenants("alpha", SHARED_ID, "beta", SHARED_ID);

        try (ServerProcess server = ServerProcess.start(tenants, temp.resolve("server.log"), Map.of())) {
            server.awaitServing();
            ApiClient management = ApiClient.management(server.managementPort());
            JsonNode checks = management.get("/observe/health").json().path("checks");
            assertEquals("tenant:alpha", checks.get(0).path("name").asText(), checks.toString());
            assertEquals("UP", checks.get(0).path("status").asText(), checks.toString());
            assertEquals("tenant:beta", checks.get(1).path("name").asText(), checks.toString());
            assertEquals("DOWN", checks.get(1).path("status").asText(), checks.toString());
            // The console says what /ready answers load balancers, not only that the server serves (it said "Server UP"
            // beside a 503, an operator trial found).
            assertEquals(503, new ApiClient(server.port()).get("/ready").status());
            JsonNode console =
                    management.get("/admin/api/overview").json().path("data").path("server");
            assertFalse(console.path("ready").asBoolean(true), console.toString());
            assertEquals(
                    refusal("beta", "alpha"),
                    checks.get(1).path("data").path("problems").get(0).asText().replaceFirst(" \\(a product id .*", ""),
                    checks.toString());

            write(tenants, "delta", SHARED_ID);
            assertTrue(
                    server.awaitLog(
                            "product id " + SHARED_ID + " is already a product of tenant 'alpha'; tenant"
                                    + " 'delta' is not loaded",
                            30),
                    server.log());
        }
    }

    @Test
    void a_tenant_refused_for_a_product_id_loads_at_once_when_the_tenant_holding_it_is_removed() throws Exception {
        assertRefusedUntil((tenants, server, stillRefused) -> TestTenants.deleteTree(tenants.resolve("aaa-new")));
    }

    @Test
    void a_tenant_refused_for_a_product_id_loads_at_once_when_the_holder_takes_another_id() throws Exception {
        assertRefusedUntil((tenants, server, stillRefused) -> {
            // A reload that keeps the id frees nothing: supportdesk stays refused, and is not loaded in vain.
            Files.writeString(
                    tenants.resolve("aaa-new/tenant.yaml"),
                    TENANT.formatted("aaa-new", SHARED_ID).replace("Socks", "Boots"));
            await(() -> server.tenants().reloads() == 1, "aaa-new is reloaded");
            assertEquals(0, server.tenants().failedReloads());
            stillRefused.run();

            write(tenants, "aaa-new", OTHER_ID);
        });
    }

    /** What frees the product id supportdesk was refused for, while the server runs. */
    @FunctionalInterface
    private interface Freeing {
        void apply(Path tenants, AutocompleteServer server, Runnable stillRefused) throws Exception;
    }

    /**
     * Starts a server on tenants aaa-new and supportdesk with one product id, so that supportdesk is refused (its key
     * answers 503, /ready is 503, the problem names aaa-new); then, after {@code freeing}, supportdesk serves within
     * the reload bound, with nothing else changed, and every check is up.
     */
    private void assertRefusedUntil(Freeing freeing) throws Exception {
        Path tenants = tenants("aaa-new", SHARED_ID, "supportdesk", SHARED_ID);
        String key = TestTenants.createKey(tenants, "supportdesk", "public", "shop");

        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            Runnable refused = () -> assertRefused(server, api, key);
            refused.run();

            freeing.apply(tenants, server, refused);

            await(() -> api.suggest(key, envelope("Buy ")).status() == 200, "supportdesk serves");
            assertServing(server, api, "supportdesk");
        }
    }

    private static void assertRefused(AutocompleteServer server, ApiClient api, String key) {
        ApiClient.Reply refused = api.suggest(key, envelope("Buy "));
        assertEquals(503, refused.status(), refused.raw());
        assertTrue(refused.raw().contains("ENGINE_UNAVAILABLE"), refused.raw());
        assertEquals(503, api.get("/ready").status());
        assertTrue(
                server.tenants().problems().toString().contains("tenant 'aaa-new'"),
                server.tenants().problems().toString());
    }

    private static void assertServing(AutocompleteServer server, ApiClient api, String tenant) {
        assertEquals(List.of(), server.tenants().problems());
        assertEquals(200, api.get("/ready").status());
        JsonNode checks = ApiClient.management(server.managementPort())
                .get("/observe/health")
                .json()
                .path("checks");
        for (JsonNode check : checks) {
            assertEquals("UP", check.path("status").asText(), checks.toString());
        }
        assertTrue(checks.toString().contains("tenant:" + tenant), checks.toString());
    }
}
