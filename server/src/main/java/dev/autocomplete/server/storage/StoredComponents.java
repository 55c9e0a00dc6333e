package dev.autocomplete.server.storage;

import dev.autocomplete.server.analytics.AnalyticsStore;
import dev.autocomplete.server.auth.PostgresKeyStore;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.learning.LearningStore;
import dev.autocomplete.server.store.Database;
import dev.autocomplete.server.store.JdbcCatalogStore;
import dev.autocomplete.server.store.NewerSchemaException;
import dev.autocomplete.server.store.StorageUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Function;

/**
 * Every component that keeps tables in the server's {@link Database}, with its schema as it makes it
 * ({@link Database#migrate}) and its tables: {@code storage migrate} copies those tables, {@code storage restore}
 * and {@code serve} check their versions. A component that adds tables registers them in {@link #ALL}, and
 * nothing else is needed for them to be moved.
 */
public final class StoredComponents {

    /**
     * One component.
     *
     * @param name its name in {@code schema_version}
     * @param schema its statements, version by version, in a dialect (empty for a dialect it is never kept in)
     * @param tables the tables it keeps, parents before children (they are copied in this order)
     */
    public record Component(String name, Function<Database.Dialect, List<List<String>>> schema, List<String> tables) {
        public Component {
            tables = List.copyOf(tables);
        }

        /** The newest version this binary knows in that dialect. */
        int known(Database.Dialect dialect) {
            return schema.apply(dialect).size();
        }
    }

    /** The components, in the order they are copied. Another component's tables: one more line here. */
    public static final List<Component> ALL = List.of(
            new Component(
                    JdbcCatalogStore.COMPONENT,
                    JdbcCatalogStore::schema,
                    List.of("catalog_catalogs", "catalog_options", "catalog_changes", "catalog_builds")),
            // Kept in PostgreSQL only: with SQLite, keys live in each tenant's keys.yaml (migrate imports them).
            new Component(
                    PostgresKeyStore.COMPONENT,
                    dialect -> dialect == Database.Dialect.POSTGRES ? PostgresKeyStore.SCHEMA : List.of(),
                    List.of("keys", "keys_imported")),
            new Component(LearningStore.COMPONENT, dialect -> LearningStore.SCHEMA, LearningStore.TABLES),
            new Component(AnalyticsStore.COMPONENT, dialect -> AnalyticsStore.SCHEMA, AnalyticsStore.TABLES));

    private StoredComponents() {}

    /**
     * Refuses a database that holds some component's schema at a newer version than this binary knows, before
     * anything is opened or changed.
     *
     * @throws NewerSchemaException naming the component and both versions
     */
    public static void refuseNewer(Database database) {
        database.read(connection -> {
            refuseNewer(connection, database.dialect(), database.description());
            return null;
        });
    }

    /**
     * {@link #refuseNewer(Database)} on the store the settings name, before a server opens it; says nothing when the
     * store cannot be reached now (the server then starts from its snapshots, and its stores check again).
     */
    public static void refuseNewer(ServerSettings settings) {
        try (Database database = Database.of(settings)) {
            refuseNewer(database);
        } catch (StorageUnavailableException e) {
            // Reported by the stores themselves.
        }
    }

    static void refuseNewer(Connection connection, Database.Dialect dialect, String description) throws SQLException {
        for (Component component : ALL) {
            int stored = Database.schemaVersion(connection, component.name());
            if (stored > component.known(dialect)) {
                throw new NewerSchemaException(description, component.name(), stored, component.known(dialect));
            }
        }
    }
}
