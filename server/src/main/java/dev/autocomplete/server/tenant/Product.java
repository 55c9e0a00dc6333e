package dev.autocomplete.server.tenant;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.server.catalogs.TenantCatalogs;
import dev.autocomplete.server.engines.GuardedEngine;
import dev.autocomplete.server.reading.ProductModel;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * One product of a tenant: how it reads queries, and the engines that serve its params.
 *
 * @param maxOptions the most options per suggestion in responses
 * @param zone the product's time zone: what "today" means for its engines
 * @param engines the product's engines, one per engine name its params use
 * @param enginesByType the engine of each param type
 * @param limits the time budget, fallback answer and circuit settings
 * @param dataGeneration grows whenever data the product serves changes (its live catalogs): keys cached answers
 */
public record Product(
        UUID id,
        String slug,
        int maxOptions,
        ZoneId zone,
        ProductModel model,
        List<GuardedEngine> engines,
        Map<String, GuardedEngine> enginesByType,
        EngineLimits limits,
        LongSupplier dataGeneration) {

    /** A product whose data never changes while it is loaded. */
    public Product(
            UUID id,
            String slug,
            int maxOptions,
            ZoneId zone,
            ProductModel model,
            List<GuardedEngine> engines,
            Map<String, GuardedEngine> enginesByType,
            EngineLimits limits) {
        this(id, slug, maxOptions, zone, model, engines, enginesByType, limits, () -> 0);
    }

    public Product {
        requireNonNull(id, "id is null");
        requireNonNull(slug, "slug is null");
        requireNonNull(zone, "zone is null");
        requireNonNull(model, "model is null");
        engines = List.copyOf(engines);
        enginesByType = Map.copyOf(enginesByType);
        requireNonNull(limits, "limits is null");
        requireNonNull(dataGeneration, "dataGeneration is null");
    }

    /**
     * Whether every param is served by the core's own option lists ({@link TenantCatalogs#SOURCE_NAME}), no
     * plug-in engine: its readings run on the request's thread ({@link
     * dev.autocomplete.server.engines.EngineRunner#runHere}).
     */
    public boolean coreOnly() {
        for (GuardedEngine engine : engines) {
            if (!engine.name().equals(TenantCatalogs.SOURCE_NAME)) {
                return false;
            }
        }
        return true;
    }

    /** Whether every engine's answers depend on the question alone, so whole responses may be cached. */
    public boolean cacheable() {
        for (GuardedEngine engine : engines) { // a loop: asked on every request, a stream each cost 1 % of one
            if (!engine.cacheable()) {
                return false;
            }
        }
        return true;
    }
}
