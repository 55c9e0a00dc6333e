package dev.autocomplete.server.ratelimit;

/**
 * A token bucket: {@code perSecond} requests a second on average, up to {@code burst} at once.
 */
public record RateLimit(long perSecond, long burst) {

    /** Every public key, secret key and token product gets this unless configured otherwise. */
    public static final RateLimit DEFAULT = new RateLimit(20, 40);

    public RateLimit {
        if (perSecond < 1 || burst < 1) {
            throw new IllegalArgumentException("a rate limit needs at least 1 request a second and a burst of 1");
        }
        if (burst < perSecond) {
            throw new IllegalArgumentException(
                    "the burst (" + burst + ") must be at least the rate (" + perSecond + ")");
        }
    }

    /** {@code N} or {@code N/s} requests a second; the burst is twice the rate unless given. */
    public static RateLimit parse(String rate, Long burst) {
        String text = rate.strip();
        if (text.endsWith("/s")) {
            text = text.substring(0, text.length() - 2);
        }
        long perSecond;
        try {
            perSecond = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rate must be a whole number of requests a second, like 20 or 20/s");
        }
        return new RateLimit(perSecond, burst != null ? burst : Math.max(1, perSecond * 2));
    }
}
