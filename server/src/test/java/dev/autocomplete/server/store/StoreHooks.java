package dev.autocomplete.server.store;

/** For tests outside this package: the store's hook between a version's writing and its switch. */
public final class StoreHooks {

    private StoreHooks() {}

    /** Runs {@code hook} whenever a large write's new version is written and not switched to yet; null for none. */
    public static void beforeSwitch(CatalogStore store, Runnable hook) {
        ((JdbcCatalogStore) store).beforeSwitch = hook;
    }
}
