package dev.autocomplete.server.config;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The mark that a server runs on a data directory: a shared lock on {@code <data.dir>/serving.lock}, held while it
 * serves, which the operating system drops when the process ends, {@code kill -9} included. A command that replaces
 * the store under it ({@code storage restore}) takes the lock exclusively, and so refuses while any server holds it:
 * a running server would go on serving what it holds in memory, and index later writes against the old store.
 * Shared, because it marks and does not forbid: servers in one JVM (tests) share one lock through a count.
 */
public final class ServingMark implements AutoCloseable {

    /** The lock file in the data directory. */
    public static final String FILE = "serving.lock";

    private static final Map<Path, Held> HELD = new HashMap<>();

    private final Path file;
    private boolean closed;

    private ServingMark(Path file) {
        this.file = file;
    }

    /** The directory is held the other way: a restore while a server starts, a server while a restore runs. */
    public static final class Busy extends IOException {
        Busy(String message) {
            super(message);
        }
    }

    /** One process's lock and how many servers of it hold it. */
    private static final class Held {
        private final FileChannel channel;
        private final FileLock lock;
        private int servers;

        private Held(FileChannel channel, FileLock lock) {
            this.channel = channel;
            this.lock = lock;
        }
    }

    /**
     * Marks {@code dataDirectory} as served until {@link #close}.
     *
     * @throws Busy while a restore holds the directory
     */
    public static ServingMark hold(Path dataDirectory) throws IOException {
        Path file = file(dataDirectory);
        synchronized (HELD) {
            Held held = HELD.get(file);
            if (held == null) {
                FileChannel channel = open(file);
                FileLock lock;
                try {
                    lock = channel.tryLock(0, Long.MAX_VALUE, true);
                } catch (IOException | RuntimeException e) {
                    channel.close();
                    throw e;
                }
                if (lock == null) {
                    channel.close();
                    throw new Busy("a storage restore is replacing the store in " + dataDirectory
                            + "; start the server once it has finished");
                }
                held = new Held(channel, lock);
                HELD.put(file, held);
            }
            held.servers++;
        }
        return new ServingMark(file);
    }

    /**
     * Runs {@code work} while no server may start on {@code dataDirectory}.
     *
     * @throws Busy when a server runs on it
     */
    public static <T> T exclusively(Path dataDirectory, Work<T> work) throws IOException {
        Path file = file(dataDirectory);
        synchronized (HELD) {
            try (FileChannel channel = open(file)) {
                FileLock lock = null;
                if (!HELD.containsKey(file)) {
                    try {
                        lock = channel.tryLock();
                    } catch (OverlappingFileLockException e) {
                        lock = null;
                    }
                }
                if (lock == null) {
                    throw new Busy("a server is running on the data directory " + dataDirectory + ": stop it first");
                }
                try {
                    return work.run();
                } finally {
                    lock.release();
                }
            }
        }
    }

    /** Work done under the exclusive lock. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws IOException;
    }

    @Override
    public void close() throws IOException {
        synchronized (HELD) {
            if (closed) {
                return;
            }
            closed = true;
            Held held = HELD.get(file);
            if (held != null && --held.servers == 0) {
                HELD.remove(file);
                try {
                    held.lock.release();
                } finally {
                    held.channel.close();
                }
            }
        }
    }

    private static Path file(Path dataDirectory) {
        return DataDirectory.create(dataDirectory)
                .resolve(FILE)
                .toAbsolutePath()
                .normalize();
    }

    private static FileChannel open(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
}
