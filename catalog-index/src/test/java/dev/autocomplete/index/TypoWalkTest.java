package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/**
 * The typo walk ({@link TypoWalk}, through {@link OptionCatalog#completeWithTypos}) against an exhaustive search of
 * every key of small random catalogs (seeded): the same top 10, in the same order, with and without a bound. The
 * words are long and short, so that the walk goes both through the trie table and below it, and drawn from a small
 * alphabet, so that a typed prefix has many neighbours.
 */
class TypoWalkTest {

    @Test
    void top_ten_with_typos_is_the_top_ten_of_an_exhaustive_search() {
        for (int seed = 1; seed <= 4; seed++) {
            Random random = new Random(seed);
            List<CatalogEntry> entries = entries(random, 1_500);
            OptionCatalog catalog = new OptionCatalog(entries);
            IntPredicate excluded = option -> option % 11 == 0;
            for (int q = 0; q < 120; q++) {
                String typed = query(random, entries);
                List<String> expected = exhaustive(entries, typed, excluded).stream()
                        .limit(10)
                        .map(Found::toString)
                        .toList();
                assertEquals(expected, shown(catalog, catalog.completeWithTypos(typed, 10, excluded)), typed);
            }
        }
    }

    @Test
    void a_bound_keeps_exactly_the_matches_that_rank_before_it() {
        Random random = new Random(17);
        List<CatalogEntry> entries = entries(random, 2_000);
        OptionCatalog catalog = new OptionCatalog(entries);
        IntPredicate none = option -> false;
        int checked = 0;
        for (int q = 0; q < 150; q++) {
            String typed = query(random, entries);
            List<Found> all = exhaustive(entries, typed, none);
            for (Found last : all.subList(0, Math.min(all.size(), 30))) {
                if (last.edits() == 0) {
                    continue;
                }
                OptionCatalog.Bound bound = new OptionCatalog.Bound(last.edits(), last.where(), last.weight());
                List<String> expected = all.stream()
                        .filter(f -> f.edits() < last.edits()
                                || f.edits() == last.edits()
                                        && (f.where() < last.where()
                                                || f.where() == last.where() && f.weight() >= last.weight()))
                        .limit(10)
                        .map(Found::toString)
                        .toList();
                assertEquals(
                        expected,
                        shown(catalog, catalog.completeWithTypos(typed, 10, none, bound)),
                        typed + " bound " + bound);
                checked++;
            }
        }
        assertEquals(true, checked > 500, "bounds checked: " + checked);
    }

    @Test
    void a_main_catalog_and_its_delta_walked_together_give_the_top_ten_of_an_exhaustive_search_of_both() {
        for (int seed = 31; seed <= 33; seed++) {
            Random random = new Random(seed);
            List<CatalogEntry> all = entries(random, 1_600);
            List<CatalogEntry> mainEntries = all.subList(0, 1_500);
            OptionCatalog main = new OptionCatalog(mainEntries);
            OptionCatalog delta = new OptionCatalog(all.subList(1_500, all.size()));
            IntPredicate gone = option -> option < 1_500 && option % 13 == 0;
            LayeredCatalog layered = new LayeredCatalog(main, gone, delta);
            IntPredicate excluded = option -> option % 11 == 0;
            for (int q = 0; q < 120; q++) {
                assertLayeredFindsTopTen(all, layered, gone, excluded, query(random, all));
            }
        }
    }

    @Test
    void a_main_catalog_and_its_delta_give_the_top_ten_of_short_prefixes_as_an_exhaustive_search_of_both() {
        // One to eight letters: prefixes the merged table answers alone (up to its depth) and longer ones.
        Random random = new Random(37);
        List<CatalogEntry> all = entries(random, 1_600);
        OptionCatalog main = new OptionCatalog(all.subList(0, 1_500));
        OptionCatalog delta = new OptionCatalog(all.subList(1_500, all.size()));
        IntPredicate gone = option -> option < 1_500 && option % 7 == 0;
        LayeredCatalog layered = new LayeredCatalog(main, gone, delta);
        IntPredicate excluded = option -> option % 11 == 0;
        for (int q = 0; q < 400; q++) {
            String[] words =
                    Folding.fold(all.get(random.nextInt(all.size())).text()).split(" ");
            String word = words[random.nextInt(words.length)] + word(random);
            assertLayeredFindsTopTen(
                    all, layered, gone, excluded, word.substring(0, Math.min(word.length(), 1 + q % 8)));
        }
    }

    /** The layered catalog's top 10 is that of an exhaustive search of all its options, less gone and excluded. */
    private static void assertLayeredFindsTopTen(
            List<CatalogEntry> all, LayeredCatalog layered, IntPredicate gone, IntPredicate excluded, String typed) {
        List<String> expected = exhaustive(all, typed, option -> gone.test(option) || excluded.test(option)).stream()
                .limit(10)
                .map(Found::toString)
                .toList();
        assertEquals(expected, shown(null, layered.completeWithTypos(typed, 10, excluded)), typed);
    }

