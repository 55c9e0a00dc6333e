package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;


import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An immutable map-shaped piece of configuration that knows where it sits, so that every error names the
 * full key. Values are {@link String}, {@link Boolean}, {@link Number}, {@link List} or {@link Map} (with
 * string keys), as read from YAML.
 *
 * <p>Thread-safe and immutable.
 */
public final class ConfigTree {

    private final String path;
    private final Map<String, Object> values;

    private ConfigTree(String path, Map<String, Object> values) {
        this.path = path;
        this.values = values;
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

    /** The dotted path of this tree inside the engine config; empty at the root. */
    public String path() {
        return path;
    }

    /** The keys present, in file order. */
    public Set<String> keys() {
        return values.keySet();
    }

    /** Whether the key is present with a non-null value. */
    public boolean has(String key) {
        return values.get(key) != null;
    }

    /** The raw value of a key (String, Boolean, Number, List or Map), or empty when absent or null. */
    public Optional<Object> raw(String key) {
        return Optional.ofNullable(values.get(key));
    }

    /** A required scalar, as text. */
    public String string(String key) throws EngineConfigException {
        Object value = values.get(key);
        if (value == null) {
            throw error(key, "is required");
        }
        return scalar(key, value);
    }

    /** An optional scalar, as text, or the default when absent. */
    public String string(String key, String defaultValue) throws EngineConfigException {
        Object value = values.get(key);
        return value == null ? defaultValue : scalar(key, value);
    }

    /** An optional boolean, or the default when absent. */
    public boolean bool(String key, boolean defaultValue) throws EngineConfigException {
        Object value = values.get(key);
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
        Object value = values.get(key);
        if (value == null) {
            return defaultValue;
        }
        if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
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
     * collects its problems reports every misspelt key at once.
     */
    public List<EngineConfigException> unknownKeys(Set<String> known) {
        List<EngineConfigException> unknown = new ArrayList<>();
        for (String key : values.keySet()) {
            if (!known.contains(key)) {
                unknown.add(error(key, "is not a known key (known: " + String.join(", ", known.stream().sorted().toList())
                        + ")"));
            }
        }
        return List.copyOf(unknown);
    }

    /** Refuses the first key present that is not one of {@code known} (see {@link #unknownKeys}). */
    public void allowOnly(String... known) throws EngineConfigException {
        List<EngineConfigException> unknown = unknownKeys(Set.of(known));
        if (!unknown.isEmpty()) {
            throw unknown.getFirst();
        }
    }

    /** A required nested map. */
    public ConfigTree tree(String key) throws EngineConfigException {
        return optionalTree(key).orElseThrow(() -> error(key, "is required"));
    }

    /** An optional nested map. */
    public Optional<ConfigTree> optionalTree(String key) throws EngineConfigException {
        Object value = values.get(key);
        if (value == null) {
            return Optional.empty();
        }
        if (value instanceof Map<?, ?> map) {
            return Optional.of(new ConfigTree(child(key), asStringMap(map)));
        }
        throw error(key, "must be a map");
    }

    /** A list of maps; empty when absent. */
    public List<ConfigTree> trees(String key) throws EngineConfigException {
        Object value = values.get(key);
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
        Object value = values.get(key);
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
