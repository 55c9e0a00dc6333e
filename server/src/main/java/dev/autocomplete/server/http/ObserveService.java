package dev.autocomplete.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.server.observe.Health;
import dev.autocomplete.server.observe.HealthCheck;
import dev.autocomplete.server.observe.Metrics;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /observe/health} (and {@code /observe/health/ready}: 200 when every check is up, else 503;
 * {@code /observe/health/live}: 200 while the process serves) in the shape of Helidon's health reports, and
 * {@code /observe/metrics} in the Prometheus text format, on the management listener only: they show tenant
 * problems, file paths, the Redis address and traffic per tenant. Health is written here rather than with Helidon's
 * health observer, which has a fixed set of checks and answers 503 when any is down: tenants come and go, and a broken
 * one is down in its own check only (docs/architecture.md). Helidon's metrics observer is not on Maven Central for
 * 4.5.0.
 */
public final class ObserveService implements HttpService {

    private final Health health;
    private final Metrics metrics;
    private final ObjectMapper json;

    public ObserveService(Health health, Metrics metrics, ObjectMapper json) {
        this.health = health;
        this.metrics = metrics;
        this.json = json;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.route(HeadRequests.get("/observe/health", (req, res) -> sendHealth(res, health.checks())))
                .route(HeadRequests.get("/observe/health/ready", (req, res) -> sendHealth(res, health.checks())))
                .route(HeadRequests.get("/observe/health/live", (req, res) -> sendHealth(res, List.of())))
                .route(HeadRequests.get("/observe/metrics", this::sendMetrics));
    }

    private void sendHealth(ServerResponse response, List<HealthCheck.Status> checks) throws JsonProcessingException {
        boolean up = Health.serving(checks);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("status", up ? "UP" : "DOWN");
        report.put(
                "checks",
                checks.stream()
                        .map(check -> {
                            Map<String, Object> entry = new LinkedHashMap<>();
                            entry.put("name", check.name());
                            entry.put("status", check.up() ? "UP" : "DOWN");
                            entry.put("data", check.data());
                            return entry;
                        })
                        .toList());
        response.status(up ? Status.OK_200 : Status.SERVICE_UNAVAILABLE_503);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.header(Headers.NO_STORE);
        HeadRequests.send(response, json.writeValueAsBytes(report));
    }

    private void sendMetrics(ServerRequest request, ServerResponse response) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            metrics.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        response.header(HeaderNames.CONTENT_TYPE, metrics.contentType());
        HeadRequests.send(response, out.toByteArray());
    }
}
