package dev.autocomplete.index;

/**
 * The typo walk of a {@link KeyIndex}: the key ranges under a prefix within the typos a typed prefix allows, by
 * their typos. Walks the sorted keys like a trie, aligning a shared prefix once ({@link TypoRules#nextRow}),
 * skipping every key under a prefix that is already over budget, and from a prefix that spent the whole budget
 * visiting only the bytes that can still align ({@link TypoRules#nextWithin}).
 *
 * <p>The first {@link TrieTop#DEPTH} levels are walked in the index's {@link TrieTop} table alone: a node's bytes,
 * its first key and its children are there, so the walk reads no key there (most nodes a typo walk visits are
 * that shallow, and each key read is a cache miss or two). Below them it lands on keys, reading each one's bytes
 * once. A key's typos are those of its first prefix within budget, so every key under a node within budget is a
 * match of that count. One walk, one thread.
 */
final class TypoWalk {

    /** Key ranges {@code [from, to)} as pairs, in key order. */
    static final class Ranges {
        int[] ints = new int[8];
        int size;

        void add(int from, int to) {
            if (size + 2 > ints.length) {
                ints = java.util.Arrays.copyOf(ints, ints.length * 2);
            }
            ints[size++] = from;
            ints[size++] = to;
        }
    }

    private final KeyIndex index;
    private final TrieTop top;
    private final String typed;
    private final int m;
    private final int budget;
    private final float floor;
    private final boolean floored;
    private final int maxDepth;
    private final int[][] rows;
    private final int[] bestEnd;
    private final int[] rowMin;
    /** The bytes of the path walked (byte {@code i} at depth {@code i + 1}), and a key being read. */
    private byte[] path;

    private byte[] key;
    /** Per level of the table, the node the walk reached last: children are found by galloping from it. */
    private final int[] cursors = new int[TrieTop.DEPTH + 1];

    private final int[] hints = TrieTop.newHints();
    private final Ranges[] ranges;

    private TypoWalk(KeyIndex index, String typed, int budget, float floor) {
        this.index = index;
        this.top = index.top();
        this.typed = typed;
        this.m = typed.length();
        this.budget = budget;
        this.floor = floor;
        this.floored = floor > Float.NEGATIVE_INFINITY;
        // A row's minimum grows by one per byte past the typed length: no walk goes deeper than this.
        this.maxDepth = Math.max(TrieTop.DEPTH, Math.min(index.maxLength(), m + budget + 1));
        this.rows = new int[maxDepth + 2][m + 1];
        this.bestEnd = new int[maxDepth + 2];
        this.rowMin = new int[maxDepth + 2];
        this.path = new byte[maxDepth + 2];
        this.key = new byte[maxDepth + 2];
        this.ranges = new Ranges[budget + 1];
        for (int[] row : rows) {
            java.util.Arrays.fill(row, budget + 1);
        }
        rows[0] = TypoRules.firstRow(typed);
        bestEnd[0] = rows[0][m];
    }

    /**
     * The key ranges under a prefix within budget, by its typos ({@code [edits]}, null for none). Keys lighter
     * than {@code floor} are left out (the ranges may still hold some, but never a subtree of only such keys): for
     * an index whose lighter keys could not be taken anyway.
     */
    static Ranges[] walk(KeyIndex index, String typed, int budget, float floor) {
        TypoWalk walk = new TypoWalk(index, typed, budget, floor);
        if (index.size() > 0 && !typed.isEmpty()) {
            TrieTop top = index.top();
            long first = (long) (typed.charAt(0) & 0xff) << 56;
            int node = top.nodeAtLeast(1, first, 0);
            if (node < top.nodes(1) && top.prefix(1, node) == first) {
                walk.node(1, node);
            }
        }
        return walk.ranges;
    }

    private static int byteOf(long head, int i) {
        return (int) (head >>> (8 * (7 - i))) & 0xff;
    }

    /** Walks node {@code node} at {@code depth} of the table, its parent's rows computed. */
    private void node(int depth, int node) {
        long prefix = top.prefix(depth, node);
        int c = byteOf(prefix, depth - 1);
        int from = top.start(depth, node);
        int to = top.start(depth, node + 1);
        cursors[depth] = node;
        if (c == 0) {
            // Keys that end above this depth: no prefix of them was within budget.
            return;
        }
        if (floored && index.weightBound(from, to) < floor) {
            return;
        }
        path[depth - 1] = (byte) c;
        int min = row(depth, c, depth >= 2 ? path[depth - 2] & 0xff : 0);
        if (bestEnd[depth] <= budget) {
            add(bestEnd[depth], from, to);
            return;
        }
        if (min > budget) {
            return;
        }
        if (depth == TrieTop.DEPTH) {
            keys(from, to, depth);
        } else {
            children(depth, prefix);
        }
    }

