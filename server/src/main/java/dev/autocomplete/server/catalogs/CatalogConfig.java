package dev.autocomplete.server.catalogs;

import dev.autocomplete.index.AliasCodes;
import dev.autocomplete.index.CatalogEntry;
import dev.autocomplete.index.Folding;
import dev.autocomplete.index.LiveOptions;
import dev.autocomplete.server.store.InvalidRecordsException;
import dev.autocomplete.server.store.OptionRecord;
import dev.autocomplete.server.store.OptionRecords;
import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.EngineConfigException;
import dev.autocomplete.spi.EngineContext;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Reads the option lists the core serves: a catalog's seed under the tenant's {@code catalogs} (its CSV file or
 * inline options), or a param's inline list. Every error names its key.
 */
final class CatalogConfig {

    /** The keys of a catalog declaration ({@code catalogs.NAME}). */
    static final Set<String> CATALOG_KEYS = Set.of("file", "options", "translations");

    private static final Set<String> OPTION_KEYS = Set.of("text", "weight", "aliases", "translations", "attributes");
    /** A CSV column of an attribute: {@code attr.} and its name, e.g. {@code attr.team}; values separated by |. */
    private static final String ATTRIBUTE_COLUMN = "attr.";
    /** An attribute's name: what a param's {@code context_attributes} refers to. */
    private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** Attributes an option holds at most. */
    static final int MAX_ATTRIBUTES = 16;
    /** A CSV column of translated texts: {@code text_} and a language tag, e.g. {@code text_fr}. */
    private static final String TEXT_COLUMN = "text_";
    /** The longest id a live catalog's record may have. */
    private static final int MAX_ID = 200;

    /** A qualified Java class name followed by a colon, as exception messages quote their causes. */
    private static final Pattern CLASS_NAME = Pattern.compile("\\b(?:[a-z_][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*: ");

    /**
     * A row of a CSV file (or an item of an inline list) refused on its own.
     *
     * @param line the row's line in the file (the item's index in a list)
     * @param reason why, without the file and line
     * @param message the problem as the tenant's config reports it under its key, naming the file and line
     */
    record RefusedRow(long line, String reason, String message) {}

    /**
     * Refused rows as they are found: the first {@value RecordReader#MAX_KEPT_PROBLEMS} kept (a million bad rows
     * fill no memory), all counted. Also what {@code catalog import} gets of a seed file: every refused row, each by
     * its line, as it reports a bad record of NDJSON.
     */
    static final class Refusals {
        private final List<RefusedRow> kept = new ArrayList<>();
        private long count;

        void add(long line, String reason, String message) {
            count++;
            if (kept.size() < RecordReader.MAX_KEPT_PROBLEMS) {
                kept.add(new RefusedRow(line, reason, message));
            }
        }

        /** Adds the rows of both, merged by line (each keeps its first rows, so the first of both are among them). */
        void addAll(Refusals one, Refusals other) {
            count += one.count + other.count;
            java.util.stream.Stream.concat(one.kept.stream(), other.kept.stream())
                    .sorted(Comparator.comparingLong(RefusedRow::line))
                    .limit(RecordReader.MAX_KEPT_PROBLEMS - kept.size())
                    .forEach(kept::add);
        }

        boolean isEmpty() {
            return count == 0;
        }

        RefusedRow first() {
            return kept.getFirst();
        }

        /** The refused rows kept, each by its line, in the order they were added. */
        List<InvalidRecordsException.Problem> problems() {
            return kept.stream()
                    .map(row -> new InvalidRecordsException.Problem(row.line(), row.reason()))
                    .toList();
        }

        /** How many rows were refused. */
        long count() {
            return count;
        }
    }

    private final EngineContext context;
    private final String defaultLanguage;
    /** Receives every refused row of a catalog's {@code file}; null when only the first problem is wanted. */
    private final Refusals refusedRows;

    private CatalogConfig(EngineContext context, Refusals refusedRows) {
        this.context = context;
        this.defaultLanguage = context.defaultLanguage().toLowerCase(Locale.ROOT);
        this.refusedRows = refusedRows;
    }

