package dev.autocomplete.server.tenant;

import dev.autocomplete.server.files.FileWatcher;
import java.nio.file.Path;

/**
 * Reloads a tenant when its files change: {@code tenant.yaml}, data files, engine JARs (anything in its
 * directory but {@code keys.yaml}, which the key registry follows). The {@link FileWatcher} reports a change
 * once the files stayed the same for one look. The new tenant is built beside the old one and swapped in
 * atomically; if it does not load, the old one keeps serving and the problems are reported. New tenant
 * directories are loaded, removed ones unloaded.
 */
public final class TenantWatcher {

    private static final Path KEYS = Path.of(TenantLoader.KEYS_FILE);

    private final TenantRegistry registry;
    private final TenantLoader loader;

    public TenantWatcher(TenantRegistry registry, TenantLoader loader) {
        this.registry = registry;
        this.loader = loader;
    }

    /** Follows the changes {@code files} reports from now on. */
    public void follow(FileWatcher files) {
        files.subscribe("tenant-watcher", this::changed);
    }

    /**
     * Loads again every tenant whose last load failed: when what they lacked may be back (the catalog store,
     * unreachable at start).
     */
    public synchronized void retryFailed() {
        for (Path directory : registry.failedDirectories()) {
            if (java.nio.file.Files.isRegularFile(directory.resolve(TenantLoader.TENANT_FILE))) {
                load(directory);
            }
        }
    }

    private synchronized void changed(FileWatcher.Change change) {
        Path directory = change.directory();
        if (!change.present()) {
            registry.remove(directory);
            return;
        }
        if (change.files().stream().allMatch(KEYS::equals)) {
            return;
        }
        load(directory);
    }

    private void load(Path directory) {
        TenantLoader.Result result = loader.load(directory, registry.productsOfOthers(directory));
        TenantRegistry.logWarnings(result);
        if (result.tenant() != null) {
            registry.replace(directory, result.tenant());
        } else {
            registry.reject(directory, result.problems());
        }
    }
}
