package dev.autocomplete.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Writes response and error bodies straight to bytes, so they go out with a Content-Length.
 *
 * <p>A response served from the response cache shares its {@code data}, written when the answer was kept
 * ({@link SuggestResponse#written()}), with every other response of that cache entry: only {@code meta} is written per
 * request.
 */
public final class JsonBodies {

    private final ObjectMapper json;

    public JsonBodies(ObjectMapper json) {
        this.json = json;
    }

    public byte[] suggestResponse(SuggestResponse response) {
        byte[] data = response.data() != null ? response.data() : data(response);
        // Only meta is written per request. Its values were validated (UUIDs, an ISO timestamp), so they are plain
        // ASCII: the capacity below is then exact, and the array is the body without a copy.
        String requestId = response.requestId();
        String requestAt = response.requestAt();
        String sessionId = response.sessionId();
        JsonText body =
                new JsonText(ENVELOPE_BYTES + data.length + length(requestId) + length(requestAt) + length(sessionId));
        body.ascii("{\"data\":").raw(data).ascii(",\"meta\":");
        body.object()
                .field("request_id", requestId)
                .field("request_at", requestAt)
                .field("session_id", sessionId);
        return body.append('}').append('}').bytes();
    }

    /** The bytes of {@code {"data":,"meta":{"request_id":"","request_at":"","session_id":""}}}. */
    private static final int ENVELOPE_BYTES =
            "{\"data\":,\"meta\":{\"request_id\":\"\",\"request_at\":\"\",\"session_id\":\"\"}}".length();

    private static int length(String value) {
        return value == null ? 2 : value.length(); // null: its four letters where the two quotes were
    }

    /**
     * The answer's {@code data}, written by {@link JsonText}: on an uncached answer a generator's per-field work was 3 %
     * of the request's CPU.
     */
    static byte[] data(SuggestResponse response) {
        JsonText out = new JsonText(1024);
        out.object().field("raw_query", response.rawQuery());
        if (response.input() == null) {
            out.name("input").ascii("null");
        } else {
            out.name("input").append('[');
            for (SuggestResponse.InputSegment segment : response.input()) {
                out.object()
                        .field("type", segment.type())
                        .field("text", segment.text())
                        .field("state", segment.state());
                if (segment.source() != null) {
                    out.field("source", segment.source());
                }
                out.append('}');
            }
            out.append(']');
        }
        out.name("suggestions").append('[');
        for (SuggestResponse.Suggestion suggestion : response.suggestions()) {
            out.object().field("type", suggestion.type()).field("text", suggestion.text());
            out.name("required").bool(suggestion.required());
            if (!suggestion.options().isEmpty()) {
                out.name("options").append('[');
                for (SuggestResponse.Option option : suggestion.options()) {
                    out.object().field("text", option.text());
                    out.name("is_tappable").bool(option.tappable()).append('}');
                }
                out.append(']');
            }
            out.append('}');
        }
        out.append(']');
        out.name("is_ready").bool(response.ready());
        return out.append('}').bytes();
    }

    /** {@code {"error": {"code", "message"}}}. */
    public byte[] error(String code, String message) {
        return error(code, message, List.of());
    }

    /** {@code {"error": {"code", "message", "details"}}}, {@code details} only when there are some. */
    public byte[] error(String code, String message, List<Map<String, Object>> details) {
        return write(out -> {
            out.writeStartObject();
            out.writeObjectFieldStart("error");
            out.writeStringField("code", code);
            out.writeStringField("message", message);
            if (!details.isEmpty()) {
                out.writeArrayFieldStart("details");
                for (Map<String, Object> detail : details) {
                    out.writeObject(detail);
                }
                out.writeEndArray();
            }
            out.writeEndObject();
            out.writeEndObject();
        });
    }

    private interface Body {
        void writeTo(JsonGenerator out) throws IOException;
    }

    private byte[] write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        try (JsonGenerator out = json.getFactory().createGenerator(bytes)) {
            body.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }
}
