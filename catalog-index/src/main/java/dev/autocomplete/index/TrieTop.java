package dev.autocomplete.index;

import java.util.Arrays;

/**
 * The nodes of the first levels of the trie that sorted keys form: for each depth from 1 to
 * {@link #DEPTH}, every distinct run of the keys' first bytes (zero past a key's end, so that every key
 * belongs to one node per depth) and the index of its first key. Seeks and subtree skips that stay within
 * these levels search this small, contiguous table instead of reading keys from the blob. Immutable.
 */
final class TrieTop {

    /** The deepest level kept: four levels cost about 0.6 bytes per option on a million-place catalog. */
    static final int DEPTH = 5;

    /** Per depth, the nodes' first bytes as heads with the sign bit flipped, so that signed order is key order. */
    private final long[][] prefixes;
    /**
     * Per depth, the first key of each node, then the number of keys; in a {@link #merge merged} table, the first key
     * at least the node's prefix (a node this index does not hold has no keys: it starts where the next one does).
     */
    private final int[][] starts;

    private TrieTop(long[][] prefixList, int[][] startList, int[] count, int size) {
        prefixes = new long[DEPTH + 1][];
        starts = new int[DEPTH + 1][];
        for (int d = 1; d <= DEPTH; d++) {
            prefixes[d] = Arrays.copyOf(prefixList[d], count[d]);
            starts[d] = Arrays.copyOf(startList[d], count[d] + 1);
            starts[d][count[d]] = size;
        }
    }

    private TrieTop(long[][] prefixes, int[][] starts) {
        this.prefixes = prefixes;
        this.starts = starts;
    }

    /**
     * The tables of two indexes (a main index and its delta) over the same nodes: every prefix either holds, each
     * table with its own index's keys under it (none where it holds no such key). A walk of both then steps through
     * one table and reads each index's keys from the same node number, instead of seeking the same prefixes twice.
     * The two share their prefixes; a level where the second index holds no prefix the first does not also shares
     * the first's arrays (only the second's starts are new there).
     */
    static TrieTop[] merge(TrieTop a, TrieTop b) {
        long[][] prefixes = new long[DEPTH + 1][];
        int[][] aStarts = new int[DEPTH + 1][];
        int[][] bStarts = new int[DEPTH + 1][];
        for (int d = 1; d <= DEPTH; d++) {
            long[] x = a.prefixes[d];
            long[] y = b.prefixes[d];
            int n = merged(x, y, null, null, null, null, null);
            boolean shared = n == x.length;
            prefixes[d] = shared ? x : new long[n];
            aStarts[d] = shared ? a.starts[d] : new int[n + 1];
            bStarts[d] = new int[n + 1];
            merged(x, y, a.starts[d], b.starts[d], shared ? null : prefixes[d], shared ? null : aStarts[d], bStarts[d]);
            aStarts[d][n] = a.starts[d][x.length];
            bStarts[d][n] = b.starts[d][y.length];
        }
        return new TrieTop[] {new TrieTop(prefixes, aStarts), new TrieTop(prefixes, bStarts)};
    }

