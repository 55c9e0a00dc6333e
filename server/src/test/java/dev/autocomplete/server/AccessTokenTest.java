package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.auth0.jwt.JWT;
import com.auth0.jwt.algorithms.Algorithm;
import dev.autocomplete.server.auth.ApiKeys;
import dev.autocomplete.server.auth.SigningSecret;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POST /api/auth/token} and access tokens on {@code /api/suggest}, over HTTP. */
class AccessTokenTest {

    static final String TRAVEL_ID = "6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61";
    static final String SECRET = "test-signing-secret-0123456789-abcdefghij";
    private static final String OTHER_TENANT_YAML = """
            display_name: Acme
            products:
              - id: 9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a
                slug: support
                engine: catalog
                config:
                  intents:
                    - name: open_ticket
                      phrases: [Open a ticket]
                      params:
                        - type: topic
                          options: [billing, login]
            """;

    @TempDir
    Path temp;

    private final TestClock clock = new TestClock();

    private AutocompleteServer start(Path tenants) throws Exception {
        return AutocompleteServer.start(
                TestServers.settings(tenants).withTokenSecret(SECRET).withClock(clock));
    }

    static ApiClient.Reply mint(ApiClient api, String credential, String productId) {
        return api.post(
                "/api/auth/token", credential, "{\"product_id\":\"" + productId + "\"}", "application/json", Map.of());
    }

