package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Long queries sent on purpose, on loopback: reading costs CPU in proportion to the words, and a 50 KB query of cue
 * words and dates cost about a second of it, during which other requests waited. The length is capped, and a
 * reading keeps its budget even where it runs on the request's thread (a product served by the core alone).
 */
class LongQueriesTest {

    @TempDir
    Path temp;

    @Test
    @Timeout(60)
    void a_query_over_a_thousand_characters_is_refused_at_once_and_one_of_a_thousand_is_read() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            String prefix = "Book a flight from ";
            ApiClient.Reply attack = api.suggest(key, envelope(prefix + "on 12 ".repeat(8300)));
            assertEquals(400, attack.status(), attack.raw());
            assertEquals("RAW_QUERY_TOO_LONG", attack.errorCode());
            assertTrue(attack.raw().contains("is 49819 characters; at most 1000 are read"), attack.raw());

            // Characters, not UTF-16 units: an emoji is one of the thousand.
            String atLimit = prefix + "\uD83D\uDE80".repeat(1000 - prefix.length());
            assertEquals(200, api.suggest(key, envelope(atLimit)).status());
            ApiClient.Reply over = api.suggest(key, envelope(atLimit + "x"));
            assertEquals(400, over.status(), over.raw());
            assertEquals("RAW_QUERY_TOO_LONG", over.errorCode());

            String longest = (prefix + "on 12 ".repeat(200)).substring(0, 1000);
            ApiClient.Reply read = api.suggest(key, envelope(longest));
            assertEquals(200, read.status(), read.raw());
        }
    }

    @Test
    @Timeout(60)
    void a_reading_on_the_requests_thread_stops_at_its_budget_and_answers_the_fallback() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path yaml = tenants.resolve("demo/tenant.yaml");
        // workspace is served by the core alone (its catalogs and options lists): read on the request's thread.
        String text = Files.readString(yaml);
        assertTrue(text.contains("    slug: workspace\n"));
        Files.writeString(
                yaml, text.replace("    slug: workspace\n", "    slug: workspace\n    engine_budget_ms: 1\n"));
        String key = TestTenants.createKey(tenants, "demo", "public", "workspace");
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            // A short query reads within a millisecond once the code is warm.
            boolean answered = false;
            for (int i = 0; i < 200 && !answered; i++) {
                ApiClient.Reply reply = api.suggest(key, envelope("Create an email to G" + "reta".substring(0, i % 4)));
                answered = reply.suggestionTypes().contains("contact");
            }
            assertTrue(answered, "a short query never read within 1 ms");
            // A thousand characters of cue words and names: hundreds of questions to the catalogs, many milliseconds.
            for (int i = 0; i < 3; i++) {
                String prefix = "Create an email to Greta " + i + " about ";
                String query = (prefix + "to Greta about Invoice ".repeat(60)).substring(0, 1000);
                ApiClient.Reply reply = api.suggest(key, envelope(query));
                assertEquals(200, reply.status(), reply.raw());
                List<String> types = reply.suggestionTypes();
                assertEquals(List.of("placeholder"), types, "the product's fallback, not a reading: " + reply.raw());
                assertFalse(reply.data().path("is_ready").asBoolean());
            }
        }
    }
}
