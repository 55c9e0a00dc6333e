package dev.autocomplete.server.store;

import static java.util.Objects.requireNonNull;

/** A catalog declared in a tenant's {@code tenant.yaml}: its tenant's id and its name under {@code catalogs}. */
public record CatalogRef(String tenant, String catalog) {

    public CatalogRef {
        requireNonNull(tenant, "tenant is null");
        requireNonNull(catalog, "catalog is null");
    }

    @Override
    public String toString() {
        return tenant + "/" + catalog;
    }
}
