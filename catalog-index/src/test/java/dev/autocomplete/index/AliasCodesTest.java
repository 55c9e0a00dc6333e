package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Codes ({@code =LOS}): an alias matched only by a whole typed span, never by prefix, inner word or typo, offered
 * after the names that start with the span, and the same through a live catalog's writes.
 */
class AliasCodesTest {

    private static final List<CatalogEntry> CITIES = List.of(
            new CatalogEntry("Mumbai", List.of("=BOM"), 12_000_000, Map.of()),
            new CatalogEntry("Lagos", List.of("=LOS"), 9_000_000, Map.of()),
            new CatalogEntry("London", List.of("=LON", "Londinium"), 7_500_000, Map.of()),
            new CatalogEntry("Los Angeles", List.of("LA"), 3_900_000, Map.of()),
            new CatalogEntry("Los Mochis", 300_000),
            new CatalogEntry("San Nicolás de los Garza", 400_000),
            new CatalogEntry("Boma", 160_000),
            new CatalogEntry("Berlin", 3_500_000),
            new CatalogEntry("Long Beach", 450_000),
            new CatalogEntry("Hong Kong", List.of("=HKG"), 7_000_000, Map.of()),
            new CatalogEntry("Paris", List.of("=PAR"), 2_100_000, Map.of()),
            new CatalogEntry("Pār Naogaon", 20_000));

    private static List<String> offer(LiveOptions options, String typed) {
        return OptionLookup.offer(options, new OptionLookup.Offer(typed, 10), List.of()).stream()
                .map(option -> options.text(option, List.of()))
                .toList();
    }

    private static OptionLookup.Reading read(LiveOptions options, String span) {
        return OptionLookup.read(options, span, List.of());
    }

    @Test
    void a_code_matches_only_the_whole_span_after_the_names_whose_first_word_it_is() {
        LiveOptions cities = LiveOptions.of(CITIES);
        // Lagos weighs 2.3 times Los Angeles: not enough for a code to go before a name being typed (10 times).
        assertEquals(List.of("Los Angeles", "Lagos", "Los Mochis", "San Nicolás de los Garza"), offer(cities, "Los"));
        // Typed whole, a code comes before the names the span only starts.
        assertEquals(List.of("Mumbai", "Boma"), offer(cities, "BOM"));
        assertEquals(List.of("London", "Long Beach"), offer(cities, "lon"));
        // A code far heavier than a name whose first word the span is comes first.
        assertEquals(List.of("Paris", "Pār Naogaon"), offer(cities, "PAR"));
        assertFalse(offer(cities, "B").contains("Mumbai"));
        assertFalse(offer(cities, "BO").contains("Mumbai"));
        // No typo and no longer span: "HKGX", "HGK" and "HK" name nothing through the code.
        assertEquals(List.of("Hong Kong"), offer(cities, "hkg"));
        assertEquals(List.of(), offer(cities, "hkgx"));
        assertEquals(List.of(), offer(cities, "hgk"));
        assertEquals(List.of(), offer(cities, "hk"));
        // An ordinary alias still matches by prefix.
        assertEquals(List.of("London"), offer(cities, "londi"));
    }

    @Test
    void a_code_reads_as_its_option_unless_the_span_is_a_whole_word_of_a_name() {
        LiveOptions cities = LiveOptions.of(CITIES);
        assertEquals(new OptionLookup.Reading(OptionLookup.Kind.EXACT, "Hong Kong"), read(cities, "HKG"));
        assertEquals(new OptionLookup.Reading(OptionLookup.Kind.EXACT_PREFIX, "London"), read(cities, "lon"));
        assertEquals(OptionLookup.Kind.PREFIX, read(cities, "Los").kind());
        assertEquals(OptionLookup.Kind.NONE, read(cities, "hk").kind());
        assertEquals(OptionLookup.Kind.NONE, read(cities, "hkgx").kind());
        assertEquals(OptionLookup.Kind.NONE, read(cities, "=").kind());
    }

    @Test
    void codes_follow_live_writes_and_come_back_as_written() {
        LiveOptions cities = LiveOptions.of(CITIES);
        LiveOptions written =
                cities.with(List.of(new CatalogEntry("Xylo", List.of("=XYZ"), 5, Map.of())), List.of("Hong Kong"));
        assertEquals(List.of("Xylo"), offer(written, "xyz"));
        assertEquals(
                List.of(),
                offer(written, "xy").stream().filter(t -> !t.startsWith("Xy")).toList());
        assertFalse(offer(written, "x").isEmpty());
        assertEquals(List.of(), offer(written, "hkg"));
        int xylo = written.exactMatch("xylo", List.of());
        assertEquals(List.of("=XYZ"), written.aliases(xylo, List.of()));
        // Folded into one main index, the codes stay whole-only.
        LiveOptions folded = written.folded();
        assertEquals(List.of("Xylo"), offer(folded, "XYZ"));
        assertEquals(List.of("Los Angeles", "Lagos", "Los Mochis", "San Nicolás de los Garza"), offer(folded, "los"));
        assertEquals(List.of("=LON", "Londinium"), folded.aliases(folded.exactMatch("london", List.of()), List.of()));
    }

    @Test
    void a_code_is_told_from_an_alias_and_an_empty_one_is_a_problem() {
        assertTrue(AliasCodes.isCode("=LON"));
        assertFalse(AliasCodes.isCode("LON"));
        assertEquals("lon", AliasCodes.folded(" =LON"));
        assertEquals(null, AliasCodes.folded("LON"));
        assertTrue(AliasCodes.problem("=").isPresent());
        assertTrue(AliasCodes.problem("= -").isPresent());
        assertFalse(AliasCodes.problem("=LON").isPresent());
        assertFalse(AliasCodes.problem("LON").isPresent());
    }
}
