package dev.autocomplete.server.analytics;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Counts by key between two flushes, in bounded memory whatever the traffic: at most {@code maxKeys} distinct keys a
 * day (so also at most that many rows a day in the store, from this replica); a key first seen once the day's keys are
 * full is not counted, and {@link #refused} says how many were not. Thread-safe.
 */
final class BoundedCounts<K> {

    private final int maxKeys;
    private final Map<K, Long> counts = new HashMap<>();
    private final Set<K> today = new HashSet<>();
    private long day = Long.MIN_VALUE;
    private long refused;

    BoundedCounts(int maxKeys) {
        this.maxKeys = maxKeys;
    }

    /** Adds {@code n} to {@code key}, counted on {@code dayNumber} (days since the epoch). */
    synchronized void add(K key, long n, long dayNumber) {
        if (dayNumber != day) {
            day = dayNumber;
            today.clear();
        }
        if (!today.contains(key)) {
            if (today.size() >= maxKeys) {
                refused += n;
                return;
            }
            today.add(key);
        }
        counts.merge(key, n, Long::sum);
    }

    /** The counts since the last take, and starts again from none. */
    synchronized Map<K, Long> take() {
        Map<K, Long> taken = Map.copyOf(counts);
        counts.clear();
        return taken;
    }

    /** Puts counts a failed write took back, for the next flush. */
    synchronized void putBack(Map<K, Long> taken) {
        taken.forEach((key, n) -> counts.merge(key, n, Long::sum));
    }

    synchronized long refused() {
        return refused;
    }
}
