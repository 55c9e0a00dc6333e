package dev.autocomplete.engine.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.IntPredicate;

import dev.autocomplete.spi.ContextNames;
import dev.autocomplete.spi.TextFolding;

/**
 * An immutable, weighted list of options with a prefix index over every word of each option's text and
 * aliases, so that {@code lon} finds London and {@code york} finds New York. Thread-safe.
 *
 * <p>Lookups rank a match at the start of the text above a match at the start of an alias, above a match
 * at an inner word, then by weight. The index is a sorted array of folded keys searched by binary search:
 * small, and fast enough for tens of thousands of options.
 */
final class OptionCatalog {

    /** Where a prefix matched: lower is better. */
    static final int AT_START = 0;
    static final int AT_ALIAS = 1;
    static final int AT_WORD = 2;

    /** An option that matched a prefix with {@code edits} typos (0 for a plain prefix match). */
    record Match(int option, int where, int edits) {

        Match(int option, int where) {
            this(option, where, 0);
        }
    }

    private final String[] texts;
    private final String[] foldedTexts;
    private final double[] weights;
    private final String[][] aliases;
    private final int[] byWeight;
    private final String[] keys;
    private final int[] keyOptions;
    private final byte[] keyWhere;
    private final Map<String, int[]> exact;
    private final Map<String, int[]> named;

    /** One option as read from config or a data file. */
    record Entry(String text, double weight, List<String> aliases) {
    }

    /** Fewer typos first, then a better place, then a heavier weight. */
    private final Comparator<Match> ranking = Comparator.comparingInt(Match::edits)
            .thenComparingInt(Match::where)
            .thenComparing(Comparator.comparingDouble((Match m) -> weight(m.option())).reversed())
            .thenComparingInt(Match::option);

