package dev.autocomplete.server.http;

import dev.autocomplete.server.analytics.Analytics;
import dev.autocomplete.server.auth.Authenticator;
import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.observe.Metrics;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.suggest.Suggester;
import io.helidon.common.context.Contexts;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps every request: times it, and once answered records it in the metrics and the access log. Services
 * put what they learn in the request's {@link RequestFacts}, kept on the request's context ({@link Caller} once
 * authenticated, the {@link SuggestRequest} once read, the {@link Suggester.Outcome} the suggester returned), and
 * {@link ErrorResponses} the code of the error sent.
 */
public final class RequestTracker implements Filter, AutoCloseable {

    private final Metrics metrics;
    private final AccessLog accessLog;
    private final ErrorResponses errors;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final int maxConcurrent;
    private final Analytics analytics;
    private volatile boolean draining;

    /** @param maxConcurrent requests handled at once; more are answered {@code 503 OVERLOADED} at once */
    public RequestTracker(Metrics metrics, AccessLog accessLog, ErrorResponses errors, int maxConcurrent) {
        this(metrics, accessLog, errors, maxConcurrent, null);
    }

    /** @param analytics counts each answered suggest request, and refused suggest and telemetry ones; null for none */
    public RequestTracker(
            Metrics metrics, AccessLog accessLog, ErrorResponses errors, int maxConcurrent, Analytics analytics) {
        this.analytics = analytics;
        this.metrics = metrics;
        this.maxConcurrent = maxConcurrent;
        this.accessLog = accessLog;
        this.errors = errors;
    }

    /**
     * Graceful shutdown, first half: from now on new requests get {@code 503 SHUTTING_DOWN} with
     * {@code Connection: close}; waits until the requests already running are answered, at most {@code bound}.
     *
     * @return whether every running request finished in time
     */
    public boolean drain(Duration bound) throws InterruptedException {
        draining = true;
        long deadline = System.nanoTime() + bound.toNanos();
        while (inFlight.get() > 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        long start = System.nanoTime();
        RequestFacts facts = RequestFacts.start(request);
        int running = inFlight.incrementAndGet();
        try {
            // The request's context is bound while it is handled, for ErrorResponses (given only a response).
            Contexts.runInContext(request.context(), () -> admit(chain, response, running));
        } finally {
            inFlight.decrementAndGet();
            long nanos = System.nanoTime() - start;
            Caller caller = facts.caller;
            String tenant = caller == null ? "" : caller.tenant().id();
            String product = caller == null ? "" : caller.product().slug();
            String path = request.path().path();
            int status = response.status().code();
            String endpoint = endpoint(path);
            metrics.request(tenant, product, endpoint, status, nanos);
            Suggester.Outcome suggested = facts.suggested;
            if (analytics != null && suggested != null && status == 200) {
                analytics.suggested(caller, facts.body, suggested, nanos);
            }
            if (facts.errorCode != null) {
                metrics.error(tenant, product, facts.errorCode);
                if (facts.errorCode.equals("RATE_LIMITED")) {
                    metrics.rateLimited(tenant, product);
                }
                refused(caller, facts.refusedKeyProduct, endpoint, status, facts.errorCode);
            }
            // Load balancers probe readiness every few seconds: counted, not logged.
            if (!endpoint.equals(ReadinessService.PATH)) {
                accessLog.write(new AccessLog.Entry(
                        request.prologue().method().text(),
                        endpoint,
                        tenant,
                        product,
                        facts.body,
                        suggested == null ? null : suggested.response(),
                        status,
                        facts.errorCode,
                        nanos,
                        suggested == null ? 0 : suggested.engineNanos(),
                        suggested == null ? null : suggested.fallback(),
                        caller != null && caller.tenant().logQueries(),
                        facts.sessionId));
            }
        }
    }

    /**
     * Counts a suggest or telemetry request answered with an error in the analytics (on the error path only): for its
     * product when its key was resolved, else for no one (the console's overview shows those since the start).
     */
    private void refused(Caller caller, Authenticator.ProductRef refusedKey, String endpoint, int status, String code) {
        if (analytics == null) {
            return;
        }
        String counted =
                switch (endpoint) {
                    case "/api/suggest" -> Analytics.SUGGEST;
                    case "/api/telemetry/events" -> Analytics.TELEMETRY;
                    default -> null;
                };
        if (counted == null) {
            return;
        }
        if (caller != null) {
            analytics.refused(caller.tenant().id(), caller.product().slug(), counted, status, code);
        } else if (refusedKey != null) { // a revoked or expired public key: its product's page is broken
            analytics.refused(refusedKey.tenantId(), refusedKey.productSlug(), counted, status, code);
        } else {
            analytics.refusedWithoutTenant(counted, status, code);
        }
    }

    /** Refuses the request while draining or when too many run, else hands it on. */
    private void admit(FilterChain chain, RoutingResponse response, int running) {
        if (draining) {
            response.header(HeaderValues.CONNECTION_CLOSE);
            response.header(HeaderNames.RETRY_AFTER, "1");
            errors.send(response, 503, "SHUTTING_DOWN", "The server is shutting down; try again.");
        } else if (running > maxConcurrent) {
            // Refused at once rather than queued: a queue would hold the client's connection and our memory
            // while it waits, and the client can retry as well as we can wait.
            response.header(HeaderNames.RETRY_AFTER, "1");
            errors.send(
                    response,
                    503,
                    "OVERLOADED",
                    "The server is handling as many requests as it can; retry" + " in a second.");
        } else {
            chain.proceed();
        }
    }

    /** Writes the access log lines still queued. */
    @Override
    public void close() {
        accessLog.close();
    }

    /**
     * The path as a metric label: known endpoints by name, the records API by its route (catalog names and ids
     * would make unbounded labels), anything else as {@code other}.
     */
    private static String endpoint(String path) {
        return switch (path) {
            case "/api/suggest",
                    "/api/auth/token",
                    "/api/telemetry/events",
                    ReadinessService.PATH,
                    CatalogService.LIST_PATH -> path;
            default -> path.startsWith("/api/catalogs/") ? CatalogService.PATH : "other";
        };
    }
}
