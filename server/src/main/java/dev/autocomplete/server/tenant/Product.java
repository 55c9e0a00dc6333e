package dev.autocomplete.server.tenant;

import static java.util.Objects.requireNonNull;

import java.util.UUID;

import dev.autocomplete.spi.Engine;

/**
 * One product of a tenant, with its running engine.
 *
 * @param maxOptions the most options per suggestion in responses
 */
public record Product(UUID id, String slug, String engineName, int maxOptions, Engine engine) {

    public Product {
        requireNonNull(id, "id is null");
        requireNonNull(slug, "slug is null");
        requireNonNull(engineName, "engineName is null");
        requireNonNull(engine, "engine is null");
    }
}
