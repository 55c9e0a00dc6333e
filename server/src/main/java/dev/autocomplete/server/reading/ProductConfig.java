package dev.autocomplete.server.reading;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.toolkit.ConfigProblems;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads how a product reads queries ({@code prompt} and {@code intents} of a product in {@code tenant.yaml}) into
 * a {@link ProductModel}, and which params each engine serves. Collects every problem rather than stopping at the
 * first, each naming its key.
 */
public final class ProductConfig {

    /** The engine of a param that names none. */
    public static final String DEFAULT_ENGINE = "catalog";

    private static final Set<String> INTENT_KEYS = Set.of("name", "phrases", "params");
    /** The keys of a param the core reads; the others are its engine's ({@link ParamSpec#config()}). */
    private static final Set<String> CORE_PARAM_KEYS = Set.of(
            "type",
            "label",
            "required",
            "cues",
            "when",
            "context_keys",
            "context_options",
            "engine",
            "learn",
            "distinct_from");
    /** The keys every param must have: a key that misspells one is named as such by the core. */
    private static final Set<String> REQUIRED_PARAM_KEYS = Set.of("type");
    /** A type must survive the client's minting, {@code {{NAME_N}}} with NAME in {@code [A-Z0-9_]+}. */
    private static final Pattern TYPE = Pattern.compile("[A-Za-z0-9_]+( [A-Za-z0-9_]+)*");

    /**
     * A product's reading model and the params of each engine.
     *
     * @param model how the product reads queries; null when its config has problems
     * @param specs by engine name, the params it serves, in declaration order, one per type; with problems, those
     *     that could be read (so that their engines can still report problems of their own)
     * @param learnAsEngineSays the params whose {@code learn} {@code tenant.yaml} leaves to their engine: they learn
     *     unless it says its options are values of the moment ({@link ProductModel#withoutLearning})
     */
    public record Parsed(
            ProductModel model, Map<String, List<ParamSpec>> specs, Set<ProductModel.Param> learnAsEngineSays) {
        public Parsed {
            learnAsEngineSays = Set.copyOf(learnAsEngineSays);
        }
    }

    private final String defaultLanguage;
    private final ConfigProblems problems;
    private final Map<String, List<ParamSpec>> specs = new LinkedHashMap<>();
    /** What the product's params read in {@code additional_context}, as an example ({@link ProductModel#contextExample}). */
    private final Map<String, Object> contextExample = new LinkedHashMap<>();

    private final Map<String, ParamDeclaration> declared = new HashMap<>();
    /** Each param's {@code distinct_from}, checked against the product's params once all are read. */
    private final List<DistinctFrom> distinctFroms = new ArrayList<>();
    /** The params without a {@code learn} of their own ({@link Parsed#learnAsEngineSays}). */
    private final Set<ProductModel.Param> learnAsEngineSays = new HashSet<>();

    private record DistinctFrom(ConfigTree tree, String type, String other) {}

    /**
     * A param's source: its engine and the keys the core leaves to it.
     *
     * @param misspelt those of the keys that probably misspell a key the core reads (and the param lacks)
     */
    /**
     * What sets two declarations of one type apart, as the message says it: the engine, or the keys it reads whose
     * values differ ({@code context_attributes}: an operator trial's two intents differed only in a mode, and were told
     * "another engine or options").
     */
    private static String differences(ParamDeclaration first, ParamDeclaration other) {
        if (!first.engine().equals(other.engine())) {
            return "engine ('" + first.engine() + "' there)";
        }
        Set<String> keys = new java.util.TreeSet<>(first.meant().config().keySet());
        keys.addAll(other.meant().config().keySet());
        keys.removeIf(
                key -> Objects.equals(first.config().get(key), other.config().get(key)));
        return keys.size() == 1 ? "'" + keys.iterator().next() + "'" : "'" + String.join("', '", keys) + "'";
    }

    private record ParamDeclaration(String engine, Map<String, Object> config, Set<String> misspelt) {

        /** The declaration but for its misspelt keys: what the mistakes leave to compare. */
        ParamDeclaration meant() {
            Map<String, Object> meant = new LinkedHashMap<>(config);
            meant.keySet().removeAll(misspelt);
            return new ParamDeclaration(engine, meant, Set.of());
        }
    }

    private ProductConfig(String defaultLanguage, ConfigProblems problems) {
        this.defaultLanguage = defaultLanguage.toLowerCase(Locale.ROOT);
        this.problems = problems;
    }

