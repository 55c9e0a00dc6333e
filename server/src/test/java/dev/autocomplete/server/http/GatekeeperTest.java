package dev.autocomplete.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.auth.AccessTokens;
import dev.autocomplete.server.auth.Admitted;
import dev.autocomplete.server.auth.ApiKeys;
import dev.autocomplete.server.auth.Authenticator;
import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.auth.FileKeyStore;
import dev.autocomplete.server.auth.KeyRecord;
import dev.autocomplete.server.auth.KeyRegistry;
import dev.autocomplete.server.auth.KeyScope;
import dev.autocomplete.server.auth.KeyType;
import dev.autocomplete.server.auth.KeyUse;
import dev.autocomplete.server.auth.OriginPattern;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.ratelimit.RateLimit;
import dev.autocomplete.server.ratelimit.RateLimiter;
import dev.autocomplete.server.tenant.TenantLoader;
import dev.autocomplete.server.tenant.TenantRegistry;
import io.helidon.http.ClientResponseHeaders;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * What {@link Gatekeeper} lets through and how it refuses, observed over HTTP on a loopback port: a route that
 * admits the request answers {@code tenant/product/kind}, or the refusal's status and code, with the headers the
 * gatekeeper set. Real tenant registry (a tenant with two products in a temporary directory), real key registry,
 * tokens and in-memory rate limiter; the server and its client are Helidon's test extension's ({@code @ServerTest}).
 * Every test makes keys of its own; the failed authentications of one address are counted on a route of their own,
 * {@code /strict/browser}, so that no other test's failures count against them.
 */
@ServerTest
class GatekeeperTest {

    private static final UUID SHOP = UUID.fromString("1b2c3d4e-5f60-4172-8394-a5b6c7d8e9f0");
    private static final UUID OUTLET = UUID.fromString("2c3d4e5f-6071-4283-9405-b6c7d8e9f0a1");
    private static final String TENANT = """
            display_name: Store
            products:
              - id: %s
                slug: shop
                intents: [{name: buy, phrases: [Buy], params: [{type: item, options: [Shoes]}]}]
              - id: %s
                slug: outlet
                intents: [{name: buy, phrases: [Buy], params: [{type: item, options: [Socks]}]}]
            """.formatted(SHOP, OUTLET);
    /** Failed authentications one address may make at once, on {@code /strict/browser}. */
    private static final RateLimit FAILURES = new RateLimit(1, 3);

    private static Path temp;
    private static TenantRegistry tenants;
    private static KeyRegistry keys;
    private static AccessTokens tokens;
    private static RateLimiter limiter;
    private static RateLimiter strictLimiter;

    private final Http1Client http;

