package dev.autocomplete.server.ratelimit;

/**
 * The outcome of taking one request from a bucket, with what the {@code RateLimit-*} headers report.
 *
 * @param remaining requests left in the bucket now
 * @param retryAfterSeconds whole seconds until a refused request may be retried (0 when allowed)
 * @param resetSeconds whole seconds until the bucket is full again
 */
public record RateDecision(
        boolean allowed, RateLimit limit, long remaining, long retryAfterSeconds, long resetSeconds) {

    static long seconds(long nanos) {
        return nanos <= 0 ? 0 : (nanos + 999_999_999L) / 1_000_000_000L;
    }
}
