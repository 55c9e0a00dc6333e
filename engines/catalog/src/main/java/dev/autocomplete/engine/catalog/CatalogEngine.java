package dev.autocomplete.engine.catalog;

import java.util.LinkedHashSet;
import java.util.Set;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Query;
import dev.autocomplete.spi.Reading;

/** A declarative engine over a {@link CatalogModel}. Immutable, so thread-safe. */
final class CatalogEngine implements Engine {

    private final CatalogModel model;
    private final Set<String> paramTypes;

    CatalogEngine(CatalogModel model) {
        this.model = model;
        Set<String> types = new LinkedHashSet<>();
        model.allParams().forEach(param -> types.add(param.type()));
        this.paramTypes = Set.copyOf(types);
    }

    CatalogModel model() {
        return model;
    }

    @Override
    public Reading read(Query query) {
        return new QueryReader(model, query, paramTypes).read();
    }

    @Override
    public Set<String> paramTypes() {
        return paramTypes;
    }
}
