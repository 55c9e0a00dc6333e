package dev.autocomplete.server.catalogs;

import dev.autocomplete.server.store.OptionRecord;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Writes option records as a catalog's seed CSV, the columns the catalog engine reads back
 * ({@code CatalogConfig.csvOptions}): {@code id}, {@code text}, {@code aliases} (separated by {@code |}),
 * {@code weight}, one {@code text_<language>} column per language of the translations and one {@code attr.<name>}
 * column per attribute (values separated by {@code |}). So an export to
 * {@code .csv} imports again as it was.
 */
public final class CsvRecordWriter {

    /** The prefix of a translation's column, as the seed reader has it. */
    static final String TEXT_COLUMN = "text_";

    /** The prefix of an attribute's column, as the seed reader has it. */
    static final String ATTRIBUTE_COLUMN = "attr.";

    /** What separates aliases in their one cell. */
    static final String ALIAS_SEPARATOR = "|";

    private final CSVPrinter out;
    private final List<String> languages;
    private final List<String> attributes;

    /**
     * @param languages the languages of every record's translations: the header is written first, so they are
     *     known before the records (a record with another one is refused)
     * @param attributes the names of every record's attributes, likewise
     */
    public CsvRecordWriter(Writer writer, List<String> languages, List<String> attributes) throws IOException {
        this.languages = List.copyOf(languages);
        this.attributes = List.copyOf(attributes);
        List<String> header = new ArrayList<>(List.of("id", "text", "aliases", "weight"));
        this.languages.forEach(language -> header.add(TEXT_COLUMN + language));
        this.attributes.forEach(name -> header.add(ATTRIBUTE_COLUMN + name));
        this.out = new CSVPrinter(
                writer, CSVFormat.RFC4180.builder().setRecordSeparator('\n').get());
        out.printRecord(header);
    }

    /**
     * @throws IllegalArgumentException an alias holding {@code |}, or a language missing from the header: CSV
     *     could not give it back as it is
     */
    public void write(OptionRecord record) throws IOException {
        requireWritable(record);
        for (String language : record.translations().keySet()) {
            if (!languages.contains(language)) {
                throw new IllegalArgumentException("option '" + record.id() + "' has a translation in '" + language
                        + "', added while the export ran; export again");
            }
        }
        List<String> row = new ArrayList<>(List.of(
                record.id(), record.text(), String.join(ALIAS_SEPARATOR, record.aliases()), weight(record.weight())));
        languages.forEach(language -> row.add(record.translations().getOrDefault(language, "")));
        for (String name : record.attributes().keySet()) {
            if (!attributes.contains(name)) {
                throw new IllegalArgumentException("option '" + record.id() + "' has an attribute '" + name
                        + "', added while the export ran; export again");
            }
        }
        attributes.forEach(
                name -> row.add(String.join(ALIAS_SEPARATOR, record.attributes().getOrDefault(name, List.of()))));
        out.printRecord(row);
    }

    /**
     * Refuses a record CSV cannot give back as it is: an alias holding {@code |}. Checked before anything is
     * written, so a refused export leaves no half-written file.
     */
    public static void requireWritable(OptionRecord record) {
        for (String alias : record.aliases()) {
            if (alias.contains(ALIAS_SEPARATOR)) {
                throw new IllegalArgumentException("option '" + record.id() + "' has an alias with '|' ('" + alias
                        + "'), which separates aliases in CSV; export it as NDJSON instead");
            }
        }
        record.attributes().forEach((name, values) -> {
            for (String value : values) {
                if (value.contains(ALIAS_SEPARATOR)) {
                    throw new IllegalArgumentException("option '" + record.id() + "' has an attribute value with '|'"
                            + " ('" + value + "'), which separates values in CSV; export it as NDJSON instead");
                }
            }
        });
    }

    /** Flushes what is written. */
    public void finish() throws IOException {
        out.flush();
    }

    /** Whole weights without a fraction ({@code 3}, not {@code 3.0}); others exactly as Java reads them back. */
    private static String weight(double weight) {
        return weight == Math.rint(weight) && Math.abs(weight) < 1e15
                ? Long.toString((long) weight)
                : Double.toString(weight);
    }
}
