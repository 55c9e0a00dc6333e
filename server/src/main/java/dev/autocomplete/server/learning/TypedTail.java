package dev.autocomplete.server.learning;

import dev.autocomplete.server.protocol.Placeholders;
import dev.autocomplete.spi.toolkit.TextFolding;

/**
 * What the user had typed for a param when they picked an option, read from the pick event's {@code raw_query} as the
 * official client reads it when it places the pick: the longest word-aligned tail of the text after the last
 * placeholder that is a (folded) prefix of the option's text. Empty when the pick replaced nothing (tapped with
 * nothing typed, or after text that does not start the option). Only tails of at most twice the option's length
 * (and a few characters) are folded and compared: a longer one does not fold to a prefix of it in any text people
 * type, and folding every tail of a long query costs the square of its length.
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
        int at = 0;
        while (at < text.length()) {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
            if (text.length() - at <= longest) { // a longer tail was not typed for this option
                String tail = text.substring(at);
                String tailFolded = TextFolding.fold(tail);
                if (!tail.isBlank() && !tailFolded.isEmpty() && folded.startsWith(tailFolded)) {
                    return tail;
                }
            }
            while (at < text.length() && !Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }
        return "";
    }

    /** The first letters of a typed tail kept with a pick: folded, at most {@link Pick#PREFIX_LETTERS}. */
    static String prefix(String typed) {
        String folded = TextFolding.fold(typed).strip();
        return folded.length() <= Pick.PREFIX_LETTERS ? folded : folded.substring(0, Pick.PREFIX_LETTERS);
    }
}
