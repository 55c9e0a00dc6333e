package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** {@link TrieTop#merge}: one table over two indexes' nodes, each index's keys found under the same node number. */
class TrieTopTest {

    @Test
    void a_merged_table_holds_every_prefix_of_either_and_each_ones_keys_under_it() {
        for (int seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            long[] main = heads(random, 3_000, "abcde");
            // A delta of the main's own texts (as updates are) on odd seeds, of new ones too on even seeds.
            long[] delta = seed % 2 == 1 ? sample(random, main, 200) : heads(random, 200, "abcdef");
            TrieTop a = table(main);
            TrieTop b = table(delta);
            TrieTop[] merged = TrieTop.merge(a, b);
            for (int depth = 1; depth <= TrieTop.DEPTH; depth++) {
                TreeSet<Long> prefixes = new TreeSet<>(Long::compareUnsigned);
                for (long head : main) {
                    prefixes.add(TrieTop.keep(head, depth));
                }
                for (long head : delta) {
                    prefixes.add(TrieTop.keep(head, depth));
                }
                List<Long> expected = new ArrayList<>(prefixes);
                assertEquals(expected.size(), merged[0].nodes(depth), "seed " + seed + " depth " + depth);
                long[] mainSide = merged[0].prefixes()[depth];
                long[] deltaSide = merged[1].prefixes()[depth];
                for (int node = 0; node < expected.size(); node++) {
                    long prefix = expected.get(node);
                    assertEquals(prefix, mainSide[node]);
                    assertEquals(prefix, deltaSide[node]);
                    assertKeysUnder(main, merged[0], depth, node, prefix);
                    assertKeysUnder(delta, merged[1], depth, node, prefix);
                }
            }
            // Updates add no prefix: the merged table is the main's own, plus the delta's starts (4 bytes a node).
            long nodes = 0;
            for (int depth = 1; depth <= TrieTop.DEPTH; depth++) {
                nodes += merged[0].nodes(depth) + 1;
            }
            if (seed % 2 == 1) {
                assertEquals(0, merged[0].heapBytesBeyond(a), "seed " + seed);
            } else {
                assertEquals(true, merged[0].heapBytesBeyond(a) > 0, "seed " + seed);
            }
            assertEquals(4 * nodes, merged[1].heapBytesBeyond(merged[0]), "seed " + seed);
        }
    }

    @Test
    void the_first_key_at_least_a_target_is_found_by_descending_as_by_a_scan() {
        Random random = new Random(3);
        // Bytes of either half, so that unsigned order matters; keys of 1 to 8 bytes.
        long[] heads = heads(random, 5_000, "ab\u00e9\u00ff1");
        TrieTop table = table(heads);
        for (int q = 0; q < 20_000; q++) {
            int depth = 1 + random.nextInt(TrieTop.DEPTH);
            long target =
                    TrieTop.keep(random.nextBoolean() ? heads[random.nextInt(heads.length)] : random.nextLong(), depth);
            if (random.nextInt(4) == 0) {
                // The next prefix after a node's: a carry into the bytes before, as a subtree skip asks.
                target += 1L << (8 * (8 - depth));
                target = TrieTop.keep(target, depth);
            }
            int first = 0;
            while (first < heads.length && Long.compareUnsigned(TrieTop.keep(heads[first], depth), target) < 0) {
                first++;
            }
            assertEquals(first, table.firstAtLeast(depth, target), Long.toHexString(target) + " at " + depth);
        }
    }

    /** The keys of {@code heads} (sorted) with {@code prefix} are exactly the node's range in {@code table}. */
    private static void assertKeysUnder(long[] heads, TrieTop table, int depth, int node, long prefix) {
        int from = 0;
        while (from < heads.length && Long.compareUnsigned(TrieTop.keep(heads[from], depth), prefix) < 0) {
            from++;
        }
        int to = from;
        while (to < heads.length && TrieTop.keep(heads[to], depth) == prefix) {
            to++;
        }
        assertEquals(from, table.start(depth, node), "start of " + Long.toHexString(prefix) + " at " + depth);
        assertEquals(to, table.start(depth, node + 1), "end of " + Long.toHexString(prefix) + " at " + depth);
    }

    private static TrieTop table(long[] sortedHeads) {
        TrieTop.Builder builder = new TrieTop.Builder();
        for (long head : sortedHeads) {
            builder.add(head);
        }
        return builder.build();
    }

    /** Distinct heads of 1 to 8 letters from {@code alphabet}, in unsigned order. */
    private static long[] heads(Random random, int count, String alphabet) {
        TreeSet<Long> heads = new TreeSet<>(Long::compareUnsigned);
        while (heads.size() < count) {
            long head = 0;
            int length = 1 + random.nextInt(8);
            for (int i = 0; i < length; i++) {
                head |= (long) alphabet.charAt(random.nextInt(alphabet.length())) << (8 * (7 - i));
            }
            heads.add(head);
        }
        return heads.stream().mapToLong(Long::longValue).toArray();
    }

    private static long[] sample(Random random, long[] sorted, int count) {
        TreeSet<Long> picked = new TreeSet<>(Long::compareUnsigned);
        while (picked.size() < count) {
            picked.add(sorted[random.nextInt(sorted.length)]);
        }
        return picked.stream().mapToLong(Long::longValue).toArray();
    }
}
