package dev.autocomplete.index;

import java.util.Arrays;
import java.util.List;

/**
 * Non-negative ints (option numbers) in the order first added, each once: an array of them beside an open-addressed
 * table kept at most half full, so a query's few dozen options cost no boxing. One query, one thread.
 */
final class OrderedInts {

    private int[] order;
    private int size;
    /** The values, -1 for an empty slot. */
    private int[] table;

    /** Room for {@code expected} values before either array grows. */
    OrderedInts(int expected) {
        int room = Math.max(4, Math.min(expected, 1024));
        order = new int[room];
        table = new int[Integer.highestOneBit(room * 2 - 1) << 1];
        Arrays.fill(table, -1);
    }

    /** Adds the value: whether it was not there yet. */
    boolean add(int value) {
        if (!insert(table, value)) {
            return false;
        }
        if (size == order.length) {
            order = Arrays.copyOf(order, 2 * size);
        }
        order[size++] = value;
        if (2 * size > table.length) {
            int[] more = new int[2 * table.length];
            Arrays.fill(more, -1);
            for (int i = 0; i < size; i++) {
                insert(more, order[i]);
            }
            table = more;
        }
        return true;
    }

    int size() {
        return size;
    }

    /** The first {@code limit} values, in the order added. */
    List<Integer> first(int limit) {
        Integer[] first = new Integer[Math.min(limit, size)];
        for (int i = 0; i < first.length; i++) {
            first[i] = order[i];
        }
        return List.of(first);
    }

    /** Adds a non-negative value to an open-addressed set with a free slot: whether it was not there yet. */
    private static boolean insert(int[] set, int value) {
        int mask = set.length - 1;
        for (int slot = (value * 0x9E3779B9) >>> (Integer.numberOfLeadingZeros(mask)); ; slot = (slot + 1) & mask) {
            if (set[slot] == value) {
                return false;
            }
            if (set[slot] < 0) {
                set[slot] = value;
                return true;
            }
        }
    }
}