    /**
     * Merges two levels' sorted prefixes, each distinct, into {@code both} (or nowhere, for null), with each one's
     * first key at least each merged prefix ({@code fromX}, {@code fromY}, null for none); returns how many there are.
     */
    private static int merged(long[] x, long[] y, int[] xStarts, int[] yStarts, long[] both, int[] fromX, int[] fromY) {
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < x.length || j < y.length) {
            long next = j == y.length || (i < x.length && x[i] <= y[j]) ? x[i] : y[j];
            if (both != null) {
                both[n] = next;
            }
            if (fromX != null) {
                fromX[n] = xStarts[i];
            }
            if (fromY != null) {
                fromY[n] = yStarts[j];
            }
            i += i < x.length && x[i] == next ? 1 : 0;
            j += j < y.length && y[j] == next ? 1 : 0;
            n++;
        }
        return n;
    }

    /** The bytes {@link #merge} added to the first table's: the arrays that are not the first's own. */
    long heapBytesBeyond(TrieTop first) {
        long bytes = 0;
        for (int d = 1; d <= DEPTH; d++) {
            bytes += (prefixes[d] == first.prefixes[d] ? 0 : 8L * prefixes[d].length)
                    + (starts[d] == first.starts[d] ? 0 : 4L * starts[d].length);
        }
        return bytes;
    }

    /** Collects the nodes from the keys' heads, given in key order (while a key's bytes are in cache anyway). */
    static final class Builder {
        private final long[][] prefixList = new long[DEPTH + 1][16];
        private final int[][] startList = new int[DEPTH + 1][16];
        private final int[] count = new int[DEPTH + 1];
        private int size;

        /** @param head the next key's first 8 bytes, big-endian, zero past its end */
        void add(long head) {
            for (int d = 1; d <= DEPTH; d++) {
                long prefix = keep(head, d) ^ Long.MIN_VALUE;
                int n = count[d];
                if (n > 0 && prefixList[d][n - 1] == prefix) {
                    continue;
                }
                if (n == prefixList[d].length) {
                    prefixList[d] = Arrays.copyOf(prefixList[d], n * 2);
                    startList[d] = Arrays.copyOf(startList[d], n * 2);
                }
                prefixList[d][n] = prefix;
                startList[d][n] = size;
                count[d] = n + 1;
            }
            size++;
        }

        TrieTop build() {
            return new TrieTop(prefixList, startList, count, size);
        }
    }

    long heapBytes() {
        long bytes = 0;
        for (int d = 1; d <= DEPTH; d++) {
            bytes += 8L * prefixes[d].length + 4L * starts[d].length;
        }
        return bytes;
    }

    /** A scratch array for {@link #firstAtLeast(int, long, int[])}: one per walk, used by one thread. */
    static int[] newHints() {
        return new int[DEPTH + 1];
    }

    /**
     * The first key whose first {@code depth} bytes (as a head, zero past them) are at least {@code target}
     * (unsigned, and zero past {@code depth} bytes), or the number of keys. {@code hints} (or null) remembers
     * the node found last at each depth: a walk that goes forward gallops from it instead of searching the
     * whole level, and a hint past the target is simply ignored.
     */
    int firstAtLeast(int depth, long target, int[] hints) {
        long[] level = prefixes[depth];
        int hint = hints == null ? level.length : hints[depth];
        int node = hint < level.length && level[hint] < (target ^ Long.MIN_VALUE)
                ? nodeAtLeast(depth, target, hint)
                : lowerBound(level, target ^ Long.MIN_VALUE, 0, level.length);
        if (hints != null) {
            hints[depth] = node;
        }
        return starts[depth][node];
    }

    /** How many nodes the level of {@code depth} holds. */
    int nodes(int depth) {
        return prefixes[depth].length;
    }

    /** The first {@code depth} bytes of node {@code node} at that depth, as a head (zero after them). */
    long prefix(int depth, int node) {
        return prefixes[depth][node] ^ Long.MIN_VALUE;
    }

    /** The first key of node {@code node} at {@code depth}; for {@code nodes(depth)}, the number of keys. */
    int start(int depth, int node) {
        return starts[depth][node];
    }

    /**
     * The first node at {@code depth}, from node {@code from} on, whose prefix is at least {@code target} (a head),
     * or {@code nodes(depth)}: gallops from {@code from}, so a walk that goes forward pays for the distance only.
     */
    int nodeAtLeast(int depth, long target, int from) {
        long[] level = prefixes[depth];
        long flipped = target ^ Long.MIN_VALUE;
        if (from >= level.length || level[from] >= flipped) {
            return from;
        }
        int bound = 1;
        while (from + bound < level.length && level[from + bound] < flipped) {
            bound <<= 1;
        }
        return lowerBound(level, flipped, from + (bound >> 1) + 1, Math.min(from + bound, level.length));
    }

    /** The first index in {@code [lo, hi)} of the sorted {@code level} holding at least {@code flipped}, or {@code hi}. */
    private static int lowerBound(long[] level, long flipped, int lo, int hi) {
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (level[mid] < flipped) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first {@code bytes} bytes of a head, zero after them. */
    static long keep(long head, int bytes) {
        return bytes == 0 ? 0 : bytes >= 8 ? head : head & ~(-1L >>> (8 * bytes));
    }
}
