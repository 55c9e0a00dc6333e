package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator replaces {@code engines/probe.jar} in place with a new build, five times, while requests keep
 * coming: each build serves its own bundled resource (the JDK caches open JAR files by URL, so loading from
 * the operator's file served the previous build's resources every second time), and no request fails.
 */
class EngineReplacementTest {

    @TempDir
    Path temp;

    @Test
    void five_in_place_replacements_of_an_engine_jar_each_serve_their_own_resources_under_load() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        Path probe = EngineIsolationTest.engineJar("autocomplete.test.libAEngineJar");
        Path first = EngineJarFiles.withEntry(
                probe, EngineJarFiles.PROBE_BUILD, "build-0", temp.resolve("builds/probe.jar"));
        EngineIsolationTest.addTenant(
                tenants, "alpha", first, "11111111-1111-4111-8111-111111111111", "library-probe", "");
        Path installed = tenants.resolve("alpha/engines/probe.jar");
        String key = TestTenants.createKey(tenants, "alpha", "public", "probe");

        try (AutocompleteServer server = TestServers.start(tenants);
                ExecutorService load = Executors.newFixedThreadPool(4)) {
            ApiClient api = new ApiClient(server.port());
            assertEquals("build build-0", build(api.suggest(key, envelope("Probe "))));
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger answered = new AtomicInteger();
            Queue<String> failures = new ConcurrentLinkedQueue<>();
            for (int i = 0; i < 4; i++) {
                load.submit(() -> {
                    while (running.get()) {
                        ApiClient.Reply reply = api.suggest(key, envelope("Probe "));
                        answered.incrementAndGet();
                        if (reply.status() != 200 || build(reply) == null) {
                            failures.add(reply.status() + " " + reply.raw());
                        }
                    }
                    return null;
                });
            }
            for (int generation = 1; generation <= 5; generation++) {
                String expected = "build build-" + generation;
                EngineJarFiles.withEntry(probe, EngineJarFiles.PROBE_BUILD, "build-" + generation, installed);
                HotReloadTest.await(
                        () -> expected.equals(build(api.suggest(key, envelope("Probe ")))),
                        "replacement " + generation + " serves its own resource");
                for (int i = 0; i < 20; i++) {
                    assertEquals(
                            expected,
                            build(api.suggest(key, envelope("Probe "))),
                            "replacement " + generation + ", request " + i + " after it went live");
                }
            }
            running.set(false);
            load.shutdown();
            assertTrue(load.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS));
            assertTrue(answered.get() > 20, "the load ran: " + answered.get() + " requests");
            assertEquals(List.of(), List.copyOf(failures));
        }
    }

    /** The probe's {@code build ...} option, or null when the answer has none. */
    private static String build(ApiClient.Reply reply) {
        if (reply.status() != 200) {
            return null;
        }
        return reply.options("probe").stream()
                .filter(o -> o.startsWith("build "))
                .findFirst()
                .orElse(null);
    }
}
