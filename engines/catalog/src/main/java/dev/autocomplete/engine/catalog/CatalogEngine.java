package dev.autocomplete.engine.catalog;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import java.util.function.IntPredicate;

import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import dev.autocomplete.spi.toolkit.TextFolding;

/**
 * Serves params from option lists: a span reads as an option's text or alias (in the request's languages or
 * the default one), its prefix, or a typo of one; options are ranked by the match, then weight. Each call reads
 * the current snapshot of a list once. Thread-safe.
 */
final class CatalogEngine implements Engine {

    private static final System.Logger LOG = System.getLogger(CatalogEngine.class.getName());
    /** How much wider than the limit the matches a context boost reorders are fetched. */
    private static final int BOOST_WIDTH = 2;

    private final Map<String, CatalogSources.Source> sources;

    CatalogEngine(Map<String, CatalogSources.Source> sources) {
        this.sources = Map.copyOf(sources);
    }

    @Override
    public Set<String> paramTypes() {
        return sources.keySet();
    }

    /** The current options of a param type, or null when this engine does not serve it. */
    LiveOptions options(String type) {
        CatalogSources.Source source = sources.get(type);
        return source == null ? null : source.options().get();
    }

    @Override
    public List<SpanMatch> match(Ask ask, List<String> spans) {
        LiveOptions options = options(ask.type());
        List<SpanMatch> matches = new ArrayList<>(spans.size());
        for (String span : spans) {
            matches.add(options == null ? SpanMatch.NONE : match(options, span, ask.languages()));
        }
        return matches;
    }

    /** Exact and prefix answers are lookups in the sorted keys; only a span that is neither walks for typos. */
    private static SpanMatch match(LiveOptions options, String span, List<String> languages) {
        String folded = TextFolding.fold(span);
        if (folded.isEmpty()) {
            return SpanMatch.NONE;
        }
        int[] exact = options.exactOptions(folded, languages);
        if (exact.length > 1) {
            return SpanMatch.AMBIGUOUS;
        }
        if (exact.length == 1) {
            String value = options.text(exact[0], languages);
            return options.startsAnother(exact[0], folded, languages) ? SpanMatch.exactPrefix(value)
                    : SpanMatch.exact(value);
        }
        if (options.hasPrefix(folded, languages)) {
            return SpanMatch.PREFIX;
        }
        return options.hasTypoMatch(folded, languages) ? SpanMatch.LOOSE : SpanMatch.NONE;
    }

    @Override
    public List<Option> options(Ask ask, String typed) {
        CatalogSources.Source source = sources.get(ask.type());
        if (source == null) {
            return List.of();
        }
        LiveOptions options = source.options().get();
        List<String> languages = ask.languages();
        Set<Integer> taken = taken(ask, source, options);
        String folded = TextFolding.fold(typed);
        boolean wordEnded = endsBetweenWords(typed);
        Map<String, List<String>> filters = wanted(source, ask.context(), true);
        Map<String, List<String>> boosts = wanted(source, ask.context(), false);
        IntPredicate excluded = taken::contains;
        List<Integer> found = null;
        if (!filters.isEmpty()) {
            IntPredicate kept = options.holding(filters);
            found = lookUp(options, folded, wordEnded, ask.limit(), excluded.or(kept.negate()), languages);
            if (found.isEmpty()) {
                LOG.log(System.Logger.Level.DEBUG, "catalog {0}: a context filter left no option; offering the"
                        + " unfiltered list", source.list());
                found = null;
            } else {
                excluded = excluded.or(kept.negate());
            }
        }
        if (boosts.isEmpty()) {
            if (found == null) {
                found = lookUp(options, folded, wordEnded, ask.limit(), excluded, languages);
            }
        } else {
            IntPredicate boosted = options.holding(boosts);
            if (folded.isEmpty()) {
                // Nothing typed: the heaviest boosted options, then the heaviest others.
                Set<Integer> merged = new java.util.LinkedHashSet<>(options.top(ask.limit(), excluded.or(boosted.negate())));
                merged.addAll(found != null ? found : options.top(ask.limit(), excluded));
                found = merged.stream().limit(ask.limit()).toList();
            } else {
                // Typed: the boosted options among the best matches, fetched twice as wide, come first; a boost
                // blends with the match and the weight rather than reaching past them.
                List<Integer> wide = lookUp(options, folded, wordEnded, BOOST_WIDTH * ask.limit(), excluded, languages);
                List<Integer> first = new ArrayList<>();
                List<Integer> rest = new ArrayList<>();
                wide.forEach(option -> (boosted.test(option) ? first : rest).add(option));
                first.addAll(rest);
                found = first.size() > ask.limit() ? first.subList(0, ask.limit()) : first;
            }
        }
        List<Option> offered = new ArrayList<>(found.size());
        for (int option : found) {
            offered.add(new Option(options.text(option, languages), options.aliases(option, languages), true));
        }
        return offered;
    }

