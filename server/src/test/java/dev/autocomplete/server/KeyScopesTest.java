package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.auth.ApiKeys;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Allowed origins, CORS, key expiry, rotation and Basic credentials, over HTTP (and once through real curl). */
class KeyScopesTest {

    @TempDir
    Path temp;

    private final TestClock clock = new TestClock();

    private AutocompleteServer start(Path tenants) throws IOException {
        return AutocompleteServer.start(TestServers.settings(tenants)
                .withTokenSecret(AccessTokenTest.SECRET)
                .withClock(clock));
    }

    private static ApiClient.Reply fromOrigin(ApiClient api, String key, String origin) {
        return api.post(
                "/api/suggest",
                key,
                envelope("").toString(),
                "application/json",
                origin == null ? Map.of() : Map.of("Origin", origin));
    }

    @Test
    void a_key_with_origins_serves_only_those_origins_and_says_so_with_cors_headers() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String scoped = TestTenants.createKey(
                tenants,
                "demo",
                "public",
                "travel",
                "--origins",
                "https://app.example.com,https://*.example.org,http://localhost:3000",
                "--allow-no-origin",
                "false");
        String open = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            for (String allowed : List.of(
                    "https://app.example.com",
                    "https://shop.example.org",
                    "https://a.b.example.org",
                    "http://localhost:3000",
                    "HTTPS://APP.EXAMPLE.COM")) {
                ApiClient.Reply reply = fromOrigin(api, scoped, allowed);
                assertEquals(200, reply.status(), allowed + ": " + reply.raw());
                assertEquals(allowed, reply.header("Access-Control-Allow-Origin"));
                assertTrue(
                        reply.header("Vary").contains("Origin"), reply.headers().toString());
                assertTrue(reply.header("Access-Control-Expose-Headers").contains("RateLimit-Remaining"));
            }
            for (String refused : List.of(
                    "https://example.org",
                    "https://evil.com",
                    "http://app.example.com",
                    "https://app.example.com:8443",
                    "https://app.example.com.evil.com",
                    "null",
                    "https://evilexample.org")) {
                ApiClient.Reply reply = fromOrigin(api, scoped, refused);
                assertEquals(403, reply.status(), refused + ": " + reply.raw());
                assertEquals("ORIGIN_NOT_ALLOWED", reply.errorCode());
                // Readable by the refused page (why, not a bare CORS failure); the key's rate headers are not
                // exposed to it.
                assertEquals(refused, reply.header("Access-Control-Allow-Origin"), refused);
                assertNull(reply.header("Access-Control-Expose-Headers"), refused);
                assertTrue(reply.header("RateLimit-Remaining") != null, "rate headers on every response");
            }
            ApiClient.Reply noOrigin = fromOrigin(api, scoped, null);
            assertEquals(403, noOrigin.status(), "allow_no_origin: false refuses server-side callers");
            assertEquals("ORIGIN_NOT_ALLOWED", noOrigin.errorCode());

            ApiClient.Reply openFromBrowser = fromOrigin(api, open, "https://anywhere.test");
            assertEquals(200, openFromBrowser.status());
            assertEquals("https://anywhere.test", openFromBrowser.header("Access-Control-Allow-Origin"));
            ApiClient.Reply openFromServer = fromOrigin(api, open, null);
            assertEquals(200, openFromServer.status());
            assertNull(openFromServer.header("Access-Control-Allow-Origin"));

