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

    /**
     * Below this char, each char folds on its own: its decomposition's marks go, its lower case's letters and digits
     * stay, the rest is a gap (the Latin scripts and the combining marks; Greek's final sigma, whose lower case
     * depends on the next char, is above).
     */
    private static final int TABLE_END = 0x370;

    /**
     * Per char from 0x80 to {@link #TABLE_END}: its letters and digits as {@link #fold} keeps them, a space for each
     * gap ({@code ½} is "1 2", a mark is "").
     */
    private static final String[] TABLE = new String[TABLE_END];

    static {
        for (char c = 0x80; c < TABLE_END; c++) {
            TABLE[c] = gapped(String.valueOf(c));
        }
    }

    /** Folds text for comparison. Never null for a non-null argument. */
    public static String fold(String text) {
        // ASCII inline and the Latin scripts char by char: catalog loading is dominated by folding.
        StringBuilder folded = new StringBuilder(text.length());
        boolean gap = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')) {
                    if (gap && folded.length() > 0) {
                        folded.append(' ');
                    }
                    gap = false;
                    folded.append(c <= 'Z' && c >= 'A' ? (char) (c + 32) : c);
                } else {
                    gap = true;
                }
            } else if (c < TABLE_END) {
                gap = appendSpaced(folded, TABLE[c], gap);
            } else {
                return foldAny(text);
            }
        }
        return folded.toString();
    }

    /**
     * Whether {@link #fold} of the text is not empty (it has a letter or digit), without making the folded string: a
     * seed file's million rows were each folded only for this.
     */
    public static boolean hasWord(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')) {
                    return true;
                }
            } else if (c < TABLE_END) {
                if (!TABLE[c].isBlank()) {
                    return true;
                }
            } else {
                return !foldAny(text).isEmpty();
            }
        }
        return false;
    }

    /** {@link #fold} of any text, by its decomposition (NFKD) as a whole. */
    private static String foldAny(String text) {
        StringBuilder folded = new StringBuilder(text.length());
        appendSpaced(folded, gapped(text), false);
        return folded.toString();
    }

    /**
     * Appends the letters and digits of {@code spaced} (a space for each gap) to {@code folded}, one space between
     * words; returns whether a gap is pending at its end ({@code gap}: whether one was at its start).
     */
    private static boolean appendSpaced(StringBuilder folded, String spaced, boolean gap) {
        for (int i = 0; i < spaced.length(); i++) {
            char c = spaced.charAt(i);
            if (c == ' ') {
                gap = true;
            } else {
                if (gap && folded.length() > 0) {
                    folded.append(' ');
                }
                gap = false;
                folded.append(c);
            }
        }
        return gap;
    }

    /** The text decomposed (NFKD), without marks, in lower case, a space for each char that is no letter or digit. */
    private static String gapped(String text) {
        String decomposed = Normalizer.normalize(text, Normalizer.Form.NFKD);
        // Marks removed, then lower case, then a space for what is not a letter or a number: the regular expressions
        // \p{M}+ and [^\p{L}\p{N}]+ by code point, without their cost (a tenth of a load).
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
        StringBuilder spaced = new StringBuilder(lower.length());
        for (int i = 0; i < lower.length(); ) {
            int c = lower.codePointAt(i);
            i += Character.charCount(c);
            if (Character.isLetter(c) || isNumber(Character.getType(c))) {
                spaced.appendCodePoint(c);
            } else {
                spaced.append(' ');
            }
        }
        return spaced.toString();
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
     * {@link #fold} folds ASCII, hashed as it goes.
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
}
