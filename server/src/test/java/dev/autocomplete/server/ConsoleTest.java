package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's JSON on the management listener: tenants with their catalogs, keys by id only, and the try-it key it
 * mints, which serves a tenant that is not the demo on the public port and is written nowhere.
 */
class ConsoleTest {

    @RegisterExtension
    static final DemoServer demo = new DemoServer().withTenant("lab", Map.of("lab/tenant.yaml", """
            display_name: Lab
            products:
              - id: 3a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d
                slug: shop
                prompt: Find
                intents:
                  - name: find
                    phrases: [Find]
                    params:
                      - type: colour
                        label: Colour
                        required: true
                        options: [Red, Green, Blue]
                        context_keys: [favourite_colour]
                        context_options: true
                        context_attributes:
                          shade: {from: user.taste.shade, mode: boost}
                          season: filter
              - id: 5c2d3e4f-6a7b-4c8d-9e0f-1a2b3c4d5e6f
                slug: plain
                prompt: Pick
                intents:
                  - name: pick
                    phrases: [Pick]
                    params:
                      - type: size
                        label: Size
                        options: [Small, Large]
            """));

    private static ApiClient admin() {
        return ApiClient.management(demo.server().managementPort());
    }

    private static ApiClient.Reply tryKey(String body) {
        return admin().post("/admin/api/try-key", null, body, "application/json", Map.of());
    }

    @Test
    void the_overview_lists_every_tenant_with_its_products_circuits_and_catalogs() {
        JsonNode data = admin().get("/admin/api/overview").data();
        List<String> ids = new ArrayList<>();
        data.path("tenants").forEach(t -> ids.add(t.path("id").asText()));
        assertEquals(List.of("demo", "lab"), ids);
        JsonNode demoTenant = data.path("tenants").get(0);
        assertEquals("UP", demoTenant.path("status").asText());
        assertEquals(
                "closed",
                demoTenant
                        .path("products")
                        .get(0)
                        .path("health")
                        .path("circuit")
                        .asText());
        // The languages Try it offers for meta.language: the tenant's default first, then what the config translates
        // to.
        assertEquals(
                "[\"en\",\"de\",\"fr\"]",
                demoTenant.path("products").get(0).path("languages").toString());
        assertEquals(
                "[\"en\"]", demoTenant.path("products").get(1).path("languages").toString());
        JsonNode cities = demoTenant.path("catalogs").get(0);
        assertEquals("cities", cities.path("name").asText());
        assertTrue(cities.path("size").asInt() > 1000, cities.toString());
        assertEquals(
                demo.server().port(), data.path("server").path("public_port").asInt());
    }

