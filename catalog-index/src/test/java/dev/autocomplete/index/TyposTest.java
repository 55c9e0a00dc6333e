package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The alignment rows the typo walk steps through, against a check of every next byte. */
class TyposTest {

    @Test
    void after_a_prefix_that_spent_the_budget_the_next_bytes_offered_are_exactly_those_that_stay_within_it() {
        Random random = new Random(11);
        String alphabet = "abcde1 ";
        int checked = 0;
        for (int q = 0; q < 3_000; q++) {
            String typed = text(random, alphabet, 4 + random.nextInt(6));
            int[] edits = TypoRules.editCosts(typed);
            int budget = TypoRules.budget(typed);
            String target = typed.charAt(0) + text(random, alphabet, 1 + random.nextInt(8));
            int m = typed.length();
            int[][] rows = wholeTable(typed, target);
            for (int i = 1; i <= target.length(); i++) {
                int min = Arrays.stream(rows[i]).min().orElseThrow();
                if (min > budget) {
                    break;
                }
                if (min < budget) {
                    continue;
                }
                List<Integer> expected = new ArrayList<>();
                for (int c = 0; c < 256; c++) {
                    int[] next = new int[m + 1];
                    if (TypoRules.nextRow(typed, edits, (char) c, target.charAt(i - 1), rows[i], rows[i - 1], next)
                            <= budget) {
                        expected.add(c);
                    }
                }
                List<Integer> offered = new ArrayList<>();
                for (int c = TypoRules.nextWithin(typed, edits, budget, rows[i], rows[i - 1], target.charAt(i - 1), -1);
                        c < 256;
                        c = TypoRules.nextWithin(typed, edits, budget, rows[i], rows[i - 1], target.charAt(i - 1), c)) {
                    offered.add(c);
                }
                assertEquals(expected, offered, typed + " after " + target.substring(0, i));
                checked++;
            }
        }
        assertTrue(checked > 1_000, "rows that spent the budget: " + checked);
    }

    @Test
    void a_row_computed_near_the_diagonal_only_agrees_with_the_full_row_up_to_the_budget() {
        Random random = new Random(23);
        int allAtOnce = 0;
        String alphabet = "abcde1 ";
        for (int q = 0; q < 3_000; q++) {
            String typed = text(random, alphabet, 4 + random.nextInt(8));
            int[] edits = TypoRules.editCosts(typed);
            int budget = TypoRules.budget(typed);
            String target = typed.charAt(0) + text(random, alphabet, 1 + random.nextInt(12));
            int m = typed.length();
            int[][] full = new int[target.length() + 1][m + 1];
            int[][] band = new int[target.length() + 1][m + 1];
            for (int[] row : band) {
                java.util.Arrays.fill(row, budget + 1);
            }
            full[0] = TypoRules.firstRow(typed, edits);
            band[0] = TypoRules.firstRow(typed, edits);
            for (int i = 1; i <= target.length(); i++) {
                char c = target.charAt(i - 1);
                char before = i >= 2 ? target.charAt(i - 2) : 0;
                int fullMin =
                        TypoRules.nextRow(typed, edits, c, before, full[i - 1], i >= 2 ? full[i - 2] : null, full[i]);
                int bandMin = TypoRules.nextRowWithin(
                        typed, edits, c, before, band[i - 1], i >= 2 ? band[i - 2] : null, band[i], i, budget);
                String where = typed + " against " + target.substring(0, i);
                assertEquals(Math.min(fullMin, budget + 1), Math.min(bandMin, budget + 1), where);
                for (int j = 0; j <= m; j++) {
                    assertEquals(
                            Math.min(full[i][j], budget + 1), Math.min(band[i][j], budget + 1), where + " at " + j);
                }
                if (fullMin >= budget && i >= 1) {
                    // A node's bytes as the walk takes them, from the cells near the diagonal only: those of the
                    // whole row, in turn and after any byte.
                    int after = random.nextInt(120);
                    long[] bits = new long[3 + 4];
                    java.util.Arrays.fill(bits, -1L); // cleared by bitsWithin
                    TypoRules.bitsWithin(typed, edits, budget, band[i], band[i - 1], c, i, bits, 3);
                    assertEquals(
                            TypoRules.nextWithin(typed, edits, budget, full[i], full[i - 1], c, after),
                            TypoRules.nextIn(bits, 3, after),
                            where + " after " + after);
                    List<Integer> inTurn = new ArrayList<>();
                    for (int next = TypoRules.nextWithin(typed, edits, budget, full[i], full[i - 1], c, -1);
                            next < 256;
                            next = TypoRules.nextWithin(typed, edits, budget, full[i], full[i - 1], c, next)) {
                        inTurn.add(next);
                    }
                    List<Integer> atOnce = new ArrayList<>();
                    for (int next = TypoRules.nextIn(bits, 3, -1); next < 256; next = TypoRules.nextIn(bits, 3, next)) {
                        atOnce.add(next);
                    }
                    assertEquals(inTurn, atOnce, where);
                    allAtOnce++;
                }
            }
        }
        assertTrue(allAtOnce > 1_000, "rows that spent the budget: " + allAtOnce);
    }

