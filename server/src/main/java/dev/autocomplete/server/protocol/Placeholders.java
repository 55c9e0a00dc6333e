package dev.autocomplete.server.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Placeholder tokens, {@code {{NAME_N}}}, as the official client mints them (protocol notes 6 and 7). */
public final class Placeholders {

    private static final Pattern TOKEN = Pattern.compile("\\{\\{([A-Z0-9_]+)_([1-9][0-9]*)}}");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    /**
     * A token found in a query.
     *
     * @param start index of {@code {{}
     * @param token the whole token
     * @param name the NAME part, e.g. {@code DEPARTURE_DATE}
     */
    public record Token(int start, String token, String name) {
        public int end() {
            return start + token.length();
        }
    }

    private Placeholders() {
    }

    /** Every token in {@code text}, in order. */
    public static List<Token> find(String text) {
        List<Token> tokens = new ArrayList<>();
        Matcher matcher = TOKEN.matcher(text);
        while (matcher.find()) {
            tokens.add(new Token(matcher.start(), matcher.group(), matcher.group(1)));
        }
        return tokens;
    }

    /** The token if {@code text} is exactly one token, else null. */
    public static Token parse(String text) {
        Matcher matcher = TOKEN.matcher(text);
        return matcher.matches() ? new Token(0, text, matcher.group(1)) : null;
    }

    /** The NAME the client mints for a type: upper case, whitespace runs turned into {@code _}. */
    public static String mintedName(String type) {
        return WHITESPACE.matcher(type.toUpperCase(Locale.ROOT)).replaceAll("_");
    }
}
