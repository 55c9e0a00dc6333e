package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.auth.ApiKeys;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Secret keys restricted to some uses ({@code keys create --scopes}), through the real CLI and over HTTP. */
class KeyUsesTest {

    @TempDir
    Path temp;

    private static String idOf(String key) {
        return ApiKeys.idOf(ApiKeys.digest(key));
    }

    @Test
    void a_secret_key_without_a_use_is_refused_there_with_key_scope_and_serves_its_other_uses() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String catalogsOnly = TestTenants.createKey(tenants, "demo", "secret", null, "--scopes", "catalogs");
        String suggestOnly = TestTenants.createKey(tenants, "demo", "secret", null, "--scopes", "suggest");
        String tokensOnly = TestTenants.createKey(tenants, "demo", "secret", null, "--scopes", "TOKENS");
        String everything = TestTenants.createKey(tenants, "demo", "secret", null);
        try (AutocompleteServer server =
                AutocompleteServer.start(TestServers.settings(tenants).withTokenSecret(AccessTokenTest.SECRET))) {
            ApiClient api = new ApiClient(server.port());

            for (String key : List.of(catalogsOnly, tokensOnly)) {
                ApiClient.Reply suggest = api.suggest(key, envelope(""));
                assertEquals(403, suggest.status(), suggest.raw());
                assertEquals("KEY_SCOPE", suggest.errorCode());
                assertTrue(suggest.json().path("error").path("message").asText().contains("'suggest'"), suggest.raw());
                assertFalse(suggest.raw().contains(key) || suggest.raw().contains(idOf(key)), "never the key");
                assertEquals(
                        "KEY_SCOPE",
                        api.post("/api/telemetry/events", key, "{\"type\":\"shown\"}", "application/json", Map.of())
                                .errorCode(),
                        "telemetry is part of suggest");
            }
            for (String key : List.of(catalogsOnly, suggestOnly)) {
                ApiClient.Reply mint = AccessTokenTest.mint(api, key, AccessTokenTest.TRAVEL_ID);
                assertEquals(403, mint.status(), mint.raw());
                assertEquals("KEY_SCOPE", mint.errorCode());
                assertTrue(mint.json().path("error").path("message").asText().contains("'tokens'"), mint.raw());
            }

            assertEquals(200, api.suggest(suggestOnly, envelope("")).status());
            assertEquals(200, api.suggest(everything, envelope("")).status());
            ApiClient.Reply minted = AccessTokenTest.mint(api, tokensOnly, AccessTokenTest.TRAVEL_ID);
            assertEquals(200, minted.status(), minted.raw());
            assertEquals(
                    200,
                    api.suggest(minted.json().path("access_token").asText(), envelope(""))
                            .status(),
                    "a token serves its product's suggest requests whatever the uses of its key");
            assertEquals(
                    200,
                    AccessTokenTest.mint(api, everything, AccessTokenTest.TRAVEL_ID)
                            .status());
        }
    }

    @Test
    void uses_are_stored_only_when_restricted_and_listed_for_every_key() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String restricted = TestTenants.createKey(tenants, "demo", "secret", null, "--scopes", "catalogs,suggest");
        String all = TestTenants.createKey(tenants, "demo", "secret", null);
        TestTenants.createKey(tenants, "demo", "public", "travel");

        String stored = Files.readString(tenants.resolve("demo/keys.yaml"));
        assertTrue(stored.contains("uses:\n  - suggest\n  - catalogs"), stored);
        assertEquals(1, stored.split("uses:", -1).length - 1, "a key with every use has no 'uses' entry: " + stored);

        TestTenants.Cli list = TestTenants.cli("keys", "list", "--tenants", tenants.toString(), "--tenant", "demo");
        assertEquals(0, list.exit(), list.err());
        assertTrue(
                list.out()
                        .lines()
                        .anyMatch(line -> line.startsWith(idOf(restricted)) && line.contains(" suggest,catalogs ")),
                list.out());
        assertTrue(
                list.out()
                        .lines()
                        .anyMatch(line -> line.startsWith(idOf(all)) && line.contains(" suggest,tokens,catalogs ")),
                list.out());
        assertTrue(
                list.out().lines().anyMatch(line -> line.contains(" public ") && line.contains(" suggest ")),
                list.out());
    }

    @Test
    void scopes_that_name_no_use_or_go_with_a_public_key_are_refused() {
        Path tenants = TestTenants.copyOfDemo(temp);
        for (List<String> options : List.of(
                List.of("--type", "secret", "--scopes", "admin"),
                List.of("--type", "secret", "--scopes", ","),
                List.of("--type", "public", "--product", "travel", "--scopes", "suggest"))) {
            List<String> args = new java.util.ArrayList<>(
                    List.of("keys", "create", "--tenants", tenants.toString(), "--tenant", "demo"));
            args.addAll(options);
            TestTenants.Cli result = TestTenants.cli(args.toArray(String[]::new));
            assertEquals(2, result.exit(), options + ": " + result.out());
            assertTrue(result.err().contains("scopes") || result.err().contains("use"), options + ": " + result.err());
        }
        assertFalse(Files.exists(tenants.resolve("demo/keys.yaml")), "nothing was created");
    }
}
