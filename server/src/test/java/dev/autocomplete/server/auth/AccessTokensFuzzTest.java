package dev.autocomplete.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.Fuzz;
import dev.autocomplete.server.protocol.ApiException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Generated credentials against the access-token parser and the {@code Authorization} header reader: whatever
 * the string, the answer is verified claims or the protocol's 401, never another exception. Tokens signed with
 * the right secret but holding any claims (the shapes a forger with a leaked secret, or a bug, could make) must
 * still give complete claims or a 401.
 */
class AccessTokensFuzzTest {

    private static final byte[] SECRET = "a-test-signing-secret-of-at-least-32-bytes".getBytes(StandardCharsets.UTF_8);
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    private static final AccessTokens TOKENS = new AccessTokens(SECRET, Clock.fixed(NOW, ZoneOffset.UTC));
    private static final KeyRecord KEY =
            new KeyRecord("k1", KeyType.SECRET, "acme", null, "digest", NOW, null, KeyScope.DEFAULT);
    private static final UUID PRODUCT = UUID.fromString("6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61");
    private static final String TOKEN =
            TOKENS.mint(KEY, PRODUCT, Duration.ofMinutes(15)).token();
    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();

    /** The property of every presented token: complete claims, or a 401 the protocol names. */
    private static AccessTokens.Claims verifiesOrRefuses(String token) {
        try {
            AccessTokens.Claims claims = TOKENS.verify(token);
            assertNotNull(claims.tenantId());
            assertNotNull(claims.productId());
            assertNotNull(claims.keyId());
            return claims;
        } catch (ApiException refused) {
            assertEquals(401, refused.status());
            assertTrue(Set.of("INVALID_CREDENTIALS", "TOKEN_EXPIRED").contains(refused.code()), refused.code());
            return null;
        }
    }

    @Test
    void a_minted_token_verifies() {
        assertEquals(new AccessTokens.Claims("acme", PRODUCT, "k1"), TOKENS.verify(TOKEN));
    }

    @Test
    void mutated_tokens_are_refused_or_verify_to_the_very_same_claims() {
        Fuzz.check(
                3_000,
                random -> {
                    StringBuilder token = new StringBuilder(TOKEN);
                    for (int m = random.nextInt(1, 4); m > 0; m--) {
                        int at = random.nextInt(token.length());
                        switch (random.nextInt(3)) {
                            case 0 ->
                                token.setCharAt(
                                        at,
                                        Fuzz.oneOf(
                                                random, 'A', 'z', '0', '-', '_', '.', '=', '+', '/', ' ', '\u00e9',
                                                '\uD800'));
                            case 1 -> token.deleteCharAt(at);
                            default -> token.insert(at, Fuzz.text(random, 4));
                        }
                    }
                    return token.toString();
                },
                token -> token,
                token -> {
                    AccessTokens.Claims claims = verifiesOrRefuses(token);
                    // Base64url's last character carries spare bits: a change there can decode to the same signature.
                    if (claims != null) {
                        assertEquals(TOKENS.verify(TOKEN), claims);
                    }
                });
    }

    @Test
    void random_strings_with_the_token_prefix_are_refused() {
        Fuzz.check(
                3_000,
                random -> AccessTokens.PREFIX
                        + Fuzz.oneOf(random, "", "e30.e30.", "..", "a.b.c.d")
                        + Fuzz.text(random, 80),
                token -> token,
                token -> assertEquals(null, verifiesOrRefuses(token)));
    }

    @Test
    void correctly_signed_tokens_with_any_header_and_claims_give_complete_claims_or_a_401() {
        Fuzz.check(
                3_000,
                random -> signedWithAnyClaims(random, SECRET),
                token -> token,
                AccessTokensFuzzTest::verifiesOrRefuses);
    }

    @Test
    void tokens_signed_with_another_secret_are_refused_whatever_their_claims() {
        byte[] other = "another-secret-that-is-also-32-bytes-long".getBytes(StandardCharsets.UTF_8);
        Fuzz.check(
                3_000,
                random -> signedWithAnyClaims(random, other),
                token -> token,
                token -> assertEquals(null, verifiesOrRefuses(token)));
    }

    @Test
    void any_authorization_header_gives_a_credential_or_a_401() {
        Fuzz.check(
                5_000,
                random -> Fuzz.oneOf(
                                random, "Bearer ", "bearer ", "Basic ", "basic ", "", " ", "Digest ", "Bearer", "Basic")
                        + (random.nextBoolean()
                                ? Base64.getEncoder()
                                        .encodeToString(Fuzz.text(random, 30).getBytes(StandardCharsets.UTF_8))
                                : Fuzz.text(random, 60)),
                header -> header,
                header -> {
                    try {
                        assertNotNull(Credentials.from(Optional.of(header), "MISSING", "INVALID"));
                    } catch (ApiException refused) {
                        assertEquals(401, refused.status());
                        assertTrue(Set.of("MISSING", "INVALID").contains(refused.code()), refused.code());
                    }
                });
    }

    /** An HS256 JWT signed with the right secret, whose header and claims are each fitting, missing or odd. */
    private static String signedWithAnyClaims(SplittableRandom random, byte[] secret) {
        String header = Fuzz.oneOf(
                random,
                "{\"alg\":\"HS256\",\"typ\":\"JWT\"}",
                "{\"alg\":\"HS256\"}",
                "{\"alg\":\"none\"}",
                "{\"alg\":\"HS512\"}",
                "{\"alg\":\"hs256\"}",
                "{\"alg\":null}",
                "{}",
                "[]",
                "\"x\"",
                "{\"alg\":\"HS256\",\"crit\":[\"exp\"]}");
        StringBuilder claims = new StringBuilder("{");
        String[] names = {"iss", "tenant", "product", "key", "iat", "exp", "jti", "nbf"};
        String[] fitting = {
            "\"autocomplete\"",
            "\"acme\"",
            "\"" + PRODUCT + "\"",
            "\"k1\"",
            Long.toString(NOW.getEpochSecond()),
            Long.toString(NOW.getEpochSecond() + 900),
            "\"j\"",
            Long.toString(NOW.getEpochSecond())
        };
        for (int i = 0; i < names.length; i++) {
            String value =
                    switch (random.nextInt(6)) {
                        case 0, 1, 2 -> fitting[i];
                        case 3 -> null;
                        case 4 ->
                            Fuzz.oneOf(
                                    random,
                                    "null",
                                    "1",
                                    "-1",
                                    "1e400",
                                    "true",
                                    "[]",
                                    "{}",
                                    "[\"a\"]",
                                    "\"\"",
                                    "\"not-a-uuid\"",
                                    "9223372036854775807",
                                    "\"" + NOW.getEpochSecond() + "\"",
                                    "0.5");
                        default -> JsonStrings.quote(Fuzz.text(random, 12));
                    };
            if (value != null) {
                claims.append(claims.length() > 1 ? "," : "")
                        .append('"')
                        .append(names[i])
                        .append("\":")
                        .append(value);
            }
        }
        String payload = random.nextInt(20) == 0
                ? Fuzz.text(random, 20)
                : claims.append('}').toString();
        String signingInput = URL.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
                + URL.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        return AccessTokens.PREFIX + signingInput + "." + URL.encodeToString(hs256(signingInput, secret));
    }

    private static byte[] hs256(String signingInput, byte[] secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII));
        } catch (java.security.GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    /** JSON string literals, as Jackson quotes them. */
    private static final class JsonStrings {
        static String quote(String text) {
            return "\""
                    + new String(com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance()
                            .quoteAsString(text)) + "\"";
        }
    }
}
