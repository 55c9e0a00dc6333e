package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.spi.TextFolding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Typed text split into folded words that remember their span in the text, so that a match on folded
 * words can be reported as offsets into what the user typed.
 *
 * @param text the text as typed
 * @param words its words, folded with {@link TextFolding#fold}, in order
 */
record FoldedWords(String text, List<Word> words) {

    /**
     * One folded word.
     *
     * @param folded the word, folded; never empty
     * @param start index of the word in the text
     * @param end index just past the word in the text
     */
    record Word(String folded, int start, int end) {
    }

    FoldedWords {
        requireNonNull(text, "text is null");
        words = List.copyOf(requireNonNull(words, "words is null"));
    }

    static FoldedWords of(String text) {
        List<Word> words = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            if (!isWordChar(text.codePointAt(i))) {
                i += Character.charCount(text.codePointAt(i));
                continue;
            }
            int start = i;
            while (i < text.length() && isWordChar(text.codePointAt(i))) {
                i += Character.charCount(text.codePointAt(i));
            }
            // Folding may split one typed word (a ligature, a vulgar fraction); the parts share its span.
            for (String part : wordsOf(text.substring(start, i))) {
                words.add(new Word(part, start, i));
            }
        }
        return new FoldedWords(text, words);
    }

    /** The folded words of a text, for phrases and cues from the config. */
    static List<String> wordsOf(String text) {
        String folded = TextFolding.fold(text);
        return folded.isEmpty() ? List.of() : Arrays.asList(folded.split(" "));
    }

    int size() {
        return words.size();
    }

    String folded(int index) {
        return words.get(index).folded();
    }

    /** Whether the text ends inside its last word: the user may still be typing it. */
    boolean open() {
        return !words.isEmpty() && words.getLast().end() == text.length();
    }

    /** Whether the words from {@code from} on start with {@code expected}, word for word. */
    boolean startsWith(int from, List<String> expected) {
        if (from + expected.size() > words.size()) {
            return false;
        }
        for (int i = 0; i < expected.size(); i++) {
            if (!words.get(from + i).folded().equals(expected.get(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the words from {@code from} to the end are a proper prefix of {@code expected}: every word
     * but the last equal, the last one a prefix when {@link #open()}, and something of {@code expected}
     * still missing.
     */
    boolean isProperPrefixOf(int from, List<String> expected) {
        int typed = words.size() - from;
        if (typed < 1 || typed > expected.size()) {
            return false;
        }
        for (int i = 0; i < typed - 1; i++) {
            if (!words.get(from + i).folded().equals(expected.get(i))) {
                return false;
            }
        }
        String last = words.getLast().folded();
        String wanted = expected.get(typed - 1);
        boolean lastFits = open() ? wanted.startsWith(last) : wanted.equals(last);
        boolean complete = typed == expected.size() && wanted.equals(last);
        return lastFits && !complete;
    }

    private static boolean isWordChar(int codePoint) {
        if (Character.isLetterOrDigit(codePoint)) {
            return true;
        }
        int type = Character.getType(codePoint);
        return type == Character.NON_SPACING_MARK
                || type == Character.COMBINING_SPACING_MARK
                || type == Character.ENCLOSING_MARK;
    }
}
