package dev.autocomplete.engine.catalog;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.TextFolding;

/** Reads a catalog product's config into a {@link CatalogModel}; every error names its key. */
final class CatalogConfig {

    private static final Set<String> ROOT_KEYS = Set.of("prompt", "catalogs", "intents");
    private static final Set<String> CATALOG_KEYS = Set.of("file", "options");
    private static final Set<String> INTENT_KEYS = Set.of("name", "phrases", "params");
    private static final Set<String> PARAM_KEYS =
            Set.of("type", "label", "required", "cues", "catalog", "options", "when", "context_keys");
    private static final Set<String> OPTION_KEYS = Set.of("text", "weight", "aliases");
    /** A type must survive the client's minting, {@code {{NAME_N}}} with NAME in {@code [A-Z0-9_]+}. */
    private static final Pattern TYPE = Pattern.compile("[A-Za-z0-9_]+( [A-Za-z0-9_]+)*");

    private final EngineContext context;

    private CatalogConfig(EngineContext context) {
        this.context = context;
    }

    static CatalogModel parse(EngineContext context) throws EngineConfigException {
        return new CatalogConfig(context).model(context.config());
    }

    private CatalogModel model(ConfigTree root) throws EngineConfigException {
        rejectUnknownKeys(root, ROOT_KEYS);
        Map<String, OptionCatalog> catalogs = new HashMap<>();
        ConfigTree catalogTree = root.optionalTree("catalogs").orElse(ConfigTree.of(Map.of()));
        for (String name : catalogTree.keys()) {
            ConfigTree catalog = catalogTree.tree(name);
            catalogs.put(name, catalog(catalog, name));
        }
        List<ConfigTree> intentTrees = root.trees("intents");
        if (intentTrees.isEmpty()) {
            throw root.error("intents", "needs at least one intent");
        }
        List<CatalogModel.Intent> intents = new ArrayList<>();
        Set<String> names = new java.util.HashSet<>();
        for (ConfigTree intentTree : intentTrees) {
            CatalogModel.Intent intent = intent(intentTree, catalogs);
            if (!names.add(intent.name())) {
                throw intentTree.error("name", "repeats intent '" + intent.name() + "'");
            }
            intents.add(intent);
        }
        String firstPhrase = wordLists(intentTrees.getFirst(), "phrases")
                .get(context.defaultLanguage().toLowerCase(java.util.Locale.ROOT)).getFirst();
        Localized prompt = Localized.read(root, "prompt", context.defaultLanguage(), firstPhrase);
        return new CatalogModel(prompt, List.copyOf(intents));
    }

    private CatalogModel.Intent intent(ConfigTree tree, Map<String, OptionCatalog> catalogs)
            throws EngineConfigException {
        rejectUnknownKeys(tree, INTENT_KEYS);
        String name = tree.string("name");
        Map<String, List<String>> byLanguage = wordLists(tree, "phrases");
        List<String> phrases = byLanguage.remove(context.defaultLanguage().toLowerCase(java.util.Locale.ROOT));
        if (phrases == null || phrases.isEmpty()) {
            throw tree.error("phrases", "needs at least one phrase in the default language '"
                    + context.defaultLanguage() + "'");
        }
        List<String> folded = folded(phrases);
        if (folded.isEmpty()) {
            throw tree.error("phrases", "needs a phrase with letters or digits");
        }
        List<ConfigTree> paramTrees = tree.trees("params");
        if (paramTrees.isEmpty()) {
            throw tree.error("params", "needs at least one param");
        }
        List<CatalogModel.Param> params = new ArrayList<>();
        for (ConfigTree paramTree : paramTrees) {
            CatalogModel.Param param = param(paramTree, catalogs, params);
            params.add(param);
        }
        Map<String, List<String>> translated = new HashMap<>();
        byLanguage.forEach((language, list) -> translated.put(language, folded(list)));
        return new CatalogModel.Intent(name, folded, Map.copyOf(translated), List.copyOf(params));
    }

    private CatalogModel.Param param(ConfigTree tree, Map<String, OptionCatalog> catalogs,
            List<CatalogModel.Param> earlier) throws EngineConfigException {
        rejectUnknownKeys(tree, PARAM_KEYS);
        String type = tree.string("type");
        if (!TYPE.matcher(type).matches()) {
            throw tree.error("type", "must be letters, digits, '_' and single spaces, got '" + type + "'");
        }
        if (earlier.stream().anyMatch(p -> p.type().equals(type))) {
            throw tree.error("type", "repeats param '" + type + "' in this intent");
        }
        Localized label = Localized.read(tree, "label", context.defaultLanguage(), type);
        boolean required = tree.bool("required", false);
        Map<String, List<String>> cuesByLanguage = wordLists(tree, "cues");
        List<String> cues = folded(cuesByLanguage.getOrDefault(
                context.defaultLanguage().toLowerCase(java.util.Locale.ROOT), List.of()));
        Map<String, List<String>> translatedCues = new HashMap<>();
        cuesByLanguage.forEach((language, list) -> translatedCues.put(language, folded(list)));
        OptionCatalog catalog;
        if (tree.has("catalog") == tree.has("options")) {
            throw tree.error("catalog", "give either 'catalog' (a name under catalogs) or inline 'options'");
        } else if (tree.has("catalog")) {
            catalog = catalogs.get(tree.string("catalog"));
            if (catalog == null) {
                throw tree.error("catalog", "names no catalog under 'catalogs': '" + tree.string("catalog") + "'");
            }
        } else {
            catalog = new OptionCatalog(inlineOptions(tree, "options"));
        }
        CatalogModel.Condition condition = null;
        if (tree.has("when")) {
            ConfigTree when = tree.tree("when");
            if (when.keys().size() != 1) {
                throw tree.error("when", "must name exactly one earlier param, e.g. {type: email}");
            }
            String on = when.keys().iterator().next();
            if (earlier.stream().noneMatch(p -> p.type().equals(on))) {
                throw when.error(on, "names no earlier param of this intent");
            }
            List<String> values = when.strings(on).stream().map(TextFolding::fold).toList();
            condition = new CatalogModel.Condition(on, values);
        }
        List<String> contextKeys = tree.strings("context_keys").stream().map(TextFolding::fold).toList();
        return new CatalogModel.Param(type, label, required, cues, Map.copyOf(translatedCues), catalog, condition,
                contextKeys);
    }

