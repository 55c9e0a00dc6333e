package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.store.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What this binary does with a store a newer version wrote (a component's schema version above the one it
 * knows): {@code serve} and the commands exit with a message naming the component, both versions and the two ways
 * out, and the store is left exactly as it was. Both stores: SQLite (the catalogs component) and PostgreSQL (the
 * keys component, which the server opens after the catalogs).
 */
class SchemaVersionTest {

    @TempDir
    Path temp;

    @Test
    void an_older_binary_refuses_an_sqlite_store_a_newer_one_wrote() throws Exception {
        SqliteStore store = SqliteStore.withOneOption(temp);
        StorageFixture fixture = store.fixture();
        Path data = store.data();
        String sqlite = store.url();
        bump(sqlite, "catalogs");
        List<String> before = contents(sqlite);

        ServerProcess.Exit serve = ServerProcess.run(
                fixture.env,
                "serve",
                "--port",
                "0",
                "--management-port",
                "0",
                "--tenants",
                fixture.tenants.toString(),
                "--data-dir",
                data.toString());
        int known = dev.autocomplete.server.store.JdbcCatalogStore.schema(
                        dev.autocomplete.server.store.Database.Dialect.SQLITE)
                .size();
        assertRefused(serve, "catalogs", known + 1, known);
        ServerProcess.Exit export = ServerProcess.run(
                fixture.env,
                "catalog",
                "export",
                "--tenants",
                fixture.tenants.toString(),
                "--data-dir",
                data.toString(),
                "--tenant",
                "shop",
                "--catalog",
                "products",
                temp.resolve("out.ndjson").toString());
        assertRefused(export, "catalogs", known + 1, known);
        assertEquals(before, contents(sqlite), "nothing changed");

        // Rolled forward (here: the version put back as the newer binary would have left it), it serves again.
        unbump(sqlite, "catalogs");
        store.serveOnce(temp.resolve("again.log"));
    }

    @Test
    void an_upgrade_of_an_older_store_keeps_its_options_and_says_an_older_binary_now_refuses_it() throws Exception {
        SqliteStore store = SqliteStore.withOneOption(temp);
        // The store as version 1 of the catalogs schema left it: no attributes column (version 2), no versions of a
        // catalog's rows (version 3).
        try (Connection connection = DriverManager.getConnection(store.url());
                Statement statement = connection.createStatement()) {
            statement.executeUpdate("ALTER TABLE catalog_options DROP COLUMN attributes");
            // Rows a seed wrote under a version of the catalog go back under its name, as version 1 kept them.
            statement.executeUpdate("UPDATE catalog_options SET catalog = (SELECT k.catalog FROM catalog_catalogs k "
                    + "WHERE k.tenant = catalog_options.tenant AND k.rows_key = catalog_options.catalog) "
                    + "WHERE catalog IN (SELECT rows_key FROM catalog_catalogs)");
            statement.executeUpdate("ALTER TABLE catalog_catalogs DROP COLUMN rows_key");
            statement.executeUpdate("DROP TABLE catalog_builds");
            assertEquals(
                    1,
                    statement.executeUpdate("UPDATE schema_version SET version = 1 WHERE component = " + "'catalogs'"));
        }
        int known = dev.autocomplete.server.store.JdbcCatalogStore.schema(
                        dev.autocomplete.server.store.Database.Dialect.SQLITE)
                .size();
        String upgraded = store.serveOnce(temp.resolve("upgraded.log"));
        assertTrue(
                upgraded.contains("upgraded the 'catalogs' tables from schema version 1 to " + known
                        + "; an older autocomplete now refuses this store. To roll back, restore the backup taken "
                        + "before this upgrade"),
                upgraded);
        // Said once: a start on a store already at this version says nothing about upgrading.
        String again = store.serveOnce(temp.resolve("again.log"));
        assertTrue(!again.contains("upgraded the"), again);
    }

