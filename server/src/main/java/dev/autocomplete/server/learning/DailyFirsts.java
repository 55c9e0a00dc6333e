package dev.autocomplete.server.learning;

import dev.autocomplete.server.protocol.Offered;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which client addresses had which option of a product credited today (UTC), so that an option's ranking counts
 * distinct clients rather than repeated picks: the hourly share of picks per address stops a flood, but one address
 * could spend its whole share on one option, every hour, and lift it above what everyone else picks.
 *
 * <p>A Bloom filter of {@link #BITS} bits (4 MiB, made at the first pick) with {@link #HASHES} hashes: no flood of
 * addresses can make it forget one, and its error is one way only, a first pick now and then taken for a repeat (under
 * one in a thousand below a million pairs a day, one in fifty at four million). A cap of {@code n} a day is {@code n}
 * entries per pair, numbered. Cleared when the day changes. Thread-safe.
 */
final class DailyFirsts {

    /** Bits of the filter: a power of two. */
    static final int BITS = 1 << 25;

    static final int HASHES = 4;

    private static final long SECONDS_A_DAY = 86_400;

    private final int perDay;

    /** A day's filter. */
    private record Day(long number, AtomicLongArray bits) {}

    private volatile Day today;

    /** @param perDay picks credited per address, option and day; 0 for no such cap */
    DailyFirsts(int perDay) {
        this.perDay = perDay;
    }

    /**
     * Takes one of today's {@code perDay} credits of {@code option} for {@code address}, if one is left.
     *
     * @param product the tenant and product: an option is the same text in two products only by chance
     * @param folded the option's folded text
     * @return whether the pick may be ranked by: false once the address had its credits of the option today
     */
    boolean take(String address, Learning.ProductRef product, String folded, long nowSeconds) {
        if (perDay == 0) {
            return true;
        }
        AtomicLongArray filter = today(Math.floorDiv(nowSeconds, SECONDS_A_DAY));
        long pair = Offered.hash((address == null ? "" : address)
                + '\u0000'
                + product.tenant()
                + '\u0000'
                + product.product()
                + '\u0000'
                + folded);
        for (int credit = 0; credit < perDay; credit++) {
            if (add(filter, HourlyCounts.mix(pair + credit * 0x9e3779b97f4a7c15L))) {
                return true;
            }
        }
        return false;
    }

    /** The filter of day {@code number}; a pick read just before midnight by a slower thread counts to the next day. */
    private AtomicLongArray today(long number) {
        Day day = today;
        if (day == null || day.number() < number) {
            synchronized (this) {
                day = today;
                if (day == null || day.number() < number) {
                    day = new Day(number, new AtomicLongArray(BITS / Long.SIZE));
                    today = day;
                }
            }
        }
        return day.bits();
    }

    /** Sets the entry's bits; whether one of them was clear (the entry was not in the filter). */
    private static boolean add(AtomicLongArray filter, long hash) {
        int first = (int) hash;
        int step = (int) (hash >>> 32) | 1;
        boolean added = false;
        for (int i = 0; i < HASHES; i++) {
            int bit = (first + i * step) & (BITS - 1);
            long mask = 1L << bit;
            if ((filter.get(bit >>> 6) & mask) == 0) {
                added |= (filter.getAndAccumulate(bit >>> 6, mask, (a, b) -> a | b) & mask) == 0;
            }
        }
        return added;
    }
}
