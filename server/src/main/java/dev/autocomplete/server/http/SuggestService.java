package dev.autocomplete.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.server.auth.Admitted;
import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.observe.Metrics;
import dev.autocomplete.server.protocol.JsonBodies;
import dev.autocomplete.server.protocol.SuggestRequestReader;
import dev.autocomplete.server.suggest.Suggester;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/** {@code POST /api/suggest}: credentials, origin and rate limit, media type, body, then the {@link Suggester}. */
public final class SuggestService implements HttpService {

    private final Gatekeeper gatekeeper;
    private final SuggestRequestReader reader;
    private final Suggester suggester;
    private final JsonBodies bodies;
    private final ErrorResponses errors;
    private final JsonRequests requests;
    private final Metrics metrics;

    public SuggestService(
            Gatekeeper gatekeeper,
            ObjectMapper json,
            Suggester suggester,
            JsonBodies bodies,
            ErrorResponses errors,
            JsonRequests requests,
            Metrics metrics) {
        this.metrics = metrics;
        this.gatekeeper = gatekeeper;
        this.reader = new SuggestRequestReader(json);
        this.suggester = suggester;
        this.bodies = bodies;
        this.errors = errors;
        this.requests = requests;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/api/suggest", this::suggest)
                .any(
                        "/api/suggest",
                        (req, res) -> errors.methodNotAllowed(res, "POST, OPTIONS", "Use POST for /api/suggest."));
    }

    private void suggest(ServerRequest request, ServerResponse response) {
        try (Admitted admitted = gatekeeper.admit(request, response)) {
            Caller caller = admitted.caller();
            JsonRequests.requireJson(request);
            // The client's address is read only for a session seen first: new sessions are counted per client.
            ClientAddresses clients = gatekeeper.clients();
            Suggester.Outcome outcome =
                    suggester.suggest(caller, requests.body(request), reader, () -> clients.of(request));
            RequestFacts facts = RequestFacts.of(request);
            facts.body = outcome.request();
            facts.suggested = outcome;
            gatekeeper.chargeReading(caller, outcome.engineQuestions());
            // Counted before the answer leaves, so a scrape right after it sees the count.
            String tenant = caller.tenant().id();
            String product = caller.product().slug();
            if (outcome.engine() != null) {
                metrics.engineCall(tenant, product, outcome.engine(), outcome.engineNanos(), outcome.engineUses());
            }
            if (outcome.cache() != Suggester.CacheLookup.NONE) {
                metrics.cacheLookup(tenant, product, outcome.cache() == Suggester.CacheLookup.HIT);
            }
            byte[] bytes = bodies.suggestResponse(outcome.response());
            response.status(Status.OK_200);
            response.header(HeaderValues.CONTENT_TYPE_JSON);
            response.send(bytes);
        }
    }
}
