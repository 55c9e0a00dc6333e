package dev.autocomplete.server.http;

import dev.autocomplete.server.observe.Health;
import dev.autocomplete.server.observe.HealthCheck;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /ready} on the API's port, for load balancers: {@code 200 {"status":"UP"}} when every health check
 * is up, else {@code 503 {"status":"DOWN"}}, and nothing more ({@code HEAD /ready}: the same status, no body).
 * The checks themselves name tenants, files and the Redis address, so they stay on the management listener
 * ({@link ObserveService}).
 */
public final class ReadinessService implements HttpService {

    static final String PATH = "/ready";

    private static final byte[] UP = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] DOWN = "{\"status\":\"DOWN\"}".getBytes(StandardCharsets.UTF_8);
    /** A cached readiness answer would keep a dead replica in the pool. */
    private static final Header NO_STORE = HeaderValues.create(HeaderNames.CACHE_CONTROL, "no-store");

    private final Health health;

    public ReadinessService(Health health) {
        this.health = health;
    }

    @Override
    public void routing(HttpRules rules) {
        // Some load balancers probe with HEAD: the same status and headers, no body.
        rules.route(HeadRequests.get(PATH, (req, res) -> answer(res)));
    }

    private void answer(ServerResponse response) {
        boolean up = health.checks().stream().allMatch(HealthCheck.Status::up);
        response.status(up ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.header(NO_STORE);
        response.header(Headers.NOSNIFF);
        HeadRequests.send(response, up ? UP : DOWN);
    }
}
