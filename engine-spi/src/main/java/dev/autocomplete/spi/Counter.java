package dev.autocomplete.spi;

/**
 * A count an engine publishes, got from {@link EngineContext#counter(String, String)}: the server exports it on
 * the management listener's {@code /observe/metrics} as {@code autocomplete_engine_<name>_total} with the labels
 * {@code tenant} and {@code engine}. It only grows; it starts at zero with each load of the tenant (a Prometheus
 * counter reset, which {@code rate()} handles). Thread-safe and cheap (a {@code LongAdder} in the server): call it
 * on the request path.
 */
public interface Counter {

    /** Adds one. */
    default void increment() {
        add(1);
    }

    /**
     * Adds {@code amount}.
     *
     * @param amount zero or more
     * @throws IllegalArgumentException when {@code amount} is negative: a counter never goes down
     */
    void add(long amount);
}
