package dev.autocomplete.server.auth;

import dev.autocomplete.server.ratelimit.RateLimit;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * What a key may do beyond naming its tenant and product.
 *
 * @param origins browser origins the key serves; empty means any origin
 * @param allowNoOrigin whether requests without an {@code Origin} header (servers, curl) are served
 * @param expiresAt when the key stops working, or null for never
 * @param rate the key's own rate limit, or null for the default
 * @param uses what a secret key may be used for ({@link KeyUse#ALL} unless restricted); not empty
 */
public record KeyScope(
        List<OriginPattern> origins, boolean allowNoOrigin, Instant expiresAt, RateLimit rate, Set<KeyUse> uses) {

    /** No restriction beyond the defaults. */
    public static final KeyScope DEFAULT = new KeyScope(List.of(), true, null, null, KeyUse.ALL);

    public KeyScope {
        origins = List.copyOf(origins);
        uses = Set.copyOf(uses);
        if (uses.isEmpty()) {
            throw new IllegalArgumentException("a key needs at least one use");
        }
    }

    /** Whether a secret key may be used for {@code use}. */
    public boolean allows(KeyUse use) {
        return uses.contains(use);
    }

    /** Whether the key holds fewer than every use. */
    public boolean restricted() {
        return !uses.containsAll(KeyUse.ALL);
    }

    /** Whether a request with this {@code Origin} header (null when absent) may use the key. */
    public boolean allowsOrigin(String origin) {
        if (origin == null) {
            return allowNoOrigin;
        }
        return origins.isEmpty() || origins.stream().anyMatch(pattern -> pattern.matches(origin));
    }

    public boolean expiredAt(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    public RateLimit rateOrDefault() {
        return rate != null ? rate : RateLimit.DEFAULT;
    }
}
