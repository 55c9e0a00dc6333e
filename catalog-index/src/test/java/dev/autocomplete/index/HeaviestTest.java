package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyIndex#heaviest}, which reads a block for its heaviest key alone and the rest of it by sub-groups at a
 * rounded bound, and reads the first keys of a large prefix's range from a list ({@link RangeTops}), against a sort
 * of every key in the ranges: the keys it offers, in order, whatever the weights (ties, heavy keys side by side,
 * weights of every magnitude and sign), ranges, floors and refusals.
 */
class HeaviestTest {

    private static final int KEYS = 30_000; // over seven super blocks of 4,096 keys

    private final Random random = new Random(17);

    @Test
    void ties_are_offered_in_key_order() {
        check(k -> (float) random.nextInt(3));
    }

    @Test
    void runs_of_heavy_keys_side_by_side_are_offered_heaviest_first() {
        float[] run = {0};
        check(k -> {
            if (random.nextInt(40) == 0) {
                run[0] = 1_000_000f + random.nextInt(1_000_000); // a city and its variants: heavy neighbours
            } else if (random.nextInt(12) == 0) {
                run[0] = 0;
            }
            return run[0] > 0 ? run[0] / (1 + random.nextInt(8)) : random.nextInt(1_000);
        });
    }

    @Test
    void weights_of_every_magnitude_and_sign_are_ordered_exactly() {
        check(k -> switch (random.nextInt(6)) {
            case 0 -> 0f;
            case 1 -> -(float) Math.pow(10, random.nextInt(12)) * random.nextFloat();
            case 2 -> Float.MAX_VALUE / (1 + random.nextInt(3));
            default -> (float) Math.pow(10, random.nextInt(12) - 3) * random.nextFloat();
        });
    }

    /** Keys {@code 000000} to {@code 029999}, so that key {@code k} is option {@code k}, weighed by {@code weight}. */
    private void check(IntFunction<Float> weight) {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        int[] positions = new int[KEYS];
        float[] weights = new float[KEYS];
        for (int k = 0; k < KEYS; k++) {
            positions[k] = blob.size();
            blob.writeBytes(String.format("%06d", k).getBytes(StandardCharsets.US_ASCII));
            blob.write(0);
            weights[k] = weight.apply(k);
        }
        KeyIndex index = new KeyIndex(blob.toByteArray(), positions, position -> position / 7, weights);
        for (int q = 0; q < 400; q++) {
            int[] ranges = ranges();
            int wanted = 1 + random.nextInt(q % 4 == 0 ? 200 : 20);
            float floor = q % 3 == 0 ? weights[random.nextInt(KEYS)] : Float.NEGATIVE_INFINITY;
            int refused = 2 + random.nextInt(5);
            List<Integer> offered = new ArrayList<>();
            index.heaviest(ranges, ranges.length, wanted, floor, key -> {
                offered.add(key);
                return key % refused != 0;
            });
            List<Integer> inRanges = new ArrayList<>();
            for (int r = 0; r < ranges.length; r += 2) {
                for (int k = ranges[r]; k < ranges[r + 1]; k++) {
                    if (weights[k] >= floor) {
                        inRanges.add(k);
                    }
                }
            }
            inRanges.sort(
                    Comparator.comparing((Integer k) -> weights[k]).reversed().thenComparing(k -> k));
            List<Integer> expected = new ArrayList<>();
            int taken = 0;
            for (int i = 0; i < inRanges.size() && taken < wanted; i++) {
                expected.add(inRanges.get(i));
                taken += inRanges.get(i) % refused != 0 ? 1 : 0;
            }
            assertEquals(expected, offered, "query " + q);
        }
    }

    /**
     * One to four disjoint ranges in key order, from a few keys to most of the index; or, one time in three, the range
     * of a prefix of three digits, two or none, which {@link RangeTops} keeps the first keys of.
     */
    private int[] ranges() {
        switch (random.nextInt(9)) {
            case 0 -> {
                return new int[] {0, KEYS};
            }
            case 1 -> {
                int prefix = random.nextInt(3); // 00, 01 or 02
                return new int[] {prefix * 10_000, (prefix + 1) * 10_000};
            }
            case 2 -> {
                int prefix = random.nextInt(30); // 000 to 029
                return new int[] {prefix * 1_000, (prefix + 1) * 1_000};
            }
            default -> {}
        }
        int count = 1 + random.nextInt(4);
        int[] ends = random.ints(2 * count, 0, KEYS + 1).sorted().toArray();
        if (random.nextInt(4) == 0) {
            ends[0] = 0;
            ends[ends.length - 1] = KEYS;
        }
        return ends;
    }
}
