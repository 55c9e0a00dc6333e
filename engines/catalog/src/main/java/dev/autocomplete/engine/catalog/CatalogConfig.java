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
    private static final Set<String> CATALOG_KEYS = Set.of("file", "options", "translations");
    private static final Set<String> INTENT_KEYS = Set.of("name", "phrases", "params");
    private static final Set<String> PARAM_KEYS =
            Set.of("type", "label", "required", "cues", "catalog", "options", "when", "context_keys");
    private static final Set<String> OPTION_KEYS = Set.of("text", "weight", "aliases", "translations");
    /** A CSV column of translated texts: {@code text_} and a language tag, e.g. {@code text_fr}. */
    private static final String TEXT_COLUMN = "text_";
    private static final Pattern LANGUAGE = Pattern.compile("[a-z]{2,8}(-[a-z0-9]{1,8})*");
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
        Map<String, OptionTranslations> catalogs = new HashMap<>();
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

    private CatalogModel.Intent intent(ConfigTree tree, Map<String, OptionTranslations> catalogs)
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

    private CatalogModel.Param param(ConfigTree tree, Map<String, OptionTranslations> catalogs,
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
        OptionTranslations options;
        if (tree.has("catalog") == tree.has("options")) {
            throw tree.error("catalog", "give either 'catalog' (a name under catalogs) or inline 'options'");
        } else if (tree.has("catalog")) {
            options = catalogs.get(tree.string("catalog"));
            if (options == null) {
                throw tree.error("catalog", "names no catalog under 'catalogs': '" + tree.string("catalog") + "'");
            }
        } else {
            options = inlineOptions(tree, "options").build();
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
        return new CatalogModel.Param(type, label, required, cues, Map.copyOf(translatedCues), options.catalog(),
                condition, contextKeys, options);
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

    private OptionTranslations catalog(ConfigTree tree, String name) throws EngineConfigException {
        rejectUnknownKeys(tree, CATALOG_KEYS);
        if (tree.has("file") == tree.has("options")) {
            throw tree.error("", "give either 'file' or 'options' for catalog '" + name + "'");
        }
        Options options = tree.has("options") ? inlineOptions(tree, "options")
                : csvOptions(tree, "file", context.tenantFile(tree.child("file"), tree.string("file")));
        if (tree.has("translations")) {
            Path file = context.tenantFile(tree.child("translations"), tree.string("translations"));
            options.translateFrom(tree, csvOptions(tree, "translations", file));
        }
        return options.build();
    }

    /**
     * Options as read, with their texts in other languages.
     *
     * @param translations per entry, lower-case language tag to text
     */
    private record Options(List<OptionCatalog.Entry> entries, List<Map<String, String>> translations) {

        OptionTranslations build() {
            return OptionTranslations.of(new OptionCatalog(entries), translations);
        }

        /** Adds the translations of a translations file, whose {@code text} column names options by their text. */
        void translateFrom(ConfigTree tree, Options file) throws EngineConfigException {
            Map<String, List<Integer>> byText = new HashMap<>();
            for (int i = 0; i < entries.size(); i++) {
                byText.computeIfAbsent(entries.get(i).text(), t -> new ArrayList<>()).add(i);
            }
            for (int row = 0; row < file.entries().size(); row++) {
                String text = file.entries().get(row).text();
                List<Integer> named = byText.get(text);
                if (named == null) {
                    throw tree.error("translations", "row " + (row + 1) + " names no option: '" + text + "'");
                }
                for (int option : named) {
                    translations.get(option).putAll(file.translations().get(row));
                }
            }
        }
    }

    /** A language's text of one option; the default language's text is the option's own {@code text}. */
    private void putTranslation(ConfigTree tree, String key, Map<String, String> texts, String language, String text)
            throws EngineConfigException {
        String tag = language.toLowerCase(java.util.Locale.ROOT);
        if (!LANGUAGE.matcher(tag).matches()) {
            throw tree.error(key, "'" + language + "' is not a language tag such as fr or pt-br");
        }
        if (tag.equals(context.defaultLanguage().toLowerCase(java.util.Locale.ROOT))) {
            throw tree.error(key, "'" + language + "' is the default language: its text is the option's text");
        }
        if (!text.isBlank()) {
            texts.put(tag, text.strip());
        }
    }

    /**
     * Inline options: strings, or maps with text, weight, aliases and translations ({@code {fr: Économique}}).
     * Unweighted ones keep list order.
     */
    private Options inlineOptions(ConfigTree tree, String key) throws EngineConfigException {
        Object raw = tree.raw(key).orElse(List.of());
        if (!(raw instanceof List<?> items) || items.isEmpty()) {
            throw tree.error(key, "must be a non-empty list");
        }
        List<OptionCatalog.Entry> entries = new ArrayList<>();
        List<Map<String, String>> translations = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Map<String, String> texts = new java.util.LinkedHashMap<>();
            translations.add(texts);
            double defaultWeight = items.size() - i;
            String itemKey = key + "[" + i + "]";
            if (items.get(i) instanceof Map<?, ?>) {
                ConfigTree item = tree.trees(key).get(i);
                rejectUnknownKeys(item, OPTION_KEYS);
                String weight = item.string("weight", Double.toString(defaultWeight));
                entries.add(new OptionCatalog.Entry(nonBlank(item, "text"), number(item, "weight", weight),
                        item.strings("aliases")));
                if (item.has("translations")) {
                    ConfigTree byLanguage = item.tree("translations");
                    for (String language : byLanguage.keys()) {
                        putTranslation(item, "translations", texts, language, byLanguage.string(language));
                    }
                }
            } else {
                String text = tree.strings(key).get(i);
                if (text.isBlank()) {
                    throw tree.error(itemKey, "must not be blank");
                }
                entries.add(new OptionCatalog.Entry(text.strip(), defaultWeight, List.of()));
            }
        }
        return new Options(entries, translations);
    }

    /**
     * A CSV file with a header: {@code text} (required), {@code weight}, {@code aliases} (separated by |), and
     * {@code text_<language>} columns of translated texts (an empty cell: none).
     */
    private Options csvOptions(ConfigTree tree, String key, Path file) throws EngineConfigException {
        CSVFormat format = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
                CSVParser parser = CSVParser.parse(reader, format)) {
            if (!parser.getHeaderMap().containsKey("text")) {
                throw tree.error(key, "needs a header row with a 'text' column: " + file.getFileName());
            }
            List<String> translated = parser.getHeaderNames().stream().filter(h -> h.startsWith(TEXT_COLUMN)).toList();
            List<Map<String, String>> translations = new ArrayList<>();
            boolean weighted = parser.getHeaderMap().containsKey("weight");
            boolean aliased = parser.getHeaderMap().containsKey("aliases");
            List<OptionCatalog.Entry> entries = new ArrayList<>();
            for (CSVRecord row : parser) {
                String where = file.getFileName() + " line " + (row.getRecordNumber() + 1) + ": ";
                String text = row.isMapped("text") && row.isSet("text") ? row.get("text").strip() : "";
                if (text.isEmpty()) {
                    throw tree.error(key, where + "empty text");
                }
                double weight = 0;
                if (weighted && row.isSet("weight") && !row.get("weight").isBlank()) {
                    try {
                        weight = Double.parseDouble(row.get("weight").strip());
                    } catch (NumberFormatException e) {
                        throw tree.error(key, where + "weight is not a number");
                    }
                }
                List<String> aliases = aliased && row.isSet("aliases") && !row.get("aliases").isBlank()
                        ? List.of(row.get("aliases").split("\\|"))
                        : List.of();
                entries.add(new OptionCatalog.Entry(text, weight,
                        aliases.stream().map(String::strip).filter(a -> !a.isEmpty()).toList()));
                Map<String, String> texts = new java.util.LinkedHashMap<>();
                for (String column : translated) {
                    if (row.isSet(column)) {
                        putTranslation(tree, key, texts, column.substring(TEXT_COLUMN.length()), row.get(column));
                    }
                }
                translations.add(texts);
            }
            if (entries.isEmpty()) {
                throw tree.error(key, "has no options: " + file.getFileName());
            }
            return new Options(entries, translations);
        } catch (IOException | java.io.UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
            throw tree.error(key, "cannot read " + file.getFileName() + ": " + e.getMessage());
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
