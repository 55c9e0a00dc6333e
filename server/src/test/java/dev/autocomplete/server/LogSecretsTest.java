package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.auth.ApiKeys;
import dev.autocomplete.server.auth.KeyType;
import dev.autocomplete.server.auth.SigningSecret;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server process goes through every authentication path (minting, tokens, keys, Basic, revoked keys,
 * forgeries, refused origins, rate limits, bad bodies); then its whole output and every error body are searched
 * for the keys, tokens, digests and signing secret it saw. None may appear.
 */
class LogSecretsTest {

    @TempDir
    Path temp;

    @Test
    void no_key_token_digest_or_signing_secret_reaches_the_log_or_an_error_body() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        // Not "demo": serve prints demo keys on purpose; this test wants none printed.
        Files.move(tenants.resolve("demo"), tenants.resolve("acme"));
        String secret = TestTenants.createKey(tenants, "acme", "secret", null);
        String publicKey =
                TestTenants.createKey(tenants, "acme", "public", "travel", "--origins", "https://app.example.com");
        String revoked = TestTenants.createKey(tenants, "acme", "public", "travel");
        assertEquals(
                0,
                TestTenants.cli(
                                "keys",
                                "revoke",
                                "--tenants",
                                tenants.toString(),
                                "--tenant",
                                "acme",
                                ApiKeys.idOf(ApiKeys.digest(revoked)))
                        .exit());
        String limitedKey = TestTenants.createKey(tenants, "acme", "public", "travel", "--rate", "1", "--burst", "1");

        List<ApiClient.Reply> errors = new ArrayList<>();
        String token;
        try (ServerProcess server = ServerProcess.start(tenants, temp.resolve("server.log"), Map.of())) {
            server.awaitServing();
            ApiClient api = new ApiClient(server.port());
            ApiClient.Reply minted = AccessTokenTest.mint(api, secret, AccessTokenTest.TRAVEL_ID);
            assertEquals(200, minted.status(), minted.raw());
            token = minted.json().path("access_token").asText();
            assertEquals(200, api.suggest(token, envelope("")).status());
            assertEquals(200, api.suggest(publicKey, envelope("")).status());
            assertEquals(
                    200,
                    api.post(
                                    "/api/suggest",
                                    null,
                                    envelope("").toString(),
                                    "application/json",
                                    Map.of(
                                            "Authorization",
                                            "Basic "
                                                    + Base64.getEncoder()
                                                            .encodeToString(secret.getBytes(StandardCharsets.UTF_8))))
                            .status());

            errors.add(api.suggest(revoked, envelope("")));
            errors.add(api.suggest(token.substring(0, token.length() - 3) + "abc", envelope("")));
            errors.add(api.post(
                    "/api/suggest",
                    publicKey,
                    envelope("").toString(),
                    "application/json",
                    Map.of("Origin", "https://evil.example")));
            errors.add(api.post("/api/suggest", token, "{not json", "application/json", Map.of()));
            errors.add(api.post(
                    "/api/suggest",
                    token,
                    envelope("").toString(),
                    "application/json",
                    Map.of("X-App-Identifier", "workspace")));
            errors.add(AccessTokenTest.mint(api, publicKey, AccessTokenTest.TRAVEL_ID));
            errors.add(AccessTokenTest.mint(api, token, AccessTokenTest.TRAVEL_ID));
            errors.add(AccessTokenTest.mint(api, revoked, AccessTokenTest.TRAVEL_ID));
            errors.add(AccessTokenTest.mint(api, secret, "not-a-uuid"));
            errors.add(api.post(
                    "/api/suggest", "Bearer " + secret, envelope("").toString(), "application/json", Map.of()));
            assertEquals(200, api.suggest(limitedKey, envelope("")).status());
            for (int i = 0; i < 2; i++) {
                errors.add(api.suggest(limitedKey, envelope("")));
            }
            for (int i = 0; i < 22; i++) {
                errors.add(api.suggest(new ApiKeys().generate(KeyType.SECRET), envelope("")));
            }
            server.close();

            String log = server.log();
            assertTrue(log.contains("generated one and stored it in"), "the log says a secret was generated:\n" + log);
            assertTrue(errors.stream().anyMatch(r -> r.status() == 429), "rate limits were hit");
            assertTrue(
                    errors.stream().noneMatch(r -> r.status() == 200 || r.status() >= 500),
                    errors.stream().map(ApiClient.Reply::raw).toList().toString());

            String signingSecret = Files.readString(
                            tenants.resolveSibling("data").resolve(SigningSecret.GENERATED_FILE))
                    .strip();
            Map<String, String> keys = new LinkedHashMap<>();
            keys.put("secret key", secret);
            keys.put("public key", publicKey);
            keys.put("revoked key", revoked);
            keys.put("rate-limited key", limitedKey);
            // One label per value: a label used twice would keep only the last value, which then goes unsearched.
            Map<String, String> secrets = new LinkedHashMap<>();
            keys.forEach((name, key) -> {
                secrets.put(name, key);
                secrets.put(name + " body", key.substring(6, 30));
                secrets.put(name + " digest", ApiKeys.digest(key));
                secrets.put(name + " digest hex", ApiKeys.digest(key).substring("sha256:".length()));
            });
            String[] jwt = token.substring(6).split("\\.");
            secrets.put("token", token);
            secrets.put("token payload", jwt[1]);
            secrets.put("token signature", jwt[2]);
            secrets.put("signing secret", signingSecret);
            secrets.put("signing secret hex", HexFormat.of().formatHex(signingSecret.getBytes(StandardCharsets.UTF_8)));
            assertEquals(4 * 4 + 5, secrets.size(), "every secret under its own label");
            secrets.forEach((what, value) -> {
                assertFalse(log.contains(value), "the log contains a " + what + ":\n" + log);
                for (ApiClient.Reply reply : errors) {
                    assertFalse(reply.raw().contains(value), "an error body contains a " + what + ": " + reply.raw());
                    reply.headers()
                            .forEach((name, values) -> assertFalse(
                                    values.toString().contains(value), "header " + name + " contains a " + what));
                }
            });
        }
    }
}
