package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.http.DemoPage;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo page's routes over HTTP: the bundled page and its assets, and the demo config that exists only
 * once demo keys are published. The page itself is driven in a real browser by web/test (see .ci/run).
 */
class DemoPageTest {

    @TempDir
    static Path temp;

    private static AutocompleteServer server;
    private static ApiClient api;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.start(TestTenants.copyOfDemo(temp));
        api = new ApiClient(server.port());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static ApiClient.Reply get(String path) {
        return api.send(
                HttpRequest.newBuilder(URI.create(api.base() + path)).GET().build());
    }

    @Test
    void the_root_serves_the_page_with_a_policy_that_allows_only_this_server() {
        ApiClient.Reply page = get("/");
        assertEquals(200, page.status());
        assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
        assertTrue(page.raw().contains("assets/demo.js"), "the page loads the bundle");
        String policy = page.header("Content-Security-Policy");
        assertTrue(policy.contains("default-src 'self'") && policy.contains("connect-src 'self'"), policy);
    }

    @Test
    void the_bundle_holds_the_official_client_and_no_address_of_another_host_is_loaded() {
        ApiClient.Reply bundle = get("/assets/demo.js");
        assertEquals(200, bundle.status());
        assertTrue(bundle.header("Content-Type").startsWith("text/javascript"), bundle.header("Content-Type"));
        assertTrue(bundle.raw().contains("magicx-aia"), "the vanilla client's class names are in the bundle");
        ApiClient.Reply css = get("/assets/demo.css");
        assertEquals(200, css.status());
        assertTrue(css.header("Content-Type").startsWith("text/css"));
    }

    @Test
    void unknown_or_malformed_asset_names_are_a_json_404() {
        for (String path : List.of("/assets/nothing.js", "/assets/..%2Findex.html", "/assets/.hidden")) {
            ApiClient.Reply reply = get(path);
            assertEquals(404, reply.status(), path);
            assertEquals("NOT_FOUND", reply.errorCode(), path);
        }
    }

    @Test
    void the_demo_config_exists_only_once_demo_keys_are_published() {
        ApiClient.Reply before = get("/demo/config.json");
        assertEquals(404, before.status());
        assertEquals("NOT_FOUND", before.errorCode());

        UUID travel = UUID.fromString("6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61");
        server.demoPage().publish(List.of(new DemoPage.DemoProduct("travel", travel, "pk_v1_example")));
        try {
            ApiClient.Reply after = get("/demo/config.json");
            assertEquals(200, after.status());
            assertEquals("no-store", after.header("Cache-Control"));
            assertEquals("/api/suggest", after.json().path("suggest_path").asText());
            assertEquals(2000, after.json().path("max_additional_context_bytes").asInt());
            assertEquals(
                    "travel", after.json().path("products").path(0).path("slug").asText());
            assertEquals(
                    travel.toString(),
                    after.json().path("products").path(0).path("id").asText());
            assertEquals(
                    "pk_v1_example",
                    after.json().path("products").path(0).path("public_key").asText());
        } finally {
            server.demoPage().publish(List.of());
        }
    }
}
