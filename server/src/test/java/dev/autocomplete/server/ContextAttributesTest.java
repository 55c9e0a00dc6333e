package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.config.LearningSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Context attributes over HTTP (protocol notes, decision 19): a param's {@code context_attributes} boost the options
 * whose attribute the context names, or keep only those; a filter that leaves nothing falls back to the whole list;
 * the keys attributes read are not matched against option texts.
 */
class ContextAttributesTest {

    private static final String LAB = """
            display_name: Lab
            products:
              - id: 5e8f1a2b-3c4d-4e6f-8a9b-0c1d2e3f4a5b
                slug: desk
                prompt: Ask
                intents:
                  - name: ask
                    phrases: [Ask]
                    params:
                      - type: person
                        required: true
                        options:
                          - {text: Ada Sales, attributes: {team: Sales, country: PT}}
                          - {text: Ben Support, attributes: {team: Support, country: FR}}
                          - {text: Cy Sales, attributes: {team: Sales, country: FR}}
                          - {text: Dee Finance, attributes: {team: [Finance, Sales], country: PT}}
                          - {text: Eve Support, attributes: {team: Support, country: PT}}
                        context_attributes:
                          team: {from: user.team, mode: boost}
                          country: filter
            """;

    @RegisterExtension
    static final DemoServer demo = new DemoServer().withTenant("lab", Map.of("lab/tenant.yaml", LAB), "desk");

    /** The same tenant on a server of its own that applies what users picked every second. */
    @RegisterExtension
    static final DemoServer learning = new DemoServer()
            .withTenant("lab", Map.of("lab/tenant.yaml", LAB), "desk")
            .withSettings(settings -> settings.withLearning(new LearningSettings(
                    Duration.ofDays(14), Duration.ofSeconds(1), 20_000, 1_000_000, 1_000_000, 10_000)));

    private static List<String> people(String contextJson) throws Exception {
        return people(demo, contextJson);
    }

    private static List<String> people(DemoServer server, String contextJson) throws Exception {
        ObjectNode body = envelope("Ask ");
        if (contextJson != null) {
            ((ObjectNode) body.path("data")).set("additional_context", ApiClient.JSON.readTree(contextJson));
        }
        return server.suggestOk("lab/desk", body).options("person");
    }

    @Test
    void without_context_the_list_keeps_its_order() throws Exception {
        assertEquals(List.of("Ada Sales", "Ben Support", "Cy Sales", "Dee Finance", "Eve Support"), people(null));
    }

    @Test
    void a_boost_puts_the_options_of_the_named_team_first_keeping_the_others() throws Exception {
        List<String> boosted = people("{\"user\": {\"team\": \"Sales\"}}");
        assertEquals(List.of("Ada Sales", "Cy Sales", "Dee Finance"), boosted.subList(0, 3), boosted.toString());
        assertEquals(5, boosted.size());
    }

    @Test
    void a_filter_keeps_only_the_named_country_and_an_array_means_any_of() throws Exception {
        assertEquals(List.of("Ben Support", "Cy Sales"), people("{\"country\": \"FR\"}"));
        assertEquals(5, people("{\"country\": [\"FR\", \"pt\"]}").size());
    }

    @Test
    void a_filter_that_leaves_nothing_offers_the_whole_list_and_the_log_says_so_without_the_contexts_value()
            throws Exception {
        List<String> lines;
        try (LogLines log = LogLines.of("dev.autocomplete.server.catalogs.CatalogEngine")) {
            assertEquals(5, people("{\"country\": \"JP\"}").size());
            assertEquals(5, people("{\"country\": \"BR\"}").size());
            lines = log.lines();
        }
        assertEquals(1, lines.size(), "one line a minute at most: " + lines);
        String line = lines.getFirst();
        assertTrue(line.contains("lab/desk") && line.contains("by country") && line.contains("'person'"), line);
        assertFalse(line.contains("JP") || line.contains("jp"), "never the context's value: " + line);
    }

    @Test
    void filter_and_boost_combine_and_the_keys_they_read_name_no_option() throws Exception {
        assertEquals(
                List.of("Cy Sales", "Ben Support"), people("{\"country\": \"FR\", \"user\": {\"team\": \"sales\"}}"));
        // "Sales" under the attribute key does not name an option whose text it matches; elsewhere it would.
        List<String> named = people("{\"user\": {\"team\": \"Ben Support\"}}");
        assertTrue(named.getFirst().equals("Ada Sales"), named.toString());
    }

    /** The demo's contacts for an email with nothing typed, with the given context. */
    private static List<String> contacts(String contextJson) throws Exception {
        ObjectNode body = ApiClient.fill(envelope("Create a {{TYPE_1}} to "), "{{TYPE_1}}", "type", "email");
        ((ObjectNode) body.path("data")).set("additional_context", ApiClient.JSON.readTree(contextJson));
        return demo.suggestOk("workspace", body).options("contact");
    }

    private static java.util.Map<String, String> teams() throws Exception {
        java.util.Map<String, String> teams = new java.util.HashMap<>();
        for (String line : java.nio.file.Files.readAllLines(demo.tenants().resolve("demo/data/contacts.csv"))
                .subList(1, 51)) {
            String[] cells = line.split(",");
            teams.put(cells[0], cells[2]);
        }
        return teams;
    }