    /**
     * The options of a catalog declaration ({@code catalogs.NAME}), with the ids of an {@code id} column; none
     * when it names neither a file nor options (a catalog filled only through the records API).
     */
    static List<SeedOption> seeds(EngineContext context, ConfigTree declaration, Refusals refusedRows)
            throws EngineConfigException {
        if (!declaration.has("file") && !declaration.has("options")) {
            rejectUnknownKeys(declaration, CATALOG_KEYS);
            return List.of();
        }
        String name = declaration.path().substring(declaration.path().lastIndexOf('.') + 1);
        Options options = new CatalogConfig(context, refusedRows).catalog(declaration, name);
        List<SeedOption> seeds = new ArrayList<>(options.entries().size());
        for (int i = 0; i < options.entries().size(); i++) {
            seeds.add(new SeedOption(
                    options.ids() == null ? null : options.ids().get(i),
                    options.entries().get(i)));
        }
        return seeds;
    }

    /** The options of a param's inline list ({@code options: [...]}); its keys are checked apart. */
    static LiveOptions inline(EngineContext context, ConfigTree param) throws EngineConfigException {
        return new CatalogConfig(context, null).inlineOptions(param, "options").build();
    }

    private Options catalog(ConfigTree tree, String name) throws EngineConfigException {
        rejectUnknownKeys(tree, CATALOG_KEYS);
        if (tree.has("file") == tree.has("options")) {
            throw tree.error("", "give either 'file' or 'options' for catalog '" + name + "'");
        }
        Options options = tree.has("options") ? inlineOptions(tree, "options") : csvOptions(tree, "file");
        if (tree.has("translations")) {
            options.translateFrom(tree, csvOptions(tree, "translations"));
        }
        return options;
    }

    /**
     * Options as read, with their texts in other languages.
     *
     * @param entries the options; a translations file may still add texts to them
     * @param ids per entry, the file's {@code id} column; null without one
     * @param file the CSV file they were read from, as named in config; null for an inline list
     * @param places per entry, where it was read (its line in the file, or its inline item), for error messages
     */
    private record Options(List<CatalogEntry> entries, List<String> ids, String file, List<String> places) {

        LiveOptions build() {
            return LiveOptions.of(entries);
        }

        /**
         * Refuses two entries that fold to one text: typing it could not tell them apart, and a pick of
         * either would exclude both.
         */
        void rejectRepeats(ConfigTree tree, String key) throws EngineConfigException {
            Refusals repeats = repeats();
            if (!repeats.isEmpty()) {
                throw tree.error(key, repeats.first().message());
            }
        }

        /** Each entry whose text folds to an earlier one's, at the later one's place, in order. */
        Refusals repeats() {
            // By the texts' folded hashes first: a million options' folded strings in a hash map took a sixth of
            // a catalog's load. The strings are folded only where a hash repeats.
            RepeatedHashes hashes = new RepeatedHashes(entries.size());
            for (CatalogEntry entry : entries) {
                hashes.add(Folding.foldedHash(entry.text()));
            }
            Refusals repeats = new Refusals();
            Set<Long> repeated = hashes.repeated();
            if (repeated.isEmpty()) {
                return repeats;
            }
            Map<String, Integer> seen = new HashMap<>();
            for (int i = 0; i < entries.size(); i++) {
                if (!repeated.contains(Folding.foldedHash(entries.get(i).text()))) {
                    continue;
                }
                Integer first = seen.putIfAbsent(TextFolding.fold(entries.get(i).text()), i);
                if (first != null) {
                    String both = places.get(first) + " and " + places.get(i);
                    String one = entries.get(first).text();
                    String other = entries.get(i).text();
                    String reason = (file == null ? both : "lines " + both) + " are one option ("
                            + (one.equals(other)
                                    ? "'" + one + "' twice"
                                    : "'" + one + "' and '" + other + "' differ only in case, accents or punctuation")
                            + "): keep one, or tell them apart";
                    repeats.add(
                            file == null ? i : Long.parseLong(places.get(i)),
                            reason,
                            file == null ? reason : file + " " + reason);
                }
            }
            return repeats;
        }

