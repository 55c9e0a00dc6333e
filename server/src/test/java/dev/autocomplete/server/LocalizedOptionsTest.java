package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Translated option texts of the demo travel product (French and German), over HTTP. */
class LocalizedOptionsTest {

    /** Late on Thursday 12 March 2026 in travel's time zone (UTC), already Friday in Paris: the product's zone decides. */
    static final Instant NOW = Instant.parse("2026-03-12T23:30:00Z");

    @RegisterExtension
    static final DemoServer demo = new DemoServer().withClock(Clock.fixed(NOW, ZoneOffset.UTC));

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
        assertEquals(
                "Londres", travel(envelope("Lond"), "fr-FR").options("origin").getFirst());
        assertEquals(
                "München", travel(envelope("Münch"), "de").options("origin").getFirst());
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
        ObjectNode body = fill(
                fill(envelope("{{ORIGIN_1}} {{DESTINATION_1}} "), "{{ORIGIN_1}}", "origin", "Lisbonne"),
                "{{DESTINATION_1}}",
                "destination",
                "Vienne");
        ApiClient.Reply french = travel(body, "fr");
        assertTrue(french.data().path("is_ready").asBoolean(), french.raw());
        // The date engine's options, today first, in the request's language.
        assertEquals(
                List.of("jeudi 12 mars 2026", "vendredi 13 mars 2026"),
                french.options("date").subList(0, 2),
                french.raw());
        assertTrue(french.options("cabin").contains("Économique"), french.raw());
        assertTrue(french.options("passengers").contains("1 adulte"), french.raw());

        ObjectNode again = fill(
                fill(envelope("{{ORIGIN_1}} {{DESTINATION_1}} "), "{{ORIGIN_1}}", "origin", "Lissabon"),
                "{{DESTINATION_1}}",
                "destination",
                "Wien");
        ApiClient.Reply german = travel(again, "de-AT");
        assertEquals(
                List.of("Donnerstag, 12. März 2026", "Freitag, 13. März 2026"),
                german.options("date").subList(0, 2),
                german.raw());
        assertTrue(german.options("passengers").contains("1 Erwachsener"), german.raw());

        // Optional params come once the required ones are filled.
        ObjectNode english = fill(
                fill(envelope("{{ORIGIN_1}} {{DESTINATION_1}} "), "{{ORIGIN_1}}", "origin", "Lisbon"),
                "{{DESTINATION_1}}",
                "destination",
                "Vienna");
        ApiClient.Reply defaults = travel(english, "en");
        assertTrue(defaults.options("cabin").contains("Economy"), "English stays the default: " + defaults.raw());
        assertEquals("Thursday 12 March 2026", defaults.options("date").getFirst(), defaults.raw());
    }

    @Test
    void a_translated_cabin_typed_in_french_is_read_as_that_cabin() {
        ObjectNode body = fill(
                fill(envelope("{{ORIGIN_1}} {{DESTINATION_1}} économique"), "{{ORIGIN_1}}", "origin", "Paris"),
                "{{DESTINATION_1}}",
                "destination",
                "Londres");
        ApiClient.Reply reply = travel(body, "fr");
        assertEquals("completed", input(reply, "cabin").path("state").asText(), reply.raw());
        assertFalse(reply.suggestionTypes().contains("cabin"), reply.raw());
    }
}
