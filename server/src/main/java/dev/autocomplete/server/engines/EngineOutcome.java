package dev.autocomplete.server.engines;

import java.util.Locale;

/** What came of asking a product's engines for one reading; {@code label()} names it in metrics and logs. */
public enum EngineOutcome {
    /** The engines answered in time with a usable reading. */
    OK,
    /** An engine threw. */
    ERROR,
    /** The reading did not finish within the product's budget. */
    TIMEOUT,
    /** An engine answered null or unusable data. */
    INVALID,
    /** The product's circuit is open: the engine was not called. */
    CIRCUIT_OPEN;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
