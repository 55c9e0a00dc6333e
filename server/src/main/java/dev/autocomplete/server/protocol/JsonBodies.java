package dev.autocomplete.server.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Writes response and error bodies straight to bytes, so they go out with a Content-Length.
 *
 * <p>A response served from the response cache shares its {@code data} with every other response of that
 * cache entry, and with it the slot of its written bytes ({@link SuggestResponse.DataBytes}): {@code data} is
 * written once per entry, only {@code meta} per request.
 */
public final class JsonBodies {

    private static final byte[] DATA_START = "{\"data\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] META_START = ",\"meta\":".getBytes(StandardCharsets.US_ASCII);

    private final ObjectMapper json;

    public JsonBodies(ObjectMapper json) {
        this.json = json;
    }

    public byte[] suggestResponse(SuggestResponse response) {
        byte[] data = response.dataBytes().get();
        if (data == null) {
            data = data(response);
            response.dataBytes().set(data);
        }
        String requestId = response.requestId();
        String requestAt = response.requestAt();
        String sessionId = response.sessionId();
        if (requestId != null && requestAt != null && sessionId != null) {
            // The meta values were validated (UUIDs, an ISO timestamp), so they are plain ASCII: written straight into
            // the body, checked as they are copied, without a builder or a generator.
            byte[] body = new byte
                    [DATA_START.length
                            + data.length
                            + META_START.length
                            + META_FIXED
                            + requestId.length()
                            + requestAt.length()
                            + sessionId.length()
                            + 1];
            int at = append(body, 0, DATA_START);
            at = append(body, at, data);
            at = append(body, at, META_START);
            at = append(body, at, REQUEST_ID);
            at = plain(body, at, requestId);
            at = at < 0 ? at : plain(body, append(body, at, REQUEST_AT), requestAt);
            at = at < 0 ? at : plain(body, append(body, at, SESSION_ID), sessionId);
            if (at >= 0) {
                at = append(body, at, META_END);
                body[at] = '}';
                return body;
            }
        }
        byte[] meta = write(out -> {
            out.writeStartObject();
            out.writeStringField("request_id", requestId);
            out.writeStringField("request_at", requestAt);
            out.writeStringField("session_id", sessionId);
            out.writeEndObject();
        });
        byte[] body = new byte[DATA_START.length + data.length + META_START.length + meta.length + 1];
        int at = append(body, 0, DATA_START);
        at = append(body, at, data);
        at = append(body, at, META_START);
        at = append(body, at, meta);
        body[at] = '}';
        return body;
    }

    private static final byte[] REQUEST_ID = "{\"request_id\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REQUEST_AT = "\",\"request_at\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SESSION_ID = "\",\"session_id\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] META_END = "\"}".getBytes(StandardCharsets.US_ASCII);
    private static final int META_FIXED = REQUEST_ID.length + REQUEST_AT.length + SESSION_ID.length + META_END.length;

    /**
     * Copies {@code value} into {@code body} at {@code at} when it is made only of characters JSON strings carry
     * unescaped in ASCII; returns where it ends, or -1 when it is not (the caller then writes {@code meta} with
     * Jackson).
     */
    private static int plain(byte[] body, int at, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return -1;
            }
            body[at++] = (byte) c;
        }
        return at;
    }

    private static int append(byte[] body, int at, byte[] part) {
        System.arraycopy(part, 0, body, at, part.length);
        return at + part.length;
    }

    /**
     * The answer's {@code data}, written by {@link JsonText}: on an uncached answer a generator's per-field work was 3 %
     * of the request's CPU.
     */
    private static byte[] data(SuggestResponse response) {
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
