package dev.autocomplete.engine.date;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import java.time.Clock;

/**
 * Creates {@link DateEngine}s: a product whose {@code engine} is {@code date} gets one intent whose only
 * param is a date, read from relative expressions such as "tomorrow", "next friday" or "in 3 days".
 *
 * <p>Config keys, all optional: {@code prompt}, {@code phrases}, {@code type}, {@code label},
 * {@code required}, {@code cues}, {@code time_zone} (see {@link DateSettings}). Stateless and thread-safe.
 */
public final class DateEngineFactory implements EngineFactory {

    @Override
    public String name() {
        return "date";
    }

    @Override
    public Engine create(EngineContext context) throws EngineConfigException {
        DateSettings settings = DateSettings.read(context.config());
        return new DateEngine(settings, Clock.system(settings.timeZone()));
    }
}
