package dev.autocomplete.engine.catalog;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;

/**
 * The built-in declarative engine, named {@code catalog}: intents with phrases, params with labels, cue
 * words and options from inline lists or CSV files. See {@code docs/configuration.md}.
 */
public final class CatalogEngineFactory implements EngineFactory {

    @Override
    public String name() {
        return "catalog";
    }

    @Override
    public Engine create(EngineContext context) throws EngineConfigException {
        return new CatalogEngine(CatalogConfig.parse(context));
    }
}
