package dev.autocomplete.server.wiring;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.autocomplete.server.analytics.Analytics;
import dev.autocomplete.server.analytics.AnalyticsStore;
import dev.autocomplete.server.auth.AccessTokens;
import dev.autocomplete.server.auth.Authenticator;
import dev.autocomplete.server.auth.FileKeyStore;
import dev.autocomplete.server.auth.KeyRegistry;
import dev.autocomplete.server.auth.KeyStore;
import dev.autocomplete.server.auth.PostgresKeyStore;
import dev.autocomplete.server.auth.SigningSecret;
import dev.autocomplete.server.auth.SnapshotKeyStore;
import dev.autocomplete.server.catalogs.CatalogStores;
import dev.autocomplete.server.catalogs.LiveCatalogs;
import dev.autocomplete.server.catalogs.WriteSpool;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.config.ServingMark;
import dev.autocomplete.server.engines.EngineRunner;
import dev.autocomplete.server.files.FileWatcher;
import dev.autocomplete.server.http.AccessLog;
import dev.autocomplete.server.http.CatalogService;
import dev.autocomplete.server.http.ClientAddresses;
import dev.autocomplete.server.http.ConnectionGuard;
import dev.autocomplete.server.http.ConsoleService;
import dev.autocomplete.server.http.CorsFilter;
import dev.autocomplete.server.http.DemoPage;
import dev.autocomplete.server.http.ErrorResponses;
import dev.autocomplete.server.http.Gatekeeper;
import dev.autocomplete.server.http.HeadRequests;
import dev.autocomplete.server.http.JsonRequests;
import dev.autocomplete.server.http.ObserveService;
import dev.autocomplete.server.http.ReadinessService;
import dev.autocomplete.server.http.RequestTracker;
import dev.autocomplete.server.http.SecurityHeaders;
import dev.autocomplete.server.http.SuggestService;
import dev.autocomplete.server.http.TelemetryService;
import dev.autocomplete.server.http.TokenService;
import dev.autocomplete.server.learning.Learning;
import dev.autocomplete.server.learning.LearningStore;
import dev.autocomplete.server.observe.Health;
import dev.autocomplete.server.observe.HealthCheck;
import dev.autocomplete.server.observe.Metrics;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.protocol.JsonBodies;
import dev.autocomplete.server.ratelimit.RateLimiter;
import dev.autocomplete.server.storage.MigrationMark;
import dev.autocomplete.server.storage.StoredComponents;
import dev.autocomplete.server.store.Database;
import dev.autocomplete.server.suggest.ResponseCache;
import dev.autocomplete.server.suggest.Suggester;
import dev.autocomplete.server.tenant.TenantLoader;
import dev.autocomplete.server.tenant.TenantRegistry;
import dev.autocomplete.server.tenant.TenantWatcher;
import io.helidon.common.configurable.Resource;
import io.helidon.common.socket.SocketOptions;
import io.helidon.http.HttpException;
import io.helidon.webserver.ListenerConfig;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.ErrorHandler;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.http1.Http1Config;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The running service: tenants, keys and the Helidon web server, wired by hand. Start with {@link #start},
 * stop with {@link #close}.
 */
public final class AutocompleteServer implements AutoCloseable {

    /** The name of the listener that serves {@code /observe/*} apart from the API. */
    static final String MANAGEMENT_SOCKET = "management";

    private static final System.Logger LOG = System.getLogger(AutocompleteServer.class.getName());

    private final TenantRegistry tenants;
    private final FileWatcher files;
    private final KeyRegistry keys;
    private final EngineRunner engines;
    private final Health health;
    private final Metrics metrics;
    private final RequestTracker tracker;
    private final ConnectionGuard guard;
    private final ConnectionGuard managementGuard;
    private final Duration shutdownGrace;
    private final RateLimiter limiter;
    private final WebServer webServer;
    private final DemoPage demoPage;
    private final LiveCatalogs catalogs;
    private final Learning learning;
    private final Analytics analytics;
    private final ServingMark serving;

    private AutocompleteServer(
            TenantRegistry tenants,
            FileWatcher files,
            KeyRegistry keys,
            EngineRunner engines,
            Health health,
            Metrics metrics,
            RequestTracker tracker,
            ConnectionGuard guard,
            ConnectionGuard managementGuard,
            Duration shutdownGrace,
            RateLimiter limiter,
            WebServer webServer,
            DemoPage demoPage,
            LiveCatalogs catalogs,
            Learning learning,
            Analytics analytics,
            ServingMark serving) {
        this.analytics = analytics;
        this.serving = serving;
        this.catalogs = catalogs;
        this.learning = learning;
        this.tracker = tracker;
        this.guard = guard;
        this.managementGuard = managementGuard;
        this.shutdownGrace = shutdownGrace;
        this.health = health;
        this.metrics = metrics;
        this.limiter = limiter;
        this.tenants = tenants;
        this.files = files;
        this.keys = keys;
        this.engines = engines;
        this.webServer = webServer;
        this.demoPage = demoPage;
    }

    /**
     * Loads every tenant of {@code settings.tenants()}, reports the ones that fail, and serves as the settings
     * say (port {@code 0} picks a free one).
     */
    public static AutocompleteServer start(ServerSettings settings) throws IOException {
        Path tenantsRoot = settings.tenants();
        StoredComponents.refuseNewer(settings); // a store a newer version wrote: refused before anything opens it
        MigrationMark.of(settings)
                .ifPresent(migrated -> LOG.log(
                        System.Logger.Level.WARNING,
                        migrated
                                + ": the replicas on that database do not see what this server writes. Set storage.url to "
                                + "serve it, or run 'storage unmark' if this deployment is back on SQLite."));
        // Before the store opens: `storage restore` refuses to replace it under a running server.
        ServingMark serving = ServingMark.hold(settings.data());
        LiveCatalogs catalogs = CatalogStores.live(settings);
        TenantLoader loader = new TenantLoader(catalogs, settings.limits().engineStart());
        // Before loading, so that a change made while tenants and keys load is reported, not lost.
        FileWatcher files = new FileWatcher(tenantsRoot, TenantLoader.TENANT_FILE, settings.tenantsWatch());
        TenantRegistry tenants = TenantRegistry.load(tenantsRoot, loader);
        tenants.problems().forEach(problem -> LOG.log(System.Logger.Level.WARNING, "Tenant skipped: " + problem));
        TenantWatcher tenantWatcher = new TenantWatcher(tenants, loader);
        tenantWatcher.follow(files);
        // Tenants whose catalogs could not be opened (the shared store down at start, no snapshot) load once it is up.
        catalogs.whenAvailable(tenantWatcher::retryFailed);
        AccessTokens tokens = new AccessTokens(
                SigningSecret.resolve(settings.tokenSecret(), settings.tokenSecretFile(), settings.data(), tenantsRoot),
                settings.clock());
        KeyStore keyStore = settings.storageUrl().isEmpty()
                ? FileKeyStore.watched(tenantsRoot, files)
                : new SnapshotKeyStore(
                        new PostgresKeyStore(
                                settings.storageUrl(), tenantsRoot, PostgresKeyStore.DEFAULT_SAFETY_INTERVAL),
                        settings.data().resolve("keys-snapshot"));
        KeyRegistry keys = new KeyRegistry(keyStore, settings.clock()).start();
        files.start();
        RateLimiter limiter = settings.redisUrl().isEmpty()
                ? RateLimiter.local()
                : RateLimiter.redis(URI.create(settings.redisUrl()));
        ObjectMapper json = jsonMapper(settings.limits());
        JsonBodies bodies = new JsonBodies(json);
        Metrics metrics = new Metrics(tenants);
        ServerSettings.Limits limits = settings.limits();
        // The one error mapping of the server, for both listeners and the request tracker.
        ErrorResponses errors = new ErrorResponses(bodies);
        Analytics analytics = analytics(settings);
        java.util.concurrent.atomic.AtomicInteger publicPort = new java.util.concurrent.atomic.AtomicInteger();
        RequestTracker tracker =
                new RequestTracker(metrics, new AccessLog(), errors, limits.maxConcurrentRequests(), analytics);
        // Who the client is, read once: the connection cap exempts its proxies, the per-client limits count its
        // clients.
        ClientAddresses clients = new ClientAddresses(limits.trustedProxies());
        ConnectionGuard guard = new ConnectionGuard(
                limits.headerTimeout(),
                limits.bodyTimeout(),
                limits.readTimeout(),
                limits.connectionsPerAddress(),
                clients);
        metrics.reportRefusedConnections(guard::refusedConnections);
        // The management listener's connections get the same deadlines and Connection: close, but no cap: its
        // callers are the operator's own monitoring.
        ConnectionGuard managementGuard = new ConnectionGuard(
                limits.headerTimeout(), limits.bodyTimeout(), limits.readTimeout(), 0, ClientAddresses.DIRECT);
        EngineRunner engines = new EngineRunner();
        metrics.reportCircuits(tenants, engines);
        metrics.reportFolds(catalogs::opened);
        Health health = new Health(tenants, engines);
        // Rate limits keep working per process while Redis is away, so a degraded mode is reported, not DOWN.
        health.add(() -> new HealthCheck.Status(
                "rate-limits",
                true,
                Map.of(
                        "mode",
                        limiter.status().mode(),
                        "degraded",
                        limiter.status().degraded(),
                        "detail",
                        limiter.status().describe())));
        health.add(() -> keysHealth(keys.status()));
        health.add(() -> new HealthCheck.Status(
                "catalog-store",
                true,
                Map.of(
                        "store",
                        settings.storageUrl().isEmpty() ? "sqlite" : "postgresql",
                        "current",
                        catalogs.current())));
        Gatekeeper gatekeeper = new Gatekeeper(
                new Authenticator(keys, tenants, tokens), limiter, Gatekeeper.FAILED_AUTHENTICATION, clients);
        Learning learning = learning(settings);
        metrics.reportLearning(learning::queued, learning::sessions);
        learning.onPicks(analytics::picked);
        SuggestService suggest = new SuggestService(
                gatekeeper,
                json,
                new Suggester(engines, new ResponseCache(settings.cacheMaxEntries()), settings.clock(), learning),
                bodies,
                errors,
                new JsonRequests(limits.bodyBytes(), "A suggest request", guard),
                metrics);
        DemoPage demoPage = new DemoPage(json, errors);
        HttpRouting.Builder routing = HttpRouting.builder()
                .addFilter(tracker)
                .addFilter(guard.filter())
                .addFilter(new SecurityHeaders())
                .addFilter(new CorsFilter(CorsFilter.DEFAULT_PATHS));
        // The suggest routes at the top level, not as a registered service: Helidon copies the path parameters for
        // each service it enters (1.6 % of a cached answer's CPU under the profiler), and nearly every request is a
        // suggest request.
        suggest.routing(routing);
        routing.register(new TokenService(
                        gatekeeper, json, errors, new JsonRequests(limits.bodyBytes(), "A token request", guard)))
                .register(new TelemetryService(
                        gatekeeper,
                        json,
                        metrics,
                        errors,
                        new JsonRequests(TelemetryService.MAX_EVENT_BYTES, "A telemetry event", guard),
                        learning))
                .register(new CatalogService(
                        gatekeeper,
                        catalogs,
                        WriteSpool.open(settings.data()),
                        json,
                        errors,
                        guard,
                        limits.catalogBodyBytes(),
                        limits.catalogBodyTimeout()))
                .register(new ReadinessService(health))
                .register(demoPage)
                .any((req, res) -> {
                    ApiException badId = CatalogService.unroutedOptionId(req);
                    if (badId != null) {
                        errors.send(res, badId);
                    } else {
                        errors.send(res, 404, "NOT_FOUND", "No such endpoint.");
                    }
                })
                .error(ApiException.class, (req, res, e) -> errors.send(res, e))
                .error(JsonRequests.ClientAborted.class, (req, res, e) -> errors.clientAborted(res))
                .error(HttpException.class, httpErrors(errors))
                .error(Throwable.class, (req, res, e) -> unexpected(errors, req, res, e));
        WebServerConfig.Builder server = WebServer.builder()
                .host(settings.host())
                .port(settings.port())
                .maxPayloadSize(Math.max(limits.bodyBytes(), limits.catalogBodyBytes()) + ConnectionGuard.LINGER_BYTES)
                // The request limit is the tracker's (503 OVERLOADED, logged and counted); the connection guard
                // admits each connection and serves HTTP/1.1 through Helidon's own connections.
                .connectionOptions(guard.socketOptions(SocketOptions.builder()
                        .readTimeout(limits.readTimeout())
                        .build()))
                .protocolsDiscoverServices(false)
                .addConnectionSelector(guard.selector(Http1Config.builder()
                        .maxHeadersSize(limits.headerBytes())
                        .maxPrologueLength(Math.min(limits.headerBytes(), 8192))
                        // Every response header is a constant, a number, or a request's Origin that Helidon
                        // validated as a request header: checking each one again, character by character, on
                        // every answer cost 2 % of a cached answer's CPU.
                        .validateResponseHeaders(false)
                        // HTTP/1.1 connections persist unless a side says otherwise: without the redundant
                        // "Connection: keep-alive", a plain answer's headers fit the 256 bytes Helidon's send buffer
                        // leaves beside the body (at 280, every answer grew it once more). "close" is still sent.
                        .sendKeepAliveHeader(false)))
                // Our own shutdown (ServeCommand) stops the server first, then closes the tenants.
                .shutdownHook(false)
                // close() drains requests within settings.shutdownGrace() before stopping the listener.
                .shutdownGracePeriod(Duration.ofSeconds(1))
                .directHandlers(errors.directHandlers())
                .routing(routing)
                .putSocket(
                        MANAGEMENT_SOCKET,
                        management(
                                settings,
                                health,
                                metrics,
                                json,
                                errors,
                                managementGuard,
                                new ConsoleService(
                                        tenants,
                                        health,
                                        keys,
                                        catalogs,
                                        analytics,
                                        json,
                                        errors,
                                        settings.clock(),
                                        publicPort::get,
                                        settings.tls() != null,
                                        settings.management().console())));
        if (settings.tls() != null) {
            server.tls(tls -> tls.privateKey(key -> key.pem(
                            pem -> pem.key(Resource.create(settings.tls().privateKey()))))
                    .privateKeyCertChain(key -> key.pem(
                            pem -> pem.certChain(Resource.create(settings.tls().certificate())))));
        }
        WebServer webServer = server.build().start();
        publicPort.set(webServer.port());
        AutocompleteServer started = new AutocompleteServer(
                tenants,
                files,
                keys,
                engines,
                health,
                metrics,
                tracker,
                guard,
                managementGuard,
                settings.shutdownGrace(),
                limiter,
                webServer,
                demoPage,
                catalogs,
                learning,
                analytics,
                serving);
        // Helidon logs (SEVERE, with the address) a listener that cannot bind, stops the others and returns.
        if (webServer.port() < 0 || webServer.port(MANAGEMENT_SOCKET) < 0) {
            started.close();
            throw new IOException("cannot listen on " + settings.host() + ":" + settings.port() + " (API) and "
                    + settings.management().host() + ":" + settings.management().port()
                    + " (management): one is in use or not an address of this machine (the log says which)");
        }
        return started;
    }

    /**
     * Up once the keys were read in full: before that (a shared store unreachable since the start) every key
     * would be refused, so the replica is not ready. Degraded while the last read failed: the known keys serve.
     */
    private static HealthCheck.Status keysHealth(KeyRegistry.Status status) {
        Map<String, Object> data = new java.util.LinkedHashMap<>();
        data.put("store", status.store());
        data.put("keys", status.keys());
        data.put(
                "loaded_at",
                status.loadedAt() == null ? "never" : status.loadedAt().toString());
        data.put("following", status.following());
        // A tenant whose keys cannot be read (a keys.yaml this user may not read) has every key refused.
        data.put("unreadable", status.unreadable());
        data.put(
                "degraded",
                status.lastFailure() != null
                        || !status.following()
                        || !status.unreadable().isEmpty());
        return new HealthCheck.Status("keys", status.loaded(), data);
    }

    /** Helidon's own HTTP errors inside a route (a static file's 304, a bad range): see ErrorResponses. */
    private static ErrorHandler<HttpException> httpErrors(ErrorResponses errors) {
        return (req, res, e) -> {
            if (!errors.httpException(res, e)) {
                unexpected(errors, req, res, e);
            }
        };
    }

    /** An error no handler expected: logged with its stack trace, answered 500 INTERNAL if nothing was sent. */
    private static void unexpected(ErrorResponses errors, ServerRequest request, ServerResponse response, Throwable e) {
        LOG.log(
                System.Logger.Level.ERROR,
                "Unhandled error on " + request.path().path(),
                e);
        if (!response.isSent()) {
            errors.send(response, 500, "INTERNAL", "The server could not handle the request.");
        }
    }

    /** The management listener: plain HTTP, its own connections, so a busy API port does not hide health. */
    private static ListenerConfig management(
            ServerSettings settings,
            Health health,
            Metrics metrics,
            ObjectMapper json,
            ErrorResponses errors,
            ConnectionGuard guard,
            ConsoleService console) {
        return ListenerConfig.builder()
                .host(settings.management().host())
                .port(settings.management().port())
                .connectionOptions(guard.socketOptions(SocketOptions.builder()
                        .readTimeout(settings.limits().readTimeout())
                        .build()))
                .protocolsDiscoverServices(false)
                .addConnectionSelector(guard.selector(Http1Config.builder()))
                .directHandlers(errors.directHandlers())
                .routing(HttpRouting.builder()
                        .addFilter(guard.filter())
                        .addFilter(SecurityHeaders.everywhere())
                        .addFilter(HeadRequests.filter())
                        .register(new ObserveService(health, metrics, json))
                        .register(console)
                        .any((req, res) -> errors.send(res, 404, "NOT_FOUND", "No such endpoint."))
                        .error(HttpException.class, httpErrors(errors)))
                .build();
    }

    /** The JSON mapper for request bodies: strict about trailing garbage, bounded nesting and lengths. */
    public static ObjectMapper jsonMapper(ServerSettings.Limits limits) {
        // Parser and generator buffers kept per thread: Helidon serves all the requests of a connection on that
        // connection's virtual thread, so a connection's requests reuse one set. A pool shared by every thread (a
        // concurrent deque) cost a contended take and give back per request, 1 % of a cached answer's CPU.
        JsonFactory factory = JsonFactory.builder()
                .recyclerPool(JsonRecyclerPools.threadLocalPool())
                .build();
        JsonMapper mapper = JsonMapper.builder(factory)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                .build();
        mapper.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(limits.jsonDepth())
                        .maxStringLength(limits.jsonStringBytes())
                        .maxNameLength(limits.jsonStringBytes())
                        .build());
        return mapper;
    }

    public int port() {
        return webServer.port();
    }

    /** The port of the management listener ({@code /observe/health}, {@code /observe/metrics}). */
    public int managementPort() {
        return webServer.port(MANAGEMENT_SOCKET);
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

    /** The rate limiter; its {@code status()} says whether limits are shared through Redis (for health output). */
    public RateLimiter rateLimiter() {
        return limiter;
    }

    /** The page at {@code /}; {@code serve} publishes its demo keys there. */
    public DemoPage demoPage() {
        return demoPage;
    }

    /**
     * Stops gracefully: new requests get 503 while the running ones finish (at most the shutdown grace
     * period), then the listener stops and every engine is closed.
     */
    @Override
    public void close() {
        long started = System.nanoTime();
        LOG.log(
                System.Logger.Level.INFO,
                "Stopping: new requests get 503 SHUTTING_DOWN; running ones have up to " + shutdownGrace.toSeconds()
                        + " s to finish");
        guard.drain();
        try {
            if (!tracker.drain(shutdownGrace)) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "Requests still running after " + shutdownGrace.toSeconds()
                                + " s of shutdown grace; stopping anyway");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        webServer.stop();
        guard.close();
        managementGuard.close();
        tracker.close();
        files.close();
        keys.close();
        limiter.close();
        tenants.close();
        learning.close();
        analytics.close();
        catalogs.close();
        try {
            serving.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Could not release " + ServingMark.FILE + ": " + e.getMessage());
        }
        LOG.log(
                System.Logger.Level.INFO,
                "Stopped in " + (System.nanoTime() - started) / 1_000_000
                        + " ms: engines closed, learning and analytics written");
    }

    /** What the server learns from picks; tests flush and apply it. */
    public Learning learning() {
        return learning;
    }

    /**
     * Learning over the server's store: SQLite beside the live catalogs, or the PostgreSQL replicas share (its own
     * connections; reached at the first flush, and again at each while it is away).
     */
    private static Learning learning(ServerSettings settings) {
        return new Learning(() -> LearningStore.open(settings), settings.learning(), settings.clock());
    }

    /** How the service is used (the console's analytics); tests flush it. */
    public Analytics analytics() {
        return analytics;
    }

    /**
     * Analytics over the server's store, as learning's: SQLite in the data directory, or the PostgreSQL replicas
     * share (reached at the first flush, and again at each while it is away).
     */
    private static Analytics analytics(ServerSettings settings) {
        return new Analytics(
                () -> new AnalyticsStore(Database.of(settings)), settings.keepUnmatched(), settings.clock());
    }

    /** The live catalogs and their store; {@code catalog import} and tests write through it. */
    public LiveCatalogs catalogs() {
        return catalogs;
    }
}
