package dev.autocomplete.server.analytics;

/**
 * The fixed buckets suggest latency is counted in, per hour: replicas' counts add up bucket by bucket, and p50 and
 * p99 are read from the summed counts as the upper bound of the bucket the quantile falls in (within a bucket's width:
 * about a third of the value).
 */
final class Latency {

    /** Upper bounds in milliseconds; the last bucket holds everything slower. */
    static final double[] BOUNDS_MS = {
        0.5,
        1,
        2,
        3,
        5,
        7.5,
        10,
        15,
        20,
        30,
        50,
        75,
        100,
        150,
        200,
        300,
        500,
        750,
        1000,
        2000,
        5000,
        Double.POSITIVE_INFINITY
    };

    private Latency() {}

    /** The bucket of a duration. */
    static int bucket(long nanos) {
        double millis = nanos / 1e6;
        for (int i = 0; i < BOUNDS_MS.length; i++) {
            if (millis <= BOUNDS_MS[i]) {
                return i;
            }
        }
        return BOUNDS_MS.length - 1;
    }

    /** The counter name of a bucket in the store. */
    static String name(int bucket) {
        return NAMES[bucket];
    }

    /** The names, made once: formatting one per answered request cost 0.5 % of a cached answer's CPU. */
    private static final String[] NAMES = new String[BOUNDS_MS.length];

    static {
        for (int i = 0; i < NAMES.length; i++) {
            NAMES[i] = String.format(java.util.Locale.ROOT, "latency_%02d", i);
        }
    }

    /** The bucket of a counter name, or -1 when it is not a latency counter. */
    static int bucketOf(String name) {
        if (!name.startsWith("latency_")) {
            return -1;
        }
        try {
            int bucket = Integer.parseInt(name.substring("latency_".length()));
            return bucket >= 0 && bucket < BOUNDS_MS.length ? bucket : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The quantile {@code q} of the counts, in milliseconds: the upper bound of its bucket (the slowest bucket's lower
     * bound, as it has none); null without any count.
     */
    static Double quantile(long[] counts, double q) {
        long total = 0;
        for (long count : counts) {
            total += count;
        }
        if (total == 0) {
            return null;
        }
        long wanted = (long) Math.ceil(q * total);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= Math.max(1, wanted)) {
                return Double.isInfinite(BOUNDS_MS[i]) ? BOUNDS_MS[i - 1] : BOUNDS_MS[i];
            }
        }
        return BOUNDS_MS[BOUNDS_MS.length - 2];
    }
}
