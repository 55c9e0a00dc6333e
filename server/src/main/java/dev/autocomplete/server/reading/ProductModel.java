package dev.autocomplete.server.reading;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * How a product reads queries, as its {@code tenant.yaml} declares it: the prompt, and the intents with their
 * phrases and params. Immutable; what is derived from the intents (the param types, the first declaration of each,
 * the types that learn) is worked out once, not per request (building those sets took 1 % of an uncached answer).
 */
public final class ProductModel {

    private final Localized prompt;
    private final List<Intent> intents;
    private final Map<String, Param> paramsByType;
    private final Set<String> learningTypes;
    private final Map<String, Object> contextExample;
    /** The tenant's default language, lower case; null when not known (then engines get every requested language). */
    private final String defaultLanguage;
    /** The primary subtags ({@code de} of {@code de-AT}) of the languages the configuration has words in. */
    private final Set<String> writtenIn;

    public ProductModel(Localized prompt, List<Intent> intents) {
        this(prompt, intents, Map.of(), null);
    }

    /**
     * @param contextExample see {@link #contextExample()}
     * @param defaultLanguage the tenant's default language; null when not known
     */
    public ProductModel(
            Localized prompt, List<Intent> intents, Map<String, Object> contextExample, String defaultLanguage) {
        this.prompt = prompt;
        this.contextExample = frozen(contextExample);
        this.defaultLanguage = defaultLanguage == null ? null : defaultLanguage.toLowerCase(Locale.ROOT);
        this.intents = List.copyOf(intents);
        Map<String, Param> byType = new LinkedHashMap<>();
        Set<String> learning = new LinkedHashSet<>();
        this.intents.forEach(intent -> intent.params().forEach(param -> {
            byType.putIfAbsent(param.type(), param);
            if (param.learn()) {
                learning.add(param.type());
            }
        }));
        this.paramsByType = Collections.unmodifiableMap(byType);
        this.learningTypes = Collections.unmodifiableSet(learning);
        Set<String> written = new LinkedHashSet<>();
        if (this.defaultLanguage != null) {
            written.add(primary(this.defaultLanguage));
        }
        translatedTo().forEach(tag -> written.add(primary(tag)));
        this.writtenIn = Collections.unmodifiableSet(written);
    }

    /**
     * This model with learning off for {@code params} (params whose engine's options are values of the moment, as
     * {@link dev.autocomplete.spi.Engine#learnsFromPicks} says); this very model when there are none.
     */
    public ProductModel withoutLearning(Set<Param> params) {
        if (params.isEmpty()) {
            return this;
        }
        List<Intent> changed = intents.stream()
                .map(intent -> new Intent(
                        intent.name(),
                        intent.phrases(),
                        intent.translatedPhrases(),
                        intent.params().stream()
                                .map(param -> params.contains(param) ? param.notLearning() : param)
                                .toList()))
                .toList();
        return new ProductModel(prompt, changed, contextExample, defaultLanguage);
    }

    public Localized prompt() {
        return prompt;
    }

    public List<Intent> intents() {
        return intents;
    }

    /** Every param type of every intent, in declaration order. */
    public Set<String> paramTypes() {
        return paramsByType.keySet();
    }

    /** The first declaration of each param type. */
    public Map<String, Param> paramsByType() {
        return paramsByType;
    }

    /** The param types of which some intent's param learns from picks ({@code learn}, on by default). */
    public Set<String> learningTypes() {
        return learningTypes;
    }

    /**
     * What the params read in {@code additional_context}, as a JSON object whose values say what they stand for
     * ({@code {"home_city": "<origin>", "home_country": "<country>"}}): the console's try-it editor shows it. Any
     * other string value still names options of any param (docs/protocol.md §4.6).
     */
    public Map<String, Object> contextExample() {
        return contextExample;
    }

    /**
     * The languages this product's configuration has words in: the tenant's default language first (when the model
     * knows it), then every other tag its prompt, phrases, labels and cues are translated to, in alphabetical order
     * ({@code [en, de, fr]} for the demo's travel). The console's try-it offers them for {@code meta.language}.
     */
    public List<String> languages() {
        Set<String> others = translatedTo();
        List<String> languages = new ArrayList<>();
        if (defaultLanguage != null) {
            others.remove(defaultLanguage);
            languages.add(defaultLanguage);
        }
        languages.addAll(others);
        return List.copyOf(languages);
    }

    /** Every tag the prompt, phrases, labels and cues are translated to, in alphabetical order. */
    private Set<String> translatedTo() {
        Set<String> tags = new TreeSet<>(prompt.translations().keySet());
        for (Intent intent : intents) {
            tags.addAll(intent.translatedPhrases().keySet());
            for (Param param : intent.params()) {
                if (param.label() != null) {
                    tags.addAll(param.label().translations().keySet());
                }
                tags.addAll(param.translatedCues().keySet());
            }
        }
        return tags;
    }

    /**
     * The languages a plug-in engine answers in for a request asking {@code fallbacks} ({@code [fr-ca, fr]}): those of
     * them the product's configuration is written in (its default language, or one its texts are translated to, by
     * primary subtag), so that its options come in the language of its labels; empty when none is, which an engine
     * reads as the tenant's default language (docs/protocol.md §3.6). A French browser on a product written in English
     * and German got French dates under English labels, some half English ({@code Tuesday, mardi 8 décembre}: an
     * operator trial). The core's catalogs get every requested language: their own translations say what they have.
     */
    public List<String> engineLanguages(List<String> fallbacks) {
        if (defaultLanguage == null || fallbacks.isEmpty()) {
            return fallbacks;
        }
        List<String> kept = new ArrayList<>(fallbacks.size());
        for (String tag : fallbacks) {
            if (writtenIn.contains(primary(tag))) {
                kept.add(tag);
            }
        }
        return kept.size() == fallbacks.size() ? fallbacks : List.copyOf(kept);
    }

