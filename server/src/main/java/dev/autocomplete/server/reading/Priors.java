package dev.autocomplete.server.reading;

import java.util.List;

/**
 * What the product's users picked before, as the reader ranks options with it: learned credit per param type and
 * option (its folded text), overall and after the first letters typed. One immutable snapshot per product, swapped
 * whole when learning is applied; thread-safe.
 */
public interface Priors {

    /** No learning: options keep their engine's order. */
    Priors NONE = new Priors() {
        @Override
        public long generation() {
            return 0;
        }

        @Override
        public List<String> candidates(String type, String typedFolded, int max) {
            return List.of();
        }

        @Override
        public double credit(String type, String typedFolded, String optionFolded) {
            return 0;
        }
    };

    /** Grows each time a new snapshot is applied: answers computed with an older one are not reused. */
    long generation();

    /**
     * The learned options of {@code type} that fit what is typed (folded; empty for nothing typed), best first: the
     * folded texts of options picked after the same first letters, and of options picked overall that start a word
     * with it.
     */
    List<String> candidates(String type, String typedFolded, int max);

    /** The learned credit of an option for what is typed, decayed to the snapshot's time; 0 when none. */
    double credit(String type, String typedFolded, String optionFolded);
}
