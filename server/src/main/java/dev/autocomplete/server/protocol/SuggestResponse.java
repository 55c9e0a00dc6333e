package dev.autocomplete.server.protocol;

import java.util.List;

/**
 * A {@code POST /api/suggest} response, ready to write.
 *
 * @param input the parsed view, or null when {@code rawQuery} has no placeholder
 * @param dataBytes the bytes of {@code data} once written, shared by every response made from this one with
 *        {@link #withEnvelope}: a cached answer's {@code data} is written once, only {@code meta} per request
 * @param offered what the answer offered that a pick may be credited to; not written
 */
public record SuggestResponse(
        String rawQuery,
        List<InputSegment> input,
        List<Suggestion> suggestions,
        boolean ready,
        String requestId,
        String requestAt,
        String sessionId,
        DataBytes dataBytes,
        Offered offered) {

    public SuggestResponse(
            String rawQuery,
            List<InputSegment> input,
            List<Suggestion> suggestions,
            boolean ready,
            String requestId,
            String requestAt,
            String sessionId) {
        this(rawQuery, input, suggestions, ready, requestId, requestAt, sessionId, new DataBytes(), Offered.NONE);
    }

    /** The same {@code data} (and its written bytes) under another envelope. */
    public SuggestResponse withEnvelope(String newRequestId, String newRequestAt, String newSessionId) {
        return new SuggestResponse(
                rawQuery, input, suggestions, ready, newRequestId, newRequestAt, newSessionId, dataBytes, offered);
    }

    /** The same response, noting what it offered for learning. */
    public SuggestResponse withOffered(Offered newOffered) {
        return new SuggestResponse(
                rawQuery, input, suggestions, ready, requestId, requestAt, sessionId, dataBytes, newOffered);
    }

    /**
     * A slot for the serialized {@code data}, filled by the first writer. Not part of the response's value:
     * all slots are equal, so two responses with the same contents are equal whether written or not.
     */
    public static final class DataBytes {
        private volatile byte[] bytes;

        public byte[] get() {
            return bytes;
        }

        public void set(byte[] written) {
            bytes = written;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof DataBytes;
        }

        @Override
        public int hashCode() {
            return 0;
        }

        @Override
        public String toString() {
            return "DataBytes";
        }
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
