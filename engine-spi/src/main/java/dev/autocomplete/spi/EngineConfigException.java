package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;

/**
 * An engine's configuration is invalid. The server reports it as {@code file:line: key: message}, finding
 * the line from {@link #key()}.
 */
public final class EngineConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String key;

    /**
     * @param key the full dotted path of the offending key inside the engine config, e.g.
     *     {@code intents[0].params[1].catalog}; empty for the config as a whole; never null
     * @param message what is wrong, without the key; never null
     */
    public EngineConfigException(String key, String message) {
        super(requireNonNull(message, "message is null"));
        this.key = requireNonNull(key, "key is null");
    }

    /** The full dotted path of the offending key; empty for the config as a whole. */
    public String key() {
        return key;
    }
}
