package dev.autocomplete.server.storage;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The mark {@code storage migrate} leaves in the SQLite store it copied: where its data went, and when. From then on
 * the replicas read PostgreSQL, so a command that writes the SQLite store without the storage URL ({@code catalog
 * import}, {@code learning reset}) is refused instead of writing what no replica reads, {@code catalog export} says
 * that it reads the store as it was then, and a server started on it warns. {@code storage unmark} removes the mark (a
 * deployment going back to SQLite). Kept in a table of its own, which no component registers, so that a later migrate
 * does not copy it.
 */
public final class MigrationMark {

    static final String TABLE = "storage_migrated_into";

    private MigrationMark() {}

    /** Records that {@code sqlite}'s data was copied into {@code target} (its description: no password) at {@code at}. */
    public static void write(Database sqlite, String target, Instant at) {
        sqlite.write(connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate(
                        "CREATE TABLE IF NOT EXISTS " + TABLE + " (target TEXT NOT NULL, migrated_at TEXT NOT NULL)");
                statement.executeUpdate("DELETE FROM " + TABLE);
            }
            try (PreparedStatement insert =
                    connection.prepareStatement("INSERT INTO " + TABLE + " (target, migrated_at) VALUES (?, ?)")) {
                insert.setString(1, target);
                insert.setString(2, at.truncatedTo(ChronoUnit.SECONDS).toString());
                insert.executeUpdate();
            }
            return null;
        });
    }

    /** Where and when {@code sqlite}'s data went ({@code "PostgreSQL jdbc:… on 2026-…Z"}), if it was migrated. */
    public static Optional<String> read(Database sqlite) {
        return sqlite.read(connection -> {
            if (!Database.hasTable(connection, TABLE)) {
                return Optional.<String>empty();
            }
            try (Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery("SELECT target, migrated_at FROM " + TABLE)) {
                return row.next() ? Optional.of(row.getString(1) + " on " + row.getString(2)) : Optional.empty();
            }
        });
    }

    /** Removes the mark, if there is one. */
    public static void clear(Database sqlite) {
        sqlite.write(connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("DROP TABLE IF EXISTS " + TABLE);
            }
            return null;
        });
    }

    /**
     * When the settings name the SQLite store (no {@code storage.url}) and it exists and was migrated, what every
     * message about it starts with: {@code data/catalogs.db was migrated into PostgreSQL jdbc:… on <time>}. A missing
     * store is not created.
     */
    public static Optional<String> of(ServerSettings settings) {
        if (!settings.storageUrl().isEmpty()) {
            return Optional.empty();
        }
        Path file = settings.data().resolve(Database.SQLITE_FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (Database sqlite = Database.sqlite(file)) {
            return read(sqlite).map(where -> file + " was migrated into " + where);
        }
    }

    /**
     * Refuses a command that would write the SQLite store these settings name after it was migrated.
     *
     * @throws IllegalArgumentException saying where the data went and what to do instead
     */
    public static void refuseWrites(ServerSettings settings) {
        of(settings).ifPresent(migrated -> {
            throw new IllegalArgumentException(migrated + ", and the servers "
                    + "read that database now: nothing written here would reach them. Give this command the servers'"
                    + " storage URL (AUTOCOMPLETE_STORAGE_URL, or storage.url in the --config file). To write this "
                    + "SQLite store again (a deployment back on SQLite), run 'storage unmark' first.");
        });
    }
}
