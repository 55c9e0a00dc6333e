package dev.autocomplete.server.tenant;

import dev.autocomplete.server.engines.EngineCode;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A tenant's class loader over private copies of its {@code engines/*.jar}, modelled on Trino's
 * {@code PluginClassLoader}: the parent is the platform class loader, so an engine sees the JDK and its own
 * JARs but none of the server's libraries; only the SPI packages ({@code dev.autocomplete.spi} and its
 * {@code toolkit}) and the catalog index the toolkit is built on ({@code dev.autocomplete.index}) are delegated to
 * the server's loader, so engine and server agree on the SPI types. Two
 * tenants can thus carry different versions of one library.
 *
 * <p>The JARs are copies that {@link EngineJars} took when the tenant loaded, in a directory of their own that
 * {@link #close()} deletes: an operator may overwrite {@code engines/x.jar} while this loader still loads
 * classes lazily, and the JDK caches open JAR files by URL, so loading from the operator's file served the
 * previous build's resources every second replacement.
 */
final class EngineClassLoader extends URLClassLoader implements EngineCode.Loader {

    /** The SPI and the core's catalog index under it (the toolkit's Lookup is built on the index). */
    private static final List<String> SHARED_PACKAGES = List.of("dev.autocomplete.spi.", "dev.autocomplete.index.");

    private static final System.Logger LOG = System.getLogger(EngineClassLoader.class.getName());

    static {
        ClassLoader.registerAsParallelCapable();
    }

    private final String tenantId;
    private final ClassLoader spiLoader;
    private final Path copies;
    /** By JAR file name (its copy's is the same), its name and version: {@code repos.jar version 1.2.0 (...)}. */
    private final Map<String, String> builds;
    /** By JAR file name, the JAR and the engines it provides, once {@link #provides} said them. */
    private volatile Map<String, EngineCode.Jar> jars = Map.of();

    /**
     * @param jars the copied JARs, in {@code copies}
     * @param copies the directory holding only this loader's copies; deleted by {@link #close()}
     * @param builds by JAR file name, in order, its name and version for the log: {@code repos.jar version 1.2.0
     *     (sha256 3f9a0c71be42)}
     */
    EngineClassLoader(String tenantId, URL[] jars, ClassLoader spiLoader, Path copies, Map<String, String> builds) {
        super("tenant-" + tenantId, jars, ClassLoader.getPlatformClassLoader());
        this.tenantId = tenantId;
        this.spiLoader = spiLoader;
        this.copies = copies;
        this.builds = Collections.unmodifiableMap(new LinkedHashMap<>(builds));
        provides(Map.of());
    }

    /** Each JAR's file name and version: {@code repos.jar version 1.2.0}, or {@code version unknown}. */
    List<String> versions() {
        return List.copyOf(builds.values());
    }

    /** The name and version of a JAR of this loader, by file name; null when it is none of its. */
    String build(String jarName) {
        return builds.get(jarName);
    }

    /** Which engines each JAR provides, once loaded: {@code origins} by engine name, the JAR's file name. */
    void provides(Map<String, String> origins) {
        Map<String, TreeSet<String>> byJar = new TreeMap<>();
        origins.forEach((engine, jar) ->
                byJar.computeIfAbsent(jar, j -> new TreeSet<>()).add(engine));
        Map<String, EngineCode.Jar> described = new HashMap<>();
        builds.forEach((jar, build) -> {
            TreeSet<String> engines = byJar.get(jar);
            described.put(
                    jar,
                    new EngineCode.Jar(
                            engines == null
                                    ? null
                                    : (engines.size() == 1 ? "engine '" : "engines '") + String.join("', '", engines)
                                            + "'",
                            build));
        });
        this.jars = Map.copyOf(described);
    }

    @Override
    public String tenantId() {
        return tenantId;
    }

    @Override
    public Optional<EngineCode.Jar> jarOf(Class<?> type) {
        if (type.getClassLoader() != this) {
            return Optional.empty();
        }
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return Optional.empty();
        }
        String path = source.getLocation().getPath();
        return Optional.ofNullable(jars.get(path.substring(path.lastIndexOf('/') + 1)));
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        for (String shared : SHARED_PACKAGES) {
            if (name.startsWith(shared)) {
                return spiLoader.loadClass(name);
            }
        }
        return super.loadClass(name, resolve);
    }

    /** Closes the JARs, then deletes the copies. */
    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            deleteCopies(copies);
        }
    }

    /** Deletes a directory of JAR copies; what cannot be deleted is only logged (the temp dir's owner may). */
    static void deleteCopies(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Engine JAR copies not deleted: " + directory + ": " + e);
        }
    }
}
