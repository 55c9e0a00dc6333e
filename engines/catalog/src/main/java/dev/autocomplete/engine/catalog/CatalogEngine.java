package dev.autocomplete.engine.catalog;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
        List<Integer> found = folded.isEmpty() ? options.top(ask.limit(), taken::contains)
                : options.complete(folded, endsBetweenWords(typed), ask.limit(), taken::contains, languages);
        List<Option> offered = new ArrayList<>(found.size());
        for (int option : found) {
            offered.add(new Option(options.text(option, languages), options.aliases(option, languages), true));
        }
        return offered;
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
