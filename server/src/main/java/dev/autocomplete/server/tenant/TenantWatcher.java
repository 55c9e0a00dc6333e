package dev.autocomplete.server.tenant;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.autocomplete.server.auth.KeysFile;

/**
 * Reloads a tenant when its files change: {@code tenant.yaml}, data files, engine JARs (anything in its
 * directory but {@code keys.yaml}, which the key registry watches, and hidden, lock and temporary files).
 * Polls a few times a second; a change is loaded once the files stayed the same for one poll, so a file
 * being copied is not read half-written. The new tenant is built beside the old one and swapped in
 * atomically; if it does not load, the old one keeps serving and the problems are reported. New tenant
 * directories are loaded, removed ones unloaded.
 */
public final class TenantWatcher implements AutoCloseable {

    /** Time between two looks at the files; a change is live within about three of these plus the load. */
    public static final long POLL_MILLIS = 250;

    private static final System.Logger LOG = System.getLogger(TenantWatcher.class.getName());

    private final TenantRegistry registry;
    private final TenantLoader loader;
    private final Map<Path, String> loaded = new HashMap<>();
    private final Map<Path, String> seen = new HashMap<>();
    private ScheduledExecutorService poller;

    public TenantWatcher(TenantRegistry registry, TenantLoader loader) {
        this.registry = registry;
        this.loader = loader;
    }

    /** Takes the current files as the loaded state, then watches them. */
    public TenantWatcher start() {
        try {
            for (Path directory : TenantRegistry.tenantDirectories(registry.root())) {
                loaded.put(directory, fingerprint(directory));
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.log(System.Logger.Level.WARNING, "Cannot list tenants to watch: " + e.getMessage());
        }
        poller = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("tenant-watcher")
                .factory());
        poller.scheduleWithFixedDelay(this::poll, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
        return this;
    }

    /** One look at every tenant directory. */
    synchronized void poll() {
        try {
            List<Path> directories = TenantRegistry.tenantDirectories(registry.root());
            for (Path directory : directories) {
                String now;
                try {
                    now = fingerprint(directory);
                } catch (IOException | UncheckedIOException e) {
                    continue; // Files moving under our feet: look again next time.
                }
                if (now.equals(loaded.get(directory)) || !now.equals(seen.put(directory, now))) {
                    continue;
                }
                loaded.put(directory, now);
                TenantLoader.Result result = loader.load(directory);
                if (result.tenant() != null) {
                    registry.replace(directory, result.tenant());
                } else {
                    registry.reject(directory, result.problems());
                }
            }
            Set<Path> gone = new HashSet<>(loaded.keySet());
            directories.forEach(gone::remove);
            for (Path directory : gone) {
                loaded.remove(directory);
                seen.remove(directory);
                registry.remove(directory);
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "Tenant watch failed: " + e.getMessage());
        }
    }

    /** Path, size and modification time of every watched file under a tenant directory. */
    static String fingerprint(Path directory) throws IOException {
        StringBuilder print = new StringBuilder();
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted().toList()) {
                if (!watched(directory.relativize(file))) {
                    continue;
                }
                BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                if (attributes.isRegularFile()) {
                    print.append(directory.relativize(file)).append('\t').append(attributes.size()).append('\t')
                            .append(attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS)).append('\n');
                }
            }
        }
        return print.toString();
    }

    private static boolean watched(Path relative) {
        if (relative.toString().equals(KeysFile.FILE_NAME)) {
            return false;
        }
        for (Path part : relative) {
            String name = part.toString();
            if (name.startsWith(".") || name.endsWith(".lock") || name.endsWith(".tmp")) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.shutdownNow();
        }
    }
}
