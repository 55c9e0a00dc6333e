package dev.autocomplete.server.suggest;

/** Told about every engine call, for metrics and the access log. Must be fast and must not throw. */
@FunctionalInterface
public interface EngineObserver {

    /** What came of one engine call. */
    enum Outcome {
        /** The engine answered in time with a usable reading. */
        OK,
        /** The engine threw. */
        ERROR,
        /** The engine did not answer within the product's budget. */
        TIMEOUT,
        /** The engine answered null or unusable data. */
        INVALID,
        /** The product's circuit is open: the engine was not called. */
        CIRCUIT_OPEN,
        /** The tenant or product was unloaded while the request ran: no engine to call. */
        UNLOADED;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * @param nanos time spent waiting for the engine (0 when it was not called)
     */
    void engineCall(String tenant, String product, Outcome outcome, long nanos);

    /** One lookup in the response cache, answered from it ({@code hit}) or computed. */
    default void cacheLookup(String tenant, String product, boolean hit) {
    }
}
