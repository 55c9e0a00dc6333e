package dev.autocomplete.server.http;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.helidon.common.configurable.Resource;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http.HttpRouting;

import dev.autocomplete.server.auth.Authenticator;
import dev.autocomplete.server.auth.KeyRegistry;
import dev.autocomplete.server.config.ServerSettings;
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

    /** The default body limit ({@code limits.body-bytes}): larger requests are refused with 413 unread. */
    public static final long MAX_BODY_BYTES = 64 * 1024;

    private static final System.Logger LOG = System.getLogger(AutocompleteServer.class.getName());

    private final TenantRegistry tenants;
    private final TenantWatcher watcher;
    private final KeyRegistry keys;
    private final EngineRunner engines;
    private final Health health;
    private final Metrics metrics;
    private final RequestTracker tracker;
    private final Duration shutdownGrace;
    private final WebServer webServer;

    private AutocompleteServer(TenantRegistry tenants, TenantWatcher watcher, KeyRegistry keys, EngineRunner engines,
            Health health, Metrics metrics, RequestTracker tracker, Duration shutdownGrace, WebServer webServer) {
        this.tracker = tracker;
        this.shutdownGrace = shutdownGrace;
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
        return start(ServerSettings.defaults().with(host, port, tenantsRoot));
    }

    /** Loads every tenant of {@code settings.tenants()} and serves as the settings say. */
    public static AutocompleteServer start(ServerSettings settings) throws IOException {
        Path tenantsRoot = settings.tenants();
        TenantLoader loader = new TenantLoader();
        TenantRegistry tenants = TenantRegistry.load(tenantsRoot, loader);
        tenants.problems().forEach(problem -> LOG.log(System.Logger.Level.WARNING, "Tenant skipped: " + problem));
        TenantWatcher watcher = new TenantWatcher(tenants, loader).start();
        KeyRegistry keys = new KeyRegistry(tenantsRoot).start();
        ObjectMapper json = jsonMapper(settings.limits());
        JsonBodies bodies = new JsonBodies(json);
        Metrics metrics = new Metrics(tenants);
        RequestTracker tracker = new RequestTracker(metrics, new AccessLog(json), bodies);
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
        ServerSettings.Limits limits = settings.limits();
        WebServerConfig.Builder server = WebServer.builder()
                .host(settings.host())
                .port(settings.port())
                .maxPayloadSize(limits.bodyBytes())
                .maxConcurrentRequests(limits.maxConcurrentRequests())
                .connectionOptions(socket -> socket.readTimeout(limits.readTimeout()))
                .addProtocol(Http1Config.builder().maxHeadersSize(limits.headerBytes())
                        .maxPrologueLength(Math.min(limits.headerBytes(), 8192)).build())
                // Our own shutdown (ServeCommand) stops the server first, then closes the tenants.
                .shutdownHook(false)
                // close() drains requests within settings.shutdownGrace() before stopping the listener.
                .shutdownGracePeriod(Duration.ofSeconds(1))
                .directHandlers(errors.directHandlers())
                .routing(routing);
        if (settings.tls() != null) {
            server.tls(tls -> tls
                    .privateKey(key -> key.pem(pem -> pem.key(Resource.create(settings.tls().privateKey()))))
                    .privateKeyCertChain(key -> key.pem(pem -> pem.certChain(
                            Resource.create(settings.tls().certificate())))));
        }
        WebServer webServer = server.build().start();
        return new AutocompleteServer(tenants, watcher, keys, engines, health, metrics, tracker,
                settings.shutdownGrace(), webServer);
    }

    /** The JSON mapper for request bodies: strict about trailing garbage, bounded nesting and lengths. */
    static ObjectMapper jsonMapper(ServerSettings.Limits limits) {
        JsonMapper mapper = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .build();
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(limits.jsonDepth())
                .maxStringLength(limits.jsonStringBytes())
                .maxNameLength(limits.jsonStringBytes())
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

    /**
     * Stops gracefully: new requests get 503 while the running ones finish (at most the shutdown grace
     * period), then the listener stops and every engine is closed.
     */
    @Override
    public void close() {
        try {
            if (!tracker.drain(shutdownGrace)) {
                LOG.log(System.Logger.Level.WARNING, "Requests still running after " + shutdownGrace.toSeconds()
                        + " s of shutdown grace; stopping anyway");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        webServer.stop();
        watcher.close();
        keys.close();
        tenants.close();
    }
}
