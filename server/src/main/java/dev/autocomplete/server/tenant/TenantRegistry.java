package dev.autocomplete.server.tenant;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Every tenant under a tenants directory: one sub-directory with a {@code tenant.yaml} per tenant. Tenants
 * that fail to load are reported and left out; the others serve.
 */
public final class TenantRegistry implements AutoCloseable {

    private final Path root;
    private final Map<String, Tenant> tenants;
    private final List<Problem> problems;

    private TenantRegistry(Path root, Map<String, Tenant> tenants, List<Problem> problems) {
        this.root = root;
        this.tenants = tenants;
        this.problems = problems;
    }

    /** Loads every tenant under {@code root}. */
    public static TenantRegistry load(Path root, TenantLoader loader) throws IOException {
        Map<String, Tenant> tenants = new TreeMap<>();
        List<Problem> problems = new ArrayList<>();
        for (Path directory : tenantDirectories(root)) {
            TenantLoader.Result result = loader.load(directory);
            problems.addAll(result.problems());
            if (result.tenant() != null) {
                tenants.put(result.tenant().id(), result.tenant());
            }
        }
        return new TenantRegistry(root, Map.copyOf(tenants), List.copyOf(problems));
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

    public Path root() {
        return root;
    }

    public Optional<Tenant> tenant(String id) {
        return Optional.ofNullable(tenants.get(id));
    }

    public Map<String, Tenant> tenants() {
        return tenants;
    }

    /** Problems of the tenants that did not load. */
    public List<Problem> problems() {
        return problems;
    }

    @Override
    public void close() {
        tenants.values().forEach(Tenant::close);
    }
}
