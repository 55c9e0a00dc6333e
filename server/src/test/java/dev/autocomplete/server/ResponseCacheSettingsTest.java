package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cache.max-entries}: the response cache's size from {@code autocomplete.yaml} or the environment. */
class ResponseCacheSettingsTest {

    @TempDir
    Path temp;

    @Test
    void zero_max_entries_in_the_file_turns_the_cache_off_so_every_request_runs_the_engine() throws Exception {
        Path file = Files.writeString(temp.resolve("autocomplete.yaml"), "cache:\n  max-entries: 0\n");
        String metrics = threeEqualRequests(ServerSettings.read(file, Map.of()));
        assertTrue(
                metrics.contains(
                        "autocomplete_engine_calls_total{engine=\"catalogs\",outcome=\"ok\",product=\"travel\",tenant=\"demo\"} 3"),
                metrics);
        assertFalse(metrics.contains("autocomplete_cache_lookups_total{"), metrics);
    }

    @Test
    void the_environment_variable_sets_the_size_and_a_cache_of_one_entry_still_answers_repeats() throws Exception {
        ServerSettings settings = ServerSettings.read(null, Map.of("AUTOCOMPLETE_CACHE_MAX_ENTRIES", "1"));
        assertEquals(1, settings.cacheMaxEntries());
        String metrics = threeEqualRequests(settings);
        assertTrue(
                metrics.contains(
                        "autocomplete_engine_calls_total{engine=\"catalogs\",outcome=\"ok\",product=\"travel\",tenant=\"demo\"} 1"),
                metrics);
        assertTrue(
                metrics.contains(
                        "autocomplete_cache_lookups_total{product=\"travel\",result=\"hit\",tenant=\"demo\"} 2"),
                metrics);
    }

    @Test
    void the_cache_is_on_by_default_and_a_negative_size_is_an_error_naming_the_variable() {
        assertEquals(20_000, ServerSettings.defaults().cacheMaxEntries());
        IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class,
                () -> ServerSettings.read(null, Map.of("AUTOCOMPLETE_CACHE_MAX_ENTRIES", "-1")));
        assertTrue(
                bad.getMessage().contains("cache.max-entries (or AUTOCOMPLETE_CACHE_MAX_ENTRIES)"), bad.getMessage());
    }

    /** Sends the same travel query three times to a server with these settings; returns its metrics text. */
    private String threeEqualRequests(ServerSettings settings) throws Exception {
        String key = TestTenants.createKey(TestTenants.copyOfDemo(temp), "demo", "public", "travel");
        try (AutocompleteServer server = AutocompleteServer.start(
                settings.with("127.0.0.1", 0, temp.resolve("tenants")).withManagement("127.0.0.1", 0))) {
            ApiClient api = new ApiClient(server.port());
            for (int i = 0; i < 3; i++) {
                assertEquals(
                        200,
                        api.suggest(key, envelope("Book a flight from Par")).status());
            }
            return ApiClient.management(server.managementPort())
                    .get("/observe/metrics")
                    .raw();
        }
    }
}
