package dev.autocomplete.server.protocol;

import java.util.List;

/**
 * A {@code POST /api/suggest} response, ready to write.
 *
 * @param input the parsed view, or null when {@code rawQuery} has no placeholder
 */
public record SuggestResponse(
        String rawQuery,
        List<InputSegment> input,
        List<Suggestion> suggestions,
        boolean ready,
        String requestId,
        String requestAt,
        String sessionId) {

    /**
     * One {@code data.input[]} entry; {@code source} is {@code selected}, {@code identified}, or null for the
     * intent entry, which echoes no param.
     */
    public record InputSegment(String type, String text, String state, String source) {
    }

    /** One {@code data.suggestions[]} entry; {@code options} empty means omitted. */
    public record Suggestion(String type, String text, boolean required, List<Option> options) {
    }

    /** One option. */
    public record Option(String text, boolean tappable) {
    }
}
