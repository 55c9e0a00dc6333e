package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;

/**
 * How a typed span reads as a value of a param, as its {@link Engine} sees it.
 *
 * @param kind how it matches; never null
 * @param value the value it reads as, normalised (an option's text, {@code Thursday 12 March 2026} for
 *     {@code 12 march}), for {@link Kind#EXACT} and {@link Kind#EXACT_PREFIX}; may be null otherwise
 * @param freeForm true when the engine reads the span by rule rather than finding it in a list (dates,
 *     numbers): the span stays literal in the answer, and {@code value} is offered as the active option
 */
public record SpanMatch(Kind kind, String value, boolean freeForm) {

    /** Nothing: the span is neither a value nor the start of one. */
    public static final SpanMatch NONE = new SpanMatch(Kind.NONE, null, false);
    /** The start of one or more values, equal to none. */
    public static final SpanMatch PREFIX = new SpanMatch(Kind.PREFIX, null, false);
    /** Equal to several values at once (an alias two options share). */
    public static final SpanMatch AMBIGUOUS = new SpanMatch(Kind.AMBIGUOUS, null, false);
    /** Close to a value within the typos the engine forgives, and to no value exactly. */
    public static final SpanMatch LOOSE = new SpanMatch(Kind.LOOSE, null, false);

    public SpanMatch {
        requireNonNull(kind, "kind is null");
        if ((kind == Kind.EXACT || kind == Kind.EXACT_PREFIX) && (value == null || value.isBlank())) {
            throw new IllegalArgumentException(kind + " needs the value it reads as");
        }
    }

    /** Exactly one value, {@code value}, and the start of no other. */
    public static SpanMatch exact(String value) {
        return new SpanMatch(Kind.EXACT, value, false);
    }

    /** Exactly one value, {@code value}, and also the start of longer ones (the user may still be typing). */
    public static SpanMatch exactPrefix(String value) {
        return new SpanMatch(Kind.EXACT_PREFIX, value, false);
    }

    /** Kinds of match, from settled to loose. */
    public enum Kind {
        /** Exactly one value and the start of no other: settled. */
        EXACT,
        /** Exactly one value, and the start of others: settled unless it is the text the user is typing. */
        EXACT_PREFIX,
        /** Equal to several values: needs confirmation. */
        AMBIGUOUS,
        /** The start of values, equal to none: in progress while typed, else needs confirmation. */
        PREFIX,
        /** Within the typos forgiven: needs confirmation, never settled. */
        LOOSE,
        /** No match. */
        NONE;

        /** Whether the span equals a value (settled or ambiguous). */
        public boolean isValue() {
            return this == EXACT || this == EXACT_PREFIX || this == AMBIGUOUS;
        }
    }
}