            List<String> keys = Files.readAllLines(tenants.resolve("demo/keys.yaml"));
            assertTrue(
                    keys.contains("  origins:") || String.join("\n", keys).contains("https://*.example.org"),
                    String.join("\n", keys));
            TestTenants.Cli list = TestTenants.cli("keys", "list", "--tenants", tenants.toString(), "--tenant", "demo");
            assertTrue(list.out().contains("https://*.example.org"), list.out());
            assertTrue(list.out().contains("no-origin refused"), list.out());
        }
    }

    @Test
    void preflights_are_answered_on_browser_paths_and_never_on_the_token_endpoint() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            for (String path : List.of("/api/suggest", "/api/telemetry/events")) {
                ApiClient.Reply preflight = api.send(HttpRequest.newBuilder(URI.create(api.base() + path))
                        .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                        .header("Origin", "https://app.example.com")
                        .header("Access-Control-Request-Method", "POST")
                        .header("Access-Control-Request-Headers", "authorization, content-type, x-app-identifier")
                        .build());
                assertEquals(204, preflight.status(), path);
                assertEquals("https://app.example.com", preflight.header("Access-Control-Allow-Origin"));
                assertTrue(preflight.header("Access-Control-Allow-Methods").contains("POST"));
                String headers = preflight.header("Access-Control-Allow-Headers");
                for (String header : List.of("Authorization", "Content-Type", "X-App-Identifier")) {
                    assertTrue(headers.contains(header), headers);
                }
                assertEquals("600", preflight.header("Access-Control-Max-Age"));
            }
            ApiClient.Reply tokenPreflight = api.send(HttpRequest.newBuilder(URI.create(api.base() + "/api/auth/token"))
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                    .header("Origin", "https://app.example.com")
                    .header("Access-Control-Request-Method", "POST")
                    .build());
            assertEquals(405, tokenPreflight.status());
            assertNull(tokenPreflight.header("Access-Control-Allow-Origin"));
            assertNull(tokenPreflight.header("Access-Control-Allow-Methods"));

            String secret = TestTenants.createKey(tenants, "demo", "secret", null);
            assertTrue(AccessTokenTest.within2Seconds(() ->
                    AccessTokenTest.mint(api, secret, AccessTokenTest.TRAVEL_ID).status() == 200));
            ApiClient.Reply mintFromBrowser = api.post(
                    "/api/auth/token",
                    secret,
                    "{\"product_id\":\"" + AccessTokenTest.TRAVEL_ID + "\"}",
                    "application/json",
                    Map.of("Origin", "https://app.example.com"));
            assertEquals(200, mintFromBrowser.status());
            assertNull(mintFromBrowser.header("Access-Control-Allow-Origin"), "the token endpoint has no CORS");
        }
    }

    @Test
    void a_token_used_from_an_origin_its_minting_key_refuses_is_told_so_as_a_token() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String secret = TestTenants.createKey(tenants, "demo", "secret", null, "--origins", "https://app.example.com");
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            ApiClient.Reply minted = AccessTokenTest.mint(api, secret, AccessTokenTest.TRAVEL_ID);
            assertEquals(200, minted.status(), "minting checks no origin: " + minted.raw());
            String token = minted.json().path("access_token").asText();
            assertEquals(200, fromOrigin(api, token, "https://app.example.com").status());
            ApiClient.Reply elsewhere = fromOrigin(api, token, "https://elsewhere.example");
            assertEquals(403, elsewhere.status(), elsewhere.raw());
            assertEquals(
                    "The secret key that minted this access token does not accept requests from this origin.",
                    elsewhere.json().path("error").path("message").asText());
        }
    }

    @Test
    void curl_without_origin_and_a_browser_with_one_see_the_rules_of_the_key() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String browserOnly = TestTenants.createKey(
                tenants,
                "demo",
                "public",
                "travel",
                "--origins",
                "https://app.example.com",
                "--allow-no-origin",
                "false");
        String serverFriendly =
                TestTenants.createKey(tenants, "demo", "public", "travel", "--origins", "https://app.example.com");
        try (AutocompleteServer server = start(tenants)) {
            String url = "http://127.0.0.1:" + server.port() + "/api/suggest";
            assertTrue(curl(url, browserOnly, null).contains("ORIGIN_NOT_ALLOWED"));
            String allowed = curl(url, serverFriendly, null);
            assertTrue(allowed.contains("HTTP/1.1 200"), allowed);
            assertTrue(!allowed.toLowerCase().contains("access-control-allow-origin"), allowed);
            String browser = curl(url, browserOnly, "https://app.example.com");
            assertTrue(browser.contains("HTTP/1.1 200"), browser);
            assertTrue(browser.toLowerCase().contains("access-control-allow-origin: https://app.example.com"), browser);
        }
    }

    /** Runs the real curl (installed by .ci/run) and returns the status line, headers and body. */
    private static String curl(String url, String key, String origin) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(
                "curl",
                "-sS",
                "-i",
                url,
                "-H",
                "Authorization: Bearer " + key,
                "-H",
                "Content-Type: application/json",
                "-d",
                envelope("").toString()));
        if (origin != null) {
            command.addAll(List.of("-H", "Origin: " + origin));
        }
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("curl is needed for this test: apt-get install curl (.ci/run does)", e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), output);
        return output;
    }

    @Test
    void expired_keys_are_refused_like_revoked_ones_and_rotation_keeps_both_keys_working() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String old = TestTenants.createKey(tenants, "demo", "public", "travel", "--expires", "1h");
        String secret = TestTenants.createKey(tenants, "demo", "secret", null, "--expires", "2h");
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            String rotated = TestTenants.createKey(tenants, "demo", "public", "travel");
            assertTrue(AccessTokenTest.within2Seconds(
                    () -> api.suggest(rotated, envelope("")).status() == 200));
            assertEquals(200, api.suggest(old, envelope("")).status(), "old and new keys both work during rotation");
            clock.advance(Duration.ofMinutes(61));
            ApiClient.Reply expired = api.suggest(old, envelope(""));
            assertEquals(401, expired.status());
            assertEquals("INVALID_CREDENTIALS", expired.errorCode());
            assertEquals(200, api.suggest(rotated, envelope("")).status());

            clock.advance(Duration.ofMinutes(54));
            String token = AccessTokenTest.mint(api, secret, AccessTokenTest.TRAVEL_ID)
                    .json()
                    .path("access_token")
                    .asText();
            assertEquals(200, api.suggest(token, envelope("")).status());
            clock.advance(Duration.ofMinutes(6));
            assertEquals(
                    "INVALID_SECRET_KEY",
                    AccessTokenTest.mint(api, secret, AccessTokenTest.TRAVEL_ID).errorCode());
            assertEquals(
                    "INVALID_CREDENTIALS",
                    api.suggest(token, envelope("")).errorCode(),
                    "tokens die with the key that minted them");
            assertTrue(Files.readString(tenants.resolve("demo/keys.yaml")).contains("expires_at:"));
        }
    }

    @Test
    void keys_may_be_sent_as_basic_credentials() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            for (String form : List.of(key, key + ":")) {
                String basic = Base64.getEncoder().encodeToString(form.getBytes(StandardCharsets.UTF_8));
                ApiClient.Reply reply = api.post(
                        "/api/suggest",
                        null,
                        envelope("").toString(),
                        "application/json",
                        Map.of("Authorization", "Basic " + basic));
                assertEquals(200, reply.status(), reply.raw());
            }
            ApiClient.Reply wrong = api.post(
                    "/api/suggest",
                    null,
                    envelope("").toString(),
                    "application/json",
                    Map.of(
                            "Authorization",
                            "Basic "
                                    + Base64.getEncoder()
                                            .encodeToString(
                                                    ("pk_v1_" + "x".repeat(38)).getBytes(StandardCharsets.UTF_8))));
            assertEquals("INVALID_CREDENTIALS", wrong.errorCode());
            assertEquals(
                    "INVALID_CREDENTIALS",
                    api.post(
                                    "/api/suggest",
                                    null,
                                    envelope("").toString(),
                                    "application/json",
                                    Map.of("Authorization", "Basic !!!"))
                            .errorCode());
            assertTrue(ApiKeys.typeOf(key) != null);
        }
    }

    @Test
    void keys_create_refuses_malformed_scopes() {
        Path tenants = TestTenants.copyOfDemo(temp);
        for (String[] options : List.of(
                new String[] {"--origins", "app.example.com"},
                new String[] {"--origins", "https://app.example.com/path"},
                new String[] {"--origins", "https://*"},
                new String[] {"--expires", "tomorrow"},
                new String[] {"--rate", "fast"},
                new String[] {"--rate", "20", "--burst", "5"},
                new String[] {"--burst", "5"})) {
            List<String> args = new java.util.ArrayList<>(List.of(
                    "keys",
                    "create",
                    "--tenants",
                    tenants.toString(),
                    "--tenant",
                    "demo",
                    "--type",
                    "public",
                    "--product",
                    "travel"));
            args.addAll(List.of(options));
            TestTenants.Cli result = TestTenants.cli(args.toArray(String[]::new));
            assertEquals(2, result.exit(), String.join(" ", options) + ": " + result.out());
            assertTrue(!result.err().isBlank(), String.join(" ", options));
        }
    }
}
