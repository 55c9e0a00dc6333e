package dev.autocomplete.server.protocol;

import java.util.List;
import java.util.Objects;

/**
 * A {@code POST /api/suggest} response, ready to write.
 *
 * <p>A cached answer is read from memory the processor has seldom kept (the cache holds thousands), so what every hit
 * needs is here at the first step: {@code data} already written, and what analytics reads of the suggestions.
 *
 * @param input the parsed view, or null when {@code rawQuery} has no placeholder
 * @param offered what the answer offered that a pick may be credited to; not written
 * @param unmatchedParam the type of the param the answer asks for first (its first suggestion that is not the
 *        placeholder) when it offers no option for it, else null: what analytics counts as a span that matched nothing.
 *        Derived from {@code suggestions}
 * @param data the UTF-8 bytes of {@code data} once written ({@link #written()}), else null: a kept answer's are written
 *        when it is kept, and every response made from it with {@link #withEnvelope} shares them, so only {@code meta}
 *        is written per hit. Like {@code offered}, not part of the response's value ({@link #equals})
 */
public record SuggestResponse(
        String rawQuery,
        List<InputSegment> input,
        List<Suggestion> suggestions,
        boolean ready,
        String requestId,
        String requestAt,
        String sessionId,
        Offered offered,
        String unmatchedParam,
        byte[] data) {

    private static final String PLACEHOLDER_TYPE = "placeholder";

    public SuggestResponse(
            String rawQuery,
            List<InputSegment> input,
            List<Suggestion> suggestions,
            boolean ready,
            String requestId,
            String requestAt,
            String sessionId) {
        this(
                rawQuery,
                input,
                suggestions,
                ready,
                requestId,
                requestAt,
                sessionId,
                Offered.NONE,
                unmatchedParam(suggestions),
                null);
    }

    /** The same {@code data} (and its written bytes) under another envelope. */
    public SuggestResponse withEnvelope(String newRequestId, String newRequestAt, String newSessionId) {
        return with(newRequestId, newRequestAt, newSessionId, offered, data);
    }

    /** The same response, noting what it offered for learning. */
    public SuggestResponse withOffered(Offered newOffered) {
        return with(requestId, requestAt, sessionId, newOffered, data);
    }

    /** This response with its {@code data} written ({@link JsonBodies#data}): done once for an answer that is kept. */
    public SuggestResponse written() {
        return data != null ? this : with(requestId, requestAt, sessionId, offered, JsonBodies.data(this));
    }

    private SuggestResponse with(
            String newRequestId, String newRequestAt, String newSessionId, Offered newOffered, byte[] newData) {
        return new SuggestResponse(
                rawQuery,
                input,
                suggestions,
                ready,
                newRequestId,
                newRequestAt,
                newSessionId,
                newOffered,
                unmatchedParam,
                newData);
    }

    private static String unmatchedParam(List<Suggestion> suggestions) {
        for (Suggestion suggestion : suggestions) {
            if (!suggestion.type().equals(PLACEHOLDER_TYPE)) {
                return suggestion.options().isEmpty() ? suggestion.type() : null;
            }
        }
        return null;
    }

    /** Equal when everything written is: {@code offered} and whether {@code data} was written yet do not count. */
    @Override
    public boolean equals(Object other) {
        return other instanceof SuggestResponse that
                && ready == that.ready
                && Objects.equals(rawQuery, that.rawQuery)
                && Objects.equals(input, that.input)
                && Objects.equals(suggestions, that.suggestions)
                && Objects.equals(requestId, that.requestId)
                && Objects.equals(requestAt, that.requestAt)
                && Objects.equals(sessionId, that.sessionId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rawQuery, input, suggestions, ready, requestId, requestAt, sessionId);
    }

    @Override
    public String toString() {
        return "SuggestResponse[rawQuery=" + rawQuery + ", input=" + input + ", suggestions=" + suggestions + ", ready="
                + ready + ", requestId=" + requestId + ", requestAt=" + requestAt + ", sessionId=" + sessionId + "]";
    }

    /**
     * One {@code data.input[]} entry; {@code source} is {@code selected}, {@code identified}, or null for the
     * intent entry, which echoes no param.
     */
    public record InputSegment(String type, String text, String state, String source) {}

    /** One {@code data.suggestions[]} entry; {@code options} empty means omitted. */
    public record Suggestion(String type, String text, boolean required, List<Option> options) {}

    /** One option. */
    public record Option(String text, boolean tappable) {}
}
