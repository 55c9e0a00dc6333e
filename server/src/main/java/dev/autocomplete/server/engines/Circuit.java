package dev.autocomplete.server.engines;

import java.time.Duration;

/**
 * A circuit breaker for one product's engine, as a small state machine (no library): {@code CLOSED} calls
 * the engine and counts failures in a row; that many failures make it {@code OPEN}, which answers with the
 * fallback without calling the engine; after the open period one trial call goes through
 * ({@code HALF_OPEN}): success closes the circuit, failure opens it again. Thread-safe.
 *
 * <p>Two rows are counted. Failed calls in a row (errors, unusable answers, timeouts): any call answered in time
 * ends that row, so an engine failing only in {@code options} keeps reading spans, since its failure costs only
 * its options. Readings in a row that ran out of time on this engine: only a reading that asked it and finished
 * in time ends that row, not a call of another kind that answered in time within the same reading. A timeout
 * costs the whole answer (the product's fallback), so an engine slow only in {@code options}, whose quick
 * {@code match} succeeded in every one of those readings, must open its circuit too (it never did: an engine
 * author's trial saw the fallback on every request, the circuit closed).
 */
final class Circuit {

    enum State {
        CLOSED,
        OPEN,
        HALF_OPEN
    }

    /** What a call's end did to the circuit: worth a log line when it opened or closed it. */
    enum Change {
        NONE,
        /** Failures in a row opened a closed circuit. */
        OPENED,
        /** Readings in a row that ran out of time on the engine opened a closed circuit (its other calls answered). */
        OPENED_BY_TIMEOUTS,
        /** The trial call after the open period failed. */
        OPENED_AGAIN,
        /** The trial call succeeded. */
        CLOSED
    }

    private final int failureThreshold;
    private final long openNanos;
    private State state = State.CLOSED;
    private int failures;
    /** Readings in a row that ran out of time on the engine; volatile for {@link #readingInTime}'s quick look. */
    private volatile int timeouts;

    private long openUntil;
    private boolean trialRunning;

    Circuit(int failureThreshold, Duration open) {
        this.failureThreshold = failureThreshold;
        this.openNanos = open.toNanos();
    }

    /** Whether a call may go to the engine now; in {@code HALF_OPEN}, only one trial at a time. */
    synchronized boolean allow(long now) {
        if (state == State.OPEN && now - openUntil >= 0) {
            state = State.HALF_OPEN;
        }
        if (state == State.HALF_OPEN) {
            if (trialRunning) {
                return false;
            }
            trialRunning = true;
            return true;
        }
        return state == State.CLOSED;
    }

    /** A call answered in time: {@link Change#CLOSED} when that closed an open circuit (its trial). */
    synchronized Change succeeded() {
        Change change = state == State.CLOSED ? Change.NONE : Change.CLOSED;
        state = State.CLOSED;
        failures = 0;
        trialRunning = false;
        return change;
    }

    /**
     * A call answered after its request had given up on it: no success (a slow engine would close its circuit
     * again with every late answer), no second failure (the timeout counted one); only the trial, if it was one,
     * is over.
     */
    synchronized void answeredLate() {
        trialRunning = false;
    }

    /** A call failed: whether that opened the circuit (a closed one's last failure in a row, or a failed trial). */
    synchronized Change failed(long now) {
        trialRunning = false;
        failures++;
        return openIf(failures >= failureThreshold, Change.OPENED, now);
    }

    /**
     * A reading ran out of time on this engine: a failure, and one more reading in a row that did, which a call
     * answered in time does not end ({@link #readingInTime} does).
     */
    synchronized Change timedOut(long now) {
        trialRunning = false;
        failures++;
        timeouts++;
        return failures >= failureThreshold
                ? openIf(true, Change.OPENED, now)
                : openIf(timeouts >= failureThreshold, Change.OPENED_BY_TIMEOUTS, now);
    }

    /** A reading that asked the engine finished within its budget: the row of timeouts, if any, is over. */
    void readingInTime() {
        if (timeouts != 0) { // the lock only when there is a row to end
            synchronized (this) {
                timeouts = 0;
            }
        }
    }

    /** Opens the circuit when a closed one's row is long enough ({@code opened} then) or its trial failed. */
    private Change openIf(boolean rowLongEnough, Change opened, long now) {
        Change change = Change.NONE;
        if (state == State.HALF_OPEN || rowLongEnough) {
            // An open circuit whose period is over is half open, though no call asked yet.
            change = state == State.CLOSED
                    ? opened
                    : state == State.HALF_OPEN || now - openUntil >= 0 ? Change.OPENED_AGAIN : Change.NONE;
            state = State.OPEN;
            openUntil = now + openNanos;
        }
        return change;
    }

    /** Readings in a row that ran out of time on the engine. */
    int timeoutsInARow() {
        return timeouts;
    }

    /** Failures in a row that open the circuit. */
    int failureThreshold() {
        return failureThreshold;
    }

    /** How long an open circuit answers without the engine. */
    Duration openPeriod() {
        return Duration.ofNanos(openNanos);
    }

    synchronized State state(long now) {
        return state == State.OPEN && now - openUntil >= 0 ? State.HALF_OPEN : state;
    }
}
