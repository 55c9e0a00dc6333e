package dev.autocomplete.server.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The server's data directory ({@link ServerSettings#data()}): the token signing secret, live catalogs, the
 * snapshots of a shared store. Created readable by its owner only, whoever creates it first.
 */
public final class DataDirectory {

    private DataDirectory() {}

    /** Creates {@code directory} (and its parents) owner-only where the file system has POSIX permissions. */
    public static Path create(Path directory) {
        try {
            if (Files.isDirectory(directory)) {
                return directory;
            }
            if (directory.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createDirectories(
                        directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(directory);
            }
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the data directory " + directory + ": " + e.getMessage(), e);
        }
    }
}
