package dev.autocomplete.spi.toolkit;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits typed text into words that remember where they stand, folded for matching with
 * {@link TextFolding#fold}: the one word splitter of the server and the engines. Thread-safe.
 */
public final class Words {

    /**
     * One whitespace-delimited word.
     *
     * @param start index of the word's first character in the text it was split from (plus the offset given)
     * @param end index just past the word
     * @param folded the word folded for matching; never empty; may hold spaces ({@code saint-denis} gives
     *     {@code saint denis})
     */
    public record Word(int start, int end, String folded) {}

    private Words() {}

    /**
     * The words of {@code text} that fold to something (pure punctuation is dropped).
     *
     * @param text the text as typed
     * @param offset added to every index, for text cut from a longer one
     */
    public static List<Word> of(String text, int offset) {
        List<Word> words = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            int begin = i;
            while (i < text.length() && !Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (i > begin) {
                String folded = TextFolding.fold(text.substring(begin, i));
                if (!folded.isEmpty()) {
                    words.add(new Word(offset + begin, offset + i, folded));
                }
            }
        }
        return words;
    }

    /** The folded words {@code [from, to)} joined by single spaces. */
    public static String join(List<Word> words, int from, int to) {
        StringBuilder joined = new StringBuilder();
        for (int i = from; i < to; i++) {
            if (i > from) {
                joined.append(' ');
            }
            joined.append(words.get(i).folded());
        }
        return joined.toString();
    }
}
