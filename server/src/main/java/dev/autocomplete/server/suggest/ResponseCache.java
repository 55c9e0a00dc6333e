package dev.autocomplete.server.suggest;

import dev.autocomplete.server.memory.Generations;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestRequestReader;
import dev.autocomplete.server.protocol.SuggestResponse;
import dev.autocomplete.server.tenant.Product;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Objects;

/**
 * Responses of products whose engines are all cacheable ({@link dev.autocomplete.spi.Engine#cacheable()}), keyed
 * by everything that shapes one except the envelope's ids and times: the product instance (so a reloaded tenant
 * starts afresh), the bytes of the body's {@code data} without its {@code identified_params} (so {@code raw_query},
 * the fills, the dismissals, {@code additional_context} and the suggestions on screen, as sent:
 * {@link SuggestRequestReader.Keyed}), {@code meta.language}, the product's today (engines read no clock: the core
 * hands them the date) and the generation of its data (a write to a live catalog makes earlier answers unreachable;
 * read before the answer is computed, so an answer is never filed under a newer generation than it saw), and the
 * generation of what the product learned from picks (applied at most once per learning interval, so the hit rate
 * holds). A hit is found before {@code data} is read: the request read for the kept answer is kept with it.
 * Bounded by entry count and by bytes ({@link #defaultMaxBytes()}: a body may carry up to the body limit in
 * {@code data}, all of it kept in the key, so a client sending distinct padded bodies filled 380 MB of heap with
 * 6,000 answers, on the way to an out-of-memory error at the default 20,000); entries idle for ten minutes go, so a
 * reloaded tenant's old product is released. The cached context is kept in memory only, never logged or written.
 * Hits and misses are counted per product by the metrics ({@code autocomplete_cache_lookups_total}), from
 * {@link Suggester.Outcome#cache()}, not here as well: every request wrote a counter of its own, from either core.
 * Thread-safe.
 */
public final class ResponseCache {

    /**
     * The key: its hash computed once, when made. The body's {@code data} is one array compared whole: a key of the
     * request's read fields cost their reading on every hit, and a lookup read each of them from memory.
     */
    static final class Key {
        private final Product product;
        private final byte[] data;
        private final String language;
        private final LocalDate today;
        private final long dataGeneration;
        private final long learnedGeneration;
        private final int hash;

        Key(
                Product product,
                SuggestRequestReader.Keyed body,
                LocalDate today,
                long dataGeneration,
                long learnedGeneration) {
            this.product = product;
            this.data = body.data();
            this.language = body.language();
            this.today = today;
            this.dataGeneration = dataGeneration;
            this.learnedGeneration = learnedGeneration;
            // The product by identity, as equals compares it: a record whose hash walks its whole model.
            // Without Objects.hash's array and boxes: the key is made on every request.
            int h = System.identityHashCode(product);
            h = 31 * h + body.hash();
            h = 31 * h + Objects.hashCode(language);
            h = 31 * h + Objects.hashCode(today);
            h = 31 * h + Long.hashCode(dataGeneration);
            this.hash = 31 * h + Long.hashCode(learnedGeneration);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        /** Today and the language are compared by identity first: one instance a day ({@link Today}), and per tag. */
        @Override
        public boolean equals(Object other) {
            return other instanceof Key key
                    && hash == key.hash
                    && product == key.product
                    && dataGeneration == key.dataGeneration
                    && learnedGeneration == key.learnedGeneration
                    && Objects.equals(language, key.language)
                    && Objects.equals(today, key.today)
                    && Arrays.equals(data, key.data);
        }
    }

    /**
     * A kept answer and the request read for it (its envelope that of the first asker), with what it is taken to weigh
     * in bytes.
     */
    record Kept(SuggestRequest request, SuggestResponse response, long bytes) {}

    /**
     * What one kept answer is taken to weigh besides its body's {@code data}: the answer (a few options' texts), its
     * bytes once sent, and the objects around them. Generous: it only bounds the cache under large bodies.
     */
    static final long ANSWER_BYTES = 2048;

