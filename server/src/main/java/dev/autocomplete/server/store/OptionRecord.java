package dev.autocomplete.server.store;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * One option of a live catalog, as the records API, the CLI and the store carry it.
 *
 * @param id unique in the catalog, at most 200 characters
 * @param text what the option reads as and what a pick sends back; unique in the catalog once folded
 * @param aliases other names that find it
 * @param weight ranks options that match equally; 0 when not given
 * @param translations language tag to the text in that language
 * @param attributes attribute name to values, which a param's {@code context_attributes} filter or boost by
 *     ({@code team: [Sales]}); empty for none
 */
public record OptionRecord(
        String id,
        String text,
        List<String> aliases,
        double weight,
        Map<String, String> translations,
        Map<String, List<String>> attributes) {

    public OptionRecord {
        requireNonNull(id, "id is null");
        requireNonNull(text, "text is null");
        aliases = List.copyOf(aliases);
        translations = Map.copyOf(translations);
        if (attributes.isEmpty()) {
            attributes = Map.of();
        } else {
            java.util.Map<String, List<String>> copied = new java.util.TreeMap<>();
            attributes.forEach((name, values) -> copied.put(name, List.copyOf(values)));
            attributes = java.util.Collections.unmodifiableMap(copied);
        }
    }

    public OptionRecord(String id, String text, List<String> aliases, double weight, Map<String, String> translations) {
        this(id, text, aliases, weight, translations, Map.of());
    }

    public OptionRecord(String id, String text) {
        this(id, text, List.of(), 0, Map.of());
    }
}
