package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.node.ObjectNode;

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

    private static List<String> people(String contextJson) throws Exception {
        ObjectNode body = envelope("Ask ");
        if (contextJson != null) {
            ((ObjectNode) body.path("data")).set("additional_context", ApiClient.JSON.readTree(contextJson));
        }
        return demo.suggestOk("lab/desk", body).options("person");
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
    void a_filter_that_leaves_nothing_offers_the_whole_list() throws Exception {
        assertEquals(5, people("{\"country\": \"JP\"}").size());
    }

    @Test
    void filter_and_boost_combine_and_the_keys_they_read_name_no_option() throws Exception {
        assertEquals(List.of("Cy Sales", "Ben Support"), people("{\"country\": \"FR\", \"user\": {\"team\": \"sales\"}}"));
        // "Sales" under the attribute key does not name an option whose text it matches; elsewhere it would.
        List<String> named = people("{\"user\": {\"team\": \"Ben Support\"}}");
        assertTrue(named.getFirst().equals("Ada Sales"), named.toString());
    }
}
