package dev.autocomplete.server.auth;

import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;

/**
 * Who is calling, once authenticated: the tenant, the product the request is for, the key used (for an access
 * token, the secret key that minted it) and how the caller proved it.
 */
public record Caller(Tenant tenant, Product product, KeyRecord key, Kind kind) {

    /** The credential presented. */
    public enum Kind {
        PUBLIC_KEY,
        SECRET_KEY,
        ACCESS_TOKEN
    }
}
