package dev.autocomplete.engine.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.Query;
import dev.autocomplete.spi.Reading;
import dev.autocomplete.spi.ReadingState;
import dev.autocomplete.spi.Segment;

/** Option texts in other languages: shown, matched and read back in the request's language and the default. */
class OptionTranslationsTest {

    @TempDir
    Path temp;

    private static final Map<String, Object> CITIES = Map.of("options", List.of(
            Map.of("text", "London", "weight", 9_000_000, "translations", Map.of("fr", "Londres")),
            Map.of("text", "Munich", "weight", 1_500_000, "translations", Map.of("de", "München")),
            Map.of("text", "Lyon", "weight", 500_000)));

    private static Map<String, Object> travel(Map<String, Object> cities) {
        return Map.of(
                "catalogs", Map.of("cities", cities),
                "intents", List.of(Map.of("name", "book_flight", "phrases", List.of("Book a flight from"),
                        "params", List.of(
                                Map.of("type", "origin", "required", true, "cues", List.of("from"),
                                        "catalog", "cities"),
                                Map.of("type", "destination", "required", true, "cues", List.of("to"),
                                        "catalog", "cities"),
                                Map.of("type", "cabin", "options", List.of(
                                        Map.of("text", "Economy", "translations", Map.of("fr", "Économique")),
                                        Map.of("text", "Business"))),
                                Map.of("type", "seat", "when", Map.of("cabin", List.of("Economy")),
                                        "options", List.of("Window", "Aisle"))))));
    }

    private Engine engine(Map<String, Object> config) throws EngineConfigException {
        return new CatalogEngineFactory().create(new EngineContext("t", "travel", "en", temp, ConfigTree.of(config)));
    }

    /** {@code raw} ends with free text; {@code fills} fill its tokens in order: {@code {{TYPE_1}}}. */
    private static Query query(String raw, Map<String, String> fills, String language) {
        List<Segment> segments = new ArrayList<>();
        int at = 0;
        for (Map.Entry<String, String> fill : fills.entrySet()) {
            String token = "{{" + fill.getKey().toUpperCase() + "_1}}";
            int start = raw.indexOf(token, at);
            if (start > at) {
                segments.add(new Segment.Text(at, raw.substring(at, start)));
            }
            segments.add(new Segment.Param(start, token, fill.getKey(), fill.getValue(), true));
            at = start + token.length();
        }
        if (at < raw.length()) {
            segments.add(new Segment.Text(at, raw.substring(at)));
        }
        return new Query(raw, segments, Set.of(), List.of(), List.of(), null, language, 10);
    }

    private static List<String> options(Reading reading, String type) {
        return reading.suggestions().stream().filter(s -> s.type().equals(type)).findFirst().orElseThrow()
                .options().stream().map(Reading.Option::text).toList();
    }

    private static ReadingState state(Reading reading, String type) {
        return reading.identified().stream().filter(i -> i.type().equals(type)).map(Reading.Identified::state)
                .findFirst().orElse(null);
    }

    @Test
    void options_are_shown_in_the_requested_language_with_fallback_along_the_tag() throws Exception {
        Engine engine = engine(travel(CITIES));
        assertEquals(List.of("Londres", "Munich", "Lyon"), options(engine.read(query("", Map.of(), "fr-CA")), "origin"));
        assertEquals(List.of("London", "München", "Lyon"), options(engine.read(query("", Map.of(), "de")), "origin"));
        assertEquals(List.of("London", "Munich", "Lyon"), options(engine.read(query("", Map.of(), null)), "origin"));
    }

    @Test
    void a_translated_option_keeps_its_default_text_as_an_alias_for_context_names() throws Exception {
        Reading reading = engine(travel(CITIES)).read(query("", Map.of(), "fr"));
        Reading.Option london = reading.suggestions().get(0).options().getFirst();
        assertEquals("Londres", london.text());
        assertEquals(List.of("London"), london.aliases());
    }