    @Test
    void a_minted_key_serves_a_tenant_that_is_not_the_demo_and_is_listed_by_id_only() throws Exception {
        JsonNode minted = tryKey("{\"tenant\":\"lab\",\"product\":\"shop\"}").data();
        String key = minted.path("public_key").asText();
        ApiClient.Reply answer = demo.api().suggest(key, envelope("Find "));
        assertEquals(200, answer.status(), answer.raw());
        assertEquals(List.of("Red", "Green", "Blue"), answer.options("colour"));
        assertEquals(
                key,
                tryKey("{\"tenant\":\"lab\",\"product\":\"shop\"}")
                        .data()
                        .path("public_key")
                        .asText(),
                "one key a product while it has time left");

        ApiClient.Reply keys = admin().get("/admin/api/keys");
        assertFalse(keys.raw().contains(key), "never a key itself");
        JsonNode listed = null;
        for (JsonNode each : keys.data().path("keys")) {
            if (each.path("id").asText().equals(minted.path("key_id").asText())) {
                listed = each;
            }
        }
        assertTrue(listed != null && listed.path("in_memory").asBoolean(), keys.raw());
        assertEquals("shop", listed.path("product").asText());
        assertEquals("[\"suggest\"]", listed.path("scopes").toString(), "a public key serves suggest requests only");
        assertFalse(listed.path("last_used_at").isNull(), "used just now");
        try (var files = Files.walk(demo.temp())) {
            for (var file : files.filter(Files::isRegularFile).toList()) {
                String text = new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1);
                assertFalse(text.contains(key), "written to " + file);
                assertFalse(text.contains(key.substring(6)), "written to " + file);
            }
        }
    }

    @Test
    void the_try_key_answer_says_what_the_products_params_read_in_the_context() {
        assertEquals(
                "{\"home_city\":\"<origin>\",\"home_country\":\"<country>\"}",
                tryKey("{\"tenant\":\"demo\",\"product\":\"travel\"}")
                        .data()
                        .path("context_example")
                        .toString());
        assertEquals(
                "{\"favourite_colour\":\"<colour>\",\"user\":{\"taste\":{\"shade\":\"<shade>\"}},"
                        + "\"season\":\"<season>\",\"colour\":[\"<colour>\"]}",
                tryKey("{\"tenant\":\"lab\",\"product\":\"shop\"}")
                        .data()
                        .path("context_example")
                        .toString());
        assertEquals(
                "{}",
                tryKey("{\"tenant\":\"lab\",\"product\":\"plain\"}")
                        .data()
                        .path("context_example")
                        .toString(),
                "a product whose params name no context key");
    }

    @Test
    void bad_try_key_requests_get_clear_errors() {
        assertEquals("INVALID_REQUEST", tryKey("{\"tenant\":1}").errorCode());
        assertEquals("INVALID_REQUEST", tryKey("not json").errorCode());
        assertEquals(
                "NOT_FOUND",
                tryKey("{\"tenant\":\"lab\",\"product\":\"nothing\"}").errorCode());
        // As /api/suggest reads the type: application/jsonx and a list of types were taken here (a hostile trial).
        for (String type : List.of("text/plain", "application/jsonx", "application/json, text/plain")) {
            ApiClient.Reply reply = admin().post(
                            "/admin/api/try-key", null, "{\"tenant\":\"lab\",\"product\":\"shop\"}", type, Map.of());
            assertEquals(415, reply.status(), type + ": " + reply.raw());
            assertEquals("UNSUPPORTED_MEDIA_TYPE", reply.errorCode(), type);
        }
        ApiClient.Reply large = tryKey("{\"tenant\":\"" + "x".repeat(5000) + "\"}");
        assertEquals(413, large.status(), large.raw());
        assertEquals("PAYLOAD_TOO_LARGE", large.errorCode());
    }

    @Test
    void another_method_on_a_console_api_path_is_a_405_naming_the_one_it_takes() {
        for (String path : List.of("/admin/api/overview", "/admin/api/keys", "/admin/api/analytics")) {
            ApiClient.Reply reply = admin().call("POST", path, null, "{}", "application/json");
            assertEquals(405, reply.status(), path + ": " + reply.raw());
            assertEquals("GET, HEAD", reply.header("Allow"), path);
        }
        ApiClient.Reply get = admin().call("DELETE", "/admin/api/try-key", null, null, null);
        assertEquals(405, get.status(), get.raw());
        assertEquals("POST", get.header("Allow"));
        assertEquals(404, admin().get("/admin/api/nothing").status(), "a path the console has not is still 404");
    }

    @Test
    void the_page_and_its_files_are_served_with_a_policy_that_lets_the_try_it_client_reach_the_api_port() {
        ApiClient.Reply page = admin().get("/admin/");
        assertEquals(200, page.status(), page.raw());
        assertTrue(page.header("Content-Type").startsWith("text/html; charset=UTF-8"), page.header("Content-Type"));
        assertTrue(
                page.header("Content-Security-Policy")
                        .contains("connect-src 'self' http://*:" + demo.server().port()),
                page.header("Content-Security-Policy"));
        assertEquals("no-cache", page.header("Cache-Control"));
        ApiClient.Reply script = admin().get("/admin/assets/console.js");
        assertEquals(200, script.status());
        assertTrue(script.header("Content-Type").startsWith("text/javascript"), script.header("Content-Type"));
        ApiClient.Reply missing = admin().get("/admin/assets/nothing.js");
        assertEquals(404, missing.status());
        assertEquals("NOT_FOUND", missing.errorCode());
        assertEquals(404, demo.api().get("/admin/").status(), "never on the API's port");
        assertEquals(404, demo.api().get("/admin/assets/console.js").status(), "never on the API's port");
    }

    @Test
    void a_page_elsewhere_cannot_read_the_loopback_console_through_a_rebound_name() throws Exception {
        try (RawConnection connection = new RawConnection(demo.server().managementPort())) {
            connection.send("GET /admin/api/keys HTTP/1.1\r\nHost: evil.example:8081\r\n\r\n");
            String response = connection.readResponse();
            assertTrue(response.startsWith("HTTP/1.1 403"), response);
            assertTrue(response.contains("HOST_NOT_ALLOWED"), response);
        }
        try (RawConnection connection = new RawConnection(demo.server().managementPort())) {
            connection.send("GET /admin/api/keys HTTP/1.1\r\nHost: localhost:8081\r\n\r\n");
            assertTrue(connection.readResponse().startsWith("HTTP/1.1 200"));
        }
    }

    /**
     * {@code management.console-hosts}: the names an operator opens the console by, besides the loopback ones (a
     * deployment trial found the container image's console, on every address of the container, open to any name).
     */
    @Test
    void the_console_answers_the_names_management_console_hosts_lists_and_no_other(@TempDir Path temp)
            throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        ServerSettings listed = ServerSettings.read(
                        null, Map.of("AUTOCOMPLETE_MANAGEMENT_CONSOLE_HOSTS", "console.internal, 10.0.0.5"))
                .with("127.0.0.1", 0, tenants)
                .withManagement("127.0.0.1", 0);
        try (AutocompleteServer server = AutocompleteServer.start(listed)) {
            for (String host :
                    List.of("console.internal:8081", "CONSOLE.internal", "10.0.0.5:8081", "127.0.0.1:8081")) {
                assertTrue(hostAnswer(server, host).startsWith("HTTP/1.1 200"), host);
            }
            String refused = hostAnswer(server, "evil.example:8081");
            assertTrue(refused.startsWith("HTTP/1.1 403"), refused);
            assertTrue(refused.contains("management.console-hosts"), "says what to set: " + refused);
        }
        ServerSettings any = ServerSettings.read(null, Map.of("AUTOCOMPLETE_MANAGEMENT_CONSOLE_HOSTS", "any"))
                .with("127.0.0.1", 0, tenants)
                .withManagement("127.0.0.1", 0);
        try (AutocompleteServer server = AutocompleteServer.start(any)) {
            assertTrue(hostAnswer(server, "evil.example:8081").startsWith("HTTP/1.1 200"));
        }
    }

    private static String hostAnswer(AutocompleteServer server, String host) throws Exception {
        try (RawConnection connection = new RawConnection(server.managementPort())) {
            connection.send("GET /admin/api/keys HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
            return connection.readResponse();
        }
    }
}
