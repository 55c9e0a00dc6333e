package dev.autocomplete.server.suggest;

import java.util.ArrayList;
import java.util.List;

/**
 * What one request's engine calls came to, per engine name: calls, time spent, and failures by kind; and
 * whether an engine whose answers must not be cached answered. {@link GuardedEngine} adds to it, the top
 * layer reads it afterwards (metrics, the access log's engine time, whether to cache the response).
 *
 * <p>Not thread-safe, on purpose: a request's reading runs on one thread, and a request makes many engine
 * calls, so this is a few parallel arrays searched by name (a product has a handful of engines).
 */
public final class EngineCalls {

    /** Why an engine call gave no usable answer. */
    public enum Failure {
        /** The engine threw. */
        THREW,
        /** The engine answered null or a list of the wrong size. */
        INVALID,
        /** The engine's circuit is open: it was not called. */
        CIRCUIT_OPEN
    }

    /**
     * One engine's calls in the request.
     *
     * @param calls calls made to the engine (not counting those its open circuit refused)
     * @param nanos time spent in the engine
     * @param threw calls that threw
     * @param invalid calls that answered null or a wrongly sized list
     * @param circuitOpen questions answered without the engine because its circuit was open
     */
    public record Entry(String engine, int calls, long nanos, int threw, int invalid, int circuitOpen) {

        /** Every question this engine could not answer. */
        public int failures() {
            return threw + invalid + circuitOpen;
        }
    }

    private String[] engines = new String[4];
    private int[] calls = new int[4];
    private long[] nanos = new long[4];
    private int[][] failures = new int[4][];
    private int size;
    private boolean uncacheableAnswered;

    /** Records one call that reached the engine. */
    void called(String engine, long spentNanos, Failure failure, boolean cacheable) {
        int i = index(engine);
        calls[i]++;
        nanos[i] += spentNanos;
        if (failure != null) {
            failures[i][failure.ordinal()]++;
        } else if (!cacheable) {
            uncacheableAnswered = true;
        }
    }

    /** Records a question the engine's open circuit answered without calling it. */
    void refused(String engine) {
        failures[index(engine)][Failure.CIRCUIT_OPEN.ordinal()]++;
    }

    /** Whether an engine that declared its answers uncacheable answered in this request. */
    public boolean uncacheableAnswered() {
        return uncacheableAnswered;
    }

    /** Whether a response built from these answers may be cached: every engine answered, all cacheable. */
    public boolean cacheable() {
        if (uncacheableAnswered) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            for (int count : failures[i]) {
                if (count > 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Time spent in every engine. */
    public long totalNanos() {
        long total = 0;
        for (int i = 0; i < size; i++) {
            total += nanos[i];
        }
        return total;
    }

    /** The calls of one engine; zeros when it was not asked. */
    public Entry of(String engine) {
        for (int i = 0; i < size; i++) {
            if (engines[i].equals(engine)) {
                return entry(i);
            }
        }
        return new Entry(engine, 0, 0, 0, 0, 0);
    }

    /** Every engine asked, in the order first asked. */
    public List<Entry> entries() {
        List<Entry> entries = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            entries.add(entry(i));
        }
        return entries;
    }

    private Entry entry(int i) {
        int[] f = failures[i];
        return new Entry(engines[i], calls[i], nanos[i], f[Failure.THREW.ordinal()], f[Failure.INVALID.ordinal()],
                f[Failure.CIRCUIT_OPEN.ordinal()]);
    }

    private int index(String engine) {
        for (int i = 0; i < size; i++) {
            // Names are the same String instances on the hot path; equals covers the rest.
            if (engines[i] == engine || engines[i].equals(engine)) {
                return i;
            }
        }
        if (size == engines.length) {
            int grown = size * 2;
            engines = java.util.Arrays.copyOf(engines, grown);
            calls = java.util.Arrays.copyOf(calls, grown);
            nanos = java.util.Arrays.copyOf(nanos, grown);
            failures = java.util.Arrays.copyOf(failures, grown);
        }
        engines[size] = engine;
        failures[size] = new int[Failure.values().length];
        return size++;
    }
}
