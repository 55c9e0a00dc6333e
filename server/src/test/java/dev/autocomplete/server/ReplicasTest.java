package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.auth.SigningSecret;
import dev.autocomplete.server.store.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two server processes on one real PostgreSQL: a key created or revoked with the CLI, and an option written
 * through one replica, are in force on the other within two seconds; with PostgreSQL stopped under load, both
 * keep answering suggest requests while writes answer 503, and both catch up when it returns; a replica that
 * starts while PostgreSQL is down serves from its last snapshot, and one without a snapshot is not ready.
 */
class ReplicasTest {

    private static final long TWO_SECONDS = 2_000;

    private static final String TENANT = """
            display_name: Shop
            catalogs:
              products: {}
            products:
              - id: 3c2b1a0d-9e8f-4a7b-8c6d-5e4f3a2b1c01
                slug: orders
                prompt: Order
                intents:
                  - name: order
                    phrases: [Order]
                    params:
                      - {type: product, label: Product, required: true, catalog: products}
            """;

    @TempDir
    Path temp;

    @Test
    void replicas_share_keys_and_options_through_postgresql_and_ride_out_its_outage() throws Exception {
        Path tenants = temp.resolve("tenants");
        Files.createDirectories(tenants.resolve("shop"));
        Files.writeString(tenants.resolve("shop/tenant.yaml"), TENANT);
        try (PostgresServer postgres = PostgresServer.start()) {
            Map<String, String> env = new HashMap<>(Map.of(
                    "AUTOCOMPLETE_STORAGE_URL",
                    postgres.newDatabase(),
                    SigningSecret.ENV_SECRET,
                    "replicas-share-this-secret-0123456789-abc"));
            String secret = lastLine(ServerProcess.command(
                    env,
                    "keys",
                    "create",
                    "--tenants",
                    tenants.toString(),
                    "--tenant",
                    "shop",
                    "--type",
                    "secret",
                    "--rate",
                    "10000"));
            try (ServerProcess a = ServerProcess.start(
                            tenants,
                            temp.resolve("a.log"),
                            env,
                            "--data-dir",
                            temp.resolve("data-a").toString());
                    ServerProcess b = ServerProcess.start(
                            tenants,
                            temp.resolve("b.log"),
                            env,
                            "--data-dir",
                            temp.resolve("data-b").toString())) {
                a.awaitServing();
                b.awaitServing();
                ApiClient onA = new ApiClient(a.port());
                ApiClient onB = new ApiClient(b.port());

                // A key created with the CLI works on both replicas within two seconds.
                String key = lastLine(ServerProcess.command(
                        env,
                        "keys",
                        "create",
                        "--tenants",
                        tenants.toString(),
                        "--tenant",
                        "shop",
                        "--type",
                        "public",
                        "--product",
                        "orders",
                        "--rate",
                        "10000"));
                assertWithin(
                        TWO_SECONDS,
                        () -> onA.suggest(key, ApiClient.envelope("Order ")).status() == 200
                                && onB.suggest(key, ApiClient.envelope("Order "))
                                                .status()
                                        == 200,
                        "a new key on both");

                // An option upserted through A is offered by B within two seconds.
                ApiClient.Reply upserted = onA.call(
                        "POST",
                        "/api/catalogs/products/options",
                        secret,
                        "[{\"id\": \"sku-1\", \"text\": \"Replicated Widget\"}]",
                        "application/json");
                assertEquals(200, upserted.status(), upserted.raw());
                assertWithin(
                        TWO_SECONDS,
                        () -> offered(onB, key, "Order Repl").contains("Replicated Widget"),
                        "B offers what A took");

                // PostgreSQL down: suggest keeps answering on both, writes answer 503.
                postgres.stop();
                for (int i = 0; i < 20; i++) {
                    assertEquals(
                            200,
                            onA.suggest(key, ApiClient.envelope("Order Repl")).status());
                    assertEquals(
                            200,
                            onB.suggest(key, ApiClient.envelope("Order Repl")).status());
                }
                ApiClient.Reply refused = onA.call(
                        "POST",
                        "/api/catalogs/products/options",
                        secret,
                        "[{\"id\": \"sku-2\", \"text\": \"Outage Widget\"}]",
                        "application/json");
                assertEquals(503, refused.status(), refused.raw());
                assertEquals("STORAGE_UNAVAILABLE", refused.errorCode());
                assertTrue(offered(onB, key, "Order Repl").contains("Replicated Widget"), "B keeps what it has");

                // PostgreSQL back: writes succeed again and the other replica catches up.
                postgres.restart();
                assertWithin(
                        20_000,
                        () -> onA.call(
                                                "POST",
                                                "/api/catalogs/products/options",
                                                secret,
                                                "[{\"id\": \"sku-2\", \"text\": \"Outage Widget\"}]",
                                                "application/json")
                                        .status()
                                == 200,
                        "writes work again once PostgreSQL is back");
                assertWithin(
                        TWO_SECONDS, () -> offered(onB, key, "Order Outa").contains("Outage Widget"), "B caught up");

                // A key revoked with the CLI is refused by both within two seconds.
                ServerProcess.command(
                        env,
                        "keys",
                        "revoke",
                        "--tenants",
                        tenants.toString(),
                        "--tenant",
                        "shop",
                        idOf(env, tenants, key));
                assertWithin(
                        TWO_SECONDS,
                        () -> onA.suggest(key, ApiClient.envelope("")).status() == 401
                                && onB.suggest(key, ApiClient.envelope("")).status() == 401,
                        "a revoked key on both");
            }

            // A replica that starts while PostgreSQL is down serves its last snapshot; one without is not ready.
            String kept = lastLine(ServerProcess.command(
                    env,
                    "keys",
                    "create",
                    "--tenants",
                    tenants.toString(),
                    "--tenant",
                    "shop",
                    "--type",
                    "public",
                    "--product",
                    "orders",
                    "--rate",
                    "10000"));
            try (ServerProcess c = ServerProcess.start(
                    tenants,
                    temp.resolve("c.log"),
                    env,
                    "--data-dir",
                    temp.resolve("data-b").toString())) {
                c.awaitServing();
                ApiClient onC = new ApiClient(c.port());
                assertWithin(
                        10_000,
                        () -> onC.suggest(kept, ApiClient.envelope("")).status() == 200,
                        "c serves with the new key");
            }
            postgres.stop();
            try (ServerProcess c = ServerProcess.start(
                            tenants,
                            temp.resolve("c2.log"),
                            env,
                            "--data-dir",
                            temp.resolve("data-b").toString());
                    ServerProcess fresh = ServerProcess.start(
                            tenants,
                            temp.resolve("fresh.log"),
                            env,
                            "--data-dir",
                            temp.resolve("data-fresh").toString())) {
                c.awaitServing();
                ApiClient onC = new ApiClient(c.port());
                assertEquals(200, onC.get("/ready").status(), c.log());
                assertTrue(offered(onC, kept, "Order Outa").contains("Outage Widget"), c.log());
                fresh.awaitServing();
                assertEquals(503, new ApiClient(fresh.port()).get("/ready").status(), fresh.log());
            }
        }
    }

    private static List<String> offered(ApiClient api, String key, String query) {
        ApiClient.Reply reply = api.suggest(key, ApiClient.envelope(query));
        return reply.status() == 200 ? reply.options("product") : List.of();
    }

    private static void assertWithin(long millis, BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(50);
        }
        assertTrue(condition.getAsBoolean(), what + ": not within " + millis + " ms");
    }

    private static String lastLine(String output) {
        List<String> lines = output.lines().filter(line -> !line.isBlank()).toList();
        return lines.getLast().strip();
    }

    /** The id of a key, from {@code keys list}. */
    private static String idOf(Map<String, String> env, Path tenants, String key) throws Exception {
        String list = ServerProcess.command(env, "keys", "list", "--tenants", tenants.toString(), "--tenant", "shop");
        String id = dev.autocomplete.server.auth.ApiKeys.idOf(dev.autocomplete.server.auth.ApiKeys.digest(key));
        assertTrue(list.contains(id), list);
        return id;
    }
}
