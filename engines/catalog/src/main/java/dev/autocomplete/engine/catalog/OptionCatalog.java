package dev.autocomplete.engine.catalog;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

import dev.autocomplete.spi.ContextNames;
import dev.autocomplete.spi.TextFolding;

/**
 * An immutable, weighted list of options with a prefix index over every word of each option's text and
 * aliases, so that {@code lon} finds London and {@code york} finds New York, give or take the typos
 * {@link Typos} allows. Thread-safe.
 *
 * <p>Built for millions of options: texts and folded names live in two byte blobs, and the index is two
 * sorted arrays of positions into the folded blob ({@link KeyIndex}): keys at the start of a text or alias,
 * and keys at an inner word. A match at the start ranks above a match at an inner word, then by weight.
 */
final class OptionCatalog {

    /** Where a prefix matched: lower is better. An alias matches like the option's own text. */
    static final int AT_START = 0;
    static final int AT_WORD = 2;

    /** An option that matched a prefix with {@code edits} typos (0 for a plain prefix match). */
    record Match(int option, int where, int edits) {

        Match(int option, int where) {
            this(option, where, 0);
        }
    }

    /** One option as read from config or a data file. */
    record Entry(String text, double weight, List<String> aliases) {
    }

    private final byte[] texts;
    private final int[] textStarts;
    private final float[] weights;
    private final Map<Integer, String[]> aliases;
    private final byte[] names;
    private final int[] nameStarts;
    private final int[] firstName;
    private final int[] byWeight;
    private final KeyIndex starts;
    private final KeyIndex words;

    OptionCatalog(List<Entry> entries) {
        int n = entries.size();
        weights = new float[n];
        textStarts = new int[n + 1];
        firstName = new int[n + 1];
        Map<Integer, String[]> aliasMap = new HashMap<>();
        ByteBuffer textBytes = new ByteBuffer();
        ByteBuffer nameBytes = new ByteBuffer();
        IntBuffer nameStartList = new IntBuffer();
        IntBuffer startKeys = new IntBuffer();
        IntBuffer wordKeys = new IntBuffer();
        for (int i = 0; i < n; i++) {
            Entry entry = entries.get(i);
            weights[i] = (float) entry.weight();
            textStarts[i] = textBytes.size();
            textBytes.add(entry.text().getBytes(StandardCharsets.UTF_8));
            firstName[i] = nameStartList.size();
            List<String> folded = new ArrayList<>();
            folded.add(TextFolding.fold(entry.text()));
            List<String> kept = new ArrayList<>();
            for (String alias : entry.aliases()) {
                String f = TextFolding.fold(alias);
                if (!f.isEmpty()) {
                    folded.add(f);
                    kept.add(alias);
                }
            }
            if (!kept.isEmpty()) {
                aliasMap.put(i, kept.toArray(String[]::new));
            }
            for (String name : folded) {
                int start = nameBytes.size();
                nameStartList.add(start);
                byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
                nameBytes.add(bytes);
                nameBytes.add(new byte[] {0});
                if (bytes.length > 0) {
                    startKeys.add(start);
                }
                for (int b = 0; b < bytes.length; b++) {
                    if (bytes[b] == ' ') {
                        wordKeys.add(start + b + 1);
                    }
                }
            }
        }
        textStarts[n] = textBytes.size();
        firstName[n] = nameStartList.size();
        texts = textBytes.toArray();
        names = nameBytes.toArray();
        nameStarts = nameStartList.toArray();
        aliases = Map.copyOf(aliasMap);
        starts = new KeyIndex(names, startKeys.toArray(), this::ownerOf, weights);
        words = new KeyIndex(names, wordKeys.toArray(), this::ownerOf, weights);
        byWeight = sortedByWeight(n);
    }

    int size() {
        return weights.length;
    }

    String text(int option) {
        return new String(texts, textStarts[option], textStarts[option + 1] - textStarts[option],
                StandardCharsets.UTF_8);
    }

    double weight(int option) {
        return weights[option];
    }

    String foldedText(int option) {
        return name(firstName[option]);
    }

    List<String> aliases(int option) {
        String[] list = aliases.get(option);
        return list == null ? List.of() : List.of(list);
    }

    /** Roughly how many bytes the catalog holds on the heap (its arrays), for capacity planning. */
    long heapBytes() {
        long bytes = texts.length + names.length + 4L * (textStarts.length + weights.length + nameStarts.length
                + firstName.length + byWeight.length);
        return bytes + starts.heapBytes() + words.heapBytes();
    }

    /** The best-weighted option whose text or alias folds to {@code folded}, or -1. */
    int exactMatch(String folded) {
        int[] best = {-1};
        forExact(folded, option -> {
            if (best[0] < 0 || weights[option] > weights[best[0]]) {
                best[0] = option;
            }
        });
        return best[0];
    }

