package dev.autocomplete.server.catalogs;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.index.LiveOptions;
import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.EngineConfigException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Serves params from options that change while the tenant runs: the core's live catalogs, as a catalog engine
 * over suppliers of each list's current {@link LiveOptions}. Each call of the engine reads a list's supplier once
 * and answers from that one snapshot.
 */
public final class CatalogSources {

    /**
     * The options of one param type.
     *
     * @param list names the option list: params whose lists share a name exclude each other's picks (e.g.
     *     {@code catalog:cities}, or an inline list's config path); params sharing a name share the options too
     * @param options the list's current snapshot; called once per engine call, from any thread
     */
    public record Source(String list, Supplier<LiveOptions> options, List<AttributeRule> rules) {

        public Source {
            requireNonNull(list, "list is null");
            requireNonNull(options, "options is null");
            rules = List.copyOf(rules);
        }

        public Source(String list, Supplier<LiveOptions> options) {
            this(list, options, List.of());
        }
    }

    /**
     * How a context key meets an attribute of the options (a param's {@code context_attributes}): when the request's
     * {@code additional_context} holds a value (or an array: any of them) at {@code from}, options whose
     * {@code attribute} has that value come first ({@code filter} false: a boost), or are the only ones offered
     * ({@code filter}: when none is left, the unfiltered list is offered instead).
     *
     * @param from the path of the context key, one name per level ({@code [user, team]} for {@code user.team})
     */
    public record AttributeRule(String attribute, List<String> from, boolean filter) {

        public AttributeRule {
            requireNonNull(attribute, "attribute is null");
            from = List.copyOf(from);
            if (from.isEmpty()) {
                throw new IllegalArgumentException("from is empty");
            }
        }
    }

    private CatalogSources() {}

    /** The key of a param that declares its {@link AttributeRule}s. */
    public static final String CONTEXT_ATTRIBUTES = "context_attributes";

    /**
     * A param's {@code context_attributes}: attribute name to {@code {from: context.key, mode: boost|filter}}
     * ({@code from} defaults to the attribute's name, {@code mode} to {@code boost}; a bare {@code boost} or
     * {@code filter} says the mode alone). None when the param declares none.
     */
    public static List<AttributeRule> rules(ConfigTree param) throws EngineConfigException {
        if (!param.has(CONTEXT_ATTRIBUTES)) {
            return List.of();
        }
        ConfigTree declared = param.tree(CONTEXT_ATTRIBUTES);
        List<AttributeRule> rules = new ArrayList<>();
        for (String attribute : declared.keys()) {
            String from = attribute;
            String mode = "boost";
            if (declared.raw(attribute).orElse(null) instanceof java.util.Map<?, ?>) {
                ConfigTree rule = declared.tree(attribute);
                for (String problem : rule.keys()) {
                    if (!problem.equals("from") && !problem.equals("mode")) {
                        throw rule.error(problem, "is not a key of a context attribute (from, mode)");
                    }
                }
                from = rule.string("from", attribute);
                mode = rule.string("mode", "boost");
            } else {
                mode = declared.string(attribute);
            }
            if (!mode.equals("boost") && !mode.equals("filter")) {
                throw declared.error(attribute, "mode must be boost or filter, not '" + mode + "'");
            }
            List<String> path = List.of(from.split("\\.", -1));
            if (from.isBlank() || path.stream().anyMatch(String::isBlank)) {
                throw declared.error(attribute, "from must name a context key, e.g. team or user.team");
            }
            rules.add(new AttributeRule(attribute, path, mode.equals("filter")));
        }
        return rules;
    }

    /**
     * An engine serving each param type from its source. Its answers are cacheable as long as the cache key
     * tells the snapshots apart (a catalog's generation).
     *
     * @param where the product it serves, for its log lines: {@code tenant/product}
     */
    public static Engine engine(String where, Map<String, Source> byParamType) {
        return new CatalogEngine(where, byParamType);
    }
}