    private static String primary(String tag) {
        int dash = tag.indexOf('-');
        return (dash < 0 ? tag : tag.substring(0, dash)).toLowerCase(Locale.ROOT);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> frozen(Map<String, Object> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, value) ->
                copy.put(key, value instanceof Map<?, ?> inner ? frozen((Map<String, Object>) inner) : value));
        return Collections.unmodifiableMap(copy);
    }

    @Override
    public String toString() {
        return "ProductModel[prompt=" + prompt + ", intents=" + intents + "]";
    }

    /**
     * One intent: phrases that name it and the params it takes.
     *
     * @param phrases folded phrases in the default language, longest first
     * @param translatedPhrases folded phrases by lower-case language tag
     */
    public record Intent(
            String name, List<String> phrases, Map<String, List<String>> translatedPhrases, List<Param> params) {

        /** The phrases of the requested languages and of the default one, longest first. */
        List<String> phrasesIn(List<String> languages) {
            return inLanguages(phrases, translatedPhrases, languages);
        }

        Param param(String type) {
            for (Param param : params) {
                if (param.type().equals(type)) {
                    return param;
                }
            }
            return null;
        }
    }

    /**
     * One param.
     *
     * @param cues folded cue words that introduce the param in free text, in the default language
     * @param translatedCues folded cue words by lower-case language tag
     * @param condition when non-null, the param applies only once another param holds one of some values
     * @param contextKeys folded top-level {@code additional_context} keys whose values are this param's first
     *     options (e.g. {@code home_city} for an origin)
     * @param contextOptions whether values the context names for this param are offered even when its engine
     *     does not know them (a host's per-user list, e.g. recent contacts)
     * @param engine the name of the engine that serves the param's values
     * @param learn whether the param's options are re-ranked by what users picked ({@code learn: false} turns it off)
     * @param attributeKeys folded top-level {@code additional_context} keys its {@code context_attributes} read: not
     *     matched against its option texts (protocol notes, decision 19)
     * @param distinctFrom the type of the param whose value this one's differs from ({@code distinct_from}), or null:
     *     a typed value equal to that param's needs confirmation
     */
    public record Param(
            String type,
            Localized label,
            boolean required,
            List<String> cues,
            Map<String, List<String>> translatedCues,
            Condition condition,
            List<String> contextKeys,
            boolean contextOptions,
            String engine,
            boolean learn,
            Set<String> attributeKeys,
            String distinctFrom) {

        public Param {
            attributeKeys = Set.copyOf(attributeKeys);
        }

        /** This param, learning nothing from picks. */
        Param notLearning() {
            return new Param(
                    type,
                    label,
                    required,
                    cues,
                    translatedCues,
                    condition,
                    contextKeys,
                    contextOptions,
                    engine,
                    false,
                    attributeKeys,
                    distinctFrom);
        }

        /** A param that differs from no other. */
        public Param(
                String type,
                Localized label,
                boolean required,
                List<String> cues,
                Map<String, List<String>> translatedCues,
                Condition condition,
                List<String> contextKeys,
                boolean contextOptions,
                String engine,
                boolean learn,
                Set<String> attributeKeys) {
            this(
                    type,
                    label,
                    required,
                    cues,
                    translatedCues,
                    condition,
                    contextKeys,
                    contextOptions,
                    engine,
                    learn,
                    attributeKeys,
                    null);
        }

        /** A param that learns from picks, with no context attributes. */
        public Param(
                String type,
                Localized label,
                boolean required,
                List<String> cues,
                Map<String, List<String>> translatedCues,
                Condition condition,
                List<String> contextKeys,
                boolean contextOptions,
                String engine) {
            this(
                    type,
                    label,
                    required,
                    cues,
                    translatedCues,
                    condition,
                    contextKeys,
                    contextOptions,
                    engine,
                    true,
                    Set.of());
        }

        /** The cues of the requested languages and of the default one, longest first. */
        List<String> cuesIn(List<String> languages) {
            return inLanguages(cues, translatedCues, languages);
        }
    }

    /** The param applies only when param {@code type} was filled with one of {@code values} (folded). */
    public record Condition(String type, List<String> values) {}

    /** Words of the requested languages and of the default one, longest first. */
    private static List<String> inLanguages(
            List<String> byDefault, Map<String, List<String>> translated, List<String> languages) {
        if (translated.isEmpty() || languages.isEmpty() || addsNothing(byDefault, translated, languages)) {
            return byDefault;
        }
        Set<String> all = new LinkedHashSet<>();
        languages.forEach(language -> all.addAll(translated.getOrDefault(language, List.of())));
        all.addAll(byDefault);
        return all.stream()
                .sorted(Comparator.comparingInt(String::length).reversed())
                .toList();
    }

    /**
     * Whether the requested languages have no words but the default ones, as when a request names the default
     * language ({@code en-US} for an English product): its list is the default list itself, so the merge would
     * give that list back (every list is distinct and longest first already: {@code ProductConfig} folds it so).
     * Checked per request; the merge is not.
     */
    private static boolean addsNothing(
            List<String> byDefault, Map<String, List<String>> translated, List<String> languages) {
        for (String language : languages) {
            List<String> words = translated.get(language);
            if (words != null && !words.equals(byDefault)) {
                return false;
            }
        }
        return true;
    }
}
