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
            data = write(out -> data(out, response));
            response.dataBytes().set(data);
        }
        byte[] meta = meta(response.requestId(), response.requestAt(), response.sessionId());
        byte[] body = new byte[DATA_START.length + data.length + META_START.length + meta.length + 1];
        int at = append(body, 0, DATA_START);
        at = append(body, at, data);
        at = append(body, at, META_START);
        at = append(body, at, meta);
        body[at] = '}';
        return body;
    }

    /**
     * {@code meta}. Its values were validated (UUIDs, an ISO timestamp), so they are plain ASCII and written
     * as is, without a generator; anything else goes through Jackson.
     */
    private byte[] meta(String... values) {
        if (!plain(values)) {
            return write(out -> {
                out.writeStartObject();
                out.writeStringField("request_id", values[0]);
                out.writeStringField("request_at", values[1]);
                out.writeStringField("session_id", values[2]);
                out.writeEndObject();
            });
        }
        StringBuilder meta = new StringBuilder(128);
        meta.append("{\"request_id\":\"")
                .append(values[0])
                .append("\",\"request_at\":\"")
                .append(values[1])
                .append("\",\"session_id\":\"")
                .append(values[2])
                .append("\"}");
        return meta.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Whether every value is non-null and made only of characters JSON strings carry unescaped in ASCII. */
    private static boolean plain(String[] values) {
        for (String value : values) {
            if (value == null) {
                return false;
            }
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                    return false;
                }
            }
        }
        return true;
    }

    private static int append(byte[] body, int at, byte[] part) {
        System.arraycopy(part, 0, body, at, part.length);
        return at + part.length;
    }

    private static void data(JsonGenerator out, SuggestResponse response) throws IOException {
        out.writeStartObject();
        out.writeStringField("raw_query", response.rawQuery());
        if (response.input() == null) {
            out.writeNullField("input");
        } else {
            out.writeArrayFieldStart("input");
            for (SuggestResponse.InputSegment segment : response.input()) {
                out.writeStartObject();
                out.writeStringField("type", segment.type());
                out.writeStringField("text", segment.text());
                out.writeStringField("state", segment.state());
                if (segment.source() != null) {
                    out.writeStringField("source", segment.source());
                }
                out.writeEndObject();
            }
            out.writeEndArray();
        }
        out.writeArrayFieldStart("suggestions");
        for (SuggestResponse.Suggestion suggestion : response.suggestions()) {
            out.writeStartObject();
            out.writeStringField("type", suggestion.type());
            out.writeStringField("text", suggestion.text());
            out.writeBooleanField("required", suggestion.required());
            if (!suggestion.options().isEmpty()) {
                out.writeArrayFieldStart("options");
                for (SuggestResponse.Option option : suggestion.options()) {
                    out.writeStartObject();
                    out.writeStringField("text", option.text());
                    out.writeBooleanField("is_tappable", option.tappable());
                    out.writeEndObject();
                }
                out.writeEndArray();
            }
            out.writeEndObject();
        }
        out.writeEndArray();
        out.writeBooleanField("is_ready", response.ready());
        out.writeEndObject();
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
