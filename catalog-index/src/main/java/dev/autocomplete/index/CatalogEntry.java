package dev.autocomplete.index;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One option as the index takes it: from a catalog file, an inline list or a live catalog's record.
 *
 * @param text what the option reads as and what a pick sends back; not blank
 * @param aliases other names that find it
 * @param weight ranks options that match equally (held as a float by the index)
 * @param translations language tag (lower-cased here) to the option's text in that language; a blank text is none
 * @param attributes what a host's {@code additional_context} may filter or boost by: attribute name to values
 *     ({@code team: [Sales]}); empty for none
 */
public record CatalogEntry(
        String text,
        List<String> aliases,
        double weight,
        Map<String, String> translations,
        Map<String, List<String>> attributes) {

    public CatalogEntry(String text, List<String> aliases, double weight, Map<String, String> translations) {
        this(text, aliases, weight, translations, Map.of());
    }

    public CatalogEntry {
        requireNonNull(text, "text is null");
        if (text.isBlank()) {
            throw new IllegalArgumentException("text is blank");
        }
        aliases = List.copyOf(aliases);
        // Most options have neither translations nor attributes: no copy for them (a million entries are made on a
        // load).
        if (!translations.isEmpty()) {
            Map<String, String> tags = new LinkedHashMap<>();
            translations.forEach((tag, translated) -> {
                if (!translated.isBlank()) {
                    tags.put(tag.toLowerCase(Locale.ROOT), translated);
                }
            });
            translations = Map.copyOf(tags);
        } else {
            translations = Map.of();
        }
        if (!attributes.isEmpty()) {
            Map<String, List<String>> copied = new LinkedHashMap<>();
            attributes.forEach((name, values) -> copied.put(name, List.copyOf(values)));
            attributes = java.util.Collections.unmodifiableMap(copied);
        } else {
            attributes = Map.of();
        }
    }

    public CatalogEntry(String text, double weight) {
        this(text, List.of(), weight, Map.of());
    }
}
