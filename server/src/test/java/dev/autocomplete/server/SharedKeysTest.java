package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.autocomplete.server.auth.ApiKeys;
import dev.autocomplete.server.store.PostgresServer;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys in PostgreSQL ({@code storage.url}): two servers on one database, the real {@code keys} commands
 * against it, an outage of PostgreSQL, and the one-time import of a {@code keys.yaml}.
 */
class SharedKeysTest {

    private static PostgresServer postgres;

    @TempDir
    Path temp;

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = PostgresServer.start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    /** A replica: its own data directory, as every replica has (docs/scaling.md). */
    private static AutocompleteServer start(Path tenants, String url) throws Exception {
        return AutocompleteServer.start(TestServers.replica(tenants, url));
    }

    /** The settings file the keys commands read, naming the database as {@code serve} would. */
    private Path config(String url) throws Exception {
        return Files.writeString(temp.resolve("autocomplete.yaml"), "storage:\n  url: \"" + url + "\"\n");
    }

    private static TestTenants.Cli keys(Path config, Path tenants, String... args) {
        List<String> all = new ArrayList<>(List.of(
                "keys", args[0], "--config", config.toString(), "--tenants", tenants.toString(), "--tenant", "demo"));
        all.addAll(List.of(args).subList(1, args.length));
        return TestTenants.cli(all.toArray(String[]::new));
    }

    private static String create(Path config, Path tenants, String... options) {
        List<String> args =
                new ArrayList<>(List.of("create", "--type", "public", "--product", "travel", "--rate", "10000"));
        args.addAll(List.of(options));
        TestTenants.Cli created = keys(config, tenants, args.toArray(String[]::new));
        assertEquals(0, created.exit(), created.err());
        return created.lastLine();
    }

    private static int status(AutocompleteServer server, String key) {
        return new ApiClient(server.port()).suggest(key, envelope("")).status();
    }

    private static String idOf(String key) {
        return ApiKeys.idOf(ApiKeys.digest(key));
    }

    @Test
    void a_key_created_or_revoked_with_the_cli_is_in_force_on_both_replicas_within_two_seconds() throws Exception {
        String url = postgres.newDatabase();
        Path tenants = TestTenants.copyOfDemo(temp);
        Path config = config(url);
        try (AutocompleteServer a = start(tenants, url);
                AutocompleteServer b = start(tenants, url)) {
            String key = create(config, tenants);
            assertTrue(
                    AccessTokenTest.within2Seconds(() -> status(a, key) == 200 && status(b, key) == 200),
                    "a new key works on both replicas");

            TestTenants.Cli revoked = keys(config, tenants, "revoke", idOf(key));
            assertEquals(0, revoked.exit(), revoked.err());
            assertTrue(
                    AccessTokenTest.within2Seconds(() -> status(a, key) == 401 && status(b, key) == 401),
                    "a revoked key is refused on both replicas");
        }
        assertFalse(Files.exists(tenants.resolve("demo/keys.yaml")), "keys.yaml is not written");
    }

    @Test
    void keys_commands_write_and_read_postgresql_and_store_only_digests_and_uses() throws Exception {
        String url = postgres.newDatabase();
        Path tenants = TestTenants.copyOfDemo(temp);
        Path config = config(url);
        TestTenants.Cli created = keys(
                config,
                tenants,
                "create",
                "--type",
                "secret",
                "--scopes",
                "catalogs",
                "--origins",
                "https://app.example.com",
                "--expires",
                "2099-01-01",
                "--rate",
                "7");
        assertEquals(0, created.exit(), created.err());
        String secret = created.lastLine();

        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement select = connection.prepareStatement("SELECT * FROM keys WHERE id = ?")) {
            select.setString(1, idOf(secret));
            try (ResultSet row = select.executeQuery()) {
                assertTrue(row.next());
                assertEquals("demo", row.getString("tenant"));
                assertEquals(ApiKeys.digest(secret), row.getString("digest"));
                assertEquals(List.of("catalogs"), List.of((String[])
                        row.getArray("uses").getArray()));
                assertEquals(7, row.getLong("rate_per_second"));
                for (int column = 1; column <= row.getMetaData().getColumnCount(); column++) {
                    String value = String.valueOf(row.getObject(column));
                    assertFalse(value.contains(secret.substring(6, 20)), "no part of the key is stored: " + value);
                }
            }
        }
        TestTenants.Cli list = keys(config, tenants, "list");
        assertEquals(0, list.exit(), list.err());
        assertTrue(
                list.out()
                        .lines()
                        .anyMatch(line -> line.startsWith(idOf(secret))
                                && line.contains(" catalogs ")
                                && line.contains("https://app.example.com")
                                && line.contains("2099-01-01T00:00:00Z")
                                && line.contains("7/s:14")),
                list.out());
        assertFalse(list.out().contains(secret));
        assertEquals(1, keys(config, tenants, "revoke", "key_000000000000").exit());
        assertFalse(Files.exists(tenants.resolve("demo/keys.yaml")));