    /**
     * The largest byte budget by default: far above what 20,000 answers to keystrokes weigh by {@link #weight} (about
     * 50 MB).
     */
    static final long MOST_BYTES = 128L << 20;

    /** How long an answer nobody asked for is kept at most (a reloaded tenant's old product is released). */
    static final Duration IDLE = Duration.ofMinutes(10);

    /** The answers; null when caching is off. */
    private final Generations<Key, Kept> answers;

    /**
     * A cache of at most {@code maximumSize} responses (rounded up to an even count); 0 turns caching off. Kept in
     * {@link Generations} of half the size, the recent one replaced at the latest after half of {@link #IDLE}: so the
     * answers asked for least recently go first, and one not asked for in {@link #IDLE} is gone once answers are
     * added again.
     */
    public ResponseCache(long maximumSize) {
        this(maximumSize, defaultMaxBytes());
    }

    /**
     * A cache of at most {@code maximumSize} responses and about {@code maxBytes} of them ({@link #weight}), half of
     * each per generation.
     */
    ResponseCache(long maximumSize, long maxBytes) {
        this.answers = maximumSize <= 0
                ? null
                : new Generations<>(
                        (int) Math.min(Integer.MAX_VALUE, (maximumSize + 1) / 2),
                        IDLE.toNanos() / 2,
                        Math.max(1, maxBytes / 2),
                        Kept::bytes);
    }

    /** The byte budget: an eighth of the heap, at most {@link #MOST_BYTES}. */
    static long defaultMaxBytes() {
        return Math.min(MOST_BYTES, Runtime.getRuntime().maxMemory() / 8);
    }

    /**
     * What an answer kept for a body of {@code dataBytes} in {@code data} weighs: the key holds those bytes, and the
     * request read from them holds their strings (up to twice the bytes: a string of text beyond Latin-1 takes two a
     * character), besides {@link #ANSWER_BYTES}.
     */
    static long weight(int dataBytes) {
        return 3L * dataBytes + ANSWER_BYTES;
    }

    /**
     * What the cache holds for a body of {@code product} ({@link SuggestRequestReader#keyed}): a hit, or the key a
     * computed answer is filed under ({@link #put}); neither when the product is not cached or the body has no key. A
     * hit carries the envelope of its first answer: callers set their own.
     */
    Lookup find(Product product, SuggestRequestReader.Keyed body, LocalDate today, long learnedGeneration) {
        if (body == null || !caches(product)) {
            return Lookup.UNCACHED;
        }
        Key key = new Key(product, body, today, product.dataGeneration().getAsLong(), learnedGeneration);
        return new Lookup(key, answers.get(key));
    }

    /**
     * One look in the cache.
     *
     * @param key where an answer computed for the request is filed; null when the product is not cached
     * @param hit the kept answer; null on a miss
     */
    record Lookup(Key key, Kept hit) {
        static final Lookup UNCACHED = new Lookup(null, null);
    }

    /**
     * Keeps an answer computed on a miss of {@code lookup}, and the request it was computed for, with its {@code data}
     * written ({@link SuggestResponse#written()}), so no hit writes it.
     *
     * @return the answer as kept, its {@code data} written, for the request that computed it to send; {@code response}
     *     itself when nothing is kept (the product is not cached)
     */
    SuggestResponse put(Lookup lookup, SuggestRequest request, SuggestResponse response) {
        if (lookup.key() == null) {
            return response;
        }
        SuggestResponse kept = response.written();
        answers.put(lookup.key(), new Kept(request, kept, weight(lookup.key().data.length)));
        return kept;
    }

    /** Whether responses of this product are cached at all. */
    boolean caches(Product product) {
        return answers != null && product.cacheable();
    }

    /** Answers kept now (both generations). */
    long size() {
        return answers == null ? 0 : answers.size();
    }
}
