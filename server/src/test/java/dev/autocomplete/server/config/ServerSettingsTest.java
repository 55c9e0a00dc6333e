package dev.autocomplete.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.files.WatchMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code autocomplete.yaml}, environment overrides, and the reference in the README and deploy/. */
class ServerSettingsTest {

    @TempDir
    Path temp;

    private static Path repoRoot() {
        String root = System.getProperty("autocomplete.test.repoRoot");
        return root != null ? Path.of(root) : Path.of("..").toAbsolutePath().normalize();
    }

    @Test
    void the_example_file_in_deploy_holds_every_key_at_its_default() {
        ServerSettings example = ServerSettings.read(repoRoot().resolve("deploy/autocomplete.yaml"), Map.of());
        assertEquals(ServerSettings.defaults(), example);
        assertEquals(8080, example.port());
        assertEquals(65536, example.limits().bodyBytes());
        assertEquals(Duration.ofSeconds(10), example.shutdownGrace());
        assertNull(example.tls());
    }

    @Test
    void environment_variables_override_the_file() throws Exception {
        Path file = Files.writeString(
                temp.resolve("autocomplete.yaml"), "server:\n  port: 9000\nlimits:\n  body-bytes: 4096\n");
        ServerSettings settings = ServerSettings.read(
                file,
                Map.of(
                        "AUTOCOMPLETE_SERVER_PORT",
                        "9100",
                        "AUTOCOMPLETE_TOKEN_SECRET",
                        "s3cret",
                        "AUTOCOMPLETE_REDIS_URL",
                        "redis://127.0.0.1:6379"));
        assertEquals(9100, settings.port());
        assertEquals(4096, settings.limits().bodyBytes());
        assertEquals("s3cret", settings.tokenSecret());
        assertEquals("redis://127.0.0.1:6379", settings.redisUrl());
        assertFalse(settings.toString().contains("s3cret"), settings.toString());
    }

    @Test
    void management_listens_on_loopback_by_default_and_the_environment_moves_it() {
        assertEquals(
                new ServerSettings.Management("127.0.0.1", 8081),
                ServerSettings.defaults().management());
        ServerSettings moved = ServerSettings.read(
                null, Map.of("AUTOCOMPLETE_MANAGEMENT_HOST", "10.0.0.5", "AUTOCOMPLETE_MANAGEMENT_PORT", "9901"));
        assertEquals(new ServerSettings.Management("10.0.0.5", 9901), moved.management());
        assertEquals(
                new ServerSettings.Management("10.0.0.5", 0),
                moved.withManagement(null, 0).management());
    }

    @Test
    void the_consoles_host_names_follow_the_listener_unless_set_and_a_bad_name_is_refused_naming_the_setting() {
        assertFalse(ServerSettings.defaults().management().console().allows("evil.example"), "auto on loopback");
        assertTrue(ServerSettings.defaults().management().console().allows("[::1]:8081"));
        ServerSettings everywhere = ServerSettings.read(null, Map.of("AUTOCOMPLETE_MANAGEMENT_HOST", "0.0.0.0"));
        assertTrue(everywhere.management().console().allows("console.internal"), "auto off loopback: any name");
        // The container image's case: every address of the container, published on the host's loopback.
        ServerSettings image = ServerSettings.read(
                null,
                Map.of("AUTOCOMPLETE_MANAGEMENT_HOST", "0.0.0.0", "AUTOCOMPLETE_MANAGEMENT_CONSOLE_HOSTS", "loopback"));
        assertFalse(image.management().console().allows("evil.example:8081"));
        assertTrue(image.management().console().allows("localhost:8081"));
        assertFalse(image.withManagement("127.0.0.1", 0).management().console().allows("evil.example"));
        assertTrue(ServerSettings.read(null, Map.of("AUTOCOMPLETE_MANAGEMENT_CONSOLE_HOSTS", "loopback"))
                .withManagement("0.0.0.0", null)
                .management()
                .console()
                .allows("127.0.0.1"));
        // auto is read against the listener the command line moved it to.
        assertTrue(ServerSettings.defaults()
                .withManagement("0.0.0.0", null)
                .management()
                .console()
                .allows("a.b"));
        IllegalArgumentException bad = assertThrows(
                IllegalArgumentException.class,
                () -> ServerSettings.read(
                        null, Map.of("AUTOCOMPLETE_MANAGEMENT_CONSOLE_HOSTS", "console.internal:8081")));
        assertTrue(bad.getMessage().contains("management.console-hosts"), bad.getMessage());
        assertTrue(bad.getMessage().contains("AUTOCOMPLETE_MANAGEMENT_CONSOLE_HOSTS"), bad.getMessage());
        assertTrue(bad.getMessage().contains("without ports"), bad.getMessage());
    }

