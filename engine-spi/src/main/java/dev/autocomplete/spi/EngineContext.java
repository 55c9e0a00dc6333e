package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

/**
 * What an {@link EngineFactory} gets to build an engine for one product.
 *
 * @param tenantId the tenant's id (its directory name); never null
 * @param productSlug the product's slug, e.g. {@code travel}; never null
 * @param defaultLanguage the tenant's default language tag, e.g. {@code en}; never null
 * @param tenantDirectory the tenant's directory; data files named in the config are resolved against it;
 *     never null
 * @param config the product's engine configuration (the {@code config} key of the product in
 *     {@code tenant.yaml}); empty when absent; never null
 */
public record EngineContext(
        String tenantId, String productSlug, String defaultLanguage, Path tenantDirectory, ConfigTree config) {

    public EngineContext {
        requireNonNull(tenantId, "tenantId is null");
        requireNonNull(productSlug, "productSlug is null");
        requireNonNull(defaultLanguage, "defaultLanguage is null");
        requireNonNull(tenantDirectory, "tenantDirectory is null");
        requireNonNull(config, "config is null");
    }

    /**
     * Resolves a file named in the config against the tenant's directory, refusing paths that leave it.
     *
     * @param key the config key that named the file, for the error message
     * @param relative the path as written in the config
     * @return the absolute, normalized path inside the tenant's directory
     * @throws EngineConfigException when the path is absolute or leaves the tenant's directory
     */
    public Path tenantFile(String key, String relative) throws EngineConfigException {
        Path root = tenantDirectory.toAbsolutePath().normalize();
        Path resolved = root.resolve(relative).normalize();
        if (Path.of(relative).isAbsolute() || !resolved.startsWith(root)) {
            throw config.error(key, "must be a path inside the tenant's directory, got '" + relative + "'");
        }
        return resolved;
    }
}
