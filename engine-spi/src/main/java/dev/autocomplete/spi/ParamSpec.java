package dev.autocomplete.spi;

import static java.util.Objects.requireNonNull;

/**
 * A param of the product that names this engine, as {@code tenant.yaml} declares it.
 *
 * @param type the param type, e.g. {@code departure_date}; letters, digits, {@code _} and single spaces
 * @param config the param's own settings for its engine: every key of the param in {@code tenant.yaml} that the
 *     server does not read itself (for the built-in catalog, {@code catalog} or {@code options}); errors built
 *     from it name their line in {@code tenant.yaml}; never null
 */
public record ParamSpec(String type, ConfigTree config) {

    public ParamSpec {
        requireNonNull(type, "type is null");
        requireNonNull(config, "config is null");
    }
}
