package dev.autocomplete.spi.toolkit;

import dev.autocomplete.index.TypoRules;

/**
 * The typo rules, in the style of Algolia, Typesense and Meilisearch: no typo in a word shorter than 4
 * characters, one from 4, two from 8, summed over the typed words (a short last word is matched as typed); a
 * transposition of two neighbours is one edit; the first letter is never forgiven; digits match exactly. The core's catalog index applies the same rules ({@link Lookup} is built
 * on it). Thread-safe.
 */
public final class Typos {

    /** A cost above any budget: an edit that is not allowed. */
    public static final int NEVER = TypoRules.NEVER;

    private Typos() {}

    /** How many typos a folded text allows: the sum over its words. */
    public static int budget(String folded) {
        return TypoRules.budget(folded);
    }

    /** The edits between folded {@code typed} and folded {@code target}, or {@link #NEVER} when over budget. */
    public static int distance(String typed, String target) {
        return TypoRules.distance(typed, target);
    }
}
