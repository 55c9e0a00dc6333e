package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Journeys on the bundled demo tenant, as the official client would make them, over HTTP. */
class DemoJourneysTest {

    @RegisterExtension
    static final DemoServer demo = new DemoServer();

    private static ApiClient.Reply travel(ObjectNode body) {
        return demo.suggestOk("travel", body);
    }

    private static ApiClient.Reply workspace(ObjectNode body) {
        return demo.suggestOk("workspace", body);
    }

    @Test
    void travel_empty_query_gives_the_prompt_and_origin_with_the_most_populous_cities_first() {
        ApiClient.Reply reply = travel(envelope(""));
        JsonNode suggestions = reply.data().path("suggestions");
        assertEquals("placeholder", suggestions.get(0).path("type").asText());
        assertEquals("Book a flight from", suggestions.get(0).path("text").asText());
        assertEquals("origin", suggestions.get(1).path("type").asText());
        assertEquals("From", suggestions.get(1).path("text").asText());
        assertTrue(suggestions.get(1).path("required").asBoolean());
        assertEquals(
                List.of("Shanghai", "Istanbul", "Buenos Aires"),
                reply.options("origin").subList(0, 3));
        assertTrue(reply.data().get("input").isNull());
        assertFalse(reply.data().path("is_ready").asBoolean());
    }

    @Test
    void after_picking_the_origin_destination_comes_first_and_the_query_is_not_ready() {
        ObjectNode body = fill(envelope("Book a flight from {{ORIGIN_1}}"), "{{ORIGIN_1}}", "origin", "Paris");
        ApiClient.Reply reply = travel(body);
        JsonNode input = reply.data().path("input");
        assertEquals(2, input.size(), input.toString());
        assertEquals("intent", input.get(0).path("type").asText());
        assertEquals("Book a flight from ", input.get(0).path("text").asText());
        assertEquals("completed", input.get(0).path("state").asText());
        assertEquals("origin", input.get(1).path("type").asText());
        assertEquals("{{ORIGIN_1}}", input.get(1).path("text").asText());
        assertEquals("selected", input.get(1).path("source").asText());
        assertEquals("destination", reply.suggestionTypes().getFirst());
        assertFalse(reply.options("destination").contains("Paris"), "a picked city is not offered again");
        assertFalse(reply.data().path("is_ready").asBoolean());
    }

    @Test
    void typing_lon_after_to_offers_london_among_the_first_three_and_reads_lon_in_progress() {
        ObjectNode body = fill(envelope("Book a flight from {{ORIGIN_1}} to lon"), "{{ORIGIN_1}}", "origin", "Paris");
        ApiClient.Reply reply = travel(body);
        assertEquals("destination", reply.suggestionTypes().getFirst());
        assertTrue(
                reply.options("destination").subList(0, 3).contains("London"),
                reply.options("destination").toString());
        JsonNode last =
                reply.data().path("input").get(reply.data().path("input").size() - 1);
        assertEquals("destination", last.path("type").asText());
        assertEquals("lon", last.path("text").asText());
        assertEquals("in_progress", last.path("state").asText());
        assertEquals("identified", last.path("source").asText());
    }

    @Test
    void with_both_cities_picked_the_query_is_ready_and_the_optional_params_follow() {
        ObjectNode body = envelope("Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}}");
        fill(body, "{{ORIGIN_1}}", "origin", "Paris");
        fill(body, "{{DESTINATION_1}}", "destination", "London");
        ApiClient.Reply reply = travel(body);
        assertTrue(reply.data().path("is_ready").asBoolean());
        assertEquals(List.of("date", "cabin", "passengers"), reply.suggestionTypes());
        reply.data()
                .path("suggestions")
                .forEach(s -> assertFalse(s.path("required").asBoolean()));
    }

    @Test
    void a_suggestion_behind_the_first_carries_a_short_list_whole_and_of_a_long_one_only_what_the_context_names() {
        // The official client shows these from its cache after the first pick and filters them by substring
        // without asking: the ten most populous of 4,442 cities would answer a "B" with Buenos Aires and Mumbai.
        ApiClient.Reply empty = travel(envelope(""));
        assertEquals(List.of("placeholder", "origin", "destination"), empty.suggestionTypes());
        assertEquals(10, empty.options("origin").size(), empty.raw());
        JsonNode destination = empty.data().path("suggestions").get(2);
        assertFalse(destination.has("options"), "no first page of a long list: " + destination);

        ObjectNode named = envelope("");
        ((ObjectNode) named.get("data"))
                .putObject("additional_context")
                .putArray("recent_cities")
                .add("Paris")
                .add("London");
        ApiClient.Reply recent = travel(named);
        assertEquals(
                List.of("London", "London, Canada", "Paris"),
                recent.options("destination").stream().sorted().toList(),
                "the cities the host names (§4.6), tappable right after the origin pick: " + recent.raw());

        ObjectNode both = envelope("Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}} ");
        fill(both, "{{ORIGIN_1}}", "origin", "Paris");
        fill(both, "{{DESTINATION_1}}", "destination", "London");
        ApiClient.Reply ready = travel(both);
        assertEquals(List.of("Economy", "Premium economy", "Business", "First"), ready.options("cabin"));
        assertEquals(List.of("1 adult", "2 adults", "Family"), ready.options("passengers"));
    }

    @Test
    void a_query_that_starts_with_a_token_and_has_no_cue_words_is_read_well() {
        // The official client inserts picks without connecting words.
        ObjectNode body = fill(envelope("{{ORIGIN_1}} Lond"), "{{ORIGIN_1}}", "origin", "Paris");
        ApiClient.Reply reply = travel(body);
        JsonNode input = reply.data().path("input");
        assertEquals("", input.get(0).path("text").asText());
        assertEquals("completed", input.get(0).path("state").asText(), "the intent is the one the tokens fit");
        assertEquals("destination", input.get(2).path("type").asText());
        assertEquals("Lond", input.get(2).path("text").asText());
        assertEquals("London", reply.options("destination").getFirst());
    }

