package dev.autocomplete.engine.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.Query;
import dev.autocomplete.spi.Reading;
import dev.autocomplete.spi.ReadingState;
import dev.autocomplete.spi.Segment;

/** The reading rules of the catalog engine on a small travel catalog. */
class CatalogEngineTest {

    private static final Pattern TOKEN = Pattern.compile("\\{\\{([A-Z0-9_]+)_[0-9]+}}");

    private static final Engine TRAVEL = engine(Map.of(
            "prompt", Map.of("en", "Book a flight from", "fr", "Réserver un vol de"),
            "catalogs", Map.of("cities", Map.of("options", List.of(
                    Map.of("text", "London", "weight", 9_000_000, "aliases", List.of("LHR")),
                    Map.of("text", "Paris", "weight", 2_100_000),
                    Map.of("text", "Lyon", "weight", 500_000),
                    Map.of("text", "Londrina", "weight", 500_000),
                    Map.of("text", "Berlin", "weight", 3_600_000),
                    Map.of("text", "Munich", "weight", 1_500_000)))),
            "intents", List.of(Map.of(
                    "name", "book_flight",
                    "phrases", Map.of("en", List.of("Book a flight from", "Book a flight"),
                            "fr", List.of("Réserver un vol de")),
                    "params", List.of(
                            Map.of("type", "origin", "label", Map.of("en", "From", "fr", "De", "de", "Von"),
                                    "required", true, "cues", Map.of("en", List.of("from"), "fr", List.of("de")),
                                    "catalog", "cities",
                                    "context_keys", List.of("home_city")),
                            Map.of("type", "destination", "label", Map.of("en", "To", "fr", "À"),
                                    "required", true, "cues", Map.of("en", List.of("to"), "fr", List.of("à")),
                                    "catalog", "cities"),
                            Map.of("type", "cabin", "label", "Cabin", "cues", List.of("in"),
                                    "options", List.of("Economy", "Business")))))));

