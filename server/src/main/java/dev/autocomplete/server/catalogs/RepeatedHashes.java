package dev.autocomplete.server.catalogs;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * 64-bit hashes gathered in a plain array (8 bytes each), then sorted once to find those that occur more than once:
 * repeats among a million ids or folded texts are found without a million strings in a hash map, then confirmed on
 * the strings of the few entries whose hash repeats.
 */
final class RepeatedHashes {

    private long[] values;
    private int size;

    RepeatedHashes(int expected) {
        values = new long[Math.max(16, expected)];
    }

    void add(long value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    /** The hashes that occur more than once. */
    Set<Long> repeated() {
        long[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        Set<Long> repeated = new HashSet<>();
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                repeated.add(sorted[i]);
            }
        }
        return repeated;
    }
}
