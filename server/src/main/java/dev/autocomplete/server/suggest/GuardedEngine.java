package dev.autocomplete.server.suggest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;

/**
 * One engine of one product, as the core calls it: with the tenant's class loader, behind a circuit of its own
 * (a failing date engine costs only the date param), its output checked. Never throws. Thread-safe.
 */
public final class GuardedEngine implements AutoCloseable {

    /** More options than this in one answer is an engine bug, not a long list to cut. */
    public static final int MAX_OPTIONS = 10_000;
    /** Longest option text shown; longer ones are dropped. */
    public static final int MAX_OPTION_CHARS = 200;

    private static final System.Logger LOG = System.getLogger(GuardedEngine.class.getName());

    private final String tenantId;
    private final String productSlug;
    private final String name;
    private final Engine engine;
    private final ClassLoader tenantLoader;
    private final Circuit circuit;
    private final Set<String> paramTypes;
    private final boolean cacheable;

    public GuardedEngine(String tenantId, String productSlug, String name, Engine engine, ClassLoader tenantLoader,
            int circuitFailures, Duration circuitOpen, boolean logQueries) {
        this.tenantId = tenantId;
        this.productSlug = productSlug;
        this.name = name;
        this.engine = engine;
        this.tenantLoader = tenantLoader;
        this.circuit = new Circuit(circuitFailures, circuitOpen);
        this.paramTypes = Set.copyOf(call(engine::paramTypes, Set.of()));
        this.cacheable = call(engine::cacheable, false);
    }

    public String name() {
        return name;
    }

    public Set<String> paramTypes() {
        return paramTypes;
    }

    public boolean cacheable() {
        return cacheable;
    }

    /** The circuit's state: {@code closed}, {@code open} or {@code half_open}. */
    public String circuitState() {
        return circuit.state(System.nanoTime()).name().toLowerCase(java.util.Locale.ROOT);
    }

    /** How each span reads; all {@link SpanMatch#NONE} when the engine fails or its circuit is open. */
    public List<SpanMatch> match(Ask ask, List<String> spans, EngineCalls calls) {
        List<SpanMatch> none = Collections.nCopies(spans.size(), SpanMatch.NONE);
        List<SpanMatch> answer = guarded(() -> engine.match(ask, spans), calls);
        if (answer == null || answer.size() != spans.size() || answer.contains(null)) {
            if (answer != null) {
                failed("gave " + answer.size() + " answers for " + spans.size() + " spans", null);
            }
            return none;
        }
        return answer;
    }

    /** The options offered; none when the engine fails or its circuit is open. */
    public List<Option> options(Ask ask, String typed, EngineCalls calls) {
        List<Option> answer = guarded(() -> engine.options(ask, typed), calls);
        if (answer == null) {
            return List.of();
        }
        if (answer.size() > MAX_OPTIONS) {
            failed("gave " + answer.size() + " options", null);
            return List.of();
        }
        List<Option> kept = new ArrayList<>(Math.min(answer.size(), ask.limit()));
        for (Option option : answer) {
            if (option != null && option.text().length() <= MAX_OPTION_CHARS && !hasControl(option.text())) {
                kept.add(option);
            }
        }
        return kept;
    }

    /** Counts a failure the caller saw (the request's budget ran out inside this engine). */
    public void timedOut() {
        circuit.failed(System.nanoTime());
        LOG.log(System.Logger.Level.WARNING, "Engine " + name + " of " + tenantId + "/" + productSlug
                + " did not answer within the request's budget");
    }

    private <T> T guarded(Supplier<T> call, EngineCalls calls) {
        long start = System.nanoTime();
        if (!circuit.allow(start)) {
            return null;
        }
        calls.started(this);
        T answer = null;
        boolean failed = true;
        try {
            answer = call(call, null);
            failed = answer == null;
            return answer;
        } finally {
            long nanos = System.nanoTime() - start;
            calls.finished(this, nanos, failed);
            if (failed) {
                circuit.failed(System.nanoTime());
            } else {
                circuit.succeeded();
            }
        }
    }

    private <T> T call(Supplier<T> call, T onFailure) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(tenantLoader);
        try {
            return call.get();
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            failed("failed", e);
            return onFailure;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private void failed(String what, Throwable e) {
        // The class only: an engine's message might quote the query.
        LOG.log(System.Logger.Level.WARNING, "Engine " + name + " of " + tenantId + "/" + productSlug + " " + what
                + (e == null ? "" : ": " + e.getClass().getName()));
    }

    private static boolean hasControl(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        call(() -> {
            engine.close();
            return null;
        }, null);
    }
}