        /** Adds the translations of a translations file, whose {@code text} column names options by their text. */
        void translateFrom(ConfigTree tree, Options file) throws EngineConfigException {
            Map<String, List<Integer>> byText = new HashMap<>();
            for (int i = 0; i < entries.size(); i++) {
                byText.computeIfAbsent(entries.get(i).text(), t -> new ArrayList<>())
                        .add(i);
            }
            for (int row = 0; row < file.entries().size(); row++) {
                String text = file.entries().get(row).text();
                List<Integer> named = byText.get(text);
                if (named == null) {
                    throw tree.error(
                            "translations",
                            file.file() + " line " + file.places().get(row) + " names no option: '" + text + "'");
                }
                for (int option : named) {
                    CatalogEntry entry = entries.get(option);
                    Map<String, String> texts = new LinkedHashMap<>(entry.translations());
                    texts.putAll(file.entries().get(row).translations());
                    entries.set(
                            option,
                            new CatalogEntry(entry.text(), entry.aliases(), entry.weight(), texts, entry.attributes()));
                }
            }
        }
    }

    /** A language's text of one option; the default language's text is the option's own {@code text}. */
    private void putTranslation(ConfigTree tree, String key, Map<String, String> texts, String language, String text)
            throws EngineConfigException {
        String tag = checkLanguage(tree, key, language);
        if (!text.isBlank()) {
            texts.put(tag, text.strip());
        }
    }

    /** The language tag of a translation, refused when it is no tag or the default language. */
    private String checkLanguage(ConfigTree tree, String key, String language) throws EngineConfigException {
        String tag = language.toLowerCase(Locale.ROOT);
        Optional<String> problem = OptionRecords.languageProblem("translation", language);
        if (problem.isPresent()) {
            throw tree.error(key, problem.get());
        }
        if (tag.equals(defaultLanguage)) {
            throw tree.error(key, "'" + language + "' is the default language: its text is the option's text");
        }
        return tag;
    }

    /** An inline option's {@code attributes}: a map of name to a string or a list of strings. */
    private static Map<String, List<String>> attributes(ConfigTree item) throws EngineConfigException {
        if (!item.has("attributes")) {
            return Map.of();
        }
        ConfigTree tree = item.tree("attributes");
        if (tree.keys().size() > MAX_ATTRIBUTES) {
            throw item.error("attributes", "holds more than " + MAX_ATTRIBUTES + " attributes");
        }
        Map<String, List<String>> attributes = new LinkedHashMap<>();
        for (String name : tree.keys()) {
            checkAttributeName(item, "attributes", name);
            Object raw = tree.raw(name).orElse(null);
            attributes.put(name, raw instanceof List<?> ? tree.strings(name) : List.of(tree.string(name)));
        }
        return attributes;
    }

    private static void checkAttributeName(ConfigTree tree, String key, String name) throws EngineConfigException {
        if (!ATTRIBUTE_NAME.matcher(name).matches()) {
            throw tree.error(key, "attribute name '" + name + "' must be 1 to 64 letters, digits, '_' or '-'");
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
        boolean maps = items.getFirst() instanceof Map<?, ?>;
        for (int i = 1; i < items.size(); i++) {
            if (items.get(i) instanceof Map<?, ?> != maps) {
                throw tree.error(
                        key + "[" + i + "]",
                        "is " + (maps ? "a text" : "a map") + " in a list of " + (maps ? "maps" : "texts")
                                + ": give every option of the list as a text, or every one as a map {text: ...,"
                                + " weight: ...}");
            }
        }
        List<CatalogEntry> entries = new ArrayList<>();
        List<String> places = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Map<String, String> texts = new LinkedHashMap<>();
            double defaultWeight = items.size() - i;
            String itemKey = key + "[" + i + "]";
            places.add(itemKey);
            if (items.get(i) instanceof Map<?, ?>) {
                ConfigTree item = tree.trees(key).get(i);
                rejectUnknownKeys(item, OPTION_KEYS);
                String weight = item.string("weight", Double.toString(defaultWeight));
                if (item.has("translations")) {
                    ConfigTree byLanguage = item.tree("translations");
                    for (String language : byLanguage.keys()) {
                        putTranslation(item, "translations", texts, language, byLanguage.string(language));
                    }
                }
                entries.add(new CatalogEntry(
                        nonBlank(item, "text"),
                        codesChecked(item, "aliases", item.strings("aliases")),
                        number(item, "weight", weight, "must be "),
                        texts,
                        attributes(item)));
            } else {
                String text = tree.strings(key).get(i);
                if (text.isBlank()) {
                    throw tree.error(itemKey, "must not be blank");
                }
                entries.add(new CatalogEntry(text.strip(), defaultWeight));
            }
        }
        Options options = new Options(entries, null, null, places);
        options.rejectRepeats(tree, key);
        return options;
    }

