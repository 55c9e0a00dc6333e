package dev.autocomplete.server.reading;

/** How settled a reading is; the wire's {@code data.input[].state}. */
public enum ReadingState {
    /** Settled: an intent phrase or an option's full text. */
    COMPLETED,
    /** A proper prefix of an intent phrase or of an option the user is still typing. */
    IN_PROGRESS,
    /** Read with low confidence (a typo-level match, several candidates, an unknown type): worth confirming. */
    NEED_CONFIRMATION;

    private final String wireName = name().toLowerCase(java.util.Locale.ROOT);

    /** The wire form, e.g. {@code need_confirmation}. */
    public String wireName() {
        return wireName;
    }
}