    @Test
    void the_data_directory_is_data_beside_the_tenants_directory_unless_data_dir_is_set() {
        ServerSettings defaults = ServerSettings.defaults();
        assertEquals(Path.of("").toAbsolutePath().resolve("data"), defaults.data());
        assertEquals(
                temp.resolve("data"),
                defaults.with(null, null, temp.resolve("tenants")).data());
        assertEquals(
                temp.resolve("data"),
                defaults.with(null, null, temp.resolve("tenants/./")).data());
        ServerSettings set = ServerSettings.read(null, Map.of("AUTOCOMPLETE_DATA_DIR", "/var/lib/autocomplete"));
        assertEquals(
                Path.of("/var/lib/autocomplete"),
                set.with(null, null, temp.resolve("tenants")).data());
        assertEquals(
                temp.resolve("state"), set.withDataDir(temp.resolve("state")).data());
    }

    @Test
    void unknown_keys_and_bad_values_are_errors_that_name_the_key() throws Exception {
        Path typo = Files.writeString(temp.resolve("typo.yaml"), "server:\n  prot: 9000\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServerSettings.read(typo, Map.of()))
                .getMessage()
                .contains("'server.prot' is not a known key; did you mean 'server.port'?"));
        Path far = Files.writeString(temp.resolve("far.yaml"), "colour: blue\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ServerSettings.read(far, Map.of()))
                .getMessage()
                .contains("'colour' is not a known key (known: "));
        IllegalArgumentException bad = assertThrows(
                IllegalArgumentException.class,
                () -> ServerSettings.read(null, Map.of("AUTOCOMPLETE_LIMITS_BODY_BYTES", "lots")));
        assertTrue(
                bad.getMessage().contains("limits.body-bytes (or AUTOCOMPLETE_LIMITS_BODY_BYTES)"), bad.getMessage());
    }

    @Test
    void tenants_watch_is_auto_events_or_poll_in_any_case() {
        assertEquals(WatchMode.AUTO, ServerSettings.defaults().tenantsWatch());
        assertEquals(
                WatchMode.POLL,
                ServerSettings.read(null, Map.of("AUTOCOMPLETE_TENANTS_WATCH", "Poll"))
                        .tenantsWatch());
        IllegalArgumentException bad = assertThrows(
                IllegalArgumentException.class,
                () -> ServerSettings.read(null, Map.of("AUTOCOMPLETE_TENANTS_WATCH", "inotify")));
        assertTrue(
                bad.getMessage()
                        .contains(
                                "tenants.watch (or AUTOCOMPLETE_TENANTS_WATCH) must be one of [auto, events, poll]; got 'inotify'"),
                bad.getMessage());
    }

    @Test
    void the_shipped_settings_file_shows_every_key_with_its_default() throws Exception {
        // deploy/autocomplete.yaml says it shows every key with its default: read as the server reads it.
        Map<String, String> shown = ServerSettings.flatten(repoRoot().resolve("deploy/autocomplete.yaml"));
        for (Map.Entry<String, String> key : ServerSettings.KEYS.entrySet()) {
            assertEquals(key.getValue(), shown.get(key.getKey()), "deploy/autocomplete.yaml: " + key.getKey());
        }
    }

    @Test
    void the_readme_documents_every_key_and_its_environment_variable() throws Exception {
        String readme = Files.readString(repoRoot().resolve("README.md"));
        for (String key : ServerSettings.KEYS.keySet()) {
            assertTrue(readme.contains("`" + key + "`"), "README lacks " + key);
            assertTrue(readme.contains("`" + ServerSettings.environmentName(key) + "`"), "README lacks env of " + key);
        }
    }
}
