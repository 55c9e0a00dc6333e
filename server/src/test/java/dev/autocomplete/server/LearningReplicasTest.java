package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.config.LearningSettings;
import dev.autocomplete.server.store.PostgresServer;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Learning shared by replicas on one PostgreSQL: a pick reported to one replica re-ranks the other's options within a
 * minute (here the apply interval is 2 s; the default is 30 s), and what was learned survives a restart.
 */
class LearningReplicasTest {

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

    private static AutocompleteServer start(Path tenants, String url) throws Exception {
        return AutocompleteServer.start(TestServers.replica(tenants, url)
                .withLearning(new LearningSettings(
                        Duration.ofDays(14), Duration.ofSeconds(2), 20_000, 1_000_000, 1_000_000, 10_000)));
    }

    private static List<String> destinations(AutocompleteServer server, String key, String session, String typed) {
        ObjectNode body = fill(envelope(ORIGIN + typed), "{{ORIGIN_1}}", "origin", "Paris");
        ((ObjectNode) body.path("meta")).put("session_id", session);
        ApiClient.Reply reply = new ApiClient(server.port()).suggest(key, body);
        assertEquals(200, reply.status(), reply.raw());
        return reply.options("destination");
    }

    private static void pick(AutocompleteServer server, String key, String session, String typed, String option) {
        ObjectNode event = ApiClient.JSON
                .createObjectNode()
                .put("source", "full-sdk")
                .put("session_id", session)
                .put("type", "option")
                .put("at", "2026-11-25T10:00:00Z");
        event.putObject("query_data")
                .put("raw_query", ORIGIN + typed)
                .put("selected_option", option)
                .putArray("other_options");
        ApiClient.Reply reply = new ApiClient(server.port())
                .post("/api/telemetry/events", key, event.toString(), "application/json", Map.of());
        assertEquals(204, reply.status(), reply.raw());
    }

    private static boolean within(Duration limit, java.util.function.BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(200);
        }
        return condition.getAsBoolean();
    }

    @Test
    void a_pick_on_one_replica_re_ranks_the_other_within_a_minute_and_survives_a_restart() throws Exception {
        String url = postgres.newDatabase();
        Path tenants = TestTenants.copyOfDemo(temp);
        Files.writeString(temp.resolve("autocomplete.yaml"), "storage:\n  url: \"" + url + "\"\n");
        TestTenants.Cli created = TestTenants.cli(
                "keys",
                "create",
                "--config",
                temp.resolve("autocomplete.yaml").toString(),
                "--tenants",
                tenants.toString(),
                "--tenant",
                "demo",
                "--type",
                "public",
                "--product",
                "travel",
                "--rate",
                "10000");
        assertEquals(0, created.exit(), created.err());
        String key = created.lastLine();
        AutocompleteServer a = start(tenants, url);
        String picked;
        try (AutocompleteServer b = start(tenants, url)) {
            assertEquals(200, new ApiClient(b.port()).suggest(key, envelope("")).status(), "the key works on b");
            List<String> before = destinations(b, key, UUID.randomUUID().toString(), " to Ka");
            picked = before.getLast();
            assertNotEquals(before.getFirst(), picked);
            for (int i = 0; i < 2; i++) {
                String session = UUID.randomUUID().toString();
                destinations(a, key, session, " to Ka");
                pick(a, key, session, " to Ka", picked);
            }
            long start = System.nanoTime();
            boolean seen = within(Duration.ofMinutes(1), () -> destinations(
                            b, key, UUID.randomUUID().toString(), " to Ka")
                    .getFirst()
                    .equals(picked));
            assertEquals(true, seen, "replica b learned what a was told within a minute");
            assertFalse(Duration.ofNanos(System.nanoTime() - start).toSeconds() > 60);
        } finally {
            a.close();
        }
        try (AutocompleteServer restarted = start(tenants, url)) {
            assertEquals(
                    true,
                    within(Duration.ofSeconds(20), () -> destinations(
                                    restarted, key, UUID.randomUUID().toString(), " to Ka")
                            .getFirst()
                            .equals(picked)),
                    "learning survives a restart");
        }
    }
}
