package dev.autocomplete.engine.catalog;

import java.util.ArrayList;
import java.util.List;

import dev.autocomplete.spi.Segment;
import dev.autocomplete.spi.TextFolding;

/** Splits typed text into words that remember where they stand in {@code raw_query}. */
final class Words {

    /**
     * One whitespace-delimited word.
     *
     * @param start index in {@code raw_query}
     * @param end index just past the word in {@code raw_query}
     * @param folded the word folded for matching; may hold spaces ({@code saint-denis} gives {@code saint denis})
     */
    record Word(int start, int end, String folded) {
    }

    private Words() {
    }

    /** The words of a text segment that fold to something (pure punctuation is dropped). */
    static List<Word> of(Segment.Text text) {
        List<Word> words = new ArrayList<>();
        String s = text.text();
        int i = 0;
        while (i < s.length()) {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            int begin = i;
            while (i < s.length() && !Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i > begin) {
                String folded = TextFolding.fold(s.substring(begin, i));
                if (!folded.isEmpty()) {
                    words.add(new Word(text.start() + begin, text.start() + i, folded));
                }
            }
        }
        return words;
    }

    /** The folded words {@code [from, to)} joined by single spaces. */
    static String join(List<Word> words, int from, int to) {
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
