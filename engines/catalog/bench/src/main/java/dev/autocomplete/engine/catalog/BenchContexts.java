package dev.autocomplete.engine.catalog;

import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.toolkit.ConfigTree;

/** Engine contexts for the benchmarks that load catalogs through {@link CatalogEngineFactory}, as a tenant load does. */
final class BenchContexts {

    private BenchContexts() {
    }

    /**
     * A context for one product of a tenant.
     *
     * @param catalogs the tenant's {@code catalogs}
     * @param params the product's catalog params; each of them builds what it names (nothing is shared)
     */
    static EngineContext of(Path tenantDirectory, String product, String language, Map<String, ?> catalogs,
            List<ParamSpec> params) {
        return new EngineContext("bench", product, language, ZoneOffset.UTC, tenantDirectory,
                ConfigTree.at("catalogs", catalogs), params, new EngineContext.Shared() {
                    @Override
                    public <T> T get(String key, EngineContext.Builder<T> builder) throws EngineConfigException {
                        return builder.build();
                    }
                });
    }
}
