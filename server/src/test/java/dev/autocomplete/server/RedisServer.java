package dev.autocomplete.server;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real {@code redis-server} (the Debian package, installed by {@code scripts/ensure-redis.sh}, which
 * {@code .ci/run} calls) on 127.0.0.1 and a free port, without persistence. Tests fail when it is missing,
 * unless {@code AUTOCOMPLETE_SKIP_REDIS_TESTS=1} asks to skip them.
 */
final class RedisServer implements AutoCloseable {

    private final int port;
    private Process process;

    private RedisServer(int port) {
        this.port = port;
    }

    static RedisServer start() throws Exception {
        Assumptions.assumeFalse(
                "1".equals(System.getenv("AUTOCOMPLETE_SKIP_REDIS_TESTS")),
                "AUTOCOMPLETE_SKIP_REDIS_TESTS=1: Redis tests skipped on request");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        RedisServer redis = new RedisServer(port);
        redis.restart();
        return redis;
    }

    /** Starts the server (again) on the same port. */
    void restart() throws Exception {
        try {
            process = new ProcessBuilder(
                            "redis-server",
                            "--port",
                            Integer.toString(port),
                            "--bind",
                            "127.0.0.1",
                            "--save",
                            "",
                            "--appendonly",
                            "no")
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new AssertionError(
                    "redis-server is not installed: run scripts/ensure-redis.sh (or apt-get install "
                            + "redis-server); .ci/run does. Set AUTOCOMPLETE_SKIP_REDIS_TESTS=1 to skip on purpose.",
                    e);
        }
        CompletableFuture<Boolean> ready = ProcessOutput.watch(process, "Ready to accept connections", line -> {});
        if (!ready.get(20, TimeUnit.SECONDS)) {
            throw new AssertionError("redis-server did not start on port " + port);
        }
    }

    int port() {
        return port;
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** Kills the server, as a crash would. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            kill();
        }
    }
}