    @Test
    void the_token_journey_mint_use_expire_revoke_and_other_product() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path tenantYaml = tenants.resolve("demo/tenant.yaml");
        Files.writeString(tenantYaml, Files.readString(tenantYaml) + "access_tokens:\n  lifetime: 2m\n");
        String secret = TestTenants.createKey(tenants, "demo", "secret", null);
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());

            ApiClient.Reply minted = mint(api, secret, TRAVEL_ID);
            assertEquals(200, minted.status(), minted.raw());
            String token = minted.json().path("access_token").asText();
            assertTrue(token.matches("at_v1_[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+"), token);
            assertEquals("Bearer", minted.json().path("token_type").asText());
            long expiresAt = minted.json().path("expires_at").asLong();
            assertEquals(clock.instant().getEpochSecond() + 120, expiresAt, 1);
            assertEquals(
                    expiresAt,
                    JWT.decode(token.substring(6)).getExpiresAtAsInstant().getEpochSecond());
            assertEquals("no-store", minted.header("Cache-Control"));

            assertEquals(200, api.suggest(token, envelope("")).status());
            ApiClient.Reply ownById = api.post(
                    "/api/suggest",
                    token,
                    envelope("").toString(),
                    "application/json",
                    Map.of("X-App-Identifier", TRAVEL_ID));
            assertEquals(200, ownById.status(), ownById.raw());

            ApiClient.Reply otherProduct = api.post(
                    "/api/suggest",
                    token,
                    envelope("").toString(),
                    "application/json",
                    Map.of("X-App-Identifier", "workspace"));
            assertEquals(401, otherProduct.status(), otherProduct.raw());
            assertEquals("INVALID_CREDENTIALS", otherProduct.errorCode());

            clock.advance(Duration.ofSeconds(120 + 5));
            assertEquals(200, api.suggest(token, envelope("")).status(), "accepted within the clock-skew leeway");
            clock.advance(Duration.ofSeconds(6));
            ApiClient.Reply expired = api.suggest(token, envelope(""));
            assertEquals(401, expired.status(), expired.raw());
            assertEquals("TOKEN_EXPIRED", expired.errorCode());

            String fresh =
                    mint(api, secret, TRAVEL_ID).json().path("access_token").asText();
            assertEquals(200, api.suggest(fresh, envelope("")).status());
            TestTenants.Cli revoked = TestTenants.cli(
                    "keys",
                    "revoke",
                    "--tenants",
                    tenants.toString(),
                    "--tenant",
                    "demo",
                    ApiKeys.idOf(ApiKeys.digest(secret)));
            assertEquals(0, revoked.exit(), revoked.err());
            assertTrue(
                    within2Seconds(() -> "INVALID_CREDENTIALS"
                            .equals(api.suggest(fresh, envelope("")).errorCode())),
                    "a token stops working within 2 s of its key's revocation");
            assertEquals("INVALID_SECRET_KEY", mint(api, secret, TRAVEL_ID).errorCode());
        }
    }

    @Test
    void the_token_endpoint_takes_only_a_secret_key_and_a_product_of_its_tenant() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Files.createDirectories(tenants.resolve("acme"));
        Files.writeString(tenants.resolve("acme/tenant.yaml"), OTHER_TENANT_YAML);
        String secret = TestTenants.createKey(tenants, "demo", "secret", null);
        String publicKey = TestTenants.createKey(tenants, "demo", "public", "travel");
        try (AutocompleteServer server = start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            String token =
                    mint(api, secret, TRAVEL_ID).json().path("access_token").asText();

            for (String credential : new String[] {
                null,
                publicKey,
                token,
                "sk_v1_notAKeyAtAll",
                new ApiKeys().generate(dev.autocomplete.server.auth.KeyType.SECRET)
            }) {
                ApiClient.Reply reply = mint(api, credential, TRAVEL_ID);
                assertEquals(401, reply.status(), reply.raw());
                assertEquals("INVALID_SECRET_KEY", reply.errorCode());
            }
            for (String body : new String[] {
                "{}", "{\"product_id\":\"travel\"}", "{\"product_id\":42}", "{\"product_id\":null}", "[]"
            }) {
                ApiClient.Reply reply = api.post("/api/auth/token", secret, body, "application/json", Map.of());
                assertEquals(400, reply.status(), body + " -> " + reply.raw());
                assertEquals("INVALID_PRODUCT_ID", reply.errorCode());
            }
            assertEquals(
                    "INVALID_JSON",
                    api.post("/api/auth/token", secret, "{", "application/json", Map.of())
                            .errorCode());
            assertEquals(
                    404,
                    mint(api, secret, "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a").status(),
                    "a product of another tenant");
            assertEquals(
                    "PRODUCT_NOT_FOUND",
                    mint(api, secret, UUID.randomUUID().toString()).errorCode());

            String basic = Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8));
            ApiClient.Reply viaBasic = api.post(
                    "/api/auth/token",
                    null,
                    "{\"product_id\":\"" + TRAVEL_ID + "\"}",
                    "application/json",
                    Map.of("Authorization", "Basic " + basic));
            assertEquals(200, viaBasic.status(), viaBasic.raw());

            ApiClient.Reply get =
                    api.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(api.base() + "/api/auth/token"))
                            .GET()
                            .build());
            assertEquals(405, get.status());
        }
    }

    @Test
    void forged_tampered_truncated_unsigned_and_foreign_tokens_are_invalid_credentials() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String secret = TestTenants.createKey(tenants, "demo", "secret", null);
        Path otherTenants = TestTenants.copyOfDemo(temp.resolve("other-deployment"));
        String otherSecret = TestTenants.createKey(otherTenants, "demo", "secret", null);
        try (AutocompleteServer server = start(tenants);
                AutocompleteServer other = AutocompleteServer.start(TestServers.settings(otherTenants)
                        .withTokenSecret("another-deployment-secret-0123456789-xyz"))) {
            ApiClient api = new ApiClient(server.port());
            String token =
                    mint(api, secret, TRAVEL_ID).json().path("access_token").asText();
            assertEquals(200, api.suggest(token, envelope("")).status());
            String[] parts = token.substring(6).split("\\.");
            Base64.Decoder decoder = Base64.getUrlDecoder();
            Base64.Encoder encoder = Base64.getUrlEncoder().withoutPadding();
            String payload = new String(decoder.decode(parts[1]), StandardCharsets.UTF_8);
            String workspacePayload =
                    encoder.encodeToString(payload.replace(TRAVEL_ID, "0b7e4d2c-5a6f-4c3b-8d9e-2f1a3b4c5d72")
                            .getBytes(StandardCharsets.UTF_8));
            String noneHeader =
                    encoder.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
            String keyId = JWT.decode(token.substring(6)).getClaim("key").asString();
            String reSigned = JWT.create()
                    .withIssuer("autocomplete")
                    .withClaim("tenant", "demo")
                    .withClaim("product", TRAVEL_ID)
                    .withClaim("key", keyId)
                    .withIssuedAt(Instant.now())
                    .withExpiresAt(Instant.now().plusSeconds(600))
                    .withJWTId(UUID.randomUUID().toString())
                    .sign(Algorithm.HMAC256("an-attacker-guessed-this-secret-0123456789"));
            String otherAlgorithm = JWT.create()
                    .withIssuer("autocomplete")
                    .withClaim("tenant", "demo")
                    .withClaim("product", TRAVEL_ID)
                    .withClaim("key", keyId)
                    .withIssuedAt(Instant.now())
                    .withExpiresAt(Instant.now().plusSeconds(600))
                    .withJWTId(UUID.randomUUID().toString())
                    .sign(Algorithm.HMAC512(SECRET));
            String foreign = mint(new ApiClient(other.port()), otherSecret, TRAVEL_ID)
                    .json()
                    .path("access_token")
                    .asText();
            assertTrue(foreign.startsWith("at_v1_"), foreign);

            Map<String, String> forgeries = Map.of(
                    "tampered payload", "at_v1_" + parts[0] + "." + workspacePayload + "." + parts[2],
                    "truncated", token.substring(0, token.length() - 5),
                    "no signature", "at_v1_" + parts[0] + "." + parts[1] + ".",
                    "alg none", "at_v1_" + noneHeader + "." + parts[1] + ".",
                    "re-signed with another key", "at_v1_" + reSigned,
                    "HS512 instead of the pinned HS256", "at_v1_" + otherAlgorithm,
                    "minted by another deployment", foreign,
                    "garbage", "at_v1_garbage",
                    "a bare JWT without the prefix", token.substring(6));
            forgeries.forEach((what, forged) -> {
                ApiClient.Reply reply = api.suggest(forged, envelope(""));
                assertEquals(401, reply.status(), what + ": " + reply.raw());
                assertEquals("INVALID_CREDENTIALS", reply.errorCode(), what);
                assertFalse(reply.raw().contains(forged), what + ": the token is not echoed");
            });
        }
    }

    @Test
    void
            without_a_configured_secret_the_first_start_generates_one_owner_only_in_the_data_directory_and_later_starts_reuse_it()
                    throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String secret = TestTenants.createKey(tenants, "demo", "secret", null);
        String token;
        try (AutocompleteServer first = TestServers.start(tenants)) {
            token = mint(new ApiClient(first.port()), secret, TRAVEL_ID)
                    .json()
                    .path("access_token")
                    .asText();
        }
        Path file = temp.resolve("data").resolve(SigningSecret.GENERATED_FILE);
        assertTrue(Files.isRegularFile(file), "data/ beside tenants/ holds the generated secret");
        assertFalse(Files.exists(tenants.resolve(".secrets")), "nothing of the server's own lands in tenants/");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        assertTrue(Files.readString(file).strip().length() >= 32);
        try (AutocompleteServer second = TestServers.start(tenants)) {
            assertEquals(
                    200,
                    new ApiClient(second.port()).suggest(token, envelope("")).status(),
                    "a restart verifies the tokens minted before it");
        }
        Path secretFile = temp.resolve("shared-secret");
        Files.writeString(secretFile, "a-secret-shared-by-every-replica-0123456789\n");
        try (AutocompleteServer fromFile =
                AutocompleteServer.start(TestServers.settings(tenants).withAccess(null, secretFile))) {
            ApiClient.Reply reply = new ApiClient(fromFile.port()).suggest(token, envelope(""));
            assertEquals("INVALID_CREDENTIALS", reply.errorCode(), "a different secret refuses the old tokens");
            assertNotEquals(
                    token,
                    mint(new ApiClient(fromFile.port()), secret, TRAVEL_ID)
                            .json()
                            .path("access_token")
                            .asText());
        }
    }

    @Test
    void validate_reports_bad_access_token_settings_with_their_line() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path tenantYaml = tenants.resolve("demo/tenant.yaml");
        String original = Files.readString(tenantYaml);
        Files.writeString(tenantYaml, original + "access_tokens:\n  lifetime: 10s\n  rate: 5\n  burst: 2\n  ttl: 1\n");
        TestTenants.Cli result = TestTenants.cli("validate", "--tenants", tenants.toString());
        assertEquals(1, result.exit(), result.out());
        String out = result.out() + result.err();
        assertTrue(out.contains("access_tokens.lifetime") && out.contains("30s to 24h"), out);
        assertTrue(out.contains("access_tokens.rate") && out.contains("burst"), out);
        assertTrue(out.contains("access_tokens.ttl"), out);
        assertTrue(out.matches("(?s).*tenant\\.yaml:\\d+: .*"), out);
    }

    static boolean within2Seconds(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return true;
            }
            Thread.sleep(50);
        }
        return condition.getAsBoolean();
    }
}
