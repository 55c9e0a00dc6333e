package dev.autocomplete.server.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The catalog store in SQL, the same for SQLite and PostgreSQL but for a few words of DDL. Records sit in
 * {@code catalog_options} (unique by id and by folded text within a catalog), the catalogs the store holds in
 * {@code catalog_catalogs}, and every write leaves rows in {@code catalog_changes}, the feed other replicas catch up
 * from (kept for a day, at most the last {@value #KEPT_CHANGES} rows).
 *
 * <p>A batch is checked whole before anything is written: it is staged in a temporary table, checked there (ids and
 * folded texts repeated in the batch, folded texts another stored id holds after the batch applies), and then
 * applied in the same transaction, or refused with every problem found (at most {@value #MAX_PROBLEMS}).
 */
public final class JdbcCatalogStore implements CatalogStore {

    /** Changes kept for catching up; a replica further behind reloads whole catalogs instead. */
    static final int KEPT_CHANGES = 100_000;

    static final long KEPT_CHANGES_MILLIS = 24 * 60 * 60 * 1000L;
    /** Problems reported for one refused write: enough to fix a file, bounded for a million bad lines. */
    static final int MAX_PROBLEMS = 1000;

    private static final int STAGING_BATCH = 1000;
    /** Folded texts looked up at once for {@link #textConflicts}. */
    private static final int CONFLICT_LOOKUPS = 500;
    /** The schema's name in {@code schema_version}. */
    public static final String COMPONENT = "catalogs";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> ALIASES = new TypeReference<>() {};
    private static final TypeReference<TreeMap<String, String>> TRANSLATIONS = new TypeReference<>() {};
    private static final TypeReference<TreeMap<String, List<String>>> ATTRIBUTES = new TypeReference<>() {};

    private final Database database;
    private final boolean ownsDatabase;

    private JdbcCatalogStore(Database database, boolean ownsDatabase) {
        this.database = database;
        this.ownsDatabase = ownsDatabase;
        database.migrate(COMPONENT, schema(database.dialect()));
    }

    /** The store in an SQLite file (e.g. {@code <data.dir>/catalogs.db}), created when missing. */
    public static CatalogStore sqlite(Path file) {
        return new JdbcCatalogStore(Database.sqlite(file), true);
    }

    /**
     * The store in PostgreSQL ({@code jdbc:postgresql://host:port/database}); {@code user} and {@code password}
     * may be null when the URL carries them. Its schema is created on first use.
     */
    public static CatalogStore postgres(String url, String user, String password) {
        return new JdbcCatalogStore(Database.postgres(url, user, password), true);
    }

    /** The store in a database that other stores share (keys); closing the store leaves the database open. */
    public static CatalogStore in(Database database) {
        return new JdbcCatalogStore(database, false);
    }

    /** The catalogs schema in that dialect, version by version (see {@link Database#migrate}). */
    public static List<List<String>> schema(Database.Dialect dialect) {
        boolean sqlite = dialect == Database.Dialect.SQLITE;
        // Byte order for ids in PostgreSQL too, so that pages come in the same order from either database.
        String key = sqlite ? "TEXT" : "TEXT COLLATE \"C\"";
        String sequence = sqlite ? "INTEGER" : "BIGINT";
        return List.of(
                List.of(
                        "CREATE TABLE catalog_catalogs (tenant " + key + " NOT NULL, catalog " + key + " NOT NULL, "
                                + "seed_digest TEXT, PRIMARY KEY (tenant, catalog))",
                        "CREATE TABLE catalog_options (tenant " + key + " NOT NULL, catalog " + key + " NOT NULL, id "
                                + key
                                + " NOT NULL, text TEXT NOT NULL, folded TEXT NOT NULL, aliases TEXT NOT NULL, "
                                + "weight DOUBLE PRECISION NOT NULL, translations TEXT NOT NULL, "
                                + "PRIMARY KEY (tenant, catalog, id), UNIQUE (tenant, catalog, folded))"
                                + (sqlite ? " WITHOUT ROWID" : ""),
                        "CREATE TABLE catalog_changes (sequence " + sequence + " PRIMARY KEY, tenant TEXT NOT NULL, "
                                + "catalog TEXT NOT NULL, kind TEXT NOT NULL, id TEXT, previous_text TEXT, "
                                + "at_millis BIGINT NOT NULL)"),
                // Version 2: attributes (a JSON object of name to values), null for none.
                List.of("ALTER TABLE catalog_options ADD COLUMN attributes TEXT"));
    }

    @Override
    public boolean holds(CatalogRef catalog) {
        return database.read(connection -> {
            try (PreparedStatement query =
                    connection.prepareStatement("SELECT 1 FROM catalog_catalogs WHERE tenant = ? AND catalog = ?")) {
                bind(query, catalog);
                try (ResultSet row = query.executeQuery()) {
                    return row.next();
                }
            }
        });
    }

    @Override
    public Optional<String> seedDigest(CatalogRef catalog) {
        return database.read(connection -> {
            try (PreparedStatement query = connection.prepareStatement(
                    "SELECT seed_digest FROM catalog_catalogs WHERE tenant = ? AND catalog = ?")) {
                bind(query, catalog);
                try (ResultSet row = query.executeQuery()) {
                    return row.next() ? Optional.ofNullable(row.getString(1)) : Optional.empty();
                }
            }
        });
    }

    @Override
    public void forEach(CatalogRef catalog, Consumer<OptionRecord> each) {
        database.read(connection -> {
            try (PreparedStatement query = connection.prepareStatement("SELECT id, text, aliases, weight, "
                    + "translations, attributes FROM catalog_options WHERE tenant = ? AND catalog = ? ORDER BY id")) {
                bind(query, catalog);
                // PostgreSQL streams in a transaction with a fetch size instead of loading every row first.
                query.setFetchSize(STAGING_BATCH);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        each.accept(record(rows, 1));
                    }
                }
            }
            return null;
        });
    }

    @Override
    public List<OptionRecord> page(CatalogRef catalog, String afterId, int limit) {
        return page(catalog, afterId, limit, null);
    }

    @Override
    public List<OptionRecord> page(CatalogRef catalog, String afterId, int limit, String foldedPrefix) {
        if (limit <= 0) {
            return List.of();
        }
        boolean filtered = foldedPrefix != null && !foldedPrefix.isEmpty();
        if (filtered && !foldedPrefix.equals(TextFolding.fold(foldedPrefix))) {
            throw new IllegalArgumentException("the prefix is not folded: " + foldedPrefix);
        }
        return database.read(connection -> {
            try (PreparedStatement query = connection.prepareStatement("SELECT id, text, aliases, weight, "
                    + "translations, attributes FROM catalog_options WHERE tenant = ? AND catalog = ? AND id > ? "
                    + (filtered ? "AND (folded LIKE ? OR folded LIKE ?) " : "") + "ORDER BY id LIMIT ?")) {
                bind(query, catalog);
                query.setString(3, afterId == null ? "" : afterId);
                int next = 4;
                if (filtered) {
                    // Folded text is letters, digits and single spaces: nothing in the patterns needs escaping.
                    query.setString(next++, foldedPrefix + "%");
                    query.setString(next++, "% " + foldedPrefix + "%");
                }
                query.setInt(next, limit);
                List<OptionRecord> page = new ArrayList<>();
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        page.add(record(rows, 1));
                    }
                }
                return page;
            }
        });
    }

    @Override
    public List<Change> upsert(CatalogRef catalog, List<OptionRecord> records) {
        OptionRecords.Batch batch = new OptionRecords.Batch();
        List<Long> staged = new ArrayList<>();
        List<OptionRecord> valid = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            if (batch.add(records.get(i))) {
                staged.add((long) i);
                valid.add(records.get(i));
            }
        }
        if (records.isEmpty()) {
            return List.of();
        }
        return database.write(connection -> {
            try (Staging staging = new Staging(connection, database.dialect())) {
                for (int i = 0; i < valid.size(); i++) {
                    staging.add(staged.get(i), valid.get(i));
                }
                staging.flush();
                TreeMap<Long, String> problems = new TreeMap<>();
                batch.problems().forEach(p -> problems.put(p.index(), p.reason()));
                collisions(connection, catalog, problems);
                refuseIf(problems);
                return applyUpsert(connection, catalog, valid, staging);
            }
        });
    }

    private List<Change> applyUpsert(
            Connection connection, CatalogRef catalog, List<OptionRecord> valid, Staging staging) throws SQLException {
        Map<String, String> previous = new HashMap<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT o.id, o.text FROM catalog_staging s "
                + "CROSS JOIN catalog_options o WHERE o.tenant = ? AND o.catalog = ? AND o.id = s.id")) {
            bind(query, catalog);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    previous.put(rows.getString(1), rows.getString(2));
                }
            }
        }
        update(
                connection,
                catalog,
                "DELETE FROM catalog_options WHERE tenant = ? AND catalog = ? "
                        + "AND id IN (SELECT id FROM catalog_staging)");
        insertStaged(connection, catalog);
        staging.clear();
        hold(connection, catalog, null);

        long sequence = lastSequence(connection);
        List<Change> changes = new ArrayList<>(valid.size());
        try (PreparedStatement insert = changeInsert(connection)) {
            for (OptionRecord record : valid) {
                Change change =
                        new Change(++sequence, catalog, Kind.UPSERT, record.id(), record, previous.get(record.id()));
                addChange(insert, change);
                changes.add(change);
            }
            insert.executeBatch();
        }
        prune(connection, sequence - valid.size(), sequence);
        return changes;
    }

    @Override
    public List<InvalidRecordsException.Problem> textConflicts(CatalogRef catalog, List<OptionRecord> records) {
        Map<String, Integer> byText = new HashMap<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < records.size(); i++) {
            byText.putIfAbsent(TextFolding.fold(records.get(i).text()), i);
            ids.add(records.get(i).id());
        }
        List<String> texts = new ArrayList<>(byText.keySet());
        return database.read(connection -> {
            TreeMap<Long, String> problems = new TreeMap<>();
            for (int from = 0; from < texts.size(); from += CONFLICT_LOOKUPS) {
                List<String> some = texts.subList(from, Math.min(texts.size(), from + CONFLICT_LOOKUPS));
                try (PreparedStatement query = connection.prepareStatement("SELECT id, folded FROM catalog_options "
                        + "WHERE tenant = ? AND catalog = ? AND folded IN (" + "?, ".repeat(some.size() - 1) + "?)")) {
                    bind(query, catalog);
                    for (int i = 0; i < some.size(); i++) {
                        query.setString(3 + i, some.get(i));
                    }
                    try (ResultSet rows = query.executeQuery()) {
                        while (rows.next()) {
                            int index = byText.get(rows.getString(2));
                            OptionRecord record = records.get(index);
                            if (!record.id().equals(rows.getString(1)) && !ids.contains(rows.getString(1))) {
                                problems.put((long) index, OptionRecords.textTaken(record.text(), rows.getString(1)));
                            }
                        }
                    }
                }
            }
            return problems.entrySet().stream()
                    .map(p -> new InvalidRecordsException.Problem(p.getKey(), p.getValue()))
                    .toList();
        });
    }

    @Override
    public Optional<Change> delete(CatalogRef catalog, String id) {
        return database.write(connection -> delete(connection, catalog, id));
    }

    @Override
    public List<Change> delete(CatalogRef catalog, Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return database.write(connection -> {
            List<Change> changes = new ArrayList<>();
            for (String id : new LinkedHashSet<>(ids)) {
                delete(connection, catalog, id).ifPresent(changes::add);
            }
            return changes;
        });
    }

    /** Removes one record in the current transaction; empty when the catalog had no such id. */
    private Optional<Change> delete(Connection connection, CatalogRef catalog, String id) throws SQLException {
        String previous;
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT text FROM catalog_options WHERE tenant = ? AND catalog = ? AND id = ?")) {
            bind(query, catalog);
            query.setString(3, id);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                previous = row.getString(1);
            }
        }
        try (PreparedStatement delete = connection.prepareStatement(
                "DELETE FROM catalog_options WHERE tenant = ? AND catalog = ? AND id = ?")) {
            bind(delete, catalog);
            delete.setString(3, id);
            delete.executeUpdate();
        }
        return Optional.of(recordChange(connection, catalog, Kind.DELETE, id, previous));
    }

    @Override
    public Optional<OptionRecord> get(CatalogRef catalog, String id) {
        return database.read(connection -> stored(connection, catalog, id));
    }

    /** The record of this id as the current transaction sees it. */
    private static Optional<OptionRecord> stored(Connection connection, CatalogRef catalog, String id)
            throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT id, text, aliases, weight, translations, "
                + "attributes FROM catalog_options WHERE tenant = ? AND catalog = ? AND id = ?")) {
            bind(query, catalog);
            query.setString(3, id);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.of(record(row, 1)) : Optional.empty();
            }
        }
    }

    @Override
    public long count(CatalogRef catalog) {
        return database.read(connection -> {
            try (PreparedStatement query = connection.prepareStatement(
                    "SELECT COUNT(*) FROM catalog_options WHERE tenant = ? AND catalog = ?")) {
                bind(query, catalog);
                try (ResultSet row = query.executeQuery()) {
                    row.next();
                    return row.getLong(1);
                }
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>Read, merged and checked in the write transaction, so that a write between the read and the upsert
     * cannot be lost; the merged records then go through the upsert's own staging, checks and change log.
     */
    @Override
    public List<Change> patch(CatalogRef catalog, List<OptionPatch> patches) {
        if (patches.isEmpty()) {
            return List.of();
        }
        return database.write(connection -> {
            TreeMap<Long, String> problems = new TreeMap<>();
            OptionRecords.Batch batch = new OptionRecords.Batch();
            List<Long> checked = new ArrayList<>(); // the patch index of each record the batch checked
            List<Long> staged = new ArrayList<>();
            List<OptionRecord> valid = new ArrayList<>();
            for (int i = 0; i < patches.size(); i++) {
                OptionPatch patch = patches.get(i);
                Optional<OptionRecord> stored = stored(connection, catalog, patch.id());
                if (stored.isEmpty()) {
                    problems.put(
                            (long) i,
                            "no option has id '" + OptionRecords.abbreviate(patch.id())
                                    + "' (a patch changes an option; POST adds one)");
                    continue;
                }
                OptionRecord merged = patch.applyTo(stored.get());
                checked.add((long) i);
                if (batch.add(merged)) {
                    staged.add((long) i);
                    valid.add(merged);
                }
            }
            batch.problems().forEach(p -> problems.put(checked.get((int) p.index()), p.reason()));
            try (Staging staging = new Staging(connection, database.dialect())) {
                for (int i = 0; i < valid.size(); i++) {
                    staging.add(staged.get(i), valid.get(i));
                }
                staging.flush();
                collisions(connection, catalog, problems);
                refuseIf(problems);
                return applyUpsert(connection, catalog, valid, staging);
            }
        });
    }

    @Override
    public long replace(CatalogRef catalog, Iterator<OptionRecord> records) {
        return database.write(connection -> replace(connection, catalog, records, null));
    }

    @Override
    public long importSeed(CatalogRef catalog, Iterator<OptionRecord> records, String fileDigest) {
        return database.write(connection -> replace(connection, catalog, records, fileDigest));
    }

    @Override
    public boolean seed(CatalogRef catalog, Iterator<OptionRecord> records, String fileDigest) {
        return database.write(connection -> {
            // Serialized with every other write (Database.write), so two replicas cannot both seed.
            try (PreparedStatement query =
                    connection.prepareStatement("SELECT 1 FROM catalog_catalogs WHERE tenant = ? AND catalog = ?")) {
                bind(query, catalog);
                try (ResultSet row = query.executeQuery()) {
                    if (row.next()) {
                        return false;
                    }
                }
            }
            replace(connection, catalog, records, fileDigest);
            return true;
        });
    }

    /** Replaces the catalog's records in the current transaction; a null digest keeps the one stored. */
    private long replace(Connection connection, CatalogRef catalog, Iterator<OptionRecord> records, String digest)
            throws SQLException {
        try (Staging staging = new Staging(connection, database.dialect())) {
            return replace(connection, catalog, records, digest, staging);
        }
    }

    private long replace(
            Connection connection, CatalogRef catalog, Iterator<OptionRecord> records, String digest, Staging staging)
            throws SQLException {
        TreeMap<Long, String> problems = new TreeMap<>();
        long index = 0;
        // The shape is checked record by record as the stream goes; repeats in SQL once it is staged, so that a
        // million records need no set of their ids in memory.
        while (records.hasNext() && problems.size() < MAX_PROBLEMS) {
            OptionRecord record = records.next();
            Optional<String> problem = OptionRecords.problem(record);
            if (problem.isPresent()) {
                problems.put(index, problem.get());
            } else if (problems.isEmpty()) {
                staging.add(index, record);
            }
            index++;
        }
        refuseIf(problems);
        staging.flush();
        repeats(connection, "id", problems);
        repeats(connection, "folded", problems);
        refuseIf(problems);

        update(connection, catalog, "DELETE FROM catalog_options WHERE tenant = ? AND catalog = ?");
        long count = insertStaged(connection, catalog);
        staging.clear();
        if (database.dialect() == Database.Dialect.POSTGRES) {
            // Fresh statistics now, not when autovacuum comes by: with a just-filled table taken for empty, the
            // next upsert's collision check was planned as a scan a record and took 15 s on 100,000 records.
            try (Statement statement = connection.createStatement()) {
                statement.execute("ANALYZE catalog_options");
            }
        }
        hold(connection, catalog, digest);
        recordChange(connection, catalog, Kind.REPLACE, null, null);
        return count;
    }

    /** Records of the batch repeating an earlier record's {@code column}, by index. */
    private static void repeats(Connection connection, String column, TreeMap<Long, String> problems)
            throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT s.idx, s.id, s.text, f.first "
                + "FROM catalog_staging s JOIN (SELECT " + column + " AS value, MIN(idx) AS first FROM catalog_staging "
                + "GROUP BY " + column + " HAVING COUNT(*) > 1) f ON f.value = s." + column + " WHERE s.idx > f.first "
                + "ORDER BY s.idx LIMIT " + MAX_PROBLEMS)) {
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    String value = column.equals("id") ? rows.getString(2) : rows.getString(3);
                    problems.putIfAbsent(
                            rows.getLong(1),
                            column.equals("id") ? OptionRecords.repeatedId(value) : OptionRecords.repeatedText(value));
                }
            }
        }
    }

    /**
     * Staged records whose folded text another stored id holds, and keeps after the batch. (CROSS JOIN: SQLite then
     * walks the small batch and looks each record up, rather than the whole catalog; PostgreSQL plans it alike.)
     */
    private static void collisions(Connection connection, CatalogRef catalog, TreeMap<Long, String> problems)
            throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT s.idx, s.text, o.id FROM catalog_staging s "
                + "CROSS JOIN catalog_options o WHERE o.tenant = ? AND o.catalog = ? AND o.folded = s.folded "
                + "AND o.id <> s.id AND NOT EXISTS (SELECT 1 FROM catalog_staging t WHERE t.id = o.id)")) {
            bind(query, catalog);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    problems.putIfAbsent(
                            rows.getLong(1), OptionRecords.textTaken(rows.getString(2), rows.getString(3)));
                }
            }
        }
    }

    private static void refuseIf(TreeMap<Long, String> problems) {
        if (!problems.isEmpty()) {
            throw new InvalidRecordsException(problems.entrySet().stream()
                    .limit(MAX_PROBLEMS)
                    .map(p -> new InvalidRecordsException.Problem(p.getKey(), p.getValue()))
                    .toList());
        }
    }

    private static long insertStaged(Connection connection, CatalogRef catalog) throws SQLException {
        return update(
                connection,
                catalog,
                "INSERT INTO catalog_options (tenant, catalog, id, text, folded, aliases, "
                        + "weight, translations, attributes) SELECT ?, ?, id, text, folded, aliases, weight, translations, "
                        + "attributes FROM catalog_staging");
    }

    private static int update(Connection connection, CatalogRef catalog, String sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, catalog);
            return statement.executeUpdate();
        }
    }

    /** Marks the catalog held; a digest replaces the stored one, null keeps it. */
    private static void hold(Connection connection, CatalogRef catalog, String digest) throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO catalog_catalogs (tenant, catalog, "
                + "seed_digest) VALUES (?, ?, ?) ON CONFLICT (tenant, catalog) DO UPDATE SET "
                + "seed_digest = COALESCE(excluded.seed_digest, catalog_catalogs.seed_digest)")) {
            bind(upsert, catalog);
            upsert.setString(3, digest);
            upsert.executeUpdate();
        }
    }

    private Change recordChange(Connection connection, CatalogRef catalog, Kind kind, String id, String previous)
            throws SQLException {
        long before = lastSequence(connection);
        Change change = new Change(before + 1, catalog, kind, id, null, previous);
        try (PreparedStatement insert = changeInsert(connection)) {
            addChange(insert, change);
            insert.executeBatch();
        }
        prune(connection, before, before + 1);
        return change;
    }

    private static PreparedStatement changeInsert(Connection connection) throws SQLException {
        return connection.prepareStatement("INSERT INTO catalog_changes (sequence, tenant, catalog, kind, id, "
                + "previous_text, at_millis) VALUES (?, ?, ?, ?, ?, ?, ?)");
    }

    private static void addChange(PreparedStatement insert, Change change) throws SQLException {
        insert.setLong(1, change.sequence());
        insert.setString(2, change.catalog().tenant());
        insert.setString(3, change.catalog().catalog());
        insert.setString(4, change.kind().name());
        insert.setString(5, change.id());
        insert.setString(6, change.previousText());
        insert.setLong(7, System.currentTimeMillis());
        insert.addBatch();
    }

    /** Drops old changes now and then (when the sequence crosses a thousand), always keeping the newest. */
    private static void prune(Connection connection, long before, long after) throws SQLException {
        if (before / 1000 == after / 1000) {
            return;
        }
        try (PreparedStatement delete = connection.prepareStatement(
                "DELETE FROM catalog_changes WHERE sequence < ? AND (sequence <= ? OR at_millis < ?)")) {
            delete.setLong(1, after);
            delete.setLong(2, after - KEPT_CHANGES);
            delete.setLong(3, System.currentTimeMillis() - KEPT_CHANGES_MILLIS);
            delete.executeUpdate();
        }
    }

    @Override
    public long lastSequence() {
        return database.read(JdbcCatalogStore::lastSequence);
    }

    private static long lastSequence(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT COALESCE(MAX(sequence), 0) FROM catalog_changes")) {
            row.next();
            return row.getLong(1);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>An upsert's record is the one stored now (null when it has been deleted since: a later change says so).
     * When the changes after {@code sequence} were pruned, returns a {@link Kind#REPLACE} of every catalog held,
     * numbered with the newest sequence: the caller reloads them whole.
     */
    @Override
    public List<Change> changesSince(long sequence, int limit) {
        return database.read(connection -> {
            long oldest;
            try (Statement statement = connection.createStatement();
                    ResultSet row =
                            statement.executeQuery("SELECT MIN(sequence), MAX(sequence) FROM catalog_changes")) {
                row.next();
                oldest = row.getLong(1);
                long newest = row.getLong(2);
                if (!row.wasNull() && sequence < oldest - 1) {
                    return reloadEverything(connection, newest);
                }
            }
            List<Change> changes = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement("SELECT c.sequence, c.tenant, c.catalog, "
                    + "c.kind, c.id, c.previous_text, o.id, o.text, o.aliases, o.weight, o.translations, o.attributes "
                    + "FROM catalog_changes c LEFT JOIN catalog_options o ON c.kind = 'UPSERT' AND o.tenant = c.tenant "
                    + "AND o.catalog = c.catalog AND o.id = c.id WHERE c.sequence > ? ORDER BY c.sequence LIMIT ?")) {
                query.setLong(1, sequence);
                query.setInt(2, Math.max(0, limit));
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        OptionRecord record = rows.getString(7) == null ? null : record(rows, 7);
                        changes.add(new Change(
                                rows.getLong(1),
                                new CatalogRef(rows.getString(2), rows.getString(3)),
                                Kind.valueOf(rows.getString(4)),
                                rows.getString(5),
                                record,
                                rows.getString(6)));
                    }
                }
            }
            return changes;
        });
    }

    private static List<Change> reloadEverything(Connection connection, long newest) throws SQLException {
        List<Change> changes = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT tenant, catalog FROM catalog_catalogs " + "ORDER BY tenant, catalog")) {
            while (rows.next()) {
                changes.add(new Change(
                        newest, new CatalogRef(rows.getString(1), rows.getString(2)), Kind.REPLACE, null, null, null));
            }
        }
        return changes;
    }

    @Override
    public void onExternalChange(Runnable listener) {
        database.onExternalChange(listener);
    }

    @Override
    public void close() {
        if (ownsDatabase) {
            database.close();
        }
    }

    private static void bind(PreparedStatement statement, CatalogRef catalog) throws SQLException {
        statement.setString(1, catalog.tenant());
        statement.setString(2, catalog.catalog());
    }

    /** The record in columns id, text, aliases, weight, translations, attributes from {@code first}. */
    private static OptionRecord record(ResultSet row, int first) throws SQLException {
        try {
            String attributes = row.getString(first + 5);
            return new OptionRecord(
                    row.getString(first),
                    row.getString(first + 1),
                    JSON.readValue(row.getString(first + 2), ALIASES),
                    row.getDouble(first + 3),
                    JSON.readValue(row.getString(first + 4), TRANSLATIONS),
                    attributes == null ? Map.of() : JSON.readValue(attributes, ATTRIBUTES));
        } catch (JsonProcessingException e) {
            throw new SQLException("a stored record's aliases or translations are not JSON", e);
        }
    }

    /** The temporary table a write's records are checked in before they are applied (per connection). */
    private static final class Staging implements AutoCloseable {
        private final Connection connection;
        private final boolean postgres;
        private final PreparedStatement insert;
        private int pending;

        Staging(Connection connection, Database.Dialect dialect) throws SQLException {
            this.connection = connection;
            this.postgres = dialect == Database.Dialect.POSTGRES;
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TEMPORARY TABLE IF NOT EXISTS catalog_staging (idx BIGINT NOT NULL, "
                        + "id TEXT NOT NULL, text TEXT NOT NULL, folded TEXT NOT NULL, aliases TEXT NOT NULL, "
                        + "weight DOUBLE PRECISION NOT NULL, translations TEXT NOT NULL, attributes TEXT)");
                // Without them the planner may scan the staged batch once per stored record (seconds a batch).
                statement.execute("CREATE INDEX IF NOT EXISTS catalog_staging_id ON catalog_staging (id)");
                statement.execute("CREATE INDEX IF NOT EXISTS catalog_staging_folded ON catalog_staging (folded)");
            }
            clear();
            insert = connection.prepareStatement("INSERT INTO catalog_staging (idx, id, text, folded, aliases, weight, "
                    + "translations, attributes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        }

        void add(long index, OptionRecord record) throws SQLException {
            insert.setLong(1, index);
            insert.setString(2, record.id());
            insert.setString(3, record.text());
            insert.setString(4, TextFolding.fold(record.text()));
            try {
                insert.setString(5, JSON.writeValueAsString(record.aliases()));
                insert.setString(7, JSON.writeValueAsString(new TreeMap<>(record.translations())));
                insert.setString(
                        8,
                        record.attributes().isEmpty()
                                ? null
                                : JSON.writeValueAsString(new TreeMap<>(record.attributes())));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("lists and maps of strings always write as JSON", e);
            }
            insert.setDouble(6, record.weight());
            insert.addBatch();
            if (++pending == STAGING_BATCH) {
                flush();
            }
        }

        void flush() throws SQLException {
            if (pending > 0) {
                insert.executeBatch();
                pending = 0;
            }
        }

        /** Empties the table (PostgreSQL: TRUNCATE, since autovacuum never cleans temporary tables). */
        void clear() throws SQLException {
            try (Statement statement = connection.createStatement()) {
                statement.execute(postgres ? "TRUNCATE catalog_staging" : "DELETE FROM catalog_staging");
            }
        }

        @Override
        public void close() throws SQLException {
            insert.close();
        }
    }
}
