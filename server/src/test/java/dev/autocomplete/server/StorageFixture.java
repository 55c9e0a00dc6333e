package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.autocomplete.server.auth.SigningSecret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A tenant {@code shop} with a live catalog seeded from a CSV file, served by real {@code serve} processes, and
 * the calls the storage tests make on it: keys made with the CLI, options written and read over HTTP.
 */
final class StorageFixture {

    static final String TENANT = """
            display_name: Shop
            catalogs:
              products:
                file: data/products.csv
            products:
              - id: 3c2b1a0d-9e8f-4a7b-8c6d-5e4f3a2b1c02
                slug: orders
                prompt: Order
                intents:
                  - name: order
                    phrases: [Order]
                    params:
                      - {type: product, label: Product, required: true, catalog: products}
            """;

    final Path tenants;
    final Map<String, String> env =
            new HashMap<>(Map.of(SigningSecret.ENV_SECRET, "storage-tests-share-this-secret-0123456789"));

    StorageFixture(Path temp) throws IOException {
        tenants = temp.resolve("tenants");
        Files.createDirectories(tenants.resolve("shop/data"));
        Files.writeString(tenants.resolve("shop/tenant.yaml"), TENANT);
        Files.writeString(tenants.resolve("shop/data/products.csv"), "text,weight\nSeeded Sprocket,1\n");
    }

    /** The same tenants and secret with {@code storage.url} set. */
    StorageFixture on(String storageUrl) {
        env.put("AUTOCOMPLETE_STORAGE_URL", storageUrl);
        return this;
    }

    /** {@code serve} over these tenants with its own data directory, once it serves. */
    ServerProcess serve(Path dataDir, Path log) throws InterruptedException {
        return ServerProcess.start(tenants, log, env, "--data-dir", dataDir.toString())
                .awaitServing();
    }

    /** A new key of {@code shop} made with {@code keys create} ({@code public} for the orders product, or secret). */
    String key(String type) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                "keys",
                "create",
                "--tenants",
                tenants.toString(),
                "--tenant",
                "shop",
                "--type",
                type,
                "--rate",
                "10000"));
        if (type.equals("public")) {
            command.addAll(List.of("--product", "orders"));
        }
        List<String> lines = ServerProcess.command(env, command.toArray(String[]::new))
                .lines()
                .filter(l -> !l.isBlank())
                .toList();
        return lines.getLast().strip();
    }

    /** Upserts one option through the records API, asserting 200. */
    static void upsert(ApiClient api, String secret, String id, String text) {
        ApiClient.Reply reply = api.call(
                "POST",
                "/api/catalogs/products/options",
                secret,
                "[{\"id\": \"" + id + "\", \"text\": \"" + text + "\"}]",
                "application/json");
        assertEquals(200, reply.status(), reply.raw());
    }

    /** Deletes one option through the records API, asserting 204. */
    static void delete(ApiClient api, String secret, String id) {
        ApiClient.Reply reply = api.call("DELETE", "/api/catalogs/products/options/" + id, secret, null, null);
        assertEquals(204, reply.status(), reply.raw());
    }

    /** The product options a suggest request for {@code query} offers. */
    static List<String> offered(ApiClient api, String key, String query) {
        ApiClient.Reply reply = api.suggest(key, ApiClient.envelope(query));
        assertEquals(200, reply.status(), reply.raw());
        return reply.options("product");
    }
}
