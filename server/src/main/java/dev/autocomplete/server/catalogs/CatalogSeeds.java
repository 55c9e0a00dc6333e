package dev.autocomplete.server.catalogs;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * Reads a declared catalog's seed (its file or inline options, with the same checks and errors as inline lists), with the ids of its file's {@code id} column: what the core imports into a live catalog's store.
 */
public final class CatalogSeeds {

    private CatalogSeeds() {}

    /**
     * The options of one declaration under the tenant's {@code catalogs}, in file order.
     *
     * @param declaration the catalog's tree, at its place ({@code catalogs.cities}): {@code file} (and
     *     {@code translations}) or {@code options}; with neither, a catalog filled only through the records API
     * @param tenantDirectory where the files it names are resolved (never outside it)
     * @param defaultLanguage the tenant's default language: its text is the option's text, never a translation
     * @return empty for a declaration with neither a file nor options
     * @throws EngineConfigException naming the key and the file line at fault
     */
    public static List<SeedOption> read(ConfigTree declaration, Path tenantDirectory, String defaultLanguage)
            throws EngineConfigException {
        return read(declaration, tenantDirectory, defaultLanguage, null);
    }

    /** As {@link #read(ConfigTree, Path, String)}, giving {@code refused} every refused row of the file. */
    static List<SeedOption> read(
            ConfigTree declaration, Path tenantDirectory, String defaultLanguage, CatalogConfig.Refusals refused)
            throws EngineConfigException {
        return CatalogConfig.seeds(context(tenantDirectory, defaultLanguage), declaration, refused);
    }

    /** The context the option readers take: they read only the tenant's files and its default language. */
    static EngineContext context(Path tenantDirectory, String defaultLanguage) {
        return new EngineContext(
                String.valueOf(tenantDirectory.getFileName()),
                "seed",
                defaultLanguage,
                ZoneOffset.UTC,
                tenantDirectory,
                ConfigTree.of(Map.of()),
                List.of(),
                new EngineContext.Shared() {
                    @Override
                    public <T> T get(String key, EngineContext.Builder<T> builder) throws EngineConfigException {
                        return builder.build();
                    }
                });
    }
}
