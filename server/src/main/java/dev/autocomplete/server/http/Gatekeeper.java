package dev.autocomplete.server.http;

import dev.autocomplete.server.auth.Admitted;
import dev.autocomplete.server.auth.Authenticator;
import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.auth.KeyRecord;
import dev.autocomplete.server.auth.KeyUse;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.ratelimit.RateDecision;
import dev.autocomplete.server.ratelimit.RateLimit;
import dev.autocomplete.server.ratelimit.RateLimiter;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What every API request passes before its body is read: failed authentications per client address,
 * authentication, the rate limit of the key or, for an access token, of its product, then the key's origin
 * rules (and the CORS answer) and the uses a secret key was restricted to ({@link KeyUse}). Every response
 * that went through a bucket carries {@code RateLimit-*} headers, refusals of an origin or a use included (an
 * Origin header is no protection against non-browser clients draining a key, so checking it first would save
 * nothing).
 */
public final class Gatekeeper {

    /**
     * Failed authentications per client address: twenty at once, then one a second; plenty for a typo, hopeless
     * for guessing keys.
     */
    public static final RateLimit FAILED_AUTHENTICATION = new RateLimit(1, 20);

    private final Authenticator authenticator;
    private final RateLimiter limiter;
    private final RateLimit failedAuthentication;

    private final ClientAddresses clients;

    /** A gatekeeper whose clients connect directly (no trusted proxy). */
    public Gatekeeper(Authenticator authenticator, RateLimiter limiter, RateLimit failedAuthentication) {
        this(authenticator, limiter, failedAuthentication, ClientAddresses.DIRECT);
    }

    /** @param clients who a request comes from, for the limits counted per client */
    public Gatekeeper(
            Authenticator authenticator, RateLimiter limiter, RateLimit failedAuthentication, ClientAddresses clients) {
        this.authenticator = authenticator;
        this.limiter = limiter;
        this.failedAuthentication = failedAuthentication;
        this.clients = clients;
    }

    public Authenticator authenticator() {
        return authenticator;
    }

    /** Who requests come from, for the limits counted per client (here, failed authentications). */
    public ClientAddresses clients() {
        return clients;
    }

    /**
     * For browser-facing endpoints ({@code /api/suggest}, telemetry): any credential, origin rules, CORS. The
     * one admission step: the caller comes back holding its tenant until the request is answered; close it then.
     */
    public Admitted admit(ServerRequest request, ServerResponse response) {
        Optional<String> origin = Headers.single(request, HeaderNames.ORIGIN);
        Admitted admitted;
        try {
            Optional<String> authorization = authorization(request);
            admitted = authenticated(
                    request,
                    response,
                    () -> authenticator.authenticate(authorization, Headers.single(request, Headers.APP_IDENTIFIER)));
        } catch (ApiException e) {
            // A browser client must see a 401 to refresh its token; the body says nothing about any key.
            origin.ifPresent(o -> CorsFilter.allow(response, o));
            if (e.status() == 401) {
                // A page whose key expired or was revoked: its product's analytics count the refusals.
                RequestFacts.of(request).refusedKeyProduct =
                        authenticator.refusedKeyProduct(authorization(request)).orElse(null);
            }
            throw e;
        }
        // Known from here on: refusals below are counted and logged for this tenant and product.
        RequestFacts.of(request).caller = admitted.caller();
        try {
            checkOriginAndRate(admitted.caller(), origin, response);
            if (admitted.caller().kind() == Caller.Kind.SECRET_KEY) {
                requireUse(admitted.caller().key(), KeyUse.SUGGEST);
            }
        } catch (RuntimeException e) {
            admitted.close();
            throw e;
        }
        return admitted;
    }

    /**
     * For the server-to-server routes that only a secret key may call (the catalogs records API): the usual
     * authentication and failed-authentication limit, the rate limit of the credential, then {@code 403
     * SECRET_KEY_REQUIRED} for a public key or an access token and {@code 403 KEY_SCOPE} for a secret key
     * without {@code use}. No CORS and no origin rules, as for {@code /api/auth/token}. The caller comes back
     * holding its tenant (its product is the tenant's default: these routes are the tenant's, not a
     * product's); close it once the request is answered.
     */
    public Admitted admitSecret(ServerRequest request, ServerResponse response, KeyUse use) {
        Optional<String> authorization = authorization(request);
        Admitted admitted =
                authenticated(request, response, () -> authenticator.authenticate(authorization, Optional.empty()));
        RequestFacts.of(request).caller = admitted.caller();
        try {
            Caller caller = admitted.caller();
            limit(response, caller);
            if (caller.kind() != Caller.Kind.SECRET_KEY) {
                throw new ApiException(
                        403,
                        "SECRET_KEY_REQUIRED",
                        "This call needs the tenant's secret key "
                                + "('Authorization: Bearer sk_v1_...'), not a public key or an access token.");
            }
            requireUse(caller.key(), use);
        } catch (RuntimeException e) {
            admitted.close();
            throw e;
        }
        return admitted;
    }

    /** Names the use the key lacks and the ones it has; never the key. */
    private static void requireUse(KeyRecord key, KeyUse use) {
        if (!key.scope().allows(use)) {
            throw new ApiException(
                    403,
                    "KEY_SCOPE",
                    "This secret key may not be used for '" + use.wireName() + "' (its uses: "
                            + String.join(", ", KeyUse.names(key.scope().uses())) + ").");
        }
    }

