package dev.autocomplete.server.auth;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every active key of every tenant, looked up by a presented key. Loads the {@link KeyStore} at start, then
 * re-reads what the store reports changed, so {@code keys create} and {@code keys revoke} take effect in a
 * running server within a second or two (on every replica, with a shared store). A read that fails keeps the
 * keys already known: a store that is away costs no key that worked. Process-lifetime keys (the demo keys of
 * {@code serve}) live only here.
 */
public final class KeyRegistry implements KeyStore.Listener, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KeyRegistry.class.getName());
    /** Public keys whose digest is remembered, at most; beyond that the memo starts over. */
    static final int MAX_MEMOIZED_DIGESTS = 4_096;

    private final KeyStore store;
    private final Clock clock;
    private final Map<String, KeyRecord> ephemeral = new ConcurrentHashMap<>();
    /** When each key was last presented to this process and found usable (the console shows it); by key id. */
    private final Map<String, Instant> lastUse = new ConcurrentHashMap<>();
    /** Each tenant's records; changed only under this registry's lock. */
    private final Map<String, List<KeyRecord>> byTenant = new HashMap<>();

    private volatile Map<String, KeyRecord> stored = Map.of();
    /** When the store was last read in full, or null while it never was. */
    private volatile Instant loadedAt;
    /** The last failed read's message, or null when the last read worked. */
    private volatile String lastFailure;
    /** Tenants whose keys could not be read (their keys are refused), with why. */
    private final Map<String, String> unreadable = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Presented public key to its digest and id, which never change: saves two SHA-256 and the format check
     * per request. Only public keys (they ship in web pages anyway), only well-formed ones that named a
     * record; the record itself is still looked up, checked for revocation and expiry, and its digest
     * compared in constant time on every request.
     */
    private final Map<String, Digested> digests = new ConcurrentHashMap<>();

    private record Digested(String digest, String id) {}

    /**
     * What the registry knows, for health: whether it ever loaded the store, and whether the last read failed.
     *
     * @param store {@link KeyStore#describe}
     * @param loadedAt when the store was last read in full, or null while it never was
     * @param lastFailure why the last read failed, or null
     * @param keys how many stored keys are known, revoked ones included
     * @param following whether changes made elsewhere reach this process now
     */
    public record Status(
            String store,
            Instant loadedAt,
            String lastFailure,
            int keys,
            boolean following,
            Map<String, String> unreadable) {
        public boolean loaded() {
            return loadedAt != null;
        }
    }

    /** @param clock decides when keys with an expiry stop working */
    public KeyRegistry(KeyStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /**
     * Reads every key now, then follows the changes the store reports. A store that cannot be read now is
     * logged and read again at its next report (a shared store reports at least every safety interval).
     */
    public KeyRegistry start() {
        everythingMayHaveChanged();
        store.follow(this);
        return this;
    }

    /** Stops following the store. */
    @Override
    public void close() {
        store.close();
    }

    public Status status() {
        return new Status(
                store.describe(),
                loadedAt,
                lastFailure,
                stored.size(),
                store.following(),
                java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(unreadable)));
    }

    /** Adds a key that lives only as long as this process. */
    public void addEphemeral(KeyRecord record) {
        ephemeral.put(record.id(), record);
    }

    /** Forgets a process-lifetime key (the console's, once it replaced it). */
    public void removeEphemeral(String id) {
        ephemeral.remove(id);
        lastUse.remove(id);
    }

    /** Every known key record, revoked and process-lifetime ones included: ids and scopes, never a key. */
    public List<KeyRecord> records() {
        List<KeyRecord> all = new java.util.ArrayList<>(stored.values());
        all.addAll(ephemeral.values());
        return all;
    }

    /** Whether the key lives only in this process (never written anywhere). */
    public boolean ephemeral(String id) {
        return ephemeral.containsKey(id);
    }

    /** When the key was last used on this process since it started, if it was. */
    public Optional<Instant> lastUse(String id) {
        return Optional.ofNullable(lastUse.get(id));
    }

    /** The usable (not revoked, not expired) record of a presented key, compared by digest in constant time. */
    public Optional<KeyRecord> find(String presentedKey) {
        Digested digested = digests.get(presentedKey);
        if (digested == null) {
            KeyType type = ApiKeys.typeOf(presentedKey);
            if (type == null) {
                return Optional.empty();
            }
            String digest = ApiKeys.digest(presentedKey);
            digested = new Digested(digest, ApiKeys.idOf(digest));
            if (type == KeyType.PUBLIC && (ephemeral.containsKey(digested.id()) || stored.containsKey(digested.id()))) {
                if (digests.size() >= MAX_MEMOIZED_DIGESTS) {
                    digests.clear();
                }
                digests.put(presentedKey, digested);
            }
        }
        KeyRecord record = record(digested.id());
        Instant now = clock.instant();
        if (record == null || !record.usableAt(now) || !ApiKeys.sameDigest(record.digest(), digested.digest())) {
            return Optional.empty();
        }
        // Kept to the second: a write per request to one shared entry cost more than the rest of this lookup.
        Instant last = lastUse.get(record.id());
        if (last == null || last.getEpochSecond() != now.getEpochSecond()) {
            lastUse.put(record.id(), now);
        }
        return Optional.of(record);
    }

    /**
     * The record of a presented public key that is genuine (its digest matches) but revoked or expired: for the
     * analytics of the refusal it gets, never to admit it. Only a key {@link #find} just looked at and remembered
     * (public keys the registry knows): no digest is computed here, so an unknown key costs nothing more.
     */
    public Optional<KeyRecord> unusable(String presentedKey) {
        Digested digested = digests.get(presentedKey);
        if (digested == null) {
            return Optional.empty();
        }
        KeyRecord record = record(digested.id());
        return record != null
                        && !record.usableAt(clock.instant())
                        && ApiKeys.sameDigest(record.digest(), digested.digest())
                ? Optional.of(record)
                : Optional.empty();
    }

    /** The record with this id if it is still usable (not revoked, not expired): how tokens follow their key. */
    public Optional<KeyRecord> findUsableById(String id) {
        KeyRecord record = record(id);
        return record != null && record.usableAt(clock.instant()) ? Optional.of(record) : Optional.empty();
    }

    /** The record with this id, a key made at run time's first; null when there is none. */
    private KeyRecord record(String id) {
        KeyRecord record = ephemeral.get(id);
        return record != null ? record : stored.get(id);
    }

    @Override
    public void tenantChanged(String tenantId) {
        List<KeyRecord> records;
        try {
            records = store.read(tenantId);
        } catch (IOException | RuntimeException e) {
            String problem = "Cannot read the keys of tenant " + tenantId + " (" + store.describe()
                    + "); keeping its previous keys: " + e.getMessage();
            failed(problem);
            unreadable.put(tenantId, problem);
            return;
        }
        unreadable.remove(tenantId);
        synchronized (this) {
            byTenant.put(tenantId, List.copyOf(records));
            index();
        }
        lastFailure = null;
    }

    @Override
    public void everythingMayHaveChanged() {
        Map<String, List<KeyRecord>> all;
        try {
            all = store.readAll();
        } catch (IOException | RuntimeException e) {
            failed("Cannot read the keys (" + store.describe() + "); keeping the " + stored.size() + " known: "
                    + e.getMessage());
            return;
        }
        synchronized (this) {
            // Merged, not replaced: a tenant the store could not read this time keeps its keys.
            all.forEach((tenant, records) -> byTenant.put(tenant, List.copyOf(records)));
            index();
        }
        unreadable.keySet().removeAll(all.keySet());
        unreadable.putAll(store.unreadable());
        loadedAt = clock.instant();
        lastFailure = null;
    }

    /** Logs a failure unless it is the one logged last, so a long outage does not flood the log. */
    private void failed(String message) {
        if (!message.equals(lastFailure)) {
            LOG.log(System.Logger.Level.WARNING, message);
        }
        lastFailure = message;
    }

    private void index() {
        Map<String, KeyRecord> index = new HashMap<>();
        byTenant.values().forEach(records -> records.forEach(r -> index.put(r.id(), r)));
        stored = Map.copyOf(index);
    }
}