    /** Options whose text, base name or alias folds to {@code folded}, best weight first. */
    int[] named(String folded) {
        Set<Integer> found = new HashSet<>();
        forExact(folded, found::add);
        byte[] prefix = bytes(folded);
        int to = starts.upperBound(prefix);
        for (int k = starts.lowerBound(prefix); k < to; k++) {
            int option = starts.option(k);
            if (TextFolding.fold(ContextNames.baseName(text(option))).equals(folded)) {
                found.add(option);
            }
        }
        return found.stream().sorted(Comparator.comparingDouble((Integer o) -> weights[o]).reversed())
                .mapToInt(Integer::intValue).toArray();
    }

    /** Whether some option's text or alias starts with {@code foldedPrefix} at any word. */
    boolean hasPrefix(String foldedPrefix) {
        byte[] prefix = bytes(foldedPrefix);
        return starts.lowerBound(prefix) < starts.upperBound(prefix)
                || words.lowerBound(prefix) < words.upperBound(prefix);
    }

    /** The heaviest options not excluded, best first. */
    List<Integer> top(int limit, IntPredicate excluded) {
        List<Integer> top = new ArrayList<>(limit);
        for (int i = 0; i < byWeight.length && top.size() < limit; i++) {
            if (!excluded.test(byWeight[i])) {
                top.add(byWeight[i]);
            }
        }
        return top;
    }

    /**
     * The best options that have a word starting with {@code foldedPrefix}: matches at the start of a text
     * or alias first, then at an inner word, each by weight.
     */
    List<Match> complete(String foldedPrefix, int limit, IntPredicate excluded) {
        byte[] prefix = bytes(foldedPrefix);
        List<Match> matches = new ArrayList<>(limit);
        Set<Integer> seen = new HashSet<>();
        for (KeyIndex index : new KeyIndex[] {starts, words}) {
            int where = index == starts ? AT_START : AT_WORD;
            int wanted = limit - matches.size();
            index.heaviest(index.lowerBound(prefix), index.upperBound(prefix), wanted, option -> {
                if (excluded.test(option) || !seen.add(option)) {
                    return false;
                }
                matches.add(new Match(option, where));
                return true;
            });
        }
        return matches;
    }

    /**
     * The best options with a word that starts with {@code foldedPrefix} give or take the typos {@link Typos}
     * allows, excluding plain prefix matches: fewest typos first, then where, then weight. Walks the sorted
     * keys like a trie, aligning a shared prefix once and skipping every key under a prefix that is already
     * over budget; the ranges of keys under a prefix within budget are gathered by their rank (typos, then
     * where) and each rank's ranges are searched together, heaviest first, until {@code limit} are found.
     */
    List<Match> typoComplete(String foldedPrefix, int limit, IntPredicate excluded) {
        int budget = Typos.budget(foldedPrefix);
        if (budget == 0) {
            return List.of();
        }
        String typed = new String(bytes(foldedPrefix), StandardCharsets.ISO_8859_1);
        IntBuffer[] startRanges = new IntBuffer[budget + 1];
        IntBuffer[] wordRanges = new IntBuffer[budget + 1];
        walk(starts, typed, budget, startRanges);
        walk(words, typed, budget, wordRanges);
        List<Match> matches = new ArrayList<>(limit);
        Set<Integer> seen = new HashSet<>();
        for (int edits = 0; edits <= budget && matches.size() < limit; edits++) {
            for (KeyIndex index : new KeyIndex[] {starts, words}) {
                IntBuffer ranges = (index == starts ? startRanges : wordRanges)[edits];
                int wanted = limit - matches.size();
                if (ranges == null || wanted == 0) {
                    continue;
                }
                int where = index == starts ? AT_START : AT_WORD;
                int rank = edits;
                index.heaviest(ranges.ints, ranges.size, wanted, option -> {
                    if (excluded.test(option) || !seen.add(option)) {
                        return false;
                    }
                    matches.add(new Match(option, where, rank));
                    return true;
                });
            }
        }
        return matches;
    }

    /** Plain prefix matches first, then typo matches, up to {@code limit}. */
    List<Match> completeWithTypos(String foldedPrefix, int limit, IntPredicate excluded) {
        List<Match> matches = new ArrayList<>(complete(foldedPrefix, limit, excluded));
        if (matches.size() < limit) {
            Set<Integer> seen = new HashSet<>();
            matches.forEach(m -> seen.add(m.option()));
            for (Match typo : typoComplete(foldedPrefix, limit, excluded)) {
                if (matches.size() < limit && seen.add(typo.option())) {
                    matches.add(typo);
                }
            }
        }
        return matches;
    }

