package dev.autocomplete.server;

import dev.autocomplete.spi.SpiVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * New builds of the test engine JARs, made by rewriting one of their files, as a rebuilt engine would differ:
 * a bundled resource, or the SPI version in the manifest.
 */
final class EngineJarFiles {

    /** The faulty engine's name, from its bundled resource (see FaultyEngineFactory). */
    static final String FAULTY_NAME = "dev/autocomplete/engine/faulty/engine-name.txt";
    /** The library probe's {@code build <text>} option, from its bundled resource. */
    static final String PROBE_BUILD = "dev/autocomplete/engine/testlib/build.txt";

    private EngineJarFiles() {}

    /** A copy of {@code jar} at {@code target} whose entry {@code name} holds {@code text}. */
    static Path withEntry(Path jar, String name, String text, Path target) {
        return rewrite(jar, target, name, text, null);
    }

    /** A copy of {@code jar} whose manifest says SPI version {@code version}, or nothing when null. */
    static Path withSpiVersion(Path jar, String version, Path target) {
        return rewrite(jar, target, null, null, version == null ? "" : version);
    }

    /** A copy of {@code jar} whose classes say they were compiled for the Java after the one running. */
    static Path forNextJava(Path jar, Path target) {
        return rewrite(jar, target, null, null, null, true);
    }

    private static Path rewrite(Path jar, Path target, String entryName, String text, String spiVersion) {
        return rewrite(jar, target, entryName, text, spiVersion, false);
    }

    private static Path rewrite(
            Path jar, Path target, String entryName, String text, String spiVersion, boolean nextJava) {
        try {
            Files.createDirectories(target.toAbsolutePath().getParent());
            Path temp = Files.createTempFile(target.toAbsolutePath().getParent(), ".rewrite-", ".tmp");
            try (JarFile in = new JarFile(jar.toFile())) {
                Manifest manifest = new Manifest(in.getManifest());
                if (spiVersion != null) {
                    Attributes main = manifest.getMainAttributes();
                    main.remove(new Attributes.Name(SpiVersion.MANIFEST_ATTRIBUTE));
                    if (!spiVersion.isEmpty()) {
                        main.putValue(SpiVersion.MANIFEST_ATTRIBUTE, spiVersion);
                    }
                }
                try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(temp), manifest)) {
                    for (Enumeration<JarEntry> entries = in.entries(); entries.hasMoreElements(); ) {
                        JarEntry entry = entries.nextElement();
                        if (entry.getName().equals(JarFile.MANIFEST_NAME)
                                || entry.getName().equals(entryName)) {
                            continue;
                        }
                        out.putNextEntry(new JarEntry(entry.getName()));
                        byte[] bytes = in.getInputStream(entry).readAllBytes();
                        if (nextJava && entry.getName().endsWith(".class")) {
                            int major = Runtime.version().feature() + 45; // the class file version of this Java
                            bytes[6] = (byte) ((major + 1) >> 8);
                            bytes[7] = (byte) (major + 1);
                        }
                        out.write(bytes);
                        out.closeEntry();
                    }
                    if (entryName != null) {
                        out.putNextEntry(new JarEntry(entryName));
                        out.write(text.getBytes(StandardCharsets.UTF_8));
                        out.closeEntry();
                    }
                }
            }
            // Over the old file in place, as `cp new.jar engines/x.jar` does (not a rename: same inode).
            if (Files.exists(target)) {
                Files.write(target, Files.readAllBytes(temp));
                Files.delete(temp);
            } else {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
