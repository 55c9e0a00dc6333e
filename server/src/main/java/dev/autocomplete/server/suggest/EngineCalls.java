package dev.autocomplete.server.suggest;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What happened to the engines during one request: a value the reading fills in (through {@link GuardedEngine})
 * and the top layer reads afterwards to log, count and decide whether to cache. Per engine name: calls, time
 * spent, failures by kind; and whether an engine whose answers must not be cached answered.
 *
 * <p>Not thread-safe, on purpose: a request's reading runs on one thread. Only {@link #inProgress()} may be
 * read by another thread (the one waiting out the request's budget), to blame the engine it ran out in.
 */
public final class EngineCalls {

    /** Calls, failures and time of one engine in this request. */
    public static final class Tally {
        private int calls;
        private long nanos;
        private int threw;
        private int invalid;
        private int circuitOpen;

        /** Calls that reached the engine (not those its open circuit refused). */
        public int calls() {
            return calls;
        }

        /** Every question this engine could not answer: it threw, answered unusably, or its circuit was open. */
        public int failures() {
            return threw + invalid + circuitOpen;
        }

        /** Time spent in the engine. */
        public long nanos() {
            return nanos;
        }

        /** Calls that threw. */
        public int threw() {
            return threw;
        }

        /** Calls that answered null or a list of the wrong size. */
        public int invalid() {
            return invalid;
        }

        /** Questions answered without the engine because its circuit was open. */
        public int circuitOpen() {
            return circuitOpen;
        }
    }

    /** Why an engine call gave no usable answer. */
    enum Failure { THREW, INVALID }

    private final Map<String, Tally> byEngine = new LinkedHashMap<>();
    private volatile GuardedEngine inProgress;
    private boolean uncacheable;

    /** Per engine name, what it did in this request, in first-call order. */
    public Map<String, Tally> byEngine() {
        return byEngine;
    }

    /** Whether an engine whose answers must not be cached answered in this request. */
    public boolean uncacheable() {
        return uncacheable;
    }

    /** Whether a response built from these answers may be cached: every engine answered, all cacheable. */
    public boolean cacheable() {
        return !uncacheable && byEngine.values().stream().allMatch(tally -> tally.failures() == 0);
    }

    /** Time spent in every engine. */
    public long totalNanos() {
        long total = 0;
        for (Tally tally : byEngine.values()) {
            total += tally.nanos;
        }
        return total;
    }

    /** The engine being called right now, or null: the one to blame when the request's budget runs out. */
    public GuardedEngine inProgress() {
        return inProgress;
    }

    void started(GuardedEngine engine) {
        inProgress = engine;
    }

    /** Records one call that reached the engine; {@code failure} null when it answered. */
    void finished(GuardedEngine engine, long nanos, Failure failure) {
        inProgress = null;
        Tally tally = tally(engine.name());
        tally.calls++;
        tally.nanos += nanos;
        if (failure == Failure.THREW) {
            tally.threw++;
        } else if (failure == Failure.INVALID) {
            tally.invalid++;
        } else if (!engine.cacheable()) {
            uncacheable = true;
        }
    }

    /** Records a question the engine's open circuit answered without calling it. */
    void refused(GuardedEngine engine) {
        tally(engine.name()).circuitOpen++;
    }

    private Tally tally(String engine) {
        Tally tally = byEngine.get(engine);
        if (tally == null) {
            tally = new Tally();
            byEngine.put(engine, tally);
        }
        return tally;
    }
}