    /**
     * A CSV file named by {@code key}, with a header: {@code text} (required), {@code id} (the records API's id,
     * for a live catalog's seed), {@code weight}, {@code aliases} (separated by |), and {@code text_<language>}
     * columns of translated texts (an empty cell: none).
     */
    private Options csvOptions(ConfigTree tree, String key) throws EngineConfigException {
        Path file = context.tenantFile(tree, key);
        String name = tree.string(key);
        if (!Files.exists(file)) {
            throw tree.error(key, "not found: " + name);
        }
        if (!Files.isRegularFile(file)) {
            throw tree.error(key, "not a file: " + name);
        }
        CSVFormat format = CSVFormat.RFC4180
                .builder()
                .setHeader()
                .setSkipHeaderRecord(true)
                .get();
        try (Reader reader = RecordReader.withoutByteOrderMark(Files.newBufferedReader(file, StandardCharsets.UTF_8));
                CSVParser parser = CSVParser.parse(reader, format)) {
            if (!parser.getHeaderMap().containsKey("text")) {
                throw tree.error(key, "needs a header row with a 'text' column: " + name);
            }
            List<String> translated = parser.getHeaderNames().stream()
                    .filter(h -> h.startsWith(TEXT_COLUMN))
                    .toList();
            List<String> attributeColumns = parser.getHeaderNames().stream()
                    .filter(h -> h.startsWith(ATTRIBUTE_COLUMN))
                    .toList();
            for (String column : attributeColumns) {
                checkAttributeName(tree, key, column.substring(ATTRIBUTE_COLUMN.length()));
            }
            for (String column : translated) {
                checkLanguage(tree, key, column.substring(TEXT_COLUMN.length()));
            }
            Columns columns = new Columns(parser.getHeaderMap(), translated, attributeColumns);
            List<String> ids = key.equals("file") && parser.getHeaderMap().containsKey("id") ? new ArrayList<>() : null;
            Map<String, Long> idLines = new HashMap<>();
            List<CatalogEntry> entries = new ArrayList<>();
            Lines places = new Lines();
            // Each row with a problem is refused on its own and the others still read, so that every one is found.
            Refusals refused = new Refusals();
            // A row's line is the one it starts on, counted in the file: a quoted value may hold line breaks, so the
            // record number (a row a line) would name the lines after such a row one too early.
            long lastLine = parser.getCurrentLineNumber();
            for (CSVRecord row : parser) {
                long line = lastLine + 1;
                lastLine = parser.getCurrentLineNumber();
                try {
                    CatalogEntry entry = entry(tree, key, row, columns);
                    entries.add(entry);
                    String id = ids == null ? null : id(tree, key, row, idLines, line);
                    if (key.equals("file")) {
                        storable(tree, key, id, entry);
                    }
                    if (ids != null) {
                        ids.add(id);
                    }
                    places.add(line);
                } catch (EngineConfigException e) {
                    if (entries.size() > places.size()) {
                        entries.removeLast();
                    }
                    // The row's own problem, and the same named by its line: the line's words are made only here,
                    // for a refused row, not for each of a million rows read well.
                    refused.add(line, e.getMessage(), name + " line " + line + ": " + e.getMessage());
                }
            }
            if (entries.isEmpty() && refused.isEmpty()) {
                throw tree.error(key, "has no options: " + name);
            }
            Options options = new Options(entries, ids, name, places);
            Refusals repeats = key.equals("file") ? options.repeats() : new Refusals();
            if (!refused.isEmpty() || !repeats.isEmpty()) {
                // A tenant's load names the first row refused on its own, else the first repeat, as it always did;
                // repeats are looked for among the rows read well.
                String first = (refused.isEmpty() ? repeats : refused).first().message();
                if (refusedRows != null && key.equals("file")) {
                    refusedRows.addAll(refused, repeats);
                }
                throw tree.error(key, first);
            }
            return options;
        } catch (NoSuchFileException e) {
            throw tree.error(key, "not found: " + name);
        } catch (IOException | UncheckedIOException | IllegalArgumentException | IllegalStateException e) {
            throw tree.error(key, "cannot read " + name + ": " + plainMessage(e));
        }
    }

