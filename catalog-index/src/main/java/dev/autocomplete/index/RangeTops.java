package dev.autocomplete.index;

import java.util.Arrays;

/**
 * The first {@link #KEYS} keys, in {@link KeyIndex#heaviest} order (heaviest option first, then key order), of every
 * prefix whose keys number at least {@link #LARGE}: the first letters typed, whose ranges hold up to hundreds of
 * thousands of keys and cost a heaviest-first search dozens of block reads and heap steps, are answered by reading a
 * list. A range is found by its exact bounds, so any other range (a rarer prefix, the typo walk's ranges) takes the
 * search. On the million places: 2,164 ranges of the start and inner-word keys, 0.29 bytes an option. Immutable.
 */
final class RangeTops {

    /** The fewest keys a prefix's range holds to be kept: smaller ranges are cheap to search. */
    static final int LARGE = 512;

    /** Keys kept a range: a top-10 asked twice as wide, with room for options met twice or excluded. */
    static final int KEYS = 32;

    static final RangeTops NONE = new RangeTops(new long[0], new int[0]);

    /** Each kept range as {@code from << 32 | to}, ascending. */
    private final long[] ranges;

    /** The keys of range {@code r} are {@code [r * KEYS, (r + 1) * KEYS)}. */
    private final int[] keys;

    private RangeTops(long[] ranges, int[] keys) {
        this.ranges = ranges;
        this.keys = keys;
    }

    /** The lists of every prefix range of {@code index} with at least {@link #LARGE} keys. */
    static RangeTops of(KeyIndex index) {
        if (index.size() < LARGE) {
            return NONE;
        }
        Builder builder = new Builder(index);
        builder.collect(0, index.size(), 0);
        return builder.build();
    }

    /** Where range {@code [from, to)} is kept, or -1. */
    int find(int from, int to) {
        return ranges.length == 0 ? -1 : Math.max(-1, Arrays.binarySearch(ranges, ((long) from << 32) | to));
    }

    /** Key {@code i} (below {@link #KEYS}) of kept range {@code r}, in heaviest-first order. */
    int key(int r, int i) {
        return keys[r * KEYS + i];
    }

    long heapBytes() {
        return 8L * ranges.length + 4L * keys.length;
    }

    int count() {
        return ranges.length;
    }

    private static final class Builder {
        private final KeyIndex index;
        private long[] ranges = new long[64];
        private int count;

        Builder(KeyIndex index) {
            this.index = index;
        }

        /** Keeps {@code [from, to)}, the keys sharing their first {@code depth} bytes, and recurses into its children. */
        void collect(int from, int to, int depth) {
            if (to - from < LARGE) {
                return;
            }
            if (count == ranges.length) {
                ranges = Arrays.copyOf(ranges, 2 * count);
            }
            ranges[count++] = ((long) from << 32) | to;
            for (int k = from; k < to; ) {
                int end = index.endOfPrefix(k, depth + 1, to);
                if (index.byteAt(k, depth) >= 0) {
                    collect(k, end, depth + 1);
                }
                k = end;
            }
        }

        /** The lists of the ranges kept, each once (a prefix with one child has that child's range). */
        RangeTops build() {
            long[] sorted = Arrays.copyOf(ranges, count);
            Arrays.sort(sorted);
            int distinct = 0;
            for (int r = 0; r < sorted.length; r++) {
                if (r == 0 || sorted[r] != sorted[distinct - 1]) {
                    sorted[distinct++] = sorted[r];
                }
            }
            sorted = Arrays.copyOf(sorted, distinct);
            int[] keys = new int[distinct * KEYS];
            int[] range = new int[2];
            for (int r = 0; r < distinct; r++) {
                range[0] = (int) (sorted[r] >>> 32);
                range[1] = (int) sorted[r];
                int[] at = {r * KEYS};
                index.heaviest(range, 2, KEYS, Float.NEGATIVE_INFINITY, key -> {
                    keys[at[0]++] = key;
                    return true;
                });
            }
            return new RangeTops(sorted, keys);
        }
    }
}
