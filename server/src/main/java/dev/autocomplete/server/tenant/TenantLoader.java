package dev.autocomplete.server.tenant;

import dev.autocomplete.server.catalogs.LiveCatalogs;
import dev.autocomplete.server.catalogs.TenantCatalogs;
import dev.autocomplete.server.engines.EngineOutcome;
import dev.autocomplete.server.engines.EngineRunner;
import dev.autocomplete.server.engines.GuardedEngine;
import dev.autocomplete.server.protocol.Uuids;
import dev.autocomplete.server.ratelimit.RateLimit;
import dev.autocomplete.server.reading.ProductConfig;
import dev.autocomplete.server.reading.ProductModel;
import dev.autocomplete.server.reading.Query;
import dev.autocomplete.server.reading.QueryReader;
import dev.autocomplete.server.reading.Segment;
import dev.autocomplete.server.store.OptionRecords;
import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.toolkit.ConfigProblems;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Loads one tenant directory: {@code tenant.yaml}, the engines in {@code engines/*.jar} through the tenant's
 * own {@link EngineClassLoader}, and one engine per product. Every problem is collected with its file and
 * line; a tenant with any problem is not loaded.
 */
public final class TenantLoader {

    public static final String TENANT_FILE = "tenant.yaml";
    /** The tenant's API keys' file beside {@link #TENANT_FILE}, kept by the key store (not part of a load). */
    public static final String KEYS_FILE = "keys.yaml";

    public static final int DEFAULT_MAX_OPTIONS = 10;
    public static final int MAX_MAX_OPTIONS = 50;

    private static final Set<String> TENANT_KEYS = Set.of(
            "display_name",
            "default_language",
            "default_product",
            "products",
            "access_tokens",
            "log_queries",
            "catalogs",
            "engines",
            "learn");
    private static final Set<String> ACCESS_TOKEN_KEYS = Set.of("lifetime", "rate", "burst");
    private static final Set<String> PRODUCT_KEYS =
            union(Set.of("id", "slug", "max_options", "time_zone", "prompt", "intents"), EngineLimits.KEYS);
    /** What changed in the product format, for a tenant.yaml written for an older server. */
    private static final String OLD_FORMAT = "tenant.yaml's format changed: a product no longer names one"
            + " engine with a 'config'. Move 'prompt' and 'intents' up into the product, the 'catalogs' map to the"
            + " top of tenant.yaml, and let each param name its engine ('engine: date'; without it the param is"
            + " served by the catalog, from 'catalog: NAME' or inline 'options'). See docs/configuration.md.";

    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]*");
    private static final Pattern TENANT_ID = Pattern.compile("[a-z0-9][a-z0-9_-]*");
    private static final java.time.Duration WARM_UP = java.time.Duration.ofSeconds(2);
    /** Runs the warm-up as requests run. */
    private static final EngineRunner RUNNER = new EngineRunner();

    private final EngineJars engineJars;
    /** Where catalogs live; null reads each from its file, writing nothing (validate, the engine test kit). */
    private final LiveCatalogs liveCatalogs;
    /** Whether engines come from a test's class path too (the engine test kit): where a missing one is looked for. */
    private final boolean testClassPath;
    /** How long an engine's {@link EngineFactory#create} may take ({@code limits.engine-start-seconds}). */
    private final Duration engineStart;

    /** {@code limits.engine-start-seconds} by default. */
    public static final Duration ENGINE_START = Duration.ofSeconds(60);

    /** A loader whose built-in engines are the {@link EngineFactory}s on the server's class path. */
    public TenantLoader() {
        this(new EngineJars(List.of()), null, false, ENGINE_START);
    }

    /**
     * A loader that serves catalogs live from {@code catalogs} (the server's), and gives each engine {@code engineStart}
     * to start.
     */
    public TenantLoader(LiveCatalogs catalogs, Duration engineStart) {
        this(new EngineJars(List.of()), catalogs, false, engineStart);
    }

    /**
     * A loader whose built-in engines are those on the server's class path and {@code engines}, which replace any
     * of the same name: an engine author's test passes the factory it tests (the engine test kit).
     */
    public TenantLoader(java.util.Collection<? extends EngineFactory> engines) {
        this(new EngineJars(engines), null, true, ENGINE_START);
    }

    private TenantLoader(
            EngineJars engineJars, LiveCatalogs liveCatalogs, boolean testClassPath, Duration engineStart) {
        this.engineJars = engineJars;
        this.liveCatalogs = liveCatalogs;
        this.testClassPath = testClassPath;
        this.engineStart = engineStart;
    }

    /** Names of the engines every tenant can use. */
    public Set<String> builtInEngines() {
        return engineJars.builtInNames();
    }

    /**
     * The outcome of loading one tenant.
     *
     * @param tenant the loaded tenant, or null when there were problems
     * @param problems each once (two products naming one broken catalog meet its problem twice)
     * @param warnings what looks like a mistake but keeps nothing from serving (logged by the server, printed by
     *     {@code validate}); only for a tenant that loaded
     */
    public record Result(Tenant tenant, List<Problem> problems, List<Problem> warnings) {
        public Result {
            problems = List.copyOf(new java.util.LinkedHashSet<>(problems));
            warnings = List.copyOf(warnings);
        }

        /** A load without warnings. */
        public Result(Tenant tenant, List<Problem> problems) {
            this(tenant, problems, List.of());
        }
    }

    /** Which other tenant serves a product id already: a product id names one product of one tenant. */
    @FunctionalInterface
    public interface ProductOwners {
        /** The id of another tenant with a product of this id, if any. */
        Optional<String> ownerOf(UUID productId);
    }

    /**
     * Loads the tenant of {@code directory}.
     *
     * @param others the products of the other tenants: a product id one of them has is a problem of this tenant
     */
    public Result load(Path directory, ProductOwners others) {
        String tenantId = directory.getFileName().toString();
        Path file = directory.resolve(TENANT_FILE);
        if (!TENANT_ID.matcher(tenantId).matches()) {
            return new Result(
                    null,
                    List.of(new Problem(
                            directory, 0, "tenant directory name must be lower-case letters, digits, '-' and '_'")));
        }
        YamlDocument yaml;
        try {
            yaml = YamlDocument.read(file);
        } catch (TenantException e) {
            return new Result(null, List.of(e.problem()));
        } catch (IOException e) {
            return new Result(null, List.of(new Problem(file, 0, "cannot read: " + e.getMessage())));
        }
        if (!(yaml.root() instanceof Map<?, ?> document)) {
            return new Result(null, List.of(yaml.problem("", "must be a map with display_name and products")));
        }
        ConfigTree root = ConfigTree.at("", asStringMap(document));
        ConfigProblems checks = new ConfigProblems();
        checks.unknownKeys(root, TENANT_KEYS);
        String displayName = checks.read(() -> root.string("display_name", tenantId), tenantId);
        String defaultLanguage = checks.read(() -> root.string("default_language", "en"), "en");
        boolean logQueries = checks.read(() -> root.bool("log_queries", false), false);
        boolean learn = checks.read(() -> root.bool("learn", true), true);
        String defaultSlug = checks.read(() -> root.string("default_product", null), null);
        AccessTokenSettings accessTokens = accessTokens(root, checks);
        ConfigTree engines = checks.read(() -> root.optionalTree("engines"), Optional.<ConfigTree>empty())
                .orElse(ConfigTree.at("engines", Map.of()));
        ConfigTree catalogs = checks.read(() -> root.optionalTree("catalogs"), Optional.<ConfigTree>empty())
                .orElse(ConfigTree.at("catalogs", Map.of()));

        List<Problem> problems = new ArrayList<>();
        EngineClassLoader ownLoader = null;
        try {
            EngineJars.Found found = engineJars.find(directory, tenantId);
            ownLoader = found.loader();
            ClassLoader loader = found.contextLoader();
            TenantCatalogs tenantCatalogs =
                    TenantCatalogs.open(tenantId, catalogs, directory, defaultLanguage, liveCatalogs, checks);
            if (!root.has("catalogs")
                    && root.keys().stream()
                            .filter(key -> !TENANT_KEYS.contains(key))
                            .anyMatch(key -> ConfigTree.nearest(key, TENANT_KEYS)
                                    .filter("catalogs"::equals)
                                    .isPresent())) {
                tenantCatalogs.declarationsMisspelt(); // 'catalog:' said with its 'did you mean' already
            }
            EngineCounters counters = new EngineCounters();
            Settings settings = new Settings(
                    tenantId,
                    directory,
                    defaultLanguage,
                    logQueries,
                    found.factories(),
                    found::unlistedHint,
                    found::build,
                    !found.problems().isEmpty(),
                    testClassPath,
                    loader,
                    engines,
                    tenantCatalogs,
                    others,
                    new SharedValues(),
                    counters,
                    engineStart);
            if (found.problems().isEmpty()) {
                // engines: holds settings by engine name; a name no engine has (a typo) would be read by nobody. With a
                // JAR refused, the engine it provides may be the one named: its problem is reported already.
                checks.unknownKeys(engines, found.factories().keySet());
            }
            List<Product> products = products(root, settings, checks);
            Product defaultProduct = products.isEmpty() ? null : products.getFirst();
            if (defaultSlug != null) {
                defaultProduct = products.stream()
                        .filter(p -> p.slug().equals(defaultSlug))
                        .findFirst()
                        .orElse(null);
                // A product left out for its own problems, or a products list that cannot be read, is reported
                // already: the default naming it is no second problem.
                if (defaultProduct == null
                        && productSlugs(root)
                                .map(slugs -> !slugs.contains(defaultSlug))
                                .orElse(false)) {
                    checks.add(root.error("default_product", "names no product slug: '" + defaultSlug + "'"));
                }
            }
            checks.list().stream()
                    .map(e -> yaml.problem(e.key(), e.getMessage()))
                    .sorted(Comparator.comparingInt(Problem::line))
                    .forEach(problems::add);
            problems.addAll(found.problems());
            Tenant tenant = new Tenant(
                    tenantId,
                    displayName,
                    defaultLanguage,
                    directory,
                    products,
                    defaultProduct,
                    loader,
                    ownLoader,
                    accessTokens,
                    logQueries,
                    tenantCatalogs.names(),
                    learn,
                    counters);
            if (!problems.isEmpty()) {
                tenant.close();
                return new Result(null, List.copyOf(problems));
            }
            // Only now, with nothing wrong, are the catalogs the store lacked imported from their seeds.
            tenantCatalogs.commit().forEach(e -> problems.add(yaml.problem(e.key(), e.getMessage())));
            if (!problems.isEmpty()) {
                tenant.close();
                return new Result(null, List.copyOf(problems));
            }
            List<Problem> slow = warmUp(tenant, problems, yaml);
            if (!problems.isEmpty()) {
                tenant.close();
                return new Result(null, List.copyOf(problems));
            }
            return new Result(
                    tenant,
                    List.of(),
                    java.util.stream.Stream.concat(
                                    tenantCatalogs.warnings().stream().map(e -> yaml.problem(e.key(), e.getMessage())),
                                    slow.stream())
                            .map(p -> new Problem(p.file(), p.line(), "warning: " + p.message()))
                            .sorted(Comparator.comparingInt(Problem::line))
                            .toList());
        } catch (RuntimeException | LinkageError e) {
            closeQuietly(ownLoader);
            problems.add(new Problem(file, 0, "failed to load: " + e));
            return new Result(null, List.copyOf(problems));
        }
    }

    /** What every product of one tenant is built with. */
    private record Settings(
            String tenantId,
            Path directory,
            String defaultLanguage,
            boolean logQueries,
            Map<String, EngineFactory> factories,
            java.util.function.Supplier<String> unlistedHint,
            java.util.function.Function<String, String> builds,
            boolean jarsRefused,
            boolean testClassPath,
            ClassLoader loader,
            ConfigTree engines,
            TenantCatalogs tenantCatalogs,
            ProductOwners others,
            EngineContext.Shared shared,
            EngineCounters counters,
            Duration engineStart) {}

    private static AccessTokenSettings accessTokens(ConfigTree root, ConfigProblems checks) {
        ConfigTree tree = checks.read(() -> root.optionalTree("access_tokens").orElse(null), null);
        if (tree == null) {
            return AccessTokenSettings.DEFAULT;
        }
        checks.unknownKeys(tree, ACCESS_TOKEN_KEYS);
        Duration lifetime = checks.read(
                () -> {
                    Duration value = duration(tree, "lifetime", AccessTokenSettings.DEFAULT_LIFETIME);
                    if (value.compareTo(AccessTokenSettings.MIN_LIFETIME) < 0
                            || value.compareTo(AccessTokenSettings.MAX_LIFETIME) > 0) {
                        throw tree.error("lifetime", "must be from 30s to 24h");
                    }
                    return value;
                },
                AccessTokenSettings.DEFAULT_LIFETIME);
        RateLimit rate = checks.read(
                () -> {
                    if (!tree.has("rate") && !tree.has("burst")) {
                        return RateLimit.DEFAULT;
                    }
                    if (!tree.has("rate")
                            || !(tree.raw("rate").get() instanceof Integer)
                            || (tree.has("burst") && !(tree.raw("burst").get() instanceof Integer))) {
                        throw tree.error("rate", "rate and burst must be whole numbers (burst needs rate)");
                    }
                    try {
                        return RateLimit.parse(
                                tree.string("rate"), tree.has("burst") ? (long) tree.integer("burst", 0) : null);
                    } catch (IllegalArgumentException e) {
                        throw tree.error("rate", e.getMessage());
                    }
                },
                RateLimit.DEFAULT);
        return new AccessTokenSettings(lifetime, rate);
    }

    private static Duration duration(ConfigTree tree, String key, Duration defaultValue) throws EngineConfigException {
        if (!tree.has(key)) {
            return defaultValue;
        }
        try {
            return Durations.parse(tree.string(key));
        } catch (IllegalArgumentException e) {
            throw tree.error(key, e.getMessage());
        }
    }

    private List<Product> products(ConfigTree root, Settings settings, ConfigProblems checks) {
        List<ConfigTree> list = checks.read(() -> root.trees("products"), null);
        if (list == null) {
            return List.of();
        }
        if (list.isEmpty()) {
            checks.add(root.error("products", "needs a list of at least one product"));
            return List.of();
        }
        List<Product> products = new ArrayList<>();
        Set<UUID> ids = new HashSet<>();
        Set<String> slugs = new HashSet<>();
        for (ConfigTree product : list) {
            int before = checks.count();
            if (product.has("engine") || product.has("config")) {
                checks.add(product.error(product.has("config") ? "config" : "engine", OLD_FORMAT));
                continue;
            }
            checks.unknownKeys(product, PRODUCT_KEYS);
            UUID id = checks.read(() -> productId(product, ids, settings), null);
            String slug = checks.read(
                    () -> {
                        String text = product.string("slug");
                        if (!SLUG.matcher(text).matches()) {
                            throw product.error("slug", "must be lower-case letters, digits and '-'");
                        }
                        if (!slugs.add(text)) {
                            throw product.error("slug", "repeats product slug '" + text + "'");
                        }
                        return text;
                    },
                    "");
            int maxOptions = checks.read(
                    () -> product.integer("max_options", DEFAULT_MAX_OPTIONS, 1, MAX_MAX_OPTIONS), DEFAULT_MAX_OPTIONS);
            ZoneId zone = checks.read(
                    () -> {
                        try {
                            return ZoneId.of(product.string("time_zone", "UTC"));
                        } catch (java.time.DateTimeException e) {
                            throw product.error("time_zone", "must be a time zone such as UTC or Europe/Paris");
                        }
                    },
                    ZoneOffset.UTC);
            EngineLimits limits = EngineLimits.read(product, checks);
            ProductConfig.Parsed parsed = ProductConfig.parse(product, settings.defaultLanguage(), checks);
            // The engines start even when the product has other problems, so that theirs are reported too.
            List<GuardedEngine> engines = new ArrayList<>();
            Map<String, GuardedEngine> byType = new HashMap<>();
            for (Map.Entry<String, List<ParamSpec>> entry :
                    bySource(parsed.specs()).entrySet()) {
                GuardedEngine engine = engine(entry.getKey(), entry.getValue(), slug, zone, limits, settings, checks);
                if (engine != null) {
                    engines.add(engine);
                    entry.getValue().forEach(spec -> byType.put(spec.type(), engine));
                }
            }
            if (checks.count() == before && parsed.model() != null) {
                Set<ProductModel.Param> momentary = new HashSet<>(parsed.learnAsEngineSays());
                momentary.removeIf(param -> byType.get(param.type()) == null
                        || byType.get(param.type()).learnsFromPicks());
                products.add(new Product(
                        id,
                        slug,
                        maxOptions,
                        zone,
                        parsed.model().withoutLearning(momentary),
                        engines,
                        byType,
                        limits,
                        settings.tenantCatalogs()::generation));
            } else {
                engines.forEach(GuardedEngine::close);
            }
        }
        return products;
    }

    /**
     * The params of each source: those of the default engine ({@code catalog: NAME} or inline {@code options}) are
     * served by the core's option lists ({@link TenantCatalogs#SOURCE_NAME}), the others by the engine they name.
     */
    private static Map<String, List<ParamSpec>> bySource(Map<String, List<ParamSpec>> specs) {
        Map<String, List<ParamSpec>> bySource = new LinkedHashMap<>();
        specs.forEach((engine, params) -> {
            for (ParamSpec param : params) {
                String source = engine.equals(ProductConfig.DEFAULT_ENGINE) ? TenantCatalogs.SOURCE_NAME : engine;
                bySource.computeIfAbsent(source, s -> new ArrayList<>()).add(param);
            }
        });
        return bySource;
    }

    /** The product's id: a UUID no other product of this tenant or of another tenant has. */
    private static UUID productId(ConfigTree product, Set<UUID> ids, Settings settings) throws EngineConfigException {
        UUID id = Uuids.parse(product.string("id", ""))
                .orElseThrow(() -> product.error("id", "must be a UUID like 3f1c2e9a-0b7d-4c55-9a3e-1d2f4b6a8c90"));
        if (!ids.add(id)) {
            throw product.error("id", "repeats product id " + id);
        }
        Optional<String> owner = settings.others().ownerOf(id);
        if (owner.isPresent()) {
            throw product.error(
                    "id",
                    "product id " + id + " is already a product of tenant '" + owner.get()
                            + "'; tenant '" + settings.tenantId()
                            + "' is not loaded (a product id names one product of one"
                            + " tenant: give this product a new UUID)");
        }
        return id;
    }

    /** The engine that serves {@code specs} in one product, or null when it cannot (the problem recorded). */
    private static GuardedEngine engine(
            String name,
            List<ParamSpec> specs,
            String slug,
            ZoneId zone,
            EngineLimits limits,
            Settings settings,
            ConfigProblems checks) {
        String firstParam = specs.getFirst().config().path();
        if (name.equals(TenantCatalogs.SOURCE_NAME)) {
            // Each param's keys first, all reported; a param with a wrong key is not read further (no follow-on).
            List<ParamSpec> sound = new ArrayList<>();
            for (ParamSpec spec : specs) {
                List<EngineConfigException> problems = TenantCatalogs.keyProblems(spec.config());
                if (problems.isEmpty()) {
                    problems = TenantCatalogs.ruleProblems(spec.config());
                }
                checks.addAll(problems);
                if (problems.isEmpty()) {
                    sound.add(spec);
                }
            }
            Engine source = settings.tenantCatalogs().source(settings.tenantId() + "/" + slug, sound, checks);
            return source == null
                    ? null
                    : GuardedEngine.core(
                            settings.tenantId(),
                            slug,
                            name,
                            source,
                            limits.circuitFailures(),
                            limits.circuitOpen(),
                            settings.logQueries(),
                            OptionRecords.MAX_TEXT_LENGTH);
        }
        EngineFactory factory = settings.factories().get(name);
        if (factory == null) {
            Optional<String> meant =
                    ConfigTree.nearest(name, settings.factories().keySet());
            // A refused engine JAR is reported already, and may be the one that provides an engine of another name.
            if (meant.isPresent() || !settings.jarsRefused()) {
                checks.add(new EngineConfigException(
                        firstParam + ".engine",
                        "names no engine '" + name + "'; "
                                + meant.map(engine -> "did you mean '" + engine + "'?")
                                        .orElseGet(() -> "available: "
                                                + String.join(
                                                        ", ",
                                                        java.util.stream.Stream.concat(
                                                                        java.util.stream.Stream.of(
                                                                                ProductConfig.DEFAULT_ENGINE),
                                                                        settings.factories().keySet().stream())
                                                                .sorted()
                                                                .toList())
                                                + (settings.testClassPath()
                                                        ? " (the built-in engines, those on the test's class path,"
                                                                + " each found through its META-INF/services/"
                                                                + EngineFactory.class.getName()
                                                                + " file, and those of the JARs in "
                                                        : " (the built-in engines and those of the JARs in ")
                                                + settings.directory().resolve("engines")
                                                + ")")
                                + settings.unlistedHint().get()));
            }
            return null;
        }
        ConfigTree engineConfig = checks.read(() -> settings.engines().optionalTree(name), Optional.<ConfigTree>empty())
                .orElse(ConfigTree.at("engines." + name, Map.of()));
        Engine engine = createEngine(
                firstParam,
                factory,
                settings.engineStart(),
                settings.loader(),
                new EngineContext(
                        settings.tenantId(),
                        slug,
                        settings.defaultLanguage(),
                        zone,
                        settings.directory(),
                        engineConfig,
                        specs,
                        settings.shared(),
                        settings.counters().forEngine(name)),
                checks);
        if (engine == null) {
            return null;
        }
        // Keys the engine's factory did not read are misspelt or misplaced, whether or not the engine checks its keys
        // itself (allowOnly): "Unknown keys are errors" holds for every param. The engine is still returned, so that
        // the failed load closes it with the others.
        List<EngineConfigException> unread = new ArrayList<>();
        specs.forEach(spec -> unread.addAll(spec.config().unread()));
        unread.addAll(engineConfig.unread());
        for (EngineConfigException e : unread) {
            checks.add(new EngineConfigException(e.key(), e.getMessage() + " (engine '" + name + "' did not read it)"));
        }
        GuardedEngine guarded = new GuardedEngine(
                settings.tenantId(),
                slug,
                name,
                engine,
                settings.loader(),
                limits.circuitFailures(),
                limits.circuitOpen(),
                settings.logQueries(),
                settings.builds().apply(name));
        for (ParamSpec spec : specs) {
            if (!guarded.paramTypes().contains(spec.type())) {
                checks.add(new EngineConfigException(
                        spec.config().path() + ".type",
                        "engine '" + name
                                + "' does not serve type '" + spec.type() + "' ("
                                + (guarded.paramTypes().isEmpty()
                                        ? "it accepted none of this product's params: its paramTypes() is empty"
                                        : "it serves: "
                                                + String.join(
                                                        ", ",
                                                        guarded.paramTypes().stream()
                                                                .sorted()
                                                                .toList()))
                                + ")"));
            }
        }
        return guarded;
    }

    /**
     * The engine's {@link EngineFactory#create}, on a thread of its own with the tenant's class loader as its context
     * loader, given at most {@code bound}: one that blocks (a download without a timeout, a lock never released) would
     * otherwise hold the server's start and every later tenant change. Past the bound the tenant is not loaded and its
     * thread is interrupted and left to end by itself.
     */
    private static Engine createEngine(
            String at,
            EngineFactory factory,
            Duration bound,
            ClassLoader loader,
            EngineContext context,
            ConfigProblems checks) {
        java.util.concurrent.CompletableFuture<Engine> created = new java.util.concurrent.CompletableFuture<>();
        Thread thread = Thread.ofPlatform()
                .daemon()
                .name("engine-start-" + context.tenantId() + "-" + factory.name())
                .unstarted(() -> {
                    try {
                        created.complete(factory.create(context));
                    } catch (EngineConfigException | RuntimeException | LinkageError e) {
                        created.completeExceptionally(e);
                    } catch (Error e) {
                        created.completeExceptionally(e);
                        throw e; // out of memory, say: not the engine's config, and not to be swallowed here
                    }
                });
        thread.setContextClassLoader(loader);
        thread.start();
        try {
            Engine engine;
            try {
                engine = created.get(bound.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                thread.interrupt();
                checks.add(new EngineConfigException(
                        at + ".engine",
                        "engine '" + factory.name() + "' did not finish starting within " + bound.toSeconds()
                                + " s (its EngineFactory.create; limits.engine-start-seconds)"));
                return null;
            } catch (InterruptedException e) {
                thread.interrupt();
                Thread.currentThread().interrupt();
                return null;
            } catch (java.util.concurrent.ExecutionException e) {
                // Handled below as if thrown here: the thread completes exceptionally with nothing else.
                if (e.getCause() instanceof EngineConfigException config) {
                    throw config;
                }
                if (e.getCause() instanceof Error error) {
                    throw error;
                }
                throw (RuntimeException) e.getCause();
            }
            if (engine == null || engine.paramTypes() == null) {
                checks.add(new EngineConfigException(
                        at + ".engine", "engine '" + factory.name() + "' returned no engine"));
                return null;
            }
            return engine;
        } catch (EngineConfigException e) {
            checks.add(e.key().isEmpty() ? new EngineConfigException(at, e.getMessage()) : e);
            return null;
        } catch (RuntimeException | LinkageError e) {
            // With its first frames: a bare NullPointerException (a resource missing from the JAR) says nothing of
            // where. The message is the engine's own, at load time, not a user's query.
            checks.add(new EngineConfigException(
                    at + ".engine",
                    "engine '" + factory.name() + "' failed to start: " + GuardedEngine.describe(e, true)));
            return null;
        }
    }

    /** {@link EngineContext.Shared} for one tenant load. */
    private static final class SharedValues implements EngineContext.Shared {
        private final Map<String, Object> values = new java.util.concurrent.ConcurrentHashMap<>();

        @Override
        @SuppressWarnings("unchecked")
        public synchronized <T> T get(String key, EngineContext.Builder<T> builder) throws EngineConfigException {
            Object value = values.get(key);
            if (value == null) {
                value = builder.build();
                values.put(key, value);
            }
            return (T) value;
        }
    }

    /**
     * Reads an empty and a typed query once per product, off the record: the engines' startup probe, and so that the first real
     * request does not pay for class loading and a cold JIT within its budget. An engine that fails it makes the
     * load fail (the previous version of the tenant keeps serving). Bounded: an engine that hangs here is left to
     * its first requests' budget, and returned as a warning (what {@code validate} prints), since its product's
     * requests will likely run out of their budget too.
     */
    private static List<Problem> warmUp(Tenant tenant, List<Problem> problems, YamlDocument yaml) {
        List<Problem> slow = new ArrayList<>();
        for (Product product : tenant.products()) {
            java.time.LocalDate today = java.time.LocalDate.now(product.zone());
            // An empty query, then a typed one: its spans take the engines' matching paths the JIT has not seen.
            String typed = product.model().intents().getFirst().phrases().getFirst() + " a";
            EngineRunner.Result<Boolean> probe = RUNNER.run(
                    tenant.id() + "/" + product.slug() + " (its start-up probe)", WARM_UP, (calls, deadline) -> {
                        for (String raw : List.of("", typed)) {
                            List<Segment> segments = raw.isEmpty() ? List.of() : List.of(new Segment.Text(0, raw));
                            Query query = new Query(
                                    raw,
                                    segments,
                                    Set.of(),
                                    List.of(),
                                    AdditionalContext.NONE,
                                    null,
                                    product.maxOptions(),
                                    today);
                            QueryReader.read(
                                    product.model(), query, product.enginesByType(), calls, deadline, Map.of());
                        }
                        return true;
                    });
            if (Thread.currentThread().isInterrupted()) {
                return slow;
            }
            if (probe.outcome() == EngineOutcome.TIMEOUT) {
                slow.add(yaml.problem(
                        "products",
                        "product '" + product.slug() + "': its start-up probe (an empty and a typed query) did not"
                                + " finish within " + WARM_UP.toMillis() + " ms, so its requests will likely answer"
                                + " the fallback within their budget of "
                                + product.limits().budget().toMillis()
                                + " ms; the log names the engine that took it"));
            }
            // A probe that ran out of time is left to the engine's first requests' budget.
            probe.calls().byEngine().forEach((name, tally) -> {
                if (tally.failures() > 0) {
                    problems.add(
                            yaml.problem(
                                    "products",
                                    "product '" + product.slug() + "': engine '" + name
                                            + "' failed its startup probe (an empty and a typed query); see the log for its error"));
                }
            });
        }
        return slow;
    }

    /** The slugs of every product in {@code products} as written, of those with problems too; empty when no list. */
    private static Optional<Set<String>> productSlugs(ConfigTree root) {
        if (!(root.raw("products").orElse(null) instanceof List<?> list)) {
            return Optional.empty();
        }
        Set<String> slugs = new HashSet<>();
        for (Object product : list) {
            if (!(product instanceof Map<?, ?> map)) {
                return Optional.empty();
            }
            if (map.get("slug") != null) {
                slugs.add(String.valueOf(map.get("slug")));
            }
        }
        return Optional.of(slugs);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    private static Map<String, Object> asStringMap(Object map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        ((Map<?, ?>) map).forEach((k, v) -> copy.put(String.valueOf(k), v));
        return copy;
    }

    private static void closeQuietly(EngineClassLoader loader) {
        if (loader != null) {
            try {
                loader.close();
            } catch (IOException ignored) {
                // Nothing left to release.
            }
        }
    }
}
