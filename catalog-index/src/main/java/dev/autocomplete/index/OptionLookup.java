package dev.autocomplete.index;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * How one option list is read and offered, for the core's catalogs and inline lists and for engines (through
 * the SPI toolkit's {@code Lookup}) alike: a typed span reads as an option's text or alias (in the requested
 * languages or the default one), its prefix, or a typo of one, or as a whole code ({@link AliasCodes}); offers are
 * ranked by the match, then weight, narrowed by attribute filters and reordered by attribute boosts. Each call
 * reads one snapshot. Thread-safe.
 */
public final class OptionLookup {

    /** How much wider than the limit the matches a boost reorders are fetched. */
    private static final int BOOST_WIDTH = 2;

    /** How a span reads against the list. */
    public enum Kind {
        /** Matches nothing. */
        NONE,
        /** Names several options exactly (a shared alias or translated text). */
        AMBIGUOUS,
        /** Names one option exactly, and no other option's text starts with it. */
        EXACT,
        /** Names one option exactly, and typing on may still reach another. */
        EXACT_PREFIX,
        /** Starts a word of some option. */
        PREFIX,
        /** Within the typo rules of some option. */
        LOOSE
    }

    /**
     * A span's reading.
     *
     * @param value the option's text (in the first requested language that translates it) when {@link Kind#EXACT}
     *     or {@link Kind#EXACT_PREFIX}, else null
     */
    public record Reading(Kind kind, String value) {
        static final Reading NONE = new Reading(Kind.NONE, null);
    }

    /**
     * What to offer.
     *
     * @param typed the typed text (may be empty: the heaviest options)
     * @param limit how many options at most
     * @param excluded options never offered (e.g. picked for another param of the same list)
     * @param filters attribute name to the values an option must hold one of; empty for none. A filter that
     *     leaves nothing falls back to the unfiltered list.
     * @param boosts attribute name to values: options holding one come first among the best matches
     * @param unfiltered run when the filters left nothing and the unfiltered list is offered instead
     */
    public record Offer(
            String typed,
            int limit,
            IntPredicate excluded,
            Map<String, ? extends Collection<String>> filters,
            Map<String, ? extends Collection<String>> boosts,
            Runnable unfiltered) {

        private static final Runnable NOTHING = () -> {};

        public Offer(String typed, int limit) {
            this(typed, limit, option -> false, Map.of(), Map.of(), NOTHING);
        }

        public Offer(
                String typed,
                int limit,
                IntPredicate excluded,
                Map<String, ? extends Collection<String>> filters,
                Map<String, ? extends Collection<String>> boosts) {
            this(typed, limit, excluded, filters, boosts, NOTHING);
        }
    }

    private OptionLookup() {}

    /** Reads a typed span. Exact and prefix readings are lookups in the sorted keys; only others walk for typos. */
    public static Reading read(LiveOptions options, String span, List<String> languages) {
        String folded = Folding.fold(span);
        if (folded.isEmpty()) {
            return Reading.NONE;
        }
        int[] exact = options.exactOptions(folded, languages);
        if (exact.length > 1) {
            return new Reading(Kind.AMBIGUOUS, null);
        }
        if (exact.length == 1) {
            String value = options.text(exact[0], languages);
            return new Reading(
                    options.startsAnother(exact[0], folded, languages) ? Kind.EXACT_PREFIX : Kind.EXACT, value);
        }
        int[] coded = options.codeOptions(folded);
        if (coded.length > 0) {
            return readCode(options, coded, folded, languages);
        }
        if (options.hasPrefix(folded, languages)) {
            return new Reading(Kind.PREFIX, null);
        }
        return options.hasTypoMatch(folded, languages) ? new Reading(Kind.LOOSE, null) : Reading.NONE;
    }

    /**
     * A span that is a whole code ({@link AliasCodes}) and no option's name: the start of a name when it is a whole
     * word of some name ({@code los}: Los Angeles is being typed, not Lagos); otherwise it names its option, as an
     * alias would (typing on may still reach a longer name: {@code lon}, London).
     */
    private static Reading readCode(LiveOptions options, int[] coded, String folded, List<String> languages) {
        if (options.hasPrefix(folded + " ", languages)) {
            return new Reading(Kind.PREFIX, null);
        }
        if (coded.length > 1) {
            return new Reading(Kind.AMBIGUOUS, null);
        }
        return new Reading(
                options.startsAnother(coded[0], folded, languages) ? Kind.EXACT_PREFIX : Kind.EXACT,
                options.text(coded[0], languages));
    }

    /**
     * The options to offer for typed text, best first: option numbers for {@link LiveOptions#text} and
     * {@link LiveOptions#aliases}.
     */
    public static List<Integer> offer(LiveOptions options, Offer offer, List<String> languages) {
        String folded = Folding.fold(offer.typed());
        boolean wordEnded = endsBetweenWords(offer.typed());
        int limit = offer.limit();
        IntPredicate excluded = offer.excluded();
        List<Integer> found = null;
        if (!offer.filters().isEmpty()) {
            IntPredicate kept = options.holding(offer.filters());
            found = lookUp(options, folded, wordEnded, limit, excluded.or(kept.negate()), languages);
            if (found.isEmpty()) {
                offer.unfiltered().run();
                found = null;
            } else {
                excluded = excluded.or(kept.negate());
            }
        }
        if (offer.boosts().isEmpty()) {
            return found != null ? found : lookUp(options, folded, wordEnded, limit, excluded, languages);
        }
        IntPredicate boosted = options.holding(offer.boosts());
        if (folded.isEmpty()) {
            // Nothing typed: the heaviest boosted options, then the heaviest others.
            Set<Integer> merged = new LinkedHashSet<>(options.top(limit, excluded.or(boosted.negate())));
            merged.addAll(found != null ? found : options.top(limit, excluded));
            return merged.stream().limit(limit).toList();
        }
        // Typed: the boosted options among the best matches, fetched twice as wide, come first; a boost blends
        // with the match and the weight rather than reaching past them.
        List<Integer> wide = lookUp(options, folded, wordEnded, BOOST_WIDTH * limit, excluded, languages);
        List<Integer> first = new ArrayList<>();
        List<Integer> rest = new ArrayList<>();
        wide.forEach(option -> (boosted.test(option) ? first : rest).add(option));
        first.addAll(rest);
        return first.size() > limit ? first.subList(0, limit) : first;
    }

    private static List<Integer> lookUp(
            LiveOptions options,
            String folded,
            boolean wordEnded,
            int limit,
            IntPredicate excluded,
            List<String> languages) {
        return folded.isEmpty()
                ? options.top(limit, excluded)
                : options.complete(folded, wordEnded, limit, excluded, languages);
    }

    /** Whether typed text ends after a word, as folding sees words ({@code San }, {@code Aujourd'}). */
    private static boolean endsBetweenWords(String typed) {
        return !Folding.fold(typed + "x").endsWith(Folding.fold(typed) + "x");
    }
}
