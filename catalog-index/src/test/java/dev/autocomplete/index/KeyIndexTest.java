package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The sorted-key searches, through the trie table, the sampled heads and the blob, against a plain scan. */
class KeyIndexTest {

    private final Random random = new Random(13);
    private final List<byte[]> keys = new ArrayList<>();
    private final KeyIndex index;

    KeyIndexTest() {
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            // Short keys, keys that are prefixes of others, and two-byte UTF-8 (bytes above 0x7f).
            byte[] key = text(1 + random.nextInt(i % 5 == 0 ? 3 : 11)).getBytes(StandardCharsets.UTF_8);
            positions.add(blob.size());
            blob.writeBytes(key);
            blob.write(0);
            keys.add(key);
        }
        int[] starts = positions.stream().mapToInt(Integer::intValue).toArray();
        index = new KeyIndex(blob.toByteArray(), starts, position -> 0, new float[] {1});
        keys.sort(Arrays::compareUnsigned);
    }

    @Test
    void prefix_bounds_match_a_scan_of_the_sorted_keys() {
        for (int q = 0; q < 4_000; q++) {
            byte[] prefix = text(1 + random.nextInt(10)).getBytes(StandardCharsets.UTF_8);
            byte[] key = keys.get(random.nextInt(keys.size()));
            if (q % 2 == 0 && key.length > TrieTop.DEPTH) {
                // A key's first six to eight bytes, past the trie table's depth; one time in three its last byte one
                // more or one less, so that it lands between keys sharing the table's bytes.
                prefix = Arrays.copyOf(key, Math.min(key.length, TrieTop.DEPTH + 1 + random.nextInt(3)));
                prefix[prefix.length - 1] += (byte) (q % 3 == 0 ? (random.nextBoolean() ? 1 : -1) : 0);
            }
            int lower = 0;
            while (lower < keys.size() && Arrays.compareUnsigned(keys.get(lower), prefix) < 0) {
                lower++;
            }
            int upper = lower;
            while (upper < keys.size() && startsWith(keys.get(upper), prefix)) {
                upper++;
            }
            String label = new String(prefix, StandardCharsets.UTF_8);
            assertEquals(lower, index.lowerBound(prefix), label);
            assertEquals(upper, index.upperBound(prefix), label);
        }
    }

    @Test
    void skipping_a_subtree_and_seeking_a_child_byte_match_a_scan_of_the_sorted_keys() {
        for (int q = 0; q < 5_000; q++) {
            int k = random.nextInt(keys.size());
            int length = 1 + random.nextInt(10);
            int end = k + 1;
            while (end < keys.size() && samePrefix(keys.get(k), keys.get(end), length)) {
                end++;
            }
            assertEquals(end, index.endOfPrefix(k, length, keys.size()), k + "/" + length);
            if (keys.get(k).length < 2) {
                continue;
            }
            int depth = random.nextInt(keys.get(k).length);
            int b = (keys.get(k)[depth] & 0xff) + random.nextInt(3) + (q % 50 == 0 ? 300 : 0);
            int found = k;
            while (found < keys.size()
                    && samePrefix(keys.get(k), keys.get(found), depth)
                    && byteAt(keys.get(found), depth) < b) {
                found++;
            }
            assertEquals(found, index.seek(k, depth, b, keys.size()), k + "/" + depth + "/" + b);
        }
    }

    private String text(int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append("abé 1".charAt(random.nextInt(5)));
        }
        return text.toString();
    }

    private static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** Whether two keys agree on their first {@code length} bytes, a key's end counting as a byte. */
    private static boolean samePrefix(byte[] a, byte[] b, int length) {
        for (int i = 0; i < length; i++) {
            int x = i < a.length ? a[i] : 0;
            if (x != (i < b.length ? b[i] : 0)) {
                return false;
            }
            if (x == 0) {
                return true;
            }
        }
        return true;
    }

    private static int byteAt(byte[] key, int i) {
        return i < key.length ? key[i] & 0xff : -1;
    }
}
