package dev.autocomplete.server.http;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * {@code Cache-Control: no-store} and {@code X-Content-Type-Options: nosniff} on every response under
 * {@code /api/}, answers and preflights alike; errors get them from {@link ErrorResponses} wherever they are sent.
 */
public final class SecurityHeaders implements Filter {

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (request.path().path().startsWith("/api/")) {
            response.header(Headers.NO_STORE);
            response.header(Headers.NOSNIFF);
        }
        chain.proceed();
    }
}
