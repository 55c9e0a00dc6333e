package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM to a real server process while requests run: the requests it accepted are all answered (slow ones
 * included), it stops accepting new connections, closes its engines and exits.
 */
class GracefulShutdownTest {

    @TempDir
    Path temp;

    @Test
    void sigterm_during_load_answers_every_accepted_request_then_closes_engines_and_exits() throws Exception {
        Path jar = Files.copy(PackagedServer.serverJar(), temp.resolve("autocomplete.jar"));
        Path tenants = TestTenants.copyOfDemo(temp);
        Path engines = Files.createDirectories(tenants.resolve("slow/engines"));
        Files.copy(EngineIsolationTest.engineJar("autocomplete.test.faultyEngineJar"), engines.resolve("faulty.jar"));
        Files.writeString(tenants.resolve("slow/tenant.yaml"), """
                display_name: Slow
                products:
                  - id: 66666666-6666-4666-8666-666666666666
                    slug: slow
                    engine_budget_ms: 9000
                    prompt: Find
                    intents:
                      - name: find
                        phrases: [Find]
                        params:
                          - type: thing
                            required: true
                            engine: faulty
                """);
        String slowKey = TestTenants.createKey(tenants, "slow", "public", "slow");
        try (PackagedServer server = PackagedServer.start(
                        temp,
                        jar,
                        Map.of("AUTOCOMPLETE_SERVER_SHUTDOWN_GRACE_SECONDS", "8"),
                        "serve",
                        "--port",
                        "0",
                        "--management-port",
                        "0");
                ExecutorService pool = Executors.newFixedThreadPool(24)) {
            int port = server.port(server.awaitUrl());
            ApiClient api = new ApiClient(port);
            String travelKey = server.demoKey("travel");
            assertEquals(
                    200,
                    api.suggest(travelKey, envelope("Book a flight from Par")).status());
            assertEquals(200, api.suggest(slowKey, envelope("Find ")).status());

            // Load: fast requests back to back on 8 connections until the signal; each one sent before it
            // must be answered: 200 (or 429 past the demo key's rate), or 503 SHUTTING_DOWN after the signal.
            AtomicBoolean loading = new AtomicBoolean(true);
            AtomicInteger answered = new AtomicInteger();
            List<Future<?>> load = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                load.add(pool.submit(() -> {
                    ApiClient client = new ApiClient(port);
                    while (loading.get()) {
                        ApiClient.Reply reply = client.suggest(travelKey, envelope("Fly from Lon"));
                        if (reply.status() == 503) {
                            assertEquals("SHUTTING_DOWN", reply.errorCode(), reply.raw());
                        } else if (reply.status() == 429) {
                            // The demo key's own limit (20/s): answered, just refused; cached answers are fast.
                            assertEquals("RATE_LIMITED", reply.errorCode(), reply.raw());
                        } else {
                            assertEquals(200, reply.status(), reply.raw());
                            answered.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            // Slow requests (two seconds in each of their two engine calls, a span match then options), all
            // inside the engine when the signal comes: each marks its first call, two seconds before its second.
            List<Future<ApiClient.Reply>> slow = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                slow.add(pool.submit(() -> api.suggest(slowKey, envelope("Find slow"))));
            }
            Path started = tenants.resolve("slow/.slow-slow");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!(Files.exists(started) && Files.readAllLines(started).size() >= 10)) {
                assertTrue(System.nanoTime() < deadline, "the slow requests did not reach the engine");
                Thread.sleep(20);
            }
            long signalled = System.nanoTime();
            loading.set(false);
            server.terminate();
            for (Future<ApiClient.Reply> reply : slow) {
                ApiClient.Reply r = reply.get();
                assertEquals(200, r.status(), r.raw());
                // The engine's own answer (its param, active: no fruit is called "slow"), not the fallback.
                assertEquals(List.of("thing"), r.suggestionTypes(), r.raw());
            }
            for (Future<?> client : load) {
                client.get();
            }
            int exit = server.awaitExit(20);
            long millis = (System.nanoTime() - signalled) / 1_000_000;
            assertTrue(answered.get() > 0, "no load was answered");
            assertEquals(143, exit, server.output());
            assertTrue(millis < 15_000, "shutdown took " + millis + " ms");
            assertTrue(Files.exists(tenants.resolve("slow/.closed-slow")), "the engine was not closed");
            // The operator's log says the stop began and ended.
            String output = server.output();
            assertTrue(output.contains("Stopping: new requests get 503 SHUTTING_DOWN"), output);
            assertTrue(output.matches("(?s).*Stopped in \\d+ ms.*"), output);
            try {
                api.suggest(travelKey, envelope(""));
                throw new AssertionError("the stopped server still answered");
            } catch (java.io.UncheckedIOException e) {
                assertTrue(refused(e), e.toString());
            }
        }
    }

    /** Whether a failure is a connection the server refused (it no longer accepts), not a dropped request. */
    private static boolean refused(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }
}
