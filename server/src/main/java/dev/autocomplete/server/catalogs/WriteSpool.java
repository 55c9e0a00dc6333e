package dev.autocomplete.server.catalogs;

import dev.autocomplete.server.config.DataDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a records write's body is copied before it is checked ({@link CheckedRecords#spool}): {@code spool/} in the
 * data directory, owner-only like the rest of it. Not {@code java.io.tmpdir}, which is often a RAM file system
 * shared with every other program, and where what a killed server left (a {@code kill -9} or the OOM killer during
 * a write) stayed until the machine restarted.
 *
 * <p>Each file is named after the process that writes it, so a server that opens the spool removes the files of
 * processes that no longer run, and of its own process id from an earlier life (a container's server is often
 * process 1 every time), but never the file of another process still writing with the same directory.
 */
public final class WriteSpool {

    private static final System.Logger LOG = System.getLogger(WriteSpool.class.getName());

    /** The spool's directory in the data directory. */
    public static final String DIRECTORY = "spool";

    private static final String SUFFIX = ".body";

    private final Path directory;
    private final long pid = ProcessHandle.current().pid();

    private WriteSpool(Path directory) {
        this.directory = directory;
    }

    /**
     * The spool of {@code dataDirectory}, created owner-only when missing, without the files that stopped processes
     * left there.
     *
     * @throws UncheckedIOException when the directory cannot be created
     */
    public static WriteSpool open(Path dataDirectory) {
        WriteSpool spool = new WriteSpool(DataDirectory.create(dataDirectory.resolve(DIRECTORY)));
        spool.removeLeftovers();
        return spool;
    }

    /** The spool's directory, for messages. */
    public Path directory() {
        return directory;
    }

    /** A new empty file in the spool, readable and writable by this user only. */
    Path newFile() throws IOException {
        return Files.createTempFile(directory, pid + "-", SUFFIX);
    }

    private void removeLeftovers() {
        int removed = 0;
        long bytes = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path file : files) {
                long writer = writer(file.getFileName().toString());
                if (writer < 0 || (writer != pid && ProcessHandle.of(writer).isPresent())) {
                    continue;
                }
                long size = Files.size(file);
                if (Files.deleteIfExists(file)) {
                    removed++;
                    bytes += size;
                }
            }
        } catch (IOException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Could not remove the records write bodies that stopped servers left in " + directory + ": "
                            + e.getMessage());
            return;
        }
        if (removed > 0) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "Removed " + removed + " records write bod" + (removed == 1 ? "y" : "ies") + " (" + bytes
                            + " bytes) that a stopped server left in " + directory);
        }
    }

    /** The process id a spool file's name starts with, or -1 for a file this class did not make. */
    private static long writer(String name) {
        int dash = name.indexOf('-');
        if (dash <= 0) {
            return -1;
        }
        try {
            return Long.parseLong(name, 0, dash, 10);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
