package dev.autocomplete.spi.toolkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Lookup#match} takes no conditions, as the engine guide says: a value that {@link Lookup#options}' filter
 * leaves out, typed whole, still reads as that value (and fills its param), whatever the ask has filled.
 */
class LookupConditionsTest {

    private static final Lookup CUSTOMERS = Lookup.builder()
            .add("Acme", 1, List.of(), Map.of(), Map.of("country", List.of("France")))
            .add("Globex", 1, List.of(), Map.of(), Map.of("country", List.of("Spain")))
            .build();

    @Test
    void a_value_outside_the_options_filter_typed_whole_still_reads_as_that_value() {
        Ask inFrance = new Ask(
                "customer", List.of("en"), AdditionalContext.NONE, Map.of("country", "France"), LocalDate.now(), 10, 0);
        Lookup.Conditions france = new Lookup.Conditions(Map.of("country", List.of("France")), Map.of(), List.of());

        assertEquals(List.of(Option.of("Acme")), CUSTOMERS.options(inFrance, "", france));
        SpanMatch globex = CUSTOMERS.match(inFrance, List.of("Globex")).getFirst();
        assertEquals(SpanMatch.Kind.EXACT, globex.kind());
        assertEquals("Globex", globex.value());
    }
}
