package dev.autocomplete.server.learning;

import dev.autocomplete.server.protocol.Offered;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Picks counted per client address (or key) in the current hour, for the hourly caps: a count-min sketch of two rows
 * of {@link #WIDTH} counters, so its memory is fixed (1 MiB) however many addresses send, and no flood of new
 * addresses can push an address's count out of it (a map of counts with a size bound forgets, which lets a busy
 * address start over). Two addresses share a count only when they collide in both rows, rare below a hundred
 * thousand addresses an hour; a shared count can only cap sooner, never later. Cleared when the hour changes.
 * Thread-safe.
 */
final class HourlyCounts {

    /** Counters per row: a power of two. */
    static final int WIDTH = 1 << 17;

    private final AtomicIntegerArray counts = new AtomicIntegerArray(2 * WIDTH);
    private volatile long hour = Long.MIN_VALUE;

    /** Counts one more for {@code who} at {@code nowSeconds}; whether its count this hour is then within {@code max}. */
    boolean add(String who, int max, long nowSeconds) {
        long thisHour = Math.floorDiv(nowSeconds, 3600);
        if (thisHour != hour) {
            synchronized (this) {
                if (thisHour != hour) {
                    for (int i = 0; i < counts.length(); i++) {
                        counts.set(i, 0);
                    }
                    hour = thisHour;
                }
            }
        }
        long hash = mix(Offered.hash(who == null ? "" : who));
        int first = counts.incrementAndGet((int) hash & (WIDTH - 1));
        int second = counts.incrementAndGet(WIDTH + ((int) (hash >>> 32) & (WIDTH - 1)));
        return Math.min(first, second) <= max;
    }

    /** MurmurHash3's finalizer: spreads every bit of the hash over both halves. */
    static long mix(long hash) {
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        hash *= 0xc4ceb9fe1a85ec53L;
        return hash ^ (hash >>> 33);
    }
}
