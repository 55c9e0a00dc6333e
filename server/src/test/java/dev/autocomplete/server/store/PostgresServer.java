package dev.autocomplete.server.store;

import dev.autocomplete.server.ProcessOutput;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A real PostgreSQL (Debian's {@code postgresql} package, installed by {@code scripts/ensure-postgres.sh}, which
 * {@code ./autocomplete test} calls) in a temporary directory, on 127.0.0.1 and a free port, with a password
 * (so that credentials go the way they do in production). When the tests run as root, the server runs as the
 * unprivileged {@code postgres} user (or {@code nobody}), which owns the directory: PostgreSQL refuses root.
 * Can be stopped and started again on the same port and data, for outage tests. Tests fail when PostgreSQL is
 * missing, unless {@code AUTOCOMPLETE_SKIP_POSTGRES_TESTS=1} asks to skip them.
 */
public final class PostgresServer implements AutoCloseable {

    public static final String USER = "autocomplete";
    public static final String PASSWORD = "test-only-password";

    private final Path bin;
    private final Path directory;
    private final Path data;
    private final int port;
    private final String runAs;
    private final AtomicInteger databases = new AtomicInteger();
    private final Deque<String> log = new ArrayDeque<>();
    private Process process;

    private PostgresServer(Path bin, Path directory, int port, String runAs) {
        this.bin = bin;
        this.directory = directory;
        this.data = directory.resolve("data");
        this.port = port;
        this.runAs = runAs;
    }

    /** Creates a new cluster in a temporary directory and starts it. */
    public static PostgresServer start() throws Exception {
        Assumptions.assumeFalse(
                "1".equals(System.getenv("AUTOCOMPLETE_SKIP_POSTGRES_TESTS")),
                "AUTOCOMPLETE_SKIP_POSTGRES_TESTS=1: PostgreSQL tests skipped on request");
        Path bin = binaries();
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String runAs = "root".equals(System.getProperty("user.name")) ? unprivilegedUser() : null;
        Path directory = Files.createTempDirectory("autocomplete-postgres");
        PostgresServer server = new PostgresServer(bin, directory, port, runAs);
        try {
            server.initialize();
            server.restart();
        } catch (Exception | AssertionError e) {
            server.close();
            throw e;
        }
        return server;
    }

    /** The newest {@code /usr/lib/postgresql/<version>/bin}, else the directory of {@code initdb} on the path. */
    private static Path binaries() throws IOException {
        Path debian = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(debian)) {
            try (Stream<Path> versions = Files.list(debian)) {
                Path newest = versions.map(v -> v.resolve("bin"))
                        .filter(b ->
                                Files.isExecutable(b.resolve("postgres")) && Files.isExecutable(b.resolve("initdb")))
                        .max(Comparator.comparingInt(
                                b -> versionOf(b.getParent().getFileName().toString())))
                        .orElse(null);
                if (newest != null) {
                    return newest;
                }
            }
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path initdb = Path.of(dir, "initdb");
            if (!dir.isEmpty() && Files.isExecutable(initdb) && Files.isExecutable(Path.of(dir, "postgres"))) {
                return initdb.toRealPath().getParent();
            }
        }
        throw new AssertionError("PostgreSQL (initdb, postgres) is not installed: run scripts/ensure-postgres.sh "
                + "(or apt-get install postgresql); ./autocomplete test does. Set AUTOCOMPLETE_SKIP_POSTGRES_TESTS=1 "
                + "to skip on purpose.");
    }

    private static int versionOf(String name) {
        return name.matches("[0-9]+") ? Integer.parseInt(name) : -1;
    }

    private static String unprivilegedUser() throws Exception {
        for (String user : List.of("postgres", "nobody")) {
            if (new ProcessBuilder("id", "-u", user).start().waitFor() == 0) {
                return user;
            }
        }
        throw new AssertionError(
                "running as root, and neither the postgres nor the nobody user exists to run " + "PostgreSQL as");
    }

    private void initialize() throws Exception {
        Path passwordFile = directory.resolve("password");
        Files.writeString(passwordFile, PASSWORD + "\n");
        if (runAs != null) {
            run(List.of("chown", "-R", runAs, directory.toString()), false);
        }
        run(
                List.of(
                        bin.resolve("initdb").toString(),
                        "-D",
                        data.toString(),
                        "-U",
                        USER,
                        "--pwfile=" + passwordFile,
                        "-A",
                        "scram-sha-256",
                        "-E",
                        "UTF8",
                        "--locale=C",
                        "--no-sync"),
                true);
    }

    /** Starts the server (again) on the same port and data. */
    public void restart() throws Exception {
        List<String> command = asUser(List.of(
                bin.resolve("postgres").toString(),
                "-D",
                data.toString(),
                "-h",
                "127.0.0.1",
                "-p",
                Integer.toString(port),
                "-k",
                directory.toString(),
                "-c",
                "max_connections=200",
                "-c",
                "shared_buffers=16MB"));
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .directory(directory.toFile())
                .start();
        CompletableFuture<Boolean> ready =
                ProcessOutput.watch(process, "database system is ready to accept connections", this::remember);
        if (!ready.get(30, TimeUnit.SECONDS)) {
            throw new AssertionError("postgres did not start on port " + port + ": " + recentLog());
        }
    }

    private synchronized void remember(String line) {
        log.addLast(line);
        if (log.size() > 40) {
            log.removeFirst();
        }
    }

    private synchronized String recentLog() {
        return String.join("\n", log);
    }

    /** The directory of this server's binaries, where its {@code pg_dump}, {@code pg_restore} and {@code psql} are. */
    public Path bin() {
        return bin;
    }

    public int port() {
        return port;
    }

    /** A JDBC URL of the {@code postgres} database, with the user and password in it. */
    public String url() {
        return url("postgres");
    }

    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=" + USER + "&password=" + PASSWORD;
    }

    /** A new empty database, so that tests sharing one server do not see each other's rows; its URL. */
    public String newDatabase() throws SQLException {
        String name = "test_" + databases.incrementAndGet();
        try (Connection connection = DriverManager.getConnection(url());
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        }
        return url(name);
    }

    /** Stops the server at once (open connections are cut), as an outage would; {@link #restart} brings it back. */
    public void stop() throws Exception {
        if (process != null && process.isAlive()) {
            run(
                    List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"),
                    true);
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    @Override
    public void close() throws Exception {
        try {
            stop();
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    private List<String> asUser(List<String> command) {
        if (runAs == null) {
            return command;
        }
        // setpriv execs the command itself (runuser would stay as its parent), so the process is postgres's own.
        List<String> wrapped =
                new ArrayList<>(List.of("setpriv", "--reuid=" + runAs, "--regid=" + runAs, "--init-groups", "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    private void run(List<String> command, boolean unprivileged) throws Exception {
        Process child = new ProcessBuilder(unprivileged ? asUser(command) : command)
                .redirectErrorStream(true)
                .directory(directory.toFile())
                .start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!child.waitFor(60, TimeUnit.SECONDS) || child.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed: " + output);
        }
    }
}
