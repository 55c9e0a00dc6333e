package dev.autocomplete.index;

import java.text.Normalizer;
import java.util.Locale;

/**
 * The one text normalization the server and engines share, so that "São Paulo", "sao  paulo" and
 * "SAO PAULO" compare equal: lower case, accents removed, punctuation turned into spaces, runs of spaces
 * collapsed, trimmed. Thread-safe.
 */
public final class Folding {

    private Folding() {}

    /** Folds text for comparison. Never null for a non-null argument. */
    public static String fold(String text) {
        String ascii = foldAscii(text);
        if (ascii != null) {
            return ascii;
        }
        String decomposed = Normalizer.normalize(text, Normalizer.Form.NFKD);
        // Marks removed, then lower case, then runs of what is not a letter or a number as one space, trimmed: the
        // regular expressions \p{M}+ and [^\p{L}\p{N}]+ by code point, without their cost (a tenth of a load).
        StringBuilder plain = new StringBuilder(decomposed.length());
        for (int i = 0; i < decomposed.length(); ) {
            int c = decomposed.codePointAt(i);
            i += Character.charCount(c);
            int type = Character.getType(c);
            if (type != Character.NON_SPACING_MARK
                    && type != Character.ENCLOSING_MARK
                    && type != Character.COMBINING_SPACING_MARK) {
                plain.appendCodePoint(c);
            }
        }
        String lower = plain.toString().toLowerCase(Locale.ROOT);
        StringBuilder folded = new StringBuilder(lower.length());
        boolean gap = false;
        for (int i = 0; i < lower.length(); ) {
            int c = lower.codePointAt(i);
            i += Character.charCount(c);
            if (Character.isLetter(c) || isNumber(Character.getType(c))) {
                if (gap && folded.length() > 0) {
                    folded.append(' ');
                }
                gap = false;
                folded.appendCodePoint(c);
            } else {
                gap = true;
            }
        }
        return folded.toString();
    }

    private static boolean isNumber(int type) {
        return type == Character.DECIMAL_DIGIT_NUMBER
                || type == Character.LETTER_NUMBER
                || type == Character.OTHER_NUMBER;
    }

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    /** A 64-bit FNV-1a hash of a folded text, by its chars. */
    public static long hash(String folded) {
        long hash = FNV_OFFSET;
        for (int i = 0; i < folded.length(); i++) {
            hash ^= folded.charAt(i);
            hash *= FNV_PRIME;
        }
        return hash;
    }

    /**
     * {@code hash(fold(text))}, without making the folded string when the text is ASCII (most texts): folded as
     * {@link #foldAscii} folds, hashed as it goes.
     */
    public static long foldedHash(String text) {
        long hash = FNV_OFFSET;
        boolean gap = false;
        boolean any = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                return hash(fold(text));
            }
            boolean word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
            if (!word) {
                gap = true;
                continue;
            }
            if (gap && any) {
                hash = (hash ^ ' ') * FNV_PRIME;
            }
            gap = false;
            any = true;
            hash = (hash ^ (c <= 'Z' && c >= 'A' ? c + 32 : c)) * FNV_PRIME;
        }
        return hash;
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
