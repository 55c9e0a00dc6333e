package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The management listener over HTTP on real ports: {@code /observe/*} there and only there, and the bare
 * {@code /ready} that load balancers see on the API's port.
 */
class ManagementTest {

    private static final List<String> OBSERVE =
            List.of("/observe/health", "/observe/health/ready", "/observe/health/live", "/observe/metrics");

    @TempDir
    Path temp;

    @Test
    void health_and_metrics_answer_on_the_management_port_and_not_on_the_public_port() throws Exception {
        try (AutocompleteServer server = TestServers.start(TestTenants.copyOfDemo(temp))) {
            assertNotEquals(server.port(), server.managementPort());
            ApiClient api = new ApiClient(server.port());
            ApiClient management = ApiClient.management(server.managementPort());
            for (String path : OBSERVE) {
                ApiClient.Reply answer = management.get(path);
                assertEquals(200, answer.status(), path);
                if (path.startsWith("/observe/health")) {
                    assertEquals(
                            List.of("no-store"),
                            answer.headers().entrySet().stream()
                                    .filter(header -> header.getKey().equalsIgnoreCase("Cache-Control"))
                                    .flatMap(header -> header.getValue().stream())
                                    .toList(),
                            path + ": one Cache-Control line, as on every other answer");
                }
                ApiClient.Reply hidden = api.get(path);
                assertEquals(404, hidden.status(), path + ": " + hidden.raw());
                assertEquals("NOT_FOUND", hidden.errorCode(), path);
                assertFalse(hidden.raw().contains("demo"), hidden.raw());
            }
            ApiClient.Reply noApi = management.get("/api/suggest");
            assertEquals(404, noApi.status(), "the API is not served on the management port: " + noApi.raw());
            assertEquals("NOT_FOUND", noApi.errorCode());
        }
    }

    @Test
    void the_public_readiness_answer_says_up_or_down_and_nothing_else() throws Exception {
        Path tenants = TestTenants.copyOfDemoWithBrokenTenant(temp);
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            ApiClient.Reply down = api.get("/ready");
            assertEquals(503, down.status(), down.raw());
            assertEquals("{\"status\":\"DOWN\"}", down.raw(), "no tenant names, files or problems");
            assertEquals("application/json", down.header("Content-Type"));
            assertTrue(down.header("Cache-Control").contains("no-store"), down.header("Cache-Control"));
            ApiClient.Reply details =
                    ApiClient.management(server.managementPort()).get("/observe/health");
            assertTrue(
                    details.raw().contains("broken/tenant.yaml"), "the details stay on management: " + details.raw());
            ApiClient.Reply head = api.send(HttpRequest.newBuilder(URI.create(api.base() + "/ready"))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody())
                    .build());
            assertEquals(503, head.status(), "HEAD probes get the same status");
            assertEquals("", head.raw());

            Files.writeString(tenants.resolve("broken/tenant.yaml"), HotReloadTest.SHOP_YAML.formatted("Fixed"));
            HotReloadTest.await(() -> api.get("/ready").status() == 200, "ready once the tenant loads");
            assertEquals("{\"status\":\"UP\"}", api.get("/ready").raw());
        }
    }

    @Test
    void a_management_port_in_use_stops_the_start_with_an_error_that_names_it() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ServerSettings settings = ServerSettings.defaults()
                    .with("127.0.0.1", 0, tenants)
                    .withManagement("127.0.0.1", taken.getLocalPort());
            IOException refused = assertThrows(
                    IOException.class, () -> AutocompleteServer.start(settings).close());
            assertTrue(
                    refused.getMessage().contains("127.0.0.1:" + taken.getLocalPort() + " (management)"),
                    refused.getMessage());
        }
    }

    @Test
    void serve_binds_management_to_the_address_it_is_given_and_prints_its_url() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        try (ServerProcess server =
                ServerProcess.start(tenants, temp.resolve("server.log"), Map.of(), "--management-host", "127.0.0.2")) {
            server.awaitServing();
            String log = server.log();
            assertTrue(
                    log.contains("Management (not for the public): http://127.0.0.2:" + server.managementPort()
                            + "/observe/health"),
                    log);
            assertTrue(log.contains("readiness for load balancers: http://127.0.0.1:" + server.port() + "/ready"), log);
            assertEquals(
                    200,
                    ApiClient.management("127.0.0.2", server.managementPort())
                            .get("/observe/health")
                            .status());
            UncheckedIOException refused = assertThrows(
                    UncheckedIOException.class, () -> ApiClient.management("127.0.0.1", server.managementPort())
                            .get("/observe/health"));
            assertTrue(refused.getCause() instanceof ConnectException, refused.toString());
            assertEquals(
                    404, new ApiClient(server.port()).get("/observe/health").status());
            assertEquals(200, new ApiClient(server.port()).get("/ready").status());
        }
    }

    @Test
    void the_management_listener_honours_connection_close_and_answers_with_nosniff() throws Exception {
        try (AutocompleteServer server = TestServers.start(TestTenants.copyOfDemo(temp))) {
            List<String> requests = List.of(
                    "GET /observe/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                    "GET /observe/metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
                    "POST /observe/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                            + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
                    // A body nobody reads ends the connection after the answer, Connection: close or not.
                    "POST /observe/metrics HTTP/1.1\r\nHost: localhost\r\n"
                            + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
            for (String request : requests) {
                try (RawConnection client = new RawConnection(server.managementPort())) {
                    long start = System.nanoTime();
                    client.send(request);
                    String answer = client.readResponse();
                    assertTrue(answer.startsWith(request.startsWith("GET") ? "HTTP/1.1 200" : "HTTP/1.1 404"), answer);
                    assertTrue(
                            answer.toLowerCase(java.util.Locale.ROOT).contains("x-content-type-options: nosniff"),
                            answer);
                    assertTrue(
                            client.endsWithin(2000),
                            "open after the answer to " + request.lines().findFirst());
                    long millis = (System.nanoTime() - start) / 1_000_000;
                    assertTrue(millis < 2000, request.lines().findFirst() + " took " + millis + " ms");
                }
            }
            // Without Connection: close, the connection stays for the next request.
            try (RawConnection client = new RawConnection(server.managementPort())) {
                for (int i = 0; i < 2; i++) {
                    client.send("GET /observe/health/live HTTP/1.1\r\nHost: localhost\r\n\r\n");
                    assertTrue(client.readResponse().startsWith("HTTP/1.1 200"));
                }
            }
            ApiClient.Reply ready = new ApiClient(server.port()).get("/ready");
            assertEquals(200, ready.status(), ready.raw());
            assertEquals("nosniff", ready.header("X-Content-Type-Options"));
        }
    }
}
