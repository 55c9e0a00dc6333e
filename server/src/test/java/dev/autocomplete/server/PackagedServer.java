package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged {@code autocomplete.jar} run as its own process, {@code java -jar autocomplete.jar serve ...}, in
 * a working directory; its output is collected line by line.
 */
final class PackagedServer implements AutoCloseable {

    private static final Pattern SERVING = Pattern.compile("^Serving .* on (http://\\S+)$");

    private final Process process;
    // Appended in constant time: a server under load prints thousands of access log lines a second, and a list
    // copied on each write fell seconds behind the process it reads.
    private final Queue<String> lines = new ConcurrentLinkedQueue<>();

    /** Copies the process's output into {@link #lines} until it ends. */
    private final Thread reader;

    private PackagedServer(Process process) {
        this.process = process;
        this.reader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader reader =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // The process ended.
            }
        });
    }

    /** The JAR the Maven build packaged. */
    static Path serverJar() {
        String path = System.getProperty("autocomplete.test.serverJar");
        assertTrue(
                path != null && Files.isRegularFile(Path.of(path)),
                "the server JAR must be packaged first; run the tests with 'mvn verify' (got " + path + ")");
        return Path.of(path);
    }

    /** Starts {@code java -jar <jar> args...} in {@code directory} with extra environment variables. */
    static PackagedServer start(Path directory, Path jar, Map<String, String> environment, String... args)
            throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new java.util.ArrayList<>(List.of(java, "-jar", jar.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
        builder.environment().putAll(environment);
        return new PackagedServer(builder.start());
    }

    /** The URL printed once serving; fails after 30 seconds. */
    String awaitUrl() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (String line : lines) {
                Matcher matcher = SERVING.matcher(line);
                if (matcher.matches()) {
                    return matcher.group(1);
                }
            }
            if (!process.isAlive()) {
                fail("the server exited with " + process.exitValue() + ":\n" + output());
            }
            Thread.sleep(50);
        }
        return fail("the server did not start within 30 s:\n" + output());
    }

    /** The demo public key printed for a product (printed right after the URL). */
    String demoKey(String slug) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            for (String line : lines) {
                if (line.startsWith("  " + slug + ": pk_v1_")) {
                    return line.substring(line.indexOf("pk_v1_"));
                }
            }
            Thread.sleep(25);
        }
        return fail("no demo key for " + slug + ":\n" + output());
    }

    int port(String url) {
        return Integer.parseInt(url.substring(url.lastIndexOf(':') + 1));
    }

    /** Sends SIGTERM. */
    void terminate() {
        // Through the process's handle: Process.destroy also closes the pipes, and the output the server writes
        // while it stops (its last access log lines, that it stopped) would be lost.
        process.toHandle().destroy();
    }

    /** Waits for the process to end; returns its exit code. */
    int awaitExit(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("the server did not stop within " + seconds + " s:\n" + output());
        }
        reader.join(10_000); // the output's last lines, still in the pipe when the process ended
        return process.exitValue();
    }

    String output() {
        return String.join("\n", lines);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
