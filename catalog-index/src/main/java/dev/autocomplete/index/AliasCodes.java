package dev.autocomplete.index;

import java.util.Optional;

/**
 * Codes: aliases written with a leading {@code =} ({@code =LON}), matched only when a typed span is the whole code
 * (folded), never by prefix, inner word or typo, and offered after the options whose first word is the span (Los
 * Angeles for {@code los}), before the other options the span starts (Tokyo before Tyoply Stan for {@code tyo}).
 * An airport or city code is a word of its own that often starts other names ({@code LOS} and Los Angeles,
 * {@code BOM} and every name in B): as an ordinary alias it would crowd the names being typed. Codes are kept
 * apart from the prefix keys, in a small map from folded code to options. Thread-safe (no state).
 */
public final class AliasCodes {

    /** What starts a code. */
    public static final String MARK = "=";

    private AliasCodes() {}

    /** Whether the alias is written as a code ({@code =LON}, spaces before the mark ignored). */
    public static boolean isCode(String alias) {
        return alias.strip().startsWith(MARK);
    }

    /**
     * The alias's code, folded ({@code lon} for {@code =LON}): empty when it has no letter or digit; null when the
     * alias is no code.
     */
    public static String folded(String alias) {
        String stripped = alias.strip();
        return stripped.startsWith(MARK) ? Folding.fold(stripped.substring(MARK.length())) : null;
    }

    /** Why the alias cannot be a code, if it is written as one and holds nothing to match ({@code =}, {@code =-}). */
    public static Optional<String> problem(String alias) {
        String code = folded(alias);
        return code != null && code.isEmpty()
                ? Optional.of("is a code ('" + MARK + "' then its letters, e.g. =LON) with no letter or digit after '"
                        + MARK + "'")
                : Optional.empty();
    }
}
