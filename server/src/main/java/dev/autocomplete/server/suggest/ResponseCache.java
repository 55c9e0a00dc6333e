package dev.autocomplete.server.suggest;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestResponse;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.spi.AdditionalContext;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Responses of products whose engines are all cacheable ({@link dev.autocomplete.spi.Engine#cacheable()}), keyed
 * by everything that shapes one except the envelope's ids and times: the product instance (so a reloaded tenant
 * starts afresh), {@code raw_query}, the fills, the dismissals, {@code additional_context}, the suggestions on
 * screen, {@code meta.language}, the product's today (engines read no clock: the core hands them the date) and
 * the generation of its data (a write to a live catalog makes earlier answers unreachable; read before the answer
 * is computed, so an answer is never filed under a newer generation than it saw), and the generation of what the
 * product learned from picks (applied at most once per learning interval, so the hit rate holds).
 * Bounded by entry count; entries idle for ten minutes go, so a reloaded tenant's old product is released. The
 * cached context is kept in memory only, never logged or written. Thread-safe.
 */
public final class ResponseCache {

    /**
     * The key: its hash computed once, when made (a record's is computed on every call, and the cache's map asks
     * for it on each lookup: the fills, dismissals and context hashed anew cost about 2 % of a cached answer).
     */
    static final class Key {
        private final Product product;
        private final String rawQuery;
        private final Map<String, SuggestRequest.Fill> fills;
        private final Set<String> dismissed;
        private final AdditionalContext context;
        private final List<SuggestRequest.SuggestionRef> recent;
        private final String language;
        private final LocalDate today;
        private final long dataGeneration;
        private final long learnedGeneration;
        private final int hash;

        Key(
                Product product,
                String rawQuery,
                Map<String, SuggestRequest.Fill> fills,
                Set<String> dismissed,
                AdditionalContext context,
                List<SuggestRequest.SuggestionRef> recent,
                String language,
                LocalDate today,
                long dataGeneration,
                long learnedGeneration) {
            this.product = product;
            this.rawQuery = rawQuery;
            this.fills = fills;
            this.dismissed = dismissed;
            this.context = context;
            this.recent = recent;
            this.language = language;
            this.today = today;
            this.dataGeneration = dataGeneration;
            this.learnedGeneration = learnedGeneration;
            // The product by identity, as equals compares it: a record whose hash walks its whole model.
            this.hash = 31 * System.identityHashCode(product)
                    + Objects.hash(
                            rawQuery,
                            fills,
                            dismissed,
                            context,
                            recent,
                            language,
                            today,
                            dataGeneration,
                            learnedGeneration);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key
                    && hash == key.hash
                    && product == key.product
                    && dataGeneration == key.dataGeneration
                    && learnedGeneration == key.learnedGeneration
                    && Objects.equals(rawQuery, key.rawQuery)
                    && Objects.equals(language, key.language)
                    && Objects.equals(today, key.today)
                    && Objects.equals(fills, key.fills)
                    && Objects.equals(dismissed, key.dismissed)
                    && Objects.equals(context, key.context)
                    && Objects.equals(recent, key.recent);
        }
    }

    private final Cache<Key, SuggestResponse> cache;

    /** A cache of at most {@code maximumSize} responses; 0 turns caching off. */
    public ResponseCache(long maximumSize) {
        this.cache = maximumSize <= 0
                ? null
                : Caffeine.newBuilder()
                        // Upkeep (replaying reads, evicting) on the caller's thread, in small amortized steps: on the
                        // default common pool it was a hand-off and a contended lock every few hundred hits.
                        .executor(Runnable::run)
                        .maximumSize(maximumSize)
                        .expireAfterAccess(Duration.ofMinutes(10))
                        .recordStats()
                        .build();
    }

    /**
     * What the cache holds for {@code request} on {@code product}: a hit, or the key a computed answer is filed under
     * ({@link #put}); neither when the product is not cached. A hit carries whatever envelope its first answer had:
     * callers set their own.
     */
    Lookup find(Product product, SuggestRequest request, LocalDate today, long learnedGeneration) {
        if (!caches(product)) {
            return Lookup.UNCACHED;
        }
        Key key = new Key(
                product,
                request.rawQuery(),
                request.fills(),
                request.dismissedTypes(),
                request.additionalContext(),
                request.recentlySuggested(),
                request.language(),
                today,
                product.dataGeneration().getAsLong(),
                learnedGeneration);
        return new Lookup(key, cache.getIfPresent(key));
    }

    /**
     * One look in the cache.
     *
     * @param key where an answer computed for the request is filed; null when the product is not cached
     * @param hit the kept answer; null on a miss
     */
    record Lookup(Key key, SuggestResponse hit) {
        static final Lookup UNCACHED = new Lookup(null, null);
    }

    /** Keeps an answer computed on a miss of {@code lookup}. */
    void put(Lookup lookup, SuggestResponse response) {
        if (lookup.key() != null) {
            cache.put(lookup.key(), response);
        }
    }

    /** Whether responses of this product are cached at all. */
    private boolean caches(Product product) {
        return cache != null && product.cacheable();
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
