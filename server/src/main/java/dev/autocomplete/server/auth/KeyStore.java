package dev.autocomplete.server.auth;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Where key records are kept: each tenant's {@code keys.yaml} ({@link FileKeyStore}), or a PostgreSQL database
 * that every replica shares ({@link PostgresKeyStore}). Only digests are ever stored. Reads and writes throw
 * {@link IOException} when the store cannot be reached or read; the {@link KeyRegistry} then keeps the keys it
 * has. Thread-safe.
 */
public interface KeyStore extends AutoCloseable {

    /** Told which keys may have changed; called on one thread of the store's own, never while a write returns. */
    interface Listener {
        /** The keys of this tenant may have changed (or the tenant's keys went away). */
        void tenantChanged(String tenantId);

        /** Any tenant's keys may have changed: after a lost connection, and now and then as a safety net. */
        void everythingMayHaveChanged();
    }

    /** Where the keys are, for logs and health: {@code files} or {@code postgresql}; never a URL or password. */
    String describe();

    /** Every key record of every tenant, revoked ones included, by tenant id. */
    Map<String, List<KeyRecord>> readAll() throws IOException;

    /**
     * The tenants whose keys the last {@link #readAll} left out because they could not be read, with why (a
     * {@code keys.yaml} this user may not read): their keys are refused, so health says so.
     */
    default Map<String, String> unreadable() {
        return Map.of();
    }

    /** The tenant's key records, revoked ones included; empty when it has none. */
    List<KeyRecord> read(String tenantId) throws IOException;

    /** Stores a new key, durably before it returns. */
    void add(KeyRecord record) throws IOException;

    /**
     * Revokes one of the tenant's active keys.
     *
     * @return false when the tenant has no active key with this id
     */
    boolean revoke(String tenantId, String keyId, Instant at) throws IOException;

    /** Starts telling {@code listener} about changes made by others (other processes, other replicas). */
    void follow(Listener listener);

    /** Whether changes made by others reach this process now; false while a shared store is out of reach. */
    default boolean following() {
        return true;
    }

    @Override
    void close();
}
