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
    // A misordered index can keep its build's range walk from ending: a failure, not a hung build.
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void a_large_index_orders_its_keys_by_their_bytes_then_equal_ones_by_name_and_offset() {
        // Tens of thousands of names of words from a small alphabet, so that many keys are equal or share long
        // prefixes, some of them one byte long.
        Random words = new Random(29);
        ByteArrayOutputStream blob = new ByteArrayOutputStream();
        int names = 40_000;
        int shift = 6;
        int[] starts = new int[names];
        java.util.stream.IntStream.Builder keyed = java.util.stream.IntStream.builder();
        for (int name = 0; name < names; name++) {
            starts[name] = blob.size();
            StringBuilder text = new StringBuilder();
            for (int w = words.nextInt(3); w >= 0; w--) {
                if (!text.isEmpty()) {
                    text.append(' ');
                }
                keyed.add(name << shift | text.toString().getBytes(StandardCharsets.UTF_8).length);
                text.append(word(words, 1 + words.nextInt(4)));
            }
            blob.writeBytes(text.toString().getBytes(StandardCharsets.UTF_8));
            blob.write(0);
        }
        byte[] bytes = blob.toByteArray();
        int[] keys = keyed.build().toArray();
        float[] weights = new float[names];
        KeyIndex large = new KeyIndex(bytes, starts, new Positions(starts), null, keys.clone(), shift, weights);
        java.util.function.IntFunction<byte[]> keyBytes = key -> {
            int from = starts[key >>> shift] + (key & ((1 << shift) - 1));
            int to = from;
            while (bytes[to] != 0) {
                to++;
            }
            return Arrays.copyOfRange(bytes, from, to);
        };
        List<Integer> expected = new ArrayList<>(Arrays.stream(keys).boxed().toList());
        expected.sort((p, q) -> {
            int order = Arrays.compareUnsigned(keyBytes.apply(p), keyBytes.apply(q));
            return order != 0 ? order : Integer.compare(p, q);
        });
        for (int k = 0; k < keys.length; k++) {
            int key = expected.get(k);
            assertEquals(starts[key >>> shift] + (key & ((1 << shift) - 1)), large.position(k), "key " + k);
        }
    }

    @Test
    void prefix_bounds_match_a_scan_of_the_sorted_keys() {
        for (int q = 0; q < 4_000; q++) {
            byte[] prefix = text(1 + random.nextInt(10)).getBytes(StandardCharsets.UTF_8);
            byte[] key = keys.get(random.nextInt(keys.size()));
            if (q % 2 == 0 && key.length > TrieTop.DEPTH) {
                // A key's first seven to twelve bytes, past the trie table's depth and past a head's eight; one time
                // in three its last byte one more or one less, so that it lands between keys sharing the table's bytes.
                prefix = Arrays.copyOf(key, Math.min(key.length, TrieTop.DEPTH + 1 + random.nextInt(6)));
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
            int[] range = index.prefixRange(prefix);
            assertEquals(List.of(lower, upper), List.of(range[0], range[1]), label);
            int equal = lower;
            while (equal < upper && keys.get(equal).length == prefix.length) {
                equal++;
            }
            int[] equalRange = index.equalRange(prefix);
            assertEquals(equal - lower, equalRange[1] - equalRange[0], label);
            if (lower < equal) {
                assertEquals(lower, equalRange[0], label);
            }
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

    /** A word of {@code a}, {@code b} and {@code é} (two bytes in UTF-8). */
    private static String word(Random random, int length) {
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < length; i++) {
            word.append("abé".charAt(random.nextInt(3)));
        }
        return word.toString();
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
