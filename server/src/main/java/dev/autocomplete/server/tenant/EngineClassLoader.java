package dev.autocomplete.server.tenant;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
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
final class EngineClassLoader extends URLClassLoader {

    /** The SPI and the core's catalog index under it (the toolkit's Lookup is built on the index). */
    private static final List<String> SHARED_PACKAGES = List.of("dev.autocomplete.spi.", "dev.autocomplete.index.");

    private static final System.Logger LOG = System.getLogger(EngineClassLoader.class.getName());

    static {
        ClassLoader.registerAsParallelCapable();
    }

    private final ClassLoader spiLoader;
    private final Path copies;
    private final List<String> versions;

    /**
     * @param jars the copied JARs, in {@code copies}
     * @param copies the directory holding only this loader's copies; deleted by {@link #close()}
     * @param versions each JAR's file name and version, for the log: {@code repos.jar version 1.2.0}
     */
    EngineClassLoader(String tenantId, URL[] jars, ClassLoader spiLoader, Path copies, List<String> versions) {
        super("tenant-" + tenantId, jars, ClassLoader.getPlatformClassLoader());
        this.spiLoader = spiLoader;
        this.copies = copies;
        this.versions = List.copyOf(versions);
    }

    /** Each JAR's file name and version: {@code repos.jar version 1.2.0}, or {@code version unknown}. */
    List<String> versions() {
        return versions;
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