    /**
     * A list of words or phrases: a plain list (the default language) or a map from language tag to list.
     * Keys are lower-case tags; insertion order kept.
     */
    private Map<String, List<String>> wordLists(ConfigTree tree, String key) throws EngineConfigException {
        Map<String, List<String>> lists = new java.util.LinkedHashMap<>();
        if (tree.raw(key).orElse(null) instanceof Map<?, ?>) {
            ConfigTree byLanguage = tree.tree(key);
            for (String language : byLanguage.keys()) {
                lists.put(language.toLowerCase(java.util.Locale.ROOT), byLanguage.strings(language));
            }
        } else {
            lists.put(context.defaultLanguage().toLowerCase(java.util.Locale.ROOT), tree.strings(key));
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

    private OptionCatalog catalog(ConfigTree tree, String name) throws EngineConfigException {
        rejectUnknownKeys(tree, CATALOG_KEYS);
        if (tree.has("file") == tree.has("options")) {
            throw tree.error("", "give either 'file' or 'options' for catalog '" + name + "'");
        }
        if (tree.has("options")) {
            return new OptionCatalog(inlineOptions(tree, "options"));
        }
        Path file = context.tenantFile(tree.child("file"), tree.string("file"));
        return new OptionCatalog(csvOptions(tree, file));
    }

    /** Inline options: strings, or maps with text, weight and aliases. Unweighted ones keep list order. */
    private static List<OptionCatalog.Entry> inlineOptions(ConfigTree tree, String key) throws EngineConfigException {
        Object raw = tree.raw(key).orElse(List.of());
        if (!(raw instanceof List<?> items) || items.isEmpty()) {
            throw tree.error(key, "must be a non-empty list");
        }
        List<OptionCatalog.Entry> entries = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            double defaultWeight = items.size() - i;
            String itemKey = key + "[" + i + "]";
            if (items.get(i) instanceof Map<?, ?>) {
                ConfigTree item = tree.trees(key).get(i);
                rejectUnknownKeys(item, OPTION_KEYS);
                String weight = item.string("weight", Double.toString(defaultWeight));
                entries.add(new OptionCatalog.Entry(nonBlank(item, "text"), number(item, "weight", weight),
                        item.strings("aliases")));
            } else {
                String text = tree.strings(key).get(i);
                if (text.isBlank()) {
                    throw tree.error(itemKey, "must not be blank");
                }
                entries.add(new OptionCatalog.Entry(text.strip(), defaultWeight, List.of()));
            }
        }
        return entries;
    }

    /** A CSV file with a header: {@code text} (required), {@code weight}, {@code aliases} (separated by |). */
    private static List<OptionCatalog.Entry> csvOptions(ConfigTree tree, Path file) throws EngineConfigException {
        CSVFormat format = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
                CSVParser parser = CSVParser.parse(reader, format)) {
            if (!parser.getHeaderMap().containsKey("text")) {
                throw tree.error("file", "needs a header row with a 'text' column: " + file.getFileName());
            }
            boolean weighted = parser.getHeaderMap().containsKey("weight");
            boolean aliased = parser.getHeaderMap().containsKey("aliases");
            List<OptionCatalog.Entry> entries = new ArrayList<>();
            for (CSVRecord row : parser) {
                String where = file.getFileName() + " line " + (row.getRecordNumber() + 1) + ": ";
                String text = row.isMapped("text") && row.isSet("text") ? row.get("text").strip() : "";
                if (text.isEmpty()) {
                    throw tree.error("file", where + "empty text");
                }
                double weight = 0;
                if (weighted && row.isSet("weight") && !row.get("weight").isBlank()) {
                    try {
                        weight = Double.parseDouble(row.get("weight").strip());
                    } catch (NumberFormatException e) {
                        throw tree.error("file", where + "weight is not a number");
                    }
                }
                List<String> aliases = aliased && row.isSet("aliases") && !row.get("aliases").isBlank()
                        ? List.of(row.get("aliases").split("\\|"))
                        : List.of();
                entries.add(new OptionCatalog.Entry(text, weight,
                        aliases.stream().map(String::strip).filter(a -> !a.isEmpty()).toList()));
            }
            if (entries.isEmpty()) {
                throw tree.error("file", "has no options: " + file.getFileName());
            }
            return entries;
        } catch (IOException | java.io.UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
            throw tree.error("file", "cannot read " + file.getFileName() + ": " + e.getMessage());
        }
    }

    private static String nonBlank(ConfigTree tree, String key) throws EngineConfigException {
        String value = tree.string(key).strip();
        if (value.isEmpty()) {
            throw tree.error(key, "must not be blank");
        }
        return value;
    }

    private static double number(ConfigTree tree, String key, String value) throws EngineConfigException {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw tree.error(key, "must be a number");
        }
    }

    private static void rejectUnknownKeys(ConfigTree tree, Set<String> known) throws EngineConfigException {
        for (String key : new LinkedHashSet<>(tree.keys())) {
            if (!known.contains(key)) {
                throw tree.error(key, "is not a known key (known: " + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }
}
