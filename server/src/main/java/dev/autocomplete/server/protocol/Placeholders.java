package dev.autocomplete.server.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Placeholder tokens, {@code {{NAME_N}}}, as the official client mints them (docs/protocol.md §3.7, §3.8). */
public final class Placeholders {

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

    private Placeholders() {}

    /** Every token in {@code text}, in order. */
    public static List<Token> find(String text) {
        List<Token> tokens = new ArrayList<>();
        int from = text.indexOf("{{");
        while (from >= 0) {
            int end = tokenEnd(text, from);
            if (end < 0) {
                from = text.indexOf("{{", from + 1);
            } else {
                String token = text.substring(from, end);
                tokens.add(new Token(from, token, token.substring(2, token.lastIndexOf('_'))));
                from = text.indexOf("{{", end);
            }
        }
        return tokens;
    }

    /** The token if {@code text} is exactly one token, else null. */
    public static Token parse(String text) {
        return text.startsWith("{{") && tokenEnd(text, 0) == text.length()
                ? new Token(0, text, text.substring(2, text.lastIndexOf('_')))
                : null;
    }

    /**
     * Where the token starting at {@code start} (at its {@code {{}) ends, or -1 if none starts there: the
     * grammar {@code {{[A-Z0-9_]+_[1-9][0-9]*}}}, checked by hand since it runs on every request. The number
     * is what follows the last {@code _} (it has none), so the split is unique.
     */
    private static int tokenEnd(String text, int start) {
        int at = start + 2;
        while (at < text.length() && isNameChar(text.charAt(at))) {
            at++;
        }
        if (!text.startsWith("}}", at)) {
            return -1;
        }
        int underscore = text.lastIndexOf('_', at - 1);
        if (underscore <= start + 2 || underscore + 1 >= at || text.charAt(underscore + 1) == '0') {
            return -1;
        }
        for (int i = underscore + 1; i < at; i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return -1;
            }
        }
        return at + 2;
    }

    private static boolean isNameChar(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    /** The NAME the client mints for a type: upper case, whitespace runs turned into {@code _}. */
    public static String mintedName(String type) {
        String upper = type.toUpperCase(Locale.ROOT);
        int first = 0;
        while (first < upper.length() && !isSpace(upper.charAt(first))) {
            first++;
        }
        if (first == upper.length()) {
            return upper;
        }
        StringBuilder name = new StringBuilder(upper.length()).append(upper, 0, first);
        boolean inSpace = false;
        for (int i = first; i < upper.length(); i++) {
            char c = upper.charAt(i);
            if (!isSpace(c)) {
                name.append(c);
            } else if (!inSpace) {
                name.append('_');
            }
            inSpace = isSpace(c);
        }
        return name.toString();
    }

    /** Regular expressions' {@code \\s}: space, tab, line feed, vertical tab, form feed, carriage return. */
    private static boolean isSpace(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }
}
