package dev.autocomplete.testkit;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.server.suggest.ResponseCache;
import dev.autocomplete.server.tenant.EngineLimits;
import dev.autocomplete.server.tenant.Problem;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.TenantLoader;
import dev.autocomplete.server.tenant.TenantRegistry;
import dev.autocomplete.spi.EngineFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one tenant directory ({@code tenant.yaml} and its data) in process, through the server's own tenant
 * loading, query reader and suggest core, without HTTP: what an engine author tests an engine with.
 *
 * <pre>{@code
 * try (EngineTestKit kit = EngineTestKit.tenant(Path.of("tenant"))) {
 *     Answer answer = kit.product("code").suggest("Open {{REPO_1}} on ", ...);
 * }
 * }</pre>
 *
 * <p>Engines: the server's built-ins (catalog, date), every {@link EngineFactory} that {@link java.util.ServiceLoader}
 * finds on the class path (the engine under test, through its {@code META-INF/services} file), the factories given
 * to {@link #withEngine}, which replace any of the same name, and the JARs in the tenant's {@code engines/}.
 *
 * <p>The tenant loads on first use ({@link #product}, {@link #problems}) and stays loaded until {@link #close()}.
 * Not thread-safe until loaded; its {@link ProductClient}s are immutable and may be used from any thread.
 */
public final class EngineTestKit implements AutoCloseable {

    /** Like the server's default ({@code cache.max-entries}): answers are cached exactly as they are there. */
    private static final long CACHE_ENTRIES = 20_000;

    private final Path directory;
    private final List<EngineFactory> engines = new ArrayList<>();
    private Loaded loaded;

    /** The loaded tenant and what it runs on; {@code registry} is null when the tenant did not load. */
    private record Loaded(TenantRegistry registry, List<Problem> problems, ResponseCache cache) {}

    private EngineTestKit(Path directory) {
        this.directory = directory;
    }

    /**
     * A kit for the tenant in {@code directory}: it holds {@code tenant.yaml}; its name is the tenant's id
     * (lower-case letters, digits, {@code -} and {@code _}).
     */
    public static EngineTestKit tenant(Path directory) {
        return new EngineTestKit(
                requireNonNull(directory, "directory is null").toAbsolutePath().normalize());
    }

    /**
     * Serves the tenant with these factories besides those found on the class path; a factory replaces any of the
     * same name (to test one configured by hand). Call before the tenant loads.
     */
    public EngineTestKit withEngine(EngineFactory... factories) {
        if (loaded != null) {
            throw new IllegalStateException("the tenant is already loaded: call withEngine before product()");
        }
        for (EngineFactory factory : factories) {
            engines.add(requireNonNull(factory, "factory is null"));
        }
        return this;
    }

    /**
     * What keeps the tenant from loading, each as {@code file:line: message} exactly as {@code autocomplete
     * validate} prints it; empty when it loads. For testing an engine's configuration errors.
     */
    public List<String> problems() {
        return load().problems().stream().map(Problem::toString).toList();
    }

    /** The tenant's default product ({@code default_product}, else its first). */
    public ProductClient product() {
        return client(registry().tenants().values().iterator().next().defaultProduct());
    }

    /**
     * A product by slug or id.
     *
     * @throws IllegalArgumentException when the tenant has no such product
     */
    public ProductClient product(String slugOrId) {
        var tenant = registry().tenants().values().iterator().next();
        return client(tenant.product(slugOrId)
                .orElseThrow(() -> new IllegalArgumentException("tenant '" + tenant.id()
                        + "' has no product '" + slugOrId + "'; it has: "
                        + String.join(
                                ", ",
                                tenant.products().stream().map(Product::slug).toList()))));
    }

    private ProductClient client(Product product) {
        var tenant = registry().tenants().values().iterator().next();
        return new ProductClient(new Core(load().cache()), tenant, product)
                .budget(Duration.ofMillis(EngineLimits.MAX_BUDGET_MILLIS));
    }

    private TenantRegistry registry() {
        Loaded current = load();
        if (current.registry() == null) {
            throw new TenantLoadException(
                    directory,
                    current.problems().stream().map(Problem::toString).toList());
        }
        return current.registry();
    }

    private Loaded load() {
        if (loaded == null) {
            TenantLoader.Result result = new TenantLoader(engines).load(directory, id -> java.util.Optional.empty());
            loaded = result.tenant() == null
                    ? new Loaded(null, result.problems(), null)
                    : new Loaded(TenantRegistry.of(result.tenant()), List.of(), new ResponseCache(CACHE_ENTRIES));
        }
        return loaded;
    }

    /** Closes the tenant's engines and class loader. */
    @Override
    public void close() {
        if (loaded != null && loaded.registry() != null) {
            loaded.registry().close();
        }
    }
}
