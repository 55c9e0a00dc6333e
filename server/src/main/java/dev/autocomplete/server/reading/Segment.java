package dev.autocomplete.server.reading;

import static java.util.Objects.requireNonNull;

/**
 * One piece of {@code raw_query}, in order: literal text the user typed, or a placeholder token that stands
 * for a picked value. Offsets are UTF-16 indexes into {@link Query#rawQuery()}.
 */
public sealed interface Segment {

    /** Index of the segment's first character in {@code raw_query}. */
    int start();

    /** Index just past the segment's last character in {@code raw_query}. */
    int end();

    /**
     * Literal text the user typed, verbatim.
     *
     * @param start index in {@code raw_query}
     * @param text the text; never null or empty
     */
    public record Text(int start, String text) implements Segment {
        public Text {
            requireNonNull(text, "text is null");
            if (text.isEmpty()) {
                throw new IllegalArgumentException("text is empty");
            }
        }

        @Override
        public int end() {
            return start + text.length();
        }
    }

    /**
     * A placeholder token such as {@code {{ORIGIN_1}}} that stands for a filled param.
     *
     * @param start index in {@code raw_query}
     * @param placeholder the token itself; never null
     * @param type the param type: the product's type whose minted name matches the token's (the {@code
     *     completed_params} entry's type, or one the entry wrote in another case); else the entry's type, or for a
     *     token without an entry the token's name in lower case; never null
     * @param text the picked value as the user sees it; null when the client masked it
     * @param confirmed true when a {@code completed_params} entry of one of the product's types fills the token;
     *     false for a token without an entry or of a type the product does not have, which the server reports as
     *     {@code need_confirmation}
     */
    public record Param(int start, String placeholder, String type, String text, boolean confirmed) implements Segment {
        public Param {
            requireNonNull(placeholder, "placeholder is null");
            requireNonNull(type, "type is null");
        }

        @Override
        public int end() {
            return start + placeholder.length();
        }

        /** True when the client hid the value: the engine knows only the type. */
        public boolean masked() {
            return text == null;
        }
    }
}