    @Test
    void an_older_binary_refuses_a_postgresql_store_whose_keys_schema_is_newer() throws Exception {
        try (PostgresServer postgres = PostgresServer.start()) {
            String url = postgres.newDatabase();
            StorageFixture fixture = new StorageFixture(temp).on(url);
            fixture.key("public");
            bump(url, "keys");
            List<String> before = contents(url);
            ServerProcess.Exit serve = ServerProcess.run(
                    fixture.env,
                    "serve",
                    "--port",
                    "0",
                    "--management-port",
                    "0",
                    "--tenants",
                    fixture.tenants.toString(),
                    "--data-dir",
                    temp.resolve("data").toString());
            assertRefused(serve, "keys", 2, 1);
            ServerProcess.Exit keys = ServerProcess.run(
                    fixture.env, "keys", "list", "--tenants", fixture.tenants.toString(), "--tenant", "shop");
            assertTrue(keys.code() != 0 && keys.output().contains("version 2 of the 'keys' schema"), keys.output());
            assertEquals(before, contents(url), "nothing changed");
        }
    }

    /** An SQLite store in {@code data} that a server wrote one option into ("Quantum Widget"), and a public key. */
    private record SqliteStore(StorageFixture fixture, Path data, String publicKey) {

        static SqliteStore withOneOption(Path temp) throws Exception {
            StorageFixture fixture = new StorageFixture(temp);
            Path data = temp.resolve("data");
            String publicKey = fixture.key("public");
            String secret = fixture.key("secret");
            try (ServerProcess server = fixture.serve(data, temp.resolve("first.log"))) {
                StorageFixture.upsert(new ApiClient(server.port()), secret, "qw-1", "Quantum Widget");
            }
            return new SqliteStore(fixture, data, publicKey);
        }

        String url() {
            return "jdbc:sqlite:" + data.resolve("catalogs.db");
        }

        /** Serves the store until the option is offered, then stops; returns the server's log. */
        String serveOnce(Path log) throws Exception {
            try (ServerProcess server = fixture.serve(data, log)) {
                assertTrue(StorageFixture.offered(new ApiClient(server.port()), publicKey, "Order Qu")
                        .contains("Quantum Widget"));
            }
            return Files.readString(log);
        }
    }

    private static void assertRefused(ServerProcess.Exit exit, String component, int stored, int known) {
        String output = exit.output();
        assertEquals(2, exit.code(), output);
        assertTrue(
                output.contains("holds version " + stored + " of the '" + component + "' schema, but this "
                        + "autocomplete knows versions up to " + known),
                output);
        assertTrue(
                output.contains("Run the newer version again (roll forward), or restore the backup taken before "
                        + "upgrading"),
                output);
        assertTrue(output.contains("nothing was changed"), output);
        assertTrue(!output.contains("Exception") && !output.contains("\tat "), "no stack trace: " + output);
    }

    private static void bump(String url, String component) throws SQLException {
        execute(url, "UPDATE schema_version SET version = version + 1 WHERE component = '" + component + "'");
    }

    private static void unbump(String url, String component) throws SQLException {
        execute(url, "UPDATE schema_version SET version = version - 1 WHERE component = '" + component + "'");
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            assertEquals(1, statement.executeUpdate(sql));
        }
    }

    /** Every row of the tables a refused start could touch, as text. */
    private static List<String> contents(String url) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            for (String table : List.of(
                    "schema_version",
                    "catalog_catalogs",
                    "catalog_options",
                    "catalog_changes",
                    "keys",
                    "keys_imported")) {
                if (!table.equals("schema_version") && url.startsWith("jdbc:sqlite") == table.startsWith("keys")) {
                    continue;
                }
                try (ResultSet result = statement.executeQuery("SELECT * FROM " + table + " ORDER BY 1")) {
                    while (result.next()) {
                        StringBuilder row = new StringBuilder(table);
                        for (int i = 1; i <= result.getMetaData().getColumnCount(); i++) {
                            row.append('|').append(result.getString(i));
                        }
                        rows.add(row.toString());
                    }
                }
            }
        }
        return rows;
    }
}
