package dev.autocomplete.server.storage;

import dev.autocomplete.server.auth.KeyRecord;
import dev.autocomplete.server.auth.KeysFile;
import dev.autocomplete.server.auth.PostgresKeyStore;
import dev.autocomplete.server.store.Database;
import dev.autocomplete.server.tenant.TenantRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code storage migrate}: moves an SQLite deployment into PostgreSQL, all or nothing. Every table of the
 * {@link StoredComponents} the SQLite store holds is copied row for row (read in one snapshot, so a server still
 * running beside it does not tear the copy), the change feed's sequence numbers included, so replicas started on
 * PostgreSQL begin where the SQLite server stopped; each tenant's {@code keys.yaml} is imported into the
 * {@code keys} table as a replica would import it. Everything is written in one PostgreSQL transaction: a failure
 * leaves the target as it was.
 */
public final class StorageMigration {

    private static final int BATCH = 1000;

    /** A table copied, and how many rows. */
    public record Copied(String table, long rows) {}

    /** What was moved: the tables in copy order, then the keys imported per tenant. */
    public record Outcome(List<Copied> tables, List<PostgresKeyStore.Imported> keys) {}

    /** The target holds data already, and replacing it was not asked for; nothing was changed. */
    public static final class TargetNotEmpty extends RuntimeException {
        TargetNotEmpty(String target, List<String> tables) {
            super(target + " already holds data (in " + String.join(", ", tables) + "); nothing was changed. "
                    + "Migrate into an empty database, or add --replace to delete what it holds first.");
        }
    }

    private StorageMigration() {}

    /**
     * Copies {@code source} (SQLite) and the keys files under {@code tenantsRoot} into {@code target}
     * (PostgreSQL).
     *
     * @param replace delete what the target's tables hold first, instead of refusing
     * @throws TargetNotEmpty when the target holds rows and {@code replace} is false
     * @throws IOException when a keys file cannot be read (nothing is changed)
     */
    public static Outcome migrate(Database source, Path tenantsRoot, Database target, boolean replace)
            throws IOException {
        Map<String, Integer> held = source.read(connection -> {
            StoredComponents.refuseNewer(connection, source.dialect(), source.description());
            Map<String, Integer> versions = new HashMap<>();
            for (StoredComponents.Component component : StoredComponents.ALL) {
                versions.put(component.name(), Database.schemaVersion(connection, component.name()));
            }
            return versions;
        });
        // An older SQLite schema is brought up first, as the SQLite server would at its next start.
        for (StoredComponents.Component component : StoredComponents.ALL) {
            if (held.get(component.name()) > 0) {
                source.migrate(component.name(), component.schema().apply(source.dialect()));
            }
        }
        List<KeyFile> keyFiles = keyFiles(tenantsRoot);
        return target.write(connection -> {
            for (StoredComponents.Component component : StoredComponents.ALL) {
                target.migrate(connection, component.name(), component.schema().apply(target.dialect()));
            }
            List<String> occupied = occupied(connection);
            if (!occupied.isEmpty() && !replace) {
                throw new TargetNotEmpty(target.description(), occupied);
            }
            List<String> tables = StoredComponents.ALL.stream()
                    .flatMap(c -> c.tables().stream())
                    .toList();
            List<String> children = new ArrayList<>(tables);
            Collections.reverse(children);
            for (String table : children) {
                try (Statement delete = connection.createStatement()) {
                    delete.executeUpdate("DELETE FROM " + table);
                }
            }
            List<Copied> copied = source.snapshot(from -> {
                List<Copied> done = new ArrayList<>();
                for (StoredComponents.Component component : StoredComponents.ALL) {
                    if (held.get(component.name()) == 0) {
                        continue;
                    }
                    for (String table : component.tables()) {
                        done.add(new Copied(table, copy(from, connection, table)));
                        continueSequences(connection, table);
                    }
                }
                return done;
            });
            List<PostgresKeyStore.Imported> keys = new ArrayList<>();
            for (KeyFile file : keyFiles) {
                keys.add(PostgresKeyStore.importOnce(
                        connection, file.tenant(), file.path(), file.digest(), file.records()));
            }
            return new Outcome(copied, keys);
        });
    }

    /** A tenant's keys file, read before the transaction starts. */
    private record KeyFile(String tenant, Path path, String digest, List<KeyRecord> records) {}

