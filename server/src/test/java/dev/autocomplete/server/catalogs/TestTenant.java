package dev.autocomplete.server.catalogs;

import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.toolkit.ConfigProblems;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One tenant load without a store, as {@code validate} and the engine test kit set it up: the tenant's
 * {@code catalogs} read from their seeds, and the params of a product at their places in {@code tenant.yaml}.
 */
final class TestTenant {

    private final Path directory;
    private final Map<String, ?> catalogs;
    private TenantCatalogs opened;

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

    /** The source of a product's params, as a tenant load builds it: its catalogs opened, read from their seeds. */
    Engine engine(String product, List<ParamSpec> params) throws EngineConfigException {
        if (opened == null) {
            ConfigProblems problems = new ConfigProblems();
            opened = TenantCatalogs.open("t", ConfigTree.at("catalogs", catalogs), directory, "en", null, problems);
            if (!problems.isEmpty()) {
                throw problems.list().getFirst();
            }
        }
        for (ParamSpec param : params) {
            List<EngineConfigException> problems = TenantCatalogs.keyProblems(param.config());
            if (!problems.isEmpty()) {
                throw problems.getFirst();
            }
        }
        return opened.source("test/product", params);
    }

    /** A question about {@code type} in {@code languages}, with params already filled (type, text, ...). */
    static Ask ask(String type, List<String> languages, String... filled) {
        Map<String, String> fills = new HashMap<>();
        for (int i = 0; i < filled.length; i += 2) {
            fills.put(filled[i], filled[i + 1]);
        }
        return new Ask(
                type,
                languages,
                AdditionalContext.NONE,
                fills,
                LocalDate.of(2026, 3, 12),
                10,
                System.nanoTime() + 1_000_000_000L);
    }

    static Ask ask(String type) {
        return ask(type, List.of());
    }
}
