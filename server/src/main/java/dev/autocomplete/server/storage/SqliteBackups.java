package dev.autocomplete.server.storage;

import dev.autocomplete.server.store.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;

/**
 * Backups of the SQLite store that are safe while a server writes to it. Copying {@code catalogs.db} alone is not:
 * with the write-ahead log, acknowledged writes may still sit in {@code catalogs.db-wal}. A backup is made with
 * {@code VACUUM INTO}, one consistent snapshot in a new file; a restore goes through SQLite's backup API, which
 * replaces the store's pages in one transaction, log included.
 */
public final class SqliteBackups {

    private SqliteBackups() {}

    /** Writes a consistent copy of the store to {@code to}, which must not exist; returns its size in bytes. */
    public static long backup(Database store, Path to) throws IOException {
        if (store.dialect() != Database.Dialect.SQLITE) {
            throw new IllegalArgumentException("only the SQLite store is backed up this way; back PostgreSQL up "
                    + "with pg_dump (docs/deployment.md)");
        }
        if (Files.exists(to)) {
            throw new IllegalArgumentException(to + " exists already; name a new file");
        }
        store.read(connection -> {
            try (PreparedStatement vacuum = connection.prepareStatement("VACUUM INTO ?")) {
                vacuum.setString(1, to.toAbsolutePath().toString());
                vacuum.execute();
            }
            return null;
        });
        return Files.size(to);
    }

    /**
     * Replaces the store in {@code database} with the backup {@code from}, after checking that the backup is whole
     * and that this binary knows its schema versions. Every server using the store must be stopped first.
     */
    public static void restore(Path from, Path database) throws IOException {
        if (!Files.isRegularFile(from)) {
            throw new IllegalArgumentException("no backup file " + from);
        }
        if (from.toAbsolutePath().toString().contains("'")) {
            throw new IllegalArgumentException("the backup's path may not contain a single quote: " + from);
        }
        SQLiteConfig readOnly = new SQLiteConfig();
        readOnly.setReadOnly(true);
        try (Connection backup = readOnly.createConnection("jdbc:sqlite:" + from.toAbsolutePath())) {
            check(backup, from);
        } catch (SQLException e) {
            throw new IOException(from + " is not an autocomplete store backup: " + e.getMessage(), e);
        }
        Files.createDirectories(database.toAbsolutePath().getParent());
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(10_000);
        try (Connection store = config.createConnection("jdbc:sqlite:" + database.toAbsolutePath());
                Statement statement = store.createStatement()) {
            // sqlite-jdbc's own statement for sqlite3_backup_* from the file into this connection's database.
            statement.executeUpdate("restore from '" + from.toAbsolutePath() + "'");
        } catch (SQLException e) {
            throw new IOException(
                    "restoring " + database + " from " + from + " failed (the store is as it was): " + e.getMessage(),
                    e);
        }
    }

    private static void check(Connection backup, Path from) throws SQLException {
        try (Statement statement = backup.createStatement();
                ResultSet row = statement.executeQuery("PRAGMA integrity_check")) {
            row.next();
            if (!"ok".equals(row.getString(1))) {
                throw new SQLException("integrity check: " + row.getString(1));
            }
        }
        if (!Database.hasTable(backup, "schema_version")) {
            throw new SQLException("it has no schema_version table");
        }
        StoredComponents.refuseNewer(backup, Database.Dialect.SQLITE, "The backup " + from);
    }
}
