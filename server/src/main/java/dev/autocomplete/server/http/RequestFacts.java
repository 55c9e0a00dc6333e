package dev.autocomplete.server.http;

import dev.autocomplete.server.auth.Authenticator;
import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.suggest.Suggester;
import io.helidon.common.context.Context;
import io.helidon.common.context.Contexts;
import io.helidon.webserver.http.ServerRequest;

/**
 * What is learned about a request while it is handled, for the {@link RequestTracker} around it (metrics and
 * the access log): one per request, registered on the request's own {@link ServerRequest#context() context} by
 * the tracker. Code that has the request reads them from there ({@link #of}); {@link ErrorResponses}, which is
 * handed only the response, finds the same context through Helidon's {@link Contexts}, which the tracker binds
 * to the request's handling ({@link #current}).
 */
final class RequestFacts {

    /** Whether the request is a {@code HEAD}: its answer carries no content ({@link HeadRequests#send}). */
    final boolean head;

    Caller caller;
    SuggestRequest body;
    /** The product of a revoked or expired public key the request was refused for; null otherwise. */
    Authenticator.ProductRef refusedKeyProduct;
    /** The session a telemetry event names, when it is a UUID (a suggest request's is its body's). */
    String sessionId;

    Suggester.Outcome suggested;
    String errorCode;

    private RequestFacts(boolean head) {
        this.head = head;
    }

    /** Starts tracking {@code request}: its facts, on its context. */
    static RequestFacts start(ServerRequest request) {
        RequestFacts facts = new RequestFacts(HeadRequests.isHead(request));
        request.context().register(facts);
        return facts;
    }

    /** The facts of {@code request}, or a throwaway when no tracker started them. */
    static RequestFacts of(ServerRequest request) {
        return of(request.context());
    }

    /** The facts of the request whose context Helidon has bound to this handling, or a throwaway. */
    static RequestFacts current() {
        return Contexts.context().map(RequestFacts::of).orElseGet(() -> new RequestFacts(false));
    }

    private static RequestFacts of(Context context) {
        return context.get(RequestFacts.class).orElseGet(() -> new RequestFacts(false));
    }
}
