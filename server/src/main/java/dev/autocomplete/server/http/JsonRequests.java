package dev.autocomplete.server.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.protocol.Utf8;
import io.helidon.common.buffers.DataReader;
import io.helidon.http.HeaderNames;
import io.helidon.http.HttpMediaType;
import io.helidon.http.RequestException;
import io.helidon.webserver.ServerConnectionException;
import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Reading JSON request bodies: the media type check, the size limit and the parse, with the protocol's error
 * codes. A body over the limit is refused here, in the route, not by Helidon: the answer then leaves on a
 * connection that stays open, and Helidon reads and discards the rest of the body (up to
 * {@link ConnectionGuard#LINGER_BYTES} past the limit; a longer body, declared or chunked, closes the connection
 * after the answer). Had the connection been closed with the client still
 * sending, the client's TCP stack would have been reset and its 413 lost.
 */
public final class JsonRequests {

    private static final String JSON_TYPE = "application/json";

    private final long limit;
    private final String tooLarge;
    private final ConnectionGuard guard;

    /**
     * @param limit the largest body, in bytes; {@code what} names the body in the 413 message
     * @param guard tells whether a body that stopped arriving was cut off at its deadline
     */
    public JsonRequests(long limit, String what, ConnectionGuard guard) {
        this.limit = limit;
        this.tooLarge = what + " is at most " + limit + " bytes.";
        this.guard = guard;
    }

    static void requireJson(ServerRequest request) {
        String raw = Headers.single(request, HeaderNames.CONTENT_TYPE).orElse(null);
        if (raw != null
                && raw.regionMatches(true, 0, JSON_TYPE, 0, JSON_TYPE.length())
                && (raw.length() == JSON_TYPE.length() || raw.charAt(JSON_TYPE.length()) == ';')) {
            return; // what clients send, recognized without parsing the media type
        }
        boolean json = request.headers()
                .contentType()
                .map(HttpMediaType::mediaType)
                .map(type -> type.type().equalsIgnoreCase("application")
                        && type.subtype().equalsIgnoreCase("json"))
                .orElse(false);
        if (!json) {
            throw new ApiException(415, "UNSUPPORTED_MEDIA_TYPE", "Send the body as Content-Type: application/json.");
        }
    }

    /**
     * The whole body. With a Content-Length over the limit nothing is read; under it, the body is read into an
     * array of exactly that size (reading to the end of the stream allocates a 16 KB buffer per request, most of
     * a cached answer's allocation, and copies out). A chunked body is read up to one byte past the limit; past
     * it, the guard reads what follows, within bounds ({@link ConnectionGuard#refusedPastLimit}).
     */
    private byte[] bytes(ServerRequest request) throws IOException {
        long length = request.headers().contentLength().orElse(-1);
        if (length > limit) {
            guard.refusedLength(request, length, limit);
            throw payloadTooLarge();
        }
        InputStream in = request.content().inputStream();
        try {
            byte[] body = in.readNBytes(length < 0 ? (int) limit + 1 : (int) length);
            if (length < 0 && body.length > limit) {
                // Left open: closing reads the next chunk, whatever its length.
                guard.refusedPastLimit(request, in);
                throw payloadTooLarge();
            }
            if (body.length < length) {
                throw new IOException("the body ended before its Content-Length");
            }
            in.close();
            return body;
        } catch (ApiException refusal) {
            throw refusal;
        } catch (RuntimeException e) {
            ApiException framing = chunkFraming(e);
            if (framing != null) {
                throw framing;
            }
            // Helidon reports the end of the connection's input with its own unchecked exceptions.
            throw new IOException("the body could not be read", e);
        }
    }

    /**
     * What Helidon's reading of a chunked body threw when the chunks' framing is not one it reads, as the client's
     * error: a chunk size that is no hex number ({@code zz}, or one with a chunk extension, {@code 2;a=b}, which is
     * valid HTTP that Helidon does not parse) is a {@link NumberFormatException}, a trailer field after the last chunk
     * a {@link RequestException}. Null for anything else (a connection closed or reset mid-body). The connection
     * cannot be read past it: the answer closes it ({@link ConnectionGuard}, a body left unread).
     */
    static ApiException chunkFraming(RuntimeException e) {
        if (e instanceof RequestException request && request.status().code() == 413) {
            return new ApiException(413, "PAYLOAD_TOO_LARGE", "The request body is larger than this server accepts.");
        }
        if (e instanceof NumberFormatException || e instanceof RequestException) {
            return new ApiException(
                    400,
                    "INVALID_REQUEST",
                    "The request's chunked body is malformed, or uses what this server does not read (chunk"
                            + " extensions, trailer fields): send plain chunks, or the body with a Content-Length.");
        }
        return null;
    }

    private ApiException payloadTooLarge() {
        return new ApiException(413, "PAYLOAD_TOO_LARGE", tooLarge);
    }

    /**
     * The client closed the connection (or it broke) before the whole body arrived: no one is left to answer, and
     * nothing went wrong in the server. Not an {@link ApiException}, so no service answers it as a refusal; the
     * routing's handler of this type logs and counts it ({@link ErrorResponses#clientAborted}).
     */
    public static final class ClientAborted extends RuntimeException {

        private static final long serialVersionUID = 1L;

        ClientAborted() {
            super("the client closed the connection before the whole body arrived", null, false, false);
        }
    }

    /** The body's bytes, refused when empty or over the limit. */
    byte[] body(ServerRequest request) {
        byte[] body;
        try {
            body = request.content().hasEntity() ? bytes(request) : new byte[0];
        } catch (IOException
                | UncheckedIOException
                | DataReader.InsufficientDataAvailableException
                | ServerConnectionException e) {
            if (guard.bodyTimedOut(request)) {
                throw new ApiException(408, "REQUEST_TIMEOUT", "The body did not arrive in time.");
            }
            // Helidon reports a connection closed mid-body as InsufficientDataAvailableException and a reset as
            // ServerConnectionException; a body shorter than its Content-Length ends the stream early.
            throw new ClientAborted();
        }
        if (body.length == 0) {
            throw ApiException.badRequest("INVALID_JSON", "The body is empty; send a JSON object.");
        }
        return body;
    }

    /** The body as a tree: one JSON value in UTF-8, else {@code INVALID_JSON}. */
    JsonNode parse(ObjectMapper json, ServerRequest request) {
        byte[] body = body(request);
        Utf8.requireUtf8Json(body);
        try {
            JsonNode tree = json.readTree(body);
            if (tree.isMissingNode()) {
                throw ApiException.badRequest("INVALID_JSON", "The body holds no JSON value.");
            }
            return tree;
        } catch (JacksonException e) {
            throw ApiException.invalidJson(e);
        } catch (IOException e) {
            throw ApiException.badRequest("INVALID_JSON", "The body could not be read.");
        }
    }
}
