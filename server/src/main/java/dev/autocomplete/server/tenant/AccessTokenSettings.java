package dev.autocomplete.server.tenant;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.server.ratelimit.RateLimit;
import java.time.Duration;

/**
 * A tenant's {@code access_tokens} settings.
 *
 * @param lifetime how long a minted token works
 * @param rate the rate limit shared by every token of one product
 */
public record AccessTokenSettings(Duration lifetime, RateLimit rate) {

    public static final Duration DEFAULT_LIFETIME = Duration.ofMinutes(15);
    public static final Duration MIN_LIFETIME = Duration.ofSeconds(30);
    public static final Duration MAX_LIFETIME = Duration.ofHours(24);
    public static final AccessTokenSettings DEFAULT = new AccessTokenSettings(DEFAULT_LIFETIME, RateLimit.DEFAULT);

    public AccessTokenSettings {
        requireNonNull(lifetime, "lifetime is null");
        requireNonNull(rate, "rate is null");
    }
}
