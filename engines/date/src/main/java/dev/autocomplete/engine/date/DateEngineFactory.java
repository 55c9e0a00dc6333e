package dev.autocomplete.engine.date;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;

/**
 * Creates {@link DateEngine}s: the engine named {@code date} serves every param that names it
 * ({@code engine: date}) with dates read from what the user types in English, French or German
 * ({@code 12 March}, {@code next friday}, {@code demain}, {@code nächsten Freitag}).
 *
 * <p>One config key, optional, tenant-wide under {@code engines.date} and on each param (which overrides it):
 * {@code default_days}, how many days from today on the options offer before anything is typed (1 to 31,
 * default 7). Any other key is an error. Stateless and thread-safe.
 */
public final class DateEngineFactory implements EngineFactory {

    @Override
    public String name() {
        return "date";
    }

    @Override
    public Engine create(EngineContext context) throws EngineConfigException {
        return new DateEngine(DateSettings.read(context), context.defaultLanguage());
    }
}
