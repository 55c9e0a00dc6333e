package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * An option an engine offers for a param.
 *
 * @param text the display text, already localized; never null or blank; the server drops options with
 *     control characters or over 200 characters, with a logged warning
 * @param aliases other names that identify the option (codes, former names, its text in the default
 *     language), so that {@code additional_context} naming any of them ranks it first
 * @param tappable false for hint rows that cannot be picked
 */
public record Option(String text, List<String> aliases, boolean tappable) {

    public Option {
        requireNonNull(text, "text is null");
        aliases = List.copyOf(requireNonNull(aliases, "aliases is null"));
        if (text.isBlank()) {
            throw new IllegalArgumentException("text is blank");
        }
    }

    /** A tappable option without aliases. */
    public static Option of(String text) {
        return new Option(text, List.of(), true);
    }
}
