package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records API's own body limit ({@code limits.catalog-body-bytes}), apart from the suggest limit: a catalog
 * write may be far larger than a suggest request, and one over its limit is refused whole.
 */
class CatalogLimitsTest {

    private static final int CATALOG_LIMIT = 200_000;

    @TempDir
    static Path temp;

    private static AutocompleteServer server;
    private static ApiClient api;
    private static String secret;
    private static String key;

    @BeforeAll
    static void start() throws Exception {
        Path tenants = TestTenants.copyOfDemoWithCatalog(temp, "bulk");
        secret = TestTenants.createKey(tenants, "demo", "secret", null);
        key = TestTenants.createKey(tenants, "demo", "public", "travel");
        ServerSettings settings = ServerSettings.read(
                        null, Map.of("AUTOCOMPLETE_LIMITS_CATALOG_BODY_BYTES", Integer.toString(CATALOG_LIMIT)))
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
    void a_write_under_the_catalog_limit_passes_where_a_suggest_body_of_its_size_is_refused() {
        String records = records(1_500); // about 100 KB: over the 64 KiB suggest limit, under the catalog limit
        assertEquals(
                200,
                api.call("POST", "/api/catalogs/bulk/options", secret, records, "application/x-ndjson")
                        .status());
        ApiClient.Reply suggest = api.post(
                "/api/suggest", key, "{\"pad\": \"" + "x".repeat(100_000) + "\"}", "application/json", Map.of());
        assertEquals(413, suggest.status());
    }

    @Test
    void a_write_over_the_catalog_limit_is_refused_and_nothing_of_it_applied() {
        ApiClient.Reply refused =
                api.call("PUT", "/api/catalogs/bulk/options", secret, records(4_000), "application/x-ndjson");
        assertEquals(413, refused.status(), refused.raw());
        assertEquals("PAYLOAD_TOO_LARGE", refused.errorCode());
        ApiClient.Reply page = api.call("GET", "/api/catalogs/bulk/options?limit=1000", secret, null, null);
        assertEquals(200, page.status());
        for (var option : page.data().path("options")) {
            assertEquals(false, option.path("id").asText().startsWith("big-3"), "a record of the refused write");
        }
    }

    private static String records(int count) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < count; i++) {
            body.append("{\"id\": \"big-")
                    .append(count)
                    .append('-')
                    .append(i)
                    .append("\", \"text\": \"Bulk item ")
                    .append(count)
                    .append(' ')
                    .append(i)
                    .append("\", \"weight\": 1}\n");
        }
        return body.toString();
    }
}
