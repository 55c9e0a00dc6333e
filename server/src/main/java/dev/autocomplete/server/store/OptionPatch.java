package dev.autocomplete.server.store;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * A partial update of one stored record (the records API's {@code PATCH}): the fields given replace the stored
 * ones, a null field keeps what is stored.
 *
 * @param id the record to change; it must exist
 * @param text the new text, or null
 * @param aliases the new aliases (all of them), or null
 * @param weight the new weight, or null
 * @param translations the new translations (all of them), or null
 */
public record OptionPatch(
        String id,
        String text,
        List<String> aliases,
        Double weight,
        Map<String, String> translations,
        Map<String, List<String>> attributes) {

    public OptionPatch {
        requireNonNull(id, "id is null");
        aliases = aliases == null ? null : List.copyOf(aliases);
        translations = translations == null ? null : Map.copyOf(translations);
        attributes = attributes == null ? null : Map.copyOf(attributes);
    }

    /** A patch that leaves the attributes as stored. */
    public OptionPatch(String id, String text, List<String> aliases, Double weight, Map<String, String> translations) {
        this(id, text, aliases, weight, translations, null);
    }

    /** The record {@code stored} becomes. */
    public OptionRecord applyTo(OptionRecord stored) {
        return new OptionRecord(
                id,
                text == null ? stored.text() : text,
                aliases == null ? stored.aliases() : aliases,
                weight == null ? stored.weight() : weight,
                translations == null ? stored.translations() : translations,
                attributes == null ? stored.attributes() : attributes);
    }
}
