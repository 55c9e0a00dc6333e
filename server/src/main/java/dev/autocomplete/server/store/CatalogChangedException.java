package dev.autocomplete.server.store;

/**
 * A large upsert or patch met, on each of its tries, a change of its catalog meanwhile that its new version could
 * not take (a replace): nothing of it was written (the API answers {@code 409 CATALOG_CHANGED}). Writing it in one
 * transaction instead would hold every catalog's writes for as long as it takes, seconds at a hundred thousand
 * records, so one tenant's storm of replaces would stall every other tenant's writes.
 */
public final class CatalogChangedException extends RuntimeException {

    private final int tries;

    public CatalogChangedException(CatalogRef catalog, int tries) {
        super("catalog " + catalog + " was replaced while a large write was written, " + tries + " times");
        this.tries = tries;
    }

    /** How many times the write was tried. */
    public int tries() {
        return tries;
    }
}
