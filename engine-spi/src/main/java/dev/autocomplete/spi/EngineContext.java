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
 */
public record EngineContext(String tenantId, String productSlug, String defaultLanguage, ZoneId zone,
        Path tenantDirectory, ConfigTree config, List<ParamSpec> params, Shared shared) {

    public EngineContext {
        requireNonNull(tenantId, "tenantId is null");
        requireNonNull(productSlug, "productSlug is null");
        requireNonNull(defaultLanguage, "defaultLanguage is null");
        requireNonNull(zone, "zone is null");
        requireNonNull(tenantDirectory, "tenantDirectory is null");
        requireNonNull(config, "config is null");
        params = List.copyOf(requireNonNull(params, "params is null"));
        requireNonNull(shared, "shared is null");
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

    /** Builds a shared value. */
    @FunctionalInterface
    public interface Builder<T> {
        T build() throws EngineConfigException;
    }
}
