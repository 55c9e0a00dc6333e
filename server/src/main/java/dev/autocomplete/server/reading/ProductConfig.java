package dev.autocomplete.server.reading;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.ParamSpec;
import dev.autocomplete.spi.toolkit.ConfigTree;
import dev.autocomplete.spi.toolkit.TextFolding;

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
    private static final Set<String> CORE_PARAM_KEYS = Set.of("type", "label", "required", "cues", "when",
            "context_keys", "context_options", "engine");
    /** A type must survive the client's minting, {@code {{NAME_N}}} with NAME in {@code [A-Z0-9_]+}. */
    private static final Pattern TYPE = Pattern.compile("[A-Za-z0-9_]+( [A-Za-z0-9_]+)*");

    /**
     * A product's reading model and the params of each engine.
     *
     * @param model how the product reads queries; null when its config has problems
     * @param specs by engine name, the params it serves, in declaration order, one per type; with problems, those
     *     that could be read (so that their engines can still report problems of their own)
     */
    public record Parsed(ProductModel model, Map<String, List<ParamSpec>> specs) {
    }

    private final String defaultLanguage;
    private final List<EngineConfigException> problems = new ArrayList<>();
    private final Map<String, List<ParamSpec>> specs = new LinkedHashMap<>();
    private final Map<String, ParamDeclaration> declared = new HashMap<>();

    private record ParamDeclaration(String engine, Map<String, Object> config) {
    }

    private ProductConfig(String defaultLanguage) {
        this.defaultLanguage = defaultLanguage.toLowerCase(Locale.ROOT);
    }

    /**
     * Reads {@code product}'s {@code prompt} and {@code intents}.
     *
     * @param problems receives every problem found; the result's model is null when there is any
     */
    public static Parsed parse(ConfigTree product, String defaultLanguage, List<EngineConfigException> problems) {
        ProductConfig config = new ProductConfig(defaultLanguage);
        ProductModel model = config.model(product);
        problems.addAll(config.problems);
        return new Parsed(config.problems.isEmpty() ? model : null, Map.copyOf(config.specs));
    }

    private ProductModel model(ConfigTree root) {
        List<ConfigTree> intentTrees;
        try {
            intentTrees = root.trees("intents");
        } catch (EngineConfigException e) {
            problems.add(e);
            return null;
        }
        if (intentTrees.isEmpty()) {
            problems.add(root.error("intents", "needs at least one intent"));
            return null;
        }
        List<ProductModel.Intent> intents = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ConfigTree intentTree : intentTrees) {
            try {
                ProductModel.Intent intent = intent(intentTree);
                if (!names.add(intent.name())) {
                    problems.add(intentTree.error("name", "repeats intent '" + intent.name() + "'"));
                }
                intents.add(intent);
            } catch (EngineConfigException e) {
                problems.add(e);
            }
        }
        if (intents.isEmpty()) {
            return null;
        }
        String firstPhrase = intents.getFirst().phrases().getFirst();
        try {
            List<String> raw = wordLists(intentTrees.getFirst(), "phrases").get(defaultLanguage);
            Localized prompt = Localized.read(root, "prompt", defaultLanguage, raw == null ? firstPhrase : raw.getFirst());
            return new ProductModel(prompt, intents);
        } catch (EngineConfigException e) {
            problems.add(e);
            return null;
        }
    }

    private ProductModel.Intent intent(ConfigTree tree) throws EngineConfigException {
        rejectUnknownKeys(tree, INTENT_KEYS);
        String name = tree.string("name");
        Map<String, List<String>> byLanguage = wordLists(tree, "phrases");
        List<String> phrases = byLanguage.remove(defaultLanguage);
        if (phrases == null || phrases.isEmpty()) {
            throw tree.error("phrases", "needs at least one phrase in the default language '" + defaultLanguage + "'");
        }
        List<String> folded = folded(phrases);
        if (folded.isEmpty()) {
            throw tree.error("phrases", "needs a phrase with letters or digits");
        }
        List<ConfigTree> paramTrees = tree.trees("params");
        if (paramTrees.isEmpty()) {
            throw tree.error("params", "needs at least one param");
        }
        List<ProductModel.Param> params = new ArrayList<>();
        for (ConfigTree paramTree : paramTrees) {
            try {
                params.add(param(paramTree, params));
            } catch (EngineConfigException e) {
                problems.add(e);
            }
        }
        Map<String, List<String>> translated = new HashMap<>();
        byLanguage.forEach((language, list) -> translated.put(language, folded(list)));
        return new ProductModel.Intent(name, folded, Map.copyOf(translated), List.copyOf(params));
    }

    private ProductModel.Param param(ConfigTree tree, List<ProductModel.Param> earlier) throws EngineConfigException {
        String type = tree.string("type");
        if (!TYPE.matcher(type).matches()) {
            throw tree.error("type", "must be letters, digits, '_' and single spaces, got '" + type + "'");
        }
        if (earlier.stream().anyMatch(p -> p.type().equals(type))) {
            throw tree.error("type", "repeats param '" + type + "' in this intent");
        }
        Localized label = Localized.read(tree, "label", defaultLanguage, type);
        boolean required = tree.bool("required", false);
        Map<String, List<String>> cuesByLanguage = wordLists(tree, "cues");
        List<String> cues = folded(cuesByLanguage.getOrDefault(defaultLanguage, List.of()));
        Map<String, List<String>> translatedCues = new HashMap<>();
        cuesByLanguage.forEach((language, list) -> translatedCues.put(language, folded(list)));
        ProductModel.Condition condition = null;
        if (tree.has("when")) {
            ConfigTree when = tree.tree("when");
            if (when.keys().size() != 1) {
                throw tree.error("when", "must name exactly one earlier param, e.g. {type: email}");
            }
            String on = when.keys().iterator().next();
            if (earlier.stream().noneMatch(p -> p.type().equals(on))) {
                throw when.error(on, "names no earlier param of this intent");
            }
            condition = new ProductModel.Condition(on, when.strings(on).stream().map(TextFolding::fold).toList());
        }
        List<String> contextKeys = tree.strings("context_keys").stream().map(TextFolding::fold).toList();
        boolean contextOptions = tree.bool("context_options", false);
        String engine = tree.string("engine", DEFAULT_ENGINE);
        Map<String, Object> engineConfig = new LinkedHashMap<>();
        for (String key : tree.keys()) {
            if (!CORE_PARAM_KEYS.contains(key)) {
                engineConfig.put(key, tree.raw(key).orElse(null));
            }
        }
        ParamDeclaration declaration = new ParamDeclaration(engine, engineConfig);
        ParamDeclaration before = declared.putIfAbsent(type, declaration);
        if (before == null) {
            specs.computeIfAbsent(engine, e -> new ArrayList<>()).add(new ParamSpec(type, ConfigTree.at(tree.path(),
                    engineConfig)));
        } else if (!before.equals(declaration)) {
            throw tree.error("type", "'" + type + "' is declared in another intent with another engine or options;"
                    + " a type has one source in a product");
        }
        return new ProductModel.Param(type, label, required, cues, Map.copyOf(translatedCues), condition, contextKeys,
                contextOptions, engine);
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

    private static void rejectUnknownKeys(ConfigTree tree, Set<String> known) throws EngineConfigException {
        for (String key : new LinkedHashSet<>(tree.keys())) {
            if (!known.contains(key)) {
                throw tree.error(key, "is not a known key (known: "
                        + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }
}
