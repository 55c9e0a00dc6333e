package dev.autocomplete.server.cli;

import dev.autocomplete.server.auth.PostgresKeyStore;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.config.ServingMark;
import dev.autocomplete.server.storage.MigrationMark;
import dev.autocomplete.server.storage.SqliteBackups;
import dev.autocomplete.server.storage.StorageMigration;
import dev.autocomplete.server.store.Database;
import dev.autocomplete.server.store.JdbcCatalogStore;
import dev.autocomplete.server.store.StorageUnavailableException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code storage migrate|unmark|backup|restore}: moving the SQLite store into PostgreSQL (and marking it so), and backing
 * the SQLite store up and restoring it (PostgreSQL has {@code pg_dump} and {@code pg_restore}). See docs/deployment.md.
 */
@Command(
        name = "storage",
        mixinStandardHelpOptions = true,
        description =
                "Move the SQLite store into PostgreSQL (marking it migrated; unmark undoes that); back up and restore"
                        + " the SQLite store.",
        subcommands = {
            StorageCommand.Migrate.class,
            StorageCommand.Unmark.class,
            StorageCommand.Backup.class,
            StorageCommand.Restore.class
        })
public final class StorageCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The SQLite store of these settings; refused when the settings name PostgreSQL. */
    private static Path sqliteFile(ServerSettings settings, String what) {
        if (!settings.storageUrl().isEmpty()) {
            throw new IllegalArgumentException("storage.url is set, so the store is PostgreSQL; " + what
                    + " works on the SQLite store (<data.dir>/" + Database.SQLITE_FILE + "): unset storage.url ("
                    + "or AUTOCOMPLETE_STORAGE_URL) for this command");
        }
        return settings.data().resolve(Database.SQLITE_FILE);
    }

    private static Path existing(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no SQLite store at " + file + " (see --data-dir)");
        }
        return file;
    }

    @Command(
            name = "migrate",
            mixinStandardHelpOptions = true,
            description = "Copy the SQLite store (live catalogs, their change sequence, seed digests, and every "
                    + "other registered table) and the tenants' keys.yaml files into an empty PostgreSQL database, "
                    + "in one transaction.")
    static final class Migrate implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        SettingsOptions settings;

        @Option(
                names = "--to",
                required = true,
                paramLabel = "URL",
                description = "The PostgreSQL database: postgresql://user:password@host:port/db or "
                        + "jdbc:postgresql://host:port/db?user=...&password=...")
        String to;

        @Option(
                names = "--replace",
                description = "Delete what the target's tables hold first (keys included) instead of refusing.")
        boolean replace;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            ServerSettings resolved = settings.settings();
            Path file = existing(sqliteFile(resolved, "migrate"));
            try (Database source = Database.sqlite(file);
                    Database target = Database.postgres(to, null, null)) {
                StorageMigration.Outcome outcome =
                        StorageMigration.migrate(source, resolved.tenants(), target, replace);
                out.println("Moved " + source.description() + " into " + target.description() + " (one transaction):");
                outcome.tables().forEach(t -> out.println("  " + t.table() + ": " + t.rows() + " row(s)"));
                for (PostgresKeyStore.Imported keys : outcome.keys()) {
                    out.println("  keys of tenant " + keys.tenantId() + ": " + keys.keys() + " (from " + keys.file()
                            + "; " + PostgresKeyStore.mark(keys, target.description()) + ")");
                }
                try (var catalogs = JdbcCatalogStore.in(target)) {
                    out.println("Catalog change sequence: " + catalogs.lastSequence() + " (replicas continue from it)");
                }
                out.println("  " + source.description() + ": " + markSource(source, target.description()));
                out.println("Next: stop the SQLite server, set storage.url (or AUTOCOMPLETE_STORAGE_URL) to this "
                        + "database on every replica, and start them. The keys.yaml files are no longer read: give "
                        + "every keys, catalog and learning command the same storage URL from now on.");
                return 0;
            } catch (StorageMigration.TargetNotEmpty e) {
                spec.commandLine().getErr().println("error: " + e.getMessage());
                return 1;
            } catch (StorageUnavailableException e) {
                spec.commandLine().getErr().println("error: " + e.getMessage() + " (nothing was changed)");
                return 1;
            }
        }
    }

    /** Marks the copied SQLite store ({@link MigrationMark}); what an operator should know of it. */
    private static String markSource(Database source, String target) {
        try {
            MigrationMark.write(source, target, Instant.now());
            return "marked as migrated, so catalog import and learning reset without the storage URL refuse it "
                    + "('storage unmark' undoes this)";
        } catch (StorageUnavailableException e) {
            return "not marked as migrated (" + e.getMessage() + "), so catalog import and learning reset without "
                    + "the storage URL would still write it";
        }
    }

    @Command(
            name = "unmark",
            mixinStandardHelpOptions = true,
            description = "Forget that the SQLite store was migrated into PostgreSQL, so that catalog import and "
                    + "learning reset write it again: for a deployment going back to SQLite.")
    static final class Unmark implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        SettingsOptions settings;

        @Override
        public Integer call() {
            Path file = existing(sqliteFile(settings.settings(), "unmark"));
            try (Database store = Database.sqlite(file)) {
                Optional<String> where = MigrationMark.read(store);
                MigrationMark.clear(store);
                spec.commandLine()
                        .getOut()
                        .println(where.map(w -> file + " is no longer marked as migrated into " + w
                                        + ": commands without the storage URL write it again.")
                                .orElse(file + " was not marked as migrated; nothing was changed."));
                return 0;
            }
        }
    }

    @Command(
            name = "backup",
            mixinStandardHelpOptions = true,
            description = "Write a consistent copy of the SQLite store to a new file, safe while the server runs.")
    static final class Backup implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        SettingsOptions settings;

        @Option(names = "--to", required = true, paramLabel = "FILE", description = "The backup file (must not exist).")
        Path to;

        @Override
        public Integer call() throws IOException {
            Path file = existing(sqliteFile(settings.settings(), "backup"));
            try (Database store = Database.sqlite(file)) {
                long bytes = SqliteBackups.backup(store, to);
                spec.commandLine().getOut().println("Backed up " + file + " to " + to + " (" + bytes + " bytes)");
                return 0;
            }
        }
    }

    @Command(
            name = "restore",
            mixinStandardHelpOptions = true,
            description = "Replace the SQLite store with a backup made by 'storage backup'. Stop the server first.")
    static final class Restore implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Mixin
        SettingsOptions settings;

        @Option(names = "--from", required = true, paramLabel = "FILE", description = "The backup file.")
        Path from;

        @Override
        public Integer call() throws IOException {
            ServerSettings resolved = settings.settings();
            Path file = sqliteFile(resolved, "restore");
            try {
                ServingMark.exclusively(resolved.data(), () -> {
                    SqliteBackups.restore(from, file);
                    return null;
                });
            } catch (ServingMark.Busy e) {
                // A running server would keep serving what it holds in memory and index new writes against the
                // old store: acknowledged writes would not be offered.
                spec.commandLine()
                        .getErr()
                        .println("error: " + e.getMessage() + "; nothing was restored (a running server keeps what it"
                                + " holds in memory and would not serve the restored store)");
                return 1;
            }
            spec.commandLine().getOut().println("Restored " + file + " from " + from);
            return 0;
        }
    }
}
