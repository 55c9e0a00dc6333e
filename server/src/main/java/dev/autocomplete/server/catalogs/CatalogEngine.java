package dev.autocomplete.server.catalogs;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.index.LiveOptions;
import dev.autocomplete.server.engines.ContextFilters;
import dev.autocomplete.server.engines.LogThrottle;
import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import dev.autocomplete.spi.toolkit.Lookup;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Serves a product's params from option lists (its catalogs and its inline lists) through the index's
 * {@link Lookup}: this class adds what a request brings, the context's attribute filters and boosts and the
 * options already picked for another param of the same list. Each call reads the current snapshot of a list once.
 * Thread-safe.
 */
final class CatalogEngine implements Engine, ContextFilters {

    private static final System.Logger LOG = System.getLogger(CatalogEngine.class.getName());

    /** At most one line this often about filters that left no option, with a count of the ones held back. */
    static final Duration UNFILTERED_LOG_INTERVAL = Duration.ofMinutes(1);

    private static final Runnable NOTHING = () -> {};

    private final String where;
    private final Map<String, CatalogSources.Source> sources;
    private final LogThrottle unfilteredLog = new LogThrottle(UNFILTERED_LOG_INTERVAL);

    /** @param where the product it serves, for the log: {@code tenant/product} */
    CatalogEngine(String where, Map<String, CatalogSources.Source> sources) {
        this.where = requireNonNull(where, "where is null");
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
        return options == null
                ? spans.stream().map(span -> SpanMatch.NONE).toList()
                : Lookup.of(options).match(ask, spans);
    }

    @Override
    public List<Option> options(Ask ask, String typed) {
        CatalogSources.Source source = sources.get(ask.type());
        if (source == null) {
            return List.of();
        }
        Map<String, List<String>> filters = wanted(source, ask.context(), true);
        return Lookup.of(source.options().get())
                .options(
                        ask,
                        typed,
                        new Lookup.Conditions(
                                filters,
                                wanted(source, ask.context(), false),
                                taken(ask, source),
                                filters.isEmpty() ? NOTHING : () -> unfiltered(ask.type(), filters.keySet())));
    }

    /**
     * Whether the context's filters for {@code ask.type()} keep the option of this text: true when none applies. The
     * reader asks before it offers an option it did not get from {@link #options} for the typed text (one users
     * picked often): {@link #options} offers the unfiltered list when the filters leave nothing, which for a lookup
     * of one option by its text would let it past the filter.
     */
    @Override
    public boolean keeps(Ask ask, String text) {
        CatalogSources.Source source = sources.get(ask.type());
        if (source == null) {
            return true;
        }
        Map<String, List<String>> filters = wanted(source, ask.context(), true);
        return filters.isEmpty() || source.options().get().holds(TextFolding.fold(text), filters, ask.languages());
    }

    @Override
    public boolean filters(Ask ask) {
        CatalogSources.Source source = sources.get(ask.type());
        return source != null && !wanted(source, ask.context(), true).isEmpty();
    }

    @Override
    public Predicate<String> boosted(Ask ask) {
        CatalogSources.Source source = sources.get(ask.type());
        Map<String, List<String>> boosts = source == null ? Map.of() : wanted(source, ask.context(), false);
        if (boosts.isEmpty()) {
            return null;
        }
        LiveOptions options = source.options().get();
        return text -> options.holds(TextFolding.fold(text), boosts, ask.languages());
    }

    /**
     * Says that a filter left no option and the whole list was offered, once a minute at most: the param and the
     * attributes, never the context's values (additional_context is never logged).
     */
    private void unfiltered(String type, Set<String> attributes) {
        int heldBack = unfilteredLog.admit(System.nanoTime());
        if (heldBack >= 0) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "Catalogs of " + where + ": the context's filter by " + String.join(", ", attributes)
                            + " left no option of param '" + type + "'; the unfiltered list was offered"
                            + (heldBack == 0 ? "" : " (and " + heldBack + " more like it since the last line)"));
        }
    }

    /**
     * The attribute values the context asks for, by attribute name, for the source's filter rules or its boost
     * rules: a rule whose context key is absent asks for nothing.
     */
    private static Map<String, List<String>> wanted(
            CatalogSources.Source source, AdditionalContext context, boolean filter) {
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
            for (Map.Entry<String, AdditionalContext.Value> field :
                    fields.fields().entrySet()) {
                if (TextFolding.fold(field.getKey()).equals(wanted)) {
                    return valuesAt(field.getValue(), path, depth + 1);
                }
            }
        }
        return List.of();
    }

    /** The values picked for the other params that share this param's option list: never offered twice. */
    private List<String> taken(Ask ask, CatalogSources.Source source) {
        List<String> taken = new ArrayList<>();
        ask.filled().forEach((type, text) -> {
            CatalogSources.Source other = sources.get(type);
            if (!type.equals(ask.type()) && other != null && other.list().equals(source.list())) {
                taken.add(text);
            }
        });
        return taken;
    }
}
