package dev.autocomplete.server.tenant;

import dev.autocomplete.server.files.FileWatcher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Reloads a tenant when its files change: {@code tenant.yaml}, data files, engine JARs (anything in its
 * directory but {@code keys.yaml}, which the key registry follows). The {@link FileWatcher} reports a change
 * once the files stayed the same for one look. The new tenant is built beside the old one and swapped in
 * atomically; if it does not load, the old one keeps serving and the problems are reported. New tenant
 * directories are loaded, removed ones unloaded. A tenant refused because another held its product id is loaded
 * again as soon as that other is removed or reloaded without the id.
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
        load(registry.failedDirectories());
    }

    private synchronized void changed(FileWatcher.Change change) {
        Path directory = change.directory();
        if (!change.present()) {
            registry.remove(directory).ifPresent(gone -> load(registry.refusedFor(gone.id(), productIds(gone))));
            return;
        }
        if (change.files().stream().allMatch(KEYS::equals)) {
            return;
        }
        load(List.of(directory));
    }

    /**
     * Loads each directory that still has a {@code tenant.yaml}, and after it any directory refused for a product
     * id that a reloaded tenant no longer has.
     */
    private void load(Collection<Path> directories) {
        Set<Path> pending = new LinkedHashSet<>(directories);
        while (!pending.isEmpty()) {
            Path directory = pending.iterator().next();
            pending.remove(directory);
            if (!Files.isRegularFile(directory.resolve(TenantLoader.TENANT_FILE))) {
                continue; // removed meanwhile: its own change unloads it
            }
            TenantLoader.Result result = registry.loadBeside(directory, loader);
            TenantRegistry.logWarnings(result);
            if (result.tenant() == null) {
                registry.reject(directory, result.problems());
                continue;
            }
            registry.replace(directory, result.tenant()).ifPresent(previous -> {
                Set<UUID> released = productIds(previous);
                released.removeAll(productIds(result.tenant()));
                pending.addAll(registry.refusedFor(previous.id(), released));
            });
        }
    }

    private static Set<UUID> productIds(Tenant tenant) {
        return tenant.products().stream().map(Product::id).collect(Collectors.toSet());
    }
}
