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

/**
 * Reading JSON request bodies: the media type check, the size limit and the parse, with the protocol's error
 * codes. A body over the limit is refused here, in the route, not by Helidon: the answer then leaves on a
 * connection that stays open, and Helidon reads and discards the rest of the body (up to
 * {@link AutocompleteServer#DRAINED_BYTES} past the limit). Had the connection been closed with the client still
 * sending, the client's TCP stack would have been reset and its 413 lost.
 */
final class JsonRequests {

    private static final String JSON_TYPE = "application/json";

    private final long limit;
    private final String tooLarge;
    private final ConnectionGuard guard;

    /**
     * @param limit the largest body, in bytes; {@code what} names the body in the 413 message
     * @param guard tells whether a body that stopped arriving was cut off at its deadline
     */
    JsonRequests(long limit, String what, ConnectionGuard guard) {
        this.limit = limit;
        this.tooLarge = what + " is at most " + limit + " bytes.";
        this.guard = guard;
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
     * The whole body. With a Content-Length over the limit nothing is read; under it, the body is read into an
     * array of exactly that size (reading to the end of the stream allocates a 16 KB buffer per request, most of
     * a cached answer's allocation, and copies out). A chunked body is read up to one byte past the limit.
     */
    private byte[] bytes(ServerRequest request) throws IOException {
        long length = request.headers().contentLength().orElse(-1);
        if (length > limit) {
            throw payloadTooLarge();
        }
        byte[] body = read(request, length < 0 ? (int) limit + 1 : (int) length);
        if (length < 0 && body.length > limit) {
            throw payloadTooLarge();
        }
        if (body.length < length) {
            throw new IOException("the body ended before its Content-Length");
        }
        return body;
    }

    /** Up to {@code count} bytes of the body; a client that left or went silent past its deadline is an IOException. */
    private static byte[] read(ServerRequest request, int count) throws IOException {
        try (InputStream in = request.content().inputStream()) {
            return in.readNBytes(count);
        } catch (RuntimeException e) {
            // Helidon reports the end of the connection's input with its own unchecked exceptions.
            throw new IOException("the body could not be read", e);
        }
    }

    private ApiException payloadTooLarge() {
        return new ApiException(413, "PAYLOAD_TOO_LARGE", tooLarge);
    }

    /** The body's bytes, refused when empty, over the limit or unreadable. */
    byte[] body(ServerRequest request) {
        byte[] body;
        try {
            body = request.content().hasEntity() ? bytes(request) : new byte[0];
        } catch (IOException e) {
            if (guard.bodyTimedOut(request)) {
                throw new ApiException(408, "REQUEST_TIMEOUT", "The body did not arrive in time.");
            }
            throw ApiException.badRequest("INVALID_JSON", "The body could not be read.");
        }
        if (body.length == 0) {
            throw ApiException.badRequest("INVALID_JSON", "The body is empty; send a JSON object.");
        }
        return body;
    }

    JsonNode parse(ObjectMapper json, ServerRequest request) {
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
