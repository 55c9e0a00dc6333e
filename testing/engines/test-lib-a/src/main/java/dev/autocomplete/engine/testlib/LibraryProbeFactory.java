package dev.autocomplete.engine.testlib;

import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.EngineFactory;
import dev.autocomplete.spi.ParamSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A test engine, {@code library-probe}, that reports which version of its bundled commons-csv it runs with,
 * which build of its bundled resource {@code build.txt} it reads, and whether it can see the server's classes.
 * Built twice (test-lib-a and test-lib-b) from these sources, each JAR bundling a different commons-csv
 * version without relocation, to show that two tenants can carry two versions of one library at once.
 */
public final class LibraryProbeFactory implements EngineFactory {

    @Override
    public String name() {
        return "library-probe";
    }

    @Override
    public Engine create(EngineContext context) throws EngineConfigException {
        Map<String, String> values = new LinkedHashMap<>();
        for (ParamSpec param : context.params()) {
            values.put(param.type(), param.config().string("values", "alpha,beta"));
        }
        return new LibraryProbe(values);
    }
}
