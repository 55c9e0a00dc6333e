package dev.autocomplete.server.auth;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a secret key may be used for. A secret key holds every use unless it was created with fewer
 * ({@code keys create --scopes}); a public key serves suggest requests only, whatever it holds.
 */
public enum KeyUse {
    /** {@code POST /api/suggest} and its telemetry, with the secret key itself. */
    SUGGEST,
    /** {@code POST /api/auth/token}: minting access tokens (which then serve their product's suggest requests). */
    TOKENS,
    /** The records API of live catalogs ({@code /api/catalogs/...}). */
    CATALOGS;

    public static final Set<KeyUse> ALL = Set.copyOf(EnumSet.allOf(KeyUse.class));

    /** As written in {@code keys.yaml}, in the store and on the command line. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static KeyUse fromWireName(String name) {
        for (KeyUse use : values()) {
            if (use.wireName().equals(name)) {
                return use;
            }
        }
        throw new IllegalArgumentException("a key use is one of " + names(ALL) + ", got '" + name + "'");
    }

    /** The uses, in declaration order, by their wire names. */
    public static List<String> names(Collection<KeyUse> uses) {
        List<String> names = new ArrayList<>();
        for (KeyUse use : values()) {
            if (uses.contains(use)) {
                names.add(use.wireName());
            }
        }
        return names;
    }

    /** Uses by their wire names; an empty list is refused, since a key with no use would be refused everywhere. */
    public static Set<KeyUse> parse(Collection<String> names) {
        EnumSet<KeyUse> uses = EnumSet.noneOf(KeyUse.class);
        for (String name : names) {
            uses.add(fromWireName(name.strip().toLowerCase(Locale.ROOT)));
        }
        if (uses.isEmpty()) {
            throw new IllegalArgumentException("name at least one use: " + String.join(", ", names(ALL)));
        }
        return Set.copyOf(uses);
    }
}
