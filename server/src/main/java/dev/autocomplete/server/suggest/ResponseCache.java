package dev.autocomplete.server.suggest;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestResponse;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Query;

/**
 * Responses of the built-in catalog engine, keyed by everything that shapes one except the envelope's ids
 * and times: the engine instance, the option limit, {@code raw_query}, the fills, the dismissals,
 * {@code additional_context}, the echoes and {@code meta.language}. The catalog engine is a pure function of
 * those, so a hit is exact; plug-in engines may read the clock (the date engine does) and are never cached.
 * Bounded by entry count; entries idle for ten minutes go, so a reloaded tenant's old engine is released.
 * The cached context is kept in memory only, never logged or written. Thread-safe.
 */
public final class ResponseCache {

    private static final String CACHED_ENGINE = "catalog";

    private record Key(Engine engine, int maxOptions, String rawQuery, Map<String, SuggestRequest.Fill> fills,
            Set<String> dismissed, Object context, List<Query.EchoedParam> echo, List<Query.SuggestionRef> recent,
            String language) {
    }

    private final Cache<Key, SuggestResponse> cache;

    /** A cache of at most {@code maximumSize} responses; 0 turns caching off. */
    public ResponseCache(long maximumSize) {
        this.cache = maximumSize <= 0 ? null : Caffeine.newBuilder()
                // Upkeep (replaying reads, evicting) on the caller's thread, in small amortized steps: on the
                // default common pool it was a hand-off and a contended lock every few hundred hits.
                .executor(Runnable::run)
                .maximumSize(maximumSize)
                .expireAfterAccess(Duration.ofMinutes(10))
                .recordStats()
                .build();
    }

    /**
     * The response for {@code request} on {@code product}, computed by {@code answer} on a miss. The
     * returned response carries whatever envelope {@code answer} gave the first time: callers set their own.
     * Exceptions of {@code answer} propagate and nothing is cached.
     */
    SuggestResponse get(Product product, SuggestRequest request, Supplier<SuggestResponse> answer) {
        if (!caches(product)) {
            return answer.get();
        }
        Key key = new Key(product.engine(), product.maxOptions(), request.rawQuery(), request.fills(),
                request.dismissedTypes(), request.additionalContext(), request.identifiedEcho(),
                request.recentlySuggested(), request.language());
        return cache.get(key, k -> answer.get());
    }

    /** Whether responses of this product are cached at all. */
    boolean caches(Product product) {
        return cache != null && CACHED_ENGINE.equals(product.engineName());
    }

    /** The share of lookups answered from the cache since start, 0 when none was made or caching is off. */
    public double hitRate() {
        return cache == null ? 0 : cache.stats().hitRate();
    }

    /** Lookups answered from the cache since start. */
    public long hits() {
        return cache == null ? 0 : cache.stats().hitCount();
    }

    /** Lookups computed since start. */
    public long misses() {
        return cache == null ? 0 : cache.stats().missCount();
    }
}
