package dev.autocomplete.index;

import java.util.Arrays;

/**
 * The nodes of the first levels of the trie that sorted keys form: for each depth from 1 to {@link #DEPTH}, every
 * distinct run of the keys' first bytes (zero past a key's end, so that every key belongs to one node per depth), as
 * its byte at that depth, its first child at the next depth, and the index of its first key. Nodes are numbered per
 * depth in key order, so a node's children are a contiguous run of the next depth, sorted by their byte. Seeks and
 * subtree skips that stay within these levels descend this small, contiguous table instead of reading keys from the
 * blob: a node costs 9 bytes (5 at the deepest level), and the bytes a walk scans for a child sit together. Immutable.
 */
final class TrieTop {

    /**
     * The deepest level kept. Six levels cost about 1.4 bytes an option of the million places' start keys (five cost
     * 0.6), and take the typo walk's seeks among the keys of six- and seven-letter typos into the table: below five
     * levels each landing on a key is a few cache misses, and those made the slowest one-typo lookups.
     */
    static final int DEPTH = 6;

    /** Per depth, each node's byte at that depth (its last). */
    private final byte[][] bytes;

    /**
     * Per depth from 0 (the root, one node) to {@code DEPTH - 1}, the first child of each node at the next depth, then
     * the number of nodes there: node {@code n}'s children are {@code [children[d][n], children[d][n + 1])}.
     */
    private final int[][] children;

    /**
     * Per depth, the first key of each node, then the number of keys; in a {@link #merge merged} table, the first key
     * at least the node's prefix (a node this index does not hold has no keys: it starts where the next one does).
     */
    private final int[][] starts;

    /** A table of the nodes of each depth's sorted, distinct prefixes (heads, zero past the depth), and their starts. */
    private TrieTop(long[][] prefixes, int[][] starts) {
        this(shapeOf(prefixes, null, null), starts);
    }

    private TrieTop(Shape shape, int[][] starts) {
        this(shape.bytes(), shape.children(), starts);
    }

    /** The nodes of a table without their starts, which two {@link #merge merged} tables share. */
    private record Shape(byte[][] bytes, int[][] children) {}

    private TrieTop(byte[][] bytes, int[][] children, int[][] starts) {
        this.bytes = bytes;
        this.children = children;
        this.starts = starts;
    }

    /**
     * The bytes and children of the nodes of {@code prefixes}, each level's taken from {@code same} (or null) where
     * {@code unchanged} says that level's prefixes are that table's: the bytes of an unchanged level, and the children
     * of one whose next level is unchanged too.
     */
    private static Shape shapeOf(long[][] prefixes, TrieTop same, boolean[] unchanged) {
        byte[][] bytes = new byte[DEPTH + 1][];
        int[][] children = new int[DEPTH][];
        children[0] = same != null && unchanged[1] ? same.children[0] : new int[] {0, prefixes[1].length};
        for (int d = 1; d <= DEPTH; d++) {
            long[] level = prefixes[d];
            if (same != null && unchanged[d]) {
                bytes[d] = same.bytes[d];
            } else {
                bytes[d] = new byte[level.length];
                for (int n = 0; n < level.length; n++) {
                    bytes[d][n] = (byte) (level[n] >>> (8 * (8 - d)));
                }
            }
            if (d == DEPTH) {
                break;
            }
            if (same != null && unchanged[d] && unchanged[d + 1]) {
                children[d] = same.children[d];
                continue;
            }
            long[] next = prefixes[d + 1];
            int[] first = new int[level.length + 1];
            int child = 0;
            for (int n = 0; n < level.length; n++) {
                while (child < next.length && Long.compareUnsigned(keep(next[child], d), level[n]) < 0) {
                    child++;
                }
                first[n] = child;
            }
            first[level.length] = next.length;
            children[d] = first;
        }
        return new Shape(bytes, children);
    }

