package dev.autocomplete.server.auth;

import dev.autocomplete.server.ratelimit.RateLimit;
import dev.autocomplete.server.store.Database;
import dev.autocomplete.server.store.StorageUnavailableException;
import dev.autocomplete.server.tenant.TenantRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Keys in a PostgreSQL database that every replica shares ({@code storage.url}): table {@code keys}, one row a
 * key (digests only), and {@code keys_imported}, one row a tenant whose {@code keys.yaml} was imported. Each
 * write notifies channel {@value #CHANNEL} with the tenant's id in the same transaction, so every replica's
 * {@link KeyRegistry} re-reads that tenant as soon as the write commits. A replica whose listening connection
 * was lost reconnects every second and then re-reads everything (the notifications sent meanwhile are lost);
 * and it re-reads everything every safety interval anyway.
 *
 * <p>At the first use the tables are made ({@link Database#migrate}, component {@value #COMPONENT}), and each
 * tenant's {@code keys.yaml} that was never imported is imported, once: from then on the file is not read (see
 * {@link Imported}).
 *
 * <p>PostgreSQL is reached through {@link Database}: its pool, timeouts and write lock, and its listener for the
 * channel.
 */
public final class PostgresKeyStore implements KeyStore {

    /** The channel every key write notifies, with the tenant's id as payload. */
    static final String CHANNEL = "autocomplete_keys";
    /** The {@code application_name} of the listening connection, to find it in {@code pg_stat_activity}. */
    static final String LISTENER_NAME = "autocomplete-keys-listener";

    public static final Duration DEFAULT_SAFETY_INTERVAL = Duration.ofSeconds(30);

    /** The schema's name in {@code schema_version}. */
    public static final String COMPONENT = "keys";

    private static final System.Logger LOG = System.getLogger(PostgresKeyStore.class.getName());
    /** The keys schema, version by version (see {@link Database#migrate}). */
    public static final List<List<String>> SCHEMA =
            List.of(List.of("""
            CREATE TABLE IF NOT EXISTS keys (
                id text PRIMARY KEY,
                tenant text NOT NULL,
                type text NOT NULL CHECK (type IN ('public', 'secret')),
                product uuid,
                digest text NOT NULL,
                created_at timestamptz NOT NULL,
                revoked_at timestamptz,
                expires_at timestamptz,
                origins text[] NOT NULL DEFAULT '{}',
                allow_no_origin boolean NOT NULL DEFAULT true,
                rate_per_second bigint,
                rate_burst bigint,
                uses text[]
            )""", "CREATE INDEX IF NOT EXISTS keys_by_tenant ON keys (tenant)", """
            CREATE TABLE IF NOT EXISTS keys_imported (
                tenant text PRIMARY KEY,
                file_digest text NOT NULL,
                keys integer NOT NULL,
                imported_at timestamptz NOT NULL
            )"""));

    private static final String COLUMNS = "id, tenant, type, product, digest, created_at, revoked_at, expires_at, "
            + "origins, allow_no_origin, rate_per_second, rate_burst, uses";

    private final Database database;
    private final Path tenantsRoot;
    private final Duration safetyInterval;
    private final Object prepareLock = new Object();
    private volatile boolean prepared;
    private volatile boolean closed;
    private volatile boolean listening;
    private boolean followed;

    /**
     * What became of a tenant's {@code keys.yaml} at the store's first connection.
     *
     * @param keys the keys imported (now or the first time)
     * @param importedAt when it was imported
     * @param now whether this process imported it; false when it was imported before
     * @param changedSince whether the file differs from the one imported (its changes are not merged)
     */
    public record Imported(
            String tenantId, Path file, int keys, Instant importedAt, boolean now, boolean changedSince) {}

    /**
     * @param url a PostgreSQL JDBC URL, credentials included; never logged
     * @param tenantsRoot where the tenants' {@code keys.yaml} files to import once are
     * @param safetyInterval how often everything is re-read even without a notification
     */
    public PostgresKeyStore(String url, Path tenantsRoot, Duration safetyInterval) {
        this.database = Database.postgres(url, null, null);
        this.tenantsRoot = tenantsRoot;
        this.safetyInterval = safetyInterval;
    }

    @Override
    public String describe() {
        return "postgresql";
    }

    /** Whether the listening connection is up: while it is not, changes arrive at the next catch-up. */
    @Override
    public boolean following() {
        return listening;
    }

    @Override
    public Map<String, List<KeyRecord>> readAll() throws IOException {
        Map<String, List<KeyRecord>> all = new LinkedHashMap<>();
        prepare();
        return use(() -> database.read(connection -> {
            try (Statement statement = connection.createStatement();
                    ResultSet rows =
                            statement.executeQuery("SELECT " + COLUMNS + " FROM keys ORDER BY tenant, created_at")) {
                while (rows.next()) {
                    KeyRecord record = record(rows);
                    all.computeIfAbsent(record.tenantId(), t -> new ArrayList<>())
                            .add(record);
                }
            }
            return all;
        }));
    }

    @Override
    public List<KeyRecord> read(String tenantId) throws IOException {
        prepare();
        return use(() -> database.read(connection -> {
            List<KeyRecord> records = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT " + COLUMNS + " FROM keys WHERE tenant = ? ORDER BY created_at")) {
                select.setString(1, tenantId);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        records.add(record(rows));
                    }
                }
            }
            return records;
        }));
    }

    @Override
    public void add(KeyRecord record) throws IOException {
        prepare();
        use(() -> database.write(connection -> {
            insert(connection, List.of(record), false);
            notifyChanged(connection, record.tenantId());
            return null;
        }));
    }

    @Override
    public boolean revoke(String tenantId, String keyId, Instant at) throws IOException {
        prepare();
        return use(() -> database.write(connection -> {
            int revoked;
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE keys SET revoked_at = ? WHERE tenant = ? AND id = ? AND revoked_at IS NULL")) {
                update.setObject(1, timestamp(at));
                update.setString(2, tenantId);
                update.setString(3, keyId);
                revoked = update.executeUpdate();
            }
            if (revoked > 0) {
                notifyChanged(connection, tenantId);
            }
            return revoked > 0;
        }));
    }

    /**
     * Starts the listener thread: {@code LISTEN}, then a catch-up re-read of everything, then the tenants named
     * by notifications as they come, everything again every safety interval; after a lost connection, a new one
     * every second, each followed by a catch-up.
     */
    @Override
    public synchronized void follow(Listener changes) {
        if (followed) {
            throw new IllegalStateException("already followed");
        }
        followed = true;
        database.listen(CHANNEL, LISTENER_NAME, new Database.ChannelListener() {
            private String lastProblem;
            private long nextSafety;

            @Override
            public void listening(boolean again) {
                listening = true;
                if (lastProblem != null) {
                    LOG.log(System.Logger.Level.INFO, "Listening for key changes in PostgreSQL again; catching up");
                    lastProblem = null;
                }
                changes.everythingMayHaveChanged();
                nextSafety = System.nanoTime() + safetyInterval.toNanos();
            }

            @Override
            public void heard(List<String> payloads) {
                new LinkedHashSet<>(payloads).forEach(changes::tenantChanged);
                long now = System.nanoTime();
                if (now - nextSafety >= 0) {
                    changes.everythingMayHaveChanged();
                    nextSafety = now + safetyInterval.toNanos();
                }
            }

            @Override
            public void lost(Exception cause) {
                listening = false;
                String problem = String.valueOf(cause.getMessage());
                if (!problem.equals(lastProblem)) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "Not listening for key changes in PostgreSQL (keeping the "
                                    + "keys known; retrying every second): " + problem);
                    lastProblem = problem;
                }
            }
        });
    }

    @Override
    public void close() {
        database.close();
    }

    /** At the first use: the tables made when missing and the key files imported; again until it succeeds. */
    private void prepare() throws IOException {
        if (prepared) {
            return;
        }
        synchronized (prepareLock) {
            if (prepared) {
                return;
            }
            use(() -> {
                database.migrate(COMPONENT, SCHEMA);
                return null;
            });
            for (Imported imported : importKeyFiles()) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        describe(imported) + " The file is " + mark(imported, database.description()) + ".");
            }
            prepared = true;
        }
    }

    /**
     * Imports each tenant's {@code keys.yaml} that was never imported, each tenant in one transaction; the
     * {@code keys_imported} row makes it once, whichever replica or command gets there first.
     */
    private List<Imported> importKeyFiles() throws IOException {
        List<Imported> outcomes = new ArrayList<>();
        if (!Files.isDirectory(tenantsRoot)) {
            return outcomes;
        }
        for (Path directory : TenantRegistry.tenantDirectories(tenantsRoot)) {
            KeysFile file = new KeysFile(directory);
            if (!Files.isRegularFile(file.path())) {
                continue;
            }
            String tenant = directory.getFileName().toString();
            String digest = file.digest();
            List<KeyRecord> records;
            try {
                records = file.read();
            } catch (IOException | RuntimeException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        file.path() + " cannot be read, so it is not imported into "
                                + "PostgreSQL (fix it and run any ./autocomplete keys command, or restart): "
                                + e.getMessage());
                continue;
            }
            outcomes.add(use(
                    () -> database.write(connection -> importOnce(connection, tenant, file.path(), digest, records))));
        }
        return outcomes;
    }

    /**
     * Imports a tenant's {@code keys.yaml} records in the caller's transaction, unless that tenant's file was
     * imported before (then reports that import); also used by {@code storage migrate}.
     */
    public static Imported importOnce(
            Connection connection, String tenant, Path file, String digest, List<KeyRecord> records)
            throws SQLException {
        Instant now = Instant.now();
        int claimed;
        try (PreparedStatement claim = connection.prepareStatement("INSERT INTO keys_imported (tenant, "
                + "file_digest, keys, imported_at) VALUES (?, ?, ?, ?) ON CONFLICT (tenant) DO NOTHING")) {
            claim.setString(1, tenant);
            claim.setString(2, digest);
            claim.setInt(3, records.size());
            claim.setObject(4, timestamp(now));
            claimed = claim.executeUpdate();
        }
        Imported imported;
        if (claimed == 1) {
            insert(connection, records, true);
            notifyChanged(connection, tenant);
            imported = new Imported(tenant, file, records.size(), now, true, false);
        } else {
            try (PreparedStatement earlier = connection.prepareStatement(
                    "SELECT file_digest, keys, imported_at FROM keys_imported WHERE tenant = ?")) {
                earlier.setString(1, tenant);
                try (ResultSet row = earlier.executeQuery()) {
                    row.next();
                    imported = new Imported(
                            tenant,
                            file,
                            row.getInt("keys"),
                            instant(row, "imported_at"),
                            false,
                            !row.getString("file_digest").equals(digest));
                }
            }
        }
        return imported;
    }

    /**
     * Writes where the file's keys went into the file ({@link KeysFile#markImported}), so that a keys command
     * without the storage URL refuses it instead of making keys no server reads.
     *
     * @return what an operator should know of it: that the file is marked, or why it could not be
     */
    public static String mark(Imported imported, String database) {
        try {
            new KeysFile(imported.file().getParent())
                    .markImported(database + " on "
                            + imported.importedAt().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
            return "marked imported_into, so keys commands without the storage URL refuse it";
        } catch (IOException e) {
            return "not marked as imported (" + e.getMessage() + "), so keys commands without the storage URL "
                    + "would still write it";
        }
    }

    /** The warning an import outcome is worth: the file is not read any more, whatever happened. */
    static String describe(Imported imported) {
        if (imported.now()) {
            return imported.file() + ": " + imported.keys() + " key(s) imported into PostgreSQL (storage.url). The "
                    + "file is no longer read: create, list and revoke keys with ./autocomplete keys, which use "
                    + "PostgreSQL too; you may delete the file.";
        }
        return imported.file() + " is no longer read: its keys were imported into PostgreSQL on "
                + imported.importedAt()
                + (imported.changedSince()
                        ? ", and it changed since; its changes are NOT merged: create or revoke those keys with "
                                + "./autocomplete keys."
                        : "; you may delete it.");
    }

    /** Inserts records; on import, a key already there (the same key in two files) stays as it is. */
    private static void insert(Connection connection, List<KeyRecord> records, boolean keepExisting)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO keys (" + COLUMNS + ") VALUES "
                + "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" + (keepExisting ? " ON CONFLICT (id) DO NOTHING" : ""))) {
            for (KeyRecord record : records) {
                KeyScope scope = record.scope();
                insert.setString(1, record.id());
                insert.setString(2, record.tenantId());
                insert.setString(3, record.type().wireName());
                insert.setObject(4, record.productId());
                insert.setString(5, record.digest());
                insert.setObject(6, timestamp(record.createdAt()));
                insert.setObject(7, timestamp(record.revokedAt()));
                insert.setObject(8, timestamp(scope.expiresAt()));
                insert.setArray(
                        9,
                        connection.createArrayOf(
                                "text",
                                scope.origins().stream()
                                        .map(OriginPattern::toString)
                                        .toArray()));
                insert.setBoolean(10, scope.allowNoOrigin());
                insert.setObject(11, scope.rate() == null ? null : scope.rate().perSecond(), Types.BIGINT);
                insert.setObject(12, scope.rate() == null ? null : scope.rate().burst(), Types.BIGINT);
                insert.setArray(
                        13,
                        scope.restricted()
                                ? connection.createArrayOf(
                                        "text", KeyUse.names(scope.uses()).toArray())
                                : null);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static void notifyChanged(Connection connection, String tenant) throws SQLException {
        try (PreparedStatement notify = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
            notify.setString(1, CHANNEL);
            notify.setString(2, tenant);
            notify.execute();
        }
    }

    private static KeyRecord record(ResultSet row) throws SQLException {
        List<OriginPattern> origins = new ArrayList<>();
        for (String origin : strings(row.getArray("origins"))) {
            origins.add(OriginPattern.parse(origin));
        }
        long perSecond = row.getLong("rate_per_second");
        RateLimit rate = row.wasNull() ? null : new RateLimit(perSecond, row.getLong("rate_burst"));
        Array uses = row.getArray("uses");
        KeyScope scope = new KeyScope(
                origins,
                row.getBoolean("allow_no_origin"),
                instant(row, "expires_at"),
                rate,
                uses == null ? KeyUse.ALL : KeyUse.parse(strings(uses)));
        return new KeyRecord(
                row.getString("id"),
                KeyType.fromWireName(row.getString("type")),
                row.getString("tenant"),
                row.getObject("product", UUID.class),
                row.getString("digest"),
                instant(row, "created_at"),
                instant(row, "revoked_at"),
                scope);
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : List.of((String[]) array.getArray());
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    /** Work on the database, whose failures this interface reports as {@link IOException}. */
    @FunctionalInterface
    private interface Use<T> {
        T run();
    }

    /** The database's messages name the host and port at most, never the URL's password. */
    private static <T> T use(Use<T> work) throws IOException {
        try {
            return work.run();
        } catch (StorageUnavailableException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
