package dev.autocomplete.server.reading;

import dev.autocomplete.spi.ConfigTree;
import dev.autocomplete.spi.EngineConfigException;
import java.util.List;
import java.util.Map;

/**
 * A text with translations: config accepts a plain string, or a map from language tag to string.
 *
 * @param fallback the text in the tenant's default language
 * @param translations lower-case language tag to text
 */
public record Localized(String fallback, Map<String, String> translations) {

    public static Localized of(String text) {
        return new Localized(text, Map.of());
    }

    /** Reads {@code key} of {@code tree}; absent gives {@code defaultText} (null when required). */
    static Localized read(ConfigTree tree, String key, String defaultLanguage, String defaultText)
            throws EngineConfigException {
        Object raw = tree.raw(key).orElse(null);
        if (raw == null) {
            if (defaultText == null) {
                throw tree.error(key, "is required");
            }
            return of(defaultText);
        }
        if (!(raw instanceof Map<?, ?>)) {
            return of(tree.string(key));
        }
        ConfigTree byLanguage = tree.tree(key);
        Map<String, String> translations = new java.util.LinkedHashMap<>();
        for (String language : byLanguage.keys()) {
            translations.put(language.toLowerCase(java.util.Locale.ROOT), byLanguage.string(language));
        }
        String fallback = translations.get(defaultLanguage.toLowerCase(java.util.Locale.ROOT));
        if (fallback == null) {
            if (translations.isEmpty()) {
                throw tree.error(key, "needs at least one language");
            }
            fallback = translations.values().iterator().next();
        }
        return new Localized(fallback, Map.copyOf(translations));
    }

    /** The text in the first of {@code languages} that has one, else the default. */
    public String in(List<String> languages) {
        for (String language : languages) {
            String text = translations.get(language);
            if (text != null) {
                return text;
            }
        }
        return fallback;
    }
}
