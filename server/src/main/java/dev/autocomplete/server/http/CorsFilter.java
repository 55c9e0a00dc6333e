package dev.autocomplete.server.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Optional;

/**
 * CORS for the browser-facing paths. Preflights ({@code OPTIONS}) are answered here, for any origin, since a
 * preflight carries no credential; the actual request then gets {@code Access-Control-Allow-Origin} only once
 * its key is known to allow the origin, or to refuse it ({@link Gatekeeper}: the refusal is readable, nothing
 * else is). Paths not listed, such as {@code /api/auth/token},
 * get no CORS headers at all.
 */
public final class CorsFilter implements Filter {

    /** The paths browsers call: suggestions and the client's telemetry. */
    public static final List<String> DEFAULT_PATHS = List.of("/api/suggest", "/api/telemetry/events");

    static final String ALLOWED_METHODS = "POST, OPTIONS";
    static final String ALLOWED_HEADERS = "Authorization, Content-Type, X-App-Identifier";
    static final String EXPOSED_HEADERS = "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";
    /** Ten minutes, in seconds. */
    static final String MAX_AGE = "600";

    private static final HeaderName ALLOW_ORIGIN = HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN;
    private static final HeaderName REQUEST_METHOD = HeaderNames.ACCESS_CONTROL_REQUEST_METHOD;

    private final List<String> paths;

    public CorsFilter(List<String> paths) {
        this.paths = List.copyOf(paths);
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (!covers(request.path().path())) {
            chain.proceed();
            return;
        }
        Optional<String> origin = request.headers().first(HeaderNames.ORIGIN);
        if (origin.isPresent()) {
            // Only an answer to a page varies by Origin: every /api/ answer is no-store, so no cache keeps one without
            // an Origin to hand to a page (SecurityHeaders).
            response.header(Headers.VARY_ORIGIN);
        }
        if (request.prologue().method() != Method.OPTIONS) {
            chain.proceed();
            return;
        }
        if (origin.isPresent() && request.headers().contains(REQUEST_METHOD)) {
            response.header(ALLOW_ORIGIN, origin.get());
            response.header(HeaderNames.ACCESS_CONTROL_ALLOW_METHODS, ALLOWED_METHODS);
            response.header(HeaderNames.ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS);
            response.header(HeaderNames.ACCESS_CONTROL_MAX_AGE, MAX_AGE);
        }
        response.header(HeaderNames.ALLOW, ALLOWED_METHODS);
        response.status(Status.NO_CONTENT_204);
        response.send();
    }

    private boolean covers(String path) {
        for (String p : paths) {
            if (path.startsWith(p) && (path.length() == p.length() || path.charAt(p.length()) == '/')) {
                return true;
            }
        }
        return false;
    }

    /** Lets a page of {@code origin} read this refusal (status and error body), and no header besides. */
    static void allowReadingRefusal(ServerResponse response, String origin) {
        response.header(ALLOW_ORIGIN, origin);
    }

    /** Lets the browser read this response from {@code origin}. */
    static void allow(ServerResponse response, String origin) {
        response.header(ALLOW_ORIGIN, origin);
        response.header(HeaderNames.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED_HEADERS);
    }
}
