package dev.autocomplete.server.suggest;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What happened to the engines during one request: a value the reading fills in and the top layer reads
 * afterwards to log and count. Not thread-safe: a request's reading runs on one thread.
 */
public final class EngineCalls {

    /** Calls, failures and time of one engine in this request. */
    public static final class Tally {
        private int calls;
        private int failures;
        private long nanos;

        public int calls() {
            return calls;
        }

        public int failures() {
            return failures;
        }

        public long nanos() {
            return nanos;
        }
    }

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

    /** The engine being called right now, or null: the one to blame when the request's budget runs out. */
    public GuardedEngine inProgress() {
        return inProgress;
    }

    void started(GuardedEngine engine) {
        inProgress = engine;
        if (!engine.cacheable()) {
            uncacheable = true;
        }
    }

    void finished(GuardedEngine engine, long nanos, boolean failed) {
        inProgress = null;
        Tally tally = byEngine.computeIfAbsent(engine.name(), name -> new Tally());
        tally.calls++;
        tally.nanos += nanos;
        if (failed) {
            tally.failures++;
        }
    }
}
