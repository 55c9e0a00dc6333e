package dev.autocomplete.server.protocol;

import dev.autocomplete.spi.toolkit.TextFolding;
import java.util.List;

/**
 * What one answer offered that picks may be credited to: per suggestion, its param type and the hashes of its
 * options' folded texts ({@link #hash}); options the context supplied, untappable ones and params that do not
 * learn are left out. Kept with a cached answer, so that a hit is remembered for the session as a miss is. Not part
 * of the response's value (every instance is equal, like {@link SuggestResponse.DataBytes}). Immutable.
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

    public Offered(List<Offer> offers) {
        this.offers = List.copyOf(offers);
    }

    public List<Offer> offers() {
        return offers;
    }

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    /** A 64-bit FNV-1a hash of a folded text: what the session memory keeps instead of the text. */
    public static long hash(String folded) {
        long hash = FNV_OFFSET;
        for (int i = 0; i < folded.length(); i++) {
            hash ^= folded.charAt(i);
            hash *= FNV_PRIME;
        }
        return hash;
    }

    /**
     * {@code hash(TextFolding.fold(text))}, without making the folded string when the text is ASCII (most option
     * texts): folded as {@link TextFolding#fold} folds ASCII, lower case with runs of other characters as one space,
     * trimmed, and hashed as it goes. Every option an uncached answer offers is hashed so.
     */
    public static long hashFolded(String text) {
        long hash = FNV_OFFSET;
        boolean gap = false;
        boolean any = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                return hash(TextFolding.fold(text));
            }
            boolean word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
            if (!word) {
                gap = true;
                continue;
            }
            if (gap && any) {
                hash = (hash ^ ' ') * FNV_PRIME;
            }
            gap = false;
            any = true;
            hash = (hash ^ (c <= 'Z' && c >= 'A' ? c + 32 : c)) * FNV_PRIME;
        }
        return hash;
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
