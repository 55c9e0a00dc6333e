package dev.autocomplete.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
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
            int budget = TypoRules.budget(typed);
            String target = typed.charAt(0) + text(random, alphabet, 1 + random.nextInt(8));
            int m = typed.length();
            int[][] rows = new int[target.length() + 1][];
            rows[0] = TypoRules.firstRow(typed);
            for (int i = 1; i <= target.length(); i++) {
                rows[i] = new int[m + 1];
                int min = TypoRules.nextRow(
                        typed,
                        target.charAt(i - 1),
                        i >= 2 ? target.charAt(i - 2) : 0,
                        rows[i - 1],
                        i >= 2 ? rows[i - 2] : null,
                        rows[i]);
                if (min > budget) {
                    break;
                }
                if (min < budget) {
                    continue;
                }
                List<Integer> expected = new ArrayList<>();
                for (int c = 0; c < 256; c++) {
                    int[] next = new int[m + 1];
                    if (TypoRules.nextRow(typed, (char) c, target.charAt(i - 1), rows[i], rows[i - 1], next)
                            <= budget) {
                        expected.add(c);
                    }
                }
                List<Integer> offered = new ArrayList<>();
                for (int c = TypoRules.nextWithin(typed, budget, rows[i], rows[i - 1], target.charAt(i - 1), -1);
                        c < 256;
                        c = TypoRules.nextWithin(typed, budget, rows[i], rows[i - 1], target.charAt(i - 1), c)) {
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
        String alphabet = "abcde1 ";
        for (int q = 0; q < 3_000; q++) {
            String typed = text(random, alphabet, 4 + random.nextInt(8));
            int budget = TypoRules.budget(typed);
            String target = typed.charAt(0) + text(random, alphabet, 1 + random.nextInt(12));
            int m = typed.length();
            int[][] full = new int[target.length() + 1][m + 1];
            int[][] band = new int[target.length() + 1][m + 1];
            for (int[] row : band) {
                java.util.Arrays.fill(row, budget + 1);
            }
            full[0] = TypoRules.firstRow(typed);
            band[0] = TypoRules.firstRow(typed);
            for (int i = 1; i <= target.length(); i++) {
                char c = target.charAt(i - 1);
                char before = i >= 2 ? target.charAt(i - 2) : 0;
                int fullMin = TypoRules.nextRow(typed, c, before, full[i - 1], i >= 2 ? full[i - 2] : null, full[i]);
                int bandMin = TypoRules.nextRowWithin(
                        typed, c, before, band[i - 1], i >= 2 ? band[i - 2] : null, band[i], i, budget);
                String where = typed + " against " + target.substring(0, i);
                assertEquals(Math.min(fullMin, budget + 1), Math.min(bandMin, budget + 1), where);
                for (int j = 0; j <= m; j++) {
                    assertEquals(
                            Math.min(full[i][j], budget + 1), Math.min(band[i][j], budget + 1), where + " at " + j);
                }
                if (fullMin >= budget && i >= 1) {
                    int after = random.nextInt(120);
                    assertEquals(
                            TypoRules.nextWithin(typed, budget, full[i], full[i - 1], c, after),
                            TypoRules.nextWithin(typed, budget, band[i], band[i - 1], c, after, i),
                            where);
                }
            }
        }
    }

    private static String text(Random random, String alphabet, int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }
}
