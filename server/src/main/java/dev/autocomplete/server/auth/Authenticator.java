package dev.autocomplete.server.auth;

import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import dev.autocomplete.server.tenant.TenantRegistry;
import java.util.Optional;

/**
 * Turns an {@code Authorization} header into a {@link Caller} (docs/protocol.md §2): public keys, secret
 * keys and access tokens. Error messages never repeat the credential.
 */
public final class Authenticator {

    private static final ApiException INVALID =
            new ApiException(401, "INVALID_CREDENTIALS", "The credential is not a valid key or token.");
    private static final ApiException INVALID_SECRET = new ApiException(
            401, "INVALID_SECRET_KEY", "Mint tokens with a valid secret key: 'Authorization: Bearer sk_v1_...'.");

    private final KeyRegistry keys;
    private final TenantRegistry tenants;
    private final AccessTokens tokens;

    public Authenticator(KeyRegistry keys, TenantRegistry tenants, AccessTokens tokens) {
        this.keys = keys;
        this.tenants = tenants;
        this.tokens = tokens;
    }

    public AccessTokens tokens() {
        return tokens;
    }

    /**
     * The caller, holding its tenant for the request: the only lookup of the tenant a request makes.
     *
     * @param authorization the {@code Authorization} header, if any
     * @param appIdentifier the {@code X-App-Identifier} header (product id or slug), if any
     */
    public Admitted authenticate(Optional<String> authorization, Optional<String> appIdentifier) {
        String credential = Credentials.from(authorization, "MISSING_CREDENTIALS", "INVALID_CREDENTIALS");
        Optional<String> named = appIdentifier.map(String::strip).filter(s -> !s.isEmpty());
        AccessTokens.Claims claims = null;
        KeyRecord key;
        if (AccessTokens.looksLikeToken(credential)) {
            claims = tokens.verify(credential);
            key = tokenKey(claims);
        } else {
            key = keys.find(credential).orElseThrow(() -> INVALID);
        }
        TenantRegistry.Lease lease = tenants.lease(key.tenantId()).orElseThrow(Authenticator::notLoaded);
        try {
            Caller caller = claims != null
                    ? fromToken(lease.tenant(), key, claims, named)
                    : fromKey(lease.tenant(), key, named);
            return new Admitted(caller, lease);
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
    }

    private static Caller fromKey(Tenant tenant, KeyRecord key, Optional<String> named) {
        if (key.type() == KeyType.PUBLIC) {
            Product product = tenant.product(key.productId())
                    .orElseThrow(() -> new ApiException(
                            401, "INVALID_CREDENTIALS", "The product this key belongs to no longer exists."));
            requireOwnProduct(tenant, product, named, "This public key is for another product.");
            return new Caller(tenant, product, key, Caller.Kind.PUBLIC_KEY);
        }
        Product product = named.isPresent()
                ? tenant.product(named.get())
                        .orElseThrow(() -> new ApiException(
                                404, "PRODUCT_NOT_FOUND", "X-App-Identifier names no product of this key's tenant."))
                : tenant.defaultProduct();
        return new Caller(tenant, product, key, Caller.Kind.SECRET_KEY);
    }

    /** A tenant's product by ids: whose refusal a request was. */
    public record ProductRef(String tenantId, String productSlug) {}

    /**
     * The product of a revoked or expired public key presented in {@code authorization}, for the analytics of its
     * {@code 401} (an operator sees that a page's key expired); empty for anything else. Never admits anything.
     */
    public Optional<ProductRef> refusedKeyProduct(Optional<String> authorization) {
        String credential;
        try {
            credential = Credentials.from(authorization, "MISSING_CREDENTIALS", "INVALID_CREDENTIALS");
        } catch (ApiException e) {
            return Optional.empty();
        }
        return keys.unusable(credential)
                .filter(key -> key.type() == KeyType.PUBLIC)
                .flatMap(key -> tenants.tenant(key.tenantId())
                        .flatMap(tenant -> tenant.product(key.productId()))
                        .map(product -> new ProductRef(key.tenantId(), product.slug())));
    }

    /** The secret key allowed to mint tokens at {@code /api/auth/token}; anything else is INVALID_SECRET_KEY. */
    public KeyRecord secretKey(Optional<String> authorization) {
        String credential;
        try {
            credential = Credentials.from(authorization, "INVALID_SECRET_KEY", "INVALID_SECRET_KEY");
        } catch (ApiException e) {
            throw INVALID_SECRET;
        }
        return keys.find(credential).filter(key -> key.type() == KeyType.SECRET).orElseThrow(() -> INVALID_SECRET);
    }

    /** The tenant of a key, for the token endpoint, which only reads its products. */
    public Tenant tenantOf(KeyRecord key) {
        return tenants.tenant(key.tenantId()).orElseThrow(Authenticator::notLoaded);
    }

    private static ApiException notLoaded() {
        return new ApiException(
                503,
                "ENGINE_UNAVAILABLE",
                "This key's tenant is not loaded; the operator can see why in the server log.");
    }

    /** The secret key that minted a token, while it is usable. */
    private KeyRecord tokenKey(AccessTokens.Claims claims) {
        return keys.findUsableById(claims.keyId())
                .filter(k -> k.type() == KeyType.SECRET && k.tenantId().equals(claims.tenantId()))
                .orElseThrow(() -> new ApiException(
                        401, "INVALID_CREDENTIALS", "The key that minted this token was revoked or has expired."));
    }

    private static Caller fromToken(Tenant tenant, KeyRecord key, AccessTokens.Claims claims, Optional<String> named) {
        Product product = tenant.product(claims.productId()).orElseThrow(() -> INVALID);
        requireOwnProduct(tenant, product, named, "This access token is for another product.");
        return new Caller(tenant, product, key, Caller.Kind.ACCESS_TOKEN);
    }

    /** A bound credential serves its own product only; X-App-Identifier values that name no product are ignored. */
    private static void requireOwnProduct(Tenant tenant, Product own, Optional<String> named, String message) {
        if (named.isPresent()) {
            tenant.product(named.get())
                    .filter(other -> !other.id().equals(own.id()))
                    .ifPresent(other -> {
                        throw new ApiException(401, "INVALID_CREDENTIALS", message);
                    });
        }
    }
}
