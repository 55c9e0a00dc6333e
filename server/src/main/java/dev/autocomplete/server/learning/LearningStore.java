package dev.autocomplete.server.learning;

import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.store.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Learned credit in the server's database (SQLite in the data directory, or the PostgreSQL replicas share), beside
 * live catalogs. A credit row holds {@code score = Σ 2^((t - epoch) / halfLife)} over its picks, so that picks add up
 * with a plain sum and decay is applied when read ({@link #credit}); the epoch moves forward now and then
 * ({@link #rebase}) so the sums stay small. Each product has a version that grows with every write, so that replicas
 * reload only what changed. Thread-safe.
 */
public final class LearningStore implements AutoCloseable {

    /** The schema's name in {@code schema_version}. */
    public static final String COMPONENT = "learning";
    /** The tables this store keeps, for {@code storage migrate}. */
    public static final List<String> TABLES = List.of("learning_epoch", "learning_versions", "learning_credits");
    /** The epoch until the first rebase: 2024-01-01. */
    private static final long FIRST_EPOCH = 1_704_067_200L;
    /** The epoch moves once picks weigh 2^this. */
    private static final double REBASE_EXPONENT = 60;
    /** Credit below this (after decay) is forgotten at a rebase or a prune. */
    static final double FORGOTTEN = 0.01;
    /** The advisory lock learning writes take in PostgreSQL ("learning" in ASCII, apart from the catalogs' lock). */
    private static final long LOCK = 0x6C6561726E696E67L;

    private final Database database;
    private final double halfLifeSeconds;

    /**
     * @param halfLifeSeconds how long until a pick counts half
     */
    public LearningStore(Database database, double halfLifeSeconds) {
        this.database = database;
        this.halfLifeSeconds = halfLifeSeconds;
        database.migrate(COMPONENT, SCHEMA);
    }

    /**
     * The store the settings name: the PostgreSQL database of {@code storage.url}, else the SQLite file beside the
     * live catalogs in the data directory; its own connections.
     */
    public static LearningStore open(ServerSettings settings) {
        return new LearningStore(
                Database.of(settings), settings.learning().halfLife().toSeconds());
    }

    /** The schema, version by version (the same statements in SQLite and PostgreSQL). */
    public static final List<List<String>> SCHEMA = List.of(List.of(
            "CREATE TABLE learning_epoch (id INTEGER PRIMARY KEY, epoch BIGINT NOT NULL)",
            "CREATE TABLE learning_versions (tenant TEXT NOT NULL, product TEXT NOT NULL, version BIGINT NOT NULL,"
                    + " PRIMARY KEY (tenant, product))",
            "CREATE TABLE learning_credits (tenant TEXT NOT NULL, product TEXT NOT NULL, param TEXT NOT NULL,"
                    + " prefix TEXT NOT NULL, option TEXT NOT NULL, score DOUBLE PRECISION NOT NULL,"
                    + " PRIMARY KEY (tenant, product, param, prefix, option))"));

    /** One credit row: the key of a pick and its summed score. */
    public record Credit(String param, String prefix, String option, double score) {}

    /** The credits of one product as read, with the epoch their scores are relative to. */
    public record Credits(long epoch, long version, List<Credit> rows) {}

    /** The key a pick adds to. */
    record Key(String tenant, String product, String param, String prefix, String option) {}

    /**
     * Adds picks, one transaction for the batch: each pick credits its option overall (prefix "") and after the
     * letters typed (its prefix, when any). Picks that do not rank (pills, repeats of an address's option the same
     * day) are not credited here.
     */
    public void add(List<Pick> picks) {
        if (picks.isEmpty()) {
            return;
        }
        database.writeUnordered(LOCK, connection -> {
            long epoch = epoch(connection);
            Map<Key, Double> sums = new HashMap<>();
            Map<List<String>, Boolean> products = new HashMap<>();
            for (Pick pick : picks) {
                if (!pick.ranked()) {
                    continue;
                }
                double weight = Math.pow(2, (pick.at() - epoch) / halfLifeSeconds);
                sums.merge(new Key(pick.tenant(), pick.product(), pick.type(), "", pick.option()), weight, Double::sum);
                if (!pick.prefix().isEmpty()) {
                    sums.merge(
                            new Key(pick.tenant(), pick.product(), pick.type(), pick.prefix(), pick.option()),
                            weight,
                            Double::sum);
                }
                products.put(List.of(pick.tenant(), pick.product()), true);
            }
            try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO learning_credits (tenant, product,"
                    + " param, prefix, option, score) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, product, param,"
                    + " prefix, option) DO UPDATE SET score = learning_credits.score + excluded.score")) {
                for (Map.Entry<Key, Double> sum : sums.entrySet()) {
                    Key key = sum.getKey();
                    upsert.setString(1, key.tenant());
                    upsert.setString(2, key.product());
                    upsert.setString(3, key.param());
                    upsert.setString(4, key.prefix());
                    upsert.setString(5, key.option());
                    upsert.setDouble(6, sum.getValue());
                    upsert.addBatch();
                }
                upsert.executeBatch();
            }
            for (List<String> product : products.keySet()) {
                bump(connection, product.get(0), product.get(1));
            }
            return null;
        });
    }

    /** Forgets what a tenant's product (or, with a null product, every product of the tenant) learned. */
    public int reset(String tenant, String product) {
        return database.writeUnordered(LOCK, connection -> {
            List<String> products = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement(
                    product == null
                            ? "SELECT DISTINCT product FROM learning_credits WHERE tenant = ?"
                            : "SELECT DISTINCT product FROM learning_credits WHERE tenant = ? AND product = ?")) {
                query.setString(1, tenant);
                if (product != null) {
                    query.setString(2, product);
                }
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        products.add(rows.getString(1));
                    }
                }
            }
            int deleted;
            try (PreparedStatement delete = connection.prepareStatement(
                    product == null
                            ? "DELETE FROM learning_credits WHERE tenant = ?"
                            : "DELETE FROM learning_credits WHERE tenant = ? AND product = ?")) {
                delete.setString(1, tenant);
                if (product != null) {
                    delete.setString(2, product);
                }
                deleted = delete.executeUpdate();
            }
            for (String each : products) {
                bump(connection, tenant, each);
            }
            return deleted;
        });
    }

    /** The version of every product that learned something: what a replica compares with what it holds. */
    public Map<List<String>, Long> versions() {
        return database.read(connection -> {
            Map<List<String>, Long> versions = new HashMap<>();
            try (PreparedStatement query =
                            connection.prepareStatement("SELECT tenant, product, version FROM learning_versions");
                    ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    versions.put(List.of(rows.getString(1), rows.getString(2)), rows.getLong(3));
                }
            }
            return versions;
        });
    }

    /** Every credit row of a product. */
    public Credits credits(String tenant, String product) {
        return database.read(connection -> {
            long epoch = epoch(connection);
            long version = 0;
            try (PreparedStatement query = connection.prepareStatement(
                    "SELECT version FROM learning_versions WHERE tenant = ? AND product = ?")) {
                query.setString(1, tenant);
                query.setString(2, product);
                try (ResultSet row = query.executeQuery()) {
                    if (row.next()) {
                        version = row.getLong(1);
                    }
                }
            }
            List<Credit> credits = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT param, prefix, option, score FROM"
                    + " learning_credits WHERE tenant = ? AND product = ?")) {
                query.setFetchSize(1000);
                query.setString(1, tenant);
                query.setString(2, product);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        credits.add(
                                new Credit(rows.getString(1), rows.getString(2), rows.getString(3), rows.getDouble(4)));
                    }
                }
            }
            return new Credits(epoch, version, credits);
        });
    }

    /** A summed score as credit at {@code nowSeconds}: the number of picks it stands for, each halved per half-life. */
    public double credit(double score, long epoch, long nowSeconds) {
        return score * Math.pow(2, -(nowSeconds - epoch) / halfLifeSeconds);
    }

    /**
     * Moves the epoch to {@code nowSeconds} once scores have grown large, and forgets credit that decayed to almost
     * nothing. Cheap when there is nothing to do.
     */
    public void rebase(long nowSeconds) {
        database.writeUnordered(LOCK, connection -> {
            long epoch = epoch(connection);
            double exponent = (nowSeconds - epoch) / halfLifeSeconds;
            if (exponent < REBASE_EXPONENT) {
                return null;
            }
            double factor = Math.pow(2, -exponent);
            try (PreparedStatement scale =
                    connection.prepareStatement("UPDATE learning_credits SET score = score * ?")) {
                scale.setDouble(1, factor);
                scale.executeUpdate();
            }
            try (PreparedStatement prune =
                    connection.prepareStatement("DELETE FROM learning_credits WHERE score < ?")) {
                prune.setDouble(1, FORGOTTEN);
                prune.executeUpdate();
            }
            try (PreparedStatement move = connection.prepareStatement("INSERT INTO learning_epoch (id, epoch) VALUES"
                    + " (1, ?) ON CONFLICT (id) DO UPDATE SET epoch = excluded.epoch")) {
                move.setLong(1, nowSeconds);
                move.executeUpdate();
            }
            try (PreparedStatement bumpAll =
                    connection.prepareStatement("UPDATE learning_versions SET version = version + 1")) {
                bumpAll.executeUpdate();
            }
            return null;
        });
    }

    private static long epoch(Connection connection) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT epoch FROM learning_epoch WHERE id = 1");
                ResultSet row = query.executeQuery()) {
            return row.next() ? row.getLong(1) : FIRST_EPOCH;
        }
    }

    private static void bump(Connection connection, String tenant, String product) throws SQLException {
        try (PreparedStatement bump = connection.prepareStatement("INSERT INTO learning_versions (tenant, product,"
                + " version) VALUES (?, ?, 1) ON CONFLICT (tenant, product) DO UPDATE SET version ="
                + " learning_versions.version + 1")) {
            bump.setString(1, tenant);
            bump.setString(2, product);
            bump.executeUpdate();
        }
    }

    @Override
    public void close() {
        database.close();
    }
}
