package dev.autocomplete.server.tenant;

import dev.autocomplete.server.protocol.Uuids;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A loaded tenant: its products with their engines, and the class loader they run in. Immutable; closed
 * once when unloaded.
 *
 * @param classLoader the loader to set as thread context class loader while its engines run
 * @param ownLoader the tenant's own engine loader to close, or null when it has no engine JARs
 * @param accessTokens token lifetime and the rate limit of each product's tokens
 * @param logQueries whether the access log may carry this tenant's query texts ({@code log_queries})
 * @param catalogs the names of the catalogs it declares, whose options the records API reads and writes
 * @param learn whether its products re-rank options by what users picked ({@code learn}, true by default)
 * @param engineCounters the counters its engines publish ({@code EngineContext.counter}), for the metrics
 */
public record Tenant(
        String id,
        String displayName,
        String defaultLanguage,
        Path directory,
        List<Product> products,
        Product defaultProduct,
        ClassLoader classLoader,
        EngineClassLoader ownLoader,
        AccessTokenSettings accessTokens,
        boolean logQueries,
        Set<String> catalogs,
        boolean learn,
        EngineCounters engineCounters)
        implements AutoCloseable {

    public Tenant {
        catalogs = Set.copyOf(catalogs);
    }

    /** A product by UUID or slug. */
    public Optional<Product> product(String idOrSlug) {
        for (Product product : products) {
            if (product.slug().equals(idOrSlug)) {
                return Optional.of(product);
            }
        }
        return Uuids.parse(idOrSlug).flatMap(this::product);
    }

    public Optional<Product> product(UUID id) {
        for (Product product : products) {
            if (product.id().equals(id)) {
                return Optional.of(product);
            }
        }
        return Optional.empty();
    }

    /** Runs engine code with this tenant's class loader as the thread context class loader. */
    public <T> T withEngineLoader(Supplier<T> call) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(classLoader);
        try {
            return call.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Closes every engine, then the tenant's class loader. */
    @Override
    public void close() {
        for (Product product : products) {
            product.engines().forEach(engine -> engine.close());
        }
        if (ownLoader != null) {
            try {
                ownLoader.close();
            } catch (IOException e) {
                System.getLogger(Tenant.class.getName())
                        .log(System.Logger.Level.WARNING, "Class loader of " + id + " failed to close: " + e);
            }
        }
    }
}
