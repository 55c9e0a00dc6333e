package dev.autocomplete.server.engines;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What happened to the engines during one piece of work: the reading records it (through {@link GuardedEngine})
 * and {@link EngineRunner} hands the caller an immutable {@link Summary} of it afterwards, to log, count and
 * decide whether to cache. Per engine name: calls, time spent, failures by kind; and whether an engine whose
 * answers must not be cached answered.
 *
 * <p>Not thread-safe, on purpose: the work runs on one thread. Only {@link #inProgress()} is read by another
 * thread (the runner waiting out the budget), to blame the engine it ran out in.
 */
public final class EngineCalls {

    /** Calls, failures and time of one engine in one piece of work. */
    public record Tally(int calls, long nanos, int threw, int invalid, int circuitOpen) {

        static final Tally NONE = new Tally(0, 0, 0, 0, 0);

        /** Every question this engine could not answer: it threw, answered unusably, or its circuit was open. */
        public int failures() {
            return threw + invalid + circuitOpen;
        }
    }

    /**
     * What the engines did, as a value.
     *
     * @param byEngine per engine name, in first-call order
     * @param uncacheable whether an engine whose answers must not be cached answered
     */
    public record Summary(java.util.SequencedMap<String, Tally> byEngine, boolean uncacheable) {

        public Summary {
            byEngine = java.util.Collections.unmodifiableSequencedMap(new LinkedHashMap<>(byEngine));
        }

        /** Whether an engine failed a question. */
        public boolean failed() {
            return byEngine.values().stream().anyMatch(tally -> tally.failures() > 0);
        }

        /** Whether a response built from these answers may be cached: every engine answered, all cacheable. */
        public boolean cacheable() {
            return !uncacheable && !failed();
        }

        /** Time spent in every engine. */
        public long totalNanos() {
            return byEngine.values().stream().mapToLong(Tally::nanos).sum();
        }
    }

    /** Why an engine call gave no usable answer. */
    enum Failure { THREW, INVALID }

    private final Map<String, Tally> byEngine = new LinkedHashMap<>();
    private volatile GuardedEngine inProgress;
    private boolean uncacheable;

    EngineCalls() {
    }

    Summary summary() {
        return new Summary(new LinkedHashMap<>(byEngine), uncacheable);
    }

    /** The engine being called right now, or null: the one to blame when the budget runs out. */
    GuardedEngine inProgress() {
        return inProgress;
    }

    void started(GuardedEngine engine) {
        inProgress = engine;
    }

    /** Records one call that reached the engine; {@code failure} null when it answered. */
    void finished(GuardedEngine engine, long nanos, Failure failure) {
        inProgress = null;
        Tally was = byEngine.getOrDefault(engine.name(), Tally.NONE);
        byEngine.put(engine.name(), new Tally(was.calls() + 1, was.nanos() + nanos,
                was.threw() + (failure == Failure.THREW ? 1 : 0), was.invalid() + (failure == Failure.INVALID ? 1 : 0),
                was.circuitOpen()));
        if (failure == null && !engine.cacheable()) {
            uncacheable = true;
        }
    }

    /** Records a question the engine's open circuit answered without calling it. */
    void refused(GuardedEngine engine) {
        Tally was = byEngine.getOrDefault(engine.name(), Tally.NONE);
        byEngine.put(engine.name(), new Tally(was.calls(), was.nanos(), was.threw(), was.invalid(),
                was.circuitOpen() + 1));
    }
}
