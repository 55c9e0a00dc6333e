package dev.autocomplete.server.http;

import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.suggest.Suggester;

/**
 * What is learned about a request while it is handled, for the {@link RequestTracker} around it (metrics and
 * the access log): one per request, kept in a thread local from the tracker's start to its end, since filter
 * and handler run on the request's one virtual thread. Cheaper than Helidon's request context, which made a
 * context per request and a registry lookup per fact.
 */
final class RequestFacts {

    private static final ThreadLocal<RequestFacts> CURRENT = new ThreadLocal<>();

    Caller caller;
    SuggestRequest body;
    Suggester.Outcome suggested;
    String errorCode;

    private RequestFacts() {}

    /** Starts tracking the request this thread runs. */
    static RequestFacts start() {
        RequestFacts facts = new RequestFacts();
        CURRENT.set(facts);
        return facts;
    }

    static void end() {
        CURRENT.remove();
    }

    /** The facts of the request this thread runs, or a throwaway when no tracker started one. */
    static RequestFacts current() {
        RequestFacts facts = CURRENT.get();
        return facts != null ? facts : new RequestFacts();
    }
}
