package dev.autocomplete.server.auth;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.UUID;

/**
 * A stored key: never the key itself, only its digest.
 *
 * @param productId the product a public key is bound to; null for a secret key
 * @param revokedAt when the key was revoked, or null while it works
 * @param scope allowed origins, expiry and rate limit
 */
public record KeyRecord(
        String id,
        KeyType type,
        String tenantId,
        UUID productId,
        String digest,
        Instant createdAt,
        Instant revokedAt,
        KeyScope scope) {

    public KeyRecord {
        requireNonNull(id, "id is null");
        requireNonNull(type, "type is null");
        requireNonNull(tenantId, "tenantId is null");
        requireNonNull(digest, "digest is null");
        requireNonNull(createdAt, "createdAt is null");
        requireNonNull(scope, "scope is null");
        if (type == KeyType.PUBLIC && productId == null) {
            throw new IllegalArgumentException("a public key needs a product");
        }
    }

    public boolean active() {
        return revokedAt == null;
    }

    /** Not revoked and not expired at {@code now}. */
    public boolean usableAt(Instant now) {
        return active() && !scope.expiredAt(now);
    }

    public KeyRecord revoked(Instant at) {
        return new KeyRecord(id, type, tenantId, productId, digest, createdAt, at, scope);
    }
}
