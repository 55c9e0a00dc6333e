package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.autocomplete.server.http.AutocompleteServer;

/**
 * A copy of the bundled demo tenant served on a free loopback port, with a public key per product and a
 * secret key made by the real {@code keys create}, for tests that talk HTTP to it. Register it in a test
 * class with {@code @RegisterExtension static final DemoServer demo = new DemoServer();}: it starts before
 * the class's first test and stops, its copy deleted, after the last.
 */
final class DemoServer implements BeforeAllCallback, AfterAllCallback {

    private Path temp;
    private AutocompleteServer server;
    private ApiClient api;
    private Map<String, String> keys;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        temp = Files.createTempDirectory("demo-server");
        Path tenants = TestTenants.copyOfDemo(temp);
        keys = Map.of(
                "travel", TestTenants.createKey(tenants, "demo", "public", "travel"),
                "workspace", TestTenants.createKey(tenants, "demo", "public", "workspace"),
                "secret", TestTenants.createKey(tenants, "demo", "secret", null));
        server = AutocompleteServer.start("127.0.0.1", 0, tenants);
        api = new ApiClient(server.port());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            TestTenants.deleteTree(temp);
        }
    }

    ApiClient api() {
        return api;
    }

    /** A directory of this server's own, deleted with it, for what a test class writes besides. */
    Path temp() {
        return temp;
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
}
