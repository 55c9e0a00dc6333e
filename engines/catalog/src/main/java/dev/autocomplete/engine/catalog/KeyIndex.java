package dev.autocomplete.engine.catalog;

import java.util.Arrays;
import java.util.PriorityQueue;
import java.util.function.IntPredicate;

/**
 * A sorted array of keys, each a suffix of a zero-terminated folded name in a shared byte blob, with the
 * option each key belongs to and the maximum weight of every block of 64 keys, so that the heaviest options
 * under a prefix are found without visiting every key under it. Immutable, so thread-safe.
 */
final class KeyIndex {

    private static final int BLOCK_SHIFT = 6;

    private final byte[] blob;
    private final int[] positions;
    private final int[] options;
    private final float[] blockMax;
    private final float[] weights;
    private final int maxLength;

    /**
     * @param blob folded names, each followed by a 0 byte
     * @param positions where each key starts in {@code blob}; sorted here in place
     * @param ownerOf the option of the key starting at a position
     * @param weights every option's weight
     */
    KeyIndex(byte[] blob, int[] positions, java.util.function.IntUnaryOperator ownerOf, float[] weights) {
        this.blob = blob;
        this.weights = weights;
        sort(positions, 0, positions.length, 0);
        this.positions = positions;
        this.options = new int[positions.length];
        int longest = 0;
        for (int k = 0; k < positions.length; k++) {
            options[k] = ownerOf.applyAsInt(positions[k]);
            longest = Math.max(longest, length(k));
        }
        this.maxLength = longest;
        this.blockMax = new float[(positions.length >> BLOCK_SHIFT) + 1];
        Arrays.fill(blockMax, Float.NEGATIVE_INFINITY);
        for (int k = 0; k < positions.length; k++) {
            int b = k >> BLOCK_SHIFT;
            blockMax[b] = Math.max(blockMax[b], weights[options[k]]);
        }
    }

    int size() {
        return positions.length;
    }

    long heapBytes() {
        return 8L * positions.length + 4L * blockMax.length;
    }

    int option(int k) {
        return options[k];
    }

    int position(int k) {
        return positions[k];
    }

    int maxLength() {
        return maxLength;
    }

    /** The key's byte at {@code i} (0 to 255), or -1 past its end. */
    int byteAt(int k, int i) {
        int b = blob[positions[k] + i] & 0xff;
        return b == 0 ? -1 : b;
    }

    int length(int k) {
        int p = positions[k];
        int i = p;
        while (blob[i] != 0) {
            i++;
        }
        return i - p;
    }

    /** The first key not below {@code prefix} (unsigned byte order). */
    int lowerBound(byte[] prefix) {
        int lo = 0;
        int hi = positions.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(mid, prefix, false) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first key after every key that starts with {@code prefix}. */
    int upperBound(byte[] prefix) {
        int lo = 0;
        int hi = positions.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(mid, prefix, true) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The first key after every key that starts with the first {@code length} bytes of key {@code k}. */
    int upperBound(int k, int length) {
        return upperBound(Arrays.copyOfRange(blob, positions[k], positions[k] + length));
    }

    /** Compares key {@code k} with {@code prefix}; with {@code asPrefix}, a key that starts with it is equal. */
    private int compare(int k, byte[] prefix, boolean asPrefix) {
        int p = positions[k];
        for (int i = 0; i < prefix.length; i++) {
            int a = blob[p + i] & 0xff;
            int b = prefix[i] & 0xff;
            if (a != b) {
                return a - b;
            }
        }
        return asPrefix || blob[p + prefix.length] == 0 ? 0 : 1;
    }

    /**
     * Feeds the options of keys {@code [from, to)} to {@code accept}, heaviest first, until {@code wanted} of
     * them passed {@code accept} (which may record them); blocks whose heaviest key cannot beat what is
     * already taken are never read.
     */
    void heaviest(int from, int to, int wanted, IntPredicate accept) {
        if (from >= to) {
            return;
        }
        // Keys still to read, as (block or single key) entries ordered by the best weight they may hold.
        PriorityQueue<long[]> queue = new PriorityQueue<>((a, b) -> Float.compare(Float.intBitsToFloat((int) b[0]),
                Float.intBitsToFloat((int) a[0])));
        int firstFull = ((from + (1 << BLOCK_SHIFT) - 1) >> BLOCK_SHIFT);
        int lastFull = to >> BLOCK_SHIFT;
        if (firstFull >= lastFull) {
            for (int k = from; k < to; k++) {
                queue.add(new long[] {Float.floatToIntBits(weights[options[k]]), k, 1});
            }
        } else {
            for (int k = from; k < firstFull << BLOCK_SHIFT; k++) {
                queue.add(new long[] {Float.floatToIntBits(weights[options[k]]), k, 1});
            }
            for (int b = firstFull; b < lastFull; b++) {
                queue.add(new long[] {Float.floatToIntBits(blockMax[b]), b, 0});
            }
            for (int k = lastFull << BLOCK_SHIFT; k < to; k++) {
                queue.add(new long[] {Float.floatToIntBits(weights[options[k]]), k, 1});
            }
        }
        int taken = 0;
        while (!queue.isEmpty() && taken < wanted) {
            long[] entry = queue.poll();
            if (entry[2] == 0) {
                int start = (int) entry[1] << BLOCK_SHIFT;
                for (int k = start; k < start + (1 << BLOCK_SHIFT); k++) {
                    queue.add(new long[] {Float.floatToIntBits(weights[options[k]]), k, 1});
                }
            } else if (accept.test(options[(int) entry[1]])) {
                taken++;
            }
        }
    }

    /** Multikey quicksort (Bentley and Sedgewick) of key positions by their bytes from {@code depth}. */
    private void sort(int[] a, int lo, int hi, int depth) {
        while (hi - lo > 1) {
            if (hi - lo < 12) {
                insertionSort(a, lo, hi, depth);
                return;
            }
            int pivot = at(a[lo + (hi - lo) / 2], depth);
            int lt = lo;
            int gt = hi - 1;
            int i = lo;
            while (i <= gt) {
                int c = at(a[i], depth);
                if (c < pivot) {
                    swap(a, lt++, i++);
                } else if (c > pivot) {
                    swap(a, i, gt--);
                } else {
                    i++;
                }
            }
            sort(a, lo, lt, depth);
            sort(a, gt + 1, hi, depth);
            if (pivot == 0) {
                return;
            }
            lo = lt;
            hi = gt + 1;
            depth++;
        }
    }

    private void insertionSort(int[] a, int lo, int hi, int depth) {
        for (int i = lo + 1; i < hi; i++) {
            for (int j = i; j > lo && less(a[j], a[j - 1], depth); j--) {
                swap(a, j, j - 1);
            }
        }
    }

    private boolean less(int p, int q, int depth) {
        for (int i = depth;; i++) {
            int a = at(p, i);
            int b = at(q, i);
            if (a != b) {
                return a < b;
            }
            if (a == 0) {
                return false;
            }
        }
    }

    private int at(int position, int depth) {
        return blob[position + depth] & 0xff;
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
