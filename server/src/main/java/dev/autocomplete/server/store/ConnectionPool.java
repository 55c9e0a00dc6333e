package dev.autocomplete.server.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A few open connections, reused: at most {@code size} in use at once. A connection that failed is dropped rather
 * than handed out again, so that the next use opens a fresh one (PostgreSQL came back), and with {@code validate}
 * an idle one is checked before use (PostgreSQL restarted while it sat idle). Thread-safe.
 */
final class ConnectionPool implements AutoCloseable {

    /** Opens one connection. */
    @FunctionalInterface
    interface Opener {
        Connection open() throws SQLException;
    }

    private static final long WAIT_SECONDS = 10;

    private final String description;
    private final Opener opener;
    private final boolean validate;
    private final Semaphore permits;
    private final Deque<Connection> idle = new ArrayDeque<>();
    private boolean closed;

    ConnectionPool(String description, Opener opener, int size, boolean validate) {
        this.description = description;
        this.opener = opener;
        this.validate = validate;
        this.permits = new Semaphore(size, true);
    }

    /** Runs {@code work} on a connection; any {@link SQLException} becomes a {@link StorageUnavailableException}. */
    <T> T use(Database.Work<T> work) {
        // JDBC's calls into SQLite are native: a virtual thread would hold its carrier through them.
        return PlatformThreads.call(() -> useHere(work));
    }

    private <T> T useHere(Database.Work<T> work) {
        try {
            if (!permits.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new StorageUnavailableException(
                        description + ": every connection stayed busy for " + WAIT_SECONDS + " s", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageUnavailableException(description + ": interrupted while waiting for a connection", e);
        }
        Connection connection = null;
        boolean broken = false;
        try {
            connection = borrow();
            return work.run(connection);
        } catch (SQLException e) {
            broken = true;
            throw new StorageUnavailableException(description + ": " + e.getMessage(), e);
        } finally {
            giveBack(connection, !broken);
            permits.release();
        }
    }

    private Connection borrow() throws SQLException {
        while (true) {
            Connection connection;
            synchronized (this) {
                if (closed) {
                    throw new SQLException("closed");
                }
                connection = idle.pollLast();
            }
            if (connection == null) {
                return opener.open();
            }
            if (!validate || connection.isValid(2)) {
                return connection;
            }
            closeQuietly(connection);
        }
    }

    private void giveBack(Connection connection, boolean healthy) {
        if (connection == null) {
            return;
        }
        synchronized (this) {
            if (healthy && !closed) {
                idle.addLast(connection);
                return;
            }
        }
        closeQuietly(connection);
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Already broken.
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            idle.forEach(ConnectionPool::closeQuietly);
            idle.clear();
        }
    }
}