    /**
     * The tables of two indexes (a main index and its delta) over the same nodes: every prefix either holds, each
     * table with its own index's keys under it (none where it holds no such key). A walk of both then steps through
     * one table and reads each index's keys from the same node number, instead of seeking the same prefixes twice.
     * The two share their nodes; a level where the second index holds no prefix the first does not keeps the first's
     * arrays (only the second's starts are new there).
     */
    static TrieTop[] merge(TrieTop a, TrieTop b) {
        long[][] x = a.prefixes();
        long[][] y = b.prefixes();
        long[][] prefixes = new long[DEPTH + 1][];
        int[][] aStarts = new int[DEPTH + 1][];
        int[][] bStarts = new int[DEPTH + 1][];
        boolean[] unchanged = new boolean[DEPTH + 1];
        for (int d = 1; d <= DEPTH; d++) {
            int n = merged(x[d], y[d], null, null, null, null, null);
            unchanged[d] = n == x[d].length;
            prefixes[d] = unchanged[d] ? x[d] : new long[n];
            aStarts[d] = unchanged[d] ? a.starts[d] : new int[n + 1];
            bStarts[d] = new int[n + 1];
            merged(
                    x[d],
                    y[d],
                    a.starts[d],
                    b.starts[d],
                    unchanged[d] ? null : prefixes[d],
                    unchanged[d] ? null : aStarts[d],
                    bStarts[d]);
            aStarts[d][n] = a.starts[d][x[d].length];
            bStarts[d][n] = b.starts[d][y[d].length];
        }
        Shape shape = shapeOf(prefixes, a, unchanged);
        return new TrieTop[] {new TrieTop(shape, aStarts), new TrieTop(shape, bStarts)};
    }

