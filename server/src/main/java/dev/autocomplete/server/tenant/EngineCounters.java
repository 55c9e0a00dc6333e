package dev.autocomplete.server.tenant;

import dev.autocomplete.spi.Counter;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

/**
 * The counters the engines of one tenant load publish through {@link EngineContext#counter}: checked here,
 * exported by the metrics as {@code autocomplete_engine_<name>_total{tenant, engine}}. At most
 * {@link EngineContext#MAX_COUNTERS} per engine, so an engine cannot grow the scrape without bound; one name
 * asked twice (two products of one engine) is one counter. They live as long as the load. Thread-safe.
 */
public final class EngineCounters {

    /** The metric name prefix; the name an engine gives follows it, and the exposition adds {@code _total}. */
    public static final String PREFIX = "autocomplete_engine_";

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,39}");
    /** Names of the server's own metrics under {@link #PREFIX}: two families of one name break the scrape. */
    private static final Set<String> RESERVED = Set.of("calls", "seconds", "duration_seconds");
    /** Suffixes the exposition format keeps for itself. */
    private static final List<String> RESERVED_SUFFIXES = List.of("_total", "_created", "_bucket", "_info");

    private static final int MAX_HELP = 200;

    /**
     * A published counter.
     *
     * @param engine the engine's name, as params name it
     * @param name the name the engine gave, without {@link #PREFIX}
     */
    public record Published(String engine, String name, String help, LongAdder count) {}

    private final Map<String, Map<String, Published>> byEngine = new LinkedHashMap<>();

    /** What the engine called {@code engine} gets as {@link EngineContext#counters()}. */
    EngineContext.Counters forEngine(String engine) {
        return (name, help) -> counter(engine, name, help);
    }

    /** Every counter published so far, in the order they were asked for. */
    public synchronized List<Published> published() {
        List<Published> all = new ArrayList<>();
        byEngine.values().forEach(counters -> all.addAll(counters.values()));
        return all;
    }

    private synchronized Counter counter(String engine, String name, String help) throws EngineConfigException {
        Map<String, Published> counters = byEngine.computeIfAbsent(engine, e -> new LinkedHashMap<>());
        Published published = counters.get(name);
        if (published == null) {
            check(name, help);
            if (counters.size() >= EngineContext.MAX_COUNTERS) {
                throw new EngineConfigException(
                        "",
                        "engine '" + engine + "' asked for counter '" + name
                                + "' beyond its " + EngineContext.MAX_COUNTERS + " counters (it has: "
                                + String.join(", ", counters.keySet()) + ")");
            }
            published = new Published(engine, name, help.strip(), new LongAdder());
            counters.put(name, published);
        }
        LongAdder count = published.count();
        return amount -> {
            if (amount < 0) {
                throw new IllegalArgumentException("a counter never goes down: add(" + amount + ") to " + name);
            }
            count.add(amount);
        };
    }

    private static void check(String name, String help) throws EngineConfigException {
        if (!NAME.matcher(name).matches()) {
            throw new EngineConfigException(
                    "",
                    "counter name '" + printable(name) + "' must be lower-case letters,"
                            + " digits and '_', start with a letter and have at most 40 characters");
        }
        if (RESERVED.contains(name)) {
            throw new EngineConfigException(
                    "",
                    "counter name '" + name + "' is one of the server's own engine metrics "
                            + RESERVED.stream().sorted().toList() + ": choose another");
        }
        for (String suffix : RESERVED_SUFFIXES) {
            if (name.endsWith(suffix)) {
                throw new EngineConfigException(
                        "",
                        "counter name '" + name + "' must not end in '" + suffix + "' (none of " + RESERVED_SUFFIXES
                                + "; the server adds _total): name it '"
                                + name.substring(0, name.length() - suffix.length()) + "'");
            }
        }
        if (help.isBlank() || help.length() > MAX_HELP || help.chars().anyMatch(Character::isISOControl)) {
            throw new EngineConfigException(
                    "", "help of counter '" + name + "' must be one line of 1 to " + MAX_HELP + " characters");
        }
    }

    /** The name as it can be shown in a one-line message. */
    private static String printable(String name) {
        String shown = name.length() > 60 ? name.substring(0, 60) + "..." : name;
        return shown.replaceAll("\\p{Cntrl}", "?");
    }
}
