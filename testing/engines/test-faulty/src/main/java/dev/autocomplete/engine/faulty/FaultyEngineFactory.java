package dev.autocomplete.engine.faulty;

import dev.autocomplete.spi.Counter;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import dev.autocomplete.spi.ParamSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A test engine that misbehaves when asked to; see {@link FaultyEngine} for the faults. Its name is read from
 * the bundled resource {@code engine-name.txt} ({@code faulty} as built), so that tests can make JARs that
 * clash with another engine's name by rewriting one file. Its {@code close()} leaves a hidden file
 * {@code .closed-<slug>} in the tenant directory (hidden, so the server's file watch ignores it).
 *
 * <p>It publishes the counter {@code options_asked} (option lists asked of it); its tenant-wide config
 * ({@code engines.faulty}) may ask for {@code extra_counters: N} more ({@code extra_1} ...) and for one named
 * {@code counter_name: NAME}, so that tests can see the server refuse too many counters and bad names.
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
                throw param.config()
                        .error(
                                "fault",
                                "must be one of "
                                        + java.util.Arrays.toString(FaultyEngine.Fault.values())
                                                .toLowerCase(java.util.Locale.ROOT)
                                        + ", got '" + fault + "'");
            }
        }
        long startSeconds = context.config().integer("start_seconds", 0);
        if (startSeconds > 0) { // an engine that blocks while it starts (engines.faulty.start_seconds)
            try {
                Thread.sleep(startSeconds * 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting", e);
            }
        }
        Counter optionsAsked = context.counter("options_asked", "Option lists asked of the faulty engine");
        for (int i = 1; i <= context.config().integer("extra_counters", 0); i++) {
            context.counter("extra_" + i, "Extra counter " + i + " of the faulty engine");
        }
        String named = context.config().string("counter_name", null);
        if (named != null) {
            context.counter(named, "A counter named in tenant.yaml");
        }
        return new FaultyEngine(
                faults,
                context.config().bool("cacheable", true),
                optionsAsked,
                context.tenantDirectory().resolve(".closed-" + context.productSlug()),
                context.tenantDirectory().resolve(".slow-" + context.productSlug()));
    }
}
