package dev.autocomplete.server.engines;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What happened to the engines during one piece of work: the reading records it (through {@link GuardedEngine})
 * and {@link EngineRunner} hands the caller an immutable {@link Summary} of it afterwards, to log, count and
 * decide whether to cache. Per engine name: calls, time spent, failures by kind; and whether an engine whose
 * answers must not be cached answered.
 *
 * <p>The work runs on one thread; the runner waiting out the budget reads this too when the budget runs out
 * ({@link #blame}), while the abandoned work may still be calling engines: what they share is guarded by this
 * object's lock, taken once per engine call (uncontended but for that moment).
 */
public final class EngineCalls {

    /** Calls, failures and time of one engine in one piece of work. */
    public record Tally(int calls, long nanos, int threw, int invalid, int circuitOpen) {

        static final Tally NONE = new Tally(0, 0, 0, 0, 0);

        /** Every question this engine could not answer: it threw, answered unusably, or its circuit was open. */
        public int failures() {
            return threw + invalid + circuitOpen;
        }

        /** What came of asking it, for metrics. */
        EngineOutcome outcome() {
            return threw > 0
                    ? EngineOutcome.ERROR
                    : invalid > 0
                            ? EngineOutcome.INVALID
                            : circuitOpen > 0 ? EngineOutcome.CIRCUIT_OPEN : EngineOutcome.OK;
        }
    }

    /**
     * What one engine did in one piece of work, for metrics: its outcome and the time spent in it.
     *
     * @param engine the engine's name
     * @param outcome {@code TIMEOUT} when it is the engine the budget ran out on ({@link #blame}); else
     *     {@code ERROR}, {@code INVALID} or {@code CIRCUIT_OPEN} when a question to it failed so, or {@code OK}
     * @param nanos time spent in its calls (with the running one's time so far, for the blamed engine)
     */
    public record Use(String engine, EngineOutcome outcome, long nanos) {}

    /**
     * What the engines did, as a value.
     *
     * @param byEngine per engine name, in first-call order
     * @param uncacheable whether an engine whose answers must not be cached answered
     * @param uses each engine's use, in first-call order; after a timeout, as it stood when the engine was blamed
     */
    public record Summary(java.util.SequencedMap<String, Tally> byEngine, boolean uncacheable, List<Use> uses) {

        public Summary {
            byEngine = java.util.Collections.unmodifiableSequencedMap(new LinkedHashMap<>(byEngine));
            uses = List.copyOf(uses);
        }

        /** Whether an engine failed a question. */
        public boolean failed() {
            for (Tally tally : byEngine.values()) {
                if (tally.failures() > 0) {
                    return true;
                }
            }
            return false;
        }

        /**
         * What came of the questions, over every engine: {@code ERROR} when one threw, else {@code INVALID} when one
         * answered unusably, else {@code CIRCUIT_OPEN} when one's circuit was open, else {@code OK}.
         */
        public EngineOutcome outcome() {
            int threw = 0;
            int invalid = 0;
            int circuitOpen = 0;
            for (Tally tally : byEngine.values()) {
                threw += tally.threw();
                invalid += tally.invalid();
                circuitOpen += tally.circuitOpen();
            }
            return new Tally(0, 0, threw, invalid, circuitOpen).outcome();
        }

        /** Whether a response built from these answers may be cached: every engine answered, all cacheable. */
        public boolean cacheable() {
            return !uncacheable && !failed();
        }

        /** Questions asked of the engines (calls that reached one; a batch of spans is one). */
        public int questions() {
            int questions = 0;
            for (Tally tally : byEngine.values()) {
                questions += tally.calls();
            }
            return questions;
        }

        /** Time spent in every engine. */
        public long totalNanos() {
            return byEngine.values().stream().mapToLong(Tally::nanos).sum();
        }
    }

    /** Why an engine call gave no usable answer. */
    enum Failure {
        THREW,
        INVALID
    }

    private final LinkedHashMap<String, Tally> byEngine = new LinkedHashMap<>();
    private final Map<String, GuardedEngine> engines = new HashMap<>();
    private volatile GuardedEngine inProgress;
    private volatile long inProgressSince;
    private boolean uncacheable;
    private List<Use> blamedUses;

    EngineCalls() {}

    /** What the engines did; after {@link #blame}, the uses as they stood then. */
    synchronized Summary summary() {
        return new Summary(byEngine, uncacheable, blamedUses != null ? blamedUses : uses(null, null, 0));
    }

    /**
     * The engine to blame when the budget ran out at {@code now}: the one that took most of the time, counting the
     * time so far of the call still running. Not simply the one running: a plug-in that spent the budget in earlier
     * calls leaves the next engine (often the core's catalogs) running when time is up, and that one is not why the
     * work is late. Freezes the summary's uses with the blamed engine's outcome as {@code TIMEOUT}. Null when no
     * engine was asked.
     */
    synchronized GuardedEngine blame(long now) {
        GuardedEngine running = inProgress;
        long runningNanos = running == null ? 0 : now - inProgressSince;
        GuardedEngine blamed = running;
        long most = runningNanos;
        for (Map.Entry<String, Tally> entry : byEngine.entrySet()) {
            GuardedEngine engine = engines.get(entry.getKey());
            long nanos = entry.getValue().nanos() + (engine == running ? runningNanos : 0);
            if (nanos > most || blamed == null) {
                blamed = engine;
                most = nanos;
            }
        }
        blamedUses = uses(blamed, running, runningNanos);
        return blamed;
    }

    /**
     * The work finished within its budget: tells each engine that answered a call of it ({@link
     * GuardedEngine#readingInTime}); not one whose circuit refused every question.
     */
    synchronized void inTime() {
        for (Map.Entry<String, Tally> entry : byEngine.entrySet()) {
            if (entry.getValue().calls() > 0) {
                engines.get(entry.getKey()).readingInTime();
            }
        }
    }

    void started(GuardedEngine engine, long now) {
        inProgressSince = now; // before inProgress: whoever sees the engine sees its start
        inProgress = engine;
    }

    /** Records one call that reached the engine; {@code failure} null when it answered. */
    synchronized void finished(GuardedEngine engine, long nanos, Failure failure) {
        inProgress = null;
        Tally was = tally(engine);
        byEngine.put(
                engine.name(),
                new Tally(
                        was.calls() + 1,
                        was.nanos() + nanos,
                        was.threw() + (failure == Failure.THREW ? 1 : 0),
                        was.invalid() + (failure == Failure.INVALID ? 1 : 0),
                        was.circuitOpen()));
        if (failure == null && !engine.cacheable()) {
            uncacheable = true;
        }
    }

    /** Records a question the engine's open circuit answered without calling it. */
    synchronized void refused(GuardedEngine engine) {
        Tally was = tally(engine);
        byEngine.put(
                engine.name(), new Tally(was.calls(), was.nanos(), was.threw(), was.invalid(), was.circuitOpen() + 1));
    }

    private Tally tally(GuardedEngine engine) {
        engines.putIfAbsent(engine.name(), engine);
        return byEngine.getOrDefault(engine.name(), Tally.NONE);
    }

    /** Each engine's use; {@code blamed} timed out, when not null; {@code running} for {@code runningNanos} more. */
    private List<Use> uses(GuardedEngine blamed, GuardedEngine running, long runningNanos) {
        List<Use> uses = new ArrayList<>(byEngine.size() + 1);
        boolean runningFound = false;
        for (Map.Entry<String, Tally> entry : byEngine.entrySet()) {
            GuardedEngine engine = engines.get(entry.getKey());
            long nanos = entry.getValue().nanos();
            if (engine == running) {
                runningFound = true;
                nanos += runningNanos;
            }
            uses.add(new Use(
                    entry.getKey(),
                    engine == blamed ? EngineOutcome.TIMEOUT : entry.getValue().outcome(),
                    nanos));
        }
        if (running != null && !runningFound) { // still in its first call
            uses.add(new Use(
                    running.name(), running == blamed ? EngineOutcome.TIMEOUT : EngineOutcome.OK, runningNanos));
        }
        return uses;
    }
}
