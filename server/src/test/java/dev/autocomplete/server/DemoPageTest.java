package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.http.DemoPage;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
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

    private static ApiClient.Reply send(String method, String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api.base() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return api.send(request.build());
    }

    @Test
    void files_go_with_their_charset_no_cache_and_nosniff_and_head_answers_the_same_headers_without_a_body() {
        for (String path : List.of("/", "/index.html", "/assets/demo.js", "/assets/demo.css")) {
            ApiClient.Reply file = get(path);
            assertEquals(200, file.status(), path);
            assertTrue(
                    file.header("Content-Type").endsWith("; charset=UTF-8"), path + ": " + file.header("Content-Type"));
            assertEquals("no-cache", file.header("Cache-Control"), path);
            assertEquals("nosniff", file.header("X-Content-Type-Options"), path);
            ApiClient.Reply head = send("HEAD", path);
            assertEquals(200, head.status(), path);
            assertEquals("", head.raw(), path);
            assertEquals(file.header("Content-Type"), head.header("Content-Type"), path);
            assertEquals(file.header("Content-Security-Policy"), head.header("Content-Security-Policy"), path);
        }
    }

    @Test
    void a_browser_revalidating_an_unchanged_file_gets_304_without_a_body() {
        for (String path : List.of("/", "/assets/demo.js")) {
            ApiClient.Reply file = get(path);
            String lastModified = file.header("Last-Modified");
            assertTrue(lastModified != null, path + " has no Last-Modified: " + file.headers());
            // Helidon compares with the file's time to the millisecond, which a date in seconds rounds down: a date
            // one second later is certainly not before it. (Served from the JAR, files carry an ETag as well.)
            String later = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                    ZonedDateTime.parse(lastModified, DateTimeFormatter.RFC_1123_DATE_TIME)
                            .plusSeconds(1));
            ApiClient.Reply since = send("GET", path, "If-Modified-Since", later);
            assertEquals(304, since.status(), path + " since " + later);
            assertEquals("", since.raw(), path);
            String etag = file.header("ETag");
            if (etag != null) {
                assertEquals(304, send("GET", path, "If-None-Match", etag).status(), path);
            }
            assertEquals(
                    200,
                    send("GET", path, "If-Modified-Since", "Mon, 01 Jan 2001 00:00:00 GMT")
                            .status(),
                    path + " changed since 2001");
        }
    }

    @Test
    void the_console_directories_and_dot_files_are_no_files_of_the_public_page() {
        for (String path : List.of(
                "/console/index.html",
                "/console/assets/console.js",
                "/assets/..%2Fconsole%2Findex.html",
                "/assets",
                "/assets/",
                "/index.html/",
                "/console/",
                "/admin/")) {
            ApiClient.Reply reply = get(path);
            assertEquals(404, reply.status(), path + ": " + reply.raw());
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
