package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;

/**
 * What an {@link EngineFactory} gets to build an engine for the params of one product that name it.
 *
 * @param tenantId the tenant's id (its directory name); never null
 * @param productSlug the product's slug, e.g. {@code travel}; never null
 * @param defaultLanguage the tenant's default language tag, e.g. {@code en}; never null
 * @param zone the product's time zone ({@code time_zone}, default UTC): what "today" means; never null
 * @param tenantDirectory the tenant's directory; data files named in the config are resolved against it;
 *     never null
 * @param config the engine's tenant-wide configuration ({@code engines.<name>} in {@code tenant.yaml}; for the
 *     built-in catalog, the tenant's {@code catalogs}); empty when absent; never null
 * @param params the params of the product this engine serves, in declaration order; never empty
 * @param shared a place to share what is costly to build (a loaded file) among the engines of one tenant load
 * @param counters where {@link #counter(String, String)} gets the counters the engine publishes (since SPI 3.0)
 */
public record EngineContext(
        String tenantId,
        String productSlug,
        String defaultLanguage,
        ZoneId zone,
        Path tenantDirectory,
        ConfigTree config,
        List<ParamSpec> params,
        Shared shared,
        Counters counters) {

    /** The most counters one engine may publish in one tenant. */
    public static final int MAX_COUNTERS = 32;

    public EngineContext {
        requireNonNull(tenantId, "tenantId is null");
        requireNonNull(productSlug, "productSlug is null");
        requireNonNull(defaultLanguage, "defaultLanguage is null");
        requireNonNull(zone, "zone is null");
        requireNonNull(tenantDirectory, "tenantDirectory is null");
        requireNonNull(config, "config is null");
        params = List.copyOf(requireNonNull(params, "params is null"));
        requireNonNull(shared, "shared is null");
        requireNonNull(counters, "counters is null");
    }

    /**
     * A context whose counters count nothing ({@link Counters#NONE}): for building an engine outside the server,
     * e.g. in a unit test of a factory.
     */
    public EngineContext(
            String tenantId,
            String productSlug,
            String defaultLanguage,
            ZoneId zone,
            Path tenantDirectory,
            ConfigTree config,
            List<ParamSpec> params,
            Shared shared) {
        this(tenantId, productSlug, defaultLanguage, zone, tenantDirectory, config, params, shared, Counters.NONE);
    }

    /**
     * A counter the engine publishes: the server exports it at {@code /observe/metrics} as
     * {@code autocomplete_engine_<name>_total} with the labels {@code tenant} and {@code engine}, e.g.
     * {@code counter("cache_misses", "Lookups not found in the engine's cache")} as
     * {@code autocomplete_engine_cache_misses_total{engine="repos",tenant="acme"}}. Get counters in
     * {@link EngineFactory#create}, keep them in the engine, and count on the request path. The same name asked
     * again in the same tenant load (another product, another param) gives the same counter.
     *
     * @param name lower-case letters, digits and {@code _}, starting with a letter, at most 40 characters, not
     *     {@code calls}, {@code seconds} or {@code duration_seconds} (the server's own engine metrics), and not
     *     ending in {@code _total} (the server adds it), {@code _created}, {@code _bucket} or {@code _info} (endings
     *     Prometheus gives other meanings)
     * @param help what it counts, in one line of at most 200 characters
     * @return the counter; thread-safe
     * @throws EngineConfigException when the name or help breaks these rules, or the engine already has
     *     {@value #MAX_COUNTERS} counters in this tenant; thrown from {@code create}, the server reports it on
     *     the line of the param that names the engine and the tenant does not load
     */
    public Counter counter(String name, String help) throws EngineConfigException {
        return counters.counter(requireNonNull(name, "name is null"), requireNonNull(help, "help is null"));
    }

    /**
     * Resolves a file named in the config against the tenant's directory, refusing paths that leave it.
     *
     * @param tree the config tree holding the key, for the error message
     * @param key the key that named the file
     * @return the absolute, normalized path inside the tenant's directory
     * @throws EngineConfigException when the path is absolute or leaves the tenant's directory
     */
    public Path tenantFile(ConfigTree tree, String key) throws EngineConfigException {
        String relative = tree.string(key);
        Path root = tenantDirectory.toAbsolutePath().normalize();
        Path resolved = root.resolve(relative).normalize();
        if (Path.of(relative).isAbsolute() || !resolved.startsWith(root)) {
            throw tree.error(key, "must be a path inside the tenant's directory, got '" + relative + "'");
        }
        return resolved;
    }

    /**
     * Values built once per tenant load and shared by its engines (all products), e.g. a catalog file that two
     * products' params name. Thread-safe. Entries live as long as the tenant load.
     */
    public interface Shared {

        /**
         * The value stored under {@code key}, built by {@code builder} on first use.
         *
         * @param key a name unique to the engine and the thing built, e.g. {@code catalog:cities}
         * @param builder builds the value; may throw the config error of the thing it reads
         */
        <T> T get(String key, Builder<T> builder) throws EngineConfigException;
    }

    /**
     * Gives an engine its named counters ({@link #counter(String, String)}). The server supplies one per engine
     * and tenant load that checks names and exports the counts. Thread-safe.
     */
    public interface Counters {

        /** Counters that count nothing and check nothing, for engines built outside the server. */
        Counters NONE = (name, help) -> amount -> {
            if (amount < 0) {
                throw new IllegalArgumentException("a counter never goes down: " + amount);
            }
        };

        /** The counter called {@code name}, made on first use; see {@link EngineContext#counter}. */
        Counter counter(String name, String help) throws EngineConfigException;
    }

    /** Builds a shared value. */
    @FunctionalInterface
    public interface Builder<T> {
        T build() throws EngineConfigException;
    }
}
