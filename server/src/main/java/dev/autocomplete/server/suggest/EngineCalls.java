package dev.autocomplete.server.suggest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What happened to the engines during one request: a value the reading fills in (through {@link GuardedEngine})
 * and the top layer reads afterwards to log, count and decide whether to cache. Per engine name: calls, time
 * spent, failures by kind; and whether an engine whose answers must not be cached answered.
 *
 * <p>A request's reading runs on one thread; the thread waiting out the request's budget reads it too, when the
 * budget runs out ({@link #blame}) while the abandoned reading may still be calling engines: what they share is
 * guarded by this object's lock, taken once per engine call (uncontended but for that moment).
 */
public final class EngineCalls {

    /**
     * What one engine did in one request, for metrics: its outcome and the time spent in it.
     *
     * @param engine the engine's name
     * @param outcome {@code TIMEOUT} when it is the engine the request's budget ran out on ({@link #blame});
     *     else {@code ERROR}, {@code INVALID} or {@code CIRCUIT_OPEN} when a question to it failed so, or {@code OK}
     * @param nanos time spent in its calls (with the running one's time so far, for the blamed engine)
     */
    public record Use(String engine, EngineOutcome outcome, long nanos) {
    }

    /** Calls, failures and time of one engine in this request. */
    public static final class Tally {
        private final GuardedEngine engine;
        private int calls;
        private long nanos;
        private int threw;
        private int invalid;
        private int circuitOpen;

        private Tally(GuardedEngine engine) {
            this.engine = engine;
        }

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
    private volatile long inProgressSince;
    private boolean uncacheable;
    private List<Use> blamedUses;

    /**
     * Per engine name, what it did in this request, in first-call order. Read it once the reading is done (not
     * after a timeout, when the abandoned reading may still write it: use {@link #uses()} then).
     */
    public Map<String, Tally> byEngine() {
        return byEngine;
    }

    /**
     * What each engine did in this request, in first-call order; after {@link #blame}, as it stood then.
     */
    public synchronized List<Use> uses() {
        if (blamedUses != null) {
            return blamedUses;
        }
        return uses(null, null, 0);
    }

    /**
     * The engine to blame when the request's budget ran out at {@code now}: the one that took most of the
     * request's time, counting the time so far of the call still running. Not simply the one running: a plug-in
     * that spent the budget in earlier calls leaves the next engine (often the core's catalogs) running when time
     * is up, and that one is not why the request is late. Freezes {@link #uses()} with the blamed engine's
     * outcome as {@code TIMEOUT}. Null when no engine was asked.
     */
    public synchronized GuardedEngine blame(long now) {
        GuardedEngine running = inProgress;
        long runningNanos = running == null ? 0 : now - inProgressSince;
        GuardedEngine blamed = running;
        long most = runningNanos;
        for (Tally tally : byEngine.values()) {
            long nanos = tally.nanos + (tally.engine == running ? runningNanos : 0);
            if (nanos > most || blamed == null) {
                blamed = tally.engine;
                most = nanos;
            }
        }
        blamedUses = uses(blamed, running, runningNanos);
        return blamed;
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

    void started(GuardedEngine engine, long now) {
        inProgressSince = now; // before inProgress: whoever sees the engine sees its start
        inProgress = engine;
    }

    /** Records one call that reached the engine; {@code failure} null when it answered. */
    synchronized void finished(GuardedEngine engine, long nanos, Failure failure) {
        inProgress = null;
        Tally tally = tally(engine);
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
    synchronized void refused(GuardedEngine engine) {
        tally(engine).circuitOpen++;
    }

    private Tally tally(GuardedEngine engine) {
        Tally tally = byEngine.get(engine.name());
        if (tally == null) {
            tally = new Tally(engine);
            byEngine.put(engine.name(), tally);
        }
        return tally;
    }

    /** Each engine's use; {@code blamed} timed out, when not null; {@code running} for {@code runningNanos} more. */
    private List<Use> uses(GuardedEngine blamed, GuardedEngine running, long runningNanos) {
        List<Use> uses = new ArrayList<>(byEngine.size() + 1);
        boolean runningFound = false;
        for (Tally tally : byEngine.values()) {
            EngineOutcome outcome = tally.threw > 0 ? EngineOutcome.ERROR : tally.invalid > 0 ? EngineOutcome.INVALID
                    : tally.circuitOpen > 0 ? EngineOutcome.CIRCUIT_OPEN : EngineOutcome.OK;
            long nanos = tally.nanos;
            if (tally.engine == running) {
                runningFound = true;
                nanos += runningNanos;
            }
            uses.add(new Use(tally.engine.name(), tally.engine == blamed ? EngineOutcome.TIMEOUT : outcome, nanos));
        }
        if (running != null && !runningFound) { // still in its first call
            uses.add(new Use(running.name(), running == blamed ? EngineOutcome.TIMEOUT : EngineOutcome.OK,
                    runningNanos));
        }
        return List.copyOf(uses);
    }
}
