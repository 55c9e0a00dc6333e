package dev.autocomplete.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The texts of two segments searched as one: a main catalog, less the texts gone from it, and a delta catalog
 * whose ids follow the main's ({@code main.size() + i}). Every answer is the one a single catalog of the main's
 * remaining texts followed by the delta's would give, in the same order: each segment is searched alone and the
 * two ranked lists are merged by the catalog's own order (rank, weight, then the key matched). Immutable.
 */
final class LayeredCatalog {

    private static final IntPredicate NONE = option -> false;

    private final OptionCatalog main;
    /** The main's texts left out, or null when none is. */
    private final IntPredicate gone;

    private final OptionCatalog delta;
    private final int offset;
    /** The two segments' trie tables merged for their shared typo walks, or null without a delta. */
    private final TrieTop[][] tops;

    LayeredCatalog(OptionCatalog main, IntPredicate gone, OptionCatalog delta) {
        this.main = main;
        this.gone = gone;
        this.delta = delta;
        this.offset = main.size();
        this.tops = delta.size() == 0 ? null : OptionCatalog.mergedTops(main, delta);
    }

    /** What this adds to its two segments' arrays: their trie tables merged. */
    long heapBytes() {
        return tops == null ? 0 : OptionCatalog.mergedTopsBytes(main, tops);
    }

    private boolean inMain(int id) {
        return id < offset;
    }

    String text(int id) {
        return inMain(id) ? main.text(id) : delta.text(id - offset);
    }

    double weight(int id) {
        return inMain(id) ? main.weight(id) : delta.weight(id - offset);
    }

    String foldedText(int id) {
        return inMain(id) ? main.foldedText(id) : delta.foldedText(id - offset);
    }

    List<String> aliases(int id) {
        return inMain(id) ? main.aliases(id) : delta.aliases(id - offset);
    }

    boolean nameWithinTypos(int id, String folded) {
        return inMain(id) ? main.nameWithinTypos(id, folded) : delta.nameWithinTypos(id - offset, folded);
    }

    /** {@link OptionCatalog#exactMatch}: of equal weights, the first. */
    int exactMatch(String folded) {
        int best = main.exactMatch(folded, gone);
        if (delta.size() > 0) {
            int other = delta.exactMatch(folded, null);
            if (other >= 0 && (best < 0 || delta.weight(other) > main.weight(best))) {
                best = other + offset;
            }
        }
        return best;
    }

    /** {@link OptionCatalog#exactOptions}, ascending. */
    int[] exactOptions(String folded) {
        int[][] both = tops == null ? null : OptionCatalog.exactOptions(main, gone, delta, tops, folded);
        if (both != null) {
            return merged(both[0], both[1]);
        }
        return merged(
                main.exactOptions(folded, gone), delta.size() == 0 ? new int[0] : delta.exactOptions(folded, null));
    }

    /** The main's options, then the delta's as ids of this catalog. */
    private int[] merged(int[] own, int[] more) {
        if (more.length == 0) {
            return own;
        }
        int[] all = Arrays.copyOf(own, own.length + more.length);
        for (int i = 0; i < more.length; i++) {
            all[own.length + i] = more[i] + offset;
        }
        return all;
    }

    /** {@link OptionCatalog#codeOptions}, ascending. */
    int[] codeOptions(String folded) {
        return merged(main.codeOptions(folded, gone), delta.size() == 0 ? new int[0] : delta.codeOptions(folded, null));
    }

    /** {@link OptionCatalog#startsLonger}. */
    boolean startsLonger(String folded, IntPredicate other) {
        if (main.startsLonger(folded, gone == null ? other : option -> !gone.test(option) && other.test(option))) {
            return true;
        }
        return delta.size() > 0 && delta.startsLonger(folded, option -> other.test(option + offset));
    }

    /** {@link OptionCatalog#hasPrefix}. */
    boolean hasPrefix(String foldedPrefix) {
        return main.hasPrefix(foldedPrefix, gone) || (delta.size() > 0 && delta.hasPrefix(foldedPrefix, null));
    }

    /** Whether typos allow the prefix and some text matches it within them. */
    boolean hasTypoMatch(String foldedPrefix) {
        return !main.typoComplete(foldedPrefix, 1, gone == null ? NONE : gone).isEmpty()
                || (delta.size() > 0
                        && !delta.typoComplete(foldedPrefix, 1, NONE).isEmpty());
    }

    /** {@link OptionCatalog#completeWithTypos}. */
    List<OptionCatalog.Match> completeWithTypos(String foldedPrefix, int limit, IntPredicate excluded) {
        if (delta.size() == 0) {
            return main.completeWithTypos(foldedPrefix, limit, gone, excluded, 0, null, null);
        }
        // The main's typo walks walk the delta's keys with them: its search then takes what they found.
        OptionCatalog.SharedWalks walks = new OptionCatalog.SharedWalks(main, delta, tops);
        List<OptionCatalog.Match> own = main.completeWithTypos(foldedPrefix, limit, gone, excluded, 0, null, walks);
        // When the main's matches fill the list, only the delta's matches that rank before its last can join: the
        // delta's search stops there, so a delta of thousands costs a few bound lookups more on most queries.
        OptionCatalog.Match last = own.size() == limit ? own.getLast() : null;
        OptionCatalog.Bound bound =
                last == null ? null : new OptionCatalog.Bound(last.edits(), last.where(), main.weight(last.option()));
        List<OptionCatalog.Match> more =
                delta.completeWithTypos(foldedPrefix, limit, null, excluded, offset, bound, walks);
        if (more.isEmpty()) {
            return own;
        }
        List<OptionCatalog.Match> merged = new ArrayList<>(Math.min(limit, own.size() + more.size()));
        int i = 0;
        int j = 0;
        while (merged.size() < limit && (i < own.size() || j < more.size())) {
            if (j == more.size() || (i < own.size() && !before(more.get(j), own.get(i)))) {
                merged.add(own.get(i++));
            } else {
                OptionCatalog.Match m = more.get(j++);
                merged.add(new OptionCatalog.Match(m.option() + offset, m.where(), m.edits(), m.key()));
            }
        }
        return merged;
    }

    /** Whether a delta match ranks before a main match: on a full tie the main's comes first. */
    private boolean before(OptionCatalog.Match d, OptionCatalog.Match m) {
        if (d.edits() != m.edits()) {
            return d.edits() < m.edits();
        }
        if (d.where() != m.where()) {
            return d.where() < m.where();
        }
        double dw = delta.weight(d.option());
        double mw = main.weight(m.option());
        if (dw != mw) {
            return dw > mw;
        }
        return main.compareKeys(m, delta, d) > 0;
    }

    /** The heaviest texts not excluded, best first; of equal weights, the main's first, each in its order. */
    List<Integer> top(int limit, IntPredicate excluded) {
        List<Integer> top = new ArrayList<>(limit);
        int i = 0;
        int j = 0;
        while (top.size() < limit) {
            while (i < main.size()
                    && ((gone != null && gone.test(main.byWeight(i))) || excluded.test(main.byWeight(i)))) {
                i++;
            }
            while (j < delta.size() && excluded.test(delta.byWeight(j) + offset)) {
                j++;
            }
            boolean mainLeft = i < main.size();
            if (!mainLeft && j == delta.size()) {
                break;
            }
            if (mainLeft && (j == delta.size() || main.weight(main.byWeight(i)) >= delta.weight(delta.byWeight(j)))) {
                top.add(main.byWeight(i++));
            } else {
                top.add(delta.byWeight(j++) + offset);
            }
        }
        return top;
    }
}
