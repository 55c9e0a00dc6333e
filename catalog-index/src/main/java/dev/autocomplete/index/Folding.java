package dev.autocomplete.index;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one text normalization the server and engines share, so that "São Paulo", "sao  paulo" and
 * "SAO PAULO" compare equal: lower case, accents removed, punctuation turned into spaces, runs of spaces
 * collapsed, trimmed. Thread-safe.
 */
public final class Folding {

    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

    private Folding() {}

    /** Folds text for comparison. Never null for a non-null argument. */
    public static String fold(String text) {
        String ascii = foldAscii(text);
        if (ascii != null) {
            return ascii;
        }
        String decomposed = Normalizer.normalize(text, Normalizer.Form.NFKD);
        String plain = MARKS.matcher(decomposed).replaceAll("").toLowerCase(Locale.ROOT);
        return NOT_WORD.matcher(plain).replaceAll(" ").strip();
    }

    /** The same folding for pure ASCII text without regular expressions (catalog loading is dominated by it). */
    private static String foldAscii(String text) {
        StringBuilder folded = new StringBuilder(text.length());
        boolean gap = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                return null;
            }
            boolean word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
            if (!word) {
                gap = true;
            } else {
                if (gap && folded.length() > 0) {
                    folded.append(' ');
                }
                gap = false;
                folded.append(c <= 'Z' && c >= 'A' ? (char) (c + 32) : c);
            }
        }
        return folded.toString();
    }
}
