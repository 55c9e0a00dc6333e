package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The matching rules of one option list: prefixes on every word, typos, ranking. */
class OptionCatalogTest {

    private static final OptionCatalog CITIES = new OptionCatalog(List.of(
            new CatalogEntry("London", List.of("LHR"), 9_000_000, Map.of()),
            new CatalogEntry("Londrina", 500_000),
            new CatalogEntry("New York", List.of("Big Apple"), 8_000_000, Map.of()),
            new CatalogEntry("York", 200_000),
            new CatalogEntry("São Paulo", 12_000_000),
            new CatalogEntry("Paris", 2_100_000),
            new CatalogEntry("Lyon", 500_000),
            new CatalogEntry("Rome", 2_800_000),
            new CatalogEntry("Barcelona", 1_600_000),
            new CatalogEntry("Route 66", 10),
            new CatalogEntry("Route 67", 10)));

    private static List<String> find(String typed) {
        return CITIES.completeWithTypos(typed, 10, option -> false).stream()
                .map(match -> CITIES.text(match.option()))
                .toList();
    }

    @Test
    void a_long_list_holds_each_option_once_at_its_best_rank() {
        // Each option matches twice (its text and an inner word): asked for more than a thousand, every one comes
        // once, at the start, heaviest first.
        List<CatalogEntry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            entries.add(new CatalogEntry("Alpha " + i + " alpha", List.of("Alpha Street " + i), 3_000 - i, Map.of()));
        }
        OptionCatalog catalog = new OptionCatalog(entries);
        List<OptionCatalog.Match> found = catalog.completeWithTypos("alpha", 5_000, option -> option % 7 == 0);
        List<Integer> expected = java.util.stream.IntStream.range(0, 3_000)
                .filter(option -> option % 7 != 0)
                .boxed()
                .toList();
        assertEquals(expected, found.stream().map(OptionCatalog.Match::option).toList());
        assertTrue(found.stream().allMatch(match -> match.where() == OptionCatalog.AT_START && match.edits() == 0));
    }

    @Test
    void a_prefix_of_any_word_matches_and_a_match_at_the_start_ranks_first() {
        assertEquals(List.of("York", "New York"), find("york"));
    }

    @Test
    void accents_case_and_punctuation_are_ignored() {
        assertEquals(List.of("São Paulo"), find("sao-pau"));
    }

    @Test
    void aliases_match_like_text() {
        assertEquals(List.of("London"), find("lhr"));
        assertEquals(List.of("New York"), find("big ap"));
    }

    @Test
    void words_shorter_than_four_letters_allow_no_typo() {
        assertEquals(List.of(), find("lno"));
        assertEquals(List.of(), find("rmo"));
        assertEquals(List.of("Rome"), find("roem"));
    }

    @Test
    void a_transposition_in_a_four_letter_word_is_one_typo() {
        assertEquals("London", find("lodn").getFirst());
        assertEquals(List.of("Paris"), find("pairs"));
    }

    @Test
    void one_typo_from_four_letters_two_from_eight() {
        assertEquals(List.of(), find("lxndxn"));
        assertEquals(List.of("Barcelona"), find("bracelnoa"));
        assertEquals(List.of(), find("bxrxxlona"));
    }

    @Test
    void the_first_letter_is_never_forgiven() {
        assertEquals(List.of(), find("oLndon".toLowerCase()));
        assertEquals(List.of(), find("kondon"));
    }

    @Test
    void digits_match_exactly() {
        assertEquals(List.of("Route 66"), find("route 66"));
        assertEquals(List.of(), find("route 68"));
        assertEquals(List.of("Route 66", "Route 67"), find("rotue 6"));
    }

    @Test
    void exact_and_prefix_matches_rank_above_typo_matches() {
        // London, one typo away from "londr", is lighter here than nothing: it still ranks below the prefix match.
        List<String> found = find("londr");
        assertEquals("Londrina", found.getFirst(), found.toString());
        assertTrue(found.indexOf("London") > 0, found.toString());
    }

    @Test
    void the_heaviest_matches_of_a_large_catalog_are_found_without_reading_every_key() {
        java.util.Random random = new java.util.Random(3);
        List<CatalogEntry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            entries.add(new CatalogEntry(
                    "Place " + i + " " + (char) ('a' + random.nextInt(3)) + "ville", random.nextInt(1_000_000)));
        }
        OptionCatalog catalog = new OptionCatalog(entries);
        // No prefix below matches both at the start and at an inner word, so weight alone orders them.
        for (String prefix : List.of("p", "place 1", "bville", "a")) {
            List<Double> found = catalog.complete(prefix, 10, option -> option % 7 == 0).stream()
                    .map(m -> catalog.weight(m.option()))
                    .toList();
            List<Double> expected = java.util.stream.IntStream.range(0, entries.size())
                    .filter(i -> i % 7 != 0)
                    .filter(i -> java.util.Arrays.stream(catalog.foldedText(i).split(" "))
                                    .anyMatch(w -> w.startsWith(prefix))
                            || catalog.foldedText(i).startsWith(prefix))
                    .mapToObj(catalog::weight)
                    .sorted(java.util.Comparator.reverseOrder())
                    .limit(10)
                    .toList();
            assertEquals(expected, found, prefix);
        }
    }

    @Test
    void typo_matches_of_a_large_catalog_are_exactly_the_options_with_a_word_prefix_within_budget() {
        java.util.Random random = new java.util.Random(5);
        List<CatalogEntry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < 6_000; i++) {
            entries.add(new CatalogEntry(word(random) + " " + word(random), random.nextInt(1_000)));
        }
        OptionCatalog catalog = new OptionCatalog(entries);
        for (int q = 0; q < 200; q++) {
            String typed = word(random).substring(0, 4 + random.nextInt(3));
            java.util.Set<Integer> found = new java.util.HashSet<>();
            catalog.completeWithTypos(typed, 100_000, option -> false).forEach(m -> found.add(m.option()));
            java.util.Set<Integer> expected = new java.util.HashSet<>();
            for (int i = 0; i < entries.size(); i++) {
                for (String word : catalog.foldedText(i).split(" ")) {
                    for (int end = 1; end <= word.length(); end++) {
                        if (TypoRules.distance(typed, word.substring(0, end)) != TypoRules.NEVER) {
                            expected.add(i);
                        }
                    }
                }
            }
            assertEquals(expected, found, typed);
        }
    }

    @Test
    void typo_matches_at_the_start_rank_above_typo_matches_at_an_inner_word() {
        OptionCatalog catalog = new OptionCatalog(List.of(
                new CatalogEntry("Old Marsella", 900),
                new CatalogEntry("Marseille", 10),
                new CatalogEntry("Marsea", 20),
                new CatalogEntry("Port Marseau", 800)));
        java.util.function.Function<Integer, List<String>> find =
                limit -> catalog.completeWithTypos("masre", limit, option -> false).stream()
                        .map(match -> catalog.text(match.option()) + "/" + match.where() + "/" + match.edits())
                        .toList();
        assertEquals(List.of("Marsea/0/1", "Marseille/0/1"), find.apply(2));
        assertEquals(List.of("Marsea/0/1", "Marseille/0/1", "Old Marsella/2/1", "Port Marseau/2/1"), find.apply(10));
    }

    @Test
    void typo_matches_with_a_budget_of_two_and_across_words_are_exactly_the_keys_within_budget_in_rank_order() {
        java.util.Random random = new java.util.Random(9);
        List<CatalogEntry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            entries.add(new CatalogEntry(
                    word(random) + " " + word(random) + (i % 3 == 0 ? " 7" : ""), random.nextInt(1_000)));
        }
        OptionCatalog catalog = new OptionCatalog(entries);
        for (int q = 0; q < 150; q++) {
            String typed =
                    word(random).substring(0, 5) + (q % 2 == 0 ? word(random).substring(0, 3) : " ab");
            List<OptionCatalog.Match> all = catalog.completeWithTypos(typed, 100_000, option -> false);
            java.util.Set<Integer> expected = new java.util.HashSet<>();
            for (int i = 0; i < entries.size(); i++) {
                String text = catalog.foldedText(i);
                for (int start = 0; start < text.length(); start++) {
                    if (start > 0 && text.charAt(start - 1) != ' ') {
                        continue;
                    }
                    for (int end = start + 1; end <= text.length(); end++) {
                        if (TypoRules.distance(typed, text.substring(start, end)) != TypoRules.NEVER) {
                            expected.add(i);
                        }
                    }
                }
            }
            assertEquals(
                    expected,
                    all.stream().map(OptionCatalog.Match::option).collect(java.util.stream.Collectors.toSet()),
                    typed);
            for (int i = 1; i < all.size(); i++) {
                OptionCatalog.Match before = all.get(i - 1);
                OptionCatalog.Match after = all.get(i);
                assertTrue(
                        before.edits() < after.edits()
                                || before.edits() == after.edits() && before.where() <= after.where(),
                        typed + " " + all);
            }
            assertEquals(
                    all.subList(0, Math.min(3, all.size())),
                    catalog.completeWithTypos(typed, 3, option -> false),
                    typed);
        }
    }

    /** A word of 6 to 9 letters from a small alphabet, so that typos find many neighbours. */
    private static String word(java.util.Random random) {
        StringBuilder word = new StringBuilder();
        for (int i = 6 + random.nextInt(4); i > 0; i--) {
            word.append("abcdeo".charAt(random.nextInt(6)));
        }
        return word.toString();
    }

    @Test
    void the_order_by_weight_holds_past_the_ranks_ordered_at_build_time() {
        // More options than the ranks a catalog orders when built, with many ties and negative weights.
        List<CatalogEntry> entries = new java.util.ArrayList<>();
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 5000; i++) {
            entries.add(new CatalogEntry("option " + i, random.nextInt(300) - 100));
        }
        OptionCatalog catalog = new OptionCatalog(entries);
        List<Integer> expected = java.util.stream.IntStream.range(0, entries.size())
                .boxed()
                .sorted(java.util.Comparator.comparingDouble(
                                (Integer i) -> -entries.get(i).weight())
                        .thenComparingInt(i -> i))
                .toList();
        for (int rank = entries.size() - 1; rank >= 0; rank -= 997) {
            assertEquals(expected.get(rank), catalog.byWeight(rank), "rank " + rank);
        }
        for (int rank = 0; rank < entries.size(); rank++) {
            assertEquals(expected.get(rank), catalog.byWeight(rank), "rank " + rank);
        }
    }
}
