package dev.autocomplete.server.memory;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToLongFunction;

/**
 * A bounded map kept in two generations of plain {@link ConcurrentHashMap}s: entries join the recent generation, an
 * entry found in the older one moves back to the recent one, and when the recent one holds {@code generation}
 * entries, or has been the recent one for {@code maxAgeNanos}, or (when entries are weighed) holds {@code
 * generationWeight} of their weight, it becomes the older one and the older one is dropped whole. So the entries
 * asked for least recently go first, half of the bound at a time, and at most {@code 2 * generation} are kept. A
 * lookup is one or two map reads and nothing else: the bookkeeping a bounded Caffeine cache does on every read and
 * write (its buffers drained on the caller's thread) cost 2 to 5 % of a cached answer's CPU where these maps are used
 * per request (the response cache, the sessions' offered options). Thread-safe.
 */
public final class Generations<K, V> {

    private final int generation;
    private final long maxAgeNanos;
    private final long generationWeight;
    /** An entry's weight (its bytes, say); null when entries are not weighed. */
    private final ToLongFunction<? super V> weigher;

    private volatile Generation<K, V> recent;
    private volatile Generation<K, V> older;

    /**
     * One generation: its entries, when it became the recent one ({@link System#nanoTime()}), and the weight of what
     * joined it (counted on writes only: a read of the recent generation stays one map read).
     */
    private record Generation<K, V>(ConcurrentHashMap<K, V> entries, long started, LongAdder weight) {}

    /**
     * @param generation entries a generation holds at most (at least 1)
     * @param maxAgeNanos how long a generation stays the recent one at most; 0 for no limit
     */
    public Generations(int generation, long maxAgeNanos) {
        this(generation, maxAgeNanos, 0, null);
    }

    /**
     * Generations whose entries are also weighed: at most about {@code 2 * generationWeight} of weight is kept
     * (plus the last entry that filled a generation), however heavy each entry is.
     *
     * @param generation entries a generation holds at most (at least 1)
     * @param maxAgeNanos how long a generation stays the recent one at most; 0 for no limit
     * @param generationWeight the weight a generation holds at most; 0 for no limit
     * @param weigher an entry's weight; null when entries are not weighed
     */
    public Generations(int generation, long maxAgeNanos, long generationWeight, ToLongFunction<? super V> weigher) {
        this.generation = Math.max(1, generation);
        this.maxAgeNanos = maxAgeNanos;
        this.generationWeight = weigher == null ? 0 : generationWeight;
        this.weigher = this.generationWeight > 0 ? weigher : null;
        long now = System.nanoTime();
        this.recent = newGeneration(now);
        this.older = newGeneration(now);
    }

    /** Sized for a generation (up to 65,536 entries) from the start: grown from 16 after every rotation, its resizes showed in profiles. */
    private Generation<K, V> newGeneration(long now) {
        return new Generation<>(new ConcurrentHashMap<>(Math.min(generation, 65_536)), now, new LongAdder());
    }

    /** The entry of {@code key}, moved to the recent generation if it was in the older one; null when none is kept. */
    public V get(K key) {
        V value = recent.entries().get(key);
        if (value == null) {
            Generation<K, V> previous = older;
            value = previous.entries().get(key);
            if (value != null && previous.entries().remove(key, value)) {
                Generation<K, V> current = recent;
                V raced = current.entries().putIfAbsent(key, value);
                if (raced != null) {
                    return raced;
                }
                weigh(current, value);
                rotateWhenDue();
            }
        }
        return value;
    }

    /** Keeps {@code value} for {@code key} in the recent generation. */
    public void put(K key, V value) {
        Generation<K, V> current = recent;
        current.entries().put(key, value);
        weigh(current, value);
        rotateWhenDue();
    }

    /** Keeps {@code value} unless the recent generation has an entry for {@code key}; returns that entry, or null. */
    public V putIfAbsent(K key, V value) {
        Generation<K, V> current = recent;
        V raced = current.entries().putIfAbsent(key, value);
        if (raced == null) {
            weigh(current, value);
            rotateWhenDue();
        }
        return raced;
    }

    /** Entries kept now, in both generations. */
    public long size() {
        return recent.entries().mappingCount() + older.entries().mappingCount();
    }

    /** Adds what joined a generation to its weight (a replaced entry's weight stays counted until it goes). */
    private void weigh(Generation<K, V> joined, V value) {
        if (weigher != null) {
            joined.weight().add(weigher.applyAsLong(value));
        }
    }

    /**
     * The recent generation becomes the older one when it is full, heavy or old enough; the older one is dropped.
     */
    private void rotateWhenDue() {
        Generation<K, V> current = recent;
        if (current.entries().size() < generation
                && (weigher == null || current.weight().sum() < generationWeight)
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
