package dev.autocomplete.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * An immutable array of non-negative ints, each in as few bits as the largest needs, back to back in byte arrays:
 * a million names' numbers take 20 bits each instead of 32. A read is one unaligned 8-byte load, a shift and a mask.
 * The bytes are in pages of 65,536 values (at most 256 kB), below the size that G1 allocates as a humongous object
 * in regions of its own, whose unused tail counts as used heap (up to 2 MB an array at a 4 GB heap). Thread-safe.
 */
final class PackedInts {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Values a page holds (as a shift), here and in {@link Positions}. */
    static final int PAGE_SHIFT = 16;

    static final int PAGE_MASK = (1 << PAGE_SHIFT) - 1;

    private final byte[][] pages;
    private final int bits;
    private final long mask;
    private final int size;

    /** Packs {@code values[0, size)}, each at least 0. */
    PackedInts(int[] values, int size) {
        int max = 0;
        for (int i = 0; i < size; i++) {
            if (values[i] < 0) {
                throw new IllegalArgumentException("negative value at " + i);
            }
            max |= values[i];
        }
        this.bits = Math.max(1, 32 - Integer.numberOfLeadingZeros(max));
        this.mask = (1L << bits) - 1;
        this.size = size;
        this.pages = new byte[(size + PAGE_MASK) >>> PAGE_SHIFT][];
        for (int p = 0; p < pages.length; p++) {
            int count = Math.min(size - (p << PAGE_SHIFT), 1 << PAGE_SHIFT);
            // Eight bytes of padding: the page's last value is read with one 8-byte load too.
            byte[] page = new byte[((count * bits + 7) >>> 3) + Long.BYTES];
            for (int j = 0; j < count; j++) {
                int bit = j * bits;
                long word = (long) LONGS.get(page, bit >>> 3);
                LONGS.set(page, bit >>> 3, word | ((long) values[(p << PAGE_SHIFT) + j] << (bit & 7)));
            }
            pages[p] = page;
        }
    }

    PackedInts(int[] values) {
        this(values, values.length);
    }

    int get(int i) {
        int bit = (i & PAGE_MASK) * bits;
        return (int) (((long) LONGS.get(pages[i >>> PAGE_SHIFT], bit >>> 3) >>> (bit & 7)) & mask);
    }

    int size() {
        return size;
    }

    /** Bits a value takes. */
    int bits() {
        return bits;
    }

    long heapBytes() {
        return heapBytes(pages);
    }

    /** What pages take on the heap, with their headers and the array of them. */
    static long heapBytes(byte[][] pages) {
        long bytes = 16L + 8L * pages.length;
        for (byte[] page : pages) {
            bytes += 16 + page.length;
        }
        return bytes;
    }
}
