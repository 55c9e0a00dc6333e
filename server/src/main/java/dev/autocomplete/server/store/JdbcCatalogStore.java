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
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The catalog store in SQL, the same for SQLite and PostgreSQL but for a few words of DDL. Records sit in
 * {@code catalog_options} (unique by id and by folded text within a catalog), the catalogs the store holds in
 * {@code catalog_catalogs}, and every write leaves rows in {@code catalog_changes}, the feed other replicas catch up
 * from (kept for a day, at most the last {@value #KEPT_CHANGES} rows).
 *
 * <p>Writes are serialized ({@link Database}), so none may be long. A replace, a seed, and an upsert or a patch of
 * {@value #VERSIONED_UPSERT} records or more write a new version of the catalog's rows instead, under a key of
 * {@code catalog_options} of their own ({@code rows_key} of {@code catalog_catalogs} names the version a catalog
 * reads; null, its own name), {@value #BUILD_CHUNK} records a transaction, and switch to it in one; the old version
 * is then dropped a chunk a transaction. {@code catalog_builds} lists the versions being written or dropped, so that
 * what a crash left is dropped later ({@link #dropAbandoned}).
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
    /** Records a replace writes per transaction: another write waits for one chunk at most (tens of ms). */
    static final int BUILD_CHUNK = 5000;
    /**
     * An upsert of this many records or more is written as a new version of the catalog, a chunk a transaction
     * ({@link #upsertByVersion}); a smaller one in one transaction (tens of ms).
     */
    static final int VERSIONED_UPSERT = 2 * BUILD_CHUNK;
    /**
     * Tries of a large upsert or patch as a new version before it is refused ({@link CatalogChangedException}): a
     * replace of its catalog meanwhile, three times over, is a storm of them, and one transaction for the whole
     * write instead would hold every catalog's writes meanwhile.
     */
    static final int VERSION_ATTEMPTS = 3;
    /**
     * A version being written or dropped whose writer has not written for this long (by the database's clock: every
     * chunk says it is alive) was abandoned, its process gone.
     */
    static final long ABANDONED_AFTER_MILLIS = 10 * 60 * 1000L;
    /** Between a catalog's name and a random id in the key of a version's rows: no catalog is so named. */
    private static final String VERSION_MARK = "\u0001";

    private static final System.Logger LOG = System.getLogger(JdbcCatalogStore.class.getName());
    /**
     * The rows of one catalog in {@code catalog_options}, in one statement's snapshot: those of the version it reads
     * now (see {@link #rowsOf}); bound by {@link #bindRows}.
     */
    private static final String ROWS = "tenant = ? AND catalog = COALESCE((SELECT k.rows_key FROM catalog_catalogs k "
            + "WHERE k.tenant = ? AND k.catalog = ?), ?)";
    /** Folded texts looked up at once for {@link #textConflicts}. */
    private static final int CONFLICT_LOOKUPS = 500;
    /** The schema's name in {@code schema_version}. */
    public static final String COMPONENT = "catalogs";

    /** The staged records into rows of catalog_options (binds tenant and catalog). */
    private static final String INSERT_STAGED = "INSERT INTO catalog_options (tenant, catalog, id, text, folded, "
            + "aliases, weight, translations, attributes) SELECT ?, ?, id, text, folded, aliases, weight, translations, "
            + "attributes FROM catalog_staging";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<String>> ALIASES = new TypeReference<>() {};
    private static final TypeReference<TreeMap<String, String>> TRANSLATIONS = new TypeReference<>() {};
    private static final TypeReference<TreeMap<String, List<String>>> ATTRIBUTES = new TypeReference<>() {};

    private final Database database;
    private final boolean ownsDatabase;
    /** Tests only: runs when a version is written and not switched to yet (other writes come in). */
    volatile Runnable beforeSwitch;

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
                List.of("ALTER TABLE catalog_options ADD COLUMN attributes TEXT"),
                // Version 3: a replace writes a new version of the catalog's rows in short transactions and then
                // switches to it: rows_key names the version read (null: the catalog's own name), and the versions
                // being built or dropped are registered until they are done (started_millis: when their writer last
                // wrote, by the database's clock).
                List.of(
                        "ALTER TABLE catalog_catalogs ADD COLUMN rows_key " + key,
                        "CREATE TABLE catalog_builds (tenant " + key + " NOT NULL, rows_key " + key + " NOT NULL, "
                                + "started_millis BIGINT NOT NULL, dropping INTEGER NOT NULL, "
                                + "PRIMARY KEY (tenant, rows_key))"));
    }

    @Override
    public boolean holds(CatalogRef catalog) {
        return database.read(connection -> holds(connection, catalog));
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
                    + "translations, attributes FROM catalog_options WHERE " + ROWS + " ORDER BY id")) {
                bindRows(query, catalog);
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
                    + "translations, attributes FROM catalog_options WHERE " + ROWS + " AND id > ? "
                    + (filtered ? "AND (folded LIKE ? OR folded LIKE ?) " : "") + "ORDER BY id LIMIT ?")) {
                int next = bindRows(query, catalog);
                query.setString(next++, afterId == null ? "" : afterId);
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
        // A write meanwhile that the new version cannot take (a replace, a text taken) makes it start again, and
        // a storm of them refuses it: one transaction for the whole batch would hold every catalog's writes.
        if (valid.size() >= VERSIONED_UPSERT && batch.problems().isEmpty()) {
            for (int attempt = 0; attempt < VERSION_ATTEMPTS; attempt++) {
                // All the records are valid, so their indexes are the batch's: texts other ids hold are refused now.
                List<InvalidRecordsException.Problem> taken = textConflicts(catalog, valid);
                if (!taken.isEmpty()) {
                    throw new InvalidRecordsException(taken.subList(0, Math.min(taken.size(), MAX_PROBLEMS)));
                }
                Optional<List<Change>> applied = upsertByVersion(catalog, valid, lastSequence(), null);
                if (applied.isPresent()) {
                    return applied.get();
                }
            }
            throw changedMeanwhile(catalog, "upsert", valid.size());
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
        CatalogRef version = rowsOf(connection, catalog);
        try (PreparedStatement query = connection.prepareStatement("SELECT o.id, o.text FROM catalog_staging s "
                + "CROSS JOIN catalog_options o WHERE o.tenant = ? AND o.catalog = ? AND o.id = s.id")) {
            bind(query, version);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    previous.put(rows.getString(1), rows.getString(2));
                }
            }
        }
        update(
                connection,
                version,
                "DELETE FROM catalog_options WHERE tenant = ? AND catalog = ? "
                        + "AND id IN (SELECT id FROM catalog_staging)");
        insertStaged(connection, version);
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
            // The version read is named first, and each text looked up from a list of values (CROSS JOIN: SQLite
            // then looks each one up in the folded texts' index; "folded IN (…)" was planned as a scan of the
            // catalog, 170 s for 600,000 texts). A replace switching meanwhile is harmless: the write checks again.
            CatalogRef version = rowsOf(connection, catalog);
            TreeMap<Long, String> problems = new TreeMap<>();
            for (int from = 0; from < texts.size(); from += CONFLICT_LOOKUPS) {
                List<String> some = texts.subList(from, Math.min(texts.size(), from + CONFLICT_LOOKUPS));
                try (PreparedStatement query = connection.prepareStatement("SELECT o.id, o.folded FROM (VALUES "
                        + "(?), ".repeat(some.size() - 1) + "(?)) v CROSS JOIN catalog_options o "
                        + "WHERE o.tenant = ? AND o.catalog = ? AND o.folded = v.column1")) {
                    for (int i = 0; i < some.size(); i++) {
                        query.setString(1 + i, some.get(i));
                    }
                    query.setString(some.size() + 1, version.tenant());
                    query.setString(some.size() + 2, version.catalog());
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
        try (PreparedStatement query =
                connection.prepareStatement("SELECT text FROM catalog_options WHERE " + ROWS + " AND id = ?")) {
            query.setString(bindRows(query, catalog), id);
            try (ResultSet row = query.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                previous = row.getString(1);
            }
        }
        try (PreparedStatement delete =
                connection.prepareStatement("DELETE FROM catalog_options WHERE " + ROWS + " AND id = ?")) {
            delete.setString(bindRows(delete, catalog), id);
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
                + "attributes FROM catalog_options WHERE " + ROWS + " AND id = ?")) {
            query.setString(bindRows(query, catalog), id);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.of(record(row, 1)) : Optional.empty();
            }
        }
    }

    @Override
    public long count(CatalogRef catalog) {
        return database.read(connection -> {
            try (PreparedStatement query =
                    connection.prepareStatement("SELECT COUNT(*) FROM catalog_options WHERE " + ROWS)) {
                bindRows(query, catalog);
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
        if (patches.size() >= VERSIONED_UPSERT) {
            for (int attempt = 0; attempt < VERSION_ATTEMPTS; attempt++) {
                Optional<List<Change>> applied = patchByVersion(catalog, patches); // read and merged again each time
                if (applied.isPresent()) {
                    return applied.get();
                }
            }
            throw changedMeanwhile(catalog, "patch", patches.size());
        }
        return database.write(connection -> {
            Merged merged = new Merged(patches, id -> stored(connection, catalog, id));
            try (Staging staging = new Staging(connection, database.dialect())) {
                for (int i = 0; i < merged.valid.size(); i++) {
                    staging.add(merged.staged.get(i), merged.valid.get(i));
                }
                staging.flush();
                collisions(connection, catalog, merged.problems);
                refuseIf(merged.problems);
                return applyUpsert(connection, catalog, merged.valid, staging);
            }
        });
    }

    /** A large write refused after a storm of replaces meanwhile: the operator is told, once per write. */
    private static CatalogChangedException changedMeanwhile(CatalogRef catalog, String write, int records) {
        LOG.log(
                System.Logger.Level.WARNING,
                "catalog {0}: a large {1} ({2} records) met a write meanwhile it could not take {3} times (a replace);"
                        + " it was refused, nothing of it written",
                catalog,
                write,
                records,
                VERSION_ATTEMPTS);
        return new CatalogChangedException(catalog, VERSION_ATTEMPTS);
    }

    /** Patches merged into the records they change, checked as an upsert's records are, by patch index. */
    private static final class Merged {
        /** The stored record of an id, if any. */
        @FunctionalInterface
        interface Stored {
            Optional<OptionRecord> of(String id) throws SQLException;
        }

        final TreeMap<Long, String> problems = new TreeMap<>();
        /** The patch index of each valid record. */
        final List<Long> staged = new ArrayList<>();

        final List<OptionRecord> valid = new ArrayList<>();

        Merged(List<OptionPatch> patches, Stored stored) throws SQLException {
            OptionRecords.Batch batch = new OptionRecords.Batch();
            List<Long> checked = new ArrayList<>(); // the patch index of each record the batch checked
            for (int i = 0; i < patches.size(); i++) {
                OptionPatch patch = patches.get(i);
                Optional<OptionRecord> before = stored.of(patch.id());
                if (before.isEmpty()) {
                    problems.put(
                            (long) i,
                            "no option has id '" + OptionRecords.abbreviate(patch.id())
                                    + "' (a patch changes an option; POST adds one)");
                    continue;
                }
                OptionRecord merged = patch.applyTo(before.get());
                checked.add((long) i);
                if (batch.add(merged)) {
                    staged.add((long) i);
                    valid.add(merged);
                }
            }
            batch.problems().forEach(p -> problems.put(checked.get((int) p.index()), p.reason()));
        }
    }

    /**
     * A large patch written as a large upsert is ({@link #upsertByVersion}), so that it holds other writes for a chunk
     * at most: the stored records are read and merged without a transaction, checked as the one-transaction patch
     * checks them (and refused here, by patch index), then written as a new version of the catalog. Empty when a
     * write meanwhile changed a patched id (its merge would be stale) or cannot be replayed: the caller then patches
     * in one transaction.
     */
    private Optional<List<Change>> patchByVersion(CatalogRef catalog, List<OptionPatch> patches) {
        Set<String> ids = new HashSet<>();
        patches.forEach(patch -> ids.add(patch.id()));
        long since = lastSequence();
        Map<String, OptionRecord> stored = new HashMap<>();
        forEach(catalog, record -> {
            if (ids.contains(record.id())) {
                stored.put(record.id(), record);
            }
        });
        Merged merged;
        try {
            merged = new Merged(patches, id -> Optional.ofNullable(stored.get(id)));
        } catch (SQLException e) {
            throw new IllegalStateException("a map is read without SQL", e);
        }
        textConflicts(catalog, merged.valid)
                .forEach(p -> merged.problems.putIfAbsent(merged.staged.get((int) p.index()), p.reason()));
        refuseIf(merged.problems);
        Map<String, OptionPatch> byId = new HashMap<>();
        patches.forEach(patch -> byId.put(patch.id(), patch));
        return upsertByVersion(catalog, merged.valid, since, byId);
    }

    @Override
    public long replace(CatalogRef catalog, Iterator<OptionRecord> records) {
        return rebuild(catalog, records, null, false).orElseThrow();
    }

    @Override
    public long importSeed(CatalogRef catalog, Iterator<OptionRecord> records, String fileDigest) {
        return rebuild(catalog, records, fileDigest, false).orElseThrow();
    }

    @Override
    public boolean seed(CatalogRef catalog, Iterator<OptionRecord> records, String fileDigest) {
        // Checked again by the switch, serialized with every other write, so two replicas cannot both seed.
        return !holds(catalog) && rebuild(catalog, records, fileDigest, true).isPresent();
    }

    /**
     * Replaces the catalog's records without holding the store's writes for longer than a chunk: the records are
     * written {@value #BUILD_CHUNK} at a time, each chunk its own short transaction, under a new key of
     * {@code catalog_options} that nothing reads yet, checked as they go (their shape, and ids and folded texts
     * repeated); then one short transaction switches the catalog to them and logs the replace, and the old rows
     * are dropped, again a chunk a transaction. Readers and writers of the catalog see the old records until the
     * switch and the new ones after it; a crash before the switch leaves the old ones. The build is registered in
     * {@code catalog_builds}, so that rows a crash left behind are dropped later ({@link #dropAbandoned}).
     *
     * @param digest the seed file's digest to keep, or null to keep the one stored
     * @param onlyIfAbsent switch only when the store does not hold the catalog (a seed)
     * @return how many records the catalog holds now; empty when it was held and {@code onlyIfAbsent}
     */
    private OptionalLong rebuild(
            CatalogRef catalog, Iterator<OptionRecord> records, String digest, boolean onlyIfAbsent) {
        List<OptionRecord> first = new ArrayList<>();
        while (records.hasNext() && first.size() <= BUILD_CHUNK) {
            first.add(records.next());
        }
        if (first.size() <= BUILD_CHUNK) {
            // One chunk at most, replacing one chunk at most: in place, in one transaction no longer than a chunk's
            // (and one commit, not six, for each of a thousand tenants' small catalogs seeded at a first start).
            OptionalLong replaced =
                    database.write(connection -> replaceInPlace(connection, catalog, first, digest, onlyIfAbsent));
            if (replaced != null) {
                return replaced;
            }
        }
        VersionBuild build = new VersionBuild(catalog);
        CatalogRef replaced = build.rows;
        try {
            first.forEach(build::add);
            while (records.hasNext() && !build.full()) {
                build.add(records.next());
            }
            build.finish();
            refuseIf(build.shapes);
            refuseIf(build.repeats);
            analyze();
            beforeSwitch();
            Optional<Switched> switched =
                    database.write(connection -> switchTo(connection, build, digest, onlyIfAbsent, null));
            if (switched.isEmpty()) {
                return OptionalLong.empty();
            }
            replaced = switched.get().old();
            return OptionalLong.of(build.count);
        } finally {
            drop(replaced);
        }
    }

    /**
     * Replaces a small catalog's records in the current transaction, as {@link #rebuild} would; null, with nothing
     * done, when the catalog holds more than {@value #BUILD_CHUNK} records now (deleting them is no short write).
     */
    private OptionalLong replaceInPlace(
            Connection connection, CatalogRef catalog, List<OptionRecord> records, String digest, boolean onlyIfAbsent)
            throws SQLException {
        if (onlyIfAbsent && holds(connection, catalog)) {
            return OptionalLong.empty();
        }
        CatalogRef version = rowsOf(connection, catalog);
        try (PreparedStatement large = connection.prepareStatement(
                "SELECT 1 FROM catalog_options WHERE tenant = ? AND catalog = ? LIMIT 1 OFFSET " + BUILD_CHUNK)) {
            bind(large, version);
            try (ResultSet row = large.executeQuery()) {
                if (row.next()) {
                    return null;
                }
            }
        }
        try (Staging staging = new Staging(connection, database.dialect())) {
            TreeMap<Long, String> problems = new TreeMap<>();
            for (int i = 0; i < records.size(); i++) {
                Optional<String> problem = OptionRecords.problem(records.get(i));
                if (problem.isPresent()) {
                    problems.put((long) i, problem.get());
                } else if (problems.isEmpty()) {
                    staging.add(i, records.get(i));
                }
            }
            refuseIf(problems); // a bad shape is reported alone, as before any repeat is looked for
            staging.flush();
            repeats(connection, "id", problems);
            repeats(connection, "folded", problems);
            refuseIf(problems);
            update(connection, version, "DELETE FROM catalog_options WHERE tenant = ? AND catalog = ?");
            long count = insertStaged(connection, version);
            staging.clear();
            hold(connection, catalog, digest);
            recordChange(connection, catalog, Kind.REPLACE, null, null);
            return OptionalLong.of(count);
        }
    }

    private static boolean holds(Connection connection, CatalogRef catalog) throws SQLException {
        try (PreparedStatement query =
                connection.prepareStatement("SELECT 1 FROM catalog_catalogs WHERE tenant = ? AND catalog = ?")) {
            bind(query, catalog);
            try (ResultSet row = query.executeQuery()) {
                return row.next();
            }
        }
    }

    /**
     * A large upsert as a new version of the catalog, so that it holds the store's writes for a chunk at most, not
     * for seconds: the stored records but those it replaces, then its own, written as a replace's are; the switch
     * applies again the catalog's writes made meanwhile (ids it does not replace), and logs a replace. Empty when it
     * cannot be done so (a replace meanwhile, or a write meanwhile whose text the upsert also holds): the caller
     * upserts in one transaction, which reports what is wrong.
     *
     * @param since the last change before the catalog was read for these records: later writes are replayed
     * @param patches for a patch, the patches the records were merged from, by id (merged again into a record written
     *     meanwhile); null for an upsert
     */
    private Optional<List<Change>> upsertByVersion(
            CatalogRef catalog, List<OptionRecord> records, long since, Map<String, OptionPatch> patches) {
        Set<String> ids = new HashSet<>();
        records.forEach(record -> ids.add(record.id()));
        VersionBuild build = new VersionBuild(catalog);
        CatalogRef replaced = build.rows;
        try {
            forEach(catalog, stored -> {
                if (!ids.contains(stored.id()) && !build.full()) {
                    build.add(stored);
                }
            });
            for (OptionRecord record : records) {
                if (!build.full()) {
                    build.add(record);
                }
            }
            build.finish();
            if (!build.shapes.isEmpty() || !build.repeats.isEmpty()) {
                return Optional.empty();
            }
            analyze();
            beforeSwitch();
            Optional<Switched> switched = database.write(
                    connection -> switchTo(connection, build, null, false, new Replay(since, ids, patches)));
            if (switched.isEmpty()) {
                return Optional.empty();
            }
            replaced = switched.get().old();
            return Optional.of(List.of(switched.get().change()));
        } finally {
            drop(replaced);
        }
    }

    private void beforeSwitch() {
        Runnable hook = beforeSwitch;
        if (hook != null) {
            hook.run();
        }
    }

    /** PostgreSQL: fresh statistics for a version about to be switched to (see the comment inside). */
    private void analyze() {
        if (database.dialect() == Database.Dialect.POSTGRES) {
            // Fresh statistics before the switch, not when autovacuum comes by: with a just-filled table taken for
            // empty, the next upsert's collision check was planned as a scan a record (15 s at 100,000 records).
            database.read(connection -> {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("ANALYZE catalog_options");
                }
                return null;
            });
        }
    }

    /**
     * A new version of a catalog's rows being written, {@value #BUILD_CHUNK} records a transaction, under a key of
     * {@code catalog_options} nothing reads until a switch; registered in {@code catalog_builds} from the start.
     * Not thread-safe.
     */
    private final class VersionBuild {
        final CatalogRef catalog;
        final CatalogRef rows;
        /** Records of a bad shape, by index: reported alone, as before any repeat is looked for. */
        final TreeMap<Long, String> shapes = new TreeMap<>();

        final TreeMap<Long, String> repeats = new TreeMap<>();
        /** Records written. */
        long count;

        private final List<OptionRecord> chunk = new ArrayList<>();
        private long index;

        VersionBuild(CatalogRef catalog) {
            this.catalog = catalog;
            this.rows = new CatalogRef(catalog.tenant(), catalog.catalog() + VERSION_MARK + UUID.randomUUID());
            database.write(connection -> register(connection, rows, false));
        }

        /** Whether enough problems are found to stop reading. */
        boolean full() {
            return shapes.size() + repeats.size() >= MAX_PROBLEMS;
        }

        /**
         * The shape is checked record by record as the stream goes, repeats in SQL chunk by chunk, so that a million
         * records need no set of their ids in memory.
         */
        void add(OptionRecord record) {
            Optional<String> problem = OptionRecords.problem(record);
            if (problem.isPresent()) {
                shapes.put(index, problem.get());
            } else if (shapes.isEmpty()) {
                chunk.add(record);
                if (chunk.size() == BUILD_CHUNK) {
                    flush(index - chunk.size() + 1);
                }
            }
            index++;
        }

        void finish() {
            if (shapes.isEmpty() && !chunk.isEmpty()) {
                flush(index - chunk.size());
            }
        }

        private void flush(long first) {
            count += writeChunk(rows, first, chunk, repeats);
            chunk.clear();
        }
    }

    /**
     * The writes of a catalog since {@code since} that a versioned upsert of {@code ids} applies again; for a patch
     * ({@code patches} by id, null for an upsert, whose records win), a write meanwhile to a patched id has the patch
     * merged again into the record stored now.
     */
    private record Replay(long since, Set<String> ids, Map<String, OptionPatch> patches) {}

    /** A switch to a new version: the rows the catalog had, and the replace logged. */
    private record Switched(CatalogRef old, Change change) {}

    /** Writes one chunk of a build in its own transaction, adding its repeats to {@code problems}; how many went in. */
    private long writeChunk(CatalogRef build, long first, List<OptionRecord> chunk, TreeMap<Long, String> problems) {
        return database.write(connection -> {
            try (Staging staging = new Staging(connection, database.dialect())) {
                for (int i = 0; i < chunk.size(); i++) {
                    staging.add(first + i, chunk.get(i));
                }
                staging.flush();
                repeats(connection, "id", problems);
                repeats(connection, "folded", problems);
                repeatsOfEarlierChunks(connection, build, "id", problems);
                repeatsOfEarlierChunks(connection, build, "folded", problems);
                // Repeats are left out (the build is dropped if there are any): later chunks are still checked
                // against every record before them.
                alive(connection, build, true);
                long inserted = insertStagedUnlessTaken(connection, build);
                staging.clear();
                return inserted;
            }
        });
    }

    /** Staged records whose {@code column} a record of an earlier chunk of the build has. */
    private static void repeatsOfEarlierChunks(
            Connection connection, CatalogRef build, String column, TreeMap<Long, String> problems)
            throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT s.idx, s.id, s.text FROM catalog_staging s "
                + "CROSS JOIN catalog_options o WHERE o.tenant = ? AND o.catalog = ? AND o." + column + " = s." + column
                + " ORDER BY s.idx LIMIT " + MAX_PROBLEMS)) {
            bind(query, build);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    problems.putIfAbsent(
                            rows.getLong(1),
                            column.equals("id")
                                    ? OptionRecords.repeatedId(rows.getString(2))
                                    : OptionRecords.repeatedText(rows.getString(3)));
                }
            }
        }
    }

    /**
     * Switches the catalog to a build's rows and logs a replace; marks the rows it had for dropping.
     *
     * @param replay the writes to apply again to the build first, or null
     * @return the rows the catalog had and the replace; empty when {@code onlyIfAbsent} and the catalog is held, or
     *     when the writes to replay cannot be
     */
    private Optional<Switched> switchTo(
            Connection connection, VersionBuild build, String digest, boolean onlyIfAbsent, Replay replay)
            throws SQLException {
        CatalogRef catalog = build.catalog;
        if (onlyIfAbsent && holds(connection, catalog)) {
            return Optional.empty();
        }
        try (PreparedStatement done = connection.prepareStatement(
                "DELETE FROM catalog_builds WHERE tenant = ? AND rows_key = ? AND dropping = 0")) {
            bind(done, build.rows);
            if (done.executeUpdate() == 0) {
                throw takenForAbandoned(catalog); // rolled back: the catalog stays as it was
            }
        }
        CatalogRef old = rowsOf(connection, catalog);
        if (replay != null && !replayed(connection, catalog, old, build.rows, replay)) {
            return Optional.empty();
        }
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO catalog_catalogs (tenant, catalog, "
                + "seed_digest, rows_key) VALUES (?, ?, ?, ?) ON CONFLICT (tenant, catalog) DO UPDATE SET "
                + "seed_digest = COALESCE(excluded.seed_digest, catalog_catalogs.seed_digest), "
                + "rows_key = excluded.rows_key")) {
            bind(upsert, catalog);
            upsert.setString(3, digest);
            upsert.setString(4, build.rows.catalog());
            upsert.executeUpdate();
        }
        register(connection, old, true);
        return Optional.of(new Switched(old, recordChange(connection, catalog, Kind.REPLACE, null, null)));
    }

    /**
     * Copies into the build the records, as stored now, of the ids the catalog's writes since {@code replay.since()}
     * changed and the build does not replace; false when that cannot be: a replace meanwhile, changes pruned from
     * the log, or a text now stored that the build gives another id.
     */
    private boolean replayed(Connection connection, CatalogRef catalog, CatalogRef old, CatalogRef build, Replay replay)
            throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT MIN(sequence) FROM catalog_changes")) {
            row.next();
            long oldest = row.getLong(1);
            if (!row.wasNull() && oldest > replay.since() + 1) {
                return false;
            }
        }
        Set<String> changed = new LinkedHashSet<>();
        Set<String> rebased = new LinkedHashSet<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT kind, id FROM catalog_changes WHERE "
                + "sequence > ? AND tenant = ? AND catalog = ? ORDER BY sequence")) {
            query.setLong(1, replay.since());
            query.setString(2, catalog.tenant());
            query.setString(3, catalog.catalog());
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    if (Kind.valueOf(rows.getString(1)) == Kind.REPLACE) {
                        return false;
                    }
                    if (!replay.ids().contains(rows.getString(2))) {
                        changed.add(rows.getString(2));
                    } else if (replay.patches() != null) {
                        rebased.add(rows.getString(2));
                    }
                }
            }
        }
        for (String id : changed) {
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM catalog_options WHERE tenant = ? AND catalog = ? AND id = ?")) {
                bind(delete, build);
                delete.setString(3, id);
                delete.executeUpdate();
            }
            boolean stored;
            try (PreparedStatement query = connection.prepareStatement(
                    "SELECT 1 FROM catalog_options WHERE tenant = ? AND catalog = ? AND id = ?")) {
                bind(query, old);
                query.setString(3, id);
                try (ResultSet row = query.executeQuery()) {
                    stored = row.next();
                }
            }
            if (stored) {
                try (PreparedStatement copy = connection.prepareStatement("INSERT INTO catalog_options (tenant, "
                        + "catalog, id, text, folded, aliases, weight, translations, attributes) SELECT tenant, ?, id, "
                        + "text, folded, aliases, weight, translations, attributes FROM catalog_options WHERE "
                        + "tenant = ? AND catalog = ? AND id = ? ON CONFLICT DO NOTHING")) {
                    copy.setString(1, build.catalog());
                    copy.setString(2, old.tenant());
                    copy.setString(3, old.catalog());
                    copy.setString(4, id);
                    if (copy.executeUpdate() != 1) {
                        return false;
                    }
                }
            }
        }
        return rebased.isEmpty() || rebased(connection, catalog, build, replay.patches(), rebased);
    }

    /**
     * Merges the patches of {@code ids} again into the records stored now (written meanwhile) and puts the results
     * in the build; false when one of them is gone now or the result is refused (its text taken): the patch is then
     * tried again from the start, where such a record is reported.
     */
    private boolean rebased(
            Connection connection,
            CatalogRef catalog,
            CatalogRef build,
            Map<String, OptionPatch> patches,
            Set<String> ids)
            throws SQLException {
        try (Staging staging = new Staging(connection, database.dialect())) {
            long index = 0;
            for (String id : ids) {
                Optional<OptionRecord> now = stored(connection, catalog, id);
                if (now.isEmpty()) {
                    return false;
                }
                OptionRecord merged = patches.get(id).applyTo(now.get());
                if (OptionRecords.problem(merged).isPresent()) {
                    return false;
                }
                staging.add(index++, merged);
            }
            staging.flush();
            update(
                    connection,
                    build,
                    "DELETE FROM catalog_options WHERE tenant = ? AND catalog = ? AND id IN (SELECT id FROM catalog_staging)");
            long inserted = insertStagedUnlessTaken(connection, build);
            staging.clear();
            return inserted == index;
        }
    }

    /**
     * Registers rows being built, or rows to drop ({@code dropping}), as alive now: a crash does not leave them for
     * good ({@link #dropAbandoned}).
     */
    private Void register(Connection connection, CatalogRef rows, boolean dropping) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO catalog_builds (tenant, rows_key, "
                + "started_millis, dropping) VALUES (?, ?, " + nowMillis() + ", ?) ON CONFLICT (tenant, rows_key) DO "
                + "UPDATE SET dropping = excluded.dropping, started_millis = excluded.started_millis")) {
            bind(insert, rows);
            insert.setInt(3, dropping ? 1 : 0);
            insert.executeUpdate();
        }
        return null;
    }

    /**
     * Says in the current transaction that the writer of these rows is alive; for a build, fails when a sweep took it
     * for abandoned (its writer paused past {@value #ABANDONED_AFTER_MILLIS} ms) and is dropping it.
     */
    private void alive(Connection connection, CatalogRef rows, boolean building) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("UPDATE catalog_builds SET started_millis = "
                + nowMillis() + " WHERE tenant = ? AND rows_key = ?" + (building ? " AND dropping = 0" : ""))) {
            bind(update, rows);
            if (update.executeUpdate() == 0 && building) {
                throw takenForAbandoned(
                        new CatalogRef(rows.tenant(), rows.catalog().split(VERSION_MARK, 2)[0]));
            }
        }
    }

    private static StorageUnavailableException takenForAbandoned(CatalogRef catalog) {
        return new StorageUnavailableException(
                "the new version of catalog " + catalog + " was taken for abandoned (its writer was silent for "
                        + ABANDONED_AFTER_MILLIS / 60_000 + " minutes) and dropped; nothing of the write was applied",
                null);
    }

    /**
     * Now in milliseconds by the database's clock, as SQL: replicas' clocks may disagree, the database's is one (a
     * build on one replica is not taken for abandoned by another whose clock runs an hour ahead).
     */
    private String nowMillis() {
        return database.dialect() == Database.Dialect.POSTGRES
                ? "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
                : "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)";
    }

    /**
     * Drops registered rows a chunk a transaction, then their registration; rows a catalog reads are never dropped.
     * A store that cannot be reached now leaves them registered for a later {@link #dropAbandoned}.
     */
    private long drop(CatalogRef rows) {
        long dropped = 0;
        try {
            boolean read = database.read(connection -> {
                try (PreparedStatement query = connection.prepareStatement(
                        "SELECT 1 FROM catalog_catalogs " + "WHERE tenant = ? AND COALESCE(rows_key, catalog) = ?")) {
                    bind(query, rows);
                    try (ResultSet row = query.executeQuery()) {
                        return row.next();
                    }
                }
            });
            if (!read) {
                int deleted;
                do {
                    deleted = database.write(connection -> {
                        alive(connection, rows, false);
                        return dropChunk(connection, rows);
                    });
                    dropped += deleted;
                } while (deleted > 0); // a chunk a transaction: other writes go in between
            }
            database.write(connection -> {
                try (PreparedStatement done =
                        connection.prepareStatement("DELETE FROM catalog_builds WHERE tenant = ? AND rows_key = ?")) {
                    bind(done, rows);
                    return done.executeUpdate();
                }
            });
        } catch (StorageUnavailableException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "catalog {0}: the rows of a replaced or abandoned version are left for later ({1})",
                    rows.tenant() + "/" + rows.catalog().split(VERSION_MARK, 2)[0],
                    e.getMessage());
        }
        return dropped;
    }

    private static int dropChunk(Connection connection, CatalogRef rows) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM catalog_options WHERE tenant = ? "
                + "AND catalog = ? AND id IN (SELECT id FROM catalog_options WHERE tenant = ? AND catalog = ? LIMIT "
                + BUILD_CHUNK + ")")) {
            bind(delete, rows);
            delete.setString(3, rows.tenant());
            delete.setString(4, rows.catalog());
            return delete.executeUpdate();
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Versions of catalogs' rows whose writer has not written for {@value #ABANDONED_AFTER_MILLIS} ms by the
     * database's clock: builds never switched to, and replaced versions not wholly dropped.
     */
    @Override
    public void dropAbandoned() {
        List<CatalogRef> leftovers = database.read(connection -> {
            List<CatalogRef> found = new ArrayList<>();
            try (PreparedStatement query = connection.prepareStatement(
                    "SELECT tenant, rows_key FROM catalog_builds WHERE started_millis < " + nowMillis() + " - ?")) {
                query.setLong(1, ABANDONED_AFTER_MILLIS);
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        found.add(new CatalogRef(rows.getString(1), rows.getString(2)));
                    }
                }
            }
            return found;
        });
        for (CatalogRef rows : leftovers) {
            // Claimed in one write: a writer that comes back after this finds its version gone and fails, and one
            // that wrote meanwhile is not taken for abandoned.
            boolean claimed = database.write(connection -> {
                try (PreparedStatement claim = connection.prepareStatement("UPDATE catalog_builds SET dropping = 1, "
                        + "started_millis = " + nowMillis() + " WHERE tenant = ? AND rows_key = ? AND started_millis < "
                        + nowMillis() + " - ?")) {
                    bind(claim, rows);
                    claim.setLong(3, ABANDONED_AFTER_MILLIS);
                    return claim.executeUpdate() == 1;
                }
            });
            if (claimed) {
                long dropped = drop(rows);
                LOG.log(
                        System.Logger.Level.INFO,
                        "catalog {0}: dropped {1} rows of a version whose writer stopped (a server killed in a large"
                                + " write, or paused for {2} minutes)",
                        rows.tenant() + "/" + rows.catalog().split(VERSION_MARK, 2)[0],
                        dropped,
                        ABANDONED_AFTER_MILLIS / 60_000);
            }
        }
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
        CatalogRef version = rowsOf(connection, catalog);
        try (PreparedStatement query = connection.prepareStatement("SELECT s.idx, s.text, o.id FROM catalog_staging s "
                + "CROSS JOIN catalog_options o WHERE o.tenant = ? AND o.catalog = ? AND o.folded = s.folded "
                + "AND o.id <> s.id AND NOT EXISTS (SELECT 1 FROM catalog_staging t WHERE t.id = o.id)")) {
            bind(query, version);
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

    private static long insertStaged(Connection connection, CatalogRef rows) throws SQLException {
        return update(connection, rows, INSERT_STAGED);
    }

    /** Inserts the staged records whose id and folded text the rows do not hold yet; how many went in. */
    private static long insertStagedUnlessTaken(Connection connection, CatalogRef rows) throws SQLException {
        return update(connection, rows, INSERT_STAGED + " WHERE true ON CONFLICT DO NOTHING");
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
                    + "FROM catalog_changes c LEFT JOIN catalog_catalogs k ON k.tenant = c.tenant AND k.catalog = c.catalog "
                    + "LEFT JOIN catalog_options o ON c.kind = 'UPSERT' AND o.tenant = c.tenant "
                    + "AND o.catalog = COALESCE(k.rows_key, c.catalog) AND o.id = c.id WHERE c.sequence > ? "
                    + "ORDER BY c.sequence LIMIT ?")) {
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

    /** Binds {@link #ROWS} to the catalog's rows; returns the index of the next parameter. */
    private static int bindRows(PreparedStatement statement, CatalogRef catalog) throws SQLException {
        statement.setString(1, catalog.tenant());
        statement.setString(2, catalog.tenant());
        statement.setString(3, catalog.catalog());
        statement.setString(4, catalog.catalog());
        return 5;
    }

    /**
     * Where the catalog's records are now, as {@code (tenant, catalog)} of {@code catalog_options}: its own name, or
     * the version a replace switched it to. Stable for the rest of a write transaction (a switch is a write).
     */
    private static CatalogRef rowsOf(Connection connection, CatalogRef catalog) throws SQLException {
        try (PreparedStatement query =
                connection.prepareStatement("SELECT rows_key FROM catalog_catalogs WHERE tenant = ? AND catalog = ?")) {
            bind(query, catalog);
            try (ResultSet row = query.executeQuery()) {
                String key = row.next() ? row.getString(1) : null;
                return key == null ? catalog : new CatalogRef(catalog.tenant(), key);
            }
        }
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