    GatekeeperTest(Http1Client http) {
        this.http = http;
    }

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) throws Exception {
        temp = Files.createTempDirectory("gatekeeper");
        Files.createDirectories(temp.resolve("tenants/store"));
        Files.writeString(temp.resolve("tenants/store/tenant.yaml"), TENANT);
        tenants = TenantRegistry.load(temp.resolve("tenants"), new TenantLoader());
        assertTrue(tenants.tenant("store").isPresent(), tenants.problems().toString());
        keys = new KeyRegistry(new FileKeyStore(temp.resolve("tenants")), Clock.systemUTC());
        tokens = new AccessTokens(
                "a test signing secret of thirty-two bytes".getBytes(StandardCharsets.UTF_8), Clock.systemUTC());
        limiter = RateLimiter.local();
        strictLimiter = RateLimiter.local();
        Authenticator authenticator = new Authenticator(keys, tenants, tokens);
        Gatekeeper gatekeeper = new Gatekeeper(authenticator, limiter, new RateLimit(1000, 1000));
        Gatekeeper strict = new Gatekeeper(authenticator, strictLimiter, FAILURES);
        routing.post("/browser", (request, response) -> browser(gatekeeper, request, response))
                .post("/strict/browser", (request, response) -> browser(strict, request, response))
                .post("/catalogs", (request, response) -> {
                    try (Admitted admitted = gatekeeper.admitSecret(request, response, KeyUse.CATALOGS)) {
                        answer(admitted, response);
                    } catch (ApiException e) {
                        response.status(e.status()).send(e.code());
                    }
                })
                .post("/token", (request, response) -> {
                    try {
                        response.send(
                                gatekeeper.admitSecretKey(request, response).id());
                    } catch (ApiException e) {
                        response.status(e.status()).send(e.code());
                    }
                });
    }

    private static void browser(Gatekeeper gatekeeper, ServerRequest request, ServerResponse response) {
        try (Admitted admitted = gatekeeper.admit(request, response)) {
            answer(admitted, response);
        } catch (ApiException e) {
            response.status(e.status()).send(e.code());
        }
    }

    private static void answer(Admitted admitted, ServerResponse response) {
        Caller caller = admitted.caller();
        response.send(caller.tenant().id() + "/" + caller.product().slug() + "/" + caller.kind());
    }

    @AfterAll
    static void stop() {
        limiter.close();
        strictLimiter.close();
        tenants.close();
        try (Stream<Path> files = Files.walk(temp)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A key of the store tenant, known to the key registry. */
    private String key(KeyType type, UUID product, KeyScope scope) {
        String key = new ApiKeys().generate(type);
        String digest = ApiKeys.digest(key);
        keys.addEphemeral(
                new KeyRecord(ApiKeys.idOf(digest), type, "store", product, digest, Instant.now(), null, scope));
        return key;
    }

    private String key(KeyType type, UUID product) {
        return key(type, product, KeyScope.DEFAULT);
    }

    /** A response: status, body and headers. */
    private record Reply(int status, String body, ClientResponseHeaders headers) {
        String header(String name) {
            return headers.first(HeaderNames.create(name)).orElse("");
        }

        boolean has(String name) {
            return headers.contains(HeaderNames.create(name));
        }
    }

    private Reply post(String path, String... headers) {
        Http1ClientRequest request = http.post(path);
        for (int i = 0; i < headers.length; i += 2) {
            request.headers().add(HeaderNames.create(headers[i]), headers[i + 1]);
        }
        try (Http1ClientResponse response = request.request()) {
            return new Reply(response.status().code(), response.as(String.class), response.headers());
        }
    }

    private static void assertRefused(int status, String code, Reply response) {
        assertEquals(status + " " + code, response.status() + " " + response.body());
    }

    @Test
    void a_public_key_admits_its_own_product_with_its_rate_limit_headers() throws Exception {
        Reply response = post("/browser", "Authorization", "Bearer " + key(KeyType.PUBLIC, SHOP));

        assertEquals("store/shop/PUBLIC_KEY", response.body());
        assertEquals("40", response.header("RateLimit-Limit"));
        assertEquals("39", response.header("RateLimit-Remaining"));
    }

    @Test
    void a_secret_key_serves_the_product_x_app_identifier_names_by_slug_or_id_else_the_default() throws Exception {
        String secret = key(KeyType.SECRET, null);

        assertEquals(
                "store/shop/SECRET_KEY",
                post("/browser", "Authorization", "Bearer " + secret).body());
        assertEquals(
                "store/outlet/SECRET_KEY",
                post("/browser", "Authorization", "Bearer " + secret, "X-App-Identifier", "outlet")
                        .body());
        assertEquals(
                "store/outlet/SECRET_KEY",
                post(
                                "/browser",
                                "Authorization",
                                "Bearer " + secret,
                                "X-App-Identifier",
                                OUTLET.toString().toUpperCase())
                        .body());
        assertRefused(
                404,
                "PRODUCT_NOT_FOUND",
                post("/browser", "Authorization", "Bearer " + secret, "X-App-Identifier", "basement"));
    }

    @Test
    void an_access_token_admits_its_product_under_the_products_shared_rate_limit() throws Exception {
        KeyRecord secret = keys.find(key(KeyType.SECRET, null)).orElseThrow();
        String token = tokens.mint(secret, OUTLET, Duration.ofMinutes(5)).token();

        Reply response = post("/browser", "Authorization", "Bearer " + token);

        assertEquals("store/outlet/ACCESS_TOKEN", response.body());
        assertEquals("40", response.header("RateLimit-Limit"));
        assertRefused(
                401,
                "INVALID_CREDENTIALS",
                post("/browser", "Authorization", "Bearer " + token, "X-App-Identifier", "shop"));
    }

    @Test
    void an_access_token_follows_its_minting_keys_origins() throws Exception {
        KeyRecord secret = keys.find(key(
                        KeyType.SECRET,
                        null,
                        new KeyScope(
                                List.of(OriginPattern.parse("https://app.example.com")), true, null, null, KeyUse.ALL)))
                .orElseThrow();
        String token =
                "Bearer " + tokens.mint(secret, OUTLET, Duration.ofMinutes(5)).token();

        assertEquals(
                "store/outlet/ACCESS_TOKEN",
                post("/browser", "Authorization", token, "Origin", "https://app.example.com")
                        .body());
        Reply elsewhere = post("/browser", "Authorization", token, "Origin", "https://evil.example");
        assertRefused(403, "ORIGIN_NOT_ALLOWED", elsewhere); // its message: KeyScopesTest, on a real server
    }

    @Test
    void missing_wrong_and_doubled_credentials_are_refused_with_their_own_codes() throws Exception {
        assertRefused(401, "MISSING_CREDENTIALS", post("/browser"));
        assertRefused(
                401,
                "INVALID_CREDENTIALS",
                post("/browser", "Authorization", "Bearer " + new ApiKeys().generate(KeyType.PUBLIC)));
        String good = "Bearer " + key(KeyType.PUBLIC, SHOP);
        assertRefused(400, "INVALID_REQUEST", post("/browser", "Authorization", good, "Authorization", good));
    }

    @Test
    void a_key_with_origins_admits_only_those_and_lets_others_read_only_the_refusal() throws Exception {
        String key = "Bearer "
                + key(
                        KeyType.PUBLIC,
                        SHOP,
                        new KeyScope(
                                List.of(OriginPattern.parse("https://app.example.com")),
                                false,
                                null,
                                null,
                                KeyUse.ALL));

        Reply allowed = post("/browser", "Authorization", key, "Origin", "https://app.example.com");
        assertEquals("store/shop/PUBLIC_KEY", allowed.body());
        assertEquals("https://app.example.com", allowed.header("Access-Control-Allow-Origin"));

        Reply evil = post("/browser", "Authorization", key, "Origin", "https://evil.example");
        assertRefused(403, "ORIGIN_NOT_ALLOWED", evil);
        // The refused page may read why (not a bare CORS failure), and nothing about the key's rate.
        assertEquals("https://evil.example", evil.header("Access-Control-Allow-Origin"));
        assertFalse(evil.has("Access-Control-Expose-Headers"));
        assertEquals("38", evil.header("RateLimit-Remaining"), "a refusal is counted");
        assertRefused(403, "ORIGIN_NOT_ALLOWED", post("/browser", "Authorization", key));
    }

    @Test
    void a_key_past_its_rate_is_refused_with_retry_after() throws Exception {
        String key = "Bearer "
                + key(KeyType.PUBLIC, SHOP, new KeyScope(List.of(), true, null, new RateLimit(1, 1), KeyUse.ALL));

        assertEquals(
                "store/shop/PUBLIC_KEY", post("/browser", "Authorization", key).body());
        Reply limited = post("/browser", "Authorization", key);

        assertRefused(429, "RATE_LIMITED", limited);
        assertEquals("1", limited.header("Retry-After"));
        assertEquals("0", limited.header("RateLimit-Remaining"));
    }

    @Test
    void an_address_that_failed_too_often_is_refused_before_its_credential_is_checked() throws Exception {
        String wrong = "Bearer " + new ApiKeys().generate(KeyType.PUBLIC);
        for (int i = 0; i < FAILURES.burst(); i++) {
            assertRefused(401, "INVALID_CREDENTIALS", post("/strict/browser", "Authorization", wrong));
        }

        assertRefused(429, "RATE_LIMITED", post("/strict/browser", "Authorization", wrong));
        Reply good = post("/strict/browser", "Authorization", "Bearer " + key(KeyType.PUBLIC, SHOP));
        assertRefused(429, "RATE_LIMITED", good);
        assertTrue(good.has("Retry-After"));
    }

    @Test
    void only_a_secret_key_may_mint_tokens() throws Exception {
        String secret = key(KeyType.SECRET, null);

        assertEquals(
                ApiKeys.idOf(ApiKeys.digest(secret)),
                post("/token", "Authorization", "Bearer " + secret).body());
        assertRefused(
                401, "INVALID_SECRET_KEY", post("/token", "Authorization", "Bearer " + key(KeyType.PUBLIC, SHOP)));
        assertRefused(401, "INVALID_SECRET_KEY", post("/token"));
        KeyRecord record = keys.find(secret).orElseThrow();
        assertRefused(
                401,
                "INVALID_SECRET_KEY",
                post(
                        "/token",
                        "Authorization",
                        "Bearer "
                                + tokens.mint(record, SHOP, Duration.ofMinutes(5))
                                        .token()));
    }

    private String secretFor(KeyUse... uses) {
        return "Bearer " + key(KeyType.SECRET, null, new KeyScope(List.of(), true, null, null, Set.of(uses)));
    }

    @Test
    void a_secret_key_is_refused_where_it_was_not_given_the_use_with_its_rate_limit_headers() throws Exception {
        String suggestOnly = secretFor(KeyUse.SUGGEST);
        String catalogsOnly = secretFor(KeyUse.CATALOGS);
        String tokensOnly = secretFor(KeyUse.TOKENS);

        assertEquals(
                "store/shop/SECRET_KEY",
                post("/browser", "Authorization", suggestOnly).body());
        Reply noSuggest = post("/browser", "Authorization", catalogsOnly);
        assertRefused(403, "KEY_SCOPE", noSuggest);
        assertEquals("39", noSuggest.header("RateLimit-Remaining"), "a refusal is counted against the key");
        assertRefused(403, "KEY_SCOPE", post("/browser", "Authorization", tokensOnly));

        assertEquals(
                "store/shop/SECRET_KEY",
                post("/catalogs", "Authorization", catalogsOnly).body());
        assertRefused(403, "KEY_SCOPE", post("/catalogs", "Authorization", suggestOnly));
        assertRefused(403, "KEY_SCOPE", post("/catalogs", "Authorization", tokensOnly));

        assertEquals(
                ApiKeys.idOf(ApiKeys.digest(tokensOnly.substring("Bearer ".length()))),
                post("/token", "Authorization", tokensOnly).body());
        assertRefused(403, "KEY_SCOPE", post("/token", "Authorization", suggestOnly));
        assertRefused(403, "KEY_SCOPE", post("/token", "Authorization", catalogsOnly));
    }

    @Test
    void a_token_minted_by_a_key_without_the_suggest_use_still_serves_its_product() throws Exception {
        String tokensOnly = secretFor(KeyUse.TOKENS).substring("Bearer ".length());
        String token = tokens.mint(keys.find(tokensOnly).orElseThrow(), SHOP, Duration.ofMinutes(5))
                .token();

        assertEquals(
                "store/shop/ACCESS_TOKEN",
                post("/browser", "Authorization", "Bearer " + token).body());
    }

    @Test
    void only_a_secret_key_holding_the_use_passes_the_secret_only_gate() throws Exception {
        String secret = key(KeyType.SECRET, null);
        assertEquals(
                "store/shop/SECRET_KEY",
                post("/catalogs", "Authorization", "Bearer " + secret, "X-App-Identifier", "outlet")
                        .body(),
                "the routes are the tenant's: no product is chosen");

        Reply publicKey = post("/catalogs", "Authorization", "Bearer " + key(KeyType.PUBLIC, SHOP));
        assertRefused(403, "SECRET_KEY_REQUIRED", publicKey);
        assertEquals("39", publicKey.header("RateLimit-Remaining"));
        assertFalse(publicKey.has("Access-Control-Allow-Origin"));
        String token = tokens.mint(keys.find(secret).orElseThrow(), SHOP, Duration.ofMinutes(5))
                .token();
        assertRefused(
                403,
                "SECRET_KEY_REQUIRED",
                post("/catalogs", "Authorization", "Bearer " + token, "Origin", "https://app.example.com"));

        assertRefused(401, "MISSING_CREDENTIALS", post("/catalogs"));
        assertRefused(
                401,
                "INVALID_CREDENTIALS",
                post("/catalogs", "Authorization", "Bearer " + new ApiKeys().generate(KeyType.SECRET)));
        String slow = "Bearer "
                + key(
                        KeyType.SECRET,
                        null,
                        new KeyScope(List.of(), true, null, new RateLimit(1, 1), Set.of(KeyUse.CATALOGS)));
        assertEquals(
                "store/shop/SECRET_KEY",
                post("/catalogs", "Authorization", slow).body());
        assertRefused(429, "RATE_LIMITED", post("/catalogs", "Authorization", slow));
    }
}
