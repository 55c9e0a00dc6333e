package dev.autocomplete.server.store;

import dev.autocomplete.server.config.DataDirectory;
import dev.autocomplete.server.config.ServerSettings;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.sqlite.SQLiteConfig;

/**
 * The server's durable state in one database: SQLite embedded in the data directory, or PostgreSQL shared by
 * replicas. Hands out transactions with {@link SQLException} turned into {@link StorageUnavailableException},
 * versions each component's schema, and tells subscribers when another process changed the database. The
 * catalog store and the key store are built on it. Thread-safe.
 *
 * <p>Writes are serialized: in SQLite by one writer connection and {@code BEGIN IMMEDIATE} (other processes wait up
 * to the busy timeout); in PostgreSQL by a transaction-scoped advisory lock, so that a change feed numbered by its
 * writers commits in the order of its numbers and a reader catching up never skips one still in flight.
 */
public final class Database implements AutoCloseable {

    /** The SQL flavours this speaks. */
    public enum Dialect {
        SQLITE,
        POSTGRES
    }

    /** Work done on one connection, inside a transaction for writes. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** What one listener on a PostgreSQL channel is told, on the listening thread (see {@link #listen}). */
    public interface ChannelListener {
        /** {@code LISTEN} is in place on a new connection; {@code again} after a lost one (notifications missed). */
        void listening(boolean again);

        /** Twice a second at most while listening: the payloads received meanwhile, in order; often none. */
        void heard(List<String> payloads);

        /** The listening connection failed, or could not be made; a new one is tried every second. */
        void lost(Exception cause);
    }

    private static final Logger LOG = Logger.getLogger(Database.class.getName());
    private static final String CHANNEL = "autocomplete_changes";
    /** The {@code application_name} of this server's connections, unless named otherwise. */
    private static final String APPLICATION_NAME = "autocomplete";
    /** The advisory lock every PostgreSQL write takes (an arbitrary constant: "autocomp" in ASCII). */
    private static final long WRITE_LOCK = 0x6175746F636F6D70L;

    private static final int SQLITE_BUSY_MILLIS = 10_000;
    /** SQLite's primary result codes for a full disk and a disk I/O error. */
    private static final int SQLITE_FULL = 13;

    private static final int SQLITE_IOERR = 10;
    private static final long DISK_WARNING_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** How often a listening connection is checked: a connection cut without a reset shows no error. */
    private static final long LIVENESS_CHECK_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** The SQLite file in the data directory. */
    public static final String SQLITE_FILE = "catalogs.db";

    private final Dialect dialect;
    private final String description;
    private final ConnectionPool writers;
    private final ConnectionPool readers;
    /** Opens a connection named for {@code pg_stat_activity} (PostgreSQL; SQLite ignores the name). */
    private final NamedOpener opener;
    /** Names this process's writes in PostgreSQL notifications, so that its own are not reported back to it. */
    private final String instance = UUID.randomUUID().toString();

    private final List<Runnable> subscribers = new CopyOnWriteArrayList<>();
    private final AtomicBoolean watching = new AtomicBoolean();
    private final CountDownLatch watchingSince = new CountDownLatch(1);
    private final List<Thread> watchers = new CopyOnWriteArrayList<>();
    private volatile boolean closed;
    /** When a failure of the disk was last logged (System.nanoTime), 0 for never; and those not logged since. */
    private final AtomicLong lastDiskWarning = new AtomicLong();

    private final AtomicInteger diskFailuresUnlogged = new AtomicInteger();

    @FunctionalInterface
    private interface NamedOpener {
        Connection open(String applicationName) throws SQLException;
    }

    private Database(
            Dialect dialect, String description, NamedOpener opener, ConnectionPool writers, ConnectionPool readers) {
        this.dialect = dialect;
        this.description = description;
        this.opener = opener;
        this.writers = writers;
        this.readers = readers;
    }

    /**
     * The database the settings name: PostgreSQL with {@code storage.url}, else SQLite in {@link #SQLITE_FILE} of the
     * data directory. Each call opens connections of its own.
     */
    public static Database of(ServerSettings settings) {
        return settings.storageUrl().isEmpty()
                ? sqlite(DataDirectory.create(settings.data()).resolve(SQLITE_FILE))
                : postgres(settings.storageUrl(), null, null);
    }

