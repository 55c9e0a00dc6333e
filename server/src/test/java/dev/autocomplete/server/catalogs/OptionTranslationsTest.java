package dev.autocomplete.server.catalogs;

import static dev.autocomplete.server.catalogs.TestTenant.ask;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Option texts in other languages: shown, matched and read back in the request's language and the default. */
class OptionTranslationsTest {

    @TempDir
    Path temp;

    private static final Map<String, Object> CITIES = Map.of(
            "options",
            List.of(
                    Map.of("text", "London", "weight", 9_000_000, "translations", Map.of("fr", "Londres")),
                    Map.of("text", "Munich", "weight", 1_500_000, "translations", Map.of("de", "München")),
                    Map.of("text", "Lyon", "weight", 500_000)));

    private static final List<String> FRENCH = List.of("fr-ca", "fr");

    private Engine engine(Map<String, Object> cities) throws EngineConfigException {
        return new TestTenant(temp, Map.of("cities", cities))
                .engine(
                        "origin", Map.of("catalog", "cities"),
                        "destination", Map.of("catalog", "cities"),
                        "cabin",
                                Map.of(
                                        "options",
                                        List.of(
                                                Map.of("text", "Economy", "translations", Map.of("fr", "Économique")),
                                                Map.of("text", "Business"))));
    }

    private static List<String> options(Engine engine, String typed, List<String> languages, String... filled) {
        return engine.options(ask("origin", languages, filled), typed).stream()
                .map(Option::text)
                .toList();
    }

    private static SpanMatch match(Engine engine, String span, List<String> languages) {
        return engine.match(ask("origin", languages), List.of(span)).getFirst();
    }

    @Test
    void options_are_shown_in_the_requested_language_with_fallback_along_the_tag() throws Exception {
        Engine engine = engine(CITIES);
        assertEquals(List.of("Londres", "Munich", "Lyon"), options(engine, "", FRENCH));
        assertEquals(List.of("London", "München", "Lyon"), options(engine, "", List.of("de")));
        assertEquals(List.of("London", "Munich", "Lyon"), options(engine, "", List.of()));
    }

    @Test
    void a_translated_option_keeps_its_default_text_as_an_alias_for_context_names() throws Exception {
        Option london = engine(CITIES).options(ask("origin", List.of("fr")), "").getFirst();
        assertEquals("Londres", london.text());
        assertEquals(List.of("London"), london.aliases());
    }

    @Test
    void typing_the_french_or_the_default_text_in_french_finds_the_option_shown_in_french() throws Exception {
        Engine engine = engine(CITIES);
        assertEquals("Londres", options(engine, "lond", FRENCH).getFirst());
        assertEquals(SpanMatch.exact("Londres"), match(engine, "Londres", FRENCH));
        assertEquals(
                SpanMatch.exact("Londres"), match(engine, "London", FRENCH), "the value is in the request's language");
        assertEquals(SpanMatch.exact("London"), match(engine, "London", List.of()));
        assertEquals("Londres", options(engine, "londers", FRENCH).getFirst(), "a typo in the French text");
        assertEquals(SpanMatch.LOOSE, match(engine, "londers", FRENCH));
        assertEquals(
                "Économique",
                engine.options(ask("cabin", FRENCH), "econ").getFirst().text());
    }

    @Test
    void another_language_is_not_matched() throws Exception {
        Engine engine = engine(CITIES);
        assertFalse(match(engine, "Londres", List.of("de")).kind().isValue());
        assertFalse(match(engine, "München", FRENCH).kind().isValue());
        assertEquals(SpanMatch.exact("München"), match(engine, "München", List.of("de-at", "de")));
    }

    @Test
    void a_pick_sent_back_in_french_is_the_same_option_for_exclusion() throws Exception {
        Engine engine = engine(CITIES);
        List<String> destinations = engine.options(ask("destination", FRENCH, "origin", "Londres"), "").stream()
                .map(Option::text)
                .toList();
        assertEquals(List.of("Munich", "Lyon"), destinations, "London is picked already");
    }

    @Test
    void csv_catalogs_take_text_columns_per_language_and_a_separate_translations_file() throws Exception {
        Files.writeString(temp.resolve("cities.csv"), "text,weight,text_fr\nLondon,9,Londres\nMunich,2,\nLyon,1,\n");
        Files.writeString(temp.resolve("more.csv"), "text,text_de,text_fr\nMunich,München,\n");
        Engine engine = engine(Map.of("file", "cities.csv", "translations", "more.csv"));
        assertEquals(List.of("Londres", "Munich", "Lyon"), options(engine, "", List.of("fr")));
        assertEquals(List.of("London", "München", "Lyon"), options(engine, "", List.of("de")));
    }

    @Test
    void translations_of_the_default_language_of_unknown_options_or_with_bad_tags_are_errors() throws Exception {
        Map<String, Object> english =
                Map.of("options", List.of(Map.of("text", "London", "translations", Map.of("en", "London"))));
        EngineConfigException defaultLanguage = assertThrows(EngineConfigException.class, () -> engine(english));
        assertTrue(defaultLanguage.getMessage().contains("is the default language"), defaultLanguage.getMessage());
        assertEquals("catalogs.cities.options[0].translations", defaultLanguage.key());
        Map<String, Object> badTag =
                Map.of("options", List.of(Map.of("text", "London", "translations", Map.of("fr_FR", "Londres"))));
        assertTrue(assertThrows(EngineConfigException.class, () -> engine(badTag))
                .getMessage()
                .contains("not a language tag"));
        // A language's name is no tag, though BCP 47's syntax allows 5 to 8 letters (an operator trial's typo was
        // taken).
        Map<String, Object> named =
                Map.of("options", List.of(Map.of("text", "London", "translations", Map.of("french", "Londres"))));
        String french =
                assertThrows(EngineConfigException.class, () -> engine(named)).getMessage();
        assertTrue(french.contains("'french' is not a language tag") && french.contains("did you mean 'fr'?"), french);
        Files.writeString(temp.resolve("german.csv"), "text,text_german\nMunich,München\n");
        String german = assertThrows(EngineConfigException.class, () -> engine(Map.of("file", "german.csv")))
                .getMessage();
        assertTrue(german.contains("did you mean 'de'?"), german);
        Files.writeString(temp.resolve("cities.csv"), "text\nLondon\n");
        Files.writeString(temp.resolve("unknown.csv"), "text,text_fr\nParis,Paris\n");
        EngineConfigException unknown = assertThrows(
                EngineConfigException.class, () -> engine(Map.of("file", "cities.csv", "translations", "unknown.csv")));
        assertEquals("unknown.csv line 2 names no option: 'Paris'", unknown.getMessage());
        assertEquals("catalogs.cities.translations", unknown.key());
    }
}
