package dev.autocomplete.server.auth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.autocomplete.server.tenant.TenantRegistry;

/**
 * Every active key of every tenant, looked up by a presented key. Re-reads each tenant's {@code keys.yaml}
 * when it changes (checked twice a second), so {@code keys create} and {@code keys revoke} take effect in a
 * running server within a second. Process-lifetime keys (the demo keys of {@code serve}) live only here.
 */
public final class KeyRegistry implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KeyRegistry.class.getName());
    private static final long POLL_MILLIS = 500;
    /** Public keys whose digest is remembered, at most; beyond that the memo starts over. */
    static final int MAX_MEMOIZED_DIGESTS = 4_096;

    private final Path tenantsRoot;
    private final Clock clock;
    private final Map<String, KeyRecord> ephemeral = new ConcurrentHashMap<>();
    private final Map<Path, FileState> seen = new HashMap<>();
    private volatile Map<String, KeyRecord> stored = Map.of();
    /**
     * Presented public key to its digest and id, which never change: saves two SHA-256 and the format check
     * per request. Only public keys (they ship in web pages anyway), only well-formed ones that named a
     * record; the record itself is still looked up, checked for revocation and expiry, and its digest
     * compared in constant time on every request.
     */
    private final Map<String, Digested> digests = new ConcurrentHashMap<>();

    private record Digested(String digest, String id) {
    }
    private ScheduledExecutorService poller;

    private record FileState(long modified, long size, Object fileKey, List<KeyRecord> records) {
    }

    public KeyRegistry(Path tenantsRoot) {
        this(tenantsRoot, Clock.systemUTC());
    }

    /** @param clock decides when keys with an expiry stop working */
    public KeyRegistry(Path tenantsRoot, Clock clock) {
        this.tenantsRoot = tenantsRoot;
        this.clock = clock;
    }

    /** Reads every {@code keys.yaml} now, then keeps watching them. */
    public KeyRegistry start() {
        removeStaleTemporaryFiles();
        refresh();
        poller = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("key-poller")
                .factory());
        poller.scheduleWithFixedDelay(this::refresh, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Adds a key that lives only as long as this process. */
    public void addEphemeral(KeyRecord record) {
        ephemeral.put(record.id(), record);
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
        KeyRecord record = ephemeral.get(digested.id());
        if (record == null) {
            record = stored.get(digested.id());
        }
        if (record == null || !record.usableAt(clock.instant())
                || !ApiKeys.sameDigest(record.digest(), digested.digest())) {
            return Optional.empty();
        }
        return Optional.of(record);
    }

    /** The record with this id if it is still usable (not revoked, not expired): how tokens follow their key. */
    public Optional<KeyRecord> findUsableById(String id) {
        KeyRecord record = ephemeral.get(id);
        if (record == null) {
            record = stored.get(id);
        }
        return record != null && record.usableAt(clock.instant()) ? Optional.of(record) : Optional.empty();
    }

    /** What a {@code keys} command killed mid-write left beside a {@code keys.yaml}. */
    private void removeStaleTemporaryFiles() {
        try {
            for (Path directory : TenantRegistry.tenantDirectories(tenantsRoot)) {
                int removed = new KeysFile(directory).removeStaleTemporaryFiles();
                if (removed > 0) {
                    LOG.log(System.Logger.Level.WARNING, "Removed " + removed + " temporary file(s) an interrupted"
                            + " keys command left in " + directory);
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Cannot remove the temporary files of interrupted keys commands: "
                    + e.getMessage());
        }
    }

    /** Re-reads the key files that changed since the last look. */
    public synchronized void refresh() {
        try {
            Map<Path, FileState> next = new HashMap<>();
            boolean changed = false;
            for (Path directory : TenantRegistry.tenantDirectories(tenantsRoot)) {
                Path file = directory.resolve(KeysFile.FILE_NAME);
                if (!Files.exists(file)) {
                    continue;
                }
                BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                FileState old = seen.get(file);
                if (old != null && old.modified() == attributes.lastModifiedTime().toMillis()
                        && old.size() == attributes.size() && java.util.Objects.equals(old.fileKey(),
                                attributes.fileKey())) {
                    next.put(file, old);
                    continue;
                }
                try {
                    List<KeyRecord> records = new KeysFile(directory).read();
                    next.put(file, new FileState(attributes.lastModifiedTime().toMillis(), attributes.size(),
                            attributes.fileKey(), records));
                    changed = true;
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.WARNING, "Cannot read " + file + "; keeping its previous keys: "
                            + e.getMessage());
                    if (old != null) {
                        next.put(file, old);
                    }
                }
            }
            if (changed || next.size() != seen.size()) {
                Map<String, KeyRecord> index = new HashMap<>();
                next.values().forEach(state -> state.records().forEach(r -> index.put(r.id(), r)));
                stored = Map.copyOf(index);
            }
            seen.clear();
            seen.putAll(next);
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Key refresh failed: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.shutdownNow();
        }
    }
}
