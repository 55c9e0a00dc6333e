/**
 * The engine SPI: the only API a suggestion engine compiles against.
 *
 * <p>An engine author writes one {@link dev.autocomplete.spi.EngineFactory} (listed in
 * {@code META-INF/services/dev.autocomplete.spi.EngineFactory}), one {@link dev.autocomplete.spi.Engine},
 * and returns a {@link dev.autocomplete.spi.Reading} built from a handful of records. The server does the
 * rest: envelopes, validation, authentication, the {@code data.input} echo, {@code is_ready}, ranking by
 * {@code additional_context}, dismissal filtering and limits.
 *
 * <p>This package depends on the JDK only. Engines declare it with Maven scope {@code provided}: the server
 * supplies it at run time through each tenant's class loader, which delegates this package, and only this
 * package, to the server.
 */
package dev.autocomplete.spi;
