package dev.autocomplete.server.suggest;

import dev.autocomplete.server.memory.Generations;
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
import java.util.concurrent.atomic.LongAdder;

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
            // Without Objects.hash's array and boxes: the key is made on every request.
            int h = System.identityHashCode(product);
            h = 31 * h + Objects.hashCode(rawQuery);
            h = 31 * h + Objects.hashCode(fills);
            h = 31 * h + Objects.hashCode(dismissed);
            h = 31 * h + Objects.hashCode(context);
            h = 31 * h + Objects.hashCode(recent);
            h = 31 * h + Objects.hashCode(language);
            h = 31 * h + Objects.hashCode(today);
            h = 31 * h + Long.hashCode(dataGeneration);
            this.hash = 31 * h + Long.hashCode(learnedGeneration);
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

    /** How long an answer nobody asked for is kept at most (a reloaded tenant's old product is released). */
    static final Duration IDLE = Duration.ofMinutes(10);

    /** The answers; null when caching is off. */
    private final Generations<Key, SuggestResponse> answers;

    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /**
     * A cache of at most {@code maximumSize} responses (rounded up to an even count); 0 turns caching off. Kept in
     * {@link Generations} of half the size, the recent one replaced at the latest after half of {@link #IDLE}: so the
     * answers asked for least recently go first, and one not asked for in {@link #IDLE} is gone once answers are
     * added again.
     */
    public ResponseCache(long maximumSize) {
        this.answers = maximumSize <= 0
                ? null
                : new Generations<>((int) Math.min(Integer.MAX_VALUE, (maximumSize + 1) / 2), IDLE.toNanos() / 2);
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
        return new Lookup(key, get(key));
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
            answers.put(lookup.key(), response);
        }
    }

    private SuggestResponse get(Key key) {
        SuggestResponse answer = answers.get(key);
        (answer == null ? misses : hits).increment();
        return answer;
    }

    /** Whether responses of this product are cached at all. */
    private boolean caches(Product product) {
        return answers != null && product.cacheable();
    }

    /** Answers kept now (both generations). */
    long size() {
        return answers == null ? 0 : answers.size();
    }

    /** The share of lookups answered from the cache since start, 0 when none was made or caching is off. */
    public double hitRate() {
        long hit = hits.sum();
        long total = hit + misses.sum();
        return total == 0 ? 0 : (double) hit / total;
    }

    /** Lookups answered from the cache since start. */
    public long hits() {
        return hits.sum();
    }

    /** Lookups computed since start. */
    public long misses() {
        return misses.sum();
    }
}
