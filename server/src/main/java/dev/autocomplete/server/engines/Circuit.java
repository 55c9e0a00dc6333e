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

    synchronized void succeeded() {
        state = State.CLOSED;
        failures = 0;
        trialRunning = false;
    }

    /**
     * A call answered after its request had given up on it: no success (a slow engine would close its circuit
     * again with every late answer), no second failure (the timeout counted one); only the trial, if it was one,
     * is over.
     */
    synchronized void answeredLate() {
        trialRunning = false;
    }

    synchronized void failed(long now) {
        trialRunning = false;
        failures++;
        if (state == State.HALF_OPEN || failures >= failureThreshold) {
            state = State.OPEN;
            openUntil = now + openNanos;
        }
    }

    synchronized State state(long now) {
        return state == State.OPEN && now - openUntil >= 0 ? State.HALF_OPEN : state;
    }
}
