package dev.autocomplete.engine.catalog;

import java.util.List;
import java.util.Map;

/** The parsed configuration of one catalog product: its prompt and its intents. */
record CatalogModel(Localized prompt, List<Intent> intents) {

    /** Every param type of every intent, in declaration order, first occurrence kept. */
    List<Param> allParams() {
        Map<String, Param> byType = new java.util.LinkedHashMap<>();
        intents.forEach(intent -> intent.params().forEach(param -> byType.putIfAbsent(param.type(), param)));
        return List.copyOf(byType.values());
    }

    /**
     * One intent: phrases that name it and the params it takes.
     *
     * @param phrases folded phrases in the default language, longest first
     * @param translatedPhrases folded phrases by lower-case language tag
     */
    record Intent(String name, List<String> phrases, Map<String, List<String>> translatedPhrases,
            List<Param> params) {

        /** The phrases of the requested languages and of the default one, longest first. */
        List<String> phrasesIn(List<String> languages) {
            return inLanguages(phrases, translatedPhrases, languages);
        }

        Param param(String type) {
            return params.stream().filter(p -> p.type().equals(type)).findFirst().orElse(null);
        }
    }

    /**
     * One param.
     *
     * @param cues folded cue words that introduce the param in free text, in the default language
     * @param translatedCues folded cue words by lower-case language tag
     * @param condition when non-null, the param applies only once another param holds one of some values
     * @param contextKeys folded top-level {@code additional_context} keys whose values are this param's
     *     first options (e.g. {@code home_city} for an origin)
     * @param translations the texts of the catalog's options in other languages
     */
    record Param(String type, Localized label, boolean required, List<String> cues,
            Map<String, List<String>> translatedCues, OptionCatalog catalog, Condition condition,
            List<String> contextKeys, OptionTranslations translations) {

        /** The cues of the requested languages and of the default one, longest first. */
        List<String> cuesIn(List<String> languages) {
            return inLanguages(cues, translatedCues, languages);
        }
    }

    /** Matching works in the requested languages and in the default one: their words, longest first. */
    private static List<String> inLanguages(List<String> byDefault, Map<String, List<String>> translated,
            List<String> languages) {
        if (translated.isEmpty() || languages.isEmpty()) {
            return byDefault;
        }
        java.util.Set<String> all = new java.util.LinkedHashSet<>();
        languages.forEach(language -> all.addAll(translated.getOrDefault(language, List.of())));
        all.addAll(byDefault);
        return all.stream().sorted(java.util.Comparator.comparingInt(String::length).reversed()).toList();
    }

    /**
     * The param applies only when param {@code type} was filled with one of {@code values} (folded).
     */
    record Condition(String type, List<String> values) {
    }
}
