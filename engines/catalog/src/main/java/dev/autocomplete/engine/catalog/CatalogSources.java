package dev.autocomplete.engine.catalog;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.function.Supplier;

import dev.autocomplete.spi.Engine;

/**
 * Serves params from options that change while the tenant runs: the core's live catalogs, as a catalog engine
 * over suppliers of each list's current {@link LiveOptions}. Each call of the engine reads a list's supplier once
 * and answers from that one snapshot.
 */
public final class CatalogSources {

    /**
     * The options of one param type.
     *
     * @param list names the option list: params whose lists share a name exclude each other's picks (e.g.
     *     {@code catalog:cities}, or an inline list's config path); params sharing a name share the options too
     * @param options the list's current snapshot; called once per engine call, from any thread
     */
    public record Source(String list, Supplier<LiveOptions> options) {

        public Source {
            requireNonNull(list, "list is null");
            requireNonNull(options, "options is null");
        }
    }

    private CatalogSources() {
    }

    /**
     * An engine serving each param type from its source. Its answers are cacheable as long as the cache key
     * tells the snapshots apart (a catalog's generation).
     */
    public static Engine engine(Map<String, Source> byParamType) {
        return new CatalogEngine(byParamType);
    }
}
