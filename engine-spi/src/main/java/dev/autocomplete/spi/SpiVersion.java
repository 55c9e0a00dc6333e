package dev.autocomplete.spi;

/**
 * The version of this SPI. An engine JAR records the major version it was compiled against in its manifest,
 * as the attribute {@value #MANIFEST_ATTRIBUTE} (the engine guide shows the two lines of Maven that write it);
 * the server refuses a JAR without it or built for another major version, with a message that names both.
 */
public final class SpiVersion {

    /** The major version: engines built against another major version are refused at load. */
    public static final int MAJOR = 3;

    /**
     * The minor version: additions that engines of the same major may use ({@link EngineContext#counter} is part of
     * 3.0; 3.1 adds {@link dev.autocomplete.spi.toolkit.Lookup.Conditions#unfiltered}, told when a filter left no
     * option; 3.2 adds {@link Engine#learnsFromPicks}, for options of the moment).
     * A JAR may record {@code MAJOR.MINOR}; the server loads any minor of its major, so an engine that calls
     * something newer than the server it runs on fails to start there with a {@link LinkageError}, which the
     * server reports on the param that names it.
     */
    public static final int MINOR = 2;

    /** The manifest attribute that holds the major version an engine JAR was built against. */
    public static final String MANIFEST_ATTRIBUTE = "Autocomplete-Engine-SPI";

    private SpiVersion() {}
}
