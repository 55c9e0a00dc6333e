package dev.autocomplete.engine.date;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.ParamSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The date engine's configuration, validated: the same keys tenant-wide ({@code engines.date} in
 * {@code tenant.yaml}) and on each param it serves, where they override the tenant-wide value.
 *
 * @param defaultDays by param type, how many days the options offer, from today on, before anything is typed
 */
record DateSettings(Map<String, Integer> defaultDays) {

    static final String DEFAULT_DAYS = "default_days";
    static final int DEFAULT_DEFAULT_DAYS = 7;
    private static final int MOST_DEFAULT_DAYS = 31;
    private static final Set<String> KNOWN_KEYS = Set.of(DEFAULT_DAYS);

    DateSettings {
        defaultDays = Map.copyOf(requireNonNull(defaultDays, "defaultDays is null"));
    }

    /** Reads and validates the engine's config and its params'; every error names its full key. */
    static DateSettings read(EngineContext context) throws EngineConfigException {
        int tenantWide = defaultDays(context.config(), DEFAULT_DEFAULT_DAYS);
        Map<String, Integer> defaultDays = new LinkedHashMap<>();
        for (ParamSpec param : context.params()) {
            defaultDays.put(param.type(), defaultDays(param.config(), tenantWide));
        }
        return new DateSettings(defaultDays);
    }

    private static int defaultDays(ConfigTree config, int fallback) throws EngineConfigException {
        // The toolkit's message names the key it probably meant ("did you mean 'default_days'?"), else lists them.
        List<EngineConfigException> unknown = config.unknownKeys(KNOWN_KEYS);
        if (!unknown.isEmpty()) {
            throw unknown.getFirst();
        }
        int days = config.integer(DEFAULT_DAYS, fallback);
        if (days < 1 || days > MOST_DEFAULT_DAYS) {
            throw config.error(DEFAULT_DAYS, "must be between 1 and " + MOST_DEFAULT_DAYS + ", got " + days);
        }
        return days;
    }
}
