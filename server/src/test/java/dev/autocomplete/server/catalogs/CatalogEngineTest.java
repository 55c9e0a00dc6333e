package dev.autocomplete.server.catalogs;

import static dev.autocomplete.server.catalogs.TestTenant.ask;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the catalog engine reads typed spans and ranks the options it offers, on a small travel tenant. */
class CatalogEngineTest {

    /** Weights as in the demo's cities (populations), so rankings by weight alone go wrong the same way. */
    private static final Map<String, Object> CITIES = Map.of(
            "options",
            List.of(
                    Map.of("text", "London", "weight", 9_000_000, "aliases", List.of("LHR")),
                    Map.of("text", "Bogotá", "weight", 7_674_366),
                    Map.of("text", "Santiago", "weight", 4_837_295),
                    Map.of("text", "Paris", "weight", 2_100_000),
                    Map.of("text", "San Antonio", "weight", 1_469_845),
                    Map.of("text", "San Diego", "weight", 1_394_928),
                    Map.of("text", "San Jose", "weight", 1_026_908),
                    Map.of("text", "Santiago de Cuba", "weight", 555_865),
                    Map.of("text", "Boston", "weight", 667_137),
                    Map.of("text", "New York", "weight", 8_000_000),
                    Map.of("text", "Lyon", "weight", 500_000),
                    Map.of("text", "Bo", "weight", 174_354)));

    private static final Map<String, Object> DEVICES = Map.of(
            "options",
            List.of(
                    Map.of("text", "Cloud Router", "weight", 20, "aliases", List.of("cr")),
                    Map.of("text", "Core Router", "weight", 10, "aliases", List.of("cr")),
                    Map.of("text", "Core Switch", "weight", 5),
                    Map.of("text", "Crossbar", "weight", 30)));

    private final TestTenant tenant = new TestTenant(Path.of("."), Map.of("cities", CITIES, "devices", DEVICES));
    private final Engine travel = engine();

