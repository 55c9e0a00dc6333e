package dev.autocomplete.server.protocol;

import dev.autocomplete.index.Folding;
import java.util.List;

/**
 * What one answer offered that picks may be credited to: per suggestion, its param type and the hashes of its
 * options' folded texts ({@link #hash}); options the context supplied and untappable ones are left out (those of
 * params that do not learn are kept: their picks count for analytics only). Kept with a cached answer, so that a hit is remembered for the session as a miss is. Not part
 * of the response's value (every instance is equal). Immutable.
 */
public final class Offered {

    /** Nothing to credit. */
    public static final Offered NONE = new Offered(List.of());

    /**
     * One suggestion's offer.
     *
     * @param type the param type
     * @param first whether it was the answer's first suggestion with options to pick (the active param)
     * @param options hashes of the folded option texts
     */
    public record Offer(String type, boolean first, long[] options) {}

    private final List<Offer> offers;

    private Offered(List<Offer> offers) {
        this.offers = List.copyOf(offers);
    }

    /** What an answer offered: {@link #NONE} when nothing. */
    public static Offered of(List<Offer> offers) {
        return offers.isEmpty() ? NONE : new Offered(offers);
    }

    public List<Offer> offers() {
        return offers;
    }

    /**
     * Whether nothing was offered. {@link #NONE} is the only such instance, so this reads nothing from memory: asked of
     * a cached answer's offers on every hit, which are seldom in the processor's cache.
     */
    public boolean isEmpty() {
        return this == NONE;
    }

    /** A 64-bit FNV-1a hash of a folded text: what the session memory keeps instead of the text. */
    public static long hash(String folded) {
        return Folding.hash(folded);
    }

    /**
     * {@code hash(TextFolding.fold(text))}, without making the folded string when the text is ASCII (most option
     * texts). Every option an uncached answer offers is hashed so.
     */
    public static long hashFolded(String text) {
        return Folding.foldedHash(text);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Offered;
    }

    @Override
    public int hashCode() {
        return 0;
    }

    @Override
    public String toString() {
        return "Offered[" + offers.size() + "]";
    }
}
