package dev.autocomplete.server.memory;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A bounded map kept in two generations of plain {@link ConcurrentHashMap}s: entries join the recent generation, an
 * entry found in the older one moves back to the recent one, and when the recent one holds {@code generation}
 * entries, or has been the recent one for {@code maxAgeNanos}, it becomes the older one and the older one is dropped
 * whole. So the entries asked for least recently go first, half of the bound at a time, and at most {@code 2 *
 * generation} are kept. A lookup is one or two map reads and nothing else: the bookkeeping a bounded Caffeine cache
 * does on every read and write (its buffers drained on the caller's thread) cost 2 to 5 % of a cached answer's CPU
 * where these maps are used per request (the response cache, the sessions' offered options). Thread-safe.
 */
public final class Generations<K, V> {

    private final int generation;
    private final long maxAgeNanos;

    private volatile Generation<K, V> recent;
    private volatile Generation<K, V> older;

    /** One generation: its entries, and when it became the recent one ({@link System#nanoTime()}). */
    private record Generation<K, V>(ConcurrentHashMap<K, V> entries, long started) {}

    /**
     * @param generation entries a generation holds at most (at least 1)
     * @param maxAgeNanos how long a generation stays the recent one at most; 0 for no limit
     */
    public Generations(int generation, long maxAgeNanos) {
        this.generation = Math.max(1, generation);
        this.maxAgeNanos = maxAgeNanos;
        long now = System.nanoTime();
        this.recent = newGeneration(now);
        this.older = newGeneration(now);
    }

    /** Sized for a generation (up to 65,536 entries) from the start: grown from 16 after every rotation, its resizes showed in profiles. */
    private Generation<K, V> newGeneration(long now) {
        return new Generation<>(new ConcurrentHashMap<>(Math.min(generation, 65_536)), now);
    }

    /** The entry of {@code key}, moved to the recent generation if it was in the older one; null when none is kept. */
    public V get(K key) {
        V value = recent.entries().get(key);
        if (value == null) {
            Generation<K, V> previous = older;
            value = previous.entries().get(key);
            if (value != null && previous.entries().remove(key, value)) {
                V raced = recent.entries().putIfAbsent(key, value);
                if (raced != null) {
                    return raced;
                }
                rotateWhenDue();
            }
        }
        return value;
    }

    /** Keeps {@code value} for {@code key} in the recent generation. */
    public void put(K key, V value) {
        recent.entries().put(key, value);
        rotateWhenDue();
    }

    /** Keeps {@code value} unless the recent generation has an entry for {@code key}; returns that entry, or null. */
    public V putIfAbsent(K key, V value) {
        V raced = recent.entries().putIfAbsent(key, value);
        if (raced == null) {
            rotateWhenDue();
        }
        return raced;
    }

    /** Entries kept now, in both generations. */
    public long size() {
        return recent.entries().mappingCount() + older.entries().mappingCount();
    }

    /** The recent generation becomes the older one when it is full or old enough; the older one is dropped. */
    private void rotateWhenDue() {
        Generation<K, V> current = recent;
        if (current.entries().size() < generation
                && (maxAgeNanos <= 0 || System.nanoTime() - current.started() <= maxAgeNanos)) {
            return;
        }
        synchronized (this) {
            if (recent == current) {
                older = current;
                recent = newGeneration(System.nanoTime());
            }
        }
    }
}
