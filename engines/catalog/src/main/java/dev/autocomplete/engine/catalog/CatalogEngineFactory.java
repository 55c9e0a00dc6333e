package dev.autocomplete.engine.catalog;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;

/**
 * The built-in engine, named {@code catalog}: serves params from option lists, a catalog declared under the
 * tenant's {@code catalogs} ({@code catalog: cities}) or an inline {@code options} list. See
 * {@code docs/configuration.md}.
 */
public final class CatalogEngineFactory implements EngineFactory {

    @Override
    public String name() {
        return "catalog";
    }

    @Override
    public Engine create(EngineContext context) throws EngineConfigException {
        return new CatalogEngine(CatalogConfig.sources(context));
    }
}
