package dev.autocomplete.index;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.ObjIntConsumer;

/**
 * An immutable, weighted list of options with a prefix index over every word of each option's text and
 * aliases, so that {@code lon} finds London and {@code york} finds New York, give or take the typos
 * {@link TypoRules} allows. Thread-safe.
 *
 * <p>Built for millions of options: folded names live in a byte blob, each text's name followed by the few edits
 * that make the display text of it ({@link TextPatches}), and the index is two sorted arrays of keys, each a
 * name and an offset into the folded blob ({@link KeyIndex}): keys at the start of a text or alias,
 * and keys at an inner word. A match at the start ranks above a match at an inner word, then by weight.
 */
final class OptionCatalog {

    /** Where a prefix matched: lower is better. An alias matches like the option's own text. */
    static final int AT_START = 0;

    static final int AT_WORD = 2;

    /**
     * An option that matched a prefix with {@code edits} typos (0 for a plain prefix match), through the key at
     * {@code key} in the folded names (its first such key in key order): options of equal weight and rank are
     * ordered by that key, so that two catalogs' answers merge in the order one catalog would give.
     */
    record Match(int option, int where, int edits, int key) {}

    /**
     * The last match another catalog's list holds when that list is full: a match of this catalog can join the
     * list only at a better rank, or at that rank and at least that weight (a tie is settled by the keys).
     */
    record Bound(int edits, int where, double weight) {

        /** Whether matches of this rank may still join: not after the bound's rank. */
        boolean admits(int rankEdits, int rankWhere) {
            return rankEdits < edits || (rankEdits == edits && rankWhere <= where);
        }

        /** The least weight a match of this rank needs. */
        float floor(int rankEdits, int rankWhere) {
            return rankEdits == edits && rankWhere == where ? (float) weight : Float.NEGATIVE_INFINITY;
        }
    }

    private static final int[] EMPTY_OPTIONS = new int[0];

    /** How many of the heaviest options a catalog orders when built; further ranks are ordered when first read. */
    private static final int FIRST_RANKS = 1024;

    /** A catalog of no options. */
    static final OptionCatalog EMPTY = new OptionCatalog(List.of());

    /** What of {@link #names} the display texts' patches take, for the breakdown. */
    private final long patchBytes;

    private final float[] weights;
    /** The texts' frequent tails the patches name by number. */
    private final TextPatches.Tails tails;

    private final Map<Integer, String[]> aliases;
    private final byte[] names;
    /** Where each name starts in {@link #names}: two levels, about 1.6 bytes a name ({@link Positions}). */
    private final Positions nameStarts;
    /** The first name of each option, then the number of names; null when option {@code i} has name {@code i} only. */
    private final int[] firstName;
    /** The option of each name; null when name {@code i} is option {@code i}'s. */
    private final int[] nameOwners;

    /**
     * The heaviest options in order, as far as a lookup asked ({@link #byWeight}): most ask for the first few, so
     * the full order of a million options (4 bytes each) is never kept unless something reads that far.
     */
    private volatile int[] byWeight;

    private final KeyIndex starts;
    private final KeyIndex words;
    /** Folded code to the options holding it, ascending ({@link AliasCodes}): matched whole only, not in the keys. */
    private final Map<String, int[]> codes;

    OptionCatalog(List<CatalogEntry> entries) {
        this(entries, (entry, option) -> {});
    }

