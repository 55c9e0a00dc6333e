package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.HotReloadTest.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.auth.ApiKeys;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tenants.watch}: polling, for mounts that deliver no file events, still sees tenant and key changes
 * within two seconds; the server says at start which way it watches. (File events are what every other
 * hot-reload and key test runs on: {@code auto} picks them on Linux.)
 */
class WatchModesTest {

    private static final String WATCH = ServerSettings.environmentName("tenants.watch");

    @TempDir
    Path temp;

    @Test
    void polling_sees_a_change_no_file_event_reports_and_created_and_revoked_keys_within_two_seconds()
            throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        // Changed through a second name outside the tenants directory: the file changes, no event says so,
        // as on a mount that delivers none.
        Path outside = Files.writeString(temp.resolve("shop-tenant.yaml"), HotReloadTest.SHOP_YAML.formatted("Old"));
        Files.createLink(Files.createDirectories(tenants.resolve("shop")).resolve("tenant.yaml"), outside);
        String key = TestTenants.createKey(tenants, "shop", "public", "store");
        ServerSettings settings = ServerSettings.read(null, Map.of(WATCH, "poll"))
                .with("127.0.0.1", 0, tenants)
                .withManagement("127.0.0.1", 0);
        try (AutocompleteServer server = AutocompleteServer.start(settings)) {
            ApiClient api = new ApiClient(server.port());
            assertTrue(api.suggest(key, envelope("Buy ")).options("item").contains("Old 1"));

            Files.writeString(outside, HotReloadTest.SHOP_YAML.formatted("New"));
            await(() -> api.suggest(key, envelope("Buy ")).options("item").contains("New 1"), "the change is served");

            String created = TestTenants.createKey(tenants, "demo", "public", "travel");
            await(() -> api.suggest(created, envelope("")).status() == 200, "the created key is accepted");
            TestTenants.Cli revoked = TestTenants.cli(
                    "keys",
                    "revoke",
                    "--tenants",
                    tenants.toString(),
                    "--tenant",
                    "demo",
                    ApiKeys.idOf(ApiKeys.digest(created)));
            assertEquals(0, revoked.exit(), revoked.err());
            await(
                    () -> "INVALID_CREDENTIALS"
                            .equals(api.suggest(created, envelope("")).errorCode()),
                    "the revoked key is refused");
        }
    }

    @Test
    void serve_logs_at_start_whether_it_watches_with_file_events_or_by_polling() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        try (ServerProcess server = ServerProcess.start(tenants, temp.resolve("events.log"), Map.of())) {
            server.awaitServing();
            assertTrue(server.log().contains("with file events and a safety look every 30 s"), server.log());
        }
        try (ServerProcess server = ServerProcess.start(tenants, temp.resolve("poll.log"), Map.of(WATCH, "poll"))) {
            server.awaitServing();
            assertTrue(server.log().contains("by polling every 1 s (tenants.watch: poll)"), server.log());
        }
    }
}
