package dev.autocomplete.server.engines;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most one log line per interval for one kind of event, counting the ones it held back: an engine that
 * fails on every request must not write a line per request. Thread-safe.
 */
public final class LogThrottle {

    private final long intervalNanos;
    private final AtomicLong next = new AtomicLong(Long.MIN_VALUE);
    private final AtomicInteger suppressed = new AtomicInteger();
    private final AtomicInteger[] suppressedByKind;

    public LogThrottle(Duration interval) {
        this(interval, 0);
    }

    /** Also counts held-back events by kind, {@code 0} to {@code kinds - 1}: see {@link #admit(long, int)}. */
    LogThrottle(Duration interval, int kinds) {
        this.intervalNanos = interval.toNanos();
        this.suppressedByKind = new AtomicInteger[kinds];
        for (int i = 0; i < kinds; i++) {
            suppressedByKind[i] = new AtomicInteger();
        }
    }

    /**
     * Whether to log this event now: then how many were held back since the last line (0 or more); -1 when
     * this one is held back.
     */
    public int admit(long now) {
        if (due(now)) {
            return suppressed.getAndSet(0);
        }
        suppressed.incrementAndGet();
        return -1;
    }

    /**
     * As {@link #admit(long)}, for an event of {@code kind}: when it is logged now, how many of each kind were held
     * back since the last line (indexed by kind); null when this one is held back.
     */
    int[] admit(long now, int kind) {
        if (due(now)) {
            int[] heldBack = new int[suppressedByKind.length];
            for (int i = 0; i < heldBack.length; i++) {
                heldBack[i] = suppressedByKind[i].getAndSet(0);
            }
            return heldBack;
        }
        suppressedByKind[kind].incrementAndGet();
        return null;
    }

    /** Whether a line is due now; if so, the next one is due an interval later. */
    private boolean due(long now) {
        long due = next.get();
        return (due == Long.MIN_VALUE || now - due >= 0) && next.compareAndSet(due, now + intervalNanos);
    }
}
