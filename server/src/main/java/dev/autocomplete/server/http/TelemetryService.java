package dev.autocomplete.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.autocomplete.server.auth.Admitted;
import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.learning.Learning;
import dev.autocomplete.server.observe.Metrics;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.protocol.Uuids;
import dev.autocomplete.server.reading.ProductModel;
import dev.autocomplete.spi.toolkit.TextFolding;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code POST /api/telemetry/events}: the official client's fire-and-forget analytics
 * ({@code {source, session_id, type, at, query_data}}). Any credential of the product that passes the
 * {@link Gatekeeper} (rate limits, origin rules, CORS, as for {@code /api/suggest}) gets a 204; the
 * event is counted in the metrics by its {@code type}, and a pick ({@code option} or {@code pill}) is handed to
 * {@link Learning}, which keeps only honest picks, as option identities and counts (docs/protocol.md §6). Nothing
 * of an event is logged; its query text is never stored.
 */
public final class TelemetryService implements HttpService {

    /** Events are small; anything larger is refused with 413 before it is parsed. */
    public static final int MAX_EVENT_BYTES = 16 * 1024;

    private static final Pattern EVENT_TYPE = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

    private final Gatekeeper gatekeeper;
    private final ObjectMapper json;
    private final Metrics metrics;
    private final ErrorResponses errors;
    private final JsonRequests requests;

    private final Learning learning;

    /**
     * Per product model, the param type of each folded label (in any of its languages): pill events name labels,
     * and folding every label of the product for each event cost more than the rest of the event. Weak keys are
     * compared by identity, so a reloaded model gets its own map and the old one goes with it.
     */
    private final Cache<ProductModel, Map<String, String>> labelTypes =
            Caffeine.newBuilder().weakKeys().executor(Runnable::run).build();

    /** @param learning takes the picks; null when the server does not learn */
    public TelemetryService(
            Gatekeeper gatekeeper,
            ObjectMapper json,
            Metrics metrics,
            ErrorResponses errors,
            JsonRequests requests,
            Learning learning) {
        this.learning = learning;
        this.requests = requests;
        this.gatekeeper = gatekeeper;
        this.json = json;
        this.metrics = metrics;
        this.errors = errors;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/api/telemetry/events", this::event)
                .any(
                        "/api/telemetry/events",
                        (req, res) ->
                                errors.methodNotAllowed(res, "POST, OPTIONS", "Use POST for /api/telemetry/events."));
    }

    private void event(ServerRequest request, ServerResponse response) {
        try (Admitted admitted = gatekeeper.admit(request, response)) {
            Caller caller = admitted.caller();
            JsonNode event = read(request);
            JsonNode session = event.path("session_id");
            if (session.isTextual() && Uuids.isUuid(session.asText())) {
                RequestFacts.of(request).sessionId = session.asText(); // for the access log line
            }
            JsonNode type = event.path("type");
            String label = type.isTextual() && EVENT_TYPE.matcher(type.asText()).matches() ? type.asText() : "other";
            metrics.telemetryEvent(caller.tenant().id(), caller.product().slug(), label);
            if (learning != null) {
                Learning.Outcome outcome = learning.event(
                        new Learning.ProductRef(
                                caller.tenant().id(), caller.product().slug()),
                        caller.tenant().learn(),
                        caller.key() == null ? null : caller.key().id(),
                        gatekeeper.clients().of(request),
                        event,
                        labelText -> typeOfLabel(caller, labelText),
                        caller.product().model().learningTypes()::contains);
                if (outcome != Learning.Outcome.IGNORED) {
                    metrics.learningEvent(caller.tenant().id(), caller.product().slug(), outcome.label());
                }
            }
            response.status(Status.NO_CONTENT_204);
            response.send();
        }
    }

    /** The param type whose label (in any of its languages) is {@code label}, or null: pill events name labels. */
    private String typeOfLabel(Caller caller, String label) {
        return labelTypes
                .get(caller.product().model(), TelemetryService::labelTypes)
                .get(TextFolding.fold(label));
    }

    /** Folded label to param type; where two params share a label, the first declared wins. */
    private static Map<String, String> labelTypes(ProductModel model) {
        Map<String, String> types = new HashMap<>();
        for (ProductModel.Param param : model.paramsByType().values()) {
            types.putIfAbsent(TextFolding.fold(param.label().fallback()), param.type());
            param.label()
                    .translations()
                    .values()
                    .forEach(text -> types.putIfAbsent(TextFolding.fold(text), param.type()));
        }
        return Map.copyOf(types);
    }

    private JsonNode read(ServerRequest request) {
        JsonNode node = requests.parse(json, request);
        if (!node.isObject()) {
            throw ApiException.badRequest("INVALID_REQUEST", "Send one event as a JSON object.");
        }
        return node;
    }
}
