package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.auth.ApiKeys;
import dev.autocomplete.server.auth.FileKeyStore;
import dev.autocomplete.server.auth.KeysFile;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code keys create|list|revoke} through the real command line, seen by a running server. */
class KeysCommandTest {

    @TempDir
    Path temp;

    @Test
    void create_prints_the_key_alone_on_the_last_line_and_stores_only_its_digest() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        TestTenants.Cli created = TestTenants.cli(
                "keys",
                "create",
                "--tenants",
                tenants.toString(),
                "--tenant",
                "demo",
                "--type",
                "public",
                "--product",
                "travel");
        assertEquals(0, created.exit(), created.err());
        String key = created.lastLine();
        assertTrue(key.matches("pk_v1_[0-9A-Za-z]{38}"), key);

        String stored = Files.readString(tenants.resolve("demo/keys.yaml"));
        assertFalse(stored.contains(key), "the key itself is never written");
        assertFalse(stored.contains(key.substring(6, 20)), "no part of the key is written");
        assertTrue(stored.contains(ApiKeys.digest(key)));
        assertTrue(stored.contains("product: 6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61"), stored);
        assertTrue(stored.contains("created_at:"), stored);

        String secret = TestTenants.createKey(tenants, "demo", "secret", null);
        assertTrue(secret.startsWith("sk_v1_"), secret);
        TestTenants.Cli list = TestTenants.cli("keys", "list", "--tenants", tenants.toString(), "--tenant", "demo");
        assertEquals(0, list.exit());
        assertEquals(3, list.out().lines().count(), list.out());
        assertFalse(list.out().contains(key) || list.out().contains(secret));
    }

    /** What {@code Files.createTempFile} made for a write that a kill -9 stopped before its rename. */
    private static Path leftBehind(Path tenantDirectory, String content) throws java.io.IOException {
        return Files.writeString(Files.createTempFile(tenantDirectory, ".keys", ".tmp"), content);
    }

    @Test
    void temporary_files_of_a_killed_keys_command_go_on_the_next_command_and_on_the_server_start() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path demo = tenants.resolve("demo");
        Path unrelated = Files.writeString(demo.resolve("notes.tmp"), "the operator's own");
        Path halfWritten = leftBehind(demo, "# Managed by `./autocomplete keys`.\nkeys:\n- id: ");
        Path empty = leftBehind(demo, "");
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        assertFalse(Files.exists(halfWritten) || Files.exists(empty), "keys create cleans up");
        assertTrue(Files.exists(unrelated), "only the store's own temporary files are removed");

        Path beforeList = leftBehind(demo, "keys: []\n");
        assertEquals(
                0,
                TestTenants.cli("keys", "list", "--tenants", tenants.toString(), "--tenant", "demo")
                        .exit());
        assertFalse(Files.exists(beforeList), "keys list cleans up");

        Path beforeStart = leftBehind(demo, "keys: [");
        try (AutocompleteServer server = TestServers.start(tenants)) {
            assertFalse(Files.exists(beforeStart), "the server's start cleans up");
            assertEquals(
                    200, new ApiClient(server.port()).suggest(key, envelope("")).status());
        }
        assertTrue(Files.exists(unrelated));
    }

    @Test
    void a_keys_file_imported_into_postgresql_is_refused_without_the_url_and_still_served_with_a_warning()
            throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        KeysFile file = new KeysFile(tenants.resolve("demo"));
        String digest = file.digest();
        String keyId = TestTenants.cli("keys", "list", "--tenants", tenants.toString(), "--tenant", "demo")
                .out()
                .lines()
                .skip(1)
                .findFirst()
                .orElseThrow()
                .split(" ")[0];
        // What storage migrate (and a server on PostgreSQL that imports the file) writes into it.
        file.markImported("PostgreSQL jdbc:postgresql://db.internal:5432/autocomplete on 2026-11-26T10:00:00Z");
        String marked = Files.readString(file.path());
        assertTrue(marked.startsWith("imported_into: \"PostgreSQL jdbc:postgresql://db.internal"), marked);
        assertEquals(digest, file.digest(), "the mark is not a change of the file's keys");
        Object inode = Files.readAttributes(file.path(), java.nio.file.attribute.BasicFileAttributes.class)
                .fileKey();
        file.markImported("PostgreSQL jdbc:postgresql://db.internal:5432/autocomplete on 2026-11-26T10:00:00Z");
        assertEquals(
                inode,
                Files.readAttributes(file.path(), java.nio.file.attribute.BasicFileAttributes.class)
                        .fileKey(),
                "marked again as it was (each start of a replica): not written again");

        TestTenants.Cli create = TestTenants.cli(
                "keys", "create", "--tenants", tenants.toString(), "--tenant", "demo", "--type", "secret");
        TestTenants.Cli revoke =
                TestTenants.cli("keys", "revoke", "--tenants", tenants.toString(), "--tenant", "demo", keyId);
        for (TestTenants.Cli refused : List.of(create, revoke)) {
            assertEquals(2, refused.exit(), refused.err());
            assertTrue(
                    refused.err()
                            .startsWith("error: " + file.path() + " was imported into PostgreSQL "
                                    + "jdbc:postgresql://db.internal:5432/autocomplete on 2026-11-26T10:00:00Z"),
                    refused.err());
            assertTrue(refused.err().contains("Give this command the servers' storage URL"), refused.err());
        }
        assertEquals(marked, Files.readString(file.path()), "nothing written");
        TestTenants.Cli list = TestTenants.cli("keys", "list", "--tenants", tenants.toString(), "--tenant", "demo");
        assertEquals(0, list.exit(), list.err());
        assertTrue(list.out().contains(keyId), list.out());
        assertTrue(list.err().startsWith("note: " + file.path() + " was imported into PostgreSQL"), list.err());

        // A server without storage.url still serves the file's keys, and says what it serves.
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(FileKeyStore.class.getName());
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                warnings.add(record.getMessage());
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        logger.addHandler(handler);
        try (AutocompleteServer server = AutocompleteServer.start(TestServers.settings(tenants))) {
            assertEquals(
                    200, new ApiClient(server.port()).suggest(key, envelope("")).status());
        } finally {
            logger.removeHandler(handler);
        }
        assertTrue(
                warnings.stream()
                        .anyMatch(w -> w.equals(file.path() + " was imported into PostgreSQL "
                                + "jdbc:postgresql://db.internal:5432/autocomplete on 2026-11-26T10:00:00Z, and this "
                                + "server has no storage.url: it serves the keys the file held then, not those "
                                + "created or revoked in PostgreSQL since.")),
                warnings.toString());
    }

    @Test
    void refuses_bad_arguments_with_a_clear_message() {
        Path tenants = TestTenants.copyOfDemo(temp);
        TestTenants.Cli noProduct = TestTenants.cli(
                "keys", "create", "--tenants", tenants.toString(), "--tenant", "demo", "--type", "public");
        assertNotEquals(0, noProduct.exit());
        assertTrue(noProduct.err().contains("--product"), noProduct.err());

        TestTenants.Cli badProduct = TestTenants.cli(
                "keys",
                "create",
                "--tenants",
                tenants.toString(),
                "--tenant",
                "demo",
                "--type",
                "public",
                "--product",
                "boats");
        assertNotEquals(0, badProduct.exit());
        // The products there are, and not the command's usage: the command line was right, the name was not.
        assertEquals(
                "error: No product 'boats' in " + tenants.resolve("demo/tenant.yaml") + "; its products: travel,"
                        + " workspace",
                badProduct.err().strip());

        TestTenants.Cli badTenant =
                TestTenants.cli("keys", "list", "--tenants", tenants.toString(), "--tenant", "nope");
        assertNotEquals(0, badTenant.exit());
        assertTrue(badTenant.err().contains("nope"), badTenant.err());

        TestTenants.Cli badType = TestTenants.cli(
                "keys", "create", "--tenants", tenants.toString(), "--tenant", "demo", "--type", "admin");
        assertNotEquals(0, badType.exit());

        TestTenants.Cli unknownRevoke = TestTenants.cli(
                "keys", "revoke", "--tenants", tenants.toString(), "--tenant", "demo", "key_000000000000");
        assertEquals(1, unknownRevoke.exit());
    }

    @Test
    void a_running_server_sees_new_and_revoked_keys_within_two_seconds() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        try (AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            String key = TestTenants.createKey(tenants, "demo", "public", "travel");
            assertTrue(within2Seconds(() -> api.suggest(key, envelope("")).status() == 200), "new key accepted");

            String id = ApiKeys.idOf(ApiKeys.digest(key));
            TestTenants.Cli revoked =
                    TestTenants.cli("keys", "revoke", "--tenants", tenants.toString(), "--tenant", "demo", id);
            assertEquals(0, revoked.exit(), revoked.err());
            assertTrue(
                    within2Seconds(() -> "INVALID_CREDENTIALS"
                            .equals(api.suggest(key, envelope("")).errorCode())),
                    "revoked key refused");
            assertTrue(Files.readString(tenants.resolve("demo/keys.yaml")).contains("revoked_at:"));
        }
    }

    private static boolean within2Seconds(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(50);
        }
        return condition.getAsBoolean();
    }
}
