package dev.autocomplete.server.http;

import java.io.IOException;
import java.io.InputStream;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.helidon.http.HeaderNames;
import io.helidon.http.HttpMediaType;
import io.helidon.webserver.http.ServerRequest;

import dev.autocomplete.server.protocol.ApiException;

/** Reading JSON request bodies: the media type check and the parse, with the protocol's error codes. */
final class JsonRequests {

    private static final String JSON_TYPE = "application/json";

    private JsonRequests() {
    }

    static void requireJson(ServerRequest request) {
        String raw = request.headers().first(HeaderNames.CONTENT_TYPE).orElse(null);
        if (raw != null && raw.regionMatches(true, 0, JSON_TYPE, 0, JSON_TYPE.length())
                && (raw.length() == JSON_TYPE.length() || raw.charAt(JSON_TYPE.length()) == ';')) {
            return; // what clients send, recognized without parsing the media type
        }
        boolean json = request.headers().contentType()
                .map(HttpMediaType::mediaType)
                .map(type -> type.type().equalsIgnoreCase("application") && type.subtype().equalsIgnoreCase("json"))
                .orElse(false);
        if (!json) {
            throw new ApiException(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as Content-Type: application/json.");
        }
    }

    /**
     * The whole body. With a Content-Length it is read into an array of exactly that size: reading to the end
     * of the stream allocates a 16 KB buffer per request (most of a cached answer's allocation) and copies out.
     * Helidon has already refused a length over the payload limit; the stream ends at the declared length.
     */
    private static byte[] bytes(ServerRequest request) throws IOException {
        long length = request.headers().contentLength().orElse(-1);
        if (length < 0 || length > Integer.MAX_VALUE - 8) {
            return request.content().as(byte[].class);
        }
        try (InputStream in = request.content().inputStream()) {
            byte[] body = in.readNBytes((int) length);
            if (body.length < length) {
                throw new IOException("the body ended before its Content-Length");
            }
            return body;
        }
    }

    /** The body's bytes, refused when empty or unreadable. */
    static byte[] body(ServerRequest request) {
        byte[] body;
        try {
            body = request.content().hasEntity() ? bytes(request) : new byte[0];
        } catch (IOException e) {
            throw ApiException.badRequest("INVALID_JSON", "The body could not be read.");
        }
        if (body.length == 0) {
            throw ApiException.badRequest("INVALID_JSON", "The body is empty; send a JSON object.");
        }
        return body;
    }

    static JsonNode parse(ObjectMapper json, ServerRequest request) {
        byte[] body = body(request);
        try {
            return json.readTree(body);
        } catch (JacksonException e) {
            throw ApiException.badRequest("INVALID_JSON", "The body is not valid JSON.");
        } catch (IOException e) {
            throw ApiException.badRequest("INVALID_JSON", "The body could not be read.");
        }
    }
}