        try (AutocompleteServer server = start(tenants, url)) {
            ApiClient.Reply mint =
                    AccessTokenTest.mint(new ApiClient(server.port()), secret, AccessTokenTest.TRAVEL_ID);
            assertEquals("KEY_SCOPE", mint.errorCode(), "the uses came back from PostgreSQL: " + mint.raw());
        }
    }

    @Test
    void with_postgresql_down_known_keys_keep_working_and_changes_are_caught_up_after_it_returns() throws Exception {
        String url = postgres.newDatabase();
        Path tenants = TestTenants.copyOfDemo(temp);
        Path config = config(url);
        String kept = create(config, tenants);
        String revokedUnheard = create(config, tenants);
        try (AutocompleteServer server = start(tenants, url)) {
            ApiClient management = ApiClient.management(server.managementPort());
            assertEquals(200, status(server, kept));
            postgres.stop();
            try {
                assertTrue(
                        AccessTokenTest.within2Seconds(() -> keysCheck(management)
                                .path("data")
                                .path("following")
                                .asText()
                                .equals("false")),
                        "the lost connection is noticed");
                for (int i = 0; i < 10; i++) {
                    assertEquals(200, status(server, kept), "known keys keep working while PostgreSQL is down");
                    Thread.sleep(200);
                }
                assertEquals("UP", keysCheck(management).path("status").asText(), "a replica that loaded keys serves");
                assertEquals(200, new ApiClient(server.port()).get("/ready").status());
            } finally {
                postgres.restart();
            }
            String fresh = create(config, tenants);
            assertTrue(
                    AccessTokenTest.within2Seconds(() -> status(server, fresh) == 200),
                    "listening again once PostgreSQL is back");

            // A change whose notification is lost: made without one, then the listening connection is cut.
            try (Connection connection = DriverManager.getConnection(url);
                    Statement statement = connection.createStatement()) {
                statement.execute("UPDATE keys SET revoked_at = now() WHERE id = '" + idOf(revokedUnheard) + "'");
                assertEquals(200, status(server, revokedUnheard), "no notification, so not yet seen");
                statement
                        .executeQuery("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name"
                                + " = 'autocomplete-keys-listener'")
                        .close();
            }
            assertTrue(
                    AccessTokenTest.within2Seconds(() -> status(server, revokedUnheard) == 401),
                    "the catch-up after a lost connection reads what it missed");
            assertEquals(200, status(server, kept));
        }
    }

    private static JsonNode keysCheck(ApiClient management) {
        for (JsonNode check : management.get("/observe/health").json().path("checks")) {
            if (check.path("name").asText().equals("keys")) {
                return check;
            }
        }
        throw new AssertionError("no keys check in /observe/health");
    }

    @Test
    void a_replica_that_starts_while_postgresql_is_unreachable_is_not_ready() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        try (AutocompleteServer server = start(
                tenants, "jdbc:postgresql://127.0.0.1:" + closedPort + "/none?user=x" + "&password=never-logged")) {
            ApiClient.Reply ready = new ApiClient(server.port()).get("/ready");
            assertEquals(503, ready.status(), ready.raw());
            JsonNode keys = keysCheck(ApiClient.management(server.managementPort()));
            assertEquals("DOWN", keys.path("status").asText(), keys.toString());
            assertEquals("never", keys.path("data").path("loaded_at").asText());
            assertFalse(keys.toString().contains("never-logged"));
        }
    }

    @Test
    void an_existing_keys_yaml_is_imported_once_and_later_edits_are_not_merged() throws Exception {
        String url = postgres.newDatabase();
        Path tenants = TestTenants.copyOfDemo(temp);
        String before = TestTenants.createKey(tenants, "demo", "public", "travel");
        String revokedBefore = TestTenants.createKey(tenants, "demo", "secret", null, "--scopes", "suggest");
        assertEquals(
                0,
                TestTenants.cli(
                                "keys",
                                "revoke",
                                "--tenants",
                                tenants.toString(),
                                "--tenant",
                                "demo",
                                idOf(revokedBefore))
                        .exit());
        try (AutocompleteServer server = start(tenants, url)) {
            assertEquals(200, status(server, before), "imported at the first start");
            assertEquals(401, status(server, revokedBefore), "revoked in the file, revoked in PostgreSQL");
        }
        assertEquals(List.of("demo"), importedTenants(url));

        // The server marked the file: a keys command without the storage URL refuses it, and writes nothing.
        Path file = tenants.resolve("demo/keys.yaml");
        String marked = Files.readString(file);
        assertTrue(marked.startsWith("imported_into: \"PostgreSQL "), marked);
        TestTenants.Cli stray = TestTenants.cli(
                "keys", "create", "--tenants", tenants.toString(), "--tenant", "demo", "--type", "secret");
        assertEquals(2, stray.exit(), stray.err());
        assertEquals(marked, Files.readString(file));
        // Edited anyway (its mark deleted, as the refusal says a deployment back on SQLite would).
        Files.writeString(file, marked.substring(marked.indexOf('\n') + 1));
        String afterImport = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = start(tenants, url)) {
            assertEquals(200, status(server, before));
            assertEquals(401, status(server, afterImport), "an edit of the file after the import is not merged");
        }
        TestTenants.Cli list = keys(config(url), tenants, "list");
        assertTrue(list.out().contains(idOf(before)) && list.out().contains(idOf(revokedBefore)), list.out());
        assertFalse(list.out().contains(idOf(afterImport)), list.out());
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet uses =
                        statement.executeQuery("SELECT uses FROM keys WHERE id = '" + idOf(revokedBefore) + "'")) {
            assertTrue(uses.next());
            assertEquals(List.of("suggest"), List.of((String[]) uses.getArray(1).getArray()));
        }
    }

    private static List<String> importedTenants(String url) throws SQLException {
        List<String> tenants = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT tenant FROM keys_imported ORDER BY tenant")) {
            while (rows.next()) {
                tenants.add(rows.getString(1));
            }
        }
        return tenants;
    }
}
