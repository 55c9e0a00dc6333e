package dev.autocomplete.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * An immutable ascending list of positions (where each name starts in the names' blob) in blocks of 64: the block's
 * first position as an int, then each one's distance from it in as few whole bytes as the widest block needs, side
 * by side so that a read touches one place (a separate array of block starts cost the typo walk a third of its time
 * in a cache miss more). A million names of about 30 bytes take 2.1 bytes each instead of 4. The blocks are in pages
 * of 1,024 (65,536 names) below G1's humongous size, as in {@link PackedInts}. Thread-safe.
 */
final class Positions {

    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int BLOCK_SHIFT = 6;
    private static final int BLOCK = 1 << BLOCK_SHIFT;
    private static final int PAGE_SHIFT = PackedInts.PAGE_SHIFT;
    private static final int PAGE_MASK = PackedInts.PAGE_MASK;

    private final byte[][] pages;
    /** Bytes a distance takes, 1 to 4. */
    private final int width;

    private final int mask;
    private final int blockBytes;
    private final int size;

    /** @param ascending the positions, ascending (not kept) */
    Positions(int[] ascending) {
        size = ascending.length;
        int widest = 0;
        for (int i = 0; i < size; i++) {
            if (i > 0 && ascending[i] < ascending[i - 1]) {
                throw new IllegalArgumentException("positions not ascending at " + i);
            }
            widest |= ascending[i] - ascending[i & -BLOCK];
        }
        width = Math.max(1, (32 - Integer.numberOfLeadingZeros(widest) + 7) / 8);
        mask = width == 4 ? -1 : (1 << (8 * width)) - 1;
        blockBytes = Integer.BYTES + BLOCK * width;
        pages = new byte[(size + PAGE_MASK) >>> PAGE_SHIFT][];
        for (int p = 0; p < pages.length; p++) {
            int names = Math.min(size - (p << PAGE_SHIFT), 1 << PAGE_SHIFT);
            // Four bytes of padding: the page's last distance is read with one 4-byte load too.
            pages[p] = new byte[((names + BLOCK - 1) >> BLOCK_SHIFT) * blockBytes + Integer.BYTES];
        }
        for (int i = 0; i < size; i++) {
            byte[] page = pages[i >>> PAGE_SHIFT];
            int block = ((i & PAGE_MASK) >>> BLOCK_SHIFT) * blockBytes;
            int base = ascending[i & -BLOCK];
            INTS.set(page, block, base);
            int distance = ascending[i] - base;
            int at = block + Integer.BYTES + (i & (BLOCK - 1)) * width;
            for (int b = 0; b < width; b++) {
                page[at + b] = (byte) (distance >>> (8 * b));
            }
        }
    }

    int get(int i) {
        byte[] page = pages[i >>> PAGE_SHIFT];
        int block = ((i & PAGE_MASK) >>> BLOCK_SHIFT) * blockBytes;
        return (int) INTS.get(page, block)
                + ((int) INTS.get(page, block + Integer.BYTES + (i & (BLOCK - 1)) * width) & mask);
    }

    int size() {
        return size;
    }

    /** The index of the last position at most {@code position}, or -1 when all are after it. */
    int floor(int position) {
        int lo = 0;
        int hi = size();
        // Invariant: positions before lo are at most `position`, positions from hi on are after it.
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (get(mid) <= position) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    long heapBytes() {
        return PackedInts.heapBytes(pages);
    }
}
