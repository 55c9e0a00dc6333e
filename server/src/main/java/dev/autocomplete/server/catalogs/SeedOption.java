package dev.autocomplete.server.catalogs;

import static java.util.Objects.requireNonNull;

import dev.autocomplete.index.CatalogEntry;

/**
 * One option of a catalog's seed (its file or inline list), as a live catalog imports it.
 *
 * @param id the file's {@code id} column; null when the file has none (the importer derives one from the text)
 */
public record SeedOption(String id, CatalogEntry entry) {

    public SeedOption {
        requireNonNull(entry, "entry is null");
    }
}
