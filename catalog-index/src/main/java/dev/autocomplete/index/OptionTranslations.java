package dev.autocomplete.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One segment of options: an {@link OptionCatalog} of the texts in the default language and, per language, a
 * small {@link OptionCatalog} of the translated texts (with the translated options' weights) and the option each
 * one translates. {@link LiveOptions} searches one or two of them (the main index and a delta) as one. Immutable,
 * thread-safe.
 */
final class OptionTranslations {

    /** One language's texts; {@code options[i]} is the catalog option that text {@code i} translates (ascending). */
    record Language(OptionCatalog texts, int[] options) {

        /** The index of the text translating {@code option}, or -1. */
        int textOf(int option) {
            int i = Arrays.binarySearch(options, option);
            return i >= 0 ? i : -1;
        }
    }

    /** A segment of no options. */
    static final OptionTranslations EMPTY = new OptionTranslations(OptionCatalog.EMPTY, Map.of(), Attributes.NONE);

    private final OptionCatalog catalog;
    private final Map<String, Language> languages;
    private final Attributes attributes;

    private OptionTranslations(OptionCatalog catalog, Map<String, Language> languages, Attributes attributes) {
        this.catalog = catalog;
        this.languages = languages;
        this.attributes = attributes;
    }

    /**
     * Indexes the entries in order: option {@code i} is entry {@code i}. The translations and attributes are taken
     * in the {@link OptionCatalog}'s indexing pass, not in passes of their own (a fold's entries are decoded on every
     * read).
     */
    static OptionTranslations of(List<CatalogEntry> entries) {
        if (entries.isEmpty()) {
            return EMPTY;
        }
        Map<String, List<CatalogEntry>> texts = new HashMap<>();
        Map<String, List<Integer>> owners = new HashMap<>();
        Attributes.Builder attributes = new Attributes.Builder(entries.size());
        OptionCatalog catalog = new OptionCatalog(entries, (entry, option) -> {
            for (Map.Entry<String, String> text : entry.translations().entrySet()) {
                // The weight as the catalog keeps it (a float).
                texts.computeIfAbsent(text.getKey(), l -> new ArrayList<>())
                        .add(new CatalogEntry(text.getValue(), (float) entry.weight()));
                owners.computeIfAbsent(text.getKey(), l -> new ArrayList<>()).add(option);
            }
            attributes.add(option, entry.attributes());
        });
        Map<String, Language> languages = new HashMap<>();
        texts.forEach((language, list) -> languages.put(
                language,
                new Language(
                        new OptionCatalog(list),
                        owners.get(language).stream()
                                .mapToInt(Integer::intValue)
                                .toArray())));
        return new OptionTranslations(catalog, Map.copyOf(languages), attributes.build());
    }

    /** The options in the default language. */
    OptionCatalog catalog() {
        return catalog;
    }

    /** The texts of a language, or null when no option is translated to it. */
    Language language(String tag) {
        return languages.get(tag);
    }

    Iterable<String> languageTags() {
        return languages.keySet();
    }

    int size() {
        return catalog.size();
    }

    /** The options' attributes. */
    Attributes attributes() {
        return attributes;
    }

    /** The option as an entry again (its weight as the index holds it), to build another segment from. */
    CatalogEntry entry(int option) {
        Map<String, String> translations = new LinkedHashMap<>();
        languages.forEach((tag, language) -> {
            int text = language.textOf(option);
            if (text >= 0) {
                translations.put(tag, language.texts().text(text));
            }
        });
        return new CatalogEntry(
                catalog.text(option),
                catalog.aliases(option),
                catalog.weight(option),
                translations,
                attributes.of(option));
    }

    /** Roughly how many bytes the segment holds on the heap (its arrays). */
    long heapBytes() {
        long bytes = catalog.heapBytes() + attributes.heapBytes();
        for (Language language : languages.values()) {
            bytes += language.texts().heapBytes() + 4L * language.options().length;
        }
        return bytes;
    }
}