    /**
     * Reads {@code product}'s {@code prompt} and {@code intents}.
     *
     * @param problems receives every problem found; the result's model is null when there is any
     */
    public static Parsed parse(ConfigTree product, String defaultLanguage, ConfigProblems problems) {
        int before = problems.count();
        ProductConfig config = new ProductConfig(defaultLanguage, problems);
        ProductModel model = config.model(product);
        // The params read so far go to their engines even when there are problems, so theirs are reported too.
        return new Parsed(
                problems.count() == before ? model : null, Map.copyOf(config.specs), config.learnAsEngineSays);
    }

    private ProductModel model(ConfigTree root) {
        List<ConfigTree> intentTrees = problems.read(() -> root.trees("intents"), null);
        if (intentTrees == null) {
            return null;
        }
        if (intentTrees.isEmpty()) {
            problems.add(root.error("intents", "needs at least one intent"));
            return null;
        }
        List<ProductModel.Intent> intents = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ConfigTree intentTree : intentTrees) {
            ProductModel.Intent intent = intent(intentTree);
            if (intent == null) {
                continue;
            }
            if (!names.add(intent.name())) {
                problems.add(intentTree.error("name", "repeats intent '" + intent.name() + "'"));
            }
            intents.add(intent);
        }
        // The prompt is read even when an intent has problems, so that its own are reported too.
        boolean intentsRead = intents.size() == intentTrees.size() && distinctFromsNameParams(intents);
        return problems.read(
                () -> {
                    String firstPhrase =
                            intentsRead ? intents.getFirst().phrases().getFirst() : "";
                    List<String> raw = intentsRead
                            ? wordLists(intentTrees.getFirst(), "phrases").get(defaultLanguage)
                            : null;
                    Localized prompt =
                            Localized.read(root, "prompt", defaultLanguage, raw == null ? firstPhrase : raw.getFirst());
                    return intentsRead ? new ProductModel(prompt, intents, contextExample, defaultLanguage) : null;
                },
                null);
    }

    /** An intent, or null when it has a problem (each one recorded). */
    private ProductModel.Intent intent(ConfigTree tree) {
        int before = problems.count();
        problems.unknownKeys(tree, INTENT_KEYS);
        String name = problems.read(() -> tree.string("name"), null);
        Map<String, List<String>> translated = new HashMap<>();
        List<String> folded = problems.read(
                () -> {
                    Map<String, List<String>> byLanguage = wordLists(tree, "phrases");
                    List<String> phrases = byLanguage.remove(defaultLanguage);
                    if (phrases == null || phrases.isEmpty()) {
                        throw tree.error(
                                "phrases",
                                "needs at least one phrase in the default language '" + defaultLanguage + "'");
                    }
                    byLanguage.forEach((language, list) -> translated.put(language, folded(list)));
                    List<String> all = folded(phrases);
                    if (all.isEmpty()) {
                        throw tree.error("phrases", "needs a phrase with letters or digits");
                    }
                    return all;
                },
                null);
        List<ConfigTree> paramTrees = problems.read(() -> tree.trees("params"), null);
        if (paramTrees != null && paramTrees.isEmpty()) {
            problems.add(tree.error("params", "needs at least one param"));
        }
        List<ProductModel.Param> params = new ArrayList<>();
        // The types read so far, of params with problems too: a later 'when' on one is not a problem of its own.
        List<String> types = new ArrayList<>();
        for (ConfigTree paramTree : paramTrees == null ? List.<ConfigTree>of() : paramTrees) {
            ProductModel.Param param = param(paramTree, types);
            if (param != null) {
                params.add(param);
            }
        }
        if (problems.count() > before) {
            return null;
        }
        return new ProductModel.Intent(name, folded, Map.copyOf(translated), List.copyOf(params));
    }

    /**
     * A param, or null when it has a problem (each one recorded).
     *
     * @param earlier the types of the intent's earlier params; this one's is added when it can be read
     */
    private ProductModel.Param param(ConfigTree tree, List<String> earlier) {
        int before = problems.count();
        // The engine reads the keys the core does not, so only a misspelt required key is the core's to name here.
        problems.misspelt(tree, REQUIRED_PARAM_KEYS);
        String type = problems.read(
                () -> {
                    String text = tree.string("type");
                    if (!TYPE.matcher(text).matches()) {
                        throw tree.error("type", "must be letters, digits, '_' and single spaces, got '" + text + "'");
                    }
                    if (earlier.contains(text)) {
                        throw tree.error("type", "repeats param '" + text + "' in this intent");
                    }
                    return text;
                },
                null);
        Localized label =
                problems.read(() -> Localized.read(tree, "label", defaultLanguage, type == null ? "" : type), null);
        boolean required = problems.read(() -> tree.bool("required", false), false);
        Map<String, List<String>> cuesByLanguage = problems.read(() -> wordLists(tree, "cues"), Map.of());
        List<String> cues = folded(cuesByLanguage.getOrDefault(defaultLanguage, List.of()));
        Map<String, List<String>> translatedCues = new HashMap<>();
        cuesByLanguage.forEach((language, list) -> translatedCues.put(language, folded(list)));
        ProductModel.Condition condition = problems.read(() -> condition(tree, earlier), null);
        if (type != null) {
            earlier.add(type);
        }
        List<String> rawContextKeys = problems.read(() -> tree.strings("context_keys"), List.<String>of());
        List<String> contextKeys =
                rawContextKeys.stream().map(TextFolding::fold).toList();
        boolean contextOptions = problems.read(() -> tree.bool("context_options", false), false);
        int beforeEngine = problems.count();
        String engine = problems.read(() -> tree.string("engine", DEFAULT_ENGINE), DEFAULT_ENGINE);
        boolean engineKnown = problems.count() == beforeEngine;
        // Without a learn of its own, the param learns unless its engine says its options are values of the moment
        // (Engine#learnsFromPicks), which is known once the engines are made.
        boolean learnUnsaid = !tree.has("learn");
        boolean learn = problems.read(() -> tree.bool("learn", true), true);
        int beforeAttributes = problems.count();
        Map<String, String> attributeSources = problems.read(() -> attributeSources(tree), Map.<String, String>of());
        // The top-level keys the attributes read, folded: they name none of the param's option texts.
        Set<String> attributeKeys = new HashSet<>();
        attributeSources.values().forEach(from -> attributeKeys.add(TextFolding.fold(from.split("\\.", -1)[0])));
        String distinctFrom =
                problems.read(() -> tree.has("distinct_from") ? tree.string("distinct_from") : null, null);
        // With problems of its own, the param still goes to its engine when its type, engine and the keys they share
        // could be read, so that the engine's problems with it are reported too; it joins no intent.
        boolean own = problems.count() > before;
        if (type == null || !engineKnown || problems.count() > beforeAttributes) {
            return null;
        }
        Map<String, Object> engineConfig = new LinkedHashMap<>();
        for (String key : tree.keys()) {
            if (!CORE_PARAM_KEYS.contains(key)) {
                engineConfig.put(key, tree.raw(key).orElse(null));
            }
        }
        ParamDeclaration declaration = new ParamDeclaration(engine, engineConfig, misspeltCoreKeys(tree, engineConfig));
        ParamDeclaration first = declared.putIfAbsent(type, declaration);
        if (first == null) {
            specs.computeIfAbsent(engine, e -> new ArrayList<>())
                    .add(new ParamSpec(type, ConfigTree.at(tree.path(), engineConfig, CORE_PARAM_KEYS)));
        } else if (!first.meant().equals(declaration.meant())) {
            problems.add(tree.error(
                    "type",
                    "'" + type + "' is declared in another intent with another " + differences(first, declaration)
                            + "; a type has one source in a product: declare it alike in every intent"));
            return null;
        } else if (!first.equals(declaration)) {
            // The two differ only by misspelt keys, each said once, and nothing more: the first declaration's by its
            // engine, which reads only that one; this one's (those the first lacks) here.
            Set<String> misspelt = new java.util.TreeSet<>(declaration.misspelt());
            misspelt.removeIf(key -> Objects.equals(first.config().get(key), engineConfig.get(key)));
            misspelt.forEach(key -> problems.add(tree.error(
                    key,
                    ConfigTree.didYouMean(
                            ConfigTree.nearest(key, CORE_PARAM_KEYS).orElseThrow()))));
            if (!misspelt.isEmpty()) {
                return null;
            }
        }
        if (own) {
            return null;
        }
        if (distinctFrom != null) {
            distinctFroms.add(new DistinctFrom(tree, type, distinctFrom));
        }
        addContextExample(type, rawContextKeys, attributeSources, contextOptions);
        ProductModel.Param param = new ProductModel.Param(
                type,
                label,
                required,
                cues,
                Map.copyOf(translatedCues),
                condition,
                contextKeys,
                contextOptions,
                engine,
                learn,
                attributeKeys,
                distinctFrom);
        if (learnUnsaid) {
            learnAsEngineSays.add(param);
        }
        return param;
    }

    /**
     * The keys of {@code engineConfig} (a param's keys the core leaves to its engine) that probably misspell a key the
     * core reads and the param lacks, such as {@code requird}: its engine refuses them, and they make no other
     * difference between two declarations of the param.
     */
    private static Set<String> misspeltCoreKeys(ConfigTree tree, Map<String, Object> engineConfig) {
        Set<String> misspelt = new HashSet<>();
        for (String key : engineConfig.keySet()) {
            ConfigTree.nearest(key, CORE_PARAM_KEYS)
                    .filter(meant -> !tree.has(meant))
                    .ifPresent(meant -> misspelt.add(key));
        }
        return Set.copyOf(misspelt);
    }

    /** Whether every {@code distinct_from} names another param of the product; records a problem for each that does not. */
    private boolean distinctFromsNameParams(List<ProductModel.Intent> intents) {
        Set<String> types = new java.util.LinkedHashSet<>();
        intents.forEach(intent -> intent.params().forEach(p -> types.add(p.type())));
        boolean all = true;
        for (DistinctFrom declared : distinctFroms) {
            ConfigTree tree = declared.tree();
            String other = declared.other();
            if (other.equals(declared.type())) {
                problems.add(tree.error(
                        "distinct_from",
                        "names the param itself ('" + other + "'); name another param of this product"));
                all = false;
            } else if (!types.contains(other)) {
                problems.add(tree.error(
                        "distinct_from", "names no param of this product ('" + other + "'); its params are " + types));
                all = false;
            }
        }
        return all;
    }

    /**
     * The attributes a param's {@code context_attributes} name, each with the context key it reads (dots for nested
     * keys); the engine reads the rest of each declaration.
     */
    private static Map<String, String> attributeSources(ConfigTree tree) throws EngineConfigException {
        if (!tree.has("context_attributes")) {
            return Map.of();
        }
        ConfigTree declared = tree.tree("context_attributes");
        Map<String, String> sources = new LinkedHashMap<>();
        for (String attribute : declared.keys()) {
            String from = attribute;
            if (declared.raw(attribute).orElse(null) instanceof Map<?, ?>) {
                from = declared.tree(attribute).string("from", attribute);
            }
            sources.put(attribute, from);
        }
        return sources;
    }

    /**
     * Adds what the param reads in the context to the product's example, each value saying what it stands for: its
     * {@code context_keys} name options of its type ({@code "home_city": "<origin>"}), the keys its
     * {@code context_attributes} read hold an attribute's values (nested for dotted keys: {@code "user": {"country":
     * "<country>"}}), and a param with {@code context_options} takes a list of its own type.
     */
    private void addContextExample(
            String type, List<String> contextKeys, Map<String, String> attributeSources, boolean contextOptions) {
        String stands = "<" + type + ">";
        contextKeys.forEach(key -> putExample(List.of(key), stands));
        attributeSources.forEach(
                (attribute, from) -> putExample(List.of(from.split("\\.", -1)), "<" + attribute + ">"));
        if (contextOptions) {
            putExample(List.of(type), List.of(stands));
        }
    }

    /** The value at a path of keys, unless an earlier param put something there or on the way. */
    @SuppressWarnings("unchecked")
    private void putExample(List<String> path, Object value) {
        if (path.stream().anyMatch(String::isBlank)) {
            return; // "a..b" or ".": the catalog's own check names the problem
        }
        Map<String, Object> at = contextExample;
        for (String key : path.subList(0, path.size() - 1)) {
            if (!(at.computeIfAbsent(key, k -> new LinkedHashMap<String, Object>()) instanceof Map<?, ?> inner)) {
                return;
            }
            at = (Map<String, Object>) inner;
        }
        at.putIfAbsent(path.getLast(), value);
    }

    /** The param's {@code when}, or null when it has none. */
    private static ProductModel.Condition condition(ConfigTree tree, List<String> earlier)
            throws EngineConfigException {
        if (!tree.has("when")) {
            return null;
        }
        ConfigTree when = tree.tree("when");
        if (when.keys().size() != 1) {
            throw tree.error("when", "must name exactly one earlier param, e.g. {type: email}");
        }
        String on = when.keys().iterator().next();
        if (!earlier.contains(on)) {
            throw when.error(on, "names no earlier param of this intent");
        }
        return new ProductModel.Condition(
                on, when.strings(on).stream().map(TextFolding::fold).toList());
    }

    /**
     * A list of words or phrases: a plain list (the default language) or a map from language tag to list. Keys are
     * lower-case tags; insertion order kept.
     */
    private Map<String, List<String>> wordLists(ConfigTree tree, String key) throws EngineConfigException {
        Map<String, List<String>> lists = new LinkedHashMap<>();
        if (tree.raw(key).orElse(null) instanceof Map<?, ?>) {
            ConfigTree byLanguage = tree.tree(key);
            for (String language : byLanguage.keys()) {
                lists.put(language.toLowerCase(Locale.ROOT), byLanguage.strings(language));
            }
        } else {
            lists.put(defaultLanguage, tree.strings(key));
        }
        return lists;
    }

    /** Folded, non-empty, distinct, longest first. */
    private static List<String> folded(List<String> words) {
        return words.stream()
                .map(TextFolding::fold)
                .filter(p -> !p.isEmpty())
                .distinct()
                .sorted(Comparator.comparingInt(String::length).reversed())
                .toList();
    }
}
