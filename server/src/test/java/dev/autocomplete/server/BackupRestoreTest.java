package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.store.PostgresServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backups and restores as docs/deployment.md tells them, on real stores: back up while the server runs, change
 * and lose data, restore with the server stopped, and the restarted server serves the backed-up state. SQLite with
 * {@code storage backup} and {@code storage restore}; PostgreSQL with its own {@code pg_dump} and {@code pg_restore}.
 */
class BackupRestoreTest {

    @TempDir
    Path temp;

    @Test
    void an_sqlite_store_backed_up_while_serving_is_restored() throws Exception {
        StorageFixture fixture = new StorageFixture(temp);
        Path data = temp.resolve("data");
        String publicKey = fixture.key("public");
        String secret = fixture.key("secret");
        Path backup = temp.resolve("backup/catalogs-backup.db");
        java.nio.file.Files.createDirectories(backup.getParent());
        String[] storage = {"--tenants", fixture.tenants.toString(), "--data-dir", data.toString()};
        try (ServerProcess server = fixture.serve(data, temp.resolve("first.log"))) {
            ApiClient api = new ApiClient(server.port());
            StorageFixture.upsert(api, secret, "kept", "Kept Widget");
            // Online: the write just acknowledged may sit in the write-ahead log only; the backup has it.
            String made = ServerProcess.command(
                    fixture.env, concat(List.of("storage", "backup", "--to", backup.toString()), storage));
            assertTrue(made.contains("Backed up"), made);
            ServerProcess.Exit twice = ServerProcess.run(
                    fixture.env, concat(List.of("storage", "backup", "--to", backup.toString()), storage));
            assertTrue(twice.code() != 0 && twice.output().contains("exists already"), twice.output());
            StorageFixture.delete(api, secret, "kept");
            StorageFixture.upsert(api, secret, "later", "Later Widget");
            assertFalse(StorageFixture.offered(api, publicKey, "Order ").contains("Kept Widget"));
            // Not under a running server: it would go on serving its memory and index new writes against the old
            // store (an operator's trial: an option written after such a restore was never offered).
            ServerProcess.Exit underServer = ServerProcess.run(
                    fixture.env, concat(List.of("storage", "restore", "--from", backup.toString()), storage));
            assertEquals(1, underServer.code(), underServer.output());
            assertTrue(
                    underServer
                            .output()
                            .contains("error: a server is running on the data directory " + data
                                    + ": stop it first; nothing was restored"),
                    underServer.output());
            StorageFixture.upsert(api, secret, "after", "After Widget");
            List<String> offered = StorageFixture.offered(api, publicKey, "Order ");
            assertTrue(offered.containsAll(List.of("Later Widget", "After Widget")), offered.toString());
            StorageFixture.delete(api, secret, "after");
        }
        String restored = ServerProcess.command(
                fixture.env, concat(List.of("storage", "restore", "--from", backup.toString()), storage));
        assertTrue(restored.contains("Restored"), restored);
        try (ServerProcess server = fixture.serve(data, temp.resolve("restored.log"))) {
            List<String> offered = StorageFixture.offered(new ApiClient(server.port()), publicKey, "Order ");
            assertTrue(offered.contains("Kept Widget"), offered.toString());
            assertFalse(offered.contains("Later Widget"), offered.toString());
        }
        ServerProcess.Exit notABackup = ServerProcess.run(
                fixture.env,
                concat(
                        List.of(
                                "storage",
                                "restore",
                                "--from",
                                fixture.tenants.resolve("shop/tenant.yaml").toString()),
                        storage));
        assertTrue(
                notABackup.code() != 0 && notABackup.output().contains("is not an autocomplete store backup"),
                notABackup.output());
    }

    @Test
    void a_postgresql_store_dumped_while_serving_is_restored() throws Exception {
        try (PostgresServer postgres = PostgresServer.start()) {
            String url = postgres.newDatabase();
            String database = url.replaceAll(".*/([^/?]+)\\?.*", "$1");
            String libpq = "postgresql://" + PostgresServer.USER + ":" + PostgresServer.PASSWORD + "@127.0.0.1:"
                    + postgres.port() + "/" + database;
            StorageFixture fixture = new StorageFixture(temp).on(url);
            String publicKey = fixture.key("public");
            String secret = fixture.key("secret");
            Path dump = temp.resolve("autocomplete.dump");
            try (ServerProcess server = fixture.serve(temp.resolve("data"), temp.resolve("first.log"))) {
                ApiClient api = new ApiClient(server.port());
                StorageFixture.upsert(api, secret, "kept", "Kept Widget");
                run(
                        postgres.bin().resolve("pg_dump").toString(),
                        "--format=custom",
                        "--file=" + dump,
                        "--dbname=" + libpq);
                StorageFixture.delete(api, secret, "kept");
                StorageFixture.upsert(api, secret, "later", "Later Widget");
            }
            // Data lost: the key revoked too.
            ServerProcess.command(
                    fixture.env,
                    "keys",
                    "revoke",
                    "--tenants",
                    fixture.tenants.toString(),
                    "--tenant",
                    "shop",
                    dev.autocomplete.server.auth.ApiKeys.idOf(dev.autocomplete.server.auth.ApiKeys.digest(publicKey)));
            run(
                    postgres.bin().resolve("pg_restore").toString(),
                    "--clean",
                    "--if-exists",
                    "--single-transaction",
                    "--no-owner",
                    "--dbname=" + libpq,
                    dump.toString());
            try (ServerProcess server = fixture.serve(temp.resolve("data"), temp.resolve("restored.log"))) {
                List<String> offered = StorageFixture.offered(new ApiClient(server.port()), publicKey, "Order ");
                assertTrue(offered.contains("Kept Widget"), offered.toString());
                assertFalse(offered.contains("Later Widget"), offered.toString());
            }
        }
    }

    private static String[] concat(List<String> first, String... rest) {
        List<String> all = new ArrayList<>(first);
        all.addAll(List.of(rest));
        return all.toArray(String[]::new);
    }

    private static void run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), String.join(" ", command) + " did not end");
        assertEquals(0, process.exitValue(), command[0] + ": " + output);
    }
}