    @Test
    void typing_the_french_or_the_default_text_in_french_finds_the_option_shown_in_french() throws Exception {
        Engine engine = engine(travel(CITIES));
        assertEquals("Londres", options(engine.read(query("lond", Map.of(), "fr")), "origin").getFirst());
        assertEquals(ReadingState.COMPLETED, state(engine.read(query("Londres", Map.of(), "fr")), "origin"));
        assertEquals(ReadingState.COMPLETED, state(engine.read(query("London", Map.of(), "fr")), "origin"));
        assertEquals("Londres", options(engine.read(query("londers", Map.of(), "fr")), "origin").getFirst(),
                "a typo in the French text");
    }

    @Test
    void another_language_is_not_matched() throws Exception {
        Engine engine = engine(travel(CITIES));
        assertNotEquals(ReadingState.COMPLETED, state(engine.read(query("Londres", Map.of(), "de")), "origin"));
        assertNotEquals(ReadingState.COMPLETED, state(engine.read(query("München", Map.of(), "fr")), "origin"));
        assertEquals(ReadingState.COMPLETED, state(engine.read(query("München", Map.of(), "de-AT")), "origin"));
    }

    @Test
    void a_pick_sent_back_in_french_is_the_same_option_for_exclusion_and_conditions() throws Exception {
        Engine engine = engine(travel(CITIES));
        Reading next = engine.read(query("{{ORIGIN_1}} ", Map.of("origin", "Londres"), "fr"));
        assertEquals(List.of("Munich", "Lyon"), options(next, "destination"), "London is picked already");

        Map<String, String> fills = new java.util.LinkedHashMap<>();
        fills.put("origin", "Londres");
        fills.put("destination", "Lyon");
        fills.put("cabin", "Économique");
        Reading seat = engine.read(query("{{ORIGIN_1}} {{DESTINATION_1}} {{CABIN_1}} ", fills, "fr"));
        assertTrue(seat.suggestions().stream().anyMatch(s -> s.type().equals("seat")),
                "the French 'Économique' is Economy for when: {cabin: Economy}");
        assertFalse(seat.suggestions().stream().anyMatch(s -> s.type().equals("cabin")));
    }

    @Test
    void csv_catalogs_take_text_columns_per_language_and_a_separate_translations_file() throws Exception {
        Files.writeString(temp.resolve("cities.csv"), "text,weight,text_fr\nLondon,9,Londres\nMunich,2,\nLyon,1,\n");
        Files.writeString(temp.resolve("more.csv"), "text,text_de,text_fr\nMunich,München,\n");
        Engine engine = engine(travel(Map.of("file", "cities.csv", "translations", "more.csv")));
        assertEquals(List.of("Londres", "Munich", "Lyon"), options(engine.read(query("", Map.of(), "fr")), "origin"));
        assertEquals(List.of("London", "München", "Lyon"), options(engine.read(query("", Map.of(), "de")), "origin"));
    }

    @Test
    void translations_of_the_default_language_of_unknown_options_or_with_bad_tags_are_errors() throws Exception {
        Map<String, Object> english = Map.of("options", List.of(Map.of("text", "London",
                "translations", Map.of("en", "London"))));
        assertTrue(assertThrows(EngineConfigException.class, () -> engine(travel(english))).getMessage()
                .contains("is the default language"));
        Map<String, Object> badTag = Map.of("options", List.of(Map.of("text", "London",
                "translations", Map.of("fr_FR", "Londres"))));
        assertTrue(assertThrows(EngineConfigException.class, () -> engine(travel(badTag))).getMessage()
                .contains("not a language tag"));
        Files.writeString(temp.resolve("cities.csv"), "text\nLondon\n");
        Files.writeString(temp.resolve("unknown.csv"), "text,text_fr\nParis,Paris\n");
        EngineConfigException unknown = assertThrows(EngineConfigException.class,
                () -> engine(travel(Map.of("file", "cities.csv", "translations", "unknown.csv"))));
        assertTrue(unknown.getMessage().contains("names no option: 'Paris'"), unknown.getMessage());
    }
}
