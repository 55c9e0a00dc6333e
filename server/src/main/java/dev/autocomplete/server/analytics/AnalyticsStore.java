package dev.autocomplete.server.analytics;

import dev.autocomplete.server.store.Database;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Analytics aggregates in the server's database (SQLite in the data directory, or the PostgreSQL replicas share),
 * in tables of their own. Counters (requests, picks, letters typed, latency buckets...) are per tenant, product and
 * hour, and each replica adds its deltas to them, so replicas' figures add up. Sessions are HyperLogLog sketches
 * ({@link SessionSketch}), one row per replica and hour that only that replica writes (no read-modify-write across
 * replicas), merged when read. Picked options and unmatched spans are counted per day. Rows older than
 * {@link #KEEP_DAYS} days (unmatched spans: {@link #KEEP_UNMATCHED_DAYS}) are deleted by {@link #prune}. Thread-safe.
 */
public final class AnalyticsStore implements AutoCloseable {

    /** The schema's name in {@code schema_version}. */
    public static final String COMPONENT = "analytics";
    /** The tables this store keeps, for {@code storage migrate}. */
    public static final List<String> TABLES =
            List.of("analytics_counts", "analytics_sessions", "analytics_picks", "analytics_unmatched");
    /** How long hourly figures and picks are kept. */
    public static final int KEEP_DAYS = 90;
    /** How long unmatched spans are kept. */
    public static final int KEEP_UNMATCHED_DAYS = 30;
    /** The advisory lock analytics writes take in PostgreSQL ("analytic" in ASCII). */
    private static final long LOCK = 0x616E616C79746963L;

    /** The schema, version by version (the same statements in SQLite and PostgreSQL). */
    public static final List<List<String>> SCHEMA = List.of(List.of(
            "CREATE TABLE analytics_counts (tenant TEXT NOT NULL, product TEXT NOT NULL, hour BIGINT NOT NULL,"
                    + " name TEXT NOT NULL, value BIGINT NOT NULL, PRIMARY KEY (tenant, product, hour, name))",
            "CREATE TABLE analytics_sessions (tenant TEXT NOT NULL, product TEXT NOT NULL, hour BIGINT NOT NULL,"
                    + " replica TEXT NOT NULL, kind TEXT NOT NULL, sketch TEXT NOT NULL,"
                    + " PRIMARY KEY (tenant, product, hour, replica, kind))",
            "CREATE TABLE analytics_picks (tenant TEXT NOT NULL, product TEXT NOT NULL, day BIGINT NOT NULL,"
                    + " param TEXT NOT NULL, option TEXT NOT NULL, count BIGINT NOT NULL,"
                    + " PRIMARY KEY (tenant, product, day, param, option))",
            "CREATE TABLE analytics_unmatched (tenant TEXT NOT NULL, product TEXT NOT NULL, day BIGINT NOT NULL,"
                    + " text TEXT NOT NULL, count BIGINT NOT NULL, PRIMARY KEY (tenant, product, day, text))"));

    private final Database database;

    public AnalyticsStore(Database database) {
        this.database = database;
        database.migrate(COMPONENT, SCHEMA);
    }

    /** A product's counter in an hour (hours and days since the epoch, UTC). */
    record Count(String tenant, String product, long hour, String name) {}

    /** A replica's sketch of a product's sessions in an hour; {@code kind} is {@code all} or {@code ready}. */
    record Sketch(String tenant, String product, long hour, String kind) {}

    /** A picked option of a param, in a day. */
    record Picked(String tenant, String product, long day, String param, String option) {}

    /** A typed span that matched nothing, in a day. */
    record Span(String tenant, String product, long day, String text) {}

    /** What one flush writes: deltas to add, and this replica's sketches as they are now. */
    record Batch(
            Map<Count, Long> counts, Map<Sketch, String> sketches, Map<Picked, Long> picks, Map<Span, Long> unmatched) {
        boolean isEmpty() {
            return counts.isEmpty() && sketches.isEmpty() && picks.isEmpty() && unmatched.isEmpty();
        }
    }

    /** Writes a batch in one transaction; {@code replica} names this process's sketch rows. */
    void write(String replica, Batch batch) {
        if (batch.isEmpty()) {
            return;
        }
        database.writeUnordered(LOCK, connection -> {
            try (PreparedStatement add = connection.prepareStatement("INSERT INTO analytics_counts (tenant, product,"
                    + " hour, name, value) VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant, product, hour, name)"
                    + " DO UPDATE SET value = analytics_counts.value + excluded.value")) {
                for (Map.Entry<Count, Long> entry : batch.counts().entrySet()) {
                    Count key = entry.getKey();
                    add.setString(1, key.tenant());
                    add.setString(2, key.product());
                    add.setLong(3, key.hour());
                    add.setString(4, key.name());
                    add.setLong(5, entry.getValue());
                    add.addBatch();
                }
                add.executeBatch();
            }
            try (PreparedStatement put = connection.prepareStatement("INSERT INTO analytics_sessions (tenant, product,"
                    + " hour, replica, kind, sketch) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, product, hour,"
                    + " replica, kind) DO UPDATE SET sketch = excluded.sketch")) {
                for (Map.Entry<Sketch, String> entry : batch.sketches().entrySet()) {
                    Sketch key = entry.getKey();
                    put.setString(1, key.tenant());
                    put.setString(2, key.product());
                    put.setLong(3, key.hour());
                    put.setString(4, replica);
                    put.setString(5, key.kind());
                    put.setString(6, entry.getValue());
                    put.addBatch();
                }
                put.executeBatch();
            }
            try (PreparedStatement add = connection.prepareStatement("INSERT INTO analytics_picks (tenant, product,"
                    + " day, param, option, count) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, product, day, param,"
                    + " option) DO UPDATE SET count = analytics_picks.count + excluded.count")) {
                for (Map.Entry<Picked, Long> entry : batch.picks().entrySet()) {
                    Picked key = entry.getKey();
                    add.setString(1, key.tenant());
                    add.setString(2, key.product());
                    add.setLong(3, key.day());
                    add.setString(4, key.param());
                    add.setString(5, key.option());
                    add.setLong(6, entry.getValue());
                    add.addBatch();
                }
                add.executeBatch();
            }
            try (PreparedStatement add = connection.prepareStatement("INSERT INTO analytics_unmatched (tenant,"
                    + " product, day, text, count) VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant, product, day, text)"
                    + " DO UPDATE SET count = analytics_unmatched.count + excluded.count")) {
                for (Map.Entry<Span, Long> entry : batch.unmatched().entrySet()) {
                    Span key = entry.getKey();
                    add.setString(1, key.tenant());
                    add.setString(2, key.product());
                    add.setLong(3, key.day());
                    add.setString(4, key.text());
                    add.setLong(5, entry.getValue());
                    add.addBatch();
                }
                add.executeBatch();
            }
            return null;
        });
    }

    /** Deletes what is older than it is kept, as of {@code nowSeconds}. */
    void prune(long nowSeconds) {
        long day = nowSeconds / 86_400;
        database.writeUnordered(LOCK, connection -> {
            delete(connection, "DELETE FROM analytics_counts WHERE hour < ?", (day - KEEP_DAYS) * 24);
            delete(connection, "DELETE FROM analytics_sessions WHERE hour < ?", (day - KEEP_DAYS) * 24);
            delete(connection, "DELETE FROM analytics_picks WHERE day < ?", day - KEEP_DAYS);
            delete(connection, "DELETE FROM analytics_unmatched WHERE day < ?", day - KEEP_UNMATCHED_DAYS);
            return null;
        });
    }

    private static void delete(Connection connection, String sql, long before) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(sql)) {
            delete.setLong(1, before);
            delete.executeUpdate();
        }
    }

    /** A picked option or an unmatched span with its count ({@code param} null for spans). */
    record Counted(String param, String text, long count) {}

    /**
     * What the store holds of a product in hours {@code [fromHour, toHour)}: counters by hour, the sessions sketches
     * of every replica merged by hour, picks by param and option, unmatched spans; both lists most counted first.
     */
    record Figures(
            Map<Long, Map<String, Long>> counts,
            Map<Long, SessionSketch> sessions,
            Map<Long, SessionSketch> readySessions,
            List<Counted> picks,
            List<Counted> unmatched) {}

    Figures read(String tenant, String product, long fromHour, long toHour) {
        return database.read(connection -> {
            Map<Long, Map<String, Long>> counts = new TreeMap<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT hour, name, value FROM analytics_counts"
                    + " WHERE tenant = ? AND product = ? AND hour >= ? AND hour < ?")) {
                bind(query, tenant, product, fromHour, toHour);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        counts.computeIfAbsent(rows.getLong(1), h -> new HashMap<>())
                                .merge(rows.getString(2), rows.getLong(3), Long::sum);
                    }
                }
            }
            Map<Long, SessionSketch> sessions = new TreeMap<>();
            Map<Long, SessionSketch> ready = new TreeMap<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT hour, kind, sketch FROM"
                    + " analytics_sessions WHERE tenant = ? AND product = ? AND hour >= ? AND hour < ?")) {
                bind(query, tenant, product, fromHour, toHour);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        Map<Long, SessionSketch> into = rows.getString(2).equals("ready") ? ready : sessions;
                        into.computeIfAbsent(rows.getLong(1), h -> new SessionSketch())
                                .merge(SessionSketch.decode(rows.getString(3)));
                    }
                }
            }
            List<Counted> picks = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT param, option, SUM(count) AS total FROM"
                    + " analytics_picks WHERE tenant = ? AND product = ? AND day >= ? AND day < ?"
                    + " GROUP BY param, option ORDER BY total DESC, param, option")) {
                bind(query, tenant, product, Math.floorDiv(fromHour, 24), Math.floorDiv(toHour + 23, 24));
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        picks.add(new Counted(rows.getString(1), rows.getString(2), rows.getLong(3)));
                    }
                }
            }
            List<Counted> unmatched = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT text, SUM(count) AS total FROM"
                    + " analytics_unmatched WHERE tenant = ? AND product = ? AND day >= ? AND day < ?"
                    + " GROUP BY text ORDER BY total DESC, text LIMIT 50")) {
                bind(query, tenant, product, Math.floorDiv(fromHour, 24), Math.floorDiv(toHour + 23, 24));
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        unmatched.add(new Counted(null, rows.getString(1), rows.getLong(2)));
                    }
                }
            }
            return new Figures(counts, sessions, ready, picks, unmatched);
        });
    }

    private static void bind(PreparedStatement query, String tenant, String product, long from, long to)
            throws SQLException {
        query.setString(1, tenant);
        query.setString(2, product);
        query.setLong(3, from);
        query.setLong(4, to);
    }

    /** Closes its connections. */
    @Override
    public void close() {
        database.close();
    }
}
