/**
 * The engine SPI: the only API a suggestion engine compiles against.
 *
 * <p>An engine is a source of values for some params of a product. An engine author writes one
 * {@link dev.autocomplete.spi.EngineFactory} (listed in
 * {@code META-INF/services/dev.autocomplete.spi.EngineFactory}) and one {@link dev.autocomplete.spi.Engine}
 * that answers two questions about a param type: how typed spans read as values
 * ({@link dev.autocomplete.spi.SpanMatch}) and which {@link dev.autocomplete.spi.Option}s to offer. The server
 * does the rest: it reads every query once (intents, phrases, cue words, spans, conditions, dismissals,
 * {@code is_ready}), ranks by {@code additional_context}, localizes labels, and handles envelopes,
 * validation, authentication and limits.
 *
 * <p>This package holds contracts only; {@link dev.autocomplete.spi.toolkit} holds helpers (config trees, text
 * folding, word splitting, typo distance, context names). Both depend on the JDK only. Engines declare the
 * artifact with Maven scope {@code provided}: the server supplies it at run time through each tenant's class
 * loader, which delegates these packages, and only these, to the server.
 */
package dev.autocomplete.spi;
