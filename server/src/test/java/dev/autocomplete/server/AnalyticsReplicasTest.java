package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.store.PostgresServer;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas on one PostgreSQL: each one's requests, sessions and honest picks count once in the figures either
 * serves, and a session that went to both counts as one.
 */
class AnalyticsReplicasTest {

    private static final String ORIGIN = "Book a flight from {{ORIGIN_1}}";
    private static PostgresServer postgres;

    @TempDir
    Path temp;

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = PostgresServer.start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    /** A replica: its own data directory, as every replica has (docs/scaling.md). */
    private static AutocompleteServer start(Path tenants, String url) throws Exception {
        return AutocompleteServer.start(TestServers.replica(tenants, url));
    }

    /** A replica and the console key it minted for the demo's travel. */
    private record Replica(AutocompleteServer server, ApiClient api, String key) {
        static Replica of(AutocompleteServer server) {
            ApiClient.Reply minted = ApiClient.management(server.managementPort())
                    .post(
                            "/admin/api/try-key",
                            null,
                            "{\"tenant\":\"demo\",\"product\":\"travel\"}",
                            "application/json",
                            Map.of());
            assertEquals(200, minted.status(), minted.raw());
            return new Replica(
                    server,
                    new ApiClient(server.port()),
                    minted.data().path("public_key").asText());
        }

        /** A suggest request for destinations after typing {@code typed}; the first option offered. */
        String ask(String session, String typed) {
            ObjectNode body = fill(envelope(ORIGIN + " to " + typed), "{{ORIGIN_1}}", "origin", "Paris");
            ((ObjectNode) body.path("meta")).put("session_id", session);
            ApiClient.Reply reply = api.suggest(key, body);
            assertEquals(200, reply.status(), reply.raw());
            return reply.options("destination").getFirst();
        }

        void pick(String session, String typed, String option) {
            ObjectNode event = ApiClient.JSON
                    .createObjectNode()
                    .put("source", "full-sdk")
                    .put("session_id", session)
                    .put("type", "option")
                    .put("at", "2026-11-25T10:00:00Z");
            event.putObject("query_data")
                    .put("raw_query", ORIGIN + " to " + typed)
                    .put("selected_option", option)
                    .putArray("other_options");
            assertEquals(
                    204,
                    api.post("/api/telemetry/events", key, event.toString(), "application/json", Map.of())
                            .status());
        }

        void flush() {
            server.learning().flush();
            server.analytics().flush();
        }

        JsonNode figures() {
            return ApiClient.management(server.managementPort())
                    .get("/admin/api/analytics?tenant=demo&product=travel&days=1")
                    .data();
        }
    }

    @Test
    void each_replicas_events_count_once_in_the_figures_either_serves() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String url = postgres.newDatabase();
        try (AutocompleteServer first = start(tenants, url);
                AutocompleteServer second = start(tenants, url)) {
            Replica a = Replica.of(first);
            Replica b = Replica.of(second);
            for (int i = 0; i < 3; i++) {
                String session = UUID.randomUUID().toString();
                a.pick(session, "Po", a.ask(session, "Po"));
            }
            for (int i = 0; i < 2; i++) {
                String session = UUID.randomUUID().toString();
                b.pick(session, "Lo", b.ask(session, "Lo"));
            }
            String both = UUID.randomUUID().toString();
            a.ask(both, "Ma");
            b.ask(both, "Ma");
            for (Replica replica : List.of(a, b)) {
                replica.flush();
                replica.flush(); // a second flush adds nothing
            }
            for (Replica replica : List.of(a, b)) {
                JsonNode data = replica.figures();
                assertEquals(7, data.path("requests").asInt(), data.toString());
                assertEquals(5, data.path("picks").asInt(), data.toString());
                assertEquals(6, data.path("sessions").asInt(), "the session seen by both counts once: " + data);
                assertEquals(2, data.path("top_picks").size(), data.toString());
                assertEquals(3, data.path("top_picks").get(0).path("count").asInt(), data.toString());
            }
        }
    }
}
