package dev.autocomplete.spi.toolkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.spi.SpanMatch;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An engine's {@link Lookup} takes codes ({@code =BOM}) like the core's catalogs: whole spans only. */
class LookupCodesTest {

    private static final Lookup AIRPORTS = Lookup.builder()
            .add("Mumbai", 12, List.of("=BOM"))
            .add("Boma", 1)
            .add("Berlin", 3)
            .build();

    @Test
    void a_code_is_matched_whole_and_never_by_its_start() {
        assertEquals(
                SpanMatch.Kind.EXACT_PREFIX, AIRPORTS.match("BOM", List.of()).kind());
        assertEquals("Mumbai", AIRPORTS.match("BOM", List.of()).value());
        assertEquals(SpanMatch.Kind.PREFIX, AIRPORTS.match("BO", List.of()).kind());
        assertTrue(TextFolding.isCode("=BOM"));
        assertFalse(TextFolding.isCode("BOM"));
    }

    @Test
    void an_empty_code_is_refused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Lookup.builder()
                .add("Mumbai", 1, List.of("="), Map.of(), Map.of()));
        assertTrue(e.getMessage().contains("alias '=' of 'Mumbai' is a code"), e.getMessage());
    }

    @Test
    void a_weight_that_is_not_finite_is_refused() {
        for (double weight : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> Lookup.builder().add("Mumbai", weight));
            assertTrue(e.getMessage().contains("weight of 'Mumbai' is not a finite number"), e.getMessage());
        }
    }
}