    @Test
    void free_text_with_no_tokens_is_read_as_the_start_of_an_origin() {
        ApiClient.Reply reply = travel(envelope("Par"));
        assertTrue(reply.data().get("input").isNull());
        assertEquals("origin", reply.suggestionTypes().getFirst());
        assertEquals("Paris", reply.options("origin").getFirst());
    }

    @Test
    void a_freely_typed_full_city_counts_as_completed_for_readiness() {
        ObjectNode body =
                fill(envelope("Book a flight from {{ORIGIN_1}} to London"), "{{ORIGIN_1}}", "origin", "Paris");
        ApiClient.Reply reply = travel(body);
        JsonNode last = reply.data().path("input").get(2);
        assertEquals("London", last.path("text").asText());
        assertEquals("completed", last.path("state").asText());
        assertTrue(reply.data().path("is_ready").asBoolean());
        // A city's everyday name is an alias of its option (the demo's data): `Frankfurt` is Frankfurt am Main, as an
        // end-user trial typed it, in English and in German.
        ObjectNode frankfurt = fill(
                envelope("Book a flight from {{ORIGIN_1}} to Frankfurt on tuesday"),
                "{{ORIGIN_1}}",
                "origin",
                "Lisbon");
        assertTrue(
                travel(frankfurt).data().path("is_ready").asBoolean(),
                travel(frankfurt).raw());
        ObjectNode german = envelope("Flug von Wien nach Frankfurt am Freitag");
        ((ObjectNode) german.path("meta")).put("language", "de");
        assertTrue(
                travel(german).data().path("is_ready").asBoolean(),
                travel(german).raw());
    }

    @Test
    void matching_ignores_case_and_accents() {
        ObjectNode body = fill(envelope("{{ORIGIN_1}} to sao pa"), "{{ORIGIN_1}}", "origin", "Paris");
        assertEquals("São Paulo", travel(body).options("destination").getFirst());
    }

    @Test
    void a_cue_word_selects_its_param() {
        ObjectNode body = envelope("Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}} in Bus");
        fill(body, "{{ORIGIN_1}}", "origin", "Paris");
        fill(body, "{{DESTINATION_1}}", "destination", "London");
        ApiClient.Reply reply = travel(body);
        assertEquals("cabin", reply.suggestionTypes().getFirst());
        assertEquals(List.of("Business"), reply.options("cabin"));
    }

    @Test
    void recently_suggested_types_read_trailing_text_first() {
        ObjectNode body = fill(envelope("{{ORIGIN_1}} {{DESTINATION_1}} to"), "{{ORIGIN_1}}", "origin", "Paris");
        fill(body, "{{DESTINATION_1}}", "destination", "London");
        ((ObjectNode) body.get("data"))
                .putArray("recently_suggested")
                .addObject()
                .put("type", "passengers")
                .put("text", "Passengers");
        // "to" is no cue of an open param here; with passengers on screen, nothing matches, so no reading.
        ApiClient.Reply reply = travel(body);
        assertTrue(reply.data().path("is_ready").asBoolean());

        ObjectNode fam = fill(envelope("{{ORIGIN_1}} {{DESTINATION_1}} Fam"), "{{ORIGIN_1}}", "origin", "Paris");
        fill(fam, "{{DESTINATION_1}}", "destination", "London");
        ((ObjectNode) fam.get("data"))
                .putArray("recently_suggested")
                .addObject()
                .put("type", "passengers")
                .put("text", "Passengers");
        ApiClient.Reply famReply = travel(fam);
        assertEquals("passengers", famReply.suggestionTypes().getFirst());
        assertEquals(List.of("Family"), famReply.options("passengers"));
    }

    @Test
    void workspace_automation_suggests_trigger() {
        ObjectNode body = fill(envelope("Create a {{TYPE_1}}"), "{{TYPE_1}}", "type", "automation");
        ApiClient.Reply reply = workspace(body);
        assertEquals("trigger", reply.suggestionTypes().getFirst());
        assertTrue(reply.suggestionTypes().contains("action"));
        assertFalse(reply.suggestionTypes().contains("contact"));
        assertFalse(reply.data().path("is_ready").asBoolean());
    }

    @Test
    void workspace_email_suggests_contact_and_is_ready_once_a_contact_is_picked() {
        ObjectNode body = fill(envelope("Create a {{TYPE_1}}"), "{{TYPE_1}}", "type", "email");
        ApiClient.Reply reply = workspace(body);
        assertEquals("contact", reply.suggestionTypes().getFirst());
        assertEquals(10, reply.options("contact").size());
        assertFalse(reply.suggestionTypes().contains("trigger"));

        ObjectNode picked = fill(envelope("Create a {{TYPE_1}} to {{CONTACT_1}}"), "{{TYPE_1}}", "type", "email");
        fill(picked, "{{CONTACT_1}}", "contact", "Ada Lovelace");
        ApiClient.Reply ready = workspace(picked);
        assertTrue(ready.data().path("is_ready").asBoolean());
        assertEquals(List.of("topic"), ready.suggestionTypes());
    }

    @Test
    void workspace_empty_query_prompts_create_an_and_offers_the_three_types() {
        ApiClient.Reply reply = workspace(envelope(""));
        assertEquals(
                "Create an",
                reply.data().path("suggestions").get(0).path("text").asText());
        assertEquals("type", reply.suggestionTypes().get(1));
        assertEquals(List.of("email", "automation", "insight"), reply.options("type"));
    }
}
