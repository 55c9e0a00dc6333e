package dev.autocomplete.server.engines;

import java.time.Duration;

/**
 * A circuit breaker for one product's engine, as a small state machine (no library): {@code CLOSED} calls
 * the engine and counts failures in a row; that many failures make it {@code OPEN}, which answers with the
 * fallback without calling the engine; after the open period one trial call goes through
 * ({@code HALF_OPEN}): success closes the circuit, failure opens it again. Thread-safe.
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
        /** The trial call after the open period failed. */
        OPENED_AGAIN,
        /** The trial call succeeded. */
        CLOSED
    }

    private final int failureThreshold;
    private final long openNanos;
    private State state = State.CLOSED;
    private int failures;
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
        Change change = Change.NONE;
        if (state == State.HALF_OPEN || failures >= failureThreshold) {
            // An open circuit whose period is over is half open, though no call asked yet.
            change = state == State.CLOSED
                    ? Change.OPENED
                    : state == State.HALF_OPEN || now - openUntil >= 0 ? Change.OPENED_AGAIN : Change.NONE;
            state = State.OPEN;
            openUntil = now + openNanos;
        }
        return change;
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
