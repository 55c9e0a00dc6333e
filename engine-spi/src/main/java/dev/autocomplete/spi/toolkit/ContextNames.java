package dev.autocomplete.spi.toolkit;

import dev.autocomplete.spi.AdditionalContext;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which values an {@code additional_context} names for a param, by the protocol's rule: every string value
 * anywhere in the context, or element of an array in it, names an option, folded with
 * {@link TextFolding#fold}; but the values under a key that names a param type (compared folded, so
 * {@code home_city} and {@code home city} are one) count for that param only. Thread-safe; reads the
 * context as data and nothing else.
 */
public final class ContextNames {

    private ContextNames() {}

    /**
     * The folded values that {@code context} names for {@code paramType}.
     *
     * @param context the request's context
     * @param paramType the param whose options are ranked
     * @param allParamTypes every param type of the product, to tell param keys from other keys
     */
    public static Set<String> forParam(AdditionalContext context, String paramType, Set<String> allParamTypes) {
        Set<String> foldedTypes = new HashSet<>();
        allParamTypes.forEach(type -> foldedTypes.add(TextFolding.fold(type)));
        Set<String> names = new HashSet<>();
        collect(context.root(), TextFolding.fold(paramType), null, foldedTypes, names, 0);
        names.remove("");
        return names;
    }

    /**
     * Whether an option is among {@code foldedNames}: by its text, its name without a disambiguating detail
     * ({@link #baseName}), or one of its aliases.
     */
    public static boolean names(Set<String> foldedNames, String text, List<String> aliases) {
        if (foldedNames.contains(TextFolding.fold(text)) || foldedNames.contains(TextFolding.fold(baseName(text)))) {
            return true;
        }
        for (String alias : aliases) {
            if (foldedNames.contains(TextFolding.fold(alias))) {
                return true;
            }
        }
        return false;
    }

    /** An option's name without a disambiguating detail: {@code Lisbon} for {@code Lisbon, Portugal} or
     * {@code Lisbon (Portugal)}. */
    public static String baseName(String text) {
        int cut = text.length();
        int comma = text.indexOf(", ");
        int paren = text.indexOf(" (");
        if (comma > 0) {
            cut = comma;
        }
        if (paren > 0 && paren < cut) {
            cut = paren;
        }
        return text.substring(0, cut);
    }

    private static void collect(
            AdditionalContext.Value value,
            String param,
            String owner,
            Set<String> types,
            Set<String> names,
            int depth) {
        if (depth > 64) {
            return;
        }
        switch (value) {
            case AdditionalContext.Text text -> {
                if (owner == null || owner.equals(param)) {
                    names.add(TextFolding.fold(text.text()));
                }
            }
            case AdditionalContext.Items items ->
                items.items().forEach(item -> collect(item, param, owner, types, names, depth + 1));
            case AdditionalContext.Fields fields ->
                fields.fields().forEach((key, item) -> {
                    String folded = TextFolding.fold(key);
                    String nextOwner = owner == null && types.contains(folded) ? folded : owner;
                    collect(item, param, nextOwner, types, names, depth + 1);
                });
            default -> {}
        }
    }
}
