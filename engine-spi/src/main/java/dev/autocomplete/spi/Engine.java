package dev.autocomplete.spi;

/**
 * Reads a partially typed query and proposes what comes next, for one product.
 *
 * <p>Threading: an engine is shared by every request of its product, so {@link #read} must be thread-safe
 * and should not block on I/O: every request runs on its own virtual thread and the server bounds the time
 * it waits. Load data in {@link EngineFactory#create}, not here.
 *
 * <p>Lifecycle: created by its {@link EngineFactory}; the server calls {@link #close()} once, after the last
 * request that uses it finished, when its tenant is unloaded or reloaded. The thread context class loader
 * is the tenant's during every call.
 */
public interface Engine extends AutoCloseable {

    /**
     * Reads the query and proposes suggestions.
     *
     * @param query the parsed request; never null
     * @return the engine's reading; never null
     */
    Reading read(Query query);

    /**
     * Every param type this engine may suggest, e.g. {@code origin}. The server uses them to type a
     * placeholder token sent without a {@code completed_params} entry, and to tell which
     * {@code additional_context} keys name a param. Constant for the engine's life; never null.
     */
    java.util.Set<String> paramTypes();

    /** Releases what the engine holds. The default does nothing. Must not throw. */
    @Override
    default void close() {
    }
}