    /**
     * SQLite in {@code file} (created with its directory when missing): write-ahead log with {@code synchronous=FULL},
     * so that an acknowledged commit survives {@code kill -9} and, as far as SQLite goes, a power cut.
     */
    public static Database sqlite(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new StorageUnavailableException("cannot create the directory of " + file + ": " + e.getMessage(), e);
        }
        String url = "jdbc:sqlite:" + file.toAbsolutePath();
        ConnectionPool.Opener writer =
                () -> sqliteConfig(SQLiteConfig.TransactionMode.IMMEDIATE).createConnection(url);
        ConnectionPool.Opener reader =
                () -> sqliteConfig(SQLiteConfig.TransactionMode.DEFERRED).createConnection(url);
        String description = "SQLite " + file;
        // One writer connection: SQLite takes one writer at a time anyway, and this one never waits on itself.
        Database database = new Database(
                Dialect.SQLITE,
                description,
                name -> reader.open(),
                new ConnectionPool(description, writer, 1, false),
                new ConnectionPool(description, reader, 4, false));
        // Switches the file to WAL once (the mode is persistent) before readers open it.
        database.write(connection -> null);
        return database;
    }

    private static SQLiteConfig sqliteConfig(SQLiteConfig.TransactionMode mode) {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        config.setBusyTimeout(SQLITE_BUSY_MILLIS);
        config.setTransactionMode(mode);
        return config;
    }

    /**
     * PostgreSQL at a {@code jdbc:postgresql://host:port/database} URL; {@code user} and {@code password} may be
     * null when the URL carries them ({@code ?user=...&password=...}). Connections give up after two seconds, so a
     * write while PostgreSQL is unreachable fails fast; the password never appears in messages.
     */
    public static Database postgres(String url, String user, String password) {
        if (url.matches("(postgresql|postgres)://.*")) {
            // The libpq form most hosts hand out: user and password before the host, which pgjdbc does not read.
            URI uri = URI.create(url);
            String userInfo = uri.getRawUserInfo();
            if (userInfo != null) {
                String[] parts = userInfo.split(":", 2);
                user = decode(parts[0]);
                password = parts.length > 1 ? decode(parts[1]) : password;
            }
            url = "jdbc:postgresql://" + uri.getRawAuthority().replaceFirst("^.*@", "") + uri.getRawPath()
                    + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        }
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(
                    "storage.url must start with jdbc:postgresql:// (got " + redact(url) + ")");
        }
        Properties properties = new Properties();
        // Defaults only: parameters in the URL win.
        properties.setProperty("connectTimeout", "2");
        properties.setProperty("loginTimeout", "3");
        properties.setProperty("socketTimeout", "120");
        properties.setProperty("tcpKeepAlive", "true");
        // Batches of inserts go as multi-row statements: several times fewer round trips.
        properties.setProperty("reWriteBatchedInserts", "true");
        // The driver's messages would otherwise quote a failed statement with its values (a batch's error quotes
        // the whole statement): what people typed, stored for analytics, must not reach the logs through them.
        properties.setProperty("logServerErrorDetail", "false");
        if (user != null && !user.isEmpty()) {
            properties.setProperty("user", user);
        }
        if (password != null && !password.isEmpty()) {
            properties.setProperty("password", password);
        }
        String jdbcUrl = url;
        NamedOpener opener = name -> {
            Properties named = new Properties();
            named.putAll(properties);
            named.setProperty("ApplicationName", name);
            return DriverManager.getConnection(jdbcUrl, named);
        };
        String description = "PostgreSQL " + redact(url);
        // One pool for both: the advisory lock, not the pool, keeps writers apart.
        ConnectionPool pool = new ConnectionPool(description, () -> opener.open(APPLICATION_NAME), 8, true);
        return new Database(Dialect.POSTGRES, description, opener, pool, pool);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    /** The URL without its query (where a password may be) and without user information. */
    static String redact(String url) {
        String plain = url.replaceFirst("\\?.*$", "");
        try {
            URI uri = URI.create(plain.replaceFirst("^jdbc:", ""));
            if (uri.getHost() != null) {
                return "jdbc:" + uri.getScheme() + "://" + uri.getHost()
                        + (uri.getPort() < 0 ? "" : ":" + uri.getPort()) + (uri.getPath() == null ? "" : uri.getPath());
            }
        } catch (IllegalArgumentException ignored) {
            // Not a URI: the query is gone already.
        }
        return plain.replaceFirst("//[^@/]*@", "//");
    }

    public Dialect dialect() {
        return dialect;
    }

    /** Where the data is (no password), for logs and messages. */
    public String description() {
        return description;
    }

    /**
     * Runs {@code work} as one write transaction, serialized with every other write (see the class comment), and
     * commits; an exception rolls it back and is rethrown ({@link SQLException} as
     * {@link StorageUnavailableException}).
     */
    public <T> T write(Work<T> work) {
        return write(WRITE_LOCK, true, work);
    }

    private <T> T write(long lock, boolean announce, Work<T> work) {
        try {
            return transaction(lock, announce, work);
        } catch (StorageUnavailableException e) {
            warnOfDisk(e);
            throw e;
        }
    }

    /** One write transaction under advisory lock {@code lock}; {@code announce} notifies the change feed's listeners. */
    private <T> T transaction(long lock, boolean announce, Work<T> work) {
        return writers.use(connection -> inTransaction(connection, transaction -> {
            if (dialect == Dialect.POSTGRES) {
                try (PreparedStatement locked = transaction.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                    locked.setLong(1, lock);
                    locked.execute();
                }
            }
            T result = work.run(transaction);
            if (announce && dialect == Dialect.POSTGRES) {
                // Delivered to listeners only if, and when, the transaction commits.
                try (PreparedStatement notify = transaction.prepareStatement("SELECT pg_notify(?, ?)")) {
                    notify.setString(1, CHANNEL);
                    notify.setString(2, instance);
                    notify.execute();
                }
            }
            return result;
        }));
    }

    /**
     * Runs {@code work} as one write transaction that does not join the change feed: in PostgreSQL it takes its own
     * advisory lock {@code lock} (so catalog writes never wait for it, nor it for them) and notifies no one; in
     * SQLite it is one more write on the one writer connection. For state other than catalogs (learned picks).
     */
    public <T> T writeUnordered(long lock, Work<T> work) {
        return write(lock, false, work);
    }

    /**
     * Logs a write that failed for want of disk space or on a disk error (SQLite's {@code SQLITE_FULL} and
     * {@code SQLITE_IOERR}, PostgreSQL's {@code disk_full} and {@code io_error}): every write answers 503 until an
     * operator frees space, so it is said at once, at most once a minute (a full disk fails every write).
     */
    private void warnOfDisk(StorageUnavailableException failure) {
        String problem = null;
        for (Throwable cause = failure.getCause(); cause != null && problem == null; cause = cause.getCause()) {
            if (cause instanceof SQLException e) {
                problem = diskProblem(e);
            }
        }
        if (problem == null) {
            return;
        }
        long now = System.nanoTime();
        long last = lastDiskWarning.get();
        if (last != 0 && now - last < DISK_WARNING_NANOS || !lastDiskWarning.compareAndSet(last, now)) {
            diskFailuresUnlogged.incrementAndGet();
            return;
        }
        int unlogged = diskFailuresUnlogged.getAndSet(0);
        LOG.warning(description + ": a write failed: " + problem + " (" + failure.getMessage() + "). Writes of"
                + " catalogs and keys answer 503 STORAGE_UNAVAILABLE until there is room again"
                + (unlogged > 0 ? "; " + unlogged + " more such failures since the last warning" : ""));
    }

    /** What a failure says of the disk, or null when it says nothing of it. */
    private static String diskProblem(SQLException e) {
        if (e instanceof org.sqlite.SQLiteException sqlite) {
            int primary = sqlite.getErrorCode() & 0xff;
            if (primary == SQLITE_FULL) {
                return "the disk is full (" + sqlite.getResultCode().name() + ")";
            }
            if (primary == SQLITE_IOERR) {
                return "a disk I/O error (" + sqlite.getResultCode().name() + ")";
            }
            return null;
        }
        String state = e.getSQLState();
        if ("53100".equals(state)) {
            return "the disk is full (PostgreSQL disk_full, SQLSTATE 53100)";
        }
        if ("58030".equals(state)) {
            return "a disk I/O error (PostgreSQL io_error, SQLSTATE 58030)";
        }
        return null;
    }

    /**
     * Runs {@code work} on a connection that sees one consistent snapshot for each statement (PostgreSQL: inside a
     * transaction, so that large results stream with a fetch size rather than load at once).
     */
    public <T> T read(Work<T> work) {
        return readers.use(connection -> {
            if (dialect == Dialect.SQLITE) {
                connection.setAutoCommit(true);
                return work.run(connection);
            }
            return inTransaction(connection, work);
        });
    }

    private static <T> T inTransaction(Connection connection, Work<T> work) throws SQLException {
        connection.setAutoCommit(false);
        try {
            T result = work.run(connection);
            connection.commit();
            return result;
        } catch (SQLException | RuntimeException | Error e) {
            try {
                connection.rollback();
            } catch (SQLException ignored) {
                // The connection is likely gone; the pool drops it.
            }
            throw e;
        } finally {
            // sqlite-jdbc begins the next transaction right after a commit while auto-commit is off, and
            // BEGIN IMMEDIATE would then keep other processes from writing until this connection's next use.
            try {
                connection.setAutoCommit(true);
            } catch (SQLException ignored) {
                // Gone: the pool drops it.
            }
        }
    }

    /**
     * Brings {@code component}'s schema to the newest version: {@code versions.get(i)} holds the statements that
     * take it from version {@code i} to {@code i + 1}, run once, in one transaction with the version's record.
     *
     * @throws NewerSchemaException when the database holds a newer version than this server knows (nothing changed)
     */
    public void migrate(String component, List<List<String>> versions) {
        int before = write(connection -> migrate(connection, component, versions));
        if (before > 0 && before < versions.size()) {
            // Said once, when it happens: from now on an older binary refuses this store, which is the step an
            // operator planning a rollback needs to know about.
            LOG.warning(description + ": upgraded the '" + component + "' tables from schema version " + before
                    + " to " + versions.size() + "; an older autocomplete now refuses this store. To roll back, "
                    + "restore the backup taken before this upgrade (docs/deployment.md, Upgrading and rolling "
                    + "back).");
        }
    }

    /**
     * {@link #migrate(String, List)} inside the caller's transaction (as {@code storage migrate} does).
     *
     * @return the version the database held before (0 for none)
     */
    public int migrate(Connection connection, String component, List<List<String>> versions) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS schema_version (component TEXT PRIMARY KEY, "
                    + "version INTEGER NOT NULL)");
        }
        int current = schemaVersion(connection, component);
        if (current > versions.size()) {
            throw new NewerSchemaException(description, component, current, versions.size());
        }
        for (int version = current; version < versions.size(); version++) {
            try (Statement statement = connection.createStatement()) {
                for (String sql : versions.get(version)) {
                    statement.execute(sql);
                }
            }
        }
        if (current < versions.size()) {
            try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO schema_version (component, "
                    + "version) VALUES (?, ?) ON CONFLICT (component) DO UPDATE SET version = excluded.version")) {
                upsert.setString(1, component);
                upsert.setInt(2, versions.size());
                upsert.executeUpdate();
            }
        }
        return current;
    }

    /** The version of {@code component}'s schema the database holds; 0 when it holds none (or no versions at all). */
    public static int schemaVersion(Connection connection, String component) throws SQLException {
        if (!hasTable(connection, "schema_version")) {
            return 0;
        }
        try (PreparedStatement query =
                connection.prepareStatement("SELECT version FROM schema_version WHERE component = ?")) {
            query.setString(1, component);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? row.getInt(1) : 0;
            }
        }
    }

    /** Whether the database (PostgreSQL: the connection's current schema) has a table of that name. */
    public static boolean hasTable(Connection connection, String table) throws SQLException {
        try (ResultSet tables = connection.getMetaData().getTables(null, connection.getSchema(), table, null)) {
            while (tables.next()) {
                if (table.equals(tables.getString("TABLE_NAME"))) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Runs {@code work} in one read transaction: every statement sees the same snapshot, even while another process
     * writes (SQLite's write-ahead log keeps it for the reader). For copies of the whole store.
     */
    public <T> T snapshot(Work<T> work) {
        return readers.use(connection -> inTransaction(connection, work));
    }

    /**
     * Calls {@code subscriber} soon after another process commits a write, and after a lost connection to
     * PostgreSQL comes back (changes may have been missed meanwhile): the subscriber then reads what changed.
     * PostgreSQL: {@code LISTEN}, within a fraction of a second; SQLite (a command-line import beside a running
     * server): a look every second.
     */
    public void onExternalChange(Runnable subscriber) {
        subscribers.add(subscriber);
        if (watching.compareAndSet(false, true)) {
            if (dialect == Dialect.POSTGRES) {
                listen(CHANNEL, APPLICATION_NAME, new ChangeFeed());
            } else {
                watchers.add(Thread.ofVirtual().name("database-changes").start(this::poll));
            }
        }
        // Writes from here on are heard; when the database is down, the reconnection will call the subscriber.
        try {
            watchingSince.await(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void changed() {
        for (Runnable subscriber : subscribers) {
            try {
                subscriber.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a change subscriber failed", e);
            }
        }
    }

    /** Tells the subscribers of {@link #onExternalChange} of other processes' writes. */
    private final class ChangeFeed implements ChannelListener {
        private boolean lost;

        @Override
        public void listening(boolean again) {
            if (again) {
                LOG.info(description + " is reachable again; catching up on changes");
                changed();
            }
            lost = false;
            watchingSince.countDown();
        }

        @Override
        public void heard(List<String> payloads) {
            if (payloads.stream().anyMatch(payload -> !instance.equals(payload))) {
                changed();
            }
        }

        @Override
        public void lost(Exception cause) {
            if (!lost) {
                LOG.warning(description + " change feed lost (" + cause.getMessage() + "); retrying every second");
            }
            lost = true;
        }
    }

    /**
     * PostgreSQL: listens to {@code channel} on a dedicated connection named {@code applicationName} (to find it
     * in {@code pg_stat_activity}), on a thread of its own until {@link #close}; a connection lost, or found dead
     * by a check every five seconds, is opened again every second.
     */
    public void listen(String channel, String applicationName, ChannelListener listener) {
        if (dialect != Dialect.POSTGRES) {
            throw new IllegalStateException("only PostgreSQL has channels");
        }
        watchers.add(Thread.ofVirtual()
                .name("database-listener-" + channel)
                .start(() -> listen(channel, applicationName, listener, false)));
    }

    private void listen(String channel, String applicationName, ChannelListener listener, boolean again) {
        while (!closed) {
            try (Connection connection = opener.open(applicationName);
                    Statement statement = connection.createStatement()) {
                statement.execute("LISTEN " + channel);
                listener.listening(again);
                again = true;
                PGConnection notifications = connection.unwrap(PGConnection.class);
                long nextCheck = System.nanoTime() + LIVENESS_CHECK_NANOS;
                while (!closed) {
                    PGNotification[] received = notifications.getNotifications(500);
                    List<String> payloads = new ArrayList<>();
                    for (PGNotification notification : received == null ? new PGNotification[0] : received) {
                        payloads.add(notification.getParameter());
                    }
                    listener.heard(payloads);
                    if (System.nanoTime() - nextCheck >= 0) {
                        if (!connection.isValid(2)) {
                            throw new SQLException("the listening connection stopped answering");
                        }
                        nextCheck = System.nanoTime() + LIVENESS_CHECK_NANOS;
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (closed) {
                    return;
                }
                again = true;
                listener.lost(e);
                sleep(1000);
            }
        }
    }

    /** SQLite: {@code data_version} of the writer connection moves only when another connection commits. */
    private void poll() {
        Long last = null;
        while (!closed) {
            try {
                long version = writers.use(connection -> {
                    connection.setAutoCommit(true);
                    try (Statement statement = connection.createStatement();
                            ResultSet row = statement.executeQuery("PRAGMA data_version")) {
                        row.next();
                        return row.getLong(1);
                    }
                });
                if (last != null && version != last) {
                    changed();
                }
                last = version;
                watchingSince.countDown();
            } catch (StorageUnavailableException e) {
                if (closed) {
                    return;
                }
                LOG.log(Level.FINE, "polling " + description + " for changes failed", e);
            }
            sleep(1000);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Thread thread : watchers) {
            thread.interrupt();
            try {
                thread.join(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        writers.close();
        if (readers != writers) {
            readers.close();
        }
    }
}
