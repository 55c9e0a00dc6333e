package dev.autocomplete.server.http;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

import dev.autocomplete.server.ratelimit.RateLimit;

/**
 * How the server protects itself: where rate limits live, where the token signing secret comes from, the
 * clock tokens and key expiry are judged by (and what "today" is for the products' engines), and how fast one
 * client address may fail to authenticate.
 *
 * @param redis {@code redis://host:port} to share rate limits across replicas, or null for per-process limits
 * @param environment the environment variables to read the signing secret from
 * @param tokenSecretFile a file holding the signing secret, or null
 * @param failedAuthentication the bucket of failed authentications per client address
 */
public record AccessOptions(URI redis, Map<String, String> environment, Path tokenSecretFile, Clock clock,
        RateLimit failedAuthentication) {

    /** Twenty failures at once, then one a second: plenty for a typo, hopeless for guessing keys. */
    public static final RateLimit DEFAULT_FAILED_AUTHENTICATION = new RateLimit(1, 20);

    public AccessOptions {
        requireNonNull(environment, "environment is null");
        requireNonNull(clock, "clock is null");
        requireNonNull(failedAuthentication, "failedAuthentication is null");
        environment = Map.copyOf(environment);
    }

    /** Per-process limits, the secret from this process's environment or generated, the system clock. */
    public static AccessOptions defaults() {
        return new AccessOptions(null, System.getenv(), null, Clock.systemUTC(), DEFAULT_FAILED_AUTHENTICATION);
    }

    public AccessOptions withRedis(URI uri) {
        return new AccessOptions(uri, environment, tokenSecretFile, clock, failedAuthentication);
    }

    public AccessOptions withTokenSecretFile(Path file) {
        return new AccessOptions(redis, environment, file, clock, failedAuthentication);
    }

    public AccessOptions withEnvironment(Map<String, String> env) {
        return new AccessOptions(redis, env, tokenSecretFile, clock, failedAuthentication);
    }

    public AccessOptions withClock(Clock newClock) {
        return new AccessOptions(redis, environment, tokenSecretFile, newClock, failedAuthentication);
    }
}
