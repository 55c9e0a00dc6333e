package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A validated suggest request, as an engine sees it. Immutable.
 *
 * @param rawQuery the query with placeholders, verbatim; never null, may be empty
 * @param segments {@code rawQuery} split into text and placeholder segments, in order, covering it whole
 * @param dismissedTypes types the user skipped ({@code completed_params} entries without a placeholder)
 * @param identifiedEcho the client's echo of the previous turn's identified readings (tentative)
 * @param recentlySuggested suggestions on screen while the user typed the trailing text, in order
 * @param additionalContext free-form context: null when none, else an immutable tree of {@link String},
 *     {@link Number}, {@link Boolean}, {@code null}, {@link List} and {@link java.util.Map} with string keys.
 *     Data only: never execute, template, log or store it.
 * @param language the requested BCP-47 tag, well-formed, or null when absent or malformed
 * @param optionLimit the most options the server will show per suggestion; an engine need not return more
 */
public record Query(
        String rawQuery,
        List<Segment> segments,
        Set<String> dismissedTypes,
        List<EchoedParam> identifiedEcho,
        List<SuggestionRef> recentlySuggested,
        Object additionalContext,
        String language,
        int optionLimit) {

    public Query {
        requireNonNull(rawQuery, "rawQuery is null");
        segments = List.copyOf(requireNonNull(segments, "segments is null"));
        dismissedTypes = Set.copyOf(requireNonNull(dismissedTypes, "dismissedTypes is null"));
        identifiedEcho = List.copyOf(requireNonNull(identifiedEcho, "identifiedEcho is null"));
        recentlySuggested = List.copyOf(requireNonNull(recentlySuggested, "recentlySuggested is null"));
        if (optionLimit < 1) {
            throw new IllegalArgumentException("optionLimit must be positive");
        }
    }

    /** The filled params, in query order. */
    public List<Segment.Param> params() {
        return segments.stream()
                .filter(Segment.Param.class::isInstance)
                .map(Segment.Param.class::cast)
                .toList();
    }

    /** The text typed after the last placeholder, verbatim; empty when the query ends with a token. */
    public String trailingText() {
        return !segments.isEmpty() && segments.getLast() instanceof Segment.Text text ? text.text() : "";
    }

    /**
     * The languages to try for labels and texts, most specific first: {@code fr-CA} gives
     * {@code [fr-ca, fr]}. Lower case. Empty when no language was requested. Engines fall back to their
     * default after these.
     */
    public List<String> languageFallbacks() {
        if (language == null) {
            return List.of();
        }
        List<String> tags = new ArrayList<>();
        String tag = language.toLowerCase(Locale.ROOT);
        while (!tag.isEmpty()) {
            tags.add(tag);
            int dash = tag.lastIndexOf('-');
            tag = dash < 0 ? "" : tag.substring(0, dash);
        }
        return List.copyOf(tags);
    }

    /**
     * An identified reading the client echoed back.
     *
     * @param type the type the server sent; never null
     * @param value the literal text the server read; never null
     */
    public record EchoedParam(String type, String value) {
        public EchoedParam {
            requireNonNull(type, "type is null");
            requireNonNull(value, "value is null");
        }
    }

    /**
     * A suggestion that was on screen.
     *
     * @param type the suggestion's type; never null
     * @param text the suggestion's text as the server sent it; never null
     */
    public record SuggestionRef(String type, String text) {
        public SuggestionRef {
            requireNonNull(type, "type is null");
            requireNonNull(text, "text is null");
        }
    }
}
