package dev.autocomplete.index;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * A sorted array of keys, each a suffix of a zero-terminated folded name in a shared byte blob, held as the name
 * and the offset packed in as few bits as they need (the name gives the key's option), and the maximum weight of
 * every block of 64 keys (with where it is and bounds on the block's quarters), so that the heaviest options under
 * a prefix are found without visiting every key under it. Immutable, so thread-safe.
 */
final class KeyIndex {

    private static final int BLOCK_SHIFT = 6;
    private static final int BLOCK = 1 << BLOCK_SHIFT;
    private static final int SUPER_SHIFT = 12;
    private static final int SUPER = 1 << SUPER_SHIFT;
    private static final int KEY_LEVEL = 0;
    private static final int BLOCK_LEVEL = 1;
    private static final int SUPER_LEVEL = 2;
    /** Part of a block: its keys {@code [from, to)} are kept beside the heap. Above the others, so read first. */
    private static final int PART_LEVEL = 3;
    /** A range's end holding more keys of a block than this is one entry at the block's maximum. */
    private static final int PART = 4;

    private static final long INDEX_MASK = (1L << 30) - 1;
    private static final int SAMPLE_SHIFT = 5;
    private static final int HEAD = 8;
    private static final VarHandle LONG_VIEW = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final byte[] blob;
    /**
     * The keys in order, each a name and an offset into it packed in one int ({@code name << shift | offset}): the
     * key starts at {@code nameStarts.get(name) + offset} and belongs to the option {@code owners[name]} (the name
     * itself when {@code owners} is null). In as few bits as the largest key needs ({@link PackedInts}): 20 for a
     * million names, where a position and an option took 64.
     */
    private final PackedInts keys;

    private final Positions nameStarts;
    private final int[] owners;
    private final int shift;
    private final int mask;
    /** Whether {@code nameStarts} and {@code owners} are this index's own (else the catalog's, counted there). */
    private final boolean ownsNames;

    /** Per block of 64 keys: its heaviest weight, where that key is, and bounds on the rest by quarters. */
    private final Maxima blocks;
    /** Per super block of 64 blocks, the same of its blocks. */
    private final Maxima supers;

    private final float[] weights;
    private final int maxLength;
    /**
     * The first 8 bytes of every 32nd key, big-endian: a search past the table's depth, within one of its nodes, stays
     * in this array but for the last few keys.
     */
    private final long[] heads;
    /** The first levels of the trie, where most seeks of the typo walk land. */
    private final TrieTop top;
    /** The heaviest keys of the largest prefixes' ranges (null while they are computed, by a search without them). */
    private final RangeTops tops;

    /**
     * @param blob folded names, each followed by a 0 byte
     * @param positions where each key starts in {@code blob}
     * @param ownerOf the option of the key starting at a position
     * @param weights every option's weight
     */
    KeyIndex(byte[] blob, int[] positions, java.util.function.IntUnaryOperator ownerOf, float[] weights) {
        this(
                blob,
                sortedCopy(positions),
                null,
                ownersOf(sortedCopy(positions), ownerOf),
                identity(positions.length),
                0,
                weights,
                true);
    }

    /**
     * @param blob folded names, each followed by a 0 byte
     * @param nameStarts where each name starts in {@code blob}, ascending (read while building only)
     * @param names the same, as kept (shared, not copied)
     * @param owners the option of each name, or null when name {@code i} is option {@code i} (shared, not copied)
     * @param keys the keys as {@code name << shift | offset}, {@code name << shift} below 2^31; sorted here in place
     * @param shift how many low bits of a key hold its offset in its name
     * @param weights every option's weight
     */
    KeyIndex(byte[] blob, int[] nameStarts, Positions names, int[] owners, int[] keys, int shift, float[] weights) {
        this(blob, nameStarts, names, owners, keys, shift, weights, false);
    }

    private KeyIndex(
            byte[] blob,
            int[] nameStarts,
            Positions names,
            int[] owners,
            int[] keys,
            int shift,
            float[] weights,
            boolean ownsNames) {
        this.blob = blob;
        this.weights = weights;
        this.nameStarts = names != null ? names : new Positions(nameStarts);
        this.owners = owners;
        this.shift = shift;
        this.mask = (1 << shift) - 1;
        this.ownsNames = ownsNames;
        // The longest key, read in the keys' given order, which is mostly the blob's, before they are sorted.
        int longest = 0;
        for (int key : keys) {
            longest = Math.max(longest, lengthAt(nameStarts[key >>> shift] + (key & mask)));
        }
        sort(keys, nameStarts);
        this.keys = new PackedInts(keys);
        // Each key's head, option and weight read once, from the build's plain arrays rather than the packed ones.
        TrieTop.Builder topLevels = new TrieTop.Builder();
        float[] keyWeights = new float[keys.length];
        long[] sampled = new long[((keys.length - 1) >> SAMPLE_SHIFT) + 1];
        for (int k = 0; k < keys.length; k++) {
            int name = keys[k] >>> shift;
            long head = headAt(nameStarts[name] + (keys[k] & mask));
            topLevels.add(head);
            if ((k & ((1 << SAMPLE_SHIFT) - 1)) == 0) {
                sampled[k >> SAMPLE_SHIFT] = head;
            }
            keyWeights[k] = weights[owners == null ? name : owners[name]];
        }
        this.maxLength = longest;
        this.top = topLevels.build();
        this.blocks = new Maxima(keyWeights);
        this.supers = new Maxima(blocks.max);
        this.heads = sampled;
        this.tops = RangeTops.of(this);
    }

    private static int[] sortedCopy(int[] positions) {
        int[] sorted = positions.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    private static int[] ownersOf(int[] positions, java.util.function.IntUnaryOperator ownerOf) {
        int[] owners = new int[positions.length];
        for (int i = 0; i < positions.length; i++) {
            owners[i] = ownerOf.applyAsInt(positions[i]);
        }
        return owners;
    }

    private static int[] identity(int n) {
        int[] keys = new int[n];
        Arrays.setAll(keys, i -> i);
        return keys;
    }

    int size() {
        return keys.size();
    }

    long heapBytes() {
        long names = ownsNames ? nameStarts.heapBytes() + (owners == null ? 0 : 4L * owners.length) : 0;
        return keys.heapBytes()
                + names
                + blocks.heapBytes()
                + supers.heapBytes()
                + 8L * heads.length
                + top.heapBytes()
                + tops.heapBytes();
    }

    /** {@link #heapBytes} array by array, each named after {@code what}. */
    void heapBreakdown(String what, java.util.Map<String, Long> parts) {
        parts.put(what + ": keys (name and offset, " + keys.bits() + " bits)", keys.heapBytes());
        if (ownsNames) {
            parts.put(what + ": names", nameStarts.heapBytes() + (owners == null ? 0 : 4L * owners.length));
        }
        parts.put(what + ": block maxima", blocks.heapBytes() + supers.heapBytes());
        parts.put(what + ": sampled heads", 8L * heads.length);
        parts.put(what + ": trie top", top.heapBytes());
        parts.put(what + ": heaviest of " + tops.count() + " large prefixes", tops.heapBytes());
    }

    int option(int k) {
        int name = keys.get(k) >>> shift;
        return owners == null ? name : owners[name];
    }

    /** Where key {@code k} starts in the blob. */
    int position(int k) {
        int key = keys.get(k);
        return nameStarts.get(key >>> shift) + (key & mask);
    }

    int maxLength() {
        return maxLength;
    }

    /** The key's byte at {@code i} (0 to 255), or -1 past its end. */
    int byteAt(int k, int i) {
        int b = blob[position(k) + i] & 0xff;
        return b == 0 ? -1 : b;
    }

    /** The length of the key (or of its tail) starting at blob position {@code p}. */
    private int lengthAt(int p) {
        int i = p;
        while (blob[i] != 0) {
            i++;
        }
        return i - p;
    }

    /** The first levels of the trie the keys form, for a walk that reads its shallow nodes without the keys. */
    TrieTop top() {
        return top;
    }

    /**
     * Copies key {@code k}'s bytes from {@code from} into {@code into} (at the same indexes), up to its terminator
     * (copied as 0) or {@code limit}; returns the index of the terminator, or {@code limit}. One read of the key
     * where {@link #byteAt} reads it again for every byte.
     */
    int copy(int k, int from, byte[] into, int limit) {
        int p = position(k);
        for (int i = from; i < limit; i++) {
            byte b = blob[p + i];
            into[i] = b;
            if (b == 0) {
                return i;
            }
        }
        return limit;
    }

    /**
     * At least the heaviest weight of the keys in {@code [from, to)}: the maxima of the blocks they touch, so
     * possibly more. A few reads for a range of up to a few blocks.
     */
    float weightBound(int from, int to) {
        if (from >= to) {
            return Float.NEGATIVE_INFINITY;
        }
        float max = Float.NEGATIVE_INFINITY;
        int b = from >> BLOCK_SHIFT;
        int last = (to - 1) >> BLOCK_SHIFT;
        while (b <= last) {
            if ((b & ((SUPER >> BLOCK_SHIFT) - 1)) == 0 && ((b + (SUPER >> BLOCK_SHIFT)) - 1) <= last) {
                max = Math.max(max, supers.max[b >> (SUPER_SHIFT - BLOCK_SHIFT)]);
                b += SUPER >> BLOCK_SHIFT;
            } else {
                max = Math.max(max, blocks.max[b]);
                b++;
            }
        }
        return max;
    }

    /**
     * The first key in {@code [k, to)} of an option weighing at least {@code floor}, or {@code to}: whole blocks
     * lighter are skipped.
     */
    int nextAtLeast(int k, int to, float floor) {
        while (k < to) {
            if (blocks.max[k >> BLOCK_SHIFT] < floor) {
                k = ((k >> BLOCK_SHIFT) + 1) << BLOCK_SHIFT;
            } else if (weights[option(k)] < floor) {
                k++;
            } else {
                return k;
            }
        }
        return to;
    }

    /** The first key not below {@code prefix} (unsigned byte order). */
    int lowerBound(byte[] prefix) {
        if (prefix.length > 0 && prefix.length <= HEAD) {
            return firstWithHead(headOf(prefix), prefix.length);
        }
        int[] range = sharingTop(prefix);
        int lo = range[0];
        int hi = range[1];
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(mid, prefix, false) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The keys that share the first {@link TrieTop#DEPTH} bytes of a longer {@code prefix}, from the table (every key
     * for an empty prefix): a search for the prefix's bounds need look nowhere else (the keys before are smaller,
     * those after larger), so it reads a few keys there instead of some twenty across the index.
     */
    private int[] sharingTop(byte[] prefix) {
        if (prefix.length < TrieTop.DEPTH) {
            return new int[] {0, keys.size()};
        }
        return top.keysOf(TrieTop.DEPTH, top.nodeOf(TrieTop.DEPTH, headOf(prefix)));
    }

    /**
     * The keys that start with {@code prefix}, as {@code {from, to}}: {@link #lowerBound} and {@link #upperBound}, in
     * one descent of the table for a prefix no longer than its levels.
     */
    int[] prefixRange(byte[] prefix) {
        if (prefix.length > 0 && prefix.length <= TrieTop.DEPTH) {
            return top.keysOf(prefix.length, top.nodeOf(prefix.length, headOf(prefix)));
        }
        return new int[] {lowerBound(prefix), upperBound(prefix)};
    }

    /**
     * The keys equal to {@code key}, as {@code {from, to}} (equal keys sort first among those it starts): from the
     * table alone for a key shorter than its levels, else from the first key not below it on.
     */
    int[] equalRange(byte[] key) {
        if (key.length > 0 && key.length < TrieTop.DEPTH) {
            return top.equalKeysOf(key.length, top.nodeOf(key.length, headOf(key)));
        }
        int from = lowerBound(key);
        int to = from;
        while (to < size() && isKey(to, key)) {
            to++;
        }
        return new int[] {from, to};
    }

    /** The first key after every key that starts with {@code prefix}. */
    int upperBound(byte[] prefix) {
        if (prefix.length > 0 && prefix.length <= HEAD && (prefix[prefix.length - 1] & 0xff) < 0xff) {
            return firstWithHead(headOf(prefix) + (1L << (8 * (HEAD - prefix.length))), prefix.length);
        }
        int[] range = sharingTop(prefix);
        int lo = range[0];
        int hi = range[1];
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(mid, prefix, true) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The first key in {@code (k, to)} whose first {@code length} bytes differ from key {@code k}'s, or
     * {@code to}; {@code length} may count the key's terminator, so the key's length + 1 skips equal keys.
     * Gallops from {@code k}, so skipping a small subtree costs a few comparisons.
     */
    int endOfPrefix(int k, int length, int to) {
        if (length == 0) {
            return to;
        }
        if (length <= TrieTop.DEPTH) {
            return Math.min(to, top.firstAtLeast(length, keep(head(k), length) + (1L << (8 * (HEAD - length)))));
        }
        if (length <= HEAD) {
            return firstAtLeast(keep(head(k), length) + (1L << (8 * (HEAD - length))), k + 1, to);
        }
        int p = position(k); // decoded once for the whole search, not at every probe
        int step = 1;
        int lo = k;
        while (k + step < to && samePrefix(p, k + step, length)) {
            lo = k + step;
            step <<= 1;
        }
        int hi = Math.min(k + step, to);
        // Invariant: lo shares the prefix, hi does not (or is the end).
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (samePrefix(p, mid, length)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /**
     * The first key in {@code [k, to)} that shares key {@code k}'s first {@code depth} bytes and has a byte
     * of at least {@code b} at {@code depth}; or the first key past that shared prefix.
     */
    int seek(int k, int depth, int b, int to) {
        // Keys below the target share the prefix and hold a smaller byte at depth; gallop over them from k.
        int p = position(k); // decoded once for the whole search, not at every probe
        if (!below(p, k, depth, b)) {
            return k;
        }
        if (depth < HEAD) {
            if (b > 255) {
                return endOfPrefix(k, depth, to);
            }
            long target = keep(head(k), depth) | ((long) b << (8 * (HEAD - 1 - depth)));
            if (depth < TrieTop.DEPTH) {
                return Math.min(to, top.firstAtLeast(depth + 1, target));
            }
            return firstAtLeast(target, k + 1, to);
        }
        int step = 1;
        int lo = k;
        while (k + step < to && below(p, k + step, depth, b)) {
            lo = k + step;
            step <<= 1;
        }
        int hi = Math.min(k + step, to);
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (below(p, mid, depth, b)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** A prefix of at most 8 bytes as a head. */
    static long headOf(byte[] prefix) {
        long head = 0;
        for (int i = 0; i < HEAD; i++) {
            head = (head << 8) | (i < prefix.length ? prefix[i] & 0xff : 0);
        }
        return head;
    }

    /** The first key whose head is at least {@code target}, which is zero past its first {@code length} bytes. */
    private int firstWithHead(long target, int length) {
        if (length <= TrieTop.DEPTH) {
            return top.firstAtLeast(length, target);
        }
        // The keys sharing the target's first DEPTH bytes, from the table; the sampled heads are searched only there
        // (from the whole array, a gallop and a search over 1.2 MB of samples on the million: mostly cache misses).
        long node = keep(target, TrieTop.DEPTH);
        long next = node + (1L << (8 * (HEAD - TrieTop.DEPTH)));
        int from = top.firstAtLeast(TrieTop.DEPTH, node);
        int to = Long.compareUnsigned(next, node) > 0 ? top.firstAtLeast(TrieTop.DEPTH, next) : keys.size();
        return firstAtLeast(target, from, to);
    }

    /** The key's first 8 bytes, big-endian, zero after its end: ordered like the keys (unsigned). */
    private long head(int k) {
        return headAt(position(k));
    }

    /** The first 8 bytes of the key (or of its tail) starting at blob position {@code p}, as {@link #head}. */
    private long headAt(int p) {
        if (p + HEAD > blob.length) {
            return headByBytes(p);
        }
        // One 8-byte load, then the bytes from the terminator on are cleared: no loop, no branch per byte, so
        // the loads of several keys can be in flight at once.
        long word = (long) LONG_VIEW.get(blob, p);
        long zeros = ~(((word & 0x7f7f7f7f7f7f7f7fL) + 0x7f7f7f7f7f7f7f7fL) | word | 0x7f7f7f7f7f7f7f7fL);
        int kept = Long.numberOfLeadingZeros(zeros) >>> 3;
        return kept == HEAD ? word : word & ~(-1L >>> (8 * kept));
    }

    private long headByBytes(int p) {
        long head = 0;
        int i = 0;
        for (; i < HEAD; i++) {
            int b = blob[p + i] & 0xff;
            if (b == 0) {
                break;
            }
            head = (head << 8) | b;
        }
        return i == HEAD ? head : head << (8 * (HEAD - i));
    }

    private static long keep(long head, int bytes) {
        return TrieTop.keep(head, bytes);
    }

    /** The first key in {@code [from, to)} whose head is at least {@code target} (unsigned), or {@code to}. */
    private int firstAtLeast(long target, int from, int to) {
        if (from >= to) {
            return to;
        }
        // The first sample at or above the target, among the samples from `from` on: the answer is at most it
        // and above the sample before it.
        int lo = (from + (1 << SAMPLE_SHIFT) - 1) >> SAMPLE_SHIFT;
        int hi = Math.min(heads.length, ((to - 1) >> SAMPLE_SHIFT) + 1);
        // Gallop first: the answer is most often a few samples away.
        int bound = 1;
        while (lo + bound - 1 < hi && Long.compareUnsigned(heads[lo + bound - 1], target) < 0) {
            bound <<= 1;
        }
        hi = Math.min(hi, lo + bound);
        lo += bound >> 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(heads[mid], target) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        int right = Math.min(to, lo << SAMPLE_SHIFT);
        int left = Math.max(from, (lo - 1) << SAMPLE_SHIFT);
        // Invariant: keys before `left` are below the target, keys from `right` on are not.
        while (left < right) {
            int mid = (left + right) >>> 1;
            if (Long.compareUnsigned(head(mid), target) < 0) {
                left = mid + 1;
            } else {
                right = mid;
            }
        }
        return left;
    }

    /**
     * Whether key {@code j} shares the {@code depth} bytes at blob position {@code p} (a key's start) and holds a
     * smaller byte at {@code depth} (its terminator counts as smaller than any byte).
     */
    private boolean below(int p, int j, int depth, int b) {
        int q = position(j);
        if (!samePrefixAt(p, q, depth)) {
            return false;
        }
        int at = blob[q + depth] & 0xff;
        return (at == 0 ? -1 : at) < b;
    }

    /** Whether key {@code j} shares the first {@code length} bytes at blob position {@code p} (a key's start). */
    private boolean samePrefix(int p, int j, int length) {
        return samePrefixAt(p, position(j), length);
    }

    private boolean samePrefixAt(int p, int q, int length) {
        for (int i = 0; i < length; i++) {
            byte x = blob[p + i];
            if (x != blob[q + i]) {
                return false;
            }
            if (x == 0) {
                return true;
            }
        }
        return true;
    }

    /** Whether key {@code k} is {@code key}, byte for byte. */
    boolean isKey(int k, byte[] key) {
        return compare(k, key, false) == 0;
    }

    /** Compares key {@code k} with {@code prefix}; with {@code asPrefix}, a key that starts with it is equal. */
    private int compare(int k, byte[] prefix, boolean asPrefix) {
        int p = position(k);
        for (int i = 0; i < prefix.length; i++) {
            int a = blob[p + i] & 0xff;
            int b = prefix[i] & 0xff;
            if (a != b) {
                return a - b;
            }
        }
        return asPrefix || blob[p + prefix.length] == 0 ? 0 : 1;
    }

    /**
     * Feeds the keys of the disjoint ranges {@code [ranges[i], ranges[i + 1])} (even {@code i < length}) to
     * {@code accept}, heaviest option first, then in key order, until {@code wanted} of them passed
     * {@code accept} (which may record them) or the options left weigh less than {@code floor}: one search, so
     * the keys of many ranges are ranked together, and blocks whose heaviest key cannot beat what is already
     * taken are never read.
     */
    void heaviest(int[] ranges, int length, int wanted, float floor, IntPredicate accept) {
        if (wanted <= 0 || (length == 2 && ranges[0] >= ranges[1])) {
            return;
        }
        int skip = 0;
        int kept = length == 2 && tops != null ? tops.find(ranges[0], ranges[1]) : -1;
        if (kept >= 0) {
            // A large prefix's first keys are kept in this order: read them, and search only past them.
            int least = sortable(floor);
            for (int i = 0; i < RangeTops.KEYS; i++) {
                int key = tops.key(kept, i);
                if (sortable(weights[option(key)]) < least) {
                    return;
                }
                if (accept.test(key) && --wanted == 0) {
                    return;
                }
            }
            skip = RangeTops.KEYS;
        }
        LongHeap heap = new LongHeap();
        for (int r = 0; r < length; r += 2) {
            cover(ranges[r], ranges[r + 1], floor, heap);
        }
        drain(heap, wanted, sortable(floor), skip, accept);
    }

    /**
     * Covers {@code [from, to)} with keys, blocks of 64 keys and super blocks of 4,096, largest where aligned; the
     * part of a block a range holds, when more than a few keys, as one entry at the block's maximum, read only when
     * it comes first (a range's ends cost one entry each, not up to 63). The part of a block at a range's end, when
     * that block is lighter than {@code floor}, is left out unread: a delta searched under a main index's full list
     * reads the maxima of its few keys' blocks, not their weights.
     */
    private void cover(int from, int to, float floor, LongHeap heap) {
        int k = from;
        while (k < to) {
            if ((k & (SUPER - 1)) == 0 && k + SUPER <= to) {
                heap.add(entry(supers.max[k >> SUPER_SHIFT], k >> SUPER_SHIFT, SUPER_LEVEL));
                k += SUPER;
            } else if ((k & (BLOCK - 1)) == 0 && k + BLOCK <= to) {
                heap.add(entry(blocks.max[k >> BLOCK_SHIFT], k >> BLOCK_SHIFT, BLOCK_LEVEL));
                k += BLOCK;
            } else {
                int end = Math.min(to, ((k >> BLOCK_SHIFT) + 1) << BLOCK_SHIFT);
                if (floor > Float.NEGATIVE_INFINITY && blocks.max[k >> BLOCK_SHIFT] < floor) {
                    k = end;
                    continue;
                }
                if (end - k > PART) {
                    heap.add(entry(blocks.max[k >> BLOCK_SHIFT], heap.part(k, end), PART_LEVEL));
                } else {
                    for (; k < end; k++) {
                        heap.add(entry(weights[option(k)], k, KEY_LEVEL));
                    }
                }
                k = end;
            }
        }
    }

    /** Feeds the heap's keys to {@code accept} in order, the first {@code skip} of them left out (fed already). */
    private void drain(LongHeap heap, int wanted, int floor, int skip, IntPredicate accept) {
        int taken = 0;
        while (heap.size() > 0 && taken < wanted) {
            if ((int) (heap.peek() >>> 32) < floor) {
                return;
            }
            long top = heap.poll();
            int level = (int) ((top >>> 30) & 3);
            int index = level == KEY_LEVEL ? (int) (INDEX_MASK - (top & INDEX_MASK)) : (int) (top & INDEX_MASK);
            if (level == SUPER_LEVEL) {
                // Its heaviest block, and its other blocks as parts (by quarters) at bounds of their maxima.
                supers.split(index, BLOCK_SHIFT, BLOCK_LEVEL, heap);
            } else if (level == BLOCK_LEVEL) {
                // Its heaviest key, and its other keys as parts of at most 16 at bounds of their weights: most
                // blocks are read for one key, which then costs no read of the other 63 keys' weights.
                blocks.split(index, 0, KEY_LEVEL, heap);
            } else if (level == PART_LEVEL) {
                int from = heap.partFrom(index);
                int to = heap.partTo(index);
                if (to - from >= BLOCK) {
                    // Whole blocks of a super block (a part of keys lies within one block, so holds fewer).
                    for (int b = from >> BLOCK_SHIFT; b < to >> BLOCK_SHIFT; b++) {
                        heap.add(entry(blocks.max[b], b, BLOCK_LEVEL));
                    }
                } else {
                    for (int key = from; key < to; key++) {
                        heap.add(entry(weights[option(key)], key, KEY_LEVEL));
                    }
                }
            } else if (skip > 0) {
                skip--;
            } else if (accept.test(index)) {
                taken++;
            }
        }
    }

    /**
     * A heap entry: higher weights sort higher; the low bits hold an index and its level. Of two keys of equal
     * weight, the first in key order comes first.
     */
    private static long entry(float weight, int index, int level) {
        return entry(sortable(weight), index, level);
    }

    /** {@link #entry(float, int, int)} of a weight given as its {@link #sortable} bits. */
    private static long entry(int sortableWeight, int index, int level) {
        long low = level == KEY_LEVEL ? INDEX_MASK - index : index;
        return ((long) sortableWeight << 32) | ((long) level << 30) | low;
    }

    /** The weight's bits, flipped so that signed int order is the weights' order. */
    private static int sortable(float weight) {
        int bits = Float.floatToIntBits(weight);
        return bits ^ ((bits >> 31) & 0x7fffffff);
    }

    /**
     * The maxima of groups of 64 values (keys' weights, or blocks' maxima): each group's heaviest value, where it is
     * (the first of equal values), and for each quarter of the group a bound on its heaviest other value (a byte),
     * so that a group taken from the heap for its heaviest member yields it alone and keeps the rest unread, as
     * parts at those bounds: 9 bytes a group where the maxima alone took 4.
     */
    private static final class Maxima {
        /** Members per sub-group: a part read when reached is at most this many. */
        private static final int SUB_SHIFT = 4;

        private static final int SUBS = BLOCK >> SUB_SHIFT;
        /**
         * What a sub-group's code takes off its group's maximum, in {@link #sortable} units (2^23 to an octave of
         * weight): nothing, then 2^16 (1/128 of an octave), each code 2^(1/16) times the one before. A code is the
         * largest drop not past the sub-group's maximum, so its bound is never below it, and short of the true drop
         * by at most 4.2% of it (a drop under 2^16 by all of it).
         */
        private static final long[] DROPS = new long[256];

        static {
            for (int c = 1; c < DROPS.length; c++) {
                DROPS[c] = (long) Math.pow(2, 16 + (c - 1) / 16.0);
            }
        }

        final float[] max;
        private final byte[] maxAt;
        /** Per sub-group, its heaviest member other than its group's heaviest, as a code of {@link #DROPS}. */
        private final byte[] subCodes;

        Maxima(float[] values) {
            int groups = (values.length >> BLOCK_SHIFT) + 1;
            max = new float[groups];
            maxAt = new byte[groups];
            Arrays.fill(max, Float.NEGATIVE_INFINITY);
            for (int i = 0; i < values.length; i++) {
                int g = i >> BLOCK_SHIFT;
                if (values[i] > max[g]) {
                    max[g] = values[i];
                    maxAt[g] = (byte) (i & (BLOCK - 1));
                }
            }
            float[] subMax = new float[groups * SUBS];
            Arrays.fill(subMax, Float.NEGATIVE_INFINITY);
            for (int i = 0; i < values.length; i++) {
                int g = i >> BLOCK_SHIFT;
                if ((i & (BLOCK - 1)) != (maxAt[g] & 0xff)) {
                    int sub = i >> SUB_SHIFT;
                    subMax[sub] = Math.max(subMax[sub], values[i]);
                }
            }
            subCodes = new byte[subMax.length];
            for (int sub = 0; sub < subMax.length; sub++) {
                long drop = (long) sortable(max[sub / SUBS]) - sortable(subMax[sub]);
                int at = Arrays.binarySearch(DROPS, drop);
                subCodes[sub] = (byte) (at >= 0 ? at : -at - 2); // the largest drop not above the sub-group's
            }
        }

        long heapBytes() {
            return 5L * max.length + subCodes.length;
        }

        /**
         * Puts group {@code g}'s heaviest member into the heap as an entry of {@code level} at the group's maximum,
         * and its others (each {@code 1 << keyShift} keys) as parts of keys, a part per sub-group at a bound of its
         * maximum.
         */
        void split(int g, int keyShift, int level, LongHeap heap) {
            int from = g << BLOCK_SHIFT;
            int first = from + (maxAt[g] & 0xff);
            int top = sortable(max[g]);
            heap.add(entry(top, first, level));
            for (int sub = 0; sub < SUBS; sub++) {
                int lo = from + (sub << SUB_SHIFT);
                int hi = lo + (1 << SUB_SHIFT);
                int bound = (int) Math.max(Integer.MIN_VALUE, top - DROPS[subCodes[g * SUBS + sub] & 0xff]);
                if (first < lo || first >= hi) {
                    heap.add(entry(bound, heap.part(lo << keyShift, hi << keyShift), PART_LEVEL));
                    continue;
                }
                if (first > lo) {
                    heap.add(entry(bound, heap.part(lo << keyShift, first << keyShift), PART_LEVEL));
                }
                if (first + 1 < hi) {
                    heap.add(entry(bound, heap.part((first + 1) << keyShift, hi << keyShift), PART_LEVEL));
                }
            }
        }
    }

    /** A max-heap of longs, without boxing; and the key ranges of the parts of blocks it holds. */
    private static final class LongHeap {
        private long[] items = new long[64];
        private int size;
        private int[] parts = new int[16];
        private int partCount;

        /** Keeps the part {@code [from, to)} of a block; returns its number. */
        int part(int from, int to) {
            if (2 * partCount + 2 > parts.length) {
                parts = Arrays.copyOf(parts, parts.length * 2);
            }
            parts[2 * partCount] = from;
            parts[2 * partCount + 1] = to;
            return partCount++;
        }

        int partFrom(int part) {
            return parts[2 * part];
        }

        int partTo(int part) {
            return parts[2 * part + 1];
        }

        int size() {
            return size;
        }

        void add(long item) {
            if (size == items.length) {
                items = Arrays.copyOf(items, size * 2);
            }
            int i = size++;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (items[parent] >= item) {
                    break;
                }
                items[i] = items[parent];
                i = parent;
            }
            items[i] = item;
        }

        long peek() {
            return items[0];
        }

        long poll() {
            long top = items[0];
            long last = items[--size];
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && items[child + 1] > items[child]) {
                    child++;
                }
                if (items[child] <= last) {
                    break;
                }
                items[i] = items[child];
                i = child;
            }
            items[i] = last;
            return top;
        }
    }

    /**
     * Sorts packed keys by their bytes, then (equal keys) by their value: a multikey quicksort (Bentley and
     * Sedgewick) over eight bytes at a time. Each key's next eight bytes are read from the blob once into {@code
     * chunks} and the partitions compare those, where comparing byte by byte read the blob at random for every
     * comparison (a tenth of a catalog's build).
     */
    private void sort(int[] a, int[] starts) {
        long[] chunks = new long[a.length];
        fill(a, chunks, 0, a.length, 0, starts);
        sort(a, chunks, 0, a.length, 0, starts);
    }

    private void fill(int[] a, long[] chunks, int lo, int hi, int depth, int[] starts) {
        for (int i = lo; i < hi; i++) {
            chunks[i] = chunk(a[i], depth, starts);
        }
    }

    /**
     * The key's eight bytes from {@code depth}, big-endian, zeros after its end, with the sign bit flipped so that
     * signed order is the bytes' order. Its lowest byte is 0 when the key ends within them.
     */
    private long chunk(int key, int depth, int[] starts) {
        return headAt(starts[key >>> shift] + (key & mask) + depth) ^ Long.MIN_VALUE;
    }

    private void sort(int[] a, long[] chunks, int lo, int hi, int depth, int[] starts) {
        while (hi - lo > 1) {
            if (hi - lo < 12) {
                insertionSort(a, chunks, lo, hi, depth, starts);
                return;
            }
            long pivot = median(chunks[lo], chunks[lo + (hi - lo) / 2], chunks[hi - 1]);
            int lt = lo;
            int gt = hi - 1;
            int i = lo;
            while (i <= gt) {
                long c = chunks[i];
                if (c < pivot) {
                    swap(a, chunks, lt++, i++);
                } else if (c > pivot) {
                    swap(a, chunks, i, gt--);
                } else {
                    i++;
                }
            }
            sort(a, chunks, lo, lt, depth, starts);
            sort(a, chunks, gt + 1, hi, depth, starts);
            if ((pivot & 0xff) == 0) {
                // Equal keys keep the order of their names and offsets, which is the options' order: ties then rank
                // the same in one catalog as in a main catalog and a delta merged.
                Arrays.sort(a, lt, gt + 1);
                return;
            }
            lo = lt;
            hi = gt + 1;
            depth += Long.BYTES;
            fill(a, chunks, lo, hi, depth, starts);
        }
    }

    private static long median(long x, long y, long z) {
        return Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
    }

    private void insertionSort(int[] a, long[] chunks, int lo, int hi, int depth, int[] starts) {
        for (int i = lo + 1; i < hi; i++) {
            for (int j = i; j > lo && less(a[j], chunks[j], a[j - 1], chunks[j - 1], depth, starts); j--) {
                swap(a, chunks, j, j - 1);
            }
        }
    }

    /** Whether key {@code p} sorts before {@code q}, given their chunks at {@code depth}. */
    private boolean less(int p, long pChunk, int q, long qChunk, int depth, int[] starts) {
        if (pChunk != qChunk) {
            return pChunk < qChunk;
        }
        if ((pChunk & 0xff) == 0) {
            return p < q;
        }
        for (int i = depth + Long.BYTES; ; i++) {
            int x = at(p, i, starts);
            int y = at(q, i, starts);
            if (x != y) {
                return x < y;
            }
            if (x == 0) {
                return p < q;
            }
        }
    }

    /** The byte at {@code depth} of a key being sorted, its name's start read from the build's plain array. */
    private int at(int key, int depth, int[] starts) {
        return blob[starts[key >>> shift] + (key & mask) + depth] & 0xff;
    }

    private static void swap(int[] a, long[] chunks, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
        long c = chunks[i];
        chunks[i] = chunks[j];
        chunks[j] = c;
    }
}
