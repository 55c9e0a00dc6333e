package dev.autocomplete.server.auth;

import java.util.Locale;

/** The two kinds of API key. */
public enum KeyType {
    /** {@code pk_v1_}: bound to one product, safe to ship in client code. */
    PUBLIC("pk_v1_"),
    /** {@code sk_v1_}: any product of its tenant; mints access tokens; never leaves the customer's servers. */
    SECRET("sk_v1_");

    private final String prefix;

    KeyType(String prefix) {
        this.prefix = prefix;
    }

    public String prefix() {
        return prefix;
    }

    /** As written in {@code keys.yaml} and on the command line. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static KeyType fromWireName(String name) {
        for (KeyType type : values()) {
            if (type.wireName().equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException("key type must be 'public' or 'secret', got '" + name + "'");
    }
}