    /**
     * Merges two levels' sorted prefixes, each distinct, into {@code both} (or nowhere, for null), with each one's
     * first key at least each merged prefix ({@code fromX}, {@code fromY}, null for none); returns how many there are.
     */
    private static int merged(long[] x, long[] y, int[] xStarts, int[] yStarts, long[] both, int[] fromX, int[] fromY) {
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < x.length || j < y.length) {
            long next = j == y.length || (i < x.length && Long.compareUnsigned(x[i], y[j]) <= 0) ? x[i] : y[j];
            if (both != null) {
                both[n] = next;
            }
            if (fromX != null) {
                fromX[n] = xStarts[i];
            }
            if (fromY != null) {
                fromY[n] = yStarts[j];
            }
            i += i < x.length && x[i] == next ? 1 : 0;
            j += j < y.length && y[j] == next ? 1 : 0;
            n++;
        }
        return n;
    }

    /** Per depth, the nodes' prefixes in order (heads, zero past the depth), rebuilt from the bytes. */
    long[][] prefixes() {
        long[][] prefixes = new long[DEPTH + 1][];
        prefixes[1] = new long[nodes(1)];
        for (int n = 0; n < nodes(1); n++) {
            prefixes[1][n] = (long) (bytes[1][n] & 0xff) << 56;
        }
        for (int d = 1; d < DEPTH; d++) {
            long[] next = new long[nodes(d + 1)];
            int shift = 8 * (7 - d);
            for (int n = 0; n < nodes(d); n++) {
                for (int c = children[d][n]; c < children[d][n + 1]; c++) {
                    next[c] = prefixes[d][n] | (long) (bytes[d + 1][c] & 0xff) << shift;
                }
            }
            prefixes[d + 1] = next;
        }
        return prefixes;
    }

    /** The bytes {@link #merge} added to the first table's: the arrays that are not the first's own. */
    long heapBytesBeyond(TrieTop first) {
        long total = 0;
        for (int d = 1; d <= DEPTH; d++) {
            total += (bytes[d] == first.bytes[d] ? 0 : bytes[d].length)
                    + (starts[d] == first.starts[d] ? 0 : 4L * starts[d].length)
                    + (d == DEPTH || children[d] == first.children[d] ? 0 : 4L * children[d].length);
        }
        return total;
    }

    /** Collects the nodes from the keys' heads, given in key order (while a key's bytes are in cache anyway). */
    static final class Builder {
        private final long[][] prefixList = new long[DEPTH + 1][16];
        private final int[][] startList = new int[DEPTH + 1][16];
        private final int[] count = new int[DEPTH + 1];
        private int size;

        /** @param head the next key's first 8 bytes, big-endian, zero past its end */
        void add(long head) {
            for (int d = 1; d <= DEPTH; d++) {
                long prefix = keep(head, d);
                int n = count[d];
                if (n > 0 && prefixList[d][n - 1] == prefix) {
                    continue;
                }
                if (n == prefixList[d].length) {
                    prefixList[d] = Arrays.copyOf(prefixList[d], n * 2);
                    startList[d] = Arrays.copyOf(startList[d], n * 2);
                }
                prefixList[d][n] = prefix;
                startList[d][n] = size;
                count[d] = n + 1;
            }
            size++;
        }

        TrieTop build() {
            long[][] prefixes = new long[DEPTH + 1][];
            int[][] starts = new int[DEPTH + 1][];
            for (int d = 1; d <= DEPTH; d++) {
                prefixes[d] = Arrays.copyOf(prefixList[d], count[d]);
                starts[d] = Arrays.copyOf(startList[d], count[d] + 1);
                starts[d][count[d]] = size;
            }
            return new TrieTop(prefixes, starts);
        }
    }

    long heapBytes() {
        long total = 0;
        for (int d = 1; d <= DEPTH; d++) {
            total += bytes[d].length + 4L * starts[d].length + (d < DEPTH ? 4L * children[d].length : 0);
        }
        return total;
    }

    /**
     * The first key whose first {@code depth} bytes (as a head, zero past them) are at least {@code target}
     * (unsigned, and zero past {@code depth} bytes), or the number of keys: a descent from the root, each level a
     * scan of one node's children.
     */
    int firstAtLeast(int depth, long target) {
        return starts[depth][nodeAtLeast(depth, target)];
    }

    /** The first node at {@code depth} whose prefix is at least {@code target} (a head), or {@code nodes(depth)}. */
    int nodeAtLeast(int depth, long target) {
        int node = nodeOf(depth, target);
        return node < 0 ? ~node : node;
    }

    /**
     * The node at {@code depth} whose prefix is {@code target} (a head, zero past {@code depth} bytes), or, when no
     * node has it, the complement ({@code ~n}) of the first node past it: {@link #nodeAtLeast} that also says whether
     * the keys hold the prefix.
     */
    int nodeOf(int depth, long target) {
        int node = 0;
        for (int d = 1; d <= depth; d++) {
            int b = (int) (target >>> (8 * (8 - d))) & 0xff;
            int end = children[d - 1][node + 1];
            int child = children[d - 1][node];
            byte[] level = bytes[d];
            while (child < end && (level[child] & 0xff) < b) {
                child++;
            }
            if (child == end || (level[child] & 0xff) > b) {
                // Every prefix from this child's on is past the target: its first node at the depth asked.
                for (; d < depth; d++) {
                    child = children[d][child];
                }
                return ~child;
            }
            node = child;
        }
        return node;
    }

    /**
     * The keys under a node of {@code depth} as {@code {from, to}}, given {@link #nodeOf}'s answer: the node's keys,
     * or none (at the first key past the prefix) for a complement. A merged table answers with its own index's keys.
     */
    int[] keysOf(int depth, int nodeOf) {
        if (nodeOf < 0) {
            int at = starts[depth][~nodeOf];
            return new int[] {at, at};
        }
        return new int[] {starts[depth][nodeOf], starts[depth][nodeOf + 1]};
    }

    /**
     * The keys equal to the prefix of a node of {@code depth} below the deepest level, as {@code {from, to}}, given
     * {@link #nodeOf}'s answer: a key that ends there has a zero byte one level down, its node's first child; none
     * for a complement or a node without such a child. Read from the table alone, no key.
     */
    int[] equalKeysOf(int depth, int nodeOf) {
        if (nodeOf >= 0) {
            int child = children[depth][nodeOf];
            if (child < children[depth][nodeOf + 1] && bytes[depth + 1][child] == 0) {
                return new int[] {starts[depth + 1][child], starts[depth + 1][child + 1]};
            }
        }
        int at = starts[depth][nodeOf < 0 ? ~nodeOf : nodeOf];
        return new int[] {at, at};
    }

    /** How many nodes the level of {@code depth} holds. */
    int nodes(int depth) {
        return bytes[depth].length;
    }

    /** Node {@code node}'s byte at its depth (its last), unsigned. */
    int byteAt(int depth, int node) {
        return bytes[depth][node] & 0xff;
    }

    /** The first child at {@code depth + 1} of node {@code node} at {@code depth} (0, with node 0, for the root). */
    int firstChild(int depth, int node) {
        return children[depth][node];
    }

    /** The first key of node {@code node} at {@code depth}; for {@code nodes(depth)}, the number of keys. */
    int start(int depth, int node) {
        return starts[depth][node];
    }

    /** The first {@code bytes} bytes of a head, zero after them. */
    static long keep(long head, int bytes) {
        return bytes == 0 ? 0 : bytes >= 8 ? head : head & ~(-1L >>> (8 * bytes));
    }
}
