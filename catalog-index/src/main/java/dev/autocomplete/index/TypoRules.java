package dev.autocomplete.index;

/**
 * The typo rules, in the style of Algolia, Typesense and Meilisearch: no typo in a word shorter than 4
 * characters, one from 4, two from 8; a transposition of two neighbours is one edit; the first letter is
 * never forgiven; digits match exactly. Distances are optimal string alignment (restricted
 * Damerau-Levenshtein). The budget is the sum over the typed words; a short word may take a typo its neighbours
 * pay for, but the last word, when shorter than 4 characters, is matched as typed ({@link #editCosts}): {@code
 * products sh} does not reach {@code Products W1} by two edits of {@code sh}. Thread-safe.
 */
public final class TypoRules {

    /** A cost above any budget: an edit that is not allowed. */
    public static final int NEVER = 100;

    /** {@link #editCosts} of a typed character of a short last word: not edited, nothing inserted after it. */
    private static final int LOCKED = NEVER;

    /** {@link #editCosts} of a digit (outside a short last word): not edited, but a letter may follow it. */
    private static final int DIGIT = NEVER + 1;

    private TypoRules() {}

    /** How many typos a folded text allows: the sum over its words. */
    public static int budget(String folded) {
        int budget = 0;
        int wordLength = 0;
        for (int i = 0; i <= folded.length(); i++) {
            if (i == folded.length() || folded.charAt(i) == ' ') {
                budget += wordLength >= 8 ? 2 : wordLength >= 4 ? 1 : 0;
                wordLength = 0;
            } else {
                wordLength++;
            }
        }
        return budget;
    }

    /**
     * What editing each typed character costs (substituting or deleting it, swapping it with a neighbour): 1, more
     * than any budget for a digit, and for the last typed word when it is shorter than 4 characters (with the space
     * before it and any after it), whose characters are also never followed by an inserted one. That word is the start
     * of a word being typed, matched as typed: {@code products sh} never reaches {@code Products W1} by editing
     * {@code sh}, nor {@code rapid z} {@code Rapid Chair}. A short word before others may still take a typo the longer
     * words pay for ({@code nw york} is {@code New York}, {@code sna francisco} {@code San Francisco}). What {@link
     * #firstRow}, {@link #nextRow} and {@link #bitsWithin} take with the typed text.
     */
    public static int[] editCosts(String typed) {
        int m = typed.length();
        int[] costs = new int[m];
        for (int j = 0; j < m; j++) {
            costs[j] = isDigit(typed.charAt(j)) ? DIGIT : 1;
        }
        int end = m;
        while (end > 0 && typed.charAt(end - 1) == ' ') {
            end--;
        }
        int start = typed.lastIndexOf(' ', end - 1) + 1;
        if (end > 0 && end - start < 4) {
            // The last word, the spaces after it, and the space before it: matched as typed.
            for (int j = Math.max(0, start - 1); j < m; j++) {
                costs[j] = LOCKED;
            }
        }
        return costs;
    }

    /**
     * The edits between folded {@code typed} and folded {@code target}, or {@link #NEVER} when over budget. Three
     * rows in turn, each exact near the diagonal only ({@link #nextRowWithin}); a row whose minimum is over budget
     * ends it, as every row after it is over too: a long name costs the rows of the typed length and its budget.
     */
    public static int distance(String typed, String target) {
        int budget = budget(typed);
        if (typed.isEmpty() || target.isEmpty() || typed.charAt(0) != target.charAt(0)) {
            return typed.equals(target) ? 0 : NEVER;
        }
        int m = typed.length();
        int[] edits = editCosts(typed);
        int[] twoAbove = null;
        int[] above = firstRow(typed, edits);
        int[] row = new int[m + 1];
        for (int i = 1; i <= target.length(); i++) {
            java.util.Arrays.fill(row, budget + 1);
            int min = nextRowWithin(
                    typed,
                    edits,
                    target.charAt(i - 1),
                    i >= 2 ? target.charAt(i - 2) : 0,
                    above,
                    twoAbove,
                    row,
                    i,
                    budget);
            if (min > budget) {
                return NEVER;
            }
            int[] free = twoAbove == null ? new int[m + 1] : twoAbove;
            twoAbove = above;
            above = row;
            row = free;
        }
        int found = above[m];
        return found <= budget ? found : NEVER;
    }

    /**
     * Row 0 of the alignment table: turning the empty text into the first j typed characters ({@code edits}: the
     * typed text's {@link #editCosts}).
     */
    public static int[] firstRow(String typed, int[] edits) {
        int[] row = new int[typed.length() + 1];
        for (int j = 1; j <= typed.length(); j++) {
            row[j] = Math.min(NEVER, row[j - 1] + edits[j - 1]);
        }
        return row;
    }

    /**
     * Fills {@code row} for the next target character {@code c} (previous target character {@code before},
     * 0 at the start) from the two rows above; returns the row's minimum.
     */
    public static int nextRow(String typed, int[] edits, char c, char before, int[] above, int[] twoAbove, int[] row) {
        row[0] = Math.min(NEVER, above[0] + cost(c));
        int min = row[0];
        for (int j = 1; j < row.length; j++) {
            row[j] = Math.min(NEVER, cell(typed, edits, j, c, before, above, twoAbove, row));
            min = Math.min(min, row[j]);
        }
        return min;
    }

