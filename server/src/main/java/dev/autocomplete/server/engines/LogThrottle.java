package dev.autocomplete.server.engines;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most one log line per interval for one kind of event, counting the ones it held back: an engine that
 * fails on every request must not write a line per request. Thread-safe.
 */
final class LogThrottle {

    private final long intervalNanos;
    private final AtomicLong next = new AtomicLong(Long.MIN_VALUE);
    private final AtomicInteger suppressed = new AtomicInteger();

    LogThrottle(Duration interval) {
        this.intervalNanos = interval.toNanos();
    }

    /**
     * Whether to log this event now: then how many were held back since the last line (0 or more); -1 when
     * this one is held back.
     */
    int admit(long now) {
        long due = next.get();
        if ((due == Long.MIN_VALUE || now - due >= 0) && next.compareAndSet(due, now + intervalNanos)) {
            return suppressed.getAndSet(0);
        }
        suppressed.incrementAndGet();
        return -1;
    }
}
