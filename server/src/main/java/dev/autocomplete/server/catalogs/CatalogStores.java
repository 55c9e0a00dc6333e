package dev.autocomplete.server.catalogs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.store.CatalogStore;
import dev.autocomplete.server.store.JdbcCatalogStore;

/** The store the settings name: PostgreSQL when {@code storage.url} is set, else SQLite in the data directory. */
public final class CatalogStores {

    /** The embedded store's file in {@code data.dir}. */
    public static final String SQLITE_FILE = "catalogs.db";

    private CatalogStores() {
    }

    public static CatalogStore open(ServerSettings settings) {
        Path data = settings.data();
        try {
            Files.createDirectories(data);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the data directory " + data, e);
        }
        return JdbcCatalogStore.sqlite(data.resolve(SQLITE_FILE));
    }
}
