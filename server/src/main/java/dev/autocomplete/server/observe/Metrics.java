package dev.autocomplete.server.observe;

import dev.autocomplete.server.catalogs.LiveCatalog;
import dev.autocomplete.server.engines.EngineCalls;
import dev.autocomplete.server.engines.EngineOutcome;
import dev.autocomplete.server.engines.EngineRunner;
import dev.autocomplete.server.engines.GuardedEngine;
import dev.autocomplete.server.tenant.EngineCounters;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import dev.autocomplete.server.tenant.TenantRegistry;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The service's metrics, per tenant and product, written at {@code /observe/metrics} in the Prometheus text
 * format (with the Prometheus Java client: Helidon's own metrics modules are not on Maven Central for 4.5.0).
 * Tenant and product are empty for requests that never authenticated. Other parts of the server report
 * through the methods here: {@link #rateLimited} and {@link #cacheLookup} are hooks for rate limiting and
 * response caching.
 */
public final class Metrics {

    /** Telemetry event types counted separately per product; further types count as {@code other}. */
    static final int MAX_EVENT_TYPES = 50;

    private static final double[] SECONDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 5, 10};

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final Map<String, Set<String>> eventTypes = new ConcurrentHashMap<>();

    /** A request's labels, and the series they select: looked up once per request instead of twice. */
    private record RequestLabels(String tenant, String product, String endpoint, int status) {
        // Written out: a record's own equals and hashCode run through method handles that the JIT left uninlined on
        // this path, which looks the key up on every request (about 1 % of a cached answer's CPU in all).
        @Override
        public boolean equals(Object other) {
            return other instanceof RequestLabels that
                    && status == that.status
                    && tenant.equals(that.tenant)
                    && product.equals(that.product)
                    && endpoint.equals(that.endpoint);
        }

        @Override
        public int hashCode() {
            return ((31 * tenant.hashCode() + product.hashCode()) * 31 + endpoint.hashCode()) * 31 + status;
        }
    }

    private record RequestSeries(CounterDataPoint count, DistributionDataPoint latency) {}

    private final Map<RequestLabels, RequestSeries> requestSeries = new ConcurrentHashMap<>();

    /** An engine's labels in one request, and the series they select: looked up once, not per request. */
    private record EngineLabels(String tenant, String product, String engine, EngineOutcome outcome) {}

    private record EngineSeries(CounterDataPoint calls, CounterDataPoint seconds) {}

    private final Map<EngineLabels, EngineSeries> engineSeries = new ConcurrentHashMap<>();

    /** A product's cache lookups of one outcome, and their series: looked up here, not through the counter's labels. */
    private record CacheLabels(String tenant, String product, boolean hit) {
        // Written out, as RequestLabels' are.
        @Override
        public boolean equals(Object other) {
            return other instanceof CacheLabels that
                    && hit == that.hit
                    && tenant.equals(that.tenant)
                    && product.equals(that.product);
        }

        @Override
        public int hashCode() {
            return (31 * tenant.hashCode() + product.hashCode()) * 31 + Boolean.hashCode(hit);
        }
    }

    private final Map<CacheLabels, CounterDataPoint> cacheSeries = new ConcurrentHashMap<>();

    // No exemplars: nothing here is traced, and sampling them scheduled work on every few observations.
    private final Counter requests = Counter.builder()
            .withoutExemplars()
            .name("autocomplete_requests_total")
            .help("HTTP requests by endpoint and status")
            .labelNames("tenant", "product", "endpoint", "status")
            .register(registry);
    private final Histogram latency = Histogram.builder()
            .withoutExemplars()
            .name("autocomplete_request_duration_seconds")
            .help("Time from request to response")
            .labelNames("tenant", "product", "endpoint")
            .classicOnly()
            .classicUpperBounds(SECONDS)
            .register(registry);
    private final Counter errors = Counter.builder()
            .withoutExemplars()
            .name("autocomplete_errors_total")
            .help("Error responses by error code")
            .labelNames("tenant", "product", "code")
            .register(registry);
    private final Histogram engineTime = Histogram.builder()
            .withoutExemplars()
            .name("autocomplete_engine_duration_seconds")
            .help("Time waited for engines")
            .labelNames("tenant", "product")
            .classicOnly()
            .classicUpperBounds(SECONDS)
            .register(registry);
    private final Counter engineCalls = Counter.builder()
            .withoutExemplars()
            .name("autocomplete_engine_calls_total")
            .help("Requests that asked an engine, by the engine and its outcome: ok, error, timeout (the request's"
                    + " budget ran out, blamed on the engine that took most of it), invalid, circuit_open")
            .labelNames("tenant", "product", "engine", "outcome")
            .register(registry);
    private final Counter engineSeconds = Counter.builder()
            .withoutExemplars()
            .name("autocomplete_engine_seconds_total")
            .help("Time spent in each engine's calls")
            .labelNames("tenant", "product", "engine")
            .register(registry);
    private final Counter fallbacks = Counter.builder()
            .withoutExemplars()
            .name("autocomplete_fallbacks_total")
            .help("Fallback answers given instead of the engine's, by reason")
            .labelNames("tenant", "product", "reason")
            .register(registry);
    private final Counter rateLimited = Counter.builder()
            .withoutExemplars()
            .name("autocomplete_rate_limited_total")
            .help("Requests refused by rate limiting")
            .labelNames("tenant", "product")
            .register(registry);
    private final Counter cache = Counter.builder()
            .withoutExemplars()
            .name("autocomplete_cache_lookups_total")
            .help("Response cache lookups by result: hit or miss")
            .labelNames("tenant", "product", "result")
            .register(registry);
    private final Counter telemetry = Counter.builder()
            .withoutExemplars()
            .name("autocomplete_telemetry_events_total")
            .help("Telemetry events accepted, by event type")
            .labelNames("tenant", "product", "type")
            .register(registry);

    private final Counter learning = Counter.builder()
            .withoutExemplars()
            .name("autocomplete_learning_events_total")
            .help(
                    "Pick events by what learning made of them: credited, pill, not_ranked, not_offered, repeated, capped,"
                            + " dropped, off, malformed")
            .labelNames("tenant", "product", "outcome")
            .register(registry);

    /** Adds the gauges read from the tenants at scrape time. */
    public Metrics(TenantRegistry tenants) {
        CounterWithCallback.builder()
                .name("autocomplete_tenant_reloads_total")
                .help("Changed tenant directories loaded (ok) or refused (failed)")
                .labelNames("result")
                .callback(callback -> {
                    callback.call(tenants.reloads(), "ok");
                    callback.call(tenants.failedReloads(), "failed");
                })
                .register(registry);
        GaugeWithCallback.builder()
                .name("autocomplete_tenant_problems")
                .help("Problems of tenant directories that did not load, or whose last change did not load")
                .callback(callback -> callback.call(tenants.problems().size()))
                .register(registry);
        registry.register(() -> engineCounters(tenants));
    }

    /**
     * The counters engines publish ({@code EngineContext.counter}), read at scrape time: one family per name
     * (its help from the first engine that gave it), a series per tenant and engine.
     */
    private static MetricSnapshots engineCounters(TenantRegistry tenants) {
        Map<String, CounterSnapshot.Builder> families = new LinkedHashMap<>();
        for (Tenant tenant : tenants.tenants().values()) {
            for (EngineCounters.Published counter : tenant.engineCounters().published()) {
                families.computeIfAbsent(counter.name(), name -> CounterSnapshot.builder()
                                .name(EngineCounters.PREFIX + name)
                                .help(counter.help()))
                        .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                                .labels(Labels.of("engine", counter.engine(), "tenant", tenant.id()))
                                .value(counter.count().sum())
                                .build());
            }
        }
        List<MetricSnapshot> snapshots = new ArrayList<>(families.size());
        families.values().forEach(family -> snapshots.add(family.build()));
        return new MetricSnapshots(snapshots);
    }

    /** Adds the count of connections the per-address cap refused, read at scrape time. */
    public void reportRefusedConnections(LongSupplier refused) {
        CounterWithCallback.builder()
                .name("autocomplete_connections_refused_total")
                .help("Connections closed at once because their address already had its cap of connections open")
                .callback(callback -> callback.call(refused.getAsLong()))
                .register(registry);
    }

    /** Adds gauges of learning's backlog: picks waiting to be written, and sessions whose offers are remembered. */
    public void reportLearning(LongSupplier queued, LongSupplier sessions) {
        GaugeWithCallback.builder()
                .name("autocomplete_learning_queued_picks")
                .help("Honest picks waiting to be written to the store (more than learning.queue are dropped)")
                .callback(callback -> callback.call(queued.getAsLong()))
                .register(registry);
        GaugeWithCallback.builder()
                .name("autocomplete_learning_sessions")
                .help("Sessions whose offered options are remembered for the honest-pick check")
                .callback(callback -> callback.call(sessions.getAsLong()))
                .register(registry);
    }

    /** Adds the folds of live catalogs (their count and the seconds they took), per catalog, read at scrape time. */
    public void reportFolds(Supplier<? extends Collection<LiveCatalog>> catalogs) {
        perCatalog(
                catalogs,
                "autocomplete_catalog_folds_total",
                "Folds of a live catalog's pending changes into one index (off the request path)",
                LiveCatalog::folds);
        perCatalog(
                catalogs,
                "autocomplete_catalog_fold_seconds_total",
                "Wall time those folds took",
                live -> live.foldNanos() / 1e9);
    }

    private void perCatalog(
            Supplier<? extends Collection<LiveCatalog>> catalogs,
            String name,
            String help,
            ToDoubleFunction<LiveCatalog> value) {
        CounterWithCallback.builder()
                .name(name)
                .help(help)
                .labelNames("tenant", "catalog")
                .callback(callback -> catalogs.get()
                        .forEach(live -> callback.call(
                                value.applyAsDouble(live),
                                live.ref().tenant(),
                                live.ref().catalog())))
                .register(registry);
    }

    /** Adds a gauge of the engines' circuits, read at scrape time. */
    public void reportCircuits(TenantRegistry tenants, EngineRunner engines) {
        GaugeWithCallback.builder()
                .name("autocomplete_circuit_open")
                .help("1 while the circuit of a product's engine is open or half open")
                .labelNames("tenant", "product", "engine")
                .callback(callback -> {
                    for (Tenant tenant : tenants.tenants().values()) {
                        for (Product product : tenant.products()) {
                            for (GuardedEngine engine : product.engines()) {
                                boolean open = !engine.circuitState().equals("closed");
                                callback.call(open ? 1 : 0, tenant.id(), product.slug(), engine.name());
                            }
                        }
                    }
                })
                .register(registry);
    }

    public void request(String tenant, String product, String endpoint, int status, long nanos) {
        RequestSeries series = requestSeries.computeIfAbsent(
                new RequestLabels(tenant, product, endpoint, status),
                labels -> new RequestSeries(
                        requests.labelValues(tenant, product, endpoint, Integer.toString(status)),
                        latency.labelValues(tenant, product, endpoint)));
        series.count().inc();
        series.latency().observe(nanos / 1e9);
    }

    public void error(String tenant, String product, String code) {
        errors.labelValues(tenant, product, code).inc();
    }

    /**
     * One request's reading: its outcome and the time waited for it, per product; what each engine asked did, and
     * the time spent in it, per engine.
     */
    public void engineCall(
            String tenant, String product, EngineOutcome outcome, long nanos, List<EngineCalls.Use> uses) {
        for (EngineCalls.Use use : uses) {
            EngineSeries series = engineSeries.computeIfAbsent(
                    new EngineLabels(tenant, product, use.engine(), use.outcome()),
                    labels -> new EngineSeries(
                            engineCalls.labelValues(
                                    tenant, product, use.engine(), use.outcome().label()),
                            engineSeconds.labelValues(tenant, product, use.engine())));
            series.calls().inc();
            series.seconds().inc(use.nanos() / 1e9);
        }
        if (nanos > 0) {
            engineTime.labelValues(tenant, product).observe(nanos / 1e9);
        }
        if (outcome != EngineOutcome.OK) {
            fallbacks.labelValues(tenant, product, outcome.label()).inc();
        }
    }

    /** Hook for rate limiting: one request refused. */
    public void rateLimited(String tenant, String product) {
        rateLimited.labelValues(tenant, product).inc();
    }

    /** One lookup in the response cache. */
    public void cacheLookup(String tenant, String product, boolean hit) {
        cacheSeries
                .computeIfAbsent(
                        new CacheLabels(tenant, product, hit),
                        labels -> cache.labelValues(tenant, product, hit ? "hit" : "miss"))
                .inc();
    }

    public void telemetryEvent(String tenant, String product, String type) {
        Set<String> known = eventTypes.computeIfAbsent(tenant + "/" + product, k -> ConcurrentHashMap.newKeySet());
        String label = known.contains(type) || (known.size() < MAX_EVENT_TYPES && known.add(type)) ? type : "other";
        telemetry.labelValues(tenant, product, label).inc();
    }

    /** A pick event's outcome in learning (one of a fixed set of labels). */
    public void learningEvent(String tenant, String product, String outcome) {
        learning.labelValues(tenant, product, outcome).inc();
    }

    public String contentType() {
        return writer.getContentType();
    }

    public void write(OutputStream out) throws IOException {
        writer.write(out, registry.scrape());
    }
}
