package dev.autocomplete.server.auth;

import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.server.tenant.Tenant;

/** Who is calling, once authenticated: the tenant, the product the request is for, and the key used. */
public record Caller(Tenant tenant, Product product, KeyRecord key) {
}
