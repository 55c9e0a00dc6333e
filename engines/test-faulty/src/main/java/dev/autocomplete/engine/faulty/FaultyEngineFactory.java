package dev.autocomplete.engine.faulty;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;

/**
 * A test engine, {@code faulty}, that misbehaves when the query asks it to. See {@link FaultyEngine} for the
 * words it obeys. Its {@code close()} leaves a hidden file {@code .closed-<slug>} in the tenant directory
 * (hidden, so the server's file watch ignores it), so tests can see that the server closed it.
 */
public final class FaultyEngineFactory implements EngineFactory {

    @Override
    public String name() {
        return "faulty";
    }

    @Override
    public Engine create(EngineContext context) {
        return new FaultyEngine(context.tenantDirectory().resolve(".closed-" + context.productSlug()),
                context.tenantDirectory().resolve(".slow-" + context.productSlug()));
    }
}
