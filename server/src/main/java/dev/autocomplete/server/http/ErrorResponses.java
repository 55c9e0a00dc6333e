package dev.autocomplete.server.http;

import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.protocol.JsonBodies;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpException;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.ServerConnectionException;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.ServerResponse;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Every error leaves as {@code {"error": {"code", "message"}}} with {@code Content-Type: application/json}
 * (docs/protocol.md §7), {@code Cache-Control: no-store} and {@code X-Content-Type-Options: nosniff}, including
 * the ones Helidon answers before routing (malformed HTTP, bodies over the size limit).
 */
public final class ErrorResponses {

    /** The status logged and counted for a client that closed the connection mid-request (as nginx does). */
    static final int CLIENT_CLOSED_REQUEST = 499;
    /** When a 503 says nothing else: the store, an engine or a tenant away is worth another try in a moment. */
    static final String RETRY_AFTER_SECONDS = "2";

    private final JsonBodies bodies;

    public ErrorResponses(JsonBodies bodies) {
        this.bodies = bodies;
    }

    public void send(ServerResponse response, ApiException error) {
        send(response, error.status(), error.code(), error.getMessage(), error.details());
    }

    /** Sends the error and notes its code in the request's facts, for metrics and the access log. */
    public void send(ServerResponse response, int status, String code, String message) {
        send(response, status, code, message, List.of());
    }

    /**
     * {@code 405 METHOD_NOT_ALLOWED} with the {@code Allow} header naming the methods the path takes, which RFC 9110
     * (§15.5.6) requires of a 405 so that a client or tool can see what to use instead.
     */
    public void methodNotAllowed(ServerResponse response, String allow, String message) {
        response.header(HeaderNames.ALLOW, allow);
        send(response, 405, "METHOD_NOT_ALLOWED", message);
    }

