package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.autocomplete.server.http.AutocompleteServer;

/**
 * A copy of the bundled demo tenant served on a free loopback port, with a public key per product and a
 * secret key made by the real {@code keys create}, for tests that talk HTTP to it.
 */
final class DemoServer implements AutoCloseable {

    private final AutocompleteServer server;
    private final ApiClient api;
    private final Map<String, String> keys;

    private DemoServer(AutocompleteServer server, Map<String, String> keys) {
        this.server = server;
        this.api = new ApiClient(server.port());
        this.keys = keys;
    }

    /** Copies the demo tenant under {@code temp}, creates its keys, and starts the server. */
    static DemoServer start(Path temp) throws IOException {
        Path tenants = TestTenants.copyOfDemo(temp);
        Map<String, String> keys = Map.of(
                "travel", TestTenants.createKey(tenants, "demo", "public", "travel"),
                "workspace", TestTenants.createKey(tenants, "demo", "public", "workspace"),
                "secret", TestTenants.createKey(tenants, "demo", "secret", null));
        return new DemoServer(AutocompleteServer.start("127.0.0.1", 0, tenants), keys);
    }

    ApiClient api() {
        return api;
    }

    /** The public key of {@code travel} or {@code workspace}, or with {@code secret} the secret key. */
    String key(String name) {
        return keys.get(name);
    }

    /** Sends {@code body} with the product's public key and asserts a 200. */
    ApiClient.Reply suggestOk(String product, ObjectNode body) {
        ApiClient.Reply reply = api.suggest(key(product), body);
        assertEquals(200, reply.status(), reply.raw());
        return reply;
    }

    @Override
    public void close() {
        server.close();
    }
}
