package dev.autocomplete.server.auth;

import dev.autocomplete.server.files.FileWatcher;
import dev.autocomplete.server.tenant.TenantRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keys in each tenant's {@code keys.yaml} ({@link KeysFile}): the default, for one server on one machine.
 * Changes are noticed through the server's {@link FileWatcher}.
 */
public final class FileKeyStore implements KeyStore {

    private static final System.Logger LOG = System.getLogger(FileKeyStore.class.getName());
    private static final Path KEYS = Path.of(KeysFile.FILE_NAME);

    private final Path tenantsRoot;
    private final FileWatcher files;
    private volatile Map<String, String> unreadable = Map.of();

    /** For the command line: reads and writes, follows nothing. */
    public FileKeyStore(Path tenantsRoot) {
        this(tenantsRoot, null);
    }

    private FileKeyStore(Path tenantsRoot, FileWatcher files) {
        this.tenantsRoot = tenantsRoot;
        this.files = files;
    }

    /**
     * For the server: follows the {@code keys.yaml} files {@code files} reports changed, and deletes what a
     * {@code keys} command killed mid-write left behind.
     */
    public static FileKeyStore watched(Path tenantsRoot, FileWatcher files) {
        FileKeyStore store = new FileKeyStore(tenantsRoot, files);
        store.removeStaleTemporaryFiles();
        return store;
    }

    @Override
    public String describe() {
        return "files";
    }

    @Override
    public Map<String, List<KeyRecord>> readAll() throws IOException {
        Map<String, List<KeyRecord>> all = new LinkedHashMap<>();
        Map<String, String> failed = new LinkedHashMap<>();
        for (Path directory : TenantRegistry.tenantDirectories(tenantsRoot)) {
            String tenant = directory.getFileName().toString();
            try {
                KeysFile file = new KeysFile(directory);
                KeysFile.Contents contents = file.contents();
                all.put(tenant, contents.records());
                contents.importedInto()
                        .ifPresent(where -> LOG.log(
                                System.Logger.Level.WARNING,
                                file.path() + " was imported into " + where + ", and this server has no "
                                        + "storage.url: it serves the keys the file held then, not those created or "
                                        + "revoked in PostgreSQL since."));
            } catch (IOException | RuntimeException e) {
                // One tenant's broken file must not cost every other tenant its keys.
                String problem = "Cannot read " + directory.resolve(KeysFile.FILE_NAME) + ": " + e.getMessage();
                LOG.log(System.Logger.Level.WARNING, problem);
                failed.put(tenant, problem);
            }
        }
        unreadable = Map.copyOf(failed);
        return all;
    }

    @Override
    public Map<String, String> unreadable() {
        return unreadable;
    }

    /** Also deletes what a {@code keys} command killed mid-write left beside the file. */
    @Override
    public List<KeyRecord> read(String tenantId) throws IOException {
        KeysFile file = file(tenantId);
        if (Files.isDirectory(file.path().getParent())) {
            file.removeStaleTemporaryFiles();
        }
        return file.read();
    }

    @Override
    public void add(KeyRecord record) throws IOException {
        file(record.tenantId()).update(records -> {
            records.add(record);
            return records;
        });
    }

    @Override
    public boolean revoke(String tenantId, String keyId, Instant at) throws IOException {
        List<Boolean> found = new ArrayList<>();
        file(tenantId).update(records -> {
            List<KeyRecord> updated = new ArrayList<>();
            for (KeyRecord record : records) {
                if (record.id().equals(keyId) && record.active()) {
                    updated.add(record.revoked(at));
                    found.add(true);
                } else {
                    updated.add(record);
                }
            }
            return updated;
        });
        return !found.isEmpty();
    }

    @Override
    public void follow(Listener listener) {
        if (files == null) {
            return;
        }
        files.subscribe("key-registry", change -> {
            if (!change.present() || change.files().contains(KEYS)) {
                listener.tenantChanged(change.directory().getFileName().toString());
            }
        });
    }

    @Override
    public void close() {
        // Nothing held open: every read and write opens and closes its file.
    }

    private KeysFile file(String tenantId) {
        return new KeysFile(tenantsRoot.resolve(tenantId));
    }

    private void removeStaleTemporaryFiles() {
        try {
            for (Path directory : TenantRegistry.tenantDirectories(tenantsRoot)) {
                int removed = new KeysFile(directory).removeStaleTemporaryFiles();
                if (removed > 0) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "Removed " + removed + " temporary file(s) an interrupted" + " keys command left in "
                                    + directory);
                }
            }
        } catch (IOException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Cannot remove the temporary files of interrupted keys commands: " + e.getMessage());
        }
    }
}
