package dev.autocomplete.server.ratelimit;

import java.time.Instant;

/**
 * Where rate limits are kept right now, for logs and the health output.
 *
 * @param mode {@code local} (no Redis configured), {@code redis} (shared through Redis) or {@code local-fallback}
 *        (Redis configured but unreachable: per-process limits until it returns)
 * @param redis the Redis address ({@code host:port}, never a password), or null
 * @param since when this mode began
 */
public record RateLimitStatus(String mode, String redis, Instant since) {

    public boolean degraded() {
        return mode.equals("local-fallback");
    }

    /** One line for the log or a health check. */
    public String describe() {
        return switch (mode) {
            case "redis" -> "shared through Redis at " + redis;
            case "local-fallback" ->
                "per process: Redis at " + redis + " unreachable since " + since + "; shared again when it returns";
            default -> "per process (no Redis configured)";
        };
    }
}
