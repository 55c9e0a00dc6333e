package dev.autocomplete.server.http;

import dev.autocomplete.server.auth.ApiKeys;
import dev.autocomplete.server.auth.KeyRecord;
import dev.autocomplete.server.auth.KeyRegistry;
import dev.autocomplete.server.auth.KeyScope;
import dev.autocomplete.server.auth.KeyType;
import dev.autocomplete.server.auth.KeyUse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The public keys the console's try-it client uses: minted on demand, one per product at a time, valid for
 * {@link #LIFETIME}, held only in this process's memory (as {@code serve}'s demo keys are) and never written
 * anywhere. A key is reused while it has more than {@link #RENEW_BEFORE} left, then replaced, so that however often
 * the page asks, a product has one console key. Thread-safe.
 */
final class ConsoleKeys {

    static final Duration LIFETIME = Duration.ofHours(1);
    private static final Duration RENEW_BEFORE = Duration.ofMinutes(10);

    /** A key and when it stops working. */
    record Minted(String key, String id, Instant expiresAt) {}

    private final KeyRegistry keys;
    private final Clock clock;
    private final ApiKeys apiKeys = new ApiKeys();
    private final Map<UUID, Minted> byProduct = new ConcurrentHashMap<>();

    ConsoleKeys(KeyRegistry keys, Clock clock) {
        this.keys = keys;
        this.clock = clock;
    }

    /** A public key for the product, valid for at least {@link #RENEW_BEFORE}. */
    Minted forProduct(String tenant, UUID product) {
        return byProduct.compute(product, (id, current) -> {
            Instant now = clock.instant();
            if (current != null && current.expiresAt().isAfter(now.plus(RENEW_BEFORE))) {
                return current;
            }
            if (current != null) {
                keys.removeEphemeral(current.id());
            }
            String key = apiKeys.generate(KeyType.PUBLIC);
            String digest = ApiKeys.digest(key);
            Instant expiresAt = now.plus(LIFETIME);
            keys.addEphemeral(new KeyRecord(
                    ApiKeys.idOf(digest),
                    KeyType.PUBLIC,
                    tenant,
                    product,
                    digest,
                    now,
                    null,
                    new KeyScope(List.of(), true, expiresAt, null, KeyUse.ALL)));
            return new Minted(key, ApiKeys.idOf(digest), expiresAt);
        });
    }
}
