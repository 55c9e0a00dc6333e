package dev.autocomplete.server.auth;

import java.util.Locale;
import java.util.Optional;

import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;
import dev.autocomplete.server.tenant.TenantRegistry;

/**
 * Turns an {@code Authorization} header into a {@link Caller} (protocol notes 15 and 16). Access tokens and
 * other schemes plug in here. Error messages never repeat the credential.
 */
public final class Authenticator {

    private final KeyRegistry keys;
    private final TenantRegistry tenants;

    public Authenticator(KeyRegistry keys, TenantRegistry tenants) {
        this.keys = keys;
        this.tenants = tenants;
    }

    /**
     * @param authorization the {@code Authorization} header, if any
     * @param appIdentifier the {@code X-App-Identifier} header (product id or slug), if any
     */
    public Caller authenticate(Optional<String> authorization, Optional<String> appIdentifier) {
        String credential = bearer(authorization);
        KeyRecord key = keys.find(credential).orElseThrow(() -> new ApiException(401, "INVALID_CREDENTIALS",
                "The credential is not a valid key or token."));
        Tenant tenant = tenants.tenant(key.tenantId()).orElseThrow(() -> new ApiException(503, "ENGINE_UNAVAILABLE",
                "This key's tenant is not loaded; the operator can see why in the server log."));
        Product product;
        if (key.type() == KeyType.PUBLIC) {
            product = tenant.product(key.productId()).orElseThrow(() -> new ApiException(401, "INVALID_CREDENTIALS",
                    "The product this key belongs to no longer exists."));
        } else if (appIdentifier.isPresent() && !appIdentifier.get().isBlank()) {
            product = tenant.product(appIdentifier.get().strip()).orElseThrow(() -> new ApiException(404,
                    "PRODUCT_NOT_FOUND", "X-App-Identifier names no product of this key's tenant."));
        } else {
            product = tenant.defaultProduct();
        }
        return new Caller(tenant, product, key);
    }

    private static String bearer(Optional<String> authorization) {
        String header = authorization.map(String::strip).orElse("");
        if (header.isEmpty()) {
            throw new ApiException(401, "MISSING_CREDENTIALS",
                    "Send a key or access token as 'Authorization: Bearer <credential>'.");
        }
        int space = header.indexOf(' ');
        String scheme = space < 0 ? header : header.substring(0, space);
        String credential = space < 0 ? "" : header.substring(space + 1).strip();
        if (!scheme.toLowerCase(Locale.ROOT).equals("bearer")) {
            throw new ApiException(401, "INVALID_CREDENTIALS", "Use the Bearer scheme: 'Authorization: Bearer <credential>'.");
        }
        if (credential.isEmpty()) {
            throw new ApiException(401, "MISSING_CREDENTIALS", "The Bearer credential is empty.");
        }
        return credential;
    }
}
