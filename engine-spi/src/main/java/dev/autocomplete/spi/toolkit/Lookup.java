package dev.autocomplete.spi.toolkit;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.index.AliasCodes;
import dev.autocomplete.index.CatalogEntry;
import dev.autocomplete.index.LiveOptions;
import dev.autocomplete.index.OptionLookup;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * An option list with the core's own matching: the index that serves the server's catalogs, offered to engines.
 * A typed span reads as an option's text or alias (folded with {@link TextFolding}; in the request's languages
 * when the option has translations), as the prefix of a word of one, or as a typo of one ({@link Typos}); options
 * are ranked by how they match (exact, prefix of the first word, of a later word, typo), then by weight. An engine
 * over a fixed list needs only this:
 *
 * <pre>{@code
 * Lookup repositories = Lookup.builder().add("acme/rocket", 10, List.of("rocket")).add("acme/api", 5).build();
 * public List<SpanMatch> match(Ask ask, List<String> spans) { return repositories.match(ask, spans); }
 * public List<Option> options(Ask ask, String typed) { return repositories.options(ask, typed); }
 * }</pre>
 *
 * Options may carry attributes ({@code team: [Sales]}) that a call filters or boosts by ({@link Conditions}).
 * Immutable and thread-safe; building costs about a microsecond an option, so build once (per tenant load, with
 * {@link dev.autocomplete.spi.EngineContext#shared()}), not per call.
 */
public final class Lookup {

    private final LiveOptions options;

    private Lookup(LiveOptions options) {
        this.options = options;
    }

    /** A lookup over one snapshot of the core's index (how the server serves its catalogs). */
    public static Lookup of(LiveOptions options) {
        return new Lookup(options);
    }

    /** A lookup over texts, the first heaviest (what is offered before anything is typed). */
    public static Lookup of(List<String> texts) {
        Builder builder = builder();
        for (int i = 0; i < texts.size(); i++) {
            builder.add(texts.get(i), texts.size() - i);
        }
        return builder.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** How many options the lookup holds. */
    public int size() {
        return options.size();
    }

    /** How each typed span reads: the answer to {@link dev.autocomplete.spi.Engine#match}. */
    public List<SpanMatch> match(Ask ask, List<String> spans) {
        List<SpanMatch> matches = new ArrayList<>(spans.size());
        for (String span : spans) {
            matches.add(match(span, ask.languages()));
        }
        return matches;
    }

    /** How one typed span reads, in the given languages (then the default texts). */
    public SpanMatch match(String span, List<String> languages) {
        OptionLookup.Reading reading = OptionLookup.read(options, span, languages);
        return switch (reading.kind()) {
            case NONE -> SpanMatch.NONE;
            case AMBIGUOUS -> SpanMatch.AMBIGUOUS;
            case EXACT -> SpanMatch.exact(reading.value());
            case EXACT_PREFIX -> SpanMatch.exactPrefix(reading.value());
            case PREFIX -> SpanMatch.PREFIX;
            case LOOSE -> SpanMatch.LOOSE;
        };
    }

    /** The options for typed text, best first, at most {@link Ask#limit()}: the answer to {@code Engine.options}. */
    public List<Option> options(Ask ask, String typed) {
        return options(ask, typed, Conditions.NONE);
    }

    /** {@link #options(Ask, String)}, filtered, boosted and narrowed by {@code conditions}. */
    public List<Option> options(Ask ask, String typed, Conditions conditions) {
        List<String> languages = ask.languages();
        IntPredicate excluded = option -> false;
        if (!conditions.excluded().isEmpty()) {
            Set<Integer> taken = new HashSet<>();
            for (String text : conditions.excluded()) {
                int option = options.exactMatch(TextFolding.fold(text), languages);
                if (option >= 0) {
                    taken.add(option);
                }
            }
            excluded = taken::contains;
        }
        List<Integer> found = OptionLookup.offer(
                options,
                new OptionLookup.Offer(
                        typed,
                        ask.limit(),
                        excluded,
                        conditions.filters(),
                        conditions.boosts(),
                        conditions.unfiltered()),
                languages);
        List<Option> offered = new ArrayList<>(found.size());
        for (int option : found) {
            offered.add(new Option(options.text(option, languages), options.aliases(option, languages), true));
        }
        return offered;
    }

    /**
     * What narrows a call's options.
     *
     * @param filters attribute name to values: only options holding one of them for every name are offered (when
     *     that leaves none, the unfiltered list is offered instead, never an empty one)
     * @param boosts attribute name to values: options holding one come first among the best matches
     * @param excluded option texts (or aliases) never offered, e.g. the value already picked for another param
     * @param unfiltered run (on the calling thread) when the filters left no option and the unfiltered list was
     *     offered instead: to count or log it
     */
    public record Conditions(
            Map<String, List<String>> filters,
            Map<String, List<String>> boosts,
            Collection<String> excluded,
            Runnable unfiltered) {

        public static final Conditions NONE = new Conditions(Map.of(), Map.of(), List.of());

        public Conditions {
            filters = Map.copyOf(filters);
            boosts = Map.copyOf(boosts);
            excluded = List.copyOf(excluded);
            requireNonNull(unfiltered, "unfiltered is null");
        }

        /** Conditions that note nothing when the filters leave no option. */
        public Conditions(
                Map<String, List<String>> filters, Map<String, List<String>> boosts, Collection<String> excluded) {
            this(filters, boosts, excluded, () -> {});
        }
    }

    /** Collects options; not thread-safe. */
    public static final class Builder {

        private final List<CatalogEntry> entries = new ArrayList<>();
        private final Map<String, String> folded = new HashMap<>();

        private Builder() {}

        public Builder add(String text, double weight) {
            return add(text, weight, List.of());
        }

        public Builder add(String text, double weight, List<String> aliases) {
            return add(text, weight, aliases, Map.of(), Map.of());
        }

        /**
         * One option.
         *
         * @param text what it reads as and what a pick sends back; not blank, and not folding like another's
         * @param weight ranks options that match equally, heaviest first
         * @param aliases other names that find it; one written {@code =LON} is a code, found only by the whole
         *     span ({@link TextFolding#isCode})
         * @param translations language tag to its text in that language ({@code fr: Londres})
         * @param attributes what {@link Conditions} filter or boost by: name to values ({@code team: [Sales]})
         * @throws IllegalArgumentException a blank text, or one that folds like an earlier option's, a weight that is
         *     NaN or infinite, or a code with no letter or digit ({@code =})
         */
        public Builder add(
                String text,
                double weight,
                List<String> aliases,
                Map<String, String> translations,
                Map<String, List<String>> attributes) {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("an option's text is blank");
            }
            if (!Double.isFinite(weight)) {
                throw new IllegalArgumentException("the weight of '" + text + "' is not a finite number: " + weight);
            }
            String earlier = folded.putIfAbsent(TextFolding.fold(text), text);
            if (earlier != null) {
                throw new IllegalArgumentException("'" + earlier + "' and '" + text + "' are one option (they differ"
                        + " only in case, accents or punctuation)");
            }
            for (String alias : aliases) {
                AliasCodes.problem(alias).ifPresent(problem -> {
                    throw new IllegalArgumentException("alias '" + alias + "' of '" + text + "' " + problem);
                });
            }
            entries.add(new CatalogEntry(text.strip(), aliases, weight, translations, attributes));
            return this;
        }

        public Lookup build() {
            return new Lookup(LiveOptions.of(entries));
        }
    }
}
