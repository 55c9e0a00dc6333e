package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An immutable map-shaped piece of configuration that knows where it sits, so that every error names the
 * full key. Values are {@link String}, {@link Boolean}, {@link Number}, {@link List} or {@link Map} (with
 * string keys), as read from YAML.
 *
 * <p>Thread-safe. Its values are immutable; it remembers which keys its readers asked for (through any accessor,
 * {@link #keys()} or {@link #unknownKeys}), so that the server can refuse the keys no reader asked for
 * ({@link #unread()}): a misspelt key of an engine's param is an error even when the engine checks none itself.
 */
public final class ConfigTree {

    private final String path;
    private final Map<String, Object> values;
    /** Keys of this level that another reader reads (a param's core keys, for its engine): offered as suggestions. */
    private final Set<String> readElsewhere;
    /** Keys asked for, present or not: {@link #unread()} leaves them out, and offers the absent ones as suggestions. */
    private final Set<String> asked = ConcurrentHashMap.newKeySet();
    /** Nested maps already handed out: asking again gives the same tree, which remembers what was asked of it. */
    private final Map<String, ConfigTree> nested = new ConcurrentHashMap<>();

    private ConfigTree(String path, Map<String, Object> values) {
        this(path, values, Set.of());
    }

    private ConfigTree(String path, Map<String, Object> values, Set<String> readElsewhere) {
        this.path = path;
        this.values = values;
        this.readElsewhere = readElsewhere;
    }

    /**
     * A tree at the root of an engine config.
     *
     * @param values the configuration, as parsed from YAML; copied; never null
     */
    public static ConfigTree of(Map<String, ?> values) {
        return new ConfigTree("", copyMap(requireNonNull(values, "values is null")));
    }

    /**
     * A tree that sits at {@code path} of a larger document, so that its errors name the full key there, e.g.
     * {@code products[0].intents[1].params[2]}.
     *
     * @param path the dotted path of this tree; empty for the root; never null
     * @param values the configuration, as parsed from YAML; copied; never null
     */
    public static ConfigTree at(String path, Map<String, ?> values) {
        return new ConfigTree(requireNonNull(path, "path is null"), copyMap(requireNonNull(values, "values is null")));
    }

    /**
     * As {@link #at(String, Map)}, for a part of a map whose other keys {@code readElsewhere} another reader reads
     * (the server reads a param's {@code type}, {@code cues}, ...; its engine the rest): a misspelt key is then
     * told which of all of them it probably meant.
     *
     * @param readElsewhere the keys of the same map read by someone else; never null
     */
    public static ConfigTree at(String path, Map<String, ?> values, Set<String> readElsewhere) {
        return new ConfigTree(
                requireNonNull(path, "path is null"),
                copyMap(requireNonNull(values, "values is null")),
                Set.copyOf(requireNonNull(readElsewhere, "readElsewhere is null")));
    }

    /** The dotted path of this tree inside the engine config; empty at the root. */
    public String path() {
        return path;
    }

    /** The keys present, in file order (each then counts as read: a reader that lists them handles them). */
    public Set<String> keys() {
        asked.addAll(values.keySet());
        return values.keySet();
    }

    /** Whether the key is present with a non-null value. */
    public boolean has(String key) {
        return value(key) != null;
    }

    /** The raw value of a key (String, Boolean, Number, List or Map), or empty when absent or null. */
    public Optional<Object> raw(String key) {
        return Optional.ofNullable(value(key));
    }

    /** A key's value, the key remembered as asked for. */
    private Object value(String key) {
        asked.add(key);
        return values.get(key);
    }

    /** A required scalar, as text. */
    public String string(String key) throws EngineConfigException {
        Object value = value(key);
        if (value == null) {
            throw error(key, "is required");
        }
        return scalar(key, value);
    }

    /** An optional scalar, as text, or the default when absent. */
    public String string(String key, String defaultValue) throws EngineConfigException {
        Object value = value(key);
        return value == null ? defaultValue : scalar(key, value);
    }

    /** An optional boolean, or the default when absent. */
    public boolean bool(String key, boolean defaultValue) throws EngineConfigException {
        Object value = value(key);
        if (value == null) {
            return defaultValue;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        throw error(key, "must be true or false");
    }

    /** An optional integer, or the default when absent. */
    public int integer(String key, int defaultValue) throws EngineConfigException {
        Object value = value(key);
        if (value == null) {
            return defaultValue;
        }
        if (value instanceof Number n
                && n.doubleValue() == Math.rint(n.doubleValue())
                && Math.abs(n.doubleValue()) <= Integer.MAX_VALUE) {
            return n.intValue();
        }
        throw error(key, "must be a whole number");
    }

    /** An optional integer from {@code min} to {@code max}, or the default when absent. */
    public int integer(String key, int defaultValue, int min, int max) throws EngineConfigException {
        if (!has(key)) {
            return defaultValue;
        }
        EngineConfigException outside = error(key, "must be a whole number from " + min + " to " + max);
        int value;
        try {
            value = integer(key, defaultValue);
        } catch (EngineConfigException e) {
            throw outside;
        }
        if (value < min || value > max) {
            throw outside;
        }
        return value;
    }

    /**
     * One error for each key present that is not {@code known}, in file order: all of them, so that a reader that
     * collects its problems reports every misspelt key at once. Each says which key it probably meant ("did you
     * mean 'cues'?", see {@link #nearest}), or else lists the keys this map may have.
     */
    public List<EngineConfigException> unknownKeys(Set<String> known) {
        asked.addAll(values.keySet());
        List<EngineConfigException> unknown = new ArrayList<>();
        for (String key : values.keySet()) {
            if (!known.contains(key)) {
                unknown.add(error(key, unknownKeyMessage(key, known)));
            }
        }
        return List.copyOf(unknown);
    }

    /**
     * One error for each key present that no reader has asked for so far, in file order, as {@link #unknownKeys}
     * words it: each says which key it probably meant among the keys that were asked for (present or not) and those
     * read elsewhere. The server calls it on each param's tree and on the engine's own once the engine's factory has
     * returned; keys of nested maps are their reader's to check.
     */
    public List<EngineConfigException> unread() {
        Set<String> known = Set.copyOf(asked);
        List<EngineConfigException> unread = new ArrayList<>();
        for (String key : values.keySet()) {
            if (!known.contains(key)) {
                unread.add(error(key, unknownKeyMessage(key, known)));
            }
        }
        return List.copyOf(unread);
    }

    /** Refuses the first key present that is not one of {@code known} (see {@link #unknownKeys}). */
    public void allowOnly(String... known) throws EngineConfigException {
        List<EngineConfigException> unknown = unknownKeys(Set.of(known));
        if (!unknown.isEmpty()) {
            throw unknown.getFirst();
        }
    }

    /**
     * The key of {@code known} (or of the keys read elsewhere) that {@code key}, a key this tree has, probably
     * misspells; empty when none is close.
     */
    public Optional<String> meant(String key, Set<String> known) {
        return nearest(key, allKnown(known));
    }

    private String unknownKeyMessage(String key, Set<String> known) {
        Set<String> all = allKnown(known);
        return nearest(key, all)
                .map(ConfigTree::didYouMean)
                .orElseGet(() -> all.isEmpty()
                        ? "is not a known key (no key is read here)"
                        : "is not a known key (known: "
                                + String.join(", ", all.stream().sorted().toList()) + ")");
    }

    /** The problem of an unknown key that probably misspells {@code meant}. */
    public static String didYouMean(String meant) {
        return "is not a known key; did you mean '" + meant + "'?";
    }

    private Set<String> allKnown(Set<String> known) {
        if (readElsewhere.isEmpty()) {
            return known;
        }
        Set<String> all = new java.util.HashSet<>(known);
        all.addAll(readElsewhere);
        return all;
    }

    /**
     * The candidate that {@code typed} most probably misspells: the one fewest edits away (optimal string alignment,
     * the restricted Damerau-Levenshtein distance: an insertion, deletion, substitution or swap of two neighbours is
     * one edit; case ignored), when that is at most one edit for keys of up to 4 characters and at most two for
     * longer ones; ties go to the first in alphabetical order. Empty when none is that close.
     */
    public static Optional<String> nearest(String typed, java.util.Collection<String> candidates) {
        String folded = typed.toLowerCase(java.util.Locale.ROOT);
        String best = null;
        int bestEdits = Integer.MAX_VALUE;
        for (String candidate : candidates.stream().sorted().toList()) {
            int allowed = Math.min(folded.length(), candidate.length()) <= 4 ? 1 : 2;
            int edits = edits(folded, candidate.toLowerCase(java.util.Locale.ROOT));
            if (edits <= allowed && edits < bestEdits && !candidate.equals(typed)) {
                best = candidate;
                bestEdits = edits;
            }
        }
        return Optional.ofNullable(best);
    }

    /** The optimal string alignment distance between {@code a} and {@code b}. */
    private static int edits(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int substitution = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + substitution);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** A required nested map. */
    public ConfigTree tree(String key) throws EngineConfigException {
        return optionalTree(key).orElseThrow(() -> error(key, "is required"));
    }

    /** An optional nested map. */
    public Optional<ConfigTree> optionalTree(String key) throws EngineConfigException {
        Object value = value(key);
        if (value == null) {
            return Optional.empty();
        }
        if (value instanceof Map<?, ?> map) {
            return Optional.of(nested.computeIfAbsent(key, k -> new ConfigTree(child(k), asStringMap(map))));
        }
        throw error(key, "must be a map");
    }

    /** A list of maps; empty when absent. */
    public List<ConfigTree> trees(String key) throws EngineConfigException {
        Object value = value(key);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            throw error(key, "must be a list");
        }
        List<ConfigTree> trees = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> map)) {
                throw error(key + "[" + i + "]", "must be a map");
            }
            trees.add(new ConfigTree(child(key) + "[" + i + "]", asStringMap(map)));
        }
        return List.copyOf(trees);
    }

    /** A list of scalars as text; a single scalar counts as a list of one; empty when absent. */
    public List<String> strings(String key) throws EngineConfigException {
        Object value = value(key);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list)) {
            return List.of(scalar(key, value));
        }
        List<String> strings = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            Object item = list.get(i);
            if (item == null) {
                throw error(key + "[" + i + "]", "must not be empty");
            }
            strings.add(scalar(key + "[" + i + "]", item));
        }
        return List.copyOf(strings);
    }

    /**
     * An error about a key of this tree, carrying its full path.
     *
     * @param key a key of this tree, optionally followed by {@code [i]} or {@code .sub}; empty for the tree
     */
    public EngineConfigException error(String key, String message) {
        String full = key.isEmpty() ? path : child(key);
        return new EngineConfigException(full, message);
    }

    /** The full path of a key of this tree. */
    public String child(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private String scalar(String key, Object value) throws EngineConfigException {
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        throw error(key, "must be a single value, not a " + (value instanceof List ? "list" : "map"));
    }

    private static Map<String, Object> asStringMap(Map<?, ?> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(String.valueOf(k), v));
        return copyMap(copy);
    }

    private static Map<String, Object> copyMap(Map<String, ?> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(requireNonNull(k, "config key is null"), copyValue(v)));
        return Collections.unmodifiableMap(copy);
    }

    private static Object copyValue(Object value) {
        if (value instanceof Map<?, ?> map) {
            return asStringMap(map);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(copyValue(item)));
            return Collections.unmodifiableList(copy);
        }
        return value;
    }

    @Override
    public String toString() {
        return "ConfigTree[" + path + "]";
    }
}