    /**
     * Indexes the entries, handing each one to {@code each} as the build reads it, in order, with its option number:
     * for what else a segment keeps of an entry ({@link OptionTranslations}), without reading the entries again (a
     * fold's entries are decoded on every read).
     */
    OptionCatalog(List<CatalogEntry> entries, ObjIntConsumer<CatalogEntry> each) {
        int n = entries.size();
        weights = new float[n];
        int[] firstNames = new int[n + 1];
        Map<Integer, String[]> aliasMap = new HashMap<>();
        ByteBuffer nameBytes = new ByteBuffer();
        IntBuffer nameStartList = new IntBuffer();
        IntBuffer startKeys = new IntBuffer();
        IntBuffer wordKeys = new IntBuffer();
        Map<String, IntBuffer> codeOptions = new HashMap<>();
        long patches = 0;
        tails = TextPatches.Tails.of(entries);
        TextPatches.Encoder encoder = new TextPatches.Encoder();
        List<byte[]> folded = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            CatalogEntry entry = entries.get(i);
            each.accept(entry, i);
            weights[i] = (float) entry.weight();
            firstNames[i] = nameStartList.size();
            folded.clear();
            kept.clear();
            byte[] foldedText = bytes(Folding.fold(entry.text()));
            folded.add(foldedText);
            byte[] textBytes = entry.text().getBytes(StandardCharsets.UTF_8);
            byte[] patch =
                    encoder.encode(textBytes, foldedText, tails, tails.find(entry.text(), textBytes, foldedText));
            for (String alias : entry.aliases()) {
                String code = AliasCodes.folded(alias);
                if (code != null) {
                    // Kept as written (exports and rebuilt deltas give it back), indexed apart from the keys.
                    if (!code.isEmpty()) {
                        IntBuffer owners = codeOptions.computeIfAbsent(code, c -> new IntBuffer());
                        if (!owners.contains(i)) {
                            owners.add(i);
                        }
                        kept.add(alias);
                    }
                    continue;
                }
                String f = Folding.fold(alias);
                if (!f.isEmpty()) {
                    folded.add(bytes(f));
                    kept.add(alias);
                }
            }
            if (!kept.isEmpty()) {
                aliasMap.put(i, kept.toArray(String[]::new));
            }
            for (byte[] bytes : folded) {
                int start = nameBytes.size();
                nameStartList.add(start);
                nameBytes.add(bytes);
                nameBytes.add((byte) 0);
                if (nameStartList.size() - 1 == firstNames[i]) {
                    // The display text's patch follows its folded name, after the terminator, and ends where the next
                    // name starts: no offset or length of its own.
                    nameBytes.add(patch);
                    patches += nameBytes.size() - start - bytes.length - 1;
                }
                if (bytes.length > 0) {
                    startKeys.add(nameStartList.size() - 1);
                }
                for (int b = 0; b < bytes.length; b++) {
                    if (bytes[b] == ' ') {
                        // The name and the offset, packed once the longest name is known.
                        wordKeys.add(nameStartList.size() - 1);
                        wordKeys.add(b + 1);
                    }
                }
            }
        }
        firstNames[n] = nameStartList.size();
        patchBytes = patches;
        names = nameBytes.toArray();
        int[] starts = nameStartList.toArray();
        nameStarts = new Positions(starts);
        aliases = Map.copyOf(aliasMap);
        Map<String, int[]> codeMap = new HashMap<>();
        codeOptions.forEach((code, owners) -> codeMap.put(code, owners.toArray()));
        codes = Map.copyOf(codeMap);
        boolean oneNameEach = starts.length == n;
        firstName = oneNameEach ? null : firstNames;
        nameOwners = oneNameEach ? null : owners(firstNames, starts.length);
        this.starts = new KeyIndex(names, starts, nameStarts, nameOwners, startKeys.toArray(), 0, weights);
        words = wordIndex(wordKeys, starts);
        byWeight = heaviestFirst(Math.min(n, FIRST_RANKS));
    }

    int size() {
        return weights.length;
    }

    String text(int option) {
        int name = firstName(option);
        int start = nameStarts.get(name);
        int end = start;
        while (names[end] != 0) {
            end++;
        }
        int patchEnd = name + 1 < nameStarts.size() ? nameStarts.get(name + 1) : names.length;
        return TextPatches.text(names, end + 1, patchEnd, names, start, end, tails);
    }

    double weight(int option) {
        return weights[option];
    }

    String foldedText(int option) {
        return name(firstName(option));
    }

    List<String> aliases(int option) {
        String[] list = aliases.get(option);
        return list == null ? List.of() : List.of(list);
    }

    /** Roughly how many bytes the catalog holds on the heap (its arrays), for capacity planning. */
    long heapBytes() {
        long bytes = names.length
                + tails.heapBytes()
                + nameStarts.heapBytes()
                + 4L * (weights.length + byWeight.length)
                + (firstName == null ? 0 : 4L * (firstName.length + nameOwners.length));
        return bytes + starts.heapBytes() + words.heapBytes() + codesHeapBytes();
    }

    /** Roughly what the codes take: per code its string, its array and a map entry. */
    private long codesHeapBytes() {
        long bytes = 0;
        for (Map.Entry<String, int[]> code : codes.entrySet()) {
            bytes += 64 + code.getKey().length() + 4L * code.getValue().length;
        }
        return bytes;
    }

    /**
     * The options holding {@code folded} as a code ({@link AliasCodes}), ascending; {@code gone} (or null) tells the
     * options to leave out.
     */
    int[] codeOptions(String folded, IntPredicate gone) {
        int[] owners = codes.get(folded);
        if (owners == null) {
            return EMPTY_OPTIONS;
        }
        return gone == null
                ? owners.clone()
                : Arrays.stream(owners).filter(option -> !gone.test(option)).toArray();
    }

    /** {@link #heapBytes} array by array, for the benchmarks' breakdown (name to bytes, in a fixed order). */
    Map<String, Long> heapBreakdown() {
        Map<String, Long> parts = new java.util.LinkedHashMap<>();
        parts.put("display texts (patches after folded names)", patchBytes + tails.heapBytes());
        parts.put("folded names (blob)", names.length - patchBytes);
        parts.put("folded name offsets", nameStarts.heapBytes());
        parts.put(
                "names per option (aliases only)", firstName == null ? 0 : 4L * (firstName.length + nameOwners.length));
        parts.put("weights", 4L * weights.length);
        parts.put("options by weight", 4L * byWeight.length);
        starts.heapBreakdown("start keys", parts);
        words.heapBreakdown("inner-word keys", parts);
        return parts;
    }

    /**
     * The best-weighted option whose text or alias folds to {@code folded}, the first of equal ones, or -1;
     * {@code gone} (or null) tells the options to leave out.
     */
    int exactMatch(String folded, IntPredicate gone) {
        int[] best = {-1};
        forExact(folded, option -> {
            if ((gone == null || !gone.test(option)) && (best[0] < 0 || weights[option] > weights[best[0]])) {
                best[0] = option;
            }
        });
        return best[0];
    }

    /**
     * Every option whose text or alias folds to {@code folded}, ascending: several when an alias is shared;
     * {@code gone} (or null) tells the options to leave out.
     */
    int[] exactOptions(String folded, IntPredicate gone) {
        byte[] key = bytes(folded);
        return key.length == 0 ? EMPTY_OPTIONS : optionsOf(starts.equalRange(key), gone);
    }

    /** The options of the start keys {@code [range[0], range[1])} not {@code gone} (or null), each once, ascending. */
    int[] optionsOf(int[] range, IntPredicate gone) {
        if (range[0] >= range[1]) {
            return EMPTY_OPTIONS;
        }
        IntBuffer found = new IntBuffer();
        for (int k = range[0]; k < range[1]; k++) {
            int option = starts.option(k);
            if ((gone == null || !gone.test(option)) && !found.contains(option)) {
                found.add(option);
            }
        }
        return found.toArray();
    }

    /** The option whose own text (not an alias) folds to {@code folded}, or -1; texts are unique once folded. */
    int textOption(String folded) {
        int[] found = {-1};
        forExact(folded, option -> {
            if (found[0] < 0 && foldedText(option).equals(folded)) {
                found[0] = option;
            }
        });
        return found[0];
    }

    /**
     * Whether a text or alias longer than {@code folded} starts with it, going on within its last word, and belongs
     * to an option that {@code other} accepts: whether the user, still typing that word, may reach another option
     * ({@code bo} goes on to {@code bogota}; {@code london} is a whole word of {@code london canada}, so typing it
     * names London).
     */
    boolean startsLonger(String folded, IntPredicate other) {
        byte[] prefix = bytes(folded);
        int[] range = starts.prefixRange(prefix);
        for (int k = range[0]; k < range[1]; k++) {
            // Equal keys sort first (the terminator is the smallest byte); usually the next key decides.
            int next = starts.byteAt(k, prefix.length);
            if (next >= 0 && next != ' ' && other.test(starts.option(k))) {
                return true;
            }
        }
        return false;
    }

    /** Whether the option's text or one of its aliases, whole, is within the typos {@code folded} allows. */
    boolean nameWithinTypos(int option, String folded) {
        for (int name = firstName(option); name < firstName(option + 1); name++) {
            if (TypoRules.distance(folded, name(name)) < TypoRules.NEVER) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether some option's text or alias starts with {@code foldedPrefix} at any word; {@code gone} (or null)
     * tells the options to leave out (few: they are scanned past).
     */
    boolean hasPrefix(String foldedPrefix, IntPredicate gone) {
        byte[] prefix = bytes(foldedPrefix);
        return hasLive(starts, starts.prefixRange(prefix), gone) || hasLive(words, words.prefixRange(prefix), gone);
    }

    private static boolean hasLive(KeyIndex index, int[] range, IntPredicate gone) {
        int from = range[0];
        int to = range[1];
        if (gone == null) {
            return from < to;
        }
        for (int k = from; k < to; k++) {
            if (!gone.test(index.option(k))) {
                return true;
            }
        }
        return false;
    }

    /** The option of rank {@code rank} by weight: heaviest first, then in catalog order. */
    int byWeight(int rank) {
        int[] order = byWeight;
        return rank < order.length ? order[rank] : moreByWeight(rank)[rank];
    }

    /** The order by weight to at least {@code rank}, twice as far as before: rarely read past the first ranks. */
    private synchronized int[] moreByWeight(int rank) {
        if (rank >= byWeight.length) {
            byWeight = heaviestFirst(Math.min(size(), Math.max(rank + 1, 2 * byWeight.length)));
        }
        return byWeight;
    }

    /**
     * Orders two matches of equal rank and weight, {@code a} of this catalog and {@code b} of {@code other}, by
     * the keys they matched through: the order one catalog holding both would give them (then by option).
     */
    int compareKeys(Match a, OptionCatalog other, Match b) {
        return compareKeys(names, a.key(), other.names, b.key());
    }

    /** Orders two keys by their bytes (unsigned), 0 when equal. */
    private static int compareKeys(byte[] blob, int p, byte[] otherBlob, int q) {
        for (int i = 0; ; i++) {
            int x = blob[p + i] & 0xff;
            int y = otherBlob[q + i] & 0xff;
            if (x != y || x == 0) {
                return x - y;
            }
        }
    }

    /**
     * The best options that have a word starting with {@code foldedPrefix}: matches at the start of a text
     * or alias first, then at an inner word, each by weight.
     */
    List<Match> complete(String foldedPrefix, int limit, IntPredicate excluded) {
        return search(foldedPrefix, 0, limit, new Exclusion(null, excluded, 0), null, null);
    }

    /**
     * Like {@link #completeWithTypos}, but empty when {@code foldedPrefix} allows no typo: whether typos
     * find anything the plain prefix would not be asked for.
     */
    List<Match> typoComplete(String foldedPrefix, int limit, IntPredicate excluded) {
        int budget = TypoRules.budget(foldedPrefix);
        return budget == 0
                ? List.of()
                : search(foldedPrefix, budget, limit, new Exclusion(null, excluded, 0), null, null);
    }

    /**
     * The best options with a word that starts with {@code foldedPrefix} give or take the typos {@link TypoRules}
     * allows: plain prefix matches first (at the start, then at an inner word), then fewest typos, then where,
     * then weight, up to {@code limit}.
     */
    List<Match> completeWithTypos(String foldedPrefix, int limit, IntPredicate excluded) {
        return search(
                foldedPrefix, TypoRules.budget(foldedPrefix), limit, new Exclusion(null, excluded, 0), null, null);
    }

    /**
     * {@link #completeWithTypos}, only the matches that can join a full list whose last match is {@code bound}
     * (the start of what {@link #completeWithTypos} gives): ranks after the bound's are never searched, and the
     * bound's own rank stops at its weight, so a small catalog merged into a large one's list costs little.
     */
    List<Match> completeWithTypos(String foldedPrefix, int limit, IntPredicate excluded, Bound bound) {
        return search(
                foldedPrefix, TypoRules.budget(foldedPrefix), limit, new Exclusion(null, excluded, 0), bound, null);
    }

    /**
     * {@link #completeWithTypos(String, int, IntPredicate, Bound)} (a null bound for none) for one segment of a
     * layered catalog, a main catalog or its delta searched for the same prefix, the main first: the main's typo
     * walks also walk the delta's indexes ({@link SharedWalks}), and the delta's search takes what they found.
     * Options {@code gone} (or null) are left out, and {@code excluded} is asked of an option's id in the layered
     * catalog, its own plus {@code offset}.
     */
    List<Match> completeWithTypos(
            String foldedPrefix,
            int limit,
            IntPredicate gone,
            IntPredicate excluded,
            int offset,
            Bound bound,
            SharedWalks walks) {
        return search(
                foldedPrefix,
                TypoRules.budget(foldedPrefix),
                limit,
                new Exclusion(gone, excluded, offset),
                bound,
                walks);
    }

    /**
     * The options a search leaves out: those {@code gone} from a segment (or null), and those the caller excludes
     * by their id in the layered catalog, the option's own plus {@code offset}. Checked as plain fields, not as
     * predicates wrapping each other, so that the search's check stays a direct call whatever the layers.
     */
    private record Exclusion(IntPredicate gone, IntPredicate excluded, int offset) {
        boolean test(int option) {
            return (gone != null && gone.test(option)) || excluded.test(option + offset);
        }
    }

    /**
     * The typo walks of one prefix over a main catalog and its delta: a walk of the main's index walks the delta's
     * with it ({@link TypoWalk#walk(KeyIndex, KeyIndex, TrieTop[], String, int)}, over the two indexes' tables
     * merged once per pair: {@link #mergedTops}) and keeps what it found there for the delta's search, which walks
     * alone only an index the main's search did not walk. The delta's ranges are then found without the weight floor
     * of a bound: more keys, the same matches taken. One query, one thread.
     */
    static final class SharedWalks {
        private final OptionCatalog main;
        private final OptionCatalog delta;
        private final TrieTop[][] tops;
        private final TypoWalk.Ranges[][] kept = new TypoWalk.Ranges[2][];
        /** The delta's keys under the typed prefix that {@link #prefixRange} found with the main's: starts, words. */
        private final int[][] keptPrefix = new int[2][];

        /** @param tops {@link #mergedTops} of the two */
        SharedWalks(OptionCatalog main, OptionCatalog delta, TrieTop[][] tops) {
            this.main = main;
            this.delta = delta;
            this.tops = tops;
        }

        /**
         * Whether the main's walk of the delta's index (of inner {@code words}, or of starts) found no key of the delta
         * within the budget: then none starts with the typed prefix either, and the delta's search skips that prefix
         * search. False when that walk has not run.
         */
        boolean holdsNothing(OptionCatalog catalog, boolean words) {
            TypoWalk.Ranges[] found = catalog == delta ? kept[words ? 1 : 0] : null;
            if (found == null) {
                return false;
            }
            for (TypoWalk.Ranges ranges : found) {
                if (ranges != null) {
                    return false;
                }
            }
            return true;
        }

        /**
         * The keys of {@code catalog}'s index (inner {@code words}, or starts) that start with {@code prefix}, as
         * {@link KeyIndex#prefixRange}: for the main, from one descent of the merged table, which also finds the
         * delta's keys there and keeps them for the delta's search.
         */
        int[] prefixRange(OptionCatalog catalog, boolean words, byte[] prefix) {
            int which = words ? 1 : 0;
            if (catalog == main && prefix.length > 0 && prefix.length <= TrieTop.DEPTH) {
                TrieTop[] both = tops[which];
                int node = both[0].nodeOf(prefix.length, KeyIndex.headOf(prefix));
                keptPrefix[which] = both[1].keysOf(prefix.length, node);
                return both[0].keysOf(prefix.length, node);
            }
            if (catalog == main && prefix.length > TrieTop.DEPTH) {
                // The delta holds none of the prefix's keys when it holds none of its first bytes' (most often).
                int[] first = deltaKeysOfFirstBytes(tops[which], prefix);
                keptPrefix[which] = first[0] == first[1] ? first : null;
            }
            if (catalog == delta && keptPrefix[which] != null) {
                return keptPrefix[which];
            }
            return (words ? catalog.words : catalog.starts).prefixRange(prefix);
        }

        TypoWalk.Ranges[] walk(OptionCatalog catalog, boolean words, String typed, int budget, float floor) {
            KeyIndex index = words ? catalog.words : catalog.starts;
            int which = words ? 1 : 0;
            if (catalog == main) {
                TypoWalk.Ranges[][] both =
                        TypoWalk.walk(index, words ? delta.words : delta.starts, tops[which], typed, budget);
                kept[which] = both[1];
                return both[0];
            }
            return catalog == delta && kept[which] != null ? kept[which] : TypoWalk.walk(index, typed, budget, floor);
        }
    }

    /**
     * The tables of a main catalog's two indexes merged with a delta's ({@link TrieTop#merge}), for their
     * {@link SharedWalks}: the start keys' pair, then the inner words'. Built once per pair of catalogs.
     */
    static TrieTop[][] mergedTops(OptionCatalog main, OptionCatalog delta) {
        return new TrieTop[][] {
            TrieTop.merge(main.starts.top(), delta.starts.top()), TrieTop.merge(main.words.top(), delta.words.top())
        };
    }

    /**
     * {@link #exactOptions} of a main catalog ({@code gone} left out) and its delta: the main's options, then the
     * delta's. One descent of their merged start keys' table ({@link #mergedTops}) finds both for a text shorter than
     * its levels; for a longer one it tells whether the delta holds a key of the text's first bytes. Null for an
     * empty text.
     */
    static int[][] exactOptions(
            OptionCatalog main, IntPredicate gone, OptionCatalog delta, TrieTop[][] tops, String folded) {
        byte[] key = bytes(folded);
        if (key.length == 0) {
            return null;
        }
        if (key.length < TrieTop.DEPTH) {
            int node = tops[0][0].nodeOf(key.length, KeyIndex.headOf(key));
            return new int[][] {
                main.optionsOf(tops[0][0].equalKeysOf(key.length, node), gone),
                delta.optionsOf(tops[0][1].equalKeysOf(key.length, node), null)
            };
        }
        // Longer: each looks its keys up, the delta only when it holds a key of the text's first bytes (seldom).
        int[] deltaKeys = deltaKeysOfFirstBytes(tops[0], key);
        return new int[][] {
            main.exactOptions(folded, gone),
            deltaKeys[0] == deltaKeys[1] ? EMPTY_OPTIONS : delta.exactOptions(folded, null)
        };
    }

    /**
     * The delta's keys (the second of a {@link #mergedTops} pair) that share the first {@link TrieTop#DEPTH} bytes of
     * a longer {@code key}: when there are none, the delta holds no key equal to it or starting with it.
     */
    private static int[] deltaKeysOfFirstBytes(TrieTop[] pair, byte[] key) {
        return pair[1].keysOf(TrieTop.DEPTH, pair[0].nodeOf(TrieTop.DEPTH, KeyIndex.headOf(key)));
    }

    /** What {@link #mergedTops} of {@code main} and a delta hold beyond the main's own tables. */
    static long mergedTopsBytes(OptionCatalog main, TrieTop[][] tops) {
        return tops[0][0].heapBytesBeyond(main.starts.top())
                + tops[0][1].heapBytesBeyond(tops[0][0])
                + tops[1][0].heapBytesBeyond(main.words.top())
                + tops[1][1].heapBytesBeyond(tops[1][0]);
    }

    /**
     * Fills the ranks in order, each searched heaviest first: plain prefix matches at the start, then at an
     * inner word, then for each number of typos up to {@code budget} the same two. Typo matches come from a
     * walk over each index that gathers the key ranges under a prefix within budget by their typos; an index
     * is walked only when a rank of it is reached, so when typo matches at the start fill the list the inner
     * words are never walked. With a {@code bound} (or null), no rank after it is searched; the walk still
     * gathers ranges within the whole budget, so that a match counts the typos it counts without the bound.
     */
    private List<Match> search(
            String foldedPrefix, int budget, int limit, Exclusion excluded, Bound bound, SharedWalks walks) {
        byte[] prefix = bytes(foldedPrefix);
        Ranked ranked = new Ranked(limit, excluded, bound);
        takePrefix(ranked, false, prefix, walks);
        takePrefix(ranked, true, prefix, walks);
        int last = bound == null ? budget : Math.min(budget, bound.edits());
        if (ranked.full() || last == 0 || prefix.length == 0) {
            return ranked.matches;
        }
        String typed = new String(prefix, StandardCharsets.ISO_8859_1);
        TypoWalk.Ranges[] startRanges = walks == null
                ? TypoWalk.walk(starts, typed, budget, walkFloor(bound, AT_START))
                : walks.walk(this, false, typed, budget, walkFloor(bound, AT_START));
        TypoWalk.Ranges[] wordRanges = null;
        for (int edits = 1; edits <= last && !ranked.full(); edits++) {
            ranked.take(starts, startRanges[edits], AT_START, edits);
            if (!ranked.full() && ranked.admits(edits, AT_WORD)) {
                if (wordRanges == null) {
                    wordRanges = walks == null
                            ? TypoWalk.walk(words, typed, budget, walkFloor(bound, AT_WORD))
                            : walks.walk(this, true, typed, budget, walkFloor(bound, AT_WORD));
                }
                ranked.take(words, wordRanges[edits], AT_WORD, edits);
            }
        }
        return ranked.matches;
    }

    /**
     * Takes the plain prefix matches of one index (inner {@code words}, or starts) when the list has room at that
     * rank, and when a shared walk has not found the index to hold nothing there.
     */
    private void takePrefix(Ranked ranked, boolean inWords, byte[] prefix, SharedWalks walks) {
        int where = inWords ? AT_WORD : AT_START;
        KeyIndex index = inWords ? words : starts;
        if (ranked.wantsPrefix(where) && (walks == null || !walks.holdsNothing(this, inWords))) {
            int[] range = walks == null ? index.prefixRange(prefix) : walks.prefixRange(this, inWords, prefix);
            ranked.take(index, range, 2, where, 0);
        }
    }

    /**
     * The matches taken so far, rank by rank; an option is taken once, at its best rank. It is also the test each
     * key of a {@link #take} passes: a lambda capturing the take's index and rank was allocated through a method
     * handle (a native call) on every take, a few per cent of a short prefix's lookup.
     */
    private static final class Ranked implements IntPredicate {
        final List<Match> matches;
        private final int limit;
        private final Exclusion excluded;
        private final Bound bound;
        /** The options taken. */
        private final OrderedInts seen;

        /** The index whose keys are being taken, and their rank: what {@link #test} records of a match. */
        private KeyIndex taking;

        private int takingWhere;
        private int takingEdits;

        Ranked(int limit, Exclusion excluded, Bound bound) {
            this.matches = new ArrayList<>(limit);
            this.limit = limit;
            this.seen = new OrderedInts(limit);
            this.excluded = excluded;
            this.bound = bound;
        }

        boolean admits(int edits, int where) {
            return bound == null || bound.admits(edits, where);
        }

        boolean full() {
            return matches.size() >= limit;
        }

        /** Whether the list has room for plain prefix matches at {@code where}: else their keys are not looked up. */
        boolean wantsPrefix(int where) {
            return !full() && admits(0, where);
        }

        void take(KeyIndex index, TypoWalk.Ranges ranges, int where, int edits) {
            if (ranges != null) {
                take(index, ranges.ints, ranges.size, where, edits);
            }
        }

        void take(KeyIndex index, int[] ranges, int length, int where, int edits) {
            int wanted = limit - matches.size();
            if (wanted <= 0 || !admits(edits, where)) {
                return;
            }
            float floor = bound == null ? Float.NEGATIVE_INFINITY : bound.floor(edits, where);
            taking = index;
            takingWhere = where;
            takingEdits = edits;
            index.heaviest(ranges, length, wanted, floor, this);
        }

        /** Takes the option of key {@code key} of the index being taken, unless excluded or taken: whether it did. */
        @Override
        public boolean test(int key) {
            int option = taking.option(key);
            if (excluded.test(option) || !seen.add(option)) {
                return false;
            }
            matches.add(new Match(option, takingWhere, takingEdits, taking.position(key)));
            return true;
        }
    }

    /**
     * The least weight a walk of the index of {@code where} may skip to: when the only typo rank a bound admits
     * from that index is one typo at its own place, lighter keys could never be taken, so the walk reads past them
     * (a delta under a main index's full list); otherwise none.
     */
    private static float walkFloor(Bound bound, int where) {
        return bound != null && bound.edits() == 1 && bound.where() == where
                ? (float) bound.weight()
                : Float.NEGATIVE_INFINITY;
    }

    private void forExact(String folded, java.util.function.IntConsumer each) {
        byte[] key = bytes(folded);
        if (key.length == 0) {
            return;
        }
        int[] range = starts.equalRange(key);
        for (int k = range[0]; k < range[1]; k++) {
            each.accept(starts.option(k));
        }
    }

    private String name(int name) {
        int start = nameStarts.get(name);
        int end = start;
        while (names[end] != 0) {
            end++;
        }
        return new String(names, start, end - start, StandardCharsets.UTF_8);
    }

    private int firstName(int option) {
        return firstName == null ? option : firstName[option];
    }

    private static int[] owners(int[] firstNames, int count) {
        int[] owners = new int[count];
        for (int option = 0; option + 1 < firstNames.length; option++) {
            Arrays.fill(owners, firstNames[option], firstNames[option + 1], option);
        }
        return owners;
    }

    /**
     * The inner-word keys from (name, offset) pairs: packed in one int each, the offset in as few low bits as the
     * longest name needs; when the names are too many or too long for that, as positions in the blob.
     */
    private KeyIndex wordIndex(IntBuffer pairs, int[] starts) {
        int longest = 0;
        for (int i = 1; i < pairs.size(); i += 2) {
            longest = Math.max(longest, pairs.ints[i]);
        }
        int shift = 32 - Integer.numberOfLeadingZeros(longest);
        int[] keys = new int[pairs.size() / 2];
        if ((long) starts.length << shift > Integer.MAX_VALUE) {
            for (int i = 0; i < keys.length; i++) {
                keys[i] = starts[pairs.ints[2 * i]] + pairs.ints[2 * i + 1];
            }
            return new KeyIndex(names, keys, this::ownerOf, weights);
        }
        for (int i = 0; i < keys.length; i++) {
            keys[i] = pairs.ints[2 * i] << shift | pairs.ints[2 * i + 1];
        }
        return new KeyIndex(names, starts, nameStarts, nameOwners, keys, shift, weights);
    }

    /** The option whose names hold the blob position. */
    private int ownerOf(int position) {
        int name = nameStarts.floor(position);
        return nameOwners == null ? name : nameOwners[name];
    }

    private static byte[] bytes(String folded) {
        return folded.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The first {@code count} options by weight (descending, then ascending index), without sorting the whole
     * catalog: candidates gather in a buffer of twice the count, which is sorted and cut to the best when full.
     */
    private int[] heaviestFirst(int count) {
        if (count == 0) {
            return EMPTY_OPTIONS;
        }
        long[] buffer = new long[2 * count];
        int size = 0;
        // Keys are distinct (the index is in them); a key not below the count-th best so far can never be kept.
        long cutoff = Long.MAX_VALUE;
        for (int i = 0; i < weights.length; i++) {
            long key = weightKey(i);
            if (key < cutoff) {
                buffer[size++] = key;
                if (size == buffer.length) {
                    Arrays.sort(buffer);
                    size = count;
                    cutoff = buffer[count - 1];
                }
            }
        }
        Arrays.sort(buffer, 0, size);
        int[] order = new int[count];
        for (int i = 0; i < count; i++) {
            order[i] = (int) buffer[i];
        }
        return order;
    }

    /** Descending weight, then ascending index, as ascending longs: the weight's sortable bits flipped. */
    private long weightKey(int option) {
        int bits = Float.floatToIntBits(weights[option]);
        int sortable = bits ^ ((bits >> 31) & 0x7fffffff);
        return ((long) ~sortable << 32) | option;
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

        void add(byte one) {
            if (size == bytes.length) {
                bytes = Arrays.copyOf(bytes, bytes.length * 2);
            }
            bytes[size++] = one;
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
        private int[] ints = new int[16];
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

        boolean contains(int value) {
            for (int i = 0; i < size; i++) {
                if (ints[i] == value) {
                    return true;
                }
            }
            return false;
        }

        int[] toArray() {
            return Arrays.copyOf(ints, size);
        }
    }
}
