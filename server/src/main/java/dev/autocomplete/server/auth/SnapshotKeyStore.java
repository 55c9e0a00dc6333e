package dev.autocomplete.server.auth;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A shared key store (PostgreSQL) with a local copy of what it last gave, one {@code keys.yaml} per tenant
 * under a directory of the data directory: a replica that starts while the shared store is down serves the keys
 * it last knew instead of none, and reads the shared store again once it is back. Digests only, as everywhere.
 * Thread-safe.
 */
public final class SnapshotKeyStore implements KeyStore {

    private static final System.Logger LOG = System.getLogger(SnapshotKeyStore.class.getName());

    private final KeyStore shared;
    private final Path root;
    /** Whether the shared store was read in full by this process: from then on its failures are its own. */
    private volatile boolean readOnce;

    /** @param root the snapshot's directory, e.g. {@code <data.dir>/keys-snapshot} */
    public SnapshotKeyStore(KeyStore shared, Path root) {
        this.shared = shared;
        this.root = root;
    }

    @Override
    public String describe() {
        return shared.describe();
    }

    @Override
    public Map<String, List<KeyRecord>> readAll() throws IOException {
        Map<String, List<KeyRecord>> all;
        try {
            all = shared.readAll();
        } catch (IOException e) {
            if (readOnce || !Files.isDirectory(root)) {
                throw e;
            }
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Keys: " + shared.describe() + " is unreachable (" + e.getMessage()
                            + "); serving the keys of the local snapshot in " + root + " until it is back");
            return snapshot();
        }
        readOnce = true;
        save(all);
        return all;
    }

    @Override
    public List<KeyRecord> read(String tenantId) throws IOException {
        List<KeyRecord> records = shared.read(tenantId);
        save(tenantId, records);
        return records;
    }

    @Override
    public void add(KeyRecord record) throws IOException {
        shared.add(record);
    }

    @Override
    public boolean revoke(String tenantId, String keyId, Instant at) throws IOException {
        return shared.revoke(tenantId, keyId, at);
    }

    @Override
    public void follow(Listener listener) {
        shared.follow(listener);
    }

    @Override
    public boolean following() {
        return shared.following();
    }

    @Override
    public void close() {
        shared.close();
    }

    private Map<String, List<KeyRecord>> snapshot() throws IOException {
        Map<String, List<KeyRecord>> all = new HashMap<>();
        try (DirectoryStream<Path> tenants = Files.newDirectoryStream(root, Files::isDirectory)) {
            for (Path tenant : tenants) {
                all.put(tenant.getFileName().toString(), new KeysFile(tenant).read());
            }
        }
        return all;
    }

    /** The whole snapshot: every tenant's keys, and none for a tenant the shared store no longer has. */
    private void save(Map<String, List<KeyRecord>> all) {
        try {
            Files.createDirectories(root);
            try (DirectoryStream<Path> tenants = Files.newDirectoryStream(root, Files::isDirectory)) {
                for (Path tenant : tenants) {
                    if (!all.containsKey(tenant.getFileName().toString())) {
                        save(tenant.getFileName().toString(), List.of());
                    }
                }
            }
            for (Map.Entry<String, List<KeyRecord>> tenant : all.entrySet()) {
                save(tenant.getKey(), tenant.getValue());
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Keys: cannot write the local snapshot in " + root + ": " + e.getMessage());
        }
    }

    private void save(String tenantId, List<KeyRecord> records) {
        try {
            Path directory = root.resolve(tenantId);
            Files.createDirectories(directory);
            new KeysFile(directory).update(previous -> records);
        } catch (IOException | RuntimeException e) {
            // The snapshot is a convenience: what was read from the shared store is served whatever became of it.
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Keys: cannot write the local snapshot of tenant " + tenantId + ": " + e.getMessage());
        }
    }
}