    @Test
    void the_distance_is_that_of_the_whole_alignment_table_within_the_budget_and_never_beyond_it() {
        Random random = new Random(31);
        String alphabet = "abcde1 ";
        int within = 0;
        for (int q = 0; q < 20_000; q++) {
            String typed = text(random, alphabet, 1 + random.nextInt(12));
            String target = random.nextBoolean()
                    ? typed.charAt(0) + text(random, alphabet, random.nextInt(16))
                    : edited(random, alphabet, typed) + text(random, alphabet, random.nextInt(6));
            int expected = wholeDistance(typed, target);
            assertEquals(expected, TypoRules.distance(typed, target), typed + " against " + target);
            within += expected < TypoRules.NEVER ? 1 : 0;
        }
        assertTrue(within > 1_000, "pairs within budget: " + within);
    }

    @Test
    void a_last_word_shorter_than_four_characters_is_matched_as_typed_though_the_words_before_it_pay_for_typos() {
        // "products" allows two typos; before, both could be spent on "sh" (two edits to "w1").
        assertEquals(TypoRules.NEVER, TypoRules.distance("products sh", "products w1"));
        assertEquals(TypoRules.NEVER, TypoRules.distance("products zz", "products w"));
        assertEquals(TypoRules.NEVER, TypoRules.distance("rapid z", "rapid c"));
        assertEquals(TypoRules.NEVER, TypoRules.distance("rapid chx", "rapid cha"), "a three-letter word");
        assertEquals(TypoRules.NEVER, TypoRules.distance("rapid ch", "rapid cxh"), "no letter inserted in it");
        assertEquals(TypoRules.NEVER, TypoRules.distance("castrovillari it ", "castrovillari ai"), "ended by a space");
        assertEquals(TypoRules.NEVER, TypoRules.distance("langho m", "langholm"), "nor the space before it");
        // A short word before others may still take a typo the longer words pay for; the words long enough take theirs.
        assertEquals(1, TypoRules.distance("nw york", "new york"));
        assertEquals(1, TypoRules.distance("sna francisco", "san francisco"));
        assertEquals(2, TypoRules.distance("pordcuts sh", "products sh"), "two swaps in the long word");
        assertEquals(1, TypoRules.distance("rapdi c", "rapid c"));
        assertEquals(1, TypoRules.distance("san joes", "san jose"));
        assertEquals(1, TypoRules.distance("newyork city", "new york city"), "a space inserted in a long word");
        assertEquals(1, TypoRules.distance("item4950 blue", "itemx4950 blue"), "a letter after a digit");
        assertEquals(TypoRules.NEVER, TypoRules.distance("item4950", "item4951"), "digits match exactly");
    }

    /** The edits of the whole alignment table, every row in full: the reference for {@link TypoRules#distance}. */
    private static int wholeDistance(String typed, String target) {
        if (typed.isEmpty() || target.isEmpty() || typed.charAt(0) != target.charAt(0)) {
            return typed.equals(target) ? 0 : TypoRules.NEVER;
        }
        int edits = wholeTable(typed, target)[target.length()][typed.length()];
        return edits <= TypoRules.budget(typed) ? edits : TypoRules.NEVER;
    }

    /** Every row of the alignment of {@code target} against {@code typed}, each in full ({@link TypoRules#nextRow}). */
    private static int[][] wholeTable(String typed, String target) {
        int[] edits = TypoRules.editCosts(typed);
        int[][] rows = new int[target.length() + 1][typed.length() + 1];
        rows[0] = TypoRules.firstRow(typed, edits);
        for (int i = 1; i <= target.length(); i++) {
            TypoRules.nextRow(
                    typed,
                    edits,
                    target.charAt(i - 1),
                    i >= 2 ? target.charAt(i - 2) : 0,
                    rows[i - 1],
                    i >= 2 ? rows[i - 2] : null,
                    rows[i]);
        }
        return rows;
    }

    /** The text with up to three random edits after its first character: a substitution, an insertion, a deletion or a swap. */
    private static String edited(Random random, String alphabet, String text) {
        StringBuilder edited = new StringBuilder(text);
        for (int edits = random.nextInt(4); edits > 0 && edited.length() > 2; edits--) {
            int at = 1 + random.nextInt(edited.length() - 2);
            char c = alphabet.charAt(random.nextInt(alphabet.length()));
            switch (random.nextInt(4)) {
                case 0 -> edited.setCharAt(at, c);
                case 1 -> edited.insert(at, c);
                case 2 -> edited.deleteCharAt(at);
                default -> {
                    char t = edited.charAt(at);
                    edited.setCharAt(at, edited.charAt(at + 1));
                    edited.setCharAt(at + 1, t);
                }
            }
        }
        return edited.toString();
    }

    private static String text(Random random, String alphabet, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }
}
