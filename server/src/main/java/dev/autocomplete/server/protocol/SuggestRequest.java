package dev.autocomplete.server.protocol;

import dev.autocomplete.spi.AdditionalContext;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A validated {@code POST /api/suggest} body.
 *
 * @param rawQuery {@code data.raw_query}, verbatim
 * @param fills the {@code completed_params} entries that fill a token present in {@code rawQuery}, by token
 * @param dismissedTypes types of entries without a placeholder
 * @param additionalContext the context as an immutable tree; {@link AdditionalContext#NONE} when none (null, {}, [] or "")
 * @param identifiedEcho {@code data.identified_params}
 * @param recentlySuggested {@code data.recently_suggested}
 * @param requestId {@code meta.request_id} exactly as sent
 * @param requestAt {@code meta.request_at} exactly as sent
 * @param sessionId {@code meta.session_id}, or null when the server must generate one
 * @param language a well-formed {@code meta.language}, or null
 */
public record SuggestRequest(
        String rawQuery,
        Map<String, Fill> fills,
        Set<String> dismissedTypes,
        AdditionalContext additionalContext,
        List<EchoedParam> identifiedEcho,
        List<SuggestionRef> recentlySuggested,
        String requestId,
        String requestAt,
        String sessionId,
        String language) {

    /** This request with another body's envelope and {@code identified_params}: its {@code data} read the same. */
    public SuggestRequest withEnvelope(
            List<EchoedParam> identifiedEcho, String requestId, String requestAt, String sessionId, String language) {
        return new SuggestRequest(
                rawQuery,
                fills,
                dismissedTypes,
                additionalContext,
                identifiedEcho,
                recentlySuggested,
                requestId,
                requestAt,
                sessionId,
                language);
    }

    /**
     * A {@code completed_params} entry that fills a token.
     *
     * @param type the entry's type
     * @param text the picked text, or null when masked
     */
    public record Fill(String type, String text) {}

    /**
     * An identified reading the client echoed back ({@code data.identified_params[]}).
     *
     * @param type the type the server sent
     * @param value the literal text the server read
     */
    public record EchoedParam(String type, String value) {}

    /**
     * A suggestion that was on screen ({@code data.recently_suggested[]}).
     *
     * @param type the suggestion's type
     * @param text the suggestion's text as the server sent it
     */
    public record SuggestionRef(String type, String text) {}
}
