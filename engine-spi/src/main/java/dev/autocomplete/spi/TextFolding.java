package dev.autocomplete.spi;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one text normalization the server and engines share, so that "São Paulo", "sao  paulo" and
 * "SAO PAULO" compare equal: lower case, accents removed, punctuation turned into spaces, runs of spaces
 * collapsed, trimmed. Thread-safe.
 */
public final class TextFolding {

    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

    private TextFolding() {
    }

    /** Folds text for comparison. Never null for a non-null argument. */
    public static String fold(String text) {
        String decomposed = Normalizer.normalize(text, Normalizer.Form.NFKD);
        String plain = MARKS.matcher(decomposed).replaceAll("").toLowerCase(Locale.ROOT);
        return NOT_WORD.matcher(plain).replaceAll(" ").strip();
    }
}
