package dev.autocomplete.server.learning;

import dev.autocomplete.server.protocol.Placeholders;
import dev.autocomplete.spi.toolkit.TextFolding;

/**
 * What the user had typed for a param when they picked an option, read from the pick event's {@code raw_query}: the
 * longest word-aligned tail of the text after the last placeholder that is a (folded) prefix of the option's text, as
 * the official client reads it when it places the pick; else the longest that starts an inner word of it ({@code Sch}
 * for {@code Tom Schulz}: the server offers inner-word matches, which the client appends rather than replaces, but the
 * letters were typed for the option all the same). Empty when nothing typed starts the option or a word of it.
 * Only tails of at most twice the option's length (and a few characters) are folded and compared: a longer one does
 * not fold to a prefix of it in any text people type, and folding every tail of a long query costs the square of its
 * length.
 */
final class TypedTail {

    private TypedTail() {}

    static String of(String rawQuery, String option) {
        int start = 0;
        for (Placeholders.Token token : Placeholders.find(rawQuery)) {
            start = token.end();
        }
        String text = rawQuery.substring(start);
        String folded = TextFolding.fold(option);
        int longest = 2 * option.length() + 8;
        String innerWord = "";
        int at = 0;
        while (at < text.length()) {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
            if (text.length() - at <= longest) { // a longer tail was not typed for this option
                String tail = text.substring(at);
                String tailFolded = TextFolding.fold(tail);
                if (!tail.isBlank() && !tailFolded.isEmpty()) {
                    if (folded.startsWith(tailFolded)) {
                        return tail;
                    }
                    if (innerWord.isEmpty() && folded.contains(" " + tailFolded)) {
                        innerWord = tail;
                    }
                }
            }
            while (at < text.length() && !Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }
        return innerWord;
    }

    /** The first letters of a typed tail kept with a pick: folded, at most {@link Pick#PREFIX_LETTERS}. */
    static String prefix(String typed) {
        String folded = TextFolding.fold(typed).strip();
        return folded.length() <= Pick.PREFIX_LETTERS ? folded : folded.substring(0, Pick.PREFIX_LETTERS);
    }
}
