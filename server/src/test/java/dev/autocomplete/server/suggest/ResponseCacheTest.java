package dev.autocomplete.server.suggest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.engines.GuardedEngine;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestResponse;
import dev.autocomplete.server.reading.Localized;
import dev.autocomplete.server.reading.ProductModel;
import dev.autocomplete.server.tenant.EngineLimits;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.spi.AdditionalContext;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What the response cache keys on, and what it never caches. */
class ResponseCacheTest {

    private static final LocalDate TODAY = LocalDate.of(2026, 11, 22);

    private static Product product(boolean cacheable) {
        Engine engine = new Engine() {
            @Override
            public Set<String> paramTypes() {
                return Set.of("city");
            }

            @Override
            public boolean cacheable() {
                return cacheable;
            }

            @Override
            public List<SpanMatch> match(Ask ask, List<String> spans) {
                return spans.stream().map(s -> SpanMatch.NONE).toList();
            }

            @Override
            public List<Option> options(Ask ask, String typed) {
                return List.of();
            }
        };
        GuardedEngine guarded = new GuardedEngine(
                "t",
                "travel",
                "catalog",
                engine,
                ResponseCacheTest.class.getClassLoader(),
                5,
                Duration.ofSeconds(30),
                false);
        ProductModel model = new ProductModel(Localized.of("Go"), List.of());
        return new Product(
                UUID.randomUUID(),
                "travel",
                10,
                java.time.ZoneOffset.UTC,
                model,
                List.of(guarded),
                Map.of("city", guarded),
                EngineLimits.DEFAULTS);
    }

    private static final Product CACHEABLE = product(true);

    private static SuggestRequest request(String raw, AdditionalContext context, String requestId, String language) {
        return new SuggestRequest(
                raw,
                Map.of(),
                Set.of(),
                context,
                List.of(),
                List.of(),
                requestId,
                "2026-11-22T10:00:00Z",
                null,
                language);
    }

    private static SuggestResponse lookUp(
            ResponseCache cache, Product product, SuggestRequest request, LocalDate today, AtomicInteger calls) {
        ResponseCache.Lookup lookup = cache.find(product, request, today, 0);
        if (lookup.hit() != null) {
            return lookup.hit();
        }
        calls.incrementAndGet();
        SuggestResponse answer = new SuggestResponse("", null, List.of(), false, null, null, null);
        cache.put(lookup, answer);
        return answer;
    }

    @Test
    void a_request_that_differs_only_in_meta_ids_is_a_hit() {
        ResponseCache cache = new ResponseCache(100);
        AtomicInteger calls = new AtomicInteger();
        lookUp(cache, CACHEABLE, request("lon", AdditionalContext.NONE, "a", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("lon", AdditionalContext.NONE, "b", "en"), TODAY, calls);
        assertEquals(1, calls.get());
        assertEquals(0.5, cache.hitRate());
    }

    @Test
    void query_context_language_and_today_each_shape_the_key() {
        ResponseCache cache = new ResponseCache(100);
        AtomicInteger calls = new AtomicInteger();
        AdditionalContext lyon = new AdditionalContext(
                new AdditionalContext.Fields(Map.of("home_city", new AdditionalContext.Text("Lyon"))));
        lookUp(cache, CACHEABLE, request("lon", AdditionalContext.NONE, "a", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("lond", AdditionalContext.NONE, "a", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("lon", lyon, "a", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("lon", AdditionalContext.NONE, "a", "fr"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("lon", AdditionalContext.NONE, "a", "en"), TODAY.plusDays(1), calls);
        assertEquals(5, calls.get());
        assertEquals(0, cache.hits());
    }

    @Test
    void uncacheable_engines_and_a_zero_size_cache_always_compute() {
        AtomicInteger calls = new AtomicInteger();
        ResponseCache cache = new ResponseCache(100);
        Product live = product(false);
        lookUp(cache, live, request("to", AdditionalContext.NONE, "a", null), TODAY, calls);
        lookUp(cache, live, request("to", AdditionalContext.NONE, "a", null), TODAY, calls);
        ResponseCache off = new ResponseCache(0);
        lookUp(off, CACHEABLE, request("to", AdditionalContext.NONE, "a", null), TODAY, calls);
        lookUp(off, CACHEABLE, request("to", AdditionalContext.NONE, "a", null), TODAY, calls);
        assertEquals(4, calls.get());
        assertEquals(0, off.hitRate());
    }

    @Test
    void the_answer_asked_for_least_recently_goes_first_and_the_size_stays_bounded() {
        ResponseCache cache = new ResponseCache(4);
        AtomicInteger calls = new AtomicInteger();
        lookUp(cache, CACHEABLE, request("a", AdditionalContext.NONE, "1", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("b", AdditionalContext.NONE, "1", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("a", AdditionalContext.NONE, "2", "en"), TODAY, calls); // a asked again
        lookUp(cache, CACHEABLE, request("c", AdditionalContext.NONE, "1", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("d", AdditionalContext.NONE, "1", "en"), TODAY, calls);
        assertEquals(4, calls.get());
        lookUp(cache, CACHEABLE, request("a", AdditionalContext.NONE, "3", "en"), TODAY, calls);
        assertEquals(4, calls.get(), "a, asked lately, is kept");
        lookUp(cache, CACHEABLE, request("b", AdditionalContext.NONE, "2", "en"), TODAY, calls);
        assertEquals(5, calls.get(), "b, asked least recently, went first");
        for (int i = 0; i < 1_000; i++) {
            lookUp(cache, CACHEABLE, request("q" + i, AdditionalContext.NONE, "1", "en"), TODAY, calls);
            assertTrue(cache.size() <= 4, "kept " + cache.size());
        }
        assertEquals(2, cache.hits());
        assertEquals(1_005, cache.misses());
    }
}
