package dev.autocomplete.server.auth;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.autocomplete.server.files.FileWatcher;
import dev.autocomplete.server.tenant.TenantRegistry;

/**
 * Every active key of every tenant, looked up by a presented key. Re-reads a tenant's {@code keys.yaml} when
 * the {@link FileWatcher} reports it changed, so {@code keys create} and {@code keys revoke} take effect in a
 * running server within a second or two. Process-lifetime keys (the demo keys of {@code serve}) live only here.
 */
public final class KeyRegistry {

    private static final System.Logger LOG = System.getLogger(KeyRegistry.class.getName());
    private static final Path KEYS = Path.of(KeysFile.FILE_NAME);
    /** Public keys whose digest is remembered, at most; beyond that the memo starts over. */
    static final int MAX_MEMOIZED_DIGESTS = 4_096;

    private final Path tenantsRoot;
    private final Clock clock;
    private final Map<String, KeyRecord> ephemeral = new ConcurrentHashMap<>();
    /** Each tenant directory's records; written by {@link #start}, then only on the thread the watcher calls. */
    private final Map<Path, List<KeyRecord>> byDirectory = new HashMap<>();
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

    public KeyRegistry(Path tenantsRoot) {
        this(tenantsRoot, Clock.systemUTC());
    }

    /** @param clock decides when keys with an expiry stop working */
    public KeyRegistry(Path tenantsRoot, Clock clock) {
        this.tenantsRoot = tenantsRoot;
        this.clock = clock;
    }

    /** Reads every {@code keys.yaml} now, then follows the changes {@code files} reports. */
    public KeyRegistry start(FileWatcher files) throws IOException {
        removeStaleTemporaryFiles();
        for (Path directory : TenantRegistry.tenantDirectories(tenantsRoot)) {
            read(directory);
        }
        index();
        files.subscribe("key-registry", this::changed);
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

    /** Reads (or drops) the keys of a tenant directory whose {@code keys.yaml} changed or which came or went. */
    private void changed(FileWatcher.Change change) {
        if (!change.present()) {
            byDirectory.remove(change.directory());
        } else if (change.files().contains(KEYS)) {
            read(change.directory());
        } else {
            return;
        }
        index();
    }

    /** Reads one tenant's {@code keys.yaml}; a file that does not parse keeps its previous keys. */
    private void read(Path directory) {
        try {
            byDirectory.put(directory, new KeysFile(directory).read());
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Cannot read " + directory.resolve(KeysFile.FILE_NAME)
                    + "; keeping its previous keys: " + e.getMessage());
        }
    }

    private void index() {
        Map<String, KeyRecord> index = new HashMap<>();
        byDirectory.values().forEach(records -> records.forEach(r -> index.put(r.id(), r)));
        stored = Map.copyOf(index);
    }
}
