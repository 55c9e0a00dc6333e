package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.http.AutocompleteServer;

/** The limits that protect the server, with defaults and with settings of their own. */
class LimitsTest {

    @TempDir
    Path temp;

    @Test
    void oversized_headers_deep_json_and_too_many_completed_params_are_clear_4xx() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = AutocompleteServer.start("127.0.0.1", 0, tenants)) {
            ApiClient api = new ApiClient(server.port());
            ApiClient.Reply headers = api.post("/api/suggest", key, envelope("").toString(), "application/json",
                    Map.of("X-Padding", "x".repeat(20_000)));
            // Helidon reports oversized headers as a malformed request.
            assertEquals(400, headers.status(), headers.raw());
            assertEquals("INVALID_REQUEST", headers.errorCode());

            String deep = "[".repeat(100) + "]".repeat(100);
            ApiClient.Reply nested = api.post("/api/suggest", key, "{\"data\":{\"raw_query\":\"\",\"additional_context\":"
                    + deep + "}}", "application/json", Map.of());
            assertEquals(400, nested.status(), nested.raw());
            assertEquals("INVALID_JSON", nested.errorCode());

            ObjectNode many = envelope("");
            for (int i = 0; i < 101; i++) {
                ApiClient.fill(many, "", "type", "skipped");
            }
            ApiClient.Reply params = api.suggest(key, many);
            assertEquals(400, params.status(), params.raw());
            assertEquals("INVALID_COMPLETED_PARAMS", params.errorCode());
        }
    }

    @Test
    void the_body_limit_follows_the_settings() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        ServerSettings settings = ServerSettings.read(null, Map.of("AUTOCOMPLETE_LIMITS_BODY_BYTES", "2048"))
                .with("127.0.0.1", 0, tenants);
        try (AutocompleteServer server = AutocompleteServer.start(settings)) {
            ApiClient api = new ApiClient(server.port());
            ObjectNode body = envelope("");
            ((ObjectNode) body.path("data")).put("padding", "x".repeat(3000));
            ApiClient.Reply large = api.suggest(key, body);
            assertEquals(413, large.status(), large.raw());
            assertEquals("PAYLOAD_TOO_LARGE", large.errorCode());
            assertEquals(200, api.suggest(key, envelope("")).status());
        }
    }
}
