package dev.autocomplete.server.tenant;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import dev.autocomplete.server.ratelimit.RateLimit;
import dev.autocomplete.server.reading.ProductConfig;
import dev.autocomplete.server.reading.Query;
import dev.autocomplete.server.reading.QueryReader;
import dev.autocomplete.server.reading.Segment;
import dev.autocomplete.server.suggest.EngineCalls;
import dev.autocomplete.server.suggest.GuardedEngine;
import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.toolkit.ConfigTree;

/**
 * Loads one tenant directory: {@code tenant.yaml}, the engines in {@code engines/*.jar} through the tenant's
 * own {@link EngineClassLoader}, and one engine per product. Every problem is collected with its file and
 * line; a tenant with any problem is not loaded.
 */
public final class TenantLoader {

    public static final String TENANT_FILE = "tenant.yaml";
    public static final int DEFAULT_MAX_OPTIONS = 10;
    public static final int MAX_MAX_OPTIONS = 50;

    private static final Set<String> TENANT_KEYS =
            Set.of("display_name", "default_language", "default_product", "products", "access_tokens",
                    "log_queries", "catalogs", "engines");
    private static final Set<String> ACCESS_TOKEN_KEYS = Set.of("lifetime", "rate", "burst");
    private static final Set<String> PRODUCT_KEYS = union(Set.of("id", "slug", "max_options", "time_zone",
            "prompt", "intents"), EngineLimits.KEYS);
    /** What changed in the product format, for a tenant.yaml written for an older server. */
    private static final String OLD_FORMAT = "tenant.yaml's format changed: a product no longer names one"
            + " engine with a 'config'. Move 'prompt' and 'intents' up into the product, the 'catalogs' map to the"
            + " top of tenant.yaml, and let each param name its engine ('engine: date'; without it the param is"
            + " served by the catalog, from 'catalog: NAME' or inline 'options'). See docs/configuration.md.";
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]*");
    private static final Pattern TENANT_ID = Pattern.compile("[a-z0-9][a-z0-9_-]*");
    private static final java.time.Duration WARM_UP = java.time.Duration.ofSeconds(2);

    private final EngineJars engineJars;

    /** A loader whose built-in engines are the {@link EngineFactory}s on the server's class path. */
    public TenantLoader() {
        this(List.of());
    }

    /**
     * A loader whose built-in engines are those on the server's class path and {@code engines}, which replace any
     * of the same name: an engine author's test passes the factory it tests (the engine test kit).
     */
    public TenantLoader(java.util.Collection<? extends EngineFactory> engines) {
        this.engineJars = new EngineJars(engines);
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
     */
    public record Result(Tenant tenant, List<Problem> problems) {
        public Result {
            problems = List.copyOf(new java.util.LinkedHashSet<>(problems));
        }
    }

    public Result load(Path directory) {
        String tenantId = directory.getFileName().toString();
        Path file = directory.resolve(TENANT_FILE);
        List<Problem> problems = new ArrayList<>();
        if (!TENANT_ID.matcher(tenantId).matches()) {
            problems.add(new Problem(directory, 0,
                    "tenant directory name must be lower-case letters, digits, '-' and '_'"));
            return new Result(null, problems);
        }
        YamlDocument yaml;
        try {
            yaml = YamlDocument.read(file);
        } catch (TenantException e) {
            return new Result(null, List.of(e.problem()));
        } catch (IOException e) {
            return new Result(null, List.of(new Problem(file, 0, "cannot read: " + e.getMessage())));
        }
        if (!(yaml.root() instanceof Map<?, ?> root)) {
            return new Result(null, List.of(yaml.problem("", "must be a map with display_name and products")));
        }
        root.keySet().stream().map(String::valueOf).filter(k -> !TENANT_KEYS.contains(k))
                .forEach(k -> problems.add(yaml.problem(k, "is not a known key (known: "
                        + String.join(", ", TENANT_KEYS.stream().sorted().toList()) + ")")));
        String displayName = scalar(root.get("display_name"), tenantId);
        String defaultLanguage = scalar(root.get("default_language"), "en");
        Object logQueries = root.get("log_queries");
        if (logQueries != null && !(logQueries instanceof Boolean)) {
            problems.add(yaml.problem("log_queries", "must be true or false"));
        }

        EngineClassLoader ownLoader = null;
        try {
            EngineJars.Found found = engineJars.find(directory, tenantId);
            ownLoader = found.loader();
            problems.addAll(found.problems());
            Map<String, EngineFactory> factories = found.factories();
            ClassLoader loader = found.contextLoader();
            Map<String, Object> document = asStringMap(root);
            SharedValues shared = new SharedValues();
            List<Product> products = products(yaml, document, directory, tenantId, defaultLanguage,
                    factories, loader, Boolean.TRUE.equals(logQueries), shared, problems);
            Product defaultProduct = products.isEmpty() ? null : products.getFirst();
            Object defaultSlug = root.get("default_product");
            if (defaultSlug != null) {
                defaultProduct = products.stream().filter(p -> p.slug().equals(String.valueOf(defaultSlug)))
                        .findFirst().orElse(null);
                if (defaultProduct == null) {
                    problems.add(yaml.problem("default_product", "names no product slug: '" + defaultSlug + "'"));
                }
            }
            AccessTokenSettings accessTokens = accessTokens(yaml, root.get("access_tokens"), problems);
            Tenant tenant = new Tenant(tenantId, displayName, defaultLanguage, directory, products, defaultProduct,
                    loader, ownLoader, accessTokens, Boolean.TRUE.equals(logQueries));
            if (!problems.isEmpty()) {
                tenant.close();
                return new Result(null, List.copyOf(problems));
            }
            warmUp(tenant, problems, yaml);
            if (!problems.isEmpty()) {
                tenant.close();
                return new Result(null, List.copyOf(problems));
            }
            return new Result(tenant, List.of());
        } catch (RuntimeException | LinkageError e) {
            closeQuietly(ownLoader);
            problems.add(new Problem(file, 0, "failed to load: " + e));
            return new Result(null, List.copyOf(problems));
        }
    }

    private static AccessTokenSettings accessTokens(YamlDocument yaml, Object node, List<Problem> problems) {
        if (node == null) {
            return AccessTokenSettings.DEFAULT;
        }
        if (!(node instanceof Map<?, ?> map)) {
            problems.add(yaml.problem("access_tokens", "must be a map with lifetime, rate and burst"));
            return AccessTokenSettings.DEFAULT;
        }
        map.keySet().stream().map(String::valueOf).filter(k -> !ACCESS_TOKEN_KEYS.contains(k))
                .forEach(k -> problems.add(yaml.problem("access_tokens." + k, "is not a known key (known: "
                        + String.join(", ", ACCESS_TOKEN_KEYS.stream().sorted().toList()) + ")")));
        Duration lifetime = AccessTokenSettings.DEFAULT_LIFETIME;
        if (map.get("lifetime") != null) {
            try {
                lifetime = Durations.parse(String.valueOf(map.get("lifetime")));
                if (lifetime.compareTo(AccessTokenSettings.MIN_LIFETIME) < 0
                        || lifetime.compareTo(AccessTokenSettings.MAX_LIFETIME) > 0) {
                    problems.add(yaml.problem("access_tokens.lifetime", "must be from 30s to 24h"));
                    lifetime = AccessTokenSettings.DEFAULT_LIFETIME;
                }
            } catch (IllegalArgumentException e) {
                problems.add(yaml.problem("access_tokens.lifetime", e.getMessage()));
            }
        }
        RateLimit rate = RateLimit.DEFAULT;
        Object perSecond = map.get("rate");
        Object burst = map.get("burst");
        if (perSecond != null || burst != null) {
            try {
                if (!(perSecond instanceof Integer r) || (burst != null && !(burst instanceof Integer))) {
                    throw new IllegalArgumentException("rate and burst must be whole numbers (burst needs rate)");
                }
                rate = RateLimit.parse(String.valueOf(r), burst == null ? null : ((Integer) burst).longValue());
            } catch (IllegalArgumentException e) {
                problems.add(yaml.problem("access_tokens.rate", e.getMessage()));
            }
        }
        return new AccessTokenSettings(lifetime, rate);
    }

    private List<Product> products(YamlDocument yaml, Map<String, Object> document, Path directory,
            String tenantId, String defaultLanguage, Map<String, EngineFactory> factories, ClassLoader loader,
            boolean logQueries, SharedValues shared, List<Problem> problems) {
        Object node = document.get("products");
        if (!(node instanceof List<?> list) || list.isEmpty()) {
            problems.add(yaml.problem("products", "needs a list of at least one product"));
            return List.of();
        }
        Object enginesNode = document.get("engines");
        if (enginesNode != null && !(enginesNode instanceof Map<?, ?>)) {
            problems.add(yaml.problem("engines", "must be a map from engine name to its settings"));
        }
        Object catalogsNode = document.get("catalogs");
        if (catalogsNode != null && !(catalogsNode instanceof Map<?, ?>)) {
            problems.add(yaml.problem("catalogs", "must be a map from catalog name to its file or options"));
        }
        List<Product> products = new ArrayList<>();
        Set<UUID> ids = new HashSet<>();
        Set<String> slugs = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String at = "products[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> product)) {
                problems.add(yaml.problem(at, "must be a map with id, slug and intents"));
                continue;
            }
            int before = problems.size();
            if (product.containsKey("engine") || product.containsKey("config")) {
                problems.add(yaml.problem(at + (product.containsKey("config") ? ".config" : ".engine"), OLD_FORMAT));
                continue;
            }
            product.keySet().stream().map(String::valueOf).filter(k -> !PRODUCT_KEYS.contains(k))
                    .forEach(k -> problems.add(yaml.problem(at + "." + k, "is not a known key (known: "
                            + String.join(", ", PRODUCT_KEYS.stream().sorted().toList()) + ")")));
            UUID id = null;
            try {
                id = UUID.fromString(scalar(product.get("id"), ""));
                if (!id.toString().equalsIgnoreCase(scalar(product.get("id"), ""))) {
                    throw new IllegalArgumentException("not canonical");
                }
                if (!ids.add(id)) {
                    problems.add(yaml.problem(at + ".id", "repeats product id " + id));
                }
            } catch (IllegalArgumentException e) {
                problems.add(yaml.problem(at + ".id", "must be a UUID like 3f1c2e9a-0b7d-4c55-9a3e-1d2f4b6a8c90"));
            }
            String slug = scalar(product.get("slug"), "");
            if (!SLUG.matcher(slug).matches()) {
                problems.add(yaml.problem(at + ".slug", "must be lower-case letters, digits and '-'"));
            } else if (!slugs.add(slug)) {
                problems.add(yaml.problem(at + ".slug", "repeats product slug '" + slug + "'"));
            }
            int maxOptions = DEFAULT_MAX_OPTIONS;
            Object max = product.get("max_options");
            if (max != null) {
                if (max instanceof Integer n && n >= 1 && n <= MAX_MAX_OPTIONS) {
                    maxOptions = n;
                } else {
                    problems.add(yaml.problem(at + ".max_options", "must be a whole number from 1 to "
                            + MAX_MAX_OPTIONS));
                }
            }
            ZoneId zone = ZoneOffset.UTC;
            if (product.get("time_zone") != null) {
                try {
                    zone = ZoneId.of(scalar(product.get("time_zone"), ""));
                } catch (java.time.DateTimeException e) {
                    problems.add(yaml.problem(at + ".time_zone", "must be a time zone such as UTC or Europe/Paris"));
                }
            }
            EngineLimits limits = EngineLimits.read(yaml, at, product, problems);
            List<EngineConfigException> readingProblems = new ArrayList<>();
            ProductConfig.Parsed parsed = ProductConfig.parse(ConfigTree.at(at, asStringMap(product)), defaultLanguage,
                    readingProblems);
            readingProblems.forEach(e -> problems.add(yaml.problem(e.key(), e.getMessage())));
            // Engines start even for a product with problems: validate reports theirs too (a catalog's missing
            // file), not only the first ones found.
            List<GuardedEngine> engines = new ArrayList<>();
            Map<String, GuardedEngine> byType = new HashMap<>();
            for (Map.Entry<String, List<ParamSpec>> entry : parsed.specs().entrySet()) {
                String name = entry.getKey();
                String firstParam = entry.getValue().getFirst().config().path();
                EngineFactory factory = factories.get(name);
                if (factory == null) {
                    problems.add(yaml.problem(firstParam + ".engine", "names no engine '" + name + "'; available: "
                            + String.join(", ", factories.keySet().stream().sorted().toList())));
                    continue;
                }
                ConfigTree engineConfig = engineConfig(document, name);
                Engine engine = createEngine(yaml, firstParam, factory, loader, new EngineContext(tenantId, slug,
                        defaultLanguage, zone, directory, engineConfig, entry.getValue(), shared), problems);
                if (engine == null) {
                    continue;
                }
                GuardedEngine guarded = new GuardedEngine(tenantId, slug, name, engine, loader,
                        limits.circuitFailures(), limits.circuitOpen(), logQueries);
                engines.add(guarded);
                for (ParamSpec spec : entry.getValue()) {
                    if (!guarded.paramTypes().contains(spec.type())) {
                        problems.add(yaml.problem(spec.config().path() + ".type", "engine '" + name
                                + "' does not serve type '" + spec.type() + "' (it serves: "
                                + String.join(", ", guarded.paramTypes().stream().sorted().toList()) + ")"));
                    }
                    byType.put(spec.type(), guarded);
                }
            }
            if (problems.size() == before && parsed.model() != null) {
                products.add(new Product(id, slug, maxOptions, zone, parsed.model(), engines, byType, limits));
            } else {
                engines.forEach(GuardedEngine::close);
            }
        }
        return products;
    }

    /** An engine's tenant-wide settings: {@code catalogs} for the catalog, {@code engines.<name>} for others. */
    private static ConfigTree engineConfig(Map<String, Object> document, String name) {
        if (name.equals(ProductConfig.DEFAULT_ENGINE)) {
            return document.get("catalogs") instanceof Map<?, ?> catalogs
                    ? ConfigTree.at("catalogs", asStringMap(catalogs)) : ConfigTree.at("catalogs", Map.of());
        }
        if (document.get("engines") instanceof Map<?, ?> engines && engines.get(name) instanceof Map<?, ?> own) {
            return ConfigTree.at("engines." + name, asStringMap(own));
        }
        return ConfigTree.at("engines." + name, Map.of());
    }

    private static Engine createEngine(YamlDocument yaml, String at, EngineFactory factory, ClassLoader loader,
            EngineContext context, List<Problem> problems) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Engine engine = factory.create(context);
            if (engine == null || engine.paramTypes() == null) {
                problems.add(yaml.problem(at + ".engine", "engine '" + factory.name() + "' returned no engine"));
                return null;
            }
            return engine;
        } catch (EngineConfigException e) {
            problems.add(yaml.problem(e.key().isEmpty() ? at : e.key(), e.getMessage()));
            return null;
        } catch (RuntimeException | LinkageError e) {
            problems.add(yaml.problem(at + ".engine", "engine '" + factory.name() + "' failed to start: " + e));
            return null;
        } finally {
            thread.setContextClassLoader(previous);
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
     * its first requests' budget.
     */
    private static void warmUp(Tenant tenant, List<Problem> problems, YamlDocument yaml) {
        for (Product product : tenant.products()) {
            java.time.LocalDate today = java.time.LocalDate.now(product.zone());
            // An empty query, then a typed one: its spans take the engines' matching paths the JIT has not seen.
            String typed = product.model().intents().getFirst().phrases().getFirst() + " a";
            EngineCalls calls = new EngineCalls();
            Thread call = Thread.ofVirtual().name("warm-up-" + tenant.id() + "-" + product.slug()).start(() -> {
                try {
                    for (String raw : List.of("", typed)) {
                        List<Segment> segments = raw.isEmpty() ? List.of() : List.of(new Segment.Text(0, raw));
                        Query query = new Query(raw, segments, Set.of(), List.of(), AdditionalContext.NONE, null,
                                product.maxOptions(), today);
                        QueryReader.read(product.model(), query, product.enginesByType(), calls,
                                System.nanoTime() + WARM_UP.toNanos(), Map.of());
                    }
                } catch (Throwable ignored) {
                    // Its requests will report it.
                }
            });
            try {
                if (!call.join(WARM_UP)) {
                    call.interrupt();
                    continue;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            calls.byEngine().forEach((name, tally) -> {
                if (tally.failures() > 0) {
                    problems.add(yaml.problem("products", "product '" + product.slug() + "': engine '" + name
                            + "' failed its startup probe (an empty and a typed query); see the log for its error"));
                }
            });
        }
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    private static String scalar(Object value, String defaultValue) {
        return value == null || value instanceof Map || value instanceof List ? defaultValue : value.toString();
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