    /** One option's best match: fewest typos, then the start before an inner word. */
    private record Found(int option, int edits, int where, double weight) {
        @Override
        public String toString() {
            return option + "/" + edits + "/" + where;
        }
    }

    private static List<String> shown(OptionCatalog catalog, List<OptionCatalog.Match> matches) {
        return matches.stream()
                .map(m -> m.option() + "/" + m.edits() + "/" + m.where())
                .toList();
    }

    /**
     * Every option with a word of its text or aliases starting within the typos of {@code typed}, at its best rank
     * (a key's typos are those of its first prefix within budget), by rank then weight (all weights differ).
     */
    private static List<Found> exhaustive(List<CatalogEntry> entries, String typed, IntPredicate excluded) {
        List<Found> found = new ArrayList<>();
        for (int option = 0; option < entries.size(); option++) {
            if (excluded.test(option)) {
                continue;
            }
            CatalogEntry entry = entries.get(option);
            List<String> names = new ArrayList<>();
            names.add(Folding.fold(entry.text()));
            entry.aliases().forEach(alias -> names.add(Folding.fold(alias)));
            int bestEdits = Integer.MAX_VALUE;
            int bestWhere = Integer.MAX_VALUE;
            for (String name : names) {
                for (int start = 0; start < name.length(); start++) {
                    if (start > 0 && name.charAt(start - 1) != ' ') {
                        continue;
                    }
                    int where = start == 0 ? OptionCatalog.AT_START : OptionCatalog.AT_WORD;
                    int edits = edits(typed, name.substring(start));
                    if (edits < bestEdits || edits == bestEdits && where < bestWhere) {
                        bestEdits = edits;
                        bestWhere = where;
                    }
                }
            }
            if (bestEdits != Integer.MAX_VALUE) {
                found.add(new Found(option, bestEdits, bestWhere, entry.weight()));
            }
        }
        found.sort(Comparator.comparingInt(Found::edits)
                .thenComparingInt(Found::where)
                .thenComparing(Comparator.comparingDouble(Found::weight).reversed()));
        return found;
    }

    /** The typos of a key: 0 when it starts with {@code typed}, else those of its first prefix within budget. */
    private static int edits(String typed, String key) {
        if (key.startsWith(typed)) {
            return 0;
        }
        for (int end = 1; end <= key.length(); end++) {
            int edits = TypoRules.distance(typed, key.substring(0, end));
            if (edits != TypoRules.NEVER) {
                return edits;
            }
        }
        return Integer.MAX_VALUE;
    }

    private static List<CatalogEntry> entries(Random random, int size) {
        List<Integer> weights = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            weights.add(i + 1);
        }
        java.util.Collections.shuffle(weights, random);
        List<CatalogEntry> entries = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            StringBuilder text = new StringBuilder(word(random));
            for (int w = random.nextInt(3); w > 0; w--) {
                text.append(' ').append(random.nextInt(8) == 0 ? "7" + word(random) : word(random));
            }
            List<String> aliases = i % 5 == 0 ? List.of(word(random) + " " + word(random)) : List.of();
            entries.add(new CatalogEntry(text.toString(), aliases, weights.get(i), Map.of()));
        }
        return entries;
    }

    /** A word of 2 to 11 letters of a small alphabet: keys shorter and longer than the trie table's levels. */
    private static String word(Random random) {
        StringBuilder word = new StringBuilder();
        for (int i = 2 + random.nextInt(10); i > 0; i--) {
            word.append("abcdeo".charAt(random.nextInt(6)));
        }
        return word.toString();
    }

    /** A prefix of 4 to 9 letters of some option's word with one edit (swap, substitution, deletion, insertion). */
    private static String query(Random random, List<CatalogEntry> entries) {
        String[] words =
                Folding.fold(entries.get(random.nextInt(entries.size())).text()).split(" ");
        String word = words[random.nextInt(words.length)] + word(random);
        char[] typed = word.substring(0, Math.min(word.length(), 4 + random.nextInt(6)))
                .toCharArray();
        int i = 1 + random.nextInt(typed.length - 2);
        StringBuilder edited = new StringBuilder(new String(typed));
        switch (random.nextInt(5)) {
            case 0 -> {
                edited.setCharAt(i, typed[i + 1]);
                edited.setCharAt(i + 1, typed[i]);
            }
            case 1 -> edited.setCharAt(i, "abcdeo".charAt(random.nextInt(6)));
            case 2 -> edited.deleteCharAt(i);
            case 3 -> edited.insert(i, "abcdeo".charAt(random.nextInt(6)));
            default -> {}
        }
        return edited.toString();
    }
}