    private static Engine engine(Map<String, Object> config) {
        try {
            return new CatalogEngineFactory().create(
                    new EngineContext("t", "travel", "en", Path.of("."), ConfigTree.of(config)));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** A query whose tokens are filled from {@code fills} (type to text), as the server builds it. */
    private static Query query(String raw, Map<String, String> fills, List<Query.EchoedParam> echo,
            List<Query.SuggestionRef> recent, Object context, String language) {
        List<Segment> segments = new ArrayList<>();
        Matcher m = TOKEN.matcher(raw);
        int at = 0;
        while (m.find()) {
            if (m.start() > at) {
                segments.add(new Segment.Text(at, raw.substring(at, m.start())));
            }
            String type = m.group(1).toLowerCase();
            segments.add(new Segment.Param(m.start(), m.group(), type, fills.get(type), fills.containsKey(type)));
            at = m.end();
        }
        if (at < raw.length()) {
            segments.add(new Segment.Text(at, raw.substring(at)));
        }
        return new Query(raw, segments, Set.of(), echo, recent, context, language, 10);
    }

    private static Reading read(String raw) {
        return TRAVEL.read(query(raw, Map.of(), List.of(), List.of(), null, null));
    }

    private static List<String> options(Reading reading, String type) {
        return reading.suggestions().stream().filter(s -> s.type().equals(type)).findFirst().orElseThrow()
                .options().stream().map(Reading.Option::text).toList();
    }

    private static Reading.Identified identified(Reading reading, String type) {
        return reading.identified().stream().filter(i -> i.type().equals(type)).findFirst().orElse(null);
    }

    @Test
    void a_whole_free_text_query_is_read_intent_origin_and_destination_in_progress() {
        String raw = "book a flight from paris to lon";
        Reading reading = read(raw);
        assertEquals(ReadingState.COMPLETED, reading.intent().state());
        Reading.Identified origin = identified(reading, "origin");
        assertEquals(ReadingState.COMPLETED, origin.state());
        assertEquals("paris", raw.substring(origin.start(), origin.end()));
        assertEquals(ReadingState.IN_PROGRESS, identified(reading, "destination").state());
        assertEquals("destination", reading.suggestions().getFirst().type());
        assertEquals("London", options(reading, "destination").getFirst());
    }

    @Test
    void a_whole_free_text_query_with_every_required_value_completed_reads_both_completed() {
        Reading reading = read("book a flight from paris to london");
        assertEquals(ReadingState.COMPLETED, identified(reading, "origin").state());
        assertEquals(ReadingState.COMPLETED, identified(reading, "destination").state());
        assertEquals(List.of("origin", "destination"), reading.intent().requiredTypes());
    }

    @Test
    void a_typo_level_value_is_read_as_need_confirmation_and_its_option_comes_first() {
        Reading reading = read("book a flight from pairs to lodnon");
        assertEquals(ReadingState.NEED_CONFIRMATION, identified(reading, "origin").state());
        assertEquals(ReadingState.NEED_CONFIRMATION, identified(reading, "destination").state());
        assertEquals("London", options(reading, "destination").getFirst());
    }

    @Test
    void trailing_text_answers_the_recently_suggested_type_before_cue_words() {
        String raw = "{{ORIGIN_1}} lon";
        Reading reading = TRAVEL.read(query(raw, Map.of("origin", "Paris"), List.of(),
                List.of(new Query.SuggestionRef("destination", "To")), null, null));
        assertEquals("destination", reading.suggestions().getFirst().type());
        assertEquals(ReadingState.IN_PROGRESS, identified(reading, "destination").state());
    }

    @Test
    void an_echoed_identified_value_is_kept_only_while_its_text_is_still_in_the_query() {
        List<Query.EchoedParam> echo = List.of(new Query.EchoedParam("origin", "paris"));
        Reading kept = TRAVEL.read(query("paris to lon", Map.of(), echo, List.of(), null, null));
        assertEquals(ReadingState.COMPLETED, identified(kept, "origin").state());
        Reading revised = TRAVEL.read(query("lyon to lon", Map.of(), echo, List.of(), null, null));
        Reading.Identified origin = identified(revised, "origin");
        assertEquals("lyon", "lyon to lon".substring(origin.start(), origin.end()));
    }

    @Test
    void a_prefix_of_a_phrase_reads_the_intent_in_progress() {
        Reading reading = read("book a fl");
        assertEquals(ReadingState.IN_PROGRESS, reading.intent().state());
        assertTrue(reading.identified().isEmpty());
    }

    @Test
    void a_phrase_with_a_typo_reads_the_intent_as_need_confirmation() {
        Reading reading = read("book a fligth from par");
        assertEquals(ReadingState.NEED_CONFIRMATION, reading.intent().state());
        assertEquals("Paris", options(reading, "origin").getFirst());
    }

    @Test
    void a_home_city_in_the_context_is_the_first_origin_option() {
        Reading reading = TRAVEL.read(query("", Map.of(), List.of(), List.of(), Map.of("home_city", "Lyon"), null));
        assertEquals("Lyon", options(reading, "origin").getFirst());
        assertFalse(options(reading, "destination").isEmpty());
        assertEquals("London", options(reading, "destination").getFirst());
    }

    @Test
    void the_language_picks_labels_and_prompt_with_fallback_along_the_tag() {
        Reading french = TRAVEL.read(query("", Map.of(), List.of(), List.of(), null, "fr-CA"));
        assertEquals("Réserver un vol de", french.prompt());
        assertEquals("De", french.suggestions().getFirst().label());
        Reading german = TRAVEL.read(query("", Map.of(), List.of(), List.of(), null, "de-DE"));
        assertEquals("Book a flight from", german.prompt());
        assertEquals("Von", german.suggestions().getFirst().label());
    }

    @Test
    void the_empty_query_has_no_intent() {
        assertNull(read("").intent());
    }

    @Test
    void phrases_and_cues_match_in_the_requested_language_and_in_the_default_one() {
        String french = "réserver un vol de paris à lon";
        Reading reading = TRAVEL.read(query(french, Map.of(), List.of(), List.of(), null, "fr-FR"));
        assertEquals(ReadingState.COMPLETED, reading.intent().state());
        assertEquals(ReadingState.COMPLETED, identified(reading, "origin").state());
        assertEquals("London", options(reading, "destination").getFirst());
        Reading english = TRAVEL.read(query("book a flight from paris to lon", Map.of(), List.of(), List.of(), null,
                "fr-FR"));
        assertEquals(ReadingState.COMPLETED, english.intent().state());
    }
}
