package dev.autocomplete.server.auth;

import com.auth0.jwt.JWT;
import com.auth0.jwt.JWTVerifier;
import com.auth0.jwt.algorithms.Algorithm;
import com.auth0.jwt.exceptions.TokenExpiredException;
import com.auth0.jwt.interfaces.DecodedJWT;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.protocol.Uuids;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * Access tokens: {@code at_v1_} followed by a JWT signed with HS256 (the only algorithm accepted: a token whose
 * header names another one, {@code none} included, is refused). Claims: issuer, tenant, product, the minting
 * key's id, issued-at, expiry and a unique id.
 */
public final class AccessTokens {

    public static final String PREFIX = "at_v1_";
    /** Clock skew tolerated on expiry and issued-at. */
    public static final Duration LEEWAY = Duration.ofSeconds(10);

    static final String ISSUER = "autocomplete";
    static final String TENANT = "tenant";
    static final String PRODUCT = "product";
    static final String KEY = "key";

    private static final ApiException INVALID =
            new ApiException(401, "INVALID_CREDENTIALS", "The credential is not a valid key or token.");

    private final Algorithm algorithm;
    private final JWTVerifier verifier;
    private final Clock clock;

    public AccessTokens(byte[] secret, Clock clock) {
        this.algorithm = Algorithm.HMAC256(secret);
        this.clock = clock;
        this.verifier = ((JWTVerifier.BaseVerification) JWT.require(algorithm)
                        .withIssuer(ISSUER)
                        .withClaimPresence(TENANT)
                        .withClaimPresence(PRODUCT)
                        .withClaimPresence(KEY)
                        .withClaimPresence("jti")
                        .withClaimPresence("exp")
                        .acceptLeeway(LEEWAY.toSeconds()))
                .build(clock);
    }

    /** A minted token and its expiry (whole seconds, as in the token). */
    public record Minted(String token, Instant expiresAt) {
        @Override
        public String toString() {
            return "Minted[expiresAt=" + expiresAt + "]";
        }
    }

    /** What a verified token says. */
    public record Claims(String tenantId, UUID productId, String keyId) {}

    public static boolean looksLikeToken(String credential) {
        return credential.startsWith(PREFIX);
    }

    public Minted mint(KeyRecord key, UUID productId, Duration lifetime) {
        Instant issued = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Instant expires = issued.plus(lifetime);
        String jwt = JWT.create()
                .withIssuer(ISSUER)
                .withClaim(TENANT, key.tenantId())
                .withClaim(PRODUCT, productId.toString())
                .withClaim(KEY, key.id())
                .withIssuedAt(issued)
                .withExpiresAt(expires)
                .withJWTId(UUID.randomUUID().toString())
                .sign(algorithm);
        return new Minted(PREFIX + jwt, expires);
    }

    /**
     * Checks the signature (HS256 with this deployment's secret), then the claims.
     *
     * @throws ApiException 401 {@code TOKEN_EXPIRED} for a genuine token past its expiry and the leeway, 401
     *         {@code INVALID_CREDENTIALS} for anything else
     */
    public Claims verify(String token) {
        if (!looksLikeToken(token)) {
            throw INVALID;
        }
        try {
            DecodedJWT jwt = verifier.verify(token.substring(PREFIX.length()));
            // Present is not enough: a claim of another JSON type reads as null (found by fuzzing).
            String tenant = jwt.getClaim(TENANT).asString();
            String product = jwt.getClaim(PRODUCT).asString();
            String key = jwt.getClaim(KEY).asString();
            if (tenant == null || product == null || key == null) {
                throw INVALID;
            }
            return new Claims(tenant, Uuids.parse(product).orElseThrow(() -> INVALID), key);
        } catch (TokenExpiredException e) {
            throw new ApiException(401, "TOKEN_EXPIRED", "The access token has expired; mint a new one.");
        } catch (RuntimeException e) {
            // Not only the library's own exceptions: decoding a claim such as "iat": 9223372036854775807 throws
            // DateTimeException, before any signature is checked (found by fuzzing). Whatever it throws, this is
            // no token of ours.
            throw INVALID;
        }
    }
}
