package dev.autocomplete.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store in a real SQLite file. */
class SqliteCatalogStoreTest extends CatalogStoreContract {

    @TempDir
    Path directory;

    private Path file;

    @Override
    CatalogStore openEmpty() {
        file = directory.resolve("data").resolve("catalogs.db");
        return JdbcCatalogStore.sqlite(file);
    }

    @Override
    CatalogStore openAgain() {
        return JdbcCatalogStore.sqlite(file);
    }

    @Override
    Connection connect() throws Exception {
        return DriverManager.getConnection("jdbc:sqlite:" + file);
    }

    @Test
    void the_file_is_in_write_ahead_log_mode_and_keeps_records_across_a_reopen() throws Exception {
        store.upsert(CITIES, List.of(record("p", "Paris")));
        store.close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement statement = connection.createStatement();
                ResultSet mode = statement.executeQuery("PRAGMA journal_mode")) {
            assertTrue(mode.next());
            assertEquals("wal", mode.getString(1));
        }
        store = openAgain();
        assertEquals(List.of(record("p", "Paris")), all(store, CITIES));
        assertTrue(Files.isRegularFile(file));
    }

    @Test
    void a_replica_behind_the_pruned_changes_is_told_to_reload_every_catalog() throws Exception {
        store.upsert(OTHER, List.of(record("z", "Zoe")));
        long behind = store.lastSequence();
        store.upsert(CITIES, List.of(record("p", "Paris")));
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement statement = connection.createStatement()) {
            statement.execute("UPDATE catalog_changes SET at_millis = 0");
        }
        // A write crossing a thousand changes prunes those older than a day, keeping the newest.
        store.upsert(
                CITIES,
                java.util.stream.IntStream.range(0, 1000)
                        .mapToObj(i -> record("id" + i, "City " + i))
                        .toList());
        List<CatalogStore.Change> changes = store.changesSince(behind, 10);
        assertEquals(
                List.of(CITIES, OTHER),
                changes.stream().map(CatalogStore.Change::catalog).toList());
        assertTrue(
                changes.stream()
                        .allMatch(c -> c.kind() == CatalogStore.Kind.REPLACE && c.sequence() == store.lastSequence()),
                changes.toString());
        assertEquals(
                1000, store.changesSince(store.lastSequence() - 1000, 2000).size(), "changes of the last day are kept");
    }

    @Test
    void a_file_written_by_a_newer_schema_is_refused_rather_than_misread() throws Exception {
        store.close();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement statement = connection.createStatement()) {
            statement.execute("UPDATE schema_version SET version = 99 WHERE component = 'catalogs'");
        }
        // Not StorageUnavailableException: waiting does not help, so nothing retries it.
        NewerSchemaException refused =
                org.junit.jupiter.api.Assertions.assertThrows(NewerSchemaException.class, this::openAgain);
        assertTrue(refused.getMessage().contains("version 99 of the 'catalogs' schema"), refused.getMessage());
        store = JdbcCatalogStore.sqlite(directory.resolve("other.db"));
    }
}