    /**
     * A CSV file's columns, looked up by name once: a row's values are then read by index, where a million rows each
     * looked up every column's name in the header's map.
     *
     * @param text the {@code text} column's index; {@code weight} and {@code aliases} are -1 without the column
     * @param translated the {@code text_<language>} columns' indexes and their languages, in the file's order
     * @param attributes the {@code attr.<name>} columns' indexes and their names, in the file's order
     */
    private record Columns(
            int text,
            int weight,
            int aliases,
            int[] translated,
            List<String> languages,
            int[] attributes,
            List<String> attributeNames) {

        Columns(Map<String, Integer> header, List<String> translated, List<String> attributes) {
            this(
                    header.get("text"),
                    header.getOrDefault("weight", -1),
                    header.getOrDefault("aliases", -1),
                    translated.stream().mapToInt(header::get).toArray(),
                    translated.stream()
                            .map(c -> c.substring(TEXT_COLUMN.length()))
                            .toList(),
                    attributes.stream().mapToInt(header::get).toArray(),
                    attributes.stream()
                            .map(c -> c.substring(ATTRIBUTE_COLUMN.length()))
                            .toList());
        }

        /** The row's value in a column, or null when the column is missing (-1) or the row too short to have it. */
        static String value(CSVRecord row, int column) {
            return column >= 0 && column < row.size() ? row.get(column) : null;
        }
    }

    /** Line numbers, one per row read well, given as text where a message names them; growable, without boxing. */
    private static final class Lines extends java.util.AbstractList<String> {
        private long[] lines = new long[1024];
        private int size;

        void add(long line) {
            if (size == lines.length) {
                lines = Arrays.copyOf(lines, size * 2);
            }
            lines[size++] = line;
        }

        @Override
        public String get(int index) {
            java.util.Objects.checkIndex(index, size);
            return Long.toString(lines[index]);
        }

        @Override
        public int size() {
            return size;
        }
    }

    /** One row's option; a problem's message is the row's own, which the caller prefixes with the row's line. */
    private CatalogEntry entry(ConfigTree tree, String key, CSVRecord row, Columns columns)
            throws EngineConfigException {
        String written = Columns.value(row, columns.text());
        String text = written == null ? "" : written.strip();
        if (text.isEmpty()) {
            throw tree.error(key, "empty text");
        }
        double weight = 0;
        String weightValue = Columns.value(row, columns.weight());
        if (weightValue != null && !weightValue.isBlank()) {
            weight = number(tree, key, weightValue.strip(), "weight is not ");
        }
        String aliasValue = Columns.value(row, columns.aliases());
        List<String> aliases = aliasValue == null || aliasValue.isBlank() ? List.of() : values(aliasValue);
        Map<String, String> texts = Map.of();
        for (int c = 0; c < columns.translated().length; c++) {
            String value = Columns.value(row, columns.translated()[c]);
            if (value != null) {
                if (texts.isEmpty()) {
                    texts = new LinkedHashMap<>();
                }
                putTranslation(tree, key, texts, columns.languages().get(c), value);
            }
        }
        Map<String, List<String>> attributes = Map.of();
        for (int c = 0; c < columns.attributes().length; c++) {
            String value = Columns.value(row, columns.attributes()[c]);
            if (value != null && !value.isBlank()) {
                if (attributes.isEmpty()) {
                    attributes = new LinkedHashMap<>();
                }
                attributes.put(columns.attributeNames().get(c), values(value));
            }
        }
        return new CatalogEntry(text, codesChecked(tree, key, aliases), weight, texts, attributes);
    }

