package dev.autocomplete.server.suggest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestResponse;
import dev.autocomplete.server.tenant.EngineLimits;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Query;
import dev.autocomplete.spi.Reading;

/** What the response cache keys on, and what it never caches. */
class ResponseCacheTest {

    private static final Engine ENGINE = new Engine() {
        @Override
        public Reading read(Query query) {
            return new Reading(null, List.of(), null, List.of());
        }

        @Override
        public Set<String> paramTypes() {
            return Set.of();
        }
    };

    private static final Product CATALOG =
            new Product(UUID.randomUUID(), "travel", "catalog", 10, ENGINE, EngineLimits.DEFAULTS);

    private static SuggestRequest request(String raw, Object context, String requestId, String language) {
        return new SuggestRequest(raw, Map.of(), Set.of(), context, List.of(), List.of(), requestId,
                "2026-11-22T10:00:00Z", null, language);
    }

    private static SuggestResponse answer(AtomicInteger calls) {
        calls.incrementAndGet();
        return new SuggestResponse("", null, List.of(), false, null, null, null);
    }

    @Test
    void a_request_that_differs_only_in_meta_ids_is_a_hit() {
        ResponseCache cache = new ResponseCache(100);
        AtomicInteger calls = new AtomicInteger();
        cache.get(CATALOG, request("lon", null, "a", "en"), () -> answer(calls));
        cache.get(CATALOG, request("lon", null, "b", "en"), () -> answer(calls));
        assertEquals(1, calls.get());
        assertEquals(0.5, cache.hitRate());
    }

    @Test
    void query_context_and_language_each_shape_the_key() {
        ResponseCache cache = new ResponseCache(100);
        AtomicInteger calls = new AtomicInteger();
        cache.get(CATALOG, request("lon", null, "a", "en"), () -> answer(calls));
        cache.get(CATALOG, request("lond", null, "a", "en"), () -> answer(calls));
        cache.get(CATALOG, request("lon", Map.of("home_city", "Lyon"), "a", "en"), () -> answer(calls));
        cache.get(CATALOG, request("lon", null, "a", "fr"), () -> answer(calls));
        assertEquals(4, calls.get());
        assertEquals(0, cache.hits());
    }

    @Test
    void plug_in_engines_and_a_zero_size_cache_always_compute() {
        AtomicInteger calls = new AtomicInteger();
        ResponseCache cache = new ResponseCache(100);
        Product plugin = new Product(UUID.randomUUID(), "dates", "date", 10, ENGINE, EngineLimits.DEFAULTS);
        cache.get(plugin, request("to", null, "a", null), () -> answer(calls));
        cache.get(plugin, request("to", null, "a", null), () -> answer(calls));
        ResponseCache off = new ResponseCache(0);
        off.get(CATALOG, request("to", null, "a", null), () -> answer(calls));
        off.get(CATALOG, request("to", null, "a", null), () -> answer(calls));
        assertEquals(4, calls.get());
        assertEquals(0, off.hitRate());
    }
}