    /**
     * Walks the children of the node of {@code prefix} at {@code depth}, whose rows are computed: the nodes of the
     * next level whose prefix starts with it, found by galloping forward from the node visited last there.
     */
    private void children(int depth, long prefix) {
        int level = depth + 1;
        int nodes = top.nodes(level);
        if (rowMin[depth] < budget) {
            for (int child = top.nodeAtLeast(level, prefix, cursors[level]);
                    child < nodes && TrieTop.keep(top.prefix(level, child), depth) == prefix;
                    child++) {
                node(level, child);
            }
            return;
        }
        // The whole budget is spent here: only the bytes that still align can follow (exactly those), so the
        // walk visits the children of those bytes and no other.
        int shift = 8 * (7 - depth);
        char last = (char) (path[depth - 1] & 0xff);
        int child = cursors[level];
        for (int c = TypoRules.nextWithin(typed, budget, rows[depth], rows[depth - 1], last, -1, depth);
                c < 256;
                c = TypoRules.nextWithin(typed, budget, rows[depth], rows[depth - 1], last, c, depth)) {
            long target = prefix | ((long) c << shift);
            child = top.nodeAtLeast(level, target, child);
            if (child >= nodes) {
                return;
            }
            long found = top.prefix(level, child);
            if (TrieTop.keep(found, level) == target) {
                node(level, child);
                child++;
            } else if (TrieTop.keep(found, depth) != prefix) {
                return;
            }
        }
    }

    /**
     * Walks the keys {@code [from, to)} below the table, which share their first {@code base} bytes (the path), by
     * landing on keys: a key's bytes past what it shares with the key before are aligned, then the walk skips
     * the subtree that decided, or seeks the next byte that can still align.
     */
    private void keys(int from, int to, int base) {
        System.arraycopy(path, 0, key, 0, base);
        int k = from;
        int valid = base;
        while (k < to) {
            if (floored) {
                k = index.nextAtLeast(k, to, floor);
                if (k >= to) {
                    return;
                }
            }
            int length = index.copy(k, base, key, maxDepth + 1);
            int depth = base;
            while (depth < valid && key[depth] == path[depth]) {
                depth++;
            }
            byte[] read = key;
            key = path;
            path = read;
            int matchedAt = -1;
            int failedAt = -1;
            for (int i = depth + 1; i <= length; i++) {
                int min = row(i, path[i - 1] & 0xff, i >= 2 ? path[i - 2] & 0xff : 0);
                valid = i;
                if (bestEnd[i] <= budget) {
                    matchedAt = i;
                    break;
                }
                if (min > budget) {
                    failedAt = i;
                    break;
                }
            }
            if (matchedAt >= 0) {
                int end = index.endOfPrefix(k, matchedAt, to, hints);
                add(bestEnd[matchedAt], k, end);
                valid = Math.min(valid, matchedAt);
                k = end;
            } else if (failedAt > 1 && rowMin[failedAt - 1] >= budget) {
                int d = failedAt - 1;
                int next = TypoRules.nextWithin(
                        typed, budget, rows[d], rows[d - 1], (char) (path[d - 1] & 0xff), path[d] & 0xff, d);
                k = index.seek(k, d, next, to, hints);
            } else {
                k = index.endOfPrefix(k, failedAt < 0 ? length + 1 : failedAt, to, hints);
            }
        }
    }

    /** Computes the row of {@code depth} for its byte {@code c} after {@code before}; returns its minimum. */
    private int row(int depth, int c, int before) {
        int min = TypoRules.nextRowWithin(
                typed,
                (char) c,
                (char) before,
                rows[depth - 1],
                depth >= 2 ? rows[depth - 2] : null,
                rows[depth],
                depth,
                budget);
        bestEnd[depth] = Math.min(bestEnd[depth - 1], rows[depth][m]);
        rowMin[depth] = min;
        return min;
    }

    private void add(int edits, int from, int to) {
        if (ranges[edits] == null) {
            ranges[edits] = new Ranges();
        }
        ranges[edits].add(from, to);
    }
}