    private void send(
            ServerResponse response, int status, String code, String message, List<Map<String, Object>> details) {
        RequestFacts.current().errorCode = code;
        response.status(Status.create(status));
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.header(Headers.NO_STORE);
        response.header(Headers.NOSNIFF);
        if (status == 503 && !response.headers().contains(HeaderNames.RETRY_AFTER)) {
            // Every 503 is temporary (docs/protocol.md §7); the request tracker sets its own.
            response.header(HeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        HeadRequests.send(response, bodies.error(code, message, details));
    }

    /**
     * A client that went away before its body was read ({@link JsonRequests.ClientAborted}): one access log line
     * with status 499 (what nginx logs for it) and no stack trace, counted as a client error, not a server one.
     * The answer is written in case the client only half-closed; a write to a closed socket is no error of ours.
     */
    public void clientAborted(ServerResponse response) {
        response.header(HeaderValues.CONNECTION_CLOSE);
        try {
            send(
                    response,
                    CLIENT_CLOSED_REQUEST,
                    "CLIENT_CLOSED_REQUEST",
                    "The connection closed before the request body arrived.");
        } catch (UncheckedIOException | ServerConnectionException e) {
            // The client is gone: there is nobody to tell.
        }
    }

    /**
     * An {@link HttpException} a Helidon handler threw inside a route: the static files' revalidation answers
     * {@code 304 Not Modified} that way (with its {@code ETag}), sent as it is, with no body; other client errors
     * (a failed {@code If-Match}, a range past the end, a malformed request) leave in our error shape. Returns false
     * for a server error, which is the caller's to log and answer.
     */
    public boolean httpException(ServerResponse response, HttpException error) {
        int status = error.status().code();
        if (status == 304) {
            response.status(Status.NOT_MODIFIED_304);
            error.headers().forEach(response::header);
            response.send();
            return true;
        }
        if (status < 400 || status >= 500) {
            return false;
        }
        String code =
                switch (status) {
                    case 404 -> "NOT_FOUND";
                    case 412 -> "PRECONDITION_FAILED";
                    case 416 -> "RANGE_NOT_SATISFIABLE";
                    default -> "INVALID_REQUEST";
                };
        String message =
                switch (status) {
                    case 404 -> "No such endpoint.";
                    case 412 -> "The file changed since the version the request names (If-Match, If-Unmodified-Since).";
                    case 416 -> "The range the request names is not in the file.";
                    default -> "The HTTP request is malformed.";
                };
        send(response, status, code, message);
        return true;
    }

    /**
     * Helidon refuses a request with any {@code Content-Encoding} (gzip, even identity: this server decodes none)
     * before routing, as a bare 400 with no message. The body may be fine; its coding is what is not read (RFC 9110
     * §15.5.16: 415), so the client is told which header to drop rather than that its request is malformed.
     */
    private static final String CONTENT_ENCODING_REFUSED =
            "The request's Content-Encoding is not supported: send the body uncompressed, without a Content-Encoding"
                    + " header.";

    /** JSON bodies for the errors Helidon handles before a request reaches the routes. */
    public DirectHandlers directHandlers() {
        DirectHandler handler = this::beforeRouting;
        DirectHandlers.Builder builder = DirectHandlers.builder();
        for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
            builder.addHandler(type, handler);
        }
        return builder.build();
    }

    /** Helidon's answers before routing, in our error shape; a malformed request line is the client's error. */
    private DirectHandler.TransportResponse beforeRouting(
            DirectHandler.TransportRequest request,
            DirectHandler.EventType eventType,
            Status status,
            ServerResponseHeaders headers,
            String message) {
        String problem = null;
        if (eventType == DirectHandler.EventType.INTERNAL_ERROR
                && request.method().isEmpty()) {
            // The request line could not be parsed: a method that is no HTTP token ("G\0T", "GE(T") makes
            // Helidon's parser throw, which it answers as its own internal error (and logs, with a stack trace,
            // when the answer is a 500: a log a client could fill with one short line). The client sent it.
            status = Status.BAD_REQUEST_400;
            problem = "The request line is malformed (its method is not an HTTP token).";
        } else if (status.code() == 400 && request.headers().contains(HeaderNames.CONTENT_ENCODING)) {
            status = Status.UNSUPPORTED_MEDIA_TYPE_415;
            problem = CONTENT_ENCODING_REFUSED;
        } else if (status.code() == 501) {
            // Helidon's answer to a transfer coding it does not implement (gzip, chunked): the client's to change,
            // so a 4xx like every other request this server will not read (RFC 9112 suggests 501).
            status = Status.BAD_REQUEST_400;
            problem = "The request's Transfer-Encoding is not supported: send the body with a Content-Length,"
                    + " or chunked alone.";
        }
        String code =
                switch (status.code()) {
                    case 413 -> "PAYLOAD_TOO_LARGE";
                    case 414 -> "URI_TOO_LONG";
                    case 415 -> "UNSUPPORTED_MEDIA_TYPE";
                    case 431 -> "HEADERS_TOO_LARGE";
                    case 505 -> "HTTP_VERSION_NOT_SUPPORTED";
                    default -> status.code() >= 500 ? "INTERNAL" : "INVALID_REQUEST";
                };
        String text = problem != null
                ? problem
                : switch (status.code()) {
                    case 413 -> "The request body is larger than this server accepts.";
                    case 414 -> "The request line (path and query) is longer than this server accepts.";
                    case 431 -> "The request headers are too large.";
                    case 505 ->
                        "This server speaks HTTP/1.1 only: send the request as HTTP/1.1 (a load balancer's health"
                                + " probe too).";
                    default ->
                        status.code() >= 500
                                ? "The server could not handle the request."
                                : "The HTTP request is malformed.";
                };
        return DirectHandler.TransportResponse.builder()
                .status(status)
                .headers(headers)
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .header(Headers.NO_STORE)
                .header(Headers.NOSNIFF)
                .entity(bodies.error(code, text))
                .build();
    }
}
