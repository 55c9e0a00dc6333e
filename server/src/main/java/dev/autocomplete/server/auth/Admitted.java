package dev.autocomplete.server.auth;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.server.tenant.TenantRegistry;

/**
 * An authenticated caller and the request's hold on its tenant, taken once at admission: the tenant is not
 * closed (by a reload or a removal) until the request is answered and this is closed. Close it exactly once.
 */
public record Admitted(Caller caller, TenantRegistry.Lease lease) implements AutoCloseable {

    public Admitted {
        requireNonNull(caller, "caller is null");
        requireNonNull(lease, "lease is null");
    }

    @Override
    public void close() {
        lease.close();
    }
}
