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
     * @param phrases folded phrases, longest first
     */
    record Intent(String name, List<String> phrases, List<Param> params) {

        Param param(String type) {
            return params.stream().filter(p -> p.type().equals(type)).findFirst().orElse(null);
        }
    }

    /**
     * One param.
     *
     * @param cues folded cue words that introduce the param in free text
     * @param condition when non-null, the param applies only once another param holds one of some values
     * @param contextKeys folded top-level {@code additional_context} keys whose values are this param's
     *     first options (e.g. {@code home_city} for an origin)
     */
    record Param(String type, Localized label, boolean required, List<String> cues, OptionCatalog catalog,
            Condition condition, List<String> contextKeys) {
    }

    /**
     * The param applies only when param {@code type} was filled with one of {@code values} (folded).
     */
    record Condition(String type, List<String> values) {
    }
}