    /** A cell's values separated by {@code |}, each stripped, the empty ones left out. */
    private static List<String> values(String cell) {
        List<String> values = new ArrayList<>(4);
        int from = 0;
        while (from <= cell.length()) {
            int bar = cell.indexOf('|', from);
            int to = bar < 0 ? cell.length() : bar;
            String value = cell.substring(from, to).strip();
            if (!value.isEmpty()) {
                values.add(value);
            }
            from = to + 1;
        }
        return values;
    }

    /**
     * Refuses a seed file's row that the catalog store would refuse (a text over its length, a control character, too
     * many aliases), here where its line is known rather than later by its place among the records.
     */
    private static void storable(ConfigTree tree, String key, String id, CatalogEntry entry)
            throws EngineConfigException {
        OptionRecord record = new OptionRecord(
                id != null ? id : "",
                entry.text(),
                entry.aliases(),
                entry.weight(),
                entry.translations(),
                entry.attributes());
        Optional<String> problem = id != null ? OptionRecords.problem(record) : OptionRecords.contentProblem(record);
        if (problem.isPresent()) {
            throw tree.error(key, problem.get());
        }
    }

    /** A row's id: not blank, at most {@link #MAX_ID} characters, unique in the file. */
    private static String id(ConfigTree tree, String key, CSVRecord row, Map<String, Long> lines, long line)
            throws EngineConfigException {
        String id = row.isSet("id") ? row.get("id").strip() : "";
        if (id.isEmpty()) {
            throw tree.error(key, "empty id");
        }
        if (id.length() > MAX_ID) {
            throw tree.error(key, "id longer than " + MAX_ID + " characters");
        }
        Long first = lines.putIfAbsent(id, line);
        if (first != null) {
            throw tree.error(key, "id '" + id + "' is already the id of line " + first);
        }
        return id;
    }

    /**
     * What went wrong, for a tenant author: the innermost message (the parser's own words, with its line),
     * without the Java class names that wrapping exceptions prepend.
     */
    private static String plainMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null ? e.getMessage() : cause.getMessage();
        return message == null ? "malformed CSV" : CLASS_NAME.matcher(message).replaceAll("");
    }

    /** The aliases, refused when one is written as a code ({@code =LON}) with nothing to match ({@code =}). */
    private static List<String> codesChecked(ConfigTree tree, String key, List<String> aliases)
            throws EngineConfigException {
        for (String alias : aliases) {
            java.util.Optional<String> problem = AliasCodes.problem(alias);
            if (problem.isPresent()) {
                throw tree.error(key, "alias '" + alias + "' " + problem.get());
            }
        }
        return aliases;
    }

    private static String nonBlank(ConfigTree tree, String key) throws EngineConfigException {
        String value = tree.string(key).strip();
        if (value.isEmpty()) {
            throw tree.error(key, "must not be blank");
        }
        return value;
    }

    /**
     * The value as a finite number, else an error of {@code key} saying {@code problem} then "a number" or "a finite
     * number": NaN or Infinity would rank nowhere sensible, and the records API refuses them too.
     */
    private static double number(ConfigTree tree, String key, String value, String problem)
            throws EngineConfigException {
        double number;
        try {
            number = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw tree.error(key, problem + "a number");
        }
        if (!Double.isFinite(number)) {
            throw tree.error(key, problem + "a finite number");
        }
        return number;
    }

    private static void rejectUnknownKeys(ConfigTree tree, Set<String> known) throws EngineConfigException {
        List<EngineConfigException> unknown = tree.unknownKeys(known);
        if (!unknown.isEmpty()) {
            throw unknown.getFirst();
        }
    }
}
