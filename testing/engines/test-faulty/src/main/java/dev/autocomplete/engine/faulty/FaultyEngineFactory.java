package dev.autocomplete.engine.faulty;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import dev.autocomplete.spi.ParamSpec;

/**
 * A test engine that misbehaves when asked to; see {@link FaultyEngine} for the faults. Its name is read from
 * the bundled resource {@code engine-name.txt} ({@code faulty} as built), so that tests can make JARs that
 * clash with another engine's name by rewriting one file. Its {@code close()} leaves a hidden file
 * {@code .closed-<slug>} in the tenant directory (hidden, so the server's file watch ignores it).
 */
public final class FaultyEngineFactory implements EngineFactory {

    @Override
    public String name() {
        try (InputStream in = FaultyEngineFactory.class.getResourceAsStream("engine-name.txt")) {
            return in == null ? "faulty" : new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Engine create(EngineContext context) throws EngineConfigException {
        Map<String, FaultyEngine.Fault> faults = new LinkedHashMap<>();
        for (ParamSpec param : context.params()) {
            String fault = param.config().string("fault", "none");
            try {
                faults.put(param.type(), FaultyEngine.Fault.valueOf(fault.toUpperCase(java.util.Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw param.config().error("fault", "must be one of " + java.util.Arrays.toString(
                        FaultyEngine.Fault.values()).toLowerCase(java.util.Locale.ROOT) + ", got '" + fault + "'");
            }
        }
        return new FaultyEngine(faults, context.config().bool("cacheable", true),
                context.tenantDirectory().resolve(".closed-" + context.productSlug()),
                context.tenantDirectory().resolve(".slow-" + context.productSlug()));
    }
}
