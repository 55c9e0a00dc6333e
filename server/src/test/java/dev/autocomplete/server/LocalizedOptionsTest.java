package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;


/** Translated option texts of the demo travel product (French and German), over HTTP. */
class LocalizedOptionsTest {

    @RegisterExtension
    static final DemoServer demo = new DemoServer();

    private static ApiClient.Reply travel(ObjectNode body, String language) {
        ((ObjectNode) body.get("meta")).put("language", language);
        return demo.suggestOk("travel", body);
    }

    private static JsonNode input(ApiClient.Reply reply, String type) {
        for (JsonNode entry : reply.data().path("input")) {
            if (entry.path("type").asText().equals(type)) {
                return entry;
            }
        }
        return null;
    }

    @Test
    void typing_the_start_of_a_city_in_french_or_german_shows_its_translated_text() {
        assertEquals("Londres", travel(envelope("Lond"), "fr-FR").options("origin").getFirst());
        assertEquals("München", travel(envelope("Münch"), "de").options("origin").getFirst());
        assertEquals("Wien", travel(envelope("Vien"), "de").options("origin").getFirst(), "Vienna, typed in English");
    }

    @Test
    void londres_and_london_both_read_as_the_destination_in_french() {
        for (String typed : new String[] {"Londres", "London"}) {
            ObjectNode body = fill(envelope("{{ORIGIN_1}} " + typed), "{{ORIGIN_1}}", "origin", "Paris");
            ApiClient.Reply reply = travel(body, "fr");
            JsonNode destination = input(reply, "destination");
            assertEquals(typed, destination.path("text").asText(), reply.raw());
            assertEquals("completed", destination.path("state").asText(), reply.raw());
            assertTrue(reply.data().path("is_ready").asBoolean(), reply.raw());
        }
    }

    @Test
    void a_city_picked_in_french_is_not_offered_again() {
        ObjectNode body = fill(envelope("{{ORIGIN_1}} Lon"), "{{ORIGIN_1}}", "origin", "Londres");
        ApiClient.Reply reply = travel(body, "fr");
        assertEquals("destination", reply.suggestionTypes().getFirst());
        assertFalse(reply.options("destination").contains("Londres"), reply.raw());
        assertFalse(reply.options("destination").contains("London"), reply.raw());
        assertFalse(reply.options("destination").isEmpty(), reply.raw());
    }

    @Test
    void the_small_option_lists_are_translated_and_picks_in_french_are_filled() {
        ObjectNode body = fill(fill(envelope("{{ORIGIN_1}} {{DESTINATION_1}} "), "{{ORIGIN_1}}", "origin", "Lisbonne"),
                "{{DESTINATION_1}}", "destination", "Vienne");
        ApiClient.Reply french = travel(body, "fr");
        assertTrue(french.data().path("is_ready").asBoolean(), french.raw());
        assertEquals("Aujourd'hui", french.options("date").getFirst());
        assertTrue(french.options("cabin").contains("Économique"), french.raw());
        assertTrue(french.options("passengers").contains("1 adulte"), french.raw());

        ObjectNode again = fill(fill(envelope("{{ORIGIN_1}} {{DESTINATION_1}} "), "{{ORIGIN_1}}", "origin", "Lissabon"),
                "{{DESTINATION_1}}", "destination", "Wien");
        ApiClient.Reply german = travel(again, "de-AT");
        assertEquals("Heute", german.options("date").getFirst());
        assertTrue(german.options("passengers").contains("1 Erwachsener"), german.raw());
        assertTrue(travel(envelope(""), "en").options("cabin").contains("Economy"), "English stays the default");
    }

    @Test
    void a_translated_cabin_typed_in_french_is_read_as_that_cabin() {
        ObjectNode body = fill(fill(envelope("{{ORIGIN_1}} {{DESTINATION_1}} économique"), "{{ORIGIN_1}}", "origin",
                "Paris"), "{{DESTINATION_1}}", "destination", "Londres");
        ApiClient.Reply reply = travel(body, "fr");
        assertEquals("completed", input(reply, "cabin").path("state").asText(), reply.raw());
        assertFalse(reply.suggestionTypes().contains("cabin"), reply.raw());
    }
}
