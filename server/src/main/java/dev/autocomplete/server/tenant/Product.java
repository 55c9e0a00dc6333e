package dev.autocomplete.server.tenant;

import static java.util.Objects.requireNonNull;

import java.util.UUID;

import dev.autocomplete.spi.Engine;

/**
 * One product of a tenant, with its running engine.
 *
 * @param maxOptions the most options per suggestion in responses
 * @param limits the engine's time budget, fallback answer and circuit settings
 */
public record Product(UUID id, String slug, String engineName, int maxOptions, Engine engine, EngineLimits limits) {

    public Product {
        requireNonNull(id, "id is null");
        requireNonNull(slug, "slug is null");
        requireNonNull(engineName, "engineName is null");
        requireNonNull(engine, "engine is null");
        requireNonNull(limits, "limits is null");
    }
}
