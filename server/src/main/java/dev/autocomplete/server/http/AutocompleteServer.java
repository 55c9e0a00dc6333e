package dev.autocomplete.server.http;

import java.io.IOException;
import java.nio.file.Path;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;

import dev.autocomplete.server.auth.Authenticator;
import dev.autocomplete.server.auth.KeyRegistry;
import dev.autocomplete.server.observe.Health;
import dev.autocomplete.server.observe.Metrics;
import dev.autocomplete.server.protocol.JsonBodies;
import dev.autocomplete.server.suggest.EngineRunner;
import dev.autocomplete.server.suggest.Suggester;
import dev.autocomplete.server.tenant.TenantLoader;
import dev.autocomplete.server.tenant.TenantRegistry;
import dev.autocomplete.server.tenant.TenantWatcher;

/**
 * The running service: tenants, keys and the Helidon web server, wired by hand. Start with {@link #start},
 * stop with {@link #close}.
 */
public final class AutocompleteServer implements AutoCloseable {

    /** Requests larger than this are refused with 413 before they are read. */
    public static final long MAX_BODY_BYTES = 64 * 1024;

    private static final System.Logger LOG = System.getLogger(AutocompleteServer.class.getName());

    private final TenantRegistry tenants;
    private final TenantWatcher watcher;
    private final KeyRegistry keys;
    private final EngineRunner engines;
    private final Health health;
    private final Metrics metrics;
    private final WebServer webServer;

    private AutocompleteServer(TenantRegistry tenants, TenantWatcher watcher, KeyRegistry keys, EngineRunner engines,
            Health health, Metrics metrics, WebServer webServer) {
        this.health = health;
        this.metrics = metrics;
        this.tenants = tenants;
        this.watcher = watcher;
        this.keys = keys;
        this.engines = engines;
        this.webServer = webServer;
    }

    /**
     * Loads every tenant under {@code tenantsRoot}, reports the ones that fail, and serves on
     * {@code host:port} ({@code 0} picks a free port).
     */
    public static AutocompleteServer start(String host, int port, Path tenantsRoot) throws IOException {
        TenantLoader loader = new TenantLoader();
        TenantRegistry tenants = TenantRegistry.load(tenantsRoot, loader);
        tenants.problems().forEach(problem -> LOG.log(System.Logger.Level.WARNING, "Tenant skipped: " + problem));
        TenantWatcher watcher = new TenantWatcher(tenants, loader).start();
        KeyRegistry keys = new KeyRegistry(tenantsRoot).start();
        ObjectMapper json = jsonMapper();
        JsonBodies bodies = new JsonBodies(json);
        Metrics metrics = new Metrics(tenants);
        RequestTracker tracker = new RequestTracker(metrics, new AccessLog(json));
        ErrorResponses errors = new ErrorResponses(bodies, tracker.errorSent());
        EngineRunner engines = new EngineRunner(tenants, tracker);
        metrics.reportCircuits(tenants, engines);
        Health health = new Health(tenants, engines);
        Authenticator authenticator = new Authenticator(keys, tenants);
        SuggestService suggest = new SuggestService(authenticator, json, new Suggester(engines), bodies, errors);
        HttpRouting.Builder routing = HttpRouting.builder()
                .addFilter(tracker)
                .register(suggest)
                .register(new TelemetryService(authenticator, json, metrics, errors))
                .register(new ObserveService(health, metrics, json))
                .any((req, res) -> errors.send(res, 404, "NOT_FOUND", "No such endpoint."))
                .error(Throwable.class, (req, res, e) -> {
                    LOG.log(System.Logger.Level.ERROR, "Unhandled error on " + req.path().path(), e);
                    if (!res.isSent()) {
                        errors.send(res, 500, "INTERNAL", "The server could not handle the request.");
                    }
                });
        WebServer webServer = WebServer.builder()
                .host(host)
                .port(port)
                .maxPayloadSize(MAX_BODY_BYTES)
                .directHandlers(errors.directHandlers())
                .routing(routing)
                .build()
                .start();
        return new AutocompleteServer(tenants, watcher, keys, engines, health, metrics, webServer);
    }

    /** The JSON mapper for request bodies: strict about trailing garbage, bounded nesting and lengths. */
    static ObjectMapper jsonMapper() {
        JsonMapper mapper = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .build();
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(64)
                .maxStringLength((int) MAX_BODY_BYTES)
                .build());
        return mapper;
    }

    public int port() {
        return webServer.port();
    }

    public TenantRegistry tenants() {
        return tenants;
    }

    public KeyRegistry keys() {
        return keys;
    }

    public EngineRunner engines() {
        return engines;
    }

    /** Add checks (e.g. a Redis connection) to {@code /observe/health} here. */
    public Health health() {
        return health;
    }

    /** Report rate-limit rejections and cache lookups here. */
    public Metrics metrics() {
        return metrics;
    }

    @Override
    public void close() {
        webServer.stop();
        watcher.close();
        keys.close();
        tenants.close();
    }
}
