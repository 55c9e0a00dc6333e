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
import io.helidon.webserver.WebServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link Gatekeeper} lets through and how it refuses, observed over HTTP on a loopback port: a route that
 * admits the request answers {@code tenant/product/kind}, or the refusal's status and code, with the headers the
 * gatekeeper set. Real tenant registry (a tenant with two products in a temporary directory), real key registry,
 * tokens and in-memory rate limiter.
 */
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
    /** Failed authentications one address may make at once. */
    private static final RateLimit FAILURES = new RateLimit(1, 3);

    @TempDir
    Path temp;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private TenantRegistry tenants;
    private KeyRegistry keys;
    private AccessTokens tokens;
    private RateLimiter limiter;
    private WebServer server;

    @BeforeEach
    void start() throws Exception {
        Files.createDirectories(temp.resolve("tenants/store"));
        Files.writeString(temp.resolve("tenants/store/tenant.yaml"), TENANT);
        tenants = TenantRegistry.load(temp.resolve("tenants"), new TenantLoader());
        assertTrue(tenants.tenant("store").isPresent(), tenants.problems().toString());
        keys = new KeyRegistry(new FileKeyStore(temp.resolve("tenants")), Clock.systemUTC());
        tokens = new AccessTokens(
                "a test signing secret of thirty-two bytes".getBytes(StandardCharsets.UTF_8), Clock.systemUTC());
        limiter = RateLimiter.local();
        Gatekeeper gatekeeper = new Gatekeeper(new Authenticator(keys, tenants, tokens), limiter, FAILURES);
        server = WebServer.builder()
                .host("127.0.0.1")
                .port(0)
                .routing(routing -> routing.post("/browser", (request, response) -> {
                            try (Admitted admitted = gatekeeper.admit(request, response)) {
                                Caller caller = admitted.caller();
                                response.send(caller.tenant().id() + "/"
                                        + caller.product().slug() + "/" + caller.kind());
                            } catch (ApiException e) {
                                response.status(e.status()).send(e.code());
                            }
                        })
                        .post("/catalogs", (request, response) -> {
                            try (Admitted admitted = gatekeeper.admitSecret(request, response, KeyUse.CATALOGS)) {
                                Caller caller = admitted.caller();
                                response.send(caller.tenant().id() + "/"
                                        + caller.product().slug() + "/" + caller.kind());
                            } catch (ApiException e) {
                                response.status(e.status()).send(e.code());
                            }
                        })
                        .post("/token", (request, response) -> {
                            try {
                                response.send(gatekeeper
                                        .admitSecretKey(request, response)
                                        .id());
                            } catch (ApiException e) {
                                response.status(e.status()).send(e.code());
                            }
                        }))
                .build()
                .start();
    }

    @AfterEach
    void stop() {
        server.stop();
        limiter.close();
        tenants.close();
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

    private HttpResponse<String> post(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.noBody());
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertRefused(int status, String code, HttpResponse<String> response) {
        assertEquals(status + " " + code, response.statusCode() + " " + response.body());
    }

    @Test
    void a_public_key_admits_its_own_product_with_its_rate_limit_headers() throws Exception {
        HttpResponse<String> response = post("/browser", "Authorization", "Bearer " + key(KeyType.PUBLIC, SHOP));

        assertEquals("store/shop/PUBLIC_KEY", response.body());
        assertEquals("40", response.headers().firstValue("RateLimit-Limit").orElse(""));
        assertEquals("39", response.headers().firstValue("RateLimit-Remaining").orElse(""));
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

        HttpResponse<String> response = post("/browser", "Authorization", "Bearer " + token);

        assertEquals("store/outlet/ACCESS_TOKEN", response.body());
        assertEquals("40", response.headers().firstValue("RateLimit-Limit").orElse(""));
        assertRefused(
                401,
                "INVALID_CREDENTIALS",
                post("/browser", "Authorization", "Bearer " + token, "X-App-Identifier", "shop"));
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
    void a_key_with_origins_admits_only_those_and_answers_cors_for_them_alone() throws Exception {
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

        HttpResponse<String> allowed = post("/browser", "Authorization", key, "Origin", "https://app.example.com");
        assertEquals("store/shop/PUBLIC_KEY", allowed.body());
        assertEquals(
                "https://app.example.com",
                allowed.headers().firstValue("Access-Control-Allow-Origin").orElse(""));

        HttpResponse<String> evil = post("/browser", "Authorization", key, "Origin", "https://evil.example");
        assertRefused(403, "ORIGIN_NOT_ALLOWED", evil);
        assertFalse(evil.headers().firstValue("Access-Control-Allow-Origin").isPresent());
        assertEquals("38", evil.headers().firstValue("RateLimit-Remaining").orElse(""), "a refusal is counted");
        assertRefused(403, "ORIGIN_NOT_ALLOWED", post("/browser", "Authorization", key));
    }

    @Test
    void a_key_past_its_rate_is_refused_with_retry_after() throws Exception {
        String key = "Bearer "
                + key(KeyType.PUBLIC, SHOP, new KeyScope(List.of(), true, null, new RateLimit(1, 1), KeyUse.ALL));

        assertEquals(
                "store/shop/PUBLIC_KEY", post("/browser", "Authorization", key).body());
        HttpResponse<String> limited = post("/browser", "Authorization", key);

        assertRefused(429, "RATE_LIMITED", limited);
        assertEquals("1", limited.headers().firstValue("Retry-After").orElse(""));
        assertEquals("0", limited.headers().firstValue("RateLimit-Remaining").orElse(""));
    }

    @Test
    void an_address_that_failed_too_often_is_refused_before_its_credential_is_checked() throws Exception {
        String wrong = "Bearer " + new ApiKeys().generate(KeyType.PUBLIC);
        for (int i = 0; i < FAILURES.burst(); i++) {
            assertRefused(401, "INVALID_CREDENTIALS", post("/browser", "Authorization", wrong));
        }

        assertRefused(429, "RATE_LIMITED", post("/browser", "Authorization", wrong));
        HttpResponse<String> good = post("/browser", "Authorization", "Bearer " + key(KeyType.PUBLIC, SHOP));
        assertRefused(429, "RATE_LIMITED", good);
        assertTrue(good.headers().firstValue("Retry-After").isPresent());
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
        HttpResponse<String> noSuggest = post("/browser", "Authorization", catalogsOnly);
        assertRefused(403, "KEY_SCOPE", noSuggest);
        assertEquals(
                "39",
                noSuggest.headers().firstValue("RateLimit-Remaining").orElse(""),
                "a refusal is counted against the key");
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

        HttpResponse<String> publicKey = post("/catalogs", "Authorization", "Bearer " + key(KeyType.PUBLIC, SHOP));
        assertRefused(403, "SECRET_KEY_REQUIRED", publicKey);
        assertEquals("39", publicKey.headers().firstValue("RateLimit-Remaining").orElse(""));
        assertFalse(
                publicKey.headers().firstValue("Access-Control-Allow-Origin").isPresent());
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
