package dev.autocomplete.server.http;

import io.helidon.common.context.Contexts;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRoute;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code HEAD} (RFC 9110 §9.3.2): the status and headers {@code GET} would get, its {@code Content-Length} included,
 * and no content. Helidon routes {@code HEAD} only where a route names it, and writes whatever a handler sends: an
 * error's body sent to a {@code HEAD} request is read by a keep-alive client as the start of its next answer. So
 * every route that answers {@code GET} answers {@code HEAD} too ({@link #get}), and every body this server sends goes
 * through {@link #send}, which writes the headers alone when the request is a {@code HEAD}. The request is known to
 * be one from its {@link RequestFacts}, on the context the API's request tracker binds to its handling, or this
 * class's {@link #filter()} on a listener without the tracker.
 */
public final class HeadRequests {

    private HeadRequests() {}

    /** The route of {@code GET} and {@code HEAD} of {@code path}, to a handler that sends through {@link #send}. */
    static HttpRoute get(String path, Handler handler) {
        return HttpRoute.builder()
                .methods(Method.GET, Method.HEAD)
                .path(path)
                .handler(handler)
                .build();
    }

    /**
     * Whether {@code request} is a {@code HEAD}: by identity, as Helidon hands out one instance per known method
     * ({@link Method#create} returns {@link Method#HEAD} for any spelling of it).
     */
    static boolean isHead(ServerRequest request) {
        return request.prologue().method() == Method.HEAD;
    }

    /**
     * For a listener without the request tracker: a {@code HEAD} request's facts registered and its context bound
     * while it is handled, so that {@link #send} knows it; other requests pass as they are.
     */
    public static Filter filter() {
        return (chain, request, response) -> {
            if (isHead(request)) {
                RequestFacts.start(request);
                Contexts.runInContext(request.context(), chain::proceed);
            } else {
                chain.proceed();
            }
        };
    }

    /** Sends {@code body}, or for a {@code HEAD} request its length alone. */
    static void send(ServerResponse response, byte[] body) {
        if (RequestFacts.current().head) {
            // Helidon keeps a Content-Length set before the send, so an empty send announces the body's length.
            response.header(HeaderNames.CONTENT_LENGTH, Integer.toString(body.length));
            response.send();
        } else {
            response.send(body);
        }
    }
}
