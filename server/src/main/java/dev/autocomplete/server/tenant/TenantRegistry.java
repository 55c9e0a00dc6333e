package dev.autocomplete.server.tenant;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Every tenant under a tenants directory: one sub-directory with a {@code tenant.yaml} per tenant. Tenants
 * that fail to load are reported and left out; the others serve. A tenant can be replaced or removed while
 * requests run ({@link TenantWatcher} does so when files change): requests that hold a {@link Lease} on the
 * old one finish on it, and it is closed after the last of them.
 */
public final class TenantRegistry implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(TenantRegistry.class.getName());

    private final Path root;
    private final Map<String, TenantUsers> tenants = new ConcurrentHashMap<>();
    private final Map<Path, List<Problem>> problems = new ConcurrentHashMap<>();
    /** Per directory refused for product ids other tenants held: each such id and the tenant that held it. */
    private final Map<Path, Map<UUID, String>> conflicts = new ConcurrentHashMap<>();

    private final AtomicLong reloads = new AtomicLong();
    private final AtomicLong failedReloads = new AtomicLong();

    private TenantRegistry(Path root) {
        this.root = root;
    }

    /** Loads every tenant under {@code root}. */
    public static TenantRegistry load(Path root, TenantLoader loader) throws IOException {
        TenantRegistry registry = new TenantRegistry(root);
        for (Path directory : tenantDirectories(root)) {
            TenantLoader.Result result = registry.loadBeside(directory, loader);
            logWarnings(result);
            if (result.tenant() != null) {
                registry.tenants.put(result.tenant().id(), new TenantUsers(result.tenant()));
                if (result.tenant().ownLoader() != null) {
                    LOG.log(
                            System.Logger.Level.INFO,
                            "Tenant loaded: " + result.tenant().id() + engineJars(result.tenant()));
                }
            } else {
                registry.problems.put(directory, List.copyOf(result.problems()));
            }
        }
        return registry;
    }

    /**
     * A registry of one tenant loaded by the caller, with no directory to watch: for running the suggest core in
     * process without HTTP (the engine test kit). Closing the registry closes the tenant.
     */
    public static TenantRegistry of(Tenant tenant) {
        TenantRegistry registry = new TenantRegistry(tenant.directory().getParent());
        registry.tenants.put(tenant.id(), new TenantUsers(tenant));
        return registry;
    }

    /** Sub-directories of {@code root} that hold a {@code tenant.yaml}, sorted. */
    public static List<Path> tenantDirectories(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new IOException("tenants directory not found: " + root);
        }
        List<Path> directories = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(root, Files::isDirectory)) {
            for (Path directory : stream) {
                if (Files.isRegularFile(directory.resolve(TenantLoader.TENANT_FILE))) {
                    directories.add(directory);
                }
            }
        }
        directories.sort(null);
        return directories;
    }

    /**
     * The products of the tenants serving now, but for the one of {@code directory}: a product id must name one
     * product of one tenant, so a tenant loaded after another that has its product id is refused.
     */
    public TenantLoader.ProductOwners productsOfOthers(Path directory) {
        String own = directory.getFileName().toString();
        return productId -> tenants.values().stream()
                .map(TenantUsers::tenant)
                .filter(tenant ->
                        !tenant.id().equals(own) && tenant.product(productId).isPresent())
                .map(Tenant::id)
                .sorted()
                .findFirst();
    }

    /**
     * Loads the tenant of {@code directory} against the products of the others, and remembers which of their
     * product ids refused it, so that it is loaded again once they are gone ({@link #refusedFor}).
     */
    TenantLoader.Result loadBeside(Path directory, TenantLoader loader) {
        TenantLoader.ProductOwners others = productsOfOthers(directory);
        Map<UUID, String> held = new TreeMap<>();
        TenantLoader.Result result = loader.load(directory, productId -> {
            Optional<String> owner = others.ownerOf(productId);
            owner.ifPresent(id -> held.put(productId, id));
            return owner;
        });
        if (result.tenant() == null && !held.isEmpty()) {
            conflicts.put(directory, Map.copyOf(held));
        } else {
            conflicts.remove(directory);
        }
        return result;
    }

    /**
     * The directories, in name order, whose last load was refused for one of {@code released}, product ids that
     * {@code tenantId} held and holds no more (it was removed, or reloaded without them).
     */
    List<Path> refusedFor(String tenantId, Set<UUID> released) {
        return conflicts.entrySet().stream()
                .filter(refused -> refused.getValue().entrySet().stream()
                        .anyMatch(held -> held.getValue().equals(tenantId) && released.contains(held.getKey())))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    public Path root() {
        return root;
    }

    /** The tenant serving now. */
    public Optional<Tenant> tenant(String id) {
        TenantUsers users = tenants.get(id);
        return users == null ? Optional.empty() : Optional.of(users.tenant());
    }

    /** The tenants serving now, by id. */
    public Map<String, Tenant> tenants() {
        Map<String, Tenant> now = new TreeMap<>();
        tenants.forEach((id, users) -> now.put(id, users.tenant()));
        return now;
    }

    /** Problems of the tenant directories that did not load, or whose last change did not load. */
    public List<Problem> problems() {
        return new TreeMap<>(problems).values().stream().flatMap(List::stream).toList();
    }

    /** How many times a changed tenant directory was loaded and swapped in. */
    public long reloads() {
        return reloads.get();
    }

    /** How many times a changed tenant directory failed to load (the previous tenant kept serving). */
    public long failedReloads() {
        return failedReloads.get();
    }

    /** A request's hold on a tenant: while open, the tenant is not closed. Close it exactly once. */
    public static final class Lease implements AutoCloseable {
        private final TenantUsers users;

        private Lease(TenantUsers users) {
            this.users = users;
        }

        /** The tenant to use: the one asked for, or its replacement when that one was already retired. */
        public Tenant tenant() {
            return users.tenant();
        }

        @Override
        public void close() {
            users.release();
        }
    }

    /** Holds the tenant serving {@code id} for one request. Empty when no tenant of that id is loaded. */
    public Optional<Lease> lease(String id) {
        while (true) {
            TenantUsers users = tenants.get(id);
            if (users == null) {
                return Optional.empty();
            }
            if (users.acquire()) {
                return Optional.of(new Lease(users));
            }
            // Retired between the lookup and the acquire: the replacement is in the map by now.
        }
    }

    /** The directories whose last load failed, whether or not an earlier version of their tenant serves. */
    public List<Path> failedDirectories() {
        return List.copyOf(problems.keySet());
    }

    /**
     * Swaps in a freshly loaded tenant for its directory; the one it replaces closes after its requests.
     *
     * @return the tenant replaced, if any
     */
    Optional<Tenant> replace(Path directory, Tenant tenant) {
        problems.remove(directory);
        conflicts.remove(directory);
        TenantUsers previous = tenants.put(tenant.id(), new TenantUsers(tenant));
        reloads.incrementAndGet();
        if (previous != null) {
            previous.retire();
        }
        LOG.log(
                System.Logger.Level.INFO,
                (previous == null ? "Tenant loaded: " : "Tenant reloaded: ") + tenant.id() + engineJars(tenant));
        return Optional.ofNullable(previous).map(TenantUsers::tenant);
    }

    /** The warnings of a load, one log line each, as {@code validate} prints them. */
    static void logWarnings(TenantLoader.Result result) {
        result.warnings().forEach(warning -> LOG.log(System.Logger.Level.WARNING, warning.toString()));
    }

    /** Which build of each engine JAR serves now: after replacing engines/x.jar, the line that says it took. */
    private static String engineJars(Tenant tenant) {
        return tenant.ownLoader() == null
                ? ""
                : "; engine JARs: " + String.join(", ", tenant.ownLoader().versions());
    }

    /** Records why a changed directory did not load; its previous tenant, if any, keeps serving. */
    void reject(Path directory, List<Problem> found) {
        problems.put(directory, List.copyOf(found));
        failedReloads.incrementAndGet();
        String id = directory.getFileName().toString();
        LOG.log(
                System.Logger.Level.WARNING,
                "Tenant " + id + " not (re)loaded"
                        + (tenants.containsKey(id) ? "; its previous version keeps serving" : "") + ": "
                        + found.stream().map(Problem::toString).collect(Collectors.joining("; ")));
    }

    /**
     * Unloads the tenant of a directory that is gone or no longer has a {@code tenant.yaml}.
     *
     * @return the tenant removed, if one was serving
     */
    Optional<Tenant> remove(Path directory) {
        List<Problem> refused = problems.remove(directory);
        conflicts.remove(directory);
        TenantUsers previous = tenants.remove(directory.getFileName().toString());
        if (previous == null) {
            if (refused != null) {
                // Its problems leave the health output with it: said, as a loaded tenant's removal is.
                LOG.log(
                        System.Logger.Level.INFO,
                        "Tenant directory removed: " + directory.getFileName() + " (it was not loaded, for "
                                + refused.size() + " problem(s); they are cleared)");
            }
            return Optional.empty();
        }
        previous.retire();
        LOG.log(System.Logger.Level.INFO, "Tenant removed: " + previous.tenant().id());
        return Optional.of(previous.tenant());
    }

    @Override
    public void close() {
        tenants.values().forEach(TenantUsers::retire);
        tenants.clear();
    }
}