    @Test
    void the_demo_offers_the_users_team_first_when_the_context_names_it() throws Exception {
        java.util.Map<String, String> teams = teams();
        List<String> plain = contacts("{}");
        assertTrue(plain.subList(0, 5).stream().map(teams::get).distinct().count() > 1, plain.toString());
        List<String> sales = contacts("{\"team\": \"Sales\"}");
        assertEquals(
                List.of("Sales"),
                sales.subList(0, 5).stream().map(teams::get).distinct().toList(),
                sales.toString());
        List<String> support = contacts("{\"team\": [\"Support\"]}");
        assertEquals(
                List.of("Support"),
                support.subList(0, 5).stream().map(teams::get).distinct().toList(),
                support.toString());
    }

    @Test
    void a_records_api_upsert_with_attributes_is_honoured_at_once_and_exported() throws Exception {
        String secret = demo.key("secret");
        ApiClient.Reply upserted = demo.api()
                .call(
                        "POST",
                        "/api/catalogs/contacts/options",
                        secret,
                        "[{\"id\": \"zoe-quartz\", \"text\": \"Zoe Quartz\", \"weight\": 1,"
                                + " \"attributes\": {\"team\": \"Legal\", \"office\": [\"Lisbon\", \"Paris\"]}}]",
                        "application/json");
        assertEquals(200, upserted.status(), upserted.raw());
        assertEquals("Zoe Quartz", contacts("{\"team\": \"Legal\"}").getFirst());
        ApiClient.Reply read = demo.api().call("GET", "/api/catalogs/contacts/options/zoe-quartz", secret, null, null);
        assertEquals(200, read.status(), read.raw());
        assertEquals(
                List.of("Lisbon", "Paris"),
                ApiClient.JSON.convertValue(read.data().path("attributes").path("office"), List.class));
        ApiClient.Reply bad = demo.api()
                .call(
                        "POST",
                        "/api/catalogs/contacts/options",
                        secret,
                        "[{\"id\": \"x\", \"text\": \"X Y\", \"attributes\": {\"team\": 3}},"
                                + " {\"id\": \"y\", \"text\": \"Y Z\", \"attributes\": {\"bad name\": \"a\"}}]",
                        "application/json");
        assertEquals(400, bad.status(), bad.raw());
        assertEquals("INVALID_RECORDS", bad.errorCode());
        assertEquals(2, bad.json().path("error").path("details").size(), bad.raw());
    }

    @Test
    void the_demo_travel_origin_offers_the_home_countrys_cities_first() throws Exception {
        ObjectNode body = envelope("");
        ((ObjectNode) body.path("data"))
                .set("additional_context", ApiClient.JSON.readTree("{\"home_country\": \"PT\"}"));
        List<String> origins = demo.suggestOk("travel", body).options("origin");
        assertEquals("Lisbon", origins.getFirst(), origins.toString());
        assertTrue(origins.contains("Porto"), origins.toString());
        assertEquals(
                "Shanghai",
                demo.suggestOk("travel", envelope("")).options("origin").getFirst());
    }

    /** Eve Support (PT) picked by three sessions, until she comes first without a context. */
    private static void eveLearned() throws Exception {
        for (int i = 0; i < 3; i++) {
            String session = UUID.randomUUID().toString();
            ObjectNode body = envelope("Ask ");
            ((ObjectNode) body.path("meta")).put("session_id", session);
            assertTrue(learning.suggestOk("lab/desk", body).options("person").contains("Eve Support"));
            ObjectNode event = ApiClient.JSON
                    .createObjectNode()
                    .put("source", "full-sdk")
                    .put("session_id", session)
                    .put("type", "option");
            event.putObject("query_data").put("raw_query", "Ask ").put("selected_option", "Eve Support");
            assertEquals(
                    204,
                    learning.api()
                            .post(
                                    "/api/telemetry/events",
                                    learning.key("lab/desk"),
                                    event.toString(),
                                    "application/json",
                                    Map.of())
                            .status());
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!people(learning, null).getFirst().equals("Eve Support")) {
            assertTrue(System.nanoTime() < deadline, "not learned within 15 s: " + people(learning, null));
            Thread.sleep(100);
        }
    }

    /**
     * A boost keeps the options of the named team first, whatever users picked: picks rank within the boosted options
     * and within the others. Before, the ranking by picks put a picked option of another team before them.
     */
    @Test
    void options_users_picked_rank_within_the_boosted_ones_and_within_the_others() throws Exception {
        eveLearned();
        assertEquals(
                List.of("Ada Sales", "Cy Sales", "Dee Finance", "Eve Support", "Ben Support"),
                people(learning, "{\"user\": {\"team\": \"Sales\"}}"));
        assertEquals(
                List.of("Eve Support", "Ben Support", "Ada Sales", "Cy Sales", "Dee Finance"),
                people(learning, "{\"user\": {\"team\": \"Support\"}}"));
    }

    @Test
    void an_option_users_picked_often_never_gets_past_a_filter_that_leaves_others() throws Exception {
        eveLearned();
        // The filter keeps France: she is not offered there (before, the lookup of her by her text got the unfiltered
        // list, and she came first).
        assertEquals(List.of("Ben Support", "Cy Sales"), people(learning, "{\"country\": \"FR\"}"));
        List<String> portugal = people(learning, "{\"country\": \"PT\"}");
        assertEquals("Eve Support", portugal.getFirst(), portugal.toString());
    }
}