    private void checkOriginAndRate(Caller caller, Optional<String> origin, ServerResponse response) {
        boolean originAllowed = caller.key().scope().allowsOrigin(origin.orElse(null));
        if (originAllowed) {
            origin.ifPresent(o -> CorsFilter.allow(response, o));
        }
        limit(response, caller);
        if (!originAllowed) {
            // The page may read why it was refused (its console would otherwise show a CORS failure, and the
            // client's onError "Failed to fetch"); the key's rate headers stay unexposed to that origin.
            origin.ifPresent(o -> CorsFilter.allowReadingRefusal(response, o));
            throw new ApiException(
                    403,
                    "ORIGIN_NOT_ALLOWED",
                    (caller.kind() == Caller.Kind.ACCESS_TOKEN
                                    ? "The secret key that minted this access token"
                                    : "This key")
                            + (origin.isPresent()
                                    ? " does not accept requests from this origin."
                                    : " accepts browser requests only (it refuses requests without an Origin "
                                            + "header)."));
        }
    }

    /** For {@code /api/auth/token}: a secret key only, holding the {@code tokens} use; no CORS. */
    public KeyRecord admitSecretKey(ServerRequest request, ServerResponse response) {
        Optional<String> authorization = authorization(request);
        KeyRecord key = authenticated(request, response, () -> authenticator.secretKey(authorization));
        limit(response, "key:" + key.id(), key.scope().rateOrDefault());
        requireUse(key, KeyUse.TOKENS);
        return key;
    }

    /**
     * The {@code Authorization} header. Two of them are refused (protocol note 15): letting one win would make
     * what the server checked depend on which one a proxy in between kept. Helidon splits a comma-separated
     * value into several, as HTTP makes one line with commas the same as several lines; no credential holds
     * a comma.
     */
    private static Optional<String> authorization(ServerRequest request) {
        // Two lines are refused as for every header that names one thing; one line is looked at for a comma (Helidon's
        // split, Headers.values, a stream per request, cost 1.3 % of a cached answer's CPU: it only counts the values
        // of a header refused).
        Optional<String> value = Headers.single(request, HeaderNames.AUTHORIZATION);
        if (value.isPresent() && value.get().indexOf(',') >= 0) {
            int count = Math.max(
                    2, request.headers().values(HeaderNames.AUTHORIZATION).size());
            throw ApiException.badRequest("INVALID_REQUEST", "Send one Authorization header, not " + count + ".");
        }
        return value;
    }

    private <T> T authenticated(ServerRequest request, ServerResponse response, Supplier<T> authenticate) {
        String failures = "auth-failures:" + clients.of(request);
        RateDecision before = limiter.peek(failures, failedAuthentication);
        if (!before.allowed()) {
            headers(response, before);
            throw new ApiException(
                    429,
                    "RATE_LIMITED",
                    "Too many failed authentications from this address; retry in " + before.retryAfterSeconds()
                            + " s.");
        }
        try {
            return authenticate.get();
        } catch (ApiException e) {
            if (e.status() == 401) {
                headers(response, limiter.tryConsume(failures, failedAuthentication));
            }
            throw e;
        }
    }

    /** The bucket of the key, or for an access token, of its product. */
    private void limit(ServerResponse response, Caller caller) {
        limit(response, bucket(caller), rate(caller));
    }

    private static String bucket(Caller caller) {
        return caller.kind() == Caller.Kind.ACCESS_TOKEN
                ? "product:" + caller.tenant().id() + ":" + caller.product().id()
                : "key:" + caller.key().id();
    }

    private static RateLimit rate(Caller caller) {
        return caller.kind() == Caller.Kind.ACCESS_TOKEN
                ? caller.tenant().accessTokens().rate()
                : caller.key().scope().rateOrDefault();
    }

    /**
     * Charges a suggest request whose reading asked the engines more than {@link #QUESTIONS_PER_REQUEST} questions
     * one more request of the caller's rate for each further {@link #QUESTIONS_PER_REQUEST}: a query people type
     * asks 5 to 40, one of a thousand characters of cues each before a word of its own asks 100 to 200, and
     * costs that much more CPU. So a key's rate bounds the CPU it can spend, not only its requests.
     */
    void chargeReading(Caller caller, int questions) {
        int more = (questions - 1) / QUESTIONS_PER_REQUEST;
        if (more > 0) { // the bucket's name is made only then: not on every answer
            limiter.charge(bucket(caller), rate(caller), more);
        }
    }

    /** Engine questions one request of a key's rate pays for. */
    static final int QUESTIONS_PER_REQUEST = 50;

    private void limit(ServerResponse response, String bucket, RateLimit limit) {
        RateDecision decision = limiter.tryConsume(bucket, limit);
        headers(response, decision);
        if (!decision.allowed()) {
            throw new ApiException(
                    429,
                    "RATE_LIMITED",
                    "Rate limit of " + limit.perSecond() + " requests a second" + " (burst " + limit.burst()
                            + ") exceeded; retry in " + decision.retryAfterSeconds() + " s.");
        }
    }

    private static void headers(ServerResponse response, RateDecision decision) {
        response.header(Headers.RATE_LIMIT_LIMIT, Long.toString(decision.limit().burst()));
        response.header(Headers.RATE_LIMIT_REMAINING, Long.toString(decision.remaining()));
        response.header(Headers.RATE_LIMIT_RESET, Long.toString(decision.resetSeconds()));
        if (!decision.allowed()) {
            response.header(HeaderNames.RETRY_AFTER, Long.toString(decision.retryAfterSeconds()));
        }
    }
}
