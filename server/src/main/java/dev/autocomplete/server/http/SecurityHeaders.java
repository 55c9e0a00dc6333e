package dev.autocomplete.server.http;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * {@code Cache-Control: no-store} and {@code X-Content-Type-Options: nosniff} on every response under
 * {@code /api/}, answers and preflights alike; errors get them from {@link ErrorResponses} wherever they are sent.
 * {@link #everywhere()} gives {@code nosniff} to every answer of a listener (the management one).
 */
public final class SecurityHeaders implements Filter {

    /** {@code X-Content-Type-Options: nosniff} on every answer: health and metrics are never sniffed either. */
    public static Filter everywhere() {
        return (chain, request, response) -> {
            response.header(Headers.NOSNIFF);
            chain.proceed();
        };
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (request.path().path().startsWith("/api/")) {
            response.header(Headers.NO_STORE);
            response.header(Headers.NOSNIFF);
        }
        chain.proceed();
    }
}
