package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.store.CatalogRef;
import dev.autocomplete.server.store.CatalogStore;
import dev.autocomplete.server.store.JdbcCatalogStore;
import dev.autocomplete.server.store.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code storage migrate} moves a real SQLite deployment (keys in keys.yaml, a live catalog seeded from CSV and
 * written over HTTP) into a real PostgreSQL, after which two replicas serve its keys and options and continue its
 * change sequence; a second migrate into the now full database is refused and changes nothing.
 */
class StorageMigrateTest {

    private static final CatalogRef PRODUCTS = new CatalogRef("shop", "products");

    @TempDir
    Path temp;

    @Test
    void a_sqlite_deployment_moves_to_postgresql_and_two_replicas_serve_it() throws Exception {
        StorageFixture sqlite = new StorageFixture(temp);
        String learned;
        Path data = temp.resolve("data");
        String publicKey = sqlite.key("public");
        String secret = sqlite.key("secret");
        try (ServerProcess server = sqlite.serve(data, temp.resolve("sqlite.log"))) {
            ApiClient api = new ApiClient(server.port());
            StorageFixture.upsert(api, secret, "qw-1", "Quantum Widget");
            StorageFixture.upsert(api, secret, "qw-2", "Quartz Widget");
            StorageFixture.delete(api, secret, "qw-2");
            StorageFixture.upsert(api, secret, "qw-3", "Quaint Widget");
            assertTrue(StorageFixture.offered(api, publicKey, "Order Qu").contains("Quantum Widget"));
            // A user picks the option listed last: learned data moves too.
            List<String> before = StorageFixture.offered(api, publicKey, "Order Qu");
            learned = before.getLast();
            assertNotEquals(before.getFirst(), learned, before.toString());
            String session = java.util.UUID.randomUUID().toString();
            com.fasterxml.jackson.databind.node.ObjectNode body = ApiClient.envelope("Order Qu");
            ((com.fasterxml.jackson.databind.node.ObjectNode) body.path("meta")).put("session_id", session);
            assertEquals(200, api.suggest(publicKey, body).status());
            com.fasterxml.jackson.databind.node.ObjectNode event = ApiClient.JSON
                    .createObjectNode()
                    .put("source", "full-sdk")
                    .put("session_id", session)
                    .put("type", "option");
            event.putObject("query_data").put("raw_query", "Order Qu").put("selected_option", learned);
            assertEquals(
                    204,
                    api.post(
                                    "/api/telemetry/events",
                                    publicKey,
                                    event.toString(),
                                    "application/json",
                                    java.util.Map.of())
                            .status());
        }
        long sequence;
        Optional<String> seedDigest;
        try (CatalogStore store = JdbcCatalogStore.sqlite(data.resolve("catalogs.db"))) {
            sequence = store.lastSequence();
            seedDigest = store.seedDigest(PRODUCTS);
        }
        assertTrue(sequence >= 4, "seed, two upserts and a delete: " + sequence);

        try (PostgresServer postgres = PostgresServer.start()) {
            String jdbcUrl = postgres.newDatabase();
            String database = jdbcUrl.replaceAll(".*/([^/?]+)\\?.*", "$1");
            String url = "postgresql://" + PostgresServer.USER + ":" + PostgresServer.PASSWORD + "@127.0.0.1:"
                    + postgres.port() + "/" + database;
            String moved = ServerProcess.command(
                    sqlite.env,
                    "storage",
                    "migrate",
                    "--tenants",
                    sqlite.tenants.toString(),
                    "--data-dir",
                    data.toString(),
                    "--to",
                    url);
            assertTrue(moved.contains("catalog_options: 3 row(s)"), moved);
            assertTrue(moved.contains("keys of tenant shop: 2"), moved);
            assertTrue(moved.contains("Catalog change sequence: " + sequence), moved);
            assertTrue(moved.contains("learning_credits: 2 row(s)"), "the pick, overall and after 'qu': " + moved);
            assertFalse(moved.contains(PostgresServer.PASSWORD), "the password is never printed: " + moved);
            // The SQLite store says so too: a catalog import without the URL would write what no replica reads.
            assertTrue(moved.contains("marked as migrated"), moved);
            ServerProcess.Exit strayImport = ServerProcess.run(
                    sqlite.env,
                    "catalog",
                    "import",
                    "--tenants",
                    sqlite.tenants.toString(),
                    "--data-dir",
                    data.toString(),
                    "--tenant",
                    "shop",
                    "--catalog",
                    "products",
                    Files.writeString(temp.resolve("stray.ndjson"), "{\"id\": \"s\", \"text\": \"Stray\"}\n")
                            .toString());
            assertEquals(2, strayImport.code(), strayImport.output());
            assertTrue(
                    strayImport.output().contains("was migrated into PostgreSQL jdbc:postgresql://127.0.0.1:"),
                    strayImport.output());
            assertFalse(strayImport.output().contains(PostgresServer.PASSWORD), strayImport.output());

            // The keys file says where its keys went: a keys command run without the storage URL refuses it
            // (before, it wrote a key there that no server reads), and lists it with a note.
            Path keysFile = sqlite.tenants.resolve("shop/keys.yaml");
            String marked = Files.readString(keysFile);
            assertTrue(marked.startsWith("imported_into: \"PostgreSQL jdbc:postgresql://127.0.0.1:"), marked);
            assertFalse(marked.contains(PostgresServer.PASSWORD), marked);
            ServerProcess.Exit stray = ServerProcess.run(
                    sqlite.env,
                    "keys",
                    "create",
                    "--tenants",
                    sqlite.tenants.toString(),
                    "--tenant",
                    "shop",
                    "--type",
                    "secret");
            assertEquals(2, stray.code(), stray.output());
            assertTrue(
                    stray.output().contains("was imported into PostgreSQL jdbc:postgresql://")
                            && stray.output().contains("Give this command the servers' storage URL"),
                    stray.output());
            assertEquals(marked, Files.readString(keysFile), "nothing written");
            ServerProcess.Exit listed = ServerProcess.run(
                    sqlite.env, "keys", "list", "--tenants", sqlite.tenants.toString(), "--tenant", "shop");
            assertEquals(0, listed.code(), listed.output());
            assertTrue(
                    listed.output().contains("note: ") && listed.output().contains("as they were then"),
                    listed.output());
            // With the URL, the file counts as unchanged since the import (its mark is not a change).
            java.util.Map<String, String> withUrl = new java.util.HashMap<>(sqlite.env);
            withUrl.put("AUTOCOMPLETE_STORAGE_URL", jdbcUrl);
            ServerProcess.Exit onPostgres = ServerProcess.run(
                    withUrl, "keys", "list", "--tenants", sqlite.tenants.toString(), "--tenant", "shop");
            assertEquals(0, onPostgres.code(), onPostgres.output());
            assertTrue(onPostgres.output().contains("you may delete it"), onPostgres.output());
            assertFalse(onPostgres.output().contains("changed since"), onPostgres.output());

            ServerProcess.Exit again = ServerProcess.run(
                    sqlite.env,
                    "storage",
                    "migrate",
                    "--tenants",
                    sqlite.tenants.toString(),
                    "--data-dir",
                    data.toString(),
                    "--to",
                    url);
            assertEquals(1, again.code(), again.output());
            assertTrue(
                    again.output().contains("already holds data")
                            && again.output().contains("nothing was changed")
                            && again.output().contains("--replace"),
                    again.output());

            try (CatalogStore store = JdbcCatalogStore.postgres(jdbcUrl, null, null)) {
                assertEquals(sequence, store.lastSequence(), "the change sequence carried over");
                assertEquals(seedDigest, store.seedDigest(PRODUCTS), "the seed digest carried over");
            }

            StorageFixture shared = new StorageFixture(temp.resolve("replicas")).on(jdbcUrl);
            try (ServerProcess a = shared.serve(temp.resolve("data-a"), temp.resolve("a.log"));
                    ServerProcess b = shared.serve(temp.resolve("data-b"), temp.resolve("b.log"))) {
                ApiClient onA = new ApiClient(a.port());
                ApiClient onB = new ApiClient(b.port());
                for (ApiClient replica : new ApiClient[] {onA, onB}) {
                    assertTrue(StorageFixture.offered(replica, publicKey, "Order Qu")
                            .contains("Quantum Widget"));
                    assertFalse(StorageFixture.offered(replica, publicKey, "Order Qu")
                            .contains("Quartz Widget"));
                    assertTrue(StorageFixture.offered(replica, publicKey, "Order Seed")
                            .contains("Seeded Sprocket"));
                    assertEquals(
                            learned,
                            StorageFixture.offered(replica, publicKey, "Order Qu")
                                    .getFirst(),
                            "what was learned on SQLite ranks on PostgreSQL");
                }
                // Both continue the sequence: a write through A is the next change, and B follows it.
                StorageFixture.upsert(onA, secret, "nw-1", "Nebula Widget");
                long deadline = System.nanoTime() + 5_000_000_000L;
                while (!StorageFixture.offered(onB, publicKey, "Order Neb").contains("Nebula Widget")
                        && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertTrue(StorageFixture.offered(onB, publicKey, "Order Neb").contains("Nebula Widget"), b.log());
                assertFalse(a.log().contains("imported into PostgreSQL"), "keys were imported once, by migrate");
            }
            try (CatalogStore store = JdbcCatalogStore.postgres(jdbcUrl, null, null)) {
                assertEquals(sequence + 1, store.lastSequence());
            }
        }
    }
}
