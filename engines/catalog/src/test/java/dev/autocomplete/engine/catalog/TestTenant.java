package dev.autocomplete.engine.catalog;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.toolkit.ConfigTree;

/**
 * One tenant load, as the server sets it up for the catalog engine: the tenant's {@code catalogs}, a shared
 * store that counts what it builds, and the params of a product at their places in {@code tenant.yaml}.
 */
final class TestTenant {

    private final Path directory;
    private final Map<String, ?> catalogs;
    private final Map<String, Object> built = new HashMap<>();
    private int builds;

    TestTenant(Path directory, Map<String, ?> catalogs) {
        this.directory = directory;
        this.catalogs = catalogs;
    }

    /** A param of the first intent of product {@code product}, at its place in the tenant file. */
    static ParamSpec param(int product, int index, String type, Map<String, ?> config) {
        return new ParamSpec(type, ConfigTree.at("products[" + product + "].intents[0].params[" + index + "]", config));
    }

    /** The engine of product 0 for params given as type and config, in order. */
    Engine engine(Object... typesAndConfigs) throws EngineConfigException {
        List<ParamSpec> params = new ArrayList<>();
        for (int i = 0; i < typesAndConfigs.length; i += 2) {
            @SuppressWarnings("unchecked")
            Map<String, ?> config = (Map<String, ?>) typesAndConfigs[i + 1];
            params.add(param(0, i / 2, (String) typesAndConfigs[i], config));
        }
        return engine("travel", params);
    }

    Engine engine(String product, List<ParamSpec> params) throws EngineConfigException {
        EngineContext context = new EngineContext("t", product, "en", ZoneOffset.UTC, directory,
                ConfigTree.at("catalogs", catalogs), params, new EngineContext.Shared() {
                    @Override
                    @SuppressWarnings("unchecked")
                    public synchronized <T> T get(String key, EngineContext.Builder<T> builder)
                            throws EngineConfigException {
                        if (!built.containsKey(key)) {
                            built.put(key, builder.build());
                            builds++;
                        }
                        return (T) built.get(key);
                    }
                });
        return new CatalogEngineFactory().create(context);
    }

    /** How many shared values were built so far. */
    int builds() {
        return builds;
    }

    /** A question about {@code type} in {@code languages}, with params already filled (type, text, ...). */
    static Ask ask(String type, List<String> languages, String... filled) {
        Map<String, String> fills = new HashMap<>();
        for (int i = 0; i < filled.length; i += 2) {
            fills.put(filled[i], filled[i + 1]);
        }
        return new Ask(type, languages, AdditionalContext.NONE, fills, LocalDate.of(2026, 3, 12), 10,
                System.nanoTime() + 1_000_000_000L);
    }

    static Ask ask(String type) {
        return ask(type, List.of());
    }
}
