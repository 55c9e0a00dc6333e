package dev.autocomplete.server.catalogs;

import dev.autocomplete.server.config.DataDirectory;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.store.CatalogStore;
import dev.autocomplete.server.store.Database;
import dev.autocomplete.server.store.JdbcCatalogStore;
import java.nio.file.Path;

/** The store the settings name: PostgreSQL when {@code storage.url} is set, else SQLite in the data directory. */
public final class CatalogStores {

    /** With PostgreSQL, the local copy a replica starts from while PostgreSQL is down. */
    public static final String SNAPSHOT_FILE = "catalogs-snapshot.db";

    private CatalogStores() {}

    /** The store commands read and write ({@code catalog import|export}): PostgreSQL or the embedded one. */
    public static CatalogStore open(ServerSettings settings) {
        return settings.storageUrl().isEmpty()
                ? JdbcCatalogStore.sqlite(sqlite(settings))
                : JdbcCatalogStore.postgres(settings.storageUrl(), null, null);
    }

    /** The server's live catalogs over that store, with a local snapshot when it is shared. */
    public static LiveCatalogs live(ServerSettings settings) {
        if (settings.storageUrl().isEmpty()) {
            return new LiveCatalogs(JdbcCatalogStore.sqlite(sqlite(settings)));
        }
        return new LiveCatalogs(
                () -> JdbcCatalogStore.postgres(settings.storageUrl(), null, null),
                JdbcCatalogStore.sqlite(DataDirectory.create(settings.data()).resolve(SNAPSHOT_FILE)));
    }

    private static Path sqlite(ServerSettings settings) {
        return DataDirectory.create(settings.data()).resolve(Database.SQLITE_FILE);
    }
}
