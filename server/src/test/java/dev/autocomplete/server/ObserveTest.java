package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /observe/health} and {@code /observe/metrics} on the management port, {@code /ready} on the API's, the
 * access log and {@code /api/telemetry/events}, over HTTP against the demo tenant.
 */
class ObserveTest {

    @TempDir
    Path temp;

    private LogLines accessLog;

    @BeforeEach
    void captureAccessLog() {
        accessLog = LogLines.of("dev.autocomplete.access");
    }

    @AfterEach
    void releaseAccessLog() {
        accessLog.close();
    }

    /** Serves the copy of the demo tenant made in {@code temp}. */
    private AutocompleteServer startDemo() throws java.io.IOException {
        return TestServers.start(temp.resolve("tenants"));
    }

    @Test
    void health_is_ready_with_details_per_tenant_and_product_when_every_tenant_loaded() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient management = ApiClient.management(server.managementPort());
            for (String path : List.of("/observe/health", "/observe/health/ready")) {
                ApiClient.Reply health = management.get(path);
                assertEquals(200, health.status(), health.raw());
                assertEquals("UP", health.json().path("status").asText());
                JsonNode demo = health.json().path("checks").get(0);
                assertEquals("tenant:demo", demo.path("name").asText());
                assertEquals("UP", demo.path("status").asText());
                JsonNode travel = demo.path("data").path("products").path("travel");
                assertEquals("closed", travel.path("circuit").asText(), health.raw());
                assertEquals(
                        "closed",
                        travel.path("engines").path("catalogs").path("circuit").asText(),
                        health.raw());
                assertEquals(
                        "closed",
                        travel.path("engines").path("date").path("circuit").asText(),
                        health.raw());
            }
            assertEquals(200, management.get("/observe/health/live").status());
        }
    }

    @Test
    void a_tenant_that_does_not_load_is_down_in_its_own_check_with_the_problem_while_the_server_is_up()
            throws Exception {
        Path tenants = TestTenants.copyOfDemoWithBrokenTenant(temp);
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient management = ApiClient.management(server.managementPort());
            ApiClient.Reply health = management.get("/observe/health/ready");
            assertEquals(200, health.status(), "the server serves the other tenants: " + health.raw());
            assertEquals("UP", health.json().path("status").asText());
            JsonNode broken = health.json().path("checks").get(0);
            assertEquals("tenant:broken", broken.path("name").asText(), health.raw());
            assertEquals("DOWN", broken.path("status").asText());
            assertTrue(
                    broken.path("data").path("problems").get(0).asText().startsWith("broken/tenant.yaml:2: products"),
                    health.raw());
            assertEquals(200, management.get("/observe/health/live").status());

            Files.writeString(tenants.resolve("broken/tenant.yaml"), HotReloadTest.SHOP_YAML.formatted("Fixed"));
            HotReloadTest.await(
                    () -> management
                            .get("/observe/health")
                            .json()
                            .path("checks")
                            .get(0)
                            .path("status")
                            .asText()
                            .equals("UP"),
                    "the tenant's check is up once it loads");
        }
    }

    @Test
    void keys_a_tenant_cannot_read_make_the_keys_check_degraded_and_say_which() throws Exception {
        // An operator's trial: keys.yaml written by root, mode 0600, for a server running as another user. Every
        // key of that tenant is refused; health said UP, degraded false. (Tests run as root: a directory in the
        // file's place cannot be read either.)
        Path tenants = TestTenants.copyOfDemo(temp);
        Files.createDirectories(tenants.resolve("demo/keys.yaml"));
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient.Reply health =
                    ApiClient.management(server.managementPort()).get("/observe/health");
            JsonNode keys = null;
            for (JsonNode check : health.json().path("checks")) {
                if (check.path("name").asText().equals("keys")) {
                    keys = check;
                }
            }
            assertTrue(keys != null, health.raw());
            assertTrue(keys.path("data").path("degraded").asBoolean(), health.raw());
            assertTrue(
                    keys.path("data")
                            .path("unreadable")
                            .path("demo")
                            .asText()
                            .startsWith("Cannot read " + tenants.resolve("demo/keys.yaml")),
                    health.raw());
        }
    }

    @Test
    void metrics_count_requests_latency_errors_engine_time_and_telemetry_per_tenant_and_product() throws Exception {
        String key = TestTenants.createKey(TestTenants.copyOfDemo(temp), "demo", "public", "travel");
        try (AutocompleteServer server = startDemo()) {
            ApiClient api = new ApiClient(server.port());
            assertEquals(
                    200, api.suggest(key, envelope("Book a flight from Par")).status());
            assertEquals(200, api.suggest(key, envelope("")).status());
            assertEquals(200, api.suggest(key, envelope("")).status()); // the same query again: a cache hit
            ObjectNode badId = envelope("");
            ((ObjectNode) badId.path("meta")).put("request_id", "nope");
            assertEquals(400, api.suggest(key, badId).status());
            assertEquals(401, api.suggest("pk_v1_wrong", envelope("")).status());
            assertEquals(
                    204,
                    telemetry(api, key, "{\"type\":\"selection\",\"query_data\":{}}")
                            .status());
            assertEquals(200, api.get("/ready").status());

            ApiClient.Reply metrics =
                    ApiClient.management(server.managementPort()).get("/observe/metrics");
            assertEquals(200, metrics.status());
            assertTrue(metrics.header("Content-Type").startsWith("text/plain"), metrics.header("Content-Type"));
            String text = metrics.raw();
            for (String expected : List.of(
                    "autocomplete_requests_total{endpoint=\"/api/suggest\",product=\"travel\",status=\"200\",tenant=\"demo\"} 3",
                    "autocomplete_requests_total{endpoint=\"/api/suggest\",product=\"\",status=\"401\",tenant=\"\"} 1",
                    "autocomplete_errors_total{code=\"INVALID_REQUEST_ID\",product=\"travel\",tenant=\"demo\"} 1",
                    "autocomplete_errors_total{code=\"INVALID_CREDENTIALS\",product=\"\",tenant=\"\"} 1",
                    "autocomplete_request_duration_seconds_bucket{endpoint=\"/api/suggest\",product=\"travel\",tenant=\"demo\",le=\"+Inf\"} 4",
                    "autocomplete_engine_duration_seconds_count{product=\"travel\",tenant=\"demo\"} 2",
                    "autocomplete_engine_calls_total{engine=\"catalogs\",outcome=\"ok\",product=\"travel\",tenant=\"demo\"} 2",
                    "autocomplete_telemetry_events_total{product=\"travel\",tenant=\"demo\",type=\"selection\"} 1",
                    "autocomplete_requests_total{endpoint=\"/ready\",product=\"\",status=\"200\",tenant=\"\"} 1",
                    "autocomplete_cache_lookups_total{product=\"travel\",result=\"hit\",tenant=\"demo\"} 1",
                    "autocomplete_cache_lookups_total{product=\"travel\",result=\"miss\",tenant=\"demo\"} 2",
                    "autocomplete_tenant_reloads_total{result=\"failed\"} 0",
                    "autocomplete_circuit_open{engine=\"catalogs\",product=\"travel\",tenant=\"demo\"} 0",
                    "autocomplete_circuit_open{engine=\"date\",product=\"travel\",tenant=\"demo\"} 0")) {
                assertTrue(text.contains(expected), "missing: " + expected + "\n" + text);
            }
        }
    }

    @Test
    void rate_limit_refusals_are_counted_and_the_limiter_is_a_health_check() throws Exception {
        String key = TestTenants.createKey(
                TestTenants.copyOfDemo(temp), "demo", "public", "travel", "--rate", "1/s", "--burst", "1");
        try (AutocompleteServer server = startDemo()) {
            ApiClient api = new ApiClient(server.port());
            assertEquals(200, api.suggest(key, envelope("")).status());
            assertEquals(429, api.suggest(key, envelope("")).status());
            ApiClient management = ApiClient.management(server.managementPort());
            // The refusal closed its connection, so this request may overtake the refusal's bookkeeping.
            String text = management.get("/observe/metrics").raw();
            for (int i = 0; i < 50 && !text.contains("autocomplete_rate_limited_total{"); i++) {
                Thread.sleep(20);
                text = management.get("/observe/metrics").raw();
            }
            assertTrue(text.contains("autocomplete_rate_limited_total{product=\"travel\",tenant=\"demo\"} 1"), text);
            assertTrue(
                    text.contains(
                            "autocomplete_errors_total{code=\"RATE_LIMITED\",product=\"travel\",tenant=\"demo\"} 1"),
                    text);
            ApiClient.Reply health = management.get("/observe/health");
            JsonNode limits = health.json().path("checks").get(1);
            assertEquals("rate-limits", limits.path("name").asText(), health.raw());
            assertEquals("local", limits.path("data").path("mode").asText(), health.raw());
        }
    }

    @Test
    void the_access_log_has_one_line_per_request_without_credentials_queries_or_context() throws Exception {
        String key = TestTenants.createKey(TestTenants.copyOfDemo(temp), "demo", "public", "travel");
        try (AutocompleteServer server = startDemo()) {
            ApiClient api = new ApiClient(server.port());
            ObjectNode body = envelope("Book a flight from {{ORIGIN_1}} to Lon");
            ApiClient.fill(body, "{{ORIGIN_1}}", "origin", "Secretville");
            ((ObjectNode) body.path("data")).putObject("additional_context").put("note", "private-context-value");
            ((ObjectNode) body.path("meta")).put("session_id", "9b2f6c1e-4d3a-4f5b-8c7d-2e1f0a9b8c7d");
            assertEquals(200, api.get("/ready").status()); // load balancers' probes stay out of the log
            assertEquals(200, api.suggest(key, body).status());
            HotReloadTest.await(() -> !accessLog.lines().isEmpty(), "an access log line");
            assertEquals(1, accessLog.lines().size(), accessLog.lines().toString());
            JsonNode line = ApiClient.JSON.readTree(accessLog.lines().getFirst());
            assertEquals(
                    body.path("meta").path("request_id").asText(),
                    line.path("request_id").asText());
            assertEquals(
                    "9b2f6c1e-4d3a-4f5b-8c7d-2e1f0a9b8c7d",
                    line.path("session_id").asText());
            assertEquals("demo", line.path("tenant").asText());
            assertEquals("travel", line.path("product").asText());
            assertEquals(200, line.path("status").asInt());
            assertTrue(
                    line.path("duration_ms").asDouble()
                            >= line.path("engine_ms").asDouble(),
                    line.toString());
            assertTrue(line.path("engine_ms").asDouble() > 0, line.toString());
            assertFalse(line.path("time").asText().isEmpty());
            for (String secret : List.of(key, "Secretville", "private-context-value", "Lon", "raw_query")) {
                assertFalse(
                        accessLog.lines().getFirst().contains(secret),
                        secret + " leaked: " + accessLog.lines().getFirst());
            }
            // A telemetry event's line names the event's session (an operator trial read null there).
            assertEquals(204, telemetry(api, key, """
                    {"type": "option", "session_id": "9b2f6c1e-4d3a-4f5b-8c7d-2e1f0a9b8c7d",
                     "query_data": {"raw_query": "Book a flight from ", "selected_option": "Paris"}}""").status());
            HotReloadTest.await(() -> accessLog.lines().size() == 2, "the event's access log line");
            JsonNode event = ApiClient.JSON.readTree(accessLog.lines().get(1));
            assertEquals("/api/telemetry/events", event.path("path").asText());
            assertEquals(
                    "9b2f6c1e-4d3a-4f5b-8c7d-2e1f0a9b8c7d",
                    event.path("session_id").asText(),
                    event.toString());
            assertFalse(
                    accessLog.lines().get(1).contains("Paris"),
                    accessLog.lines().get(1));
        }
    }

    @Test
    void a_tenant_with_query_logging_on_gets_its_queries_in_the_access_log() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path yaml = tenants.resolve("demo/tenant.yaml");
        Files.writeString(yaml, "log_queries: true\n" + Files.readString(yaml));
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            assertEquals(
                    200, api.suggest(key, envelope("Book a flight from Par")).status());
            HotReloadTest.await(() -> !accessLog.lines().isEmpty(), "an access log line");
            JsonNode line = ApiClient.JSON.readTree(accessLog.lines().getFirst());
            assertEquals("Book a flight from Par", line.path("raw_query").asText());
            assertEquals(36, line.path("session_id").asText().length(), "the generated session id: " + line);
            assertFalse(accessLog.lines().getFirst().contains(key));
            java.time.Instant answered =
                    java.time.Instant.parse(line.path("time").asText());
            assertTrue(
                    Math.abs(java.time.Duration.between(answered, java.time.Instant.now())
                                    .toSeconds())
                            < 60,
                    line.toString());

            // Quotes, backslashes, control characters and non-ASCII text stay one valid JSON line.
            String awkward = "Book a flight from \"São\" \\ Paulo\n\t\u0001 to";
            assertEquals(200, api.suggest(key, envelope(awkward)).status());
            HotReloadTest.await(() -> accessLog.lines().size() >= 2, "a second access log line");
            assertFalse(
                    accessLog.lines().get(1).contains("\n"), accessLog.lines().get(1));
            assertEquals(
                    awkward,
                    ApiClient.JSON
                            .readTree(accessLog.lines().get(1))
                            .path("raw_query")
                            .asText());
        }
    }

    @Test
    void telemetry_events_are_accepted_for_valid_credentials_and_bounded() throws Exception {
        String key = TestTenants.createKey(TestTenants.copyOfDemo(temp), "demo", "public", "travel");
        try (AutocompleteServer server = startDemo()) {
            ApiClient api = new ApiClient(server.port());
            String event = "{\"source\":\"vanilla\",\"session_id\":null,\"type\":\"suggestion_selected\","
                    + "\"at\":\"2026-11-22T10:00:00Z\",\"query_data\":{\"raw_query\":\"x\"}}";
            ApiClient.Reply accepted = telemetry(api, key, event);
            assertEquals(204, accepted.status(), accepted.raw());
            assertEquals("", accepted.raw());
            assertEquals("MISSING_CREDENTIALS", telemetry(api, null, event).errorCode());
            assertEquals(
                    "INVALID_CREDENTIALS", telemetry(api, "pk_v1_wrong", event).errorCode());
            assertEquals("INVALID_JSON", telemetry(api, key, "{nope").errorCode());
            assertEquals("INVALID_REQUEST", telemetry(api, key, "[1]").errorCode());
            String big = "{\"type\":\"x\",\"query_data\":\"" + "a".repeat(20_000) + "\"}";
            ApiClient.Reply tooBig = telemetry(api, key, big);
            assertEquals(413, tooBig.status(), tooBig.raw());
            assertEquals("PAYLOAD_TOO_LARGE", tooBig.errorCode());
            assertNull(accessLog.lines().stream()
                    .filter(l -> l.contains("suggestion_selected"))
                    .findFirst()
                    .orElse(null));
        }
    }

    private static ApiClient.Reply telemetry(ApiClient api, String key, String body) {
        return api.post("/api/telemetry/events", key, body, "application/json", Map.of());
    }
}
