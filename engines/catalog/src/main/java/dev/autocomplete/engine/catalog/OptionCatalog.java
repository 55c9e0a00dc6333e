package dev.autocomplete.engine.catalog;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
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

    /** An option that matched a prefix. */
    record Match(int option, int where) {
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
        Comparator<Match> better = Comparator.comparingInt(Match::where)
                .thenComparing(Comparator.comparingDouble((Match m) -> weights[m.option()]).reversed())
                .thenComparingInt(Match::option);
        PriorityQueue<Match> worstFirst = new PriorityQueue<>(better.reversed());
        bestWhere.forEach((option, where) -> {
            worstFirst.add(new Match(option, where));
            if (worstFirst.size() > limit) {
                worstFirst.poll();
            }
        });
        List<Match> matches = new ArrayList<>(worstFirst);
        matches.sort(better);
        return matches;
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
