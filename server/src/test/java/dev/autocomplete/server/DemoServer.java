package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A copy of the bundled demo tenant served on a free loopback port, with a public key per product and a
 * secret key made by the real {@code keys create}, for tests that talk HTTP to it. Register it in a test
 * class with {@code @RegisterExtension static final DemoServer demo = new DemoServer();}: it starts before
 * the class's first test and stops, its copy deleted, after the last.
 */
final class DemoServer implements BeforeAllCallback, AfterAllCallback {

    private Path temp;
    private Path tenantsDirectory;
    private AutocompleteServer server;
    private ApiClient api;
    private Map<String, String> keys;
    private final Map<String, String> extraFiles = new java.util.LinkedHashMap<>();
    private final Map<String, String[]> extraKeys = new java.util.LinkedHashMap<>();
    private final Map<String, String[]> optionedKeys = new java.util.LinkedHashMap<>();
    private Clock clock = Clock.systemUTC();
    private java.util.function.UnaryOperator<dev.autocomplete.server.config.ServerSettings> adjust = s -> s;

    /**
     * Serves another tenant beside the demo: {@code files} maps paths under the tenants directory
     * ({@code lab/tenant.yaml}) to their text; a public key is made for each product slug, named
     * {@code tenant/slug} for {@link #key} and {@link #suggestOk}, and a secret key named {@code tenant/secret}.
     */
    DemoServer withTenant(String tenant, Map<String, String> files, String... productSlugs) {
        extraFiles.putAll(files);
        extraKeys.put(tenant + "/secret", new String[] {tenant, null});
        for (String slug : productSlugs) {
            extraKeys.put(tenant + "/" + slug, new String[] {tenant, slug});
        }
        return this;
    }

    /**
     * Makes one more public key of a demo product, named {@code name} for {@link #key}, with {@code keys create}'s
     * {@code options} ({@code --rate 1/s --burst 2}, say).
     */
    DemoServer withKey(String name, String product, String... options) {
        String[] where = new String[options.length + 1];
        where[0] = product;
        System.arraycopy(options, 0, where, 1, options.length);
        optionedKeys.put(name, where);
        return this;
    }

    /** Serves with settings adjusted by {@code adjustment} (learning intervals and caps, say). */
    DemoServer withSettings(
            java.util.function.UnaryOperator<dev.autocomplete.server.config.ServerSettings> adjustment) {
        adjust = adjustment;
        return this;
    }

    /** Serves with {@code fixed} as the server's clock: what "today" is for the date engine, among others. */
    DemoServer withClock(Clock fixed) {
        clock = fixed;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        temp = Files.createTempDirectory("demo-server");
        Path tenants = TestTenants.copyOfDemo(temp);
        tenantsDirectory = tenants;
        for (Map.Entry<String, String> file : extraFiles.entrySet()) {
            Path path = tenants.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.getValue());
        }
        Map<String, String> made = new java.util.HashMap<>(Map.of(
                "travel", TestTenants.createKey(tenants, "demo", "public", "travel"),
                "workspace", TestTenants.createKey(tenants, "demo", "public", "workspace"),
                "secret", TestTenants.createKey(tenants, "demo", "secret", null)));
        extraKeys.forEach((name, where) -> made.put(
                name, TestTenants.createKey(tenants, where[0], where[1] == null ? "secret" : "public", where[1])));
        optionedKeys.forEach((name, where) -> made.put(
                name,
                TestTenants.createKey(
                        tenants, "demo", "public", where[0], java.util.Arrays.copyOfRange(where, 1, where.length))));
        keys = Map.copyOf(made);
        server = AutocompleteServer.start(
                adjust.apply(TestServers.settings(tenants).withClock(clock)));
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

    AutocompleteServer server() {
        return server;
    }

    /** The tenants directory it serves (its data directory is {@code data} beside it). */
    Path tenants() {
        return tenantsDirectory;
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
