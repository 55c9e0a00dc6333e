package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Packed ints and two-level positions give back every value, across pages and at every width. */
class PackedIntsTest {

    @Test
    void everyValueComesBackAtEveryWidthAcrossPages() {
        Random random = new Random(19);
        for (int bits = 1; bits <= 30; bits += 3) {
            int[] values = new int[(1 << 16) * 2 + 123];
            for (int i = 0; i < values.length; i++) {
                values[i] = random.nextInt(1 << bits);
            }
            values[values.length - 1] = (1 << bits) - 1;
            PackedInts packed = new PackedInts(values);
            assertEquals(values.length, packed.size());
            assertEquals(bits, packed.bits());
            for (int i = 0; i < values.length; i++) {
                assertEquals(values[i], packed.get(i), "value " + i + " of " + bits + " bits");
            }
        }
        PackedInts max = new PackedInts(new int[] {Integer.MAX_VALUE, 0, Integer.MAX_VALUE});
        assertEquals(Integer.MAX_VALUE, max.get(2));
        assertEquals(0, new PackedInts(new int[] {0}).get(0));
        assertEquals(0, new PackedInts(new int[0]).size());
        assertThrows(IllegalArgumentException.class, () -> new PackedInts(new int[] {1, -1}));
    }

    @Test
    void positionsComeBackAndFloorFindsTheNameHoldingAPosition() {
        Random random = new Random(7);
        int[] starts = new int[10_000];
        for (int i = 1; i < starts.length; i++) {
            // Mostly short names, now and then a very long one (a block wider than most).
            starts[i] = starts[i - 1] + 1 + (random.nextInt(100) == 0 ? 70_000 : random.nextInt(40));
        }
        Positions positions = new Positions(starts);
        assertEquals(starts.length, positions.size());
        for (int i = 0; i < starts.length; i++) {
            assertEquals(starts[i], positions.get(i));
            assertEquals(i, positions.floor(starts[i]));
            if (i > 0 && starts[i] - 1 > starts[i - 1]) {
                assertEquals(i - 1, positions.floor(starts[i] - 1));
            }
        }
        assertEquals(-1, new Positions(new int[] {5}).floor(4));
        assertEquals(0, new Positions(new int[0]).size());
        assertThrows(IllegalArgumentException.class, () -> new Positions(new int[] {3, 2}));
    }
}
