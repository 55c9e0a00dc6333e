package dev.autocomplete.server.engines;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One engine of one product as the core calls it: never throws, so an engine's faults stay its own. Each call
 * runs in-process on the caller's thread with the tenant's class loader as the thread context class loader.
 * When the engine's circuit is open, or the engine throws, answers null or a list of the wrong size, the
 * answer is "no match" (every span {@link SpanMatch#NONE}) or "no options", and the failure is recorded in the
 * request's {@link EngineCalls}; repeated failures open this engine's circuit, which costs only the params
 * this engine serves in this product. Answers are checked: types the engine does not serve are never asked;
 * options and values with control characters or over {@value #MAX_TEXT} characters are dropped and lists over
 * {@value #MAX_OPTIONS} options cut, with a warning. Time budgets are the caller's (the engine gets
 * {@link Ask#deadlineNanos()}). Thread-safe.
 *
 * <p>Logging: an engine's exception is logged with its class and top {@value #FRAMES} frames, at most one line
 * per {@link #LOG_INTERVAL} per engine with a count of the ones held back (failures by kind: errors, unusable
 * answers, timeouts); its message only when the tenant sets {@code log_queries}, since a message may quote the
 * query.
 */
public final class GuardedEngine implements AutoCloseable {

    /** Options and values longer than this are dropped (the SPI's documented limit). */
    public static final int MAX_TEXT = 200;
    /** More options than this in one answer is an engine bug, not a long list: the rest is cut. */
    public static final int MAX_OPTIONS = 10_000;

    /** The name of the core's own param source, the catalogs ({@link #core}): no plug-in may take it. */
    public static final String CORE_SOURCE = "catalogs";
    /** At most one log line per engine and kind of trouble in this time. */
    static final Duration LOG_INTERVAL = Duration.ofSeconds(10);

    static final int FRAMES = 5;

    private static final System.Logger LOG = System.getLogger(GuardedEngine.class.getName());
    /** The kinds of failure the failure log counts apart when it holds lines back, by index. */
    private static final int THREW = 0;

    private static final int INVALID = 1;
    private static final int TIMED_OUT = 2;
    private static final String[][] FAILURE_KINDS = {
        {"error", "errors"}, {"unusable answer", "unusable answers"}, {"timeout", "timeouts"}
    };

    private final String where;
    /** {@code  [engine-repos.jar version 1.2.0 (sha256 3f9a0c71be42)]}, or empty for a built-in engine. */
    private final String build;

    private final String engineName;
    private final Engine engine;
    private final ClassLoader tenantLoader;
    private final boolean logQueries;
    private final Set<String> paramTypes;
    private final boolean cacheable;
    private final boolean learnsFromPicks;
    private final Circuit circuit;
    private final LogThrottle failureLog;
    private final LogThrottle outputLog;
    /** Options and values longer than this are dropped: {@link #MAX_TEXT}, or the core catalogs' own limit. */
    private final int maxText;

    /**
     * @param engine the engine, created by its factory for this product
     * @param tenantLoader the thread context class loader for every call
     * @param circuitFailures failures in a row that open the circuit
     * @param circuitOpen how long an open circuit answers without the engine before one trial call
     * @param logQueries whether the tenant allows query text in logs ({@code log_queries})
     * @param build the name and version of the engine's JAR as the load line gives it, which its log lines name
     *     ({@code engine-repos.jar version 1.2.0 (sha256 3f9a0c71be42)}); null for a built-in engine
     */
    public GuardedEngine(
            String tenantId,
            String productSlug,
            String engineName,
            Engine engine,
            ClassLoader tenantLoader,
            int circuitFailures,
            Duration circuitOpen,
            boolean logQueries,
            String build) {
        this(
                tenantId,
                productSlug,
                engineName,
                engine,
                tenantLoader,
                circuitFailures,
                circuitOpen,
                logQueries,
                LOG_INTERVAL,
                MAX_TEXT,
                build);
    }

    /**
     * The core's own source of catalog options, whose texts the catalogs checked when they were written or loaded
     * (up to {@code maxText} characters, as the records API accepts them): a text the API took is also shown.
     */
    public static GuardedEngine core(
            String tenantId,
            String productSlug,
            String engineName,
            Engine engine,
            int circuitFailures,
            Duration circuitOpen,
            boolean logQueries,
            int maxText) {
        return new GuardedEngine(
                tenantId,
                productSlug,
                engineName,
                engine,
                GuardedEngine.class.getClassLoader(),
                circuitFailures,
                circuitOpen,
                logQueries,
                LOG_INTERVAL,
                maxText,
                null);
    }

    /** @param logInterval at most one log line per engine and kind of trouble in this time (tests shorten it) */
    GuardedEngine(
            String tenantId,
            String productSlug,
            String engineName,
            Engine engine,
            ClassLoader tenantLoader,
            int circuitFailures,
            Duration circuitOpen,
            boolean logQueries,
            Duration logInterval,
            int maxText,
            String build) {
        this.maxText = maxText;
        // Which build failed, as the load line named it: a JAR replaced since says another version.
        this.build = build == null ? "" : " [" + build + "]";
        this.where = "Engine '" + requireNonNull(engineName, "engineName is null") + "' of "
                + requireNonNull(tenantId, "tenantId is null") + "/"
                + requireNonNull(productSlug, "productSlug is null") + this.build;
        this.engineName = engineName;
        this.engine = requireNonNull(engine, "engine is null");
        this.tenantLoader = requireNonNull(tenantLoader, "tenantLoader is null");
        this.logQueries = logQueries;
        this.circuit = new Circuit(circuitFailures, circuitOpen);
        this.failureLog = new LogThrottle(logInterval, FAILURE_KINDS.length);
        this.outputLog = new LogThrottle(logInterval);
        this.paramTypes = declaredTypes();
        this.cacheable = declaredCacheable();
        this.learnsFromPicks = declaredLearning();
    }

    /** The engine's name, as params name it. */
    public String name() {
        return engineName;
    }

    /** The engine's JAR and its version for a log line, {@code " [engine-repos.jar version 1.2.0 (...)]"}, or empty. */
    String build() {
        return build;
    }

    /** The param types the engine serves, read once when it was created; empty when it failed to say. */
    public Set<String> paramTypes() {
        return paramTypes;
    }

    /** Whether the engine's answers may be cached, read once when it was created. */
    public boolean cacheable() {
        return cacheable;
    }

    /**
     * Whether picks of the engine's options may be learned from ({@link Engine#learnsFromPicks}), read once when it was
     * created; true when it failed to say (logged).
     */
    public boolean learnsFromPicks() {
        return learnsFromPicks;
    }

    /** The circuit's state now: {@code closed}, {@code open} or {@code half_open}. */
    public String circuitState() {
        return circuit.state(System.nanoTime()).name().toLowerCase(Locale.ROOT);
    }

    /**
     * How each span reads as a value of {@code ask.type()}: one answer per span, in order; all
     * {@link SpanMatch#NONE} when the engine does not serve the type or could not answer.
     */
    public List<SpanMatch> match(Ask ask, List<String> spans, EngineCalls calls) {
        if (spans.isEmpty() || !paramTypes.contains(ask.type())) {
            return nones(spans.size());
        }
        List<SpanMatch> answer = call(
                "match",
                () -> engine.match(ask, spans),
                a -> a.size() == spans.size() ? null : a.size() + " answers for " + spans.size() + " spans",
                ask,
                calls);
        return answer == null ? nones(spans.size()) : checkedMatches(ask.type(), answer);
    }

    /**
     * The options to offer for {@code ask.type()}, best first, checked and at most {@value #MAX_OPTIONS}; empty
     * when the engine does not serve the type or could not answer.
     */
    public List<Option> options(Ask ask, String typed, EngineCalls calls) {
        if (!paramTypes.contains(ask.type())) {
            return List.of();
        }
        List<Option> answer = call("options", () -> engine.options(ask, typed), a -> null, ask, calls);
        return answer == null ? List.of() : checkedOptions(ask.type(), answer);
    }

    /**
     * Whether the context's filters keep the option of this text ({@link ContextFilters}); true for an engine without
     * filters of the core's. Not guarded: only the core's own engines answer it.
     */
    public boolean keeps(Ask ask, String text) {
        return !(engine instanceof ContextFilters filters) || filters.keeps(ask, text);
    }

    /** Whether the context's filters apply to the asked type ({@link ContextFilters}); false for other engines. */
    public boolean filters(Ask ask) {
        return engine instanceof ContextFilters filters && filters.filters(ask);
    }

    /** Which options the context's boosts favour, by text ({@link ContextFilters}); null for other engines. */
    public Predicate<String> boosted(Ask ask) {
        return engine instanceof ContextFilters filters ? filters.boosted(ask) : null;
    }

    /**
     * Calls the engine behind its circuit, with the tenant's class loader; null when the circuit is open, the engine
     * threw, answered null, or answered something {@code invalid} names (null when the answer is usable). The
     * answer is copied within the call: a list of the engine's own class may compute its elements when read (or
     * throw then), and that is the engine's time and the engine's failure, not the server's.
     */
    private <E> List<E> call(
            String method, Supplier<List<E>> call, Function<List<E>, String> invalid, Ask ask, EngineCalls calls) {
        if (!circuit.allow(System.nanoTime())) {
            calls.refused(this);
            return null;
        }
        long start = System.nanoTime();
        List<E> answer;
        calls.started(this, start);
        ClassLoader previous = enter();
        try {
            List<E> given = call.get();
            answer = given == null ? null : Collections.unmodifiableList(new ArrayList<>(given));
        } catch (Exception | LinkageError | AssertionError e) {
            failed(calls, start, EngineCalls.Failure.THREW, method, e);
            return null;
        } finally {
            leave(previous);
        }
        String problem = answer == null ? "null" : invalid.apply(answer);
        if (problem != null) {
            failed(calls, start, EngineCalls.Failure.INVALID, method, problem);
            return null;
        }
        succeeded(calls, start, ask.deadlineNanos());
        return answer;
    }

    /**
     * Counts a failure the caller saw: the request's budget ran out while this engine was answering (the call
     * goes on, on the abandoned reading's thread, and is counted again when it ends).
     */
    public void timedOut() {
        long now = System.nanoTime();
        Circuit.Change change = circuit.timedOut(now);
        int[] heldBack = failureLog.admit(now, TIMED_OUT);
        if (heldBack != null) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    where + " took most of a request's budget, which ran out" + heldBack(heldBack));
        }
        logChange(change);
    }

    /**
     * A reading that asked this engine finished within its budget: ends its row of readings that ran out of time on
     * it (a call answered in time does not: {@link Circuit}).
     */
    void readingInTime() {
        circuit.readingInTime();
    }

    /** Closes the engine; what it throws is logged. */
    @Override
    public void close() {
        ClassLoader previous = enter();
        try {
            engine.close();
        } catch (Exception | LinkageError | AssertionError e) {
            LOG.log(System.Logger.Level.WARNING, where + " failed to close: " + describe(e));
        } finally {
            leave(previous);
        }
    }

    private Set<String> declaredTypes() {
        ClassLoader previous = enter();
        try {
            Set<String> types = engine.paramTypes();
            return types == null ? Set.of() : Set.copyOf(types);
        } catch (Exception | LinkageError | AssertionError e) {
            LOG.log(System.Logger.Level.WARNING, where + " failed to list its param types: " + describe(e));
            return Set.of();
        } finally {
            leave(previous);
        }
    }

    private boolean declaredLearning() {
        ClassLoader previous = enter();
        try {
            return engine.learnsFromPicks();
        } catch (Exception | LinkageError | AssertionError e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    where + " failed to say whether picks of its options are learned from: " + describe(e));
            return true;
        } finally {
            leave(previous);
        }
    }

    private boolean declaredCacheable() {
        ClassLoader previous = enter();
        try {
            return engine.cacheable();
        } catch (Exception | LinkageError | AssertionError e) {
            LOG.log(System.Logger.Level.WARNING, where + " failed to say whether it is cacheable: " + describe(e));
            return false;
        } finally {
            leave(previous);
        }
    }

    private ClassLoader enter() {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(tenantLoader);
        return previous;
    }

    private static void leave(ClassLoader previous) {
        Thread.currentThread().setContextClassLoader(previous);
    }

    private void succeeded(EngineCalls calls, long start, long deadline) {
        long now = System.nanoTime();
        if (now - deadline > 0) {
            circuit.answeredLate();
        } else {
            logChange(circuit.succeeded());
        }
        calls.finished(this, now - start, null);
    }

    private void failed(EngineCalls calls, long start, EngineCalls.Failure failure, String method, Object why) {
        long now = System.nanoTime();
        Circuit.Change change = circuit.failed(now);
        calls.finished(this, now - start, failure);
        int[] heldBack = failureLog.admit(now, failure == EngineCalls.Failure.THREW ? THREW : INVALID);
        if (heldBack != null) {
            String what = why instanceof Throwable e ? "threw " + describe(e) : "answered " + why;
            LOG.log(System.Logger.Level.WARNING, where + " failed in " + method + ": " + what + heldBack(heldBack));
        }
        logChange(change);
    }

    /**
     * One line when the circuit opens or closes: at most one opening per open period, so it needs no throttle. The
     * health report shows the state meanwhile ({@link #circuitState}).
     */
    private void logChange(Circuit.Change change) {
        switch (change) {
            case OPENED ->
                LOG.log(
                        System.Logger.Level.WARNING,
                        where + ": circuit opened after " + circuit.failureThreshold()
                                + " failures in a row; its params" + " offer nothing for "
                                + seconds(circuit.openPeriod()) + ", then one trial call");
            case OPENED_BY_TIMEOUTS ->
                LOG.log(
                        System.Logger.Level.WARNING,
                        where + ": circuit opened after " + circuit.timeoutsInARow()
                                + " readings in a row ran out of time on it (its calls that answered in time do not"
                                + " end that row); its params offer nothing for " + seconds(circuit.openPeriod())
                                + ", then one trial call");
            case OPENED_AGAIN ->
                LOG.log(
                        System.Logger.Level.WARNING,
                        where + ": circuit opened again, its trial call failed; its params offer nothing for "
                                + seconds(circuit.openPeriod()) + ", then another trial call");
            case CLOSED -> LOG.log(System.Logger.Level.INFO, where + ": circuit closed, its trial call succeeded");
            case NONE -> {}
        }
    }

    private static String seconds(Duration period) {
        return period.toMillis() % 1000 == 0 ? period.toSeconds() + " s" : period.toMillis() + " ms";
    }

    /** Drops values the server cannot show; the rest as answered. */
    private List<SpanMatch> checkedMatches(String type, List<SpanMatch> answer) {
        List<SpanMatch> kept = null;
        int dropped = 0;
        for (int i = 0; i < answer.size(); i++) {
            SpanMatch match = answer.get(i);
            if (match == null || match.value() != null && !showable(match.value(), maxText)) {
                if (kept == null) {
                    kept = new ArrayList<>(answer);
                }
                kept.set(i, SpanMatch.NONE);
                dropped++;
            }
        }
        if (dropped > 0) {
            warn(dropped + " span answers for type '" + type + "' were null, or read as values with control"
                    + " characters or over " + maxText + " characters; read as no match");
        }
        return kept == null ? answer : Collections.unmodifiableList(kept);
    }

    /** Drops null and unshowable options and cuts what is over {@link #MAX_OPTIONS}. */
    private List<Option> checkedOptions(String type, List<Option> answer) {
        int size = answer.size();
        List<Option> kept = new ArrayList<>(Math.min(size, MAX_OPTIONS));
        int dropped = 0;
        for (int i = 0; i < size && kept.size() < MAX_OPTIONS; i++) {
            Option option = answer.get(i);
            if (option != null && showable(option.text(), maxText)) {
                kept.add(option);
            } else {
                dropped++;
            }
        }
        int cut = size - kept.size() - dropped;
        if (dropped > 0 || cut > 0) {
            warn((dropped > 0
                            ? dropped + " options for type '" + type + "' were null, or had control characters or"
                                    + " over " + maxText + " characters (dropped)"
                            : "")
                    + (dropped > 0 && cut > 0 ? "; " : "")
                    + (cut > 0 ? size + " options for type '" + type + "' are over " + MAX_OPTIONS + " (cut)" : ""));
        }
        return kept.size() == size ? answer : kept;
    }

    private void warn(String message) {
        int heldBack = outputLog.admit(System.nanoTime());
        if (heldBack >= 0) {
            // Held back: answers with any of the output's faults, not only this line's.
            String more = heldBack == 0
                    ? ""
                    : " (and " + heldBack + " more bad answer" + (heldBack == 1 ? "" : "s") + " since the last line)";
            LOG.log(System.Logger.Level.WARNING, where + " answered badly: " + message + more);
        }
    }

    private static String heldBack(int count) {
        return count == 0 ? "" : " (and " + count + " more like it since the last line)";
    }

    /** The failures held back, by kind: {@code (held back since the last line: 3 errors and 2 timeouts)}. */
    private static String heldBack(int[] byKind) {
        List<String> counts = new ArrayList<>();
        for (int i = 0; i < byKind.length; i++) {
            if (byKind[i] > 0) {
                counts.add(byKind[i] + " " + FAILURE_KINDS[i][byKind[i] == 1 ? 0 : 1]);
            }
        }
        if (counts.isEmpty()) {
            return "";
        }
        String last = counts.removeLast();
        return " (held back since the last line: " + (counts.isEmpty() ? "" : String.join(", ", counts) + " and ")
                + last + ")";
    }

    /** Text that fits on one line of a suggestion. */
    static boolean showable(String text) {
        return showable(text, MAX_TEXT);
    }

    private static boolean showable(String text, int maxText) {
        if (text.length() > maxText) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u2028' || c == '\u2029') {
                return false;
            }
        }
        return true;
    }

    /** The exception's class and top frames; its message only where the tenant allows query text in logs. */
    private String describe(Throwable e) {
        return describe(e, logQueries);
    }

    /**
     * One log line for an engine's exception: its class, its message when {@code withMessage} (an engine's message
     * may quote what was typed; control characters blanked) and its first {@value #FRAMES} frames above the server's
     * own call of the engine (the guard's frames said nothing to the engine's author, and took three of the five).
     */
    public static String describe(Throwable e, boolean withMessage) {
        StringBuilder line = new StringBuilder(e.getClass().getName());
        if (withMessage && e.getMessage() != null) {
            line.append(": ").append(e.getMessage().replaceAll("\\p{Cntrl}", " "));
        }
        StackTraceElement[] frames = e.getStackTrace();
        for (int i = 0; i < Math.min(FRAMES, frames.length) && (i == 0 || !callsEngines(frames[i])); i++) {
            line.append(i == 0 ? " at " : " < ").append(frames[i]);
        }
        return line.toString();
    }

    /** Whether a frame is the server's calling an engine: the guard's, or the loader's that creates engines. */
    private static boolean callsEngines(StackTraceElement frame) {
        String type = frame.getClassName();
        for (String caller : ENGINE_CALLERS) {
            if (type.equals(caller) || type.startsWith(caller + "$")) {
                return true;
            }
        }
        return false;
    }

    private static final List<String> ENGINE_CALLERS =
            List.of(GuardedEngine.class.getName(), "dev.autocomplete.server.tenant.TenantLoader");

    private static List<SpanMatch> nones(int count) {
        return Collections.nCopies(count, SpanMatch.NONE);
    }
}
