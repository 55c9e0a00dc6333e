package dev.autocomplete.server.ranking;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.autocomplete.spi.ContextNames;
import dev.autocomplete.spi.Reading;

/**
 * docs/protocol.md §4.6: options that {@code additional_context} names move ahead of the others, each group
 * keeping its order. An option is named by its text, its name without a disambiguating detail
 * ({@code Lisbon} for {@code Lisbon, Portugal}) or one of its aliases, compared folded.
 */
public final class ContextRanking {

    private ContextRanking() {
    }

    /** The options reordered; the same list when the context names none of them. */
    public static List<Reading.Option> rank(List<Reading.Option> options, Object context, String paramType,
            Set<String> paramTypes) {
        if (context == null || options.isEmpty()) {
            return options;
        }
        Set<String> names = ContextNames.forParam(context, paramType, paramTypes);
        if (names.isEmpty()) {
            return options;
        }
        List<Reading.Option> named = new ArrayList<>();
        List<Reading.Option> others = new ArrayList<>();
        for (Reading.Option option : options) {
            (ContextNames.names(names, option.text(), option.aliases()) ? named : others).add(option);
        }
        if (named.isEmpty()) {
            return options;
        }
        named.addAll(others);
        return named;
    }
}