    private static List<KeyFile> keyFiles(Path tenantsRoot) throws IOException {
        List<KeyFile> files = new ArrayList<>();
        for (Path directory : TenantRegistry.tenantDirectories(tenantsRoot)) {
            KeysFile file = new KeysFile(directory);
            if (!Files.isRegularFile(file.path())) {
                continue;
            }
            try {
                files.add(new KeyFile(directory.getFileName().toString(), file.path(), file.digest(), file.read()));
            } catch (IOException | RuntimeException e) {
                throw new IOException(
                        file.path() + " cannot be read (" + e.getMessage() + "); fix it and migrate "
                                + "again. Nothing was changed.",
                        e);
            }
        }
        return files;
    }

    /** The registered tables of the target that hold rows. */
    private static List<String> occupied(Connection connection) throws SQLException {
        List<String> occupied = new ArrayList<>();
        for (StoredComponents.Component component : StoredComponents.ALL) {
            for (String table : component.tables()) {
                try (Statement statement = connection.createStatement();
                        ResultSet row = statement.executeQuery("SELECT EXISTS (SELECT 1 FROM " + table + ")")) {
                    if (row.next() && row.getBoolean(1)) {
                        occupied.add(table);
                    }
                }
            }
        }
        return occupied;
    }

    /** Copies every row of {@code table}, column by column as the source names them, in batches. */
    private static long copy(Connection from, Connection to, String table) throws SQLException {
        Map<String, Integer> targetTypes = columnTypes(to, table);
        try (Statement select = from.createStatement()) {
            select.setFetchSize(BATCH);
            try (ResultSet rows = select.executeQuery("SELECT * FROM " + table)) {
                ResultSetMetaData meta = rows.getMetaData();
                int count = meta.getColumnCount();
                List<String> columns = new ArrayList<>();
                int[] types = new int[count];
                for (int i = 1; i <= count; i++) {
                    String column = meta.getColumnName(i).toLowerCase(java.util.Locale.ROOT);
                    Integer type = targetTypes.get(column);
                    if (type == null) {
                        throw new SQLException("column " + table + "." + column + " is missing in the target");
                    }
                    columns.add(column);
                    types[i - 1] = type;
                }
                String sql = "INSERT INTO " + table + " (" + String.join(", ", columns) + ") VALUES ("
                        + String.join(", ", Collections.nCopies(count, "?")) + ")";
                long copied = 0;
                try (PreparedStatement insert = to.prepareStatement(sql)) {
                    while (rows.next()) {
                        for (int i = 1; i <= count; i++) {
                            // Converted to the target column's type: SQLite hands back what it stored.
                            insert.setObject(i, rows.getObject(i), types[i - 1]);
                        }
                        insert.addBatch();
                        if (++copied % BATCH == 0) {
                            insert.executeBatch();
                        }
                    }
                    insert.executeBatch();
                } catch (SQLException e) {
                    throw new SQLException("copying " + table + " failed: " + e.getMessage(), e.getSQLState(), e);
                }
                return copied;
            }
        }
    }

    private static Map<String, Integer> columnTypes(Connection connection, String table) throws SQLException {
        Map<String, Integer> types = new HashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet none = statement.executeQuery("SELECT * FROM " + table + " WHERE 1 = 0")) {
            ResultSetMetaData meta = none.getMetaData();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                types.put(meta.getColumnName(i).toLowerCase(java.util.Locale.ROOT), meta.getColumnType(i));
            }
        }
        return types;
    }

    /** Moves every sequence behind a column of {@code table} (serial, identity) past the rows copied into it. */
    private static void continueSequences(Connection connection, String table) throws SQLException {
        List<String[]> sequences = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT attname, pg_get_serial_sequence(?, attname) "
                + "FROM pg_attribute WHERE attrelid = ?::regclass AND attnum > 0 AND NOT attisdropped")) {
            query.setString(1, table);
            query.setString(2, table);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    if (rows.getString(2) != null) {
                        sequences.add(new String[] {rows.getString(1), rows.getString(2)});
                    }
                }
            }
        }
        for (String[] sequence : sequences) {
            try (PreparedStatement set = connection.prepareStatement(
                    "SELECT setval(?, COALESCE((SELECT MAX(" + sequence[0] + ") FROM " + table + "), 0) + 1, false)")) {
                set.setString(1, sequence[1]);
                set.execute();
            }
        }
    }
}
