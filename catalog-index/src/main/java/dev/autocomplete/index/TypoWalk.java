package dev.autocomplete.index;

/**
 * The typo walk of a {@link KeyIndex}: the key ranges under a prefix within the typos a typed prefix allows, by
 * their typos. Walks the sorted keys like a trie, aligning a shared prefix once ({@link TypoRules#nextRow}),
 * skipping every key under a prefix that is already over budget, and from a prefix that spent the whole budget
 * visiting only the bytes that can still align ({@link TypoRules#bitsWithin}).
 *
 * <p>The first {@link TrieTop#DEPTH} levels are walked in the index's {@link TrieTop} table alone (a main index and
 * its delta in their tables {@link TrieTop#merge merged}): a node's bytes, its first key and its children are
 * there, so the walk reads no key there (most nodes a typo walk visits are that shallow, and each key read is a
 * cache miss or two). Below them it lands on keys, reading each one's bytes
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

    /** The indexes walked together (one, or a main index and a delta), and what each one's walk found. */
    private final KeyIndex[] indexes;

    /** Per index, its table: the first one's nodes are walked, and each index's keys are read from the same node. */
    private final TrieTop[] tops;

    /** The table walked, {@code tops[0]}. */
    private final TrieTop top;

    private final Ranges[][] found;
    private final String typed;
    /** What editing each typed character costs ({@link TypoRules#editCosts}). */
    private final int[] edits;

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
    /**
     * Per depth, four words: the set of bytes that can still align below a node whose budget is spent ({@link
     * TypoRules#bitsWithin}).
     */
    private final long[] within;

    /** Per depth, whether {@link #within} holds the set of its current row. */
    private final boolean[] withinKnown;

    private TypoWalk(KeyIndex[] indexes, TrieTop[] tops, String typed, int budget, float floor) {
        this.indexes = indexes;
        this.tops = tops;
        this.top = tops[0];
        this.found = new Ranges[indexes.length][budget + 1];
        int longest = 0;
        for (int i = 0; i < indexes.length; i++) {
            longest = Math.max(longest, indexes[i].maxLength());
        }
        this.typed = typed;
        this.edits = TypoRules.editCosts(typed);
        this.m = typed.length();
        this.budget = budget;
        this.floor = floor;
        this.floored = floor > Float.NEGATIVE_INFINITY;
        // A row's minimum grows by one per byte past the typed length: no walk goes deeper than this.
        this.maxDepth = Math.max(TrieTop.DEPTH, Math.min(longest, m + budget + 1));
        this.rows = new int[maxDepth + 2][m + 1];
        this.within = new long[(maxDepth + 2) * 4];
        this.withinKnown = new boolean[maxDepth + 2];
        this.bestEnd = new int[maxDepth + 2];
        this.rowMin = new int[maxDepth + 2];
        this.path = new byte[maxDepth + 2];
        this.key = new byte[maxDepth + 2];
        for (int[] row : rows) {
            java.util.Arrays.fill(row, budget + 1);
        }
        rows[0] = TypoRules.firstRow(typed, edits);
        bestEnd[0] = rows[0][m];
    }

    /**
     * The key ranges under a prefix within budget, by its typos ({@code [edits]}, null for none). Keys lighter
     * than {@code floor} are left out (the ranges may still hold some, but never a subtree of only such keys): for
     * an index whose lighter keys could not be taken anyway.
     */
    static Ranges[] walk(KeyIndex index, String typed, int budget, float floor) {
        return new TypoWalk(new KeyIndex[] {index}, new TrieTop[] {index.top()}, typed, budget, floor).run()[0];
    }

    /**
     * {@link #walk} of two indexes at once (a main index and a delta) over their tables {@link TrieTop#merge merged}
     * ({@code tops}): a prefix both hold is aligned once, and the delta's keys under a node are found from the walk
     * of both without a search of its own.
     */
    static Ranges[][] walk(KeyIndex main, KeyIndex delta, TrieTop[] tops, String typed, int budget) {
        return new TypoWalk(new KeyIndex[] {main, delta}, tops, typed, budget, Float.NEGATIVE_INFINITY).run();
    }

    private Ranges[][] run() {
        if (typed.isEmpty() || top.nodes(1) == 0) {
            return found;
        }
        int first = typed.charAt(0) & 0xff;
        int node = top.nodeAtLeast(1, (long) first << 56);
        if (node < top.nodes(1) && top.byteAt(1, node) == first) {
            node(1, node);
        }
        return found;
    }

    /** Walks node {@code node} of {@code depth}, its parent's rows computed. */
    private void node(int depth, int node) {
        int c = top.byteAt(depth, node);
        if (c == 0) {
            // Keys that end above this depth: no prefix of them was within budget.
            return;
        }
        if (floored && indexes[0].weightBound(top.start(depth, node), top.start(depth, node + 1)) < floor) {
            return;
        }
        path[depth - 1] = (byte) c;
        int min = row(depth, c, depth >= 2 ? path[depth - 2] & 0xff : 0);
        if (bestEnd[depth] <= budget) {
            for (int side = 0; side < tops.length; side++) {
                add(side, bestEnd[depth], tops[side].start(depth, node), tops[side].start(depth, node + 1));
            }
            return;
        }
        if (min > budget) {
            return;
        }
        if (depth == TrieTop.DEPTH) {
            for (int side = 0; side < tops.length; side++) {
                keys(side, tops[side].start(depth, node), tops[side].start(depth, node + 1), depth);
            }
        } else {
            children(depth, node);
        }
    }

    /**
     * Walks the children of node {@code node} at {@code depth}, whose rows are computed: a run of the next level,
     * sorted by their byte.
     */
    private void children(int depth, int node) {
        int level = depth + 1;
        int from = top.firstChild(depth, node);
        int to = top.firstChild(depth, node + 1);
        if (rowMin[depth] < budget) {
            for (int child = from; child < to; child++) {
                node(level, child);
            }
            return;
        }
        // The whole budget is spent here: only the bytes that still align can follow (exactly those), so the
        // walk visits the children of those bytes and no other. They are found once, before any child is walked
        // (which changes neither this row nor the one above it).
        int at = within(depth);
        for (int child = from; child < to; child++) {
            if (TypoRules.isIn(within, at, top.byteAt(level, child))) {
                node(level, child);
            }
        }
    }

    /**
     * Walks the keys {@code [from, to)} of index {@code side} below the table, which share their first {@code base}
     * bytes (the path), by landing on keys: a key's bytes past what it shares with the key before are aligned, then
     * the walk skips the subtree that decided, or seeks the next byte that can still align.
     */
    private void keys(int side, int from, int to, int base) {
        if (from >= to) {
            return;
        }
        KeyIndex index = indexes[side];
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
                int end = index.endOfPrefix(k, matchedAt, to);
                add(side, bestEnd[matchedAt], k, end);
                valid = Math.min(valid, matchedAt);
                k = end;
            } else if (failedAt > 1 && rowMin[failedAt - 1] >= budget) {
                int d = failedAt - 1;
                k = index.seek(k, d, nextWithin(d, path[d] & 0xff), to);
            } else {
                k = index.endOfPrefix(k, failedAt < 0 ? length + 1 : failedAt, to);
            }
        }
    }

    /**
     * Where in {@link #within} the bytes that can still align after the path to {@code depth} are, its row having
     * spent the budget ({@link TypoRules#bitsWithin}). Found once per row: the keys below a node ask again for each
     * key that fails there.
     */
    private int within(int depth) {
        int at = depth * 4;
        if (!withinKnown[depth]) {
            TypoRules.bitsWithin(
                    typed,
                    edits,
                    budget,
                    rows[depth],
                    rows[depth - 1],
                    (char) (path[depth - 1] & 0xff),
                    depth,
                    within,
                    at);
            withinKnown[depth] = true;
        }
        return at;
    }

    /**
     * The smallest byte above {@code after} that can still align after the path to {@code depth}, or 256, from the
     * bytes found once.
     */
    private int nextWithin(int depth, int after) {
        return TypoRules.nextIn(within, within(depth), after);
    }

    /** Computes the row of {@code depth} for its byte {@code c} after {@code before}; returns its minimum. */
    private int row(int depth, int c, int before) {
        int min = TypoRules.nextRowWithin(
                typed,
                edits,
                (char) c,
                (char) before,
                rows[depth - 1],
                depth >= 2 ? rows[depth - 2] : null,
                rows[depth],
                depth,
                budget);
        bestEnd[depth] = Math.min(bestEnd[depth - 1], rows[depth][m]);
        rowMin[depth] = min;
        withinKnown[depth] = false;
        return min;
    }

    private void add(int side, int edits, int from, int to) {
        if (from >= to) {
            // A node of a merged table that this index does not hold.
            return;
        }
        if (found[side][edits] == null) {
            found[side][edits] = new Ranges();
        }
        found[side][edits].add(from, to);
    }
}