    /** Gathers into {@code ranges[edits]} the key ranges under a prefix within budget, by its typos. */
    private static void walk(KeyIndex index, String typed, int budget, IntBuffer[] ranges) {
        byte[] first = {(byte) typed.charAt(0)};
        int k = index.lowerBound(first);
        int to = index.upperBound(first);
        int m = typed.length();
        int maxDepth = index.maxLength();
        int[][] rows = new int[maxDepth + 1][m + 1];
        int[] bestEnd = new int[maxDepth + 1];
        int[] rowMin = new int[maxDepth + 1];
        rows[0] = Typos.firstRow(typed);
        bestEnd[0] = rows[0][m];
        // A row whose minimum is the budget can only go on with a byte the query holds.
        boolean[] inQuery = new boolean[256];
        typed.chars().forEach(c -> inQuery[c & 0xff] = true);
        int previous = -1;
        int valid = 0;
        while (k < to) {
            int depth = previous < 0 ? 0 : Math.min(valid, commonPrefix(index, previous, k));
            int length = index.length(k);
            int matchedAt = -1;
            int failedAt = -1;
            for (int i = depth + 1; i <= length; i++) {
                int min = Typos.nextRow(typed, (char) index.byteAt(k, i - 1),
                        i >= 2 ? (char) index.byteAt(k, i - 2) : 0, rows[i - 1], i >= 2 ? rows[i - 2] : null, rows[i]);
                bestEnd[i] = Math.min(bestEnd[i - 1], rows[i][m]);
                rowMin[i] = min;
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
            previous = k;
            if (matchedAt < 0) {
                if (failedAt > 1 && rowMin[failedAt - 1] >= budget) {
                    k = index.seek(k, failedAt - 1, nextIn(inQuery, index.byteAt(k, failedAt - 1)), to);
                } else {
                    k = index.endOfPrefix(k, failedAt < 0 ? length + 1 : failedAt, to);
                }
                continue;
            }
            int end = index.endOfPrefix(k, matchedAt, to);
            int edits = bestEnd[matchedAt];
            if (ranges[edits] == null) {
                ranges[edits] = new IntBuffer();
            }
            ranges[edits].add(k);
            ranges[edits].add(end);
            previous = end - 1;
            valid = Math.min(valid, matchedAt);
            k = end;
        }
    }

    /** The smallest byte above {@code b} that the query holds, or 256. */
    private static int nextIn(boolean[] inQuery, int b) {
        int c = b + 1;
        while (c < 256 && !inQuery[c]) {
            c++;
        }
        return c;
    }

    private static int commonPrefix(KeyIndex index, int a, int b) {
        int i = 0;
        while (true) {
            int x = index.byteAt(a, i);
            if (x < 0 || x != index.byteAt(b, i)) {
                return i;
            }
            i++;
        }
    }

    private void forExact(String folded, java.util.function.IntConsumer each) {
        byte[] key = bytes(folded);
        if (key.length == 0) {
            return;
        }
        int to = starts.upperBound(key);
        for (int k = starts.lowerBound(key); k < to && starts.byteAt(k, key.length) < 0; k++) {
            each.accept(starts.option(k));
        }
    }

    private String name(int name) {
        int start = nameStarts[name];
        int end = start;
        while (names[end] != 0) {
            end++;
        }
        return new String(names, start, end - start, StandardCharsets.UTF_8);
    }

    /** The option whose names hold the blob position. */
    private int ownerOf(int position) {
        int name = Arrays.binarySearch(nameStarts, position);
        if (name < 0) {
            name = -name - 2;
        }
        int option = Arrays.binarySearch(firstName, 0, firstName.length - 1, name);
        return option >= 0 ? option : -option - 2;
    }

    private static byte[] bytes(String folded) {
        return folded.getBytes(StandardCharsets.UTF_8);
    }

    private int[] sortedByWeight(int n) {
        long[] packed = new long[n];
        for (int i = 0; i < n; i++) {
            // Descending weight, then ascending index: flip the sortable bits of the weight.
            int bits = Float.floatToIntBits(weights[i]);
            int sortable = bits ^ ((bits >> 31) & 0x7fffffff);
            packed[i] = ((long) ~sortable << 32) | i;
        }
        Arrays.sort(packed);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = (int) packed[i];
        }
        return order;
    }

    /** A growable byte array. */
    private static final class ByteBuffer {
        private byte[] bytes = new byte[1024];
        private int size;

        void add(byte[] more) {
            if (size + more.length > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more.length));
            }
            System.arraycopy(more, 0, bytes, size, more.length);
            size += more.length;
        }

        int size() {
            return size;
        }

        byte[] toArray() {
            return Arrays.copyOf(bytes, size);
        }
    }

    /** A growable int array. */
    private static final class IntBuffer {
        private int[] ints = new int[1024];
        private int size;

        void add(int value) {
            if (size == ints.length) {
                ints = Arrays.copyOf(ints, size * 2);
            }
            ints[size++] = value;
        }

        int size() {
            return size;
        }

        int[] toArray() {
            return Arrays.copyOf(ints, size);
        }
    }
}