    private Engine engine() {
        try {
            return tenant.engine(
                    "origin", Map.of("catalog", "cities"),
                    "destination", Map.of("catalog", "cities"),
                    "home", Map.of("options", List.of("London", "Paris")),
                    "device", Map.of("catalog", "devices"),
                    "cabin", Map.of("options", List.of("Economy", "Business")));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private SpanMatch match(String type, String span) {
        return travel.match(ask(type), List.of(span)).getFirst();
    }

    private List<String> options(Ask ask, String typed) {
        return travel.options(ask, typed).stream().map(Option::text).toList();
    }

    private List<String> options(String type, String typed) {
        return options(ask(type), typed);
    }

    @Test
    void the_engine_serves_the_types_of_its_params() {
        assertEquals(Set.of("origin", "destination", "home", "device", "cabin"), travel.paramTypes());
    }

    @Test
    void a_span_equal_to_one_option_that_starts_no_other_is_exact_with_the_option_text() {
        assertEquals(SpanMatch.exact("London"), match("origin", "london"));
        assertEquals(SpanMatch.exact("London"), match("origin", "LHR"), "an alias reads as its option");
        assertEquals(SpanMatch.exact("New York"), match("origin", "new-york"));
    }

    @Test
    void a_span_equal_to_one_option_and_the_start_of_others_within_its_last_word_is_an_exact_prefix() {
        assertEquals(SpanMatch.exactPrefix("Bo"), match("origin", "Bo"));
        assertEquals(
                SpanMatch.exact("Santiago"),
                match("origin", "santiago"),
                "Santiago de Cuba goes on with another word: typing Santiago names Santiago");
        assertEquals(SpanMatch.exact("San Jose"), match("origin", "San Jose"));
    }

    @Test
    void an_alias_two_options_share_is_ambiguous() {
        assertEquals(SpanMatch.AMBIGUOUS, match("device", "cr"));
        assertEquals(SpanMatch.exact("Core Router"), match("device", "core router"));
        assertEquals(SpanMatch.PREFIX, match("device", "core"));
    }

    @Test
    void the_start_of_options_at_their_start_or_an_inner_word_is_a_prefix() {
        assertEquals(SpanMatch.PREFIX, match("origin", "lon"));
        assertEquals(SpanMatch.PREFIX, match("origin", "york"));
        assertEquals(SpanMatch.PREFIX, match("origin", "santiago de"));
    }

    @Test
    void a_span_within_the_typo_budget_is_loose_and_anything_else_none() {
        assertEquals(SpanMatch.LOOSE, match("origin", "lodnon"));
        assertEquals(SpanMatch.LOOSE, match("origin", "pairs"));
        assertEquals(SpanMatch.NONE, match("origin", "lno"), "no typo in a word under four letters");
        assertEquals(SpanMatch.NONE, match("origin", "zzz"));
        assertEquals(SpanMatch.NONE, match("origin", " - "));
        assertEquals(SpanMatch.NONE, match("weather", "london"), "a type the engine does not serve");
    }

    @Test
    void spans_are_answered_in_order_in_one_call() {
        List<SpanMatch> answers = travel.match(ask("origin"), List.of("to", "paris", "lon", "economy"));
        assertEquals(List.of(SpanMatch.NONE, SpanMatch.exact("Paris"), SpanMatch.PREFIX, SpanMatch.NONE), answers);
    }

    @Test
    void with_nothing_typed_the_heaviest_options_come_first_up_to_the_limit() {
        assertEquals(
                List.of("London", "New York", "Bogotá"), options(ask("origin").withLimit(3), ""));
        assertEquals(List.of("Economy", "Business"), options("cabin", ""), "inline options keep list order");
        assertEquals(List.of(), options("weather", ""));
    }

    @Test
    void an_exact_match_comes_first_then_the_longer_options_it_starts() {
        // By weight alone "Bo" came after Bogotá and Boston, and the user typing the city Bo never saw it.
        List<String> found = options("origin", "Bo");
        assertEquals(List.of("Bo", "Bogotá", "Boston"), found);
    }

    @Test
    void text_that_ends_between_words_prefers_options_that_go_on_with_a_next_word() {
        // By weight alone Santiago ranked first: "San " names cities whose next word is still to come.
        List<String> found = options("origin", "San ");
        assertEquals(List.of("San Antonio", "San Diego", "San Jose"), found.subList(0, 3));
        assertTrue(found.indexOf("Santiago") > 2, found.toString());
        assertEquals("Santiago", options("origin", "San").getFirst(), "without the space, weight decides");
    }

    @Test
    void a_typo_and_a_second_word_rank_the_option_the_whole_text_names_first() throws Exception {
        // Eight products within one typo of the start of "Quantm Vault"; by weight alone the one it names came last.
        List<Object> products = new java.util.ArrayList<>();
        for (String edition : List.of("Pro", "Plus", "Max", "Cloud", "Edge", "Lite", "Team")) {
            products.add(Map.of("text", "Quantum Vault " + edition, "weight", 100 - products.size()));
        }
        products.add(Map.of("text", "Quantum Vault", "weight", 1));
        Engine shop = new TestTenant(Path.of("."), Map.of()).engine("product", Map.of("options", products));
        List<String> found = shop.options(ask("product"), "Quantm Vault").stream()
                .map(Option::text)
                .toList();
        assertEquals(8, found.size(), found.toString());
        assertEquals("Quantum Vault", found.getFirst(), found.toString());
        assertEquals(
                SpanMatch.LOOSE,
                shop.match(ask("product"), List.of("Quantm Vault")).getFirst());
    }

    @Test
    void every_option_an_ambiguous_alias_names_comes_first() {
        assertEquals(List.of("Cloud Router", "Core Router", "Crossbar"), options("device", "cr"));
    }

    @Test
    void an_option_picked_for_another_param_of_the_same_catalog_is_not_offered_again() {
        Ask destination = ask("destination", List.of(), "origin", "london");
        assertFalse(options(destination, "").contains("London"));
        assertFalse(options(destination, "lon").contains("London"));
        assertTrue(
                options(ask("origin", List.of(), "origin", "London"), "lon").contains("London"),
                "its own value is the param's to change");
        assertTrue(
                options(ask("origin", List.of(), "home", "London"), "lon").contains("London"),
                "an inline list is another list, even with the same texts");
        assertTrue(options(ask("home", List.of(), "origin", "London"), "").contains("London"));
    }

    @Test
    void typos_find_options_after_plain_prefix_matches() {
        assertEquals("London", options("origin", "lodnon").getFirst());
        assertEquals(List.of(), options("origin", "zzz"), "nothing matches: nothing offered");
    }

    @Test
    void two_products_naming_one_catalog_load_it_once_per_tenant_load() throws Exception {
        TestTenant shared = new TestTenant(Path.of("."), Map.of("cities", CITIES));
        CatalogEngine first = (CatalogEngine)
                shared.engine("travel", List.of(TestTenant.param(0, 0, "origin", Map.of("catalog", "cities"))));
        CatalogEngine second = (CatalogEngine) shared.engine(
                "trains",
                List.of(
                        TestTenant.param(1, 0, "from", Map.of("catalog", "cities")),
                        TestTenant.param(1, 1, "to", Map.of("catalog", "cities"))));
        assertSame(first.options("origin"), second.options("to"));
    }
}