    OptionCatalog(List<Entry> entries) {
        int n = entries.size();
        texts = new String[n];
        foldedTexts = new String[n];
        weights = new double[n];
        aliases = new String[n][];
        List<Object[]> keyRows = new ArrayList<>();
        Map<String, List<Integer>> exactLists = new HashMap<>();
        Map<String, List<Integer>> namedLists = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Entry entry = entries.get(i);
            texts[i] = entry.text();
            foldedTexts[i] = TextFolding.fold(entry.text());
            weights[i] = entry.weight();
            aliases[i] = entry.aliases().toArray(String[]::new);
            addKeys(keyRows, foldedTexts[i], i, AT_START);
            exactLists.computeIfAbsent(foldedTexts[i], k -> new ArrayList<>()).add(i);
            namedLists.computeIfAbsent(foldedTexts[i], k -> new ArrayList<>()).add(i);
            String base = TextFolding.fold(ContextNames.baseName(entry.text()));
            if (!base.equals(foldedTexts[i])) {
                namedLists.computeIfAbsent(base, k -> new ArrayList<>()).add(i);
            }
            for (String alias : aliases[i]) {
                String folded = TextFolding.fold(alias);
                if (!folded.isEmpty()) {
                    addKeys(keyRows, folded, i, AT_ALIAS);
                    exactLists.computeIfAbsent(folded, k -> new ArrayList<>()).add(i);
                    namedLists.computeIfAbsent(folded, k -> new ArrayList<>()).add(i);
                }
            }
        }
        keyRows.sort(Comparator.comparing((Object[] row) -> (String) row[0]));
        keys = new String[keyRows.size()];
        keyOptions = new int[keyRows.size()];
        keyWhere = new byte[keyRows.size()];
        for (int k = 0; k < keys.length; k++) {
            keys[k] = (String) keyRows.get(k)[0];
            keyOptions[k] = (Integer) keyRows.get(k)[1];
            keyWhere[k] = ((Integer) keyRows.get(k)[2]).byteValue();
        }
        byWeight = sortedByWeight(n);
        exact = freeze(exactLists);
        named = freeze(namedLists);
    }

    int size() {
        return texts.length;
    }

    String text(int option) {
        return texts[option];
    }

    double weight(int option) {
        return weights[option];
    }

    String foldedText(int option) {
        return foldedTexts[option];
    }

    List<String> aliases(int option) {
        return List.of(aliases[option]);
    }

    /** The best-weighted option whose text or alias folds to {@code folded}, or -1. */
    int exactMatch(String folded) {
        int[] options = exact.get(folded);
        return options == null ? -1 : options[0];
    }

    /** Options whose text, base name or alias folds to {@code folded}, best weight first. */
    int[] named(String folded) {
        return named.getOrDefault(folded, new int[0]);
    }

    /** Whether some option's text or alias starts with {@code foldedPrefix} at any word. */
    boolean hasPrefix(String foldedPrefix) {
        int k = firstKeyAtOrAfter(foldedPrefix);
        return k < keys.length && keys[k].startsWith(foldedPrefix);
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
     * The best options that have a word starting with {@code foldedPrefix}, ranked by where the prefix
     * matched, then by weight.
     */
    List<Match> complete(String foldedPrefix, int limit, IntPredicate excluded) {
        Map<Integer, Integer> bestWhere = new HashMap<>();
        for (int k = firstKeyAtOrAfter(foldedPrefix); k < keys.length && keys[k].startsWith(foldedPrefix); k++) {
            int option = keyOptions[k];
            if (!excluded.test(option)) {
                bestWhere.merge(option, (int) keyWhere[k], Math::min);
            }
        }
        List<Match> candidates = new ArrayList<>(bestWhere.size());
        bestWhere.forEach((option, where) -> candidates.add(new Match(option, where)));
        return topOf(candidates, limit);
    }

    /**
     * The best options with a word that starts with {@code foldedPrefix} give or take the typos {@link Typos}
     * allows, excluding plain prefix matches: fewest typos first, then where, then weight. Walks the sorted
     * keys like a trie, reusing the alignment rows of the shared prefix and skipping every key under a
     * prefix that is already over budget.
     */
    List<Match> typoComplete(String foldedPrefix, int limit, IntPredicate excluded) {
        int budget = Typos.budget(foldedPrefix);
        if (budget == 0) {
            return List.of();
        }
        char first = foldedPrefix.charAt(0);
        int from = firstKeyAtOrAfter(String.valueOf(first));
        int to = firstKeyAtOrAfter(String.valueOf((char) (first + 1)));
        int m = foldedPrefix.length();
        int maxDepth = 0;
        for (int k = from; k < to; k++) {
            maxDepth = Math.max(maxDepth, keys[k].length());
        }
        int[][] rows = new int[maxDepth + 1][m + 1];
        int[] bestEnd = new int[maxDepth + 1];
        rows[0] = Typos.firstRow(foldedPrefix);
        bestEnd[0] = rows[0][m];
        Map<Integer, Match> best = new HashMap<>();
        String previous = "";
        int valid = 0;
        int k = from;
        while (k < to) {
            String key = keys[k];
            int depth = Math.min(valid, commonPrefix(previous, key));
            int matchedAt = -1;
            int failedAt = -1;
            for (int i = Math.max(depth, 0) + 1; i <= key.length(); i++) {
                int min = Typos.nextRow(foldedPrefix, key.charAt(i - 1), i >= 2 ? key.charAt(i - 2) : 0,
                        rows[i - 1], i >= 2 ? rows[i - 2] : null, rows[i]);
                bestEnd[i] = Math.min(bestEnd[i - 1], rows[i][m]);
                valid = i;
                if (i == 1 && key.charAt(0) != first) {
                    failedAt = i;
                    break;
                }
                if (bestEnd[i] <= budget) {
                    matchedAt = i;
                    break;
                }
                if (min > budget) {
                    failedAt = i;
                    break;
                }
            }
            if (depth >= 1 && bestEnd[depth] <= budget) {
                matchedAt = depth;
            }
            previous = key;
            if (matchedAt < 0) {
                k = failedAt < 0 ? k + 1 : firstKeyAtOrAfter(key.substring(0, failedAt) + Character.MAX_VALUE);
                continue;
            }
            int end = firstKeyAtOrAfter(key.substring(0, matchedAt) + Character.MAX_VALUE);
            int edits = bestEnd[matchedAt];
            for (; k < end && k < to; k++) {
                int option = keyOptions[k];
                if (edits > 0 && !excluded.test(option)) {
                    Match match = new Match(option, keyWhere[k], edits);
                    best.merge(option, match, (a, b) -> ranking.compare(a, b) <= 0 ? a : b);
                }
            }
            previous = keys[end - 1];
            valid = Math.min(valid, matchedAt);
        }
        return topOf(best.values(), limit);
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

    private List<Match> topOf(Iterable<Match> candidates, int limit) {
        PriorityQueue<Match> worstFirst = new PriorityQueue<>(ranking.reversed());
        for (Match match : candidates) {
            worstFirst.add(match);
            if (worstFirst.size() > limit) {
                worstFirst.poll();
            }
        }
        List<Match> matches = new ArrayList<>(worstFirst);
        matches.sort(ranking);
        return matches;
    }

    private static int commonPrefix(String a, String b) {
        int n = Math.min(a.length(), b.length());
        int i = 0;
        while (i < n && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return i;
    }

    private int firstKeyAtOrAfter(String prefix) {
        int k = Arrays.binarySearch(keys, prefix);
        if (k < 0) {
            return -k - 1;
        }
        while (k > 0 && keys[k - 1].equals(prefix)) {
            k--;
        }
        return k;
    }

    private static void addKeys(List<Object[]> rows, String folded, int option, int where) {
        if (folded.isEmpty()) {
            return;
        }
        rows.add(new Object[] {folded, option, where});
        for (int space = folded.indexOf(' '); space >= 0; space = folded.indexOf(' ', space + 1)) {
            rows.add(new Object[] {folded.substring(space + 1), option, AT_WORD});
        }
    }

    private int[] sortedByWeight(int n) {
        return java.util.stream.IntStream.range(0, n).boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> weights[i]).reversed()
                        .thenComparingInt(i -> i))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    private Map<String, int[]> freeze(Map<String, List<Integer>> lists) {
        Map<String, int[]> frozen = new HashMap<>();
        lists.forEach((key, options) -> frozen.put(key, options.stream()
                .distinct()
                .sorted(Comparator.comparingDouble((Integer i) -> weights[i]).reversed())
                .mapToInt(Integer::intValue)
                .toArray()));
        return Map.copyOf(frozen);
    }
}
