package dev.autocomplete.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Copies of the repository's tenants in a temporary directory, and the real CLI run against them. */
final class TestTenants {

    private TestTenants() {}

    /** The repository root (set by the Maven build; falls back to the parent of the working directory). */
    static Path repoRoot() {
        String root = System.getProperty("autocomplete.test.repoRoot");
        return root != null ? Path.of(root) : Path.of("..").toAbsolutePath().normalize();
    }

    /** A fresh tenants directory holding a copy of the bundled demo tenant (without its keys). */
    static Path copyOfDemo(Path temp) {
        Path tenants = temp.resolve("tenants");
        copyTree(repoRoot().resolve("tenants/demo"), tenants.resolve("demo"));
        try {
            Files.deleteIfExists(tenants.resolve("demo/keys.yaml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tenants;
    }

    /** {@link #copyOfDemo} whose demo tenant also declares the live catalog {@code catalog}, empty. */
    static Path copyOfDemoWithCatalog(Path temp, String catalog) {
        Path tenants = copyOfDemo(temp);
        Path yaml = tenants.resolve("demo/tenant.yaml");
        try {
            Files.writeString(
                    yaml,
                    Files.readString(yaml)
                            .replace(
                                    "catalogs:                     # option lists any product's params can name",
                                    "catalogs:\n  " + catalog + ": {}"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tenants;
    }

    /** {@link #copyOfDemo} plus {@code broken/}, a tenant that does not load: its tenant.yaml has no products. */
    static Path copyOfDemoWithBrokenTenant(Path temp) {
        Path tenants = copyOfDemo(temp);
        try {
            Files.createDirectories(tenants.resolve("broken"));
            Files.writeString(tenants.resolve("broken/tenant.yaml"), "display_name: Broken\nproducts: []\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tenants;
    }

    static void copyTree(Path from, Path to) {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The result of one CLI run. */
    record Cli(int exit, String out, String err) {
        /** The last non-empty line of stdout. */
        String lastLine() {
            List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
            return lines.isEmpty() ? "" : lines.getLast();
        }
    }

    /** Runs the real command line in-process with captured output. */
    static Cli cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Cli(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * Creates a key with {@code keys create} and returns it. Its rate limit is high enough that tests firing
     * requests back to back never meet it; rate limits have their own tests.
     */
    static String createKey(Path tenants, String tenant, String type, String product, String... options) {
        List<String> args = new java.util.ArrayList<>(
                List.of("keys", "create", "--tenants", tenants.toString(), "--tenant", tenant, "--type", type));
        if (!List.of(options).contains("--rate")) {
            args.addAll(List.of("--rate", "10000"));
        }
        if (product != null) {
            args.addAll(List.of("--product", product));
        }
        args.addAll(List.of(options));
        Cli result = cli(args.toArray(String[]::new));
        if (result.exit() != 0) {
            throw new IllegalStateException("keys create failed: " + result.err());
        }
        return result.lastLine();
    }

    /**
     * The tenant.yaml of a shop whose product {@code paint} asks for a color from catalog {@code colors}.
     *
     * @param catalogs the lines under {@code catalogs:}, indented by two, declaring at least {@code colors}
     */
    static String paintShop(String catalogs) {
        return """
                display_name: Shop
                catalogs:
                %sproducts:
                  - id: 1d2c3b4a-5f6e-4d7c-8b9a-0a1b2c3d4e51
                    slug: paint
                    prompt: Paint
                    intents:
                      - name: paint
                        phrases: [Paint]
                        params:
                          - {type: color, label: Color, required: true, catalog: colors}
                """.formatted(catalogs);
    }
}
