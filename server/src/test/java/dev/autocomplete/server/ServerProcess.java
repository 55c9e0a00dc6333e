package dev.autocomplete.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code autocomplete serve} in its own JVM, as an operator runs it, with its output (stdout and the log on
 * stderr) captured in a file.
 */
final class ServerProcess implements AutoCloseable {

    private static final Pattern SERVING = Pattern.compile("Serving .* on http://[^:]+:(\\d+)");
    private static final Pattern MANAGEMENT = Pattern.compile("Management .*: http://[^:]+:(\\d+)/observe/health");

    private final Process process;
    private final Path output;
    private int port;
    private int managementPort;

    private ServerProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /** Starts {@code serve --port 0 --management-port 0 --tenants DIR} plus {@code args}, without waiting for it. */
    static ServerProcess start(Path tenants, Path output, Map<String, String> env, String... args) {
        return startIn(null, tenants, output, env, args);
    }

    /** {@link #start} with {@code directory} (or null: this JVM's) as the working directory. */
    static ServerProcess startIn(Path directory, Path tenants, Path output, Map<String, String> env, String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(
                java,
                // sqlite-jdbc unpacks its native library here (the test's directory); a kill -9 leaves it behind.
                "-Dorg.sqlite.tmpdir=" + output.toAbsolutePath().getParent(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "serve",
                "--port",
                "0",
                "--management-port",
                "0",
                "--tenants",
                tenants.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        builder.environment().keySet().removeIf(name -> name.startsWith("AUTOCOMPLETE_"));
        builder.environment().putAll(env);
        try {
            return new ServerProcess(builder.start(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs another command ({@code keys create}, {@code catalog import}) in its own JVM with {@code env}, as an
     * operator's shell would, and returns what it printed (stdout then stderr); fails the test on a non-zero exit.
     */
    static String command(Map<String, String> env, String... args) throws IOException, InterruptedException {
        Exit exit = run(env, args);
        if (exit.code() != 0) {
            throw new AssertionError(String.join(" ", args) + " failed:\n" + exit.output());
        }
        return exit.output();
    }

    /** How a command ended: its exit code (-1 when it ran past 60 s) and its output. */
    record Exit(int code, String output) {}

    /** Runs a command as {@link #command} does, whatever its exit code. */
    static Exit run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command =
                new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        // Into a file, not a pipe: a command that never ends (serve) must not hold the test past its bound.
        Path output = Files.createTempFile("autocomplete-command", ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("AUTOCOMPLETE_"));
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            boolean ended = process.waitFor(60, TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor();
            }
            return new Exit(ended ? process.exitValue() : -1, Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** Waits until the server prints the address it serves on, and returns this. */
    ServerProcess awaitServing() throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            String log = log();
            Matcher matcher = SERVING.matcher(log);
            Matcher management = MANAGEMENT.matcher(log);
            if (matcher.find() && management.find()) {
                port = Integer.parseInt(matcher.group(1));
                managementPort = Integer.parseInt(management.group(1));
                return this;
            }
            if (!process.isAlive()) {
                throw new AssertionError("the server exited early:\n" + log());
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the server did not start within 60 s:\n" + log());
    }

    /** Waits up to {@code seconds} for the log to contain {@code text}. */
    boolean awaitLog(String text, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (log().contains(text)) {
                return true;
            }
            Thread.sleep(100);
        }
        return log().contains(text);
    }

    int port() {
        return port;
    }

    /** The port of {@code /observe/*}, as {@code serve} printed it. */
    int managementPort() {
        return managementPort;
    }

    /** Everything the process printed so far. */
    String log() {
        try {
            return Files.readString(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code kill -9}: the process gets no chance to finish anything. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("the server did not die within 30 s of SIGKILL");
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