    private static List<Integer> lookUp(LiveOptions options, String folded, boolean wordEnded, int limit,
            IntPredicate excluded, List<String> languages) {
        return folded.isEmpty() ? options.top(limit, excluded)
                : options.complete(folded, wordEnded, limit, excluded, languages);
    }

    /**
     * The attribute values the context asks for, by attribute name, for the source's filter rules or its boost
     * rules: a rule whose context key is absent asks for nothing.
     */
    private static Map<String, List<String>> wanted(CatalogSources.Source source, AdditionalContext context,
            boolean filter) {
        if (source.rules().isEmpty() || context.isEmpty()) {
            return Map.of();
        }
        Map<String, List<String>> wanted = new java.util.LinkedHashMap<>();
        for (CatalogSources.AttributeRule rule : source.rules()) {
            if (rule.filter() != filter) {
                continue;
            }
            List<String> values = valuesAt(context.root(), rule.from(), 0);
            if (!values.isEmpty()) {
                wanted.computeIfAbsent(rule.attribute(), a -> new ArrayList<>()).addAll(values);
            }
        }
        return wanted;
    }

    /** The texts at a path of the context: a string, or the strings of an array; keys compared folded. */
    private static List<String> valuesAt(AdditionalContext.Value value, List<String> path, int depth) {
        if (depth == path.size()) {
            if (value instanceof AdditionalContext.Text text) {
                return List.of(text.text());
            }
            if (value instanceof AdditionalContext.Items items) {
                List<String> texts = new ArrayList<>();
                items.items().forEach(item -> {
                    if (item instanceof AdditionalContext.Text text) {
                        texts.add(text.text());
                    }
                });
                return texts;
            }
            return List.of();
        }
        if (value instanceof AdditionalContext.Fields fields) {
            String wanted = TextFolding.fold(path.get(depth));
            for (Map.Entry<String, AdditionalContext.Value> field : fields.fields().entrySet()) {
                if (TextFolding.fold(field.getKey()).equals(wanted)) {
                    return valuesAt(field.getValue(), path, depth + 1);
                }
            }
        }
        return List.of();
    }

    /** The options picked for the other params that share this param's option list: never offered twice. */
    private Set<Integer> taken(Ask ask, CatalogSources.Source source, LiveOptions options) {
        Set<Integer> taken = new HashSet<>();
        ask.filled().forEach((type, text) -> {
            CatalogSources.Source other = sources.get(type);
            if (!type.equals(ask.type()) && other != null && other.list().equals(source.list())) {
                int option = options.exactMatch(TextFolding.fold(text), ask.languages());
                if (option >= 0) {
                    taken.add(option);
                }
            }
        });
        return taken;
    }

    /** Whether typed text ends after a word, as folding sees words ({@code San }, {@code Aujourd'}). */
    private static boolean endsBetweenWords(String typed) {
        return !TextFolding.fold(typed + "x").endsWith(TextFolding.fold(typed) + "x");
    }
}
