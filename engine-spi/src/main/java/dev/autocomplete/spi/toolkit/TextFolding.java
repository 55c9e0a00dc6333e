package dev.autocomplete.spi.toolkit;

import dev.autocomplete.index.AliasCodes;
import dev.autocomplete.index.Folding;

/**
 * The one text normalization the server and engines share, so that "São Paulo", "sao  paulo" and
 * "SAO PAULO" compare equal: lower case, accents removed, punctuation turned into spaces, runs of spaces
 * collapsed, trimmed. The core's catalog index folds the same way ({@link Lookup} is built on it). Thread-safe.
 */
public final class TextFolding {

    private TextFolding() {}

    /** Folds text for comparison. Never null for a non-null argument. */
    public static String fold(String text) {
        return Folding.fold(text);
    }

    /**
     * Whether an option's alias is a code ({@code =LON}): matched only when a typed span is the whole code, and
     * offered after the names that start with the span ({@link dev.autocomplete.index.AliasCodes}).
     */
    public static boolean isCode(String alias) {
        return AliasCodes.isCode(alias);
    }
}
