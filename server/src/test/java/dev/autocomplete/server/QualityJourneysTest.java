package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Typo tolerance, free-text reading, context and language on the demo travel product, over HTTP. */
class QualityJourneysTest {

    @RegisterExtension
    static final DemoServer demo = new DemoServer();

    private static ApiClient.Reply travel(ObjectNode body) {
        return demo.suggestOk("travel", body);
    }

    @Test
    void a_whole_free_text_query_ranks_london_first_for_destination_and_is_not_yet_ready() {
        ApiClient.Reply reply = travel(envelope("book a flight from paris to lon"));
        assertTrue(reply.data().get("input").isNull(), "no token, so no input (protocol §4.3)");
        assertEquals("destination", reply.suggestionTypes().getFirst());
        assertEquals("London", reply.options("destination").getFirst());
        assertFalse(reply.data().path("is_ready").asBoolean());
    }

    @Test
    void a_whole_free_text_query_with_both_cities_typed_out_is_ready() {
        ApiClient.Reply reply = travel(envelope("book a flight from paris to london"));
        assertTrue(reply.data().path("is_ready").asBoolean(), reply.raw());
    }

    @Test
    void a_city_with_a_swapped_pair_of_letters_is_found_and_read_as_need_confirmation() {
        ObjectNode body =
                fill(envelope("Book a flight from {{ORIGIN_1}} to Lodnon"), "{{ORIGIN_1}}", "origin", "Paris");
        ApiClient.Reply reply = travel(body);
        assertEquals("London", reply.options("destination").getFirst());
        JsonNode last = reply.data().path("input").get(2);
        assertEquals("Lodnon", last.path("text").asText());
        assertEquals("need_confirmation", last.path("state").asText());
        assertEquals("identified", last.path("source").asText());
        assertFalse(reply.data().path("is_ready").asBoolean());
    }

    @Test
    void a_typo_in_the_intent_phrase_reads_the_intent_as_need_confirmation() {
        ObjectNode body = fill(envelope("Book a fligth from {{ORIGIN_1}}"), "{{ORIGIN_1}}", "origin", "Paris");
        JsonNode intent = travel(body).data().path("input").get(0);
        assertEquals("need_confirmation", intent.path("state").asText());
    }

    @Test
    void a_home_city_in_the_context_is_the_first_origin_option() {
        ObjectNode body = envelope("");
        ((ObjectNode) body.get("data")).putObject("additional_context").put("home_city", "Lyon");
        assertEquals("Lyon", travel(body).options("origin").getFirst());
    }

    @Test
    void french_and_german_requests_get_translated_prompt_and_labels() {
        ObjectNode french = envelope("");
        ((ObjectNode) french.get("meta")).put("language", "fr-CA");
        JsonNode suggestions = travel(french).data().path("suggestions");
        assertEquals(
                "Réserver un vol au départ de", suggestions.get(0).path("text").asText());
        assertEquals("Départ", suggestions.get(1).path("text").asText());

        ObjectNode german = envelope("");
        ((ObjectNode) german.get("meta")).put("language", "de");
        assertEquals(
                "Von",
                travel(german).data().path("suggestions").get(1).path("text").asText());
    }

    @Test
    void a_french_query_is_read_with_french_phrases_and_cues() {
        ObjectNode body = envelope("Réserver un vol de Paris à Lon");
        ((ObjectNode) body.get("meta")).put("language", "fr");
        ApiClient.Reply reply = travel(body);
        assertEquals("destination", reply.suggestionTypes().getFirst());
        assertEquals("Londres", reply.options("destination").getFirst(), "London, shown in French");
        assertEquals(
                "Arrivée", reply.data().path("suggestions").get(0).path("text").asText());
    }

    @Test
    void a_repeated_request_answers_from_the_cache_with_its_own_ids() {
        ObjectNode first = envelope("book a flight from paris to ber");
        ObjectNode second = envelope("book a flight from paris to ber");
        ApiClient.Reply a = travel(first);
        ApiClient.Reply b = travel(second);
        assertEquals(a.data().toString(), b.data().toString());
        assertEquals(
                second.path("meta").path("request_id").asText(),
                b.json().path("meta").path("request_id").asText());
        assertFalse(
                a.json()
                        .path("meta")
                        .path("session_id")
                        .asText()
                        .equals(b.json().path("meta").path("session_id").asText()),
                "each gets a fresh session id");
    }
}
