package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A plug-in engine answers in the request's language only where the product is written in it (docs/protocol.md §3.6):
 * an operator trial's French browser on a product written in English and German got French dates under English
 * labels, some half English ({@code Tuesday, mardi 8 décembre}). Over HTTP, on Sunday 6 December 2026.
 */
class EngineLanguagesTest {

    private static final String LAB = """
            display_name: Lab
            default_language: en
            products:
              - id: 2b7e4c1a-9d3f-4a6b-8c5e-1f2a3b4c5d6e
                slug: trip
                prompt: {en: Travel, de: Reise}
                intents:
                  - name: travel
                    phrases: {en: [Travel], de: [Reise]}
                    params:
                      - type: when
                        label: {en: When, de: Wann}
                        required: true
                        cues: {en: [on], de: [am]}
                        engine: date
            """;

    @RegisterExtension
    static final DemoServer demo = new DemoServer()
            .withTenant("lab", Map.of("lab/tenant.yaml", LAB), "trip")
            .withClock(Clock.fixed(Instant.parse("2026-12-06T10:00:00Z"), ZoneOffset.UTC));

    private static List<String> dates(String query, String language) {
        ObjectNode body = envelope(query);
        ((ObjectNode) body.path("meta")).put("language", language);
        JsonNode data = demo.suggestOk("lab/trip", body).data();
        for (JsonNode suggestion : data.path("suggestions")) {
            if (suggestion.path("type").asText().equals("when")) {
                List<String> texts = new ArrayList<>();
                suggestion
                        .path("options")
                        .forEach(option -> texts.add(option.path("text").asText()));
                return texts;
            }
        }
        throw new AssertionError("no date suggestion: " + data);
    }

    @Test
    void a_language_the_product_is_not_written_in_gets_the_default_languages_dates() {
        assertEquals("Sunday 6 December 2026", dates("Travel on ", "fr").getFirst());
        assertEquals(
                List.of("today, Sunday 6 December", "tomorrow, Monday 7 December"),
                dates("Travel on t", "fr-CA").subList(0, 2));
    }

    @Test
    void a_language_it_is_written_in_gets_its_own() {
        assertEquals("Sonntag, 6. Dezember 2026", dates("Reise am ", "de-AT").getFirst());
        assertEquals("Sunday 6 December 2026", dates("Travel on ", "en-GB").getFirst());
    }
}