    /**
     * {@link #nextRow} for the row of {@code depth}, exact only up to {@code budget + 1}: a cell farther than
     * {@code budget} from the diagonal ({@code |depth - j| > budget}) is over budget whatever the texts, so it is
     * not computed and keeps the {@code budget + 1} the caller filled every row with first; the others hold their
     * value or {@code budget + 1}, whichever is smaller. Every comparison with the budget (the minimum, the last
     * cell, {@link #nextWithin}) comes out as with {@link #nextRow}, for {@code 2 * budget + 1} cells a row instead
     * of the typed length.
     */
    public static int nextRowWithin(
            String typed,
            int[] edits,
            char c,
            char before,
            int[] above,
            int[] twoAbove,
            int[] row,
            int depth,
            int budget) {
        int cap = budget + 1;
        int lo = Math.max(1, depth - budget);
        int hi = Math.min(row.length - 1, depth + budget);
        int min = cap;
        if (lo == 1) {
            row[0] = Math.min(cap, above[0] + cost(c));
            min = row[0];
        }
        for (int j = lo; j <= hi; j++) {
            row[j] = Math.min(cap, cell(typed, edits, j, c, before, above, twoAbove, row));
            min = Math.min(min, row[j]);
        }
        return min;
    }

    /**
     * Cell {@code j} of the row for {@code c}: a match, a substitution, an insertion (of {@code c} after typed
     * character {@code j}), a deletion or a swap; each edit of a typed character at its {@link #editCosts}.
     */
    private static int cell(
            String typed, int[] edits, int j, char c, char before, int[] above, int[] twoAbove, int[] row) {
        char t = typed.charAt(j - 1);
        if (t == c) {
            return above[j - 1];
        }
        int edit = edits[j - 1];
        int best = above[j - 1] + Math.max(edit, cost(c));
        best = Math.min(best, above[j] + (edit == LOCKED ? LOCKED : cost(c)));
        best = Math.min(best, row[j - 1] + edit);
        if (twoAbove != null && j >= 2 && t == before && typed.charAt(j - 2) == c && edit == 1 && edits[j - 2] == 1) {
            best = Math.min(best, twoAbove[j - 2] + 1);
        }
        return best;
    }

    /**
     * The smallest byte above {@code after} that can follow a prefix whose row (from {@link #nextRow}) is
     * {@code row}, the row before it {@code above} and its last character {@code last}, without going over
     * {@code budget}; or 256. Only for a row whose minimum is the budget: then a next character must match a
     * typed character diagonally, or complete a transposition.
     */
    public static int nextWithin(String typed, int[] edits, int budget, int[] row, int[] above, char last, int after) {
        long[] bits = new long[4];
        bitsWithin(typed, edits, budget, row, above, last, 1, row.length - 1, bits, 0);
        return nextIn(bits, 0, after);
    }

    /**
     * Every byte {@link #nextWithin} gives in turn, for the row of {@code depth}, as a set: bit {@code c % 64} of
     * {@code bits[at + c / 64]}. Only the cells near the diagonal can be within budget ({@link #nextRowWithin}), so
     * only their typed characters are looked at. A walk finds a node's bytes once instead of once per byte (it visits
     * many nodes whose budget is spent), and a set keeps them in order without sorting them.
     */
    static void bitsWithin(
            String typed, int[] edits, int budget, int[] row, int[] above, char last, int depth, long[] bits, int at) {
        bitsWithin(
                typed,
                edits,
                budget,
                row,
                above,
                last,
                Math.max(1, depth - budget + 1),
                Math.min(row.length - 1, depth + budget + 1),
                bits,
                at);
    }

    /**
     * The bytes of cells {@code from} to {@code to} that can follow within budget: a diagonal match, or the end of a
     * transposition. Typed text is bytes ({@code ISO_8859_1}): every character is below 256. The four words are
     * cleared first.
     */
    private static void bitsWithin(
            String typed,
            int[] edits,
            int budget,
            int[] row,
            int[] above,
            char last,
            int from,
            int to,
            long[] bits,
            int at) {
        bits[at] = 0;
        bits[at + 1] = 0;
        bits[at + 2] = 0;
        bits[at + 3] = 0;
        for (int j = from; j <= to; j++) {
            char t = typed.charAt(j - 1);
            if (row[j - 1] <= budget) {
                bits[at + (t >>> 6)] |= 1L << t;
            }
            if (j >= 2 && t == last && above[j - 2] + 1 <= budget && edits[j - 1] == 1 && edits[j - 2] == 1) {
                char c = typed.charAt(j - 2);
                if (c != t) {
                    bits[at + (c >>> 6)] |= 1L << c;
                }
            }
        }
    }

    /** Whether byte {@code b} is in a set of {@link #bitsWithin}. */
    static boolean isIn(long[] bits, int at, int b) {
        return (bits[at + (b >>> 6)] & (1L << b)) != 0;
    }

    /** The smallest byte above {@code after} in a set of {@link #bitsWithin}, or 256. */
    static int nextIn(long[] bits, int at, int after) {
        int from = after + 1;
        if (from >= 256) {
            return 256;
        }
        int word = from >>> 6;
        long rest = bits[at + word] & (-1L << from);
        while (rest == 0) {
            if (++word == 4) {
                return 256;
            }
            rest = bits[at + word];
        }
        return (word << 6) + Long.numberOfTrailingZeros(rest);
    }

    private static int cost(char c) {
        return isDigit(c) ? NEVER : 1;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
