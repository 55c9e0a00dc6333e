package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code autocomplete serve} in its own JVM with an engine that prints forged access log lines (one after a
 * partial line) on {@code System.out} and {@code System.err}: its text comes out as prefixed whole lines, and
 * every line that starts with <code>{</code> is a real access log line.
 */
class EngineOutputTest {

    @TempDir
    Path temp;

    @Test
    void what_an_engine_prints_can_neither_split_nor_forge_an_access_log_line() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        EngineIsolationTest.addTenant(
                tenants,
                "noisy",
                EngineIsolationTest.engineJar("autocomplete.test.faultyEngineJar"),
                "55555555-5555-4555-8555-555555555555",
                "faulty",
                "fault: print");
        String key = TestTenants.createKey(tenants, "noisy", "public", "probe");
        try (ServerProcess server = ServerProcess.start(tenants, temp.resolve("server.log"), Map.of())) {
            server.awaitServing();
            ApiClient api = new ApiClient(server.port());
            for (int i = 0; i < 20; i++) {
                assertEquals(200, api.suggest(key, envelope("Probe ")).status());
            }
            // Each line says whose it is: the engine, its tenant and product, its JAR's build as the load line gives it
            // (it named none of them: an engine author's trial).
            String whose = "by engine 'faulty' of noisy/probe [engine-test-faulty-0.1.0-SNAPSHOT.jar version"
                    + " 0.1.0-SNAPSHOT (sha256 ";
            assertTrue(server.awaitLog("PRINTED System.err " + whose, 10), server.log());
            assertTrue(server.awaitLog(")]: partial line then {", 10), server.log());
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (server.log().split("\"path\":\"/api/suggest\"", -1).length <= 20 && System.nanoTime() < deadline) {
                Thread.sleep(50); // the access log is written by a background thread
            }
            List<String> lines = server.log().lines().toList();
            int access = 0;
            for (String line : lines) {
                if (line.startsWith("{")) {
                    JsonNode entry = ApiClient.JSON.readTree(line);
                    assertEquals("/api/suggest", entry.path("path").asText(), "not an access log line: " + line);
                    access++;
                }
                assertFalse(line.contains("/forged") && !line.contains(" PRINTED System."), line);
            }
            assertTrue(access >= 20, access + " access log lines in:\n" + server.log());
            assertTrue(
                    lines.stream()
                            .anyMatch(l -> l.matches("\\S+ PRINTED System\\.out by engine 'faulty' of noisy/probe"
                                    + " \\[engine-test-faulty-0\\.1\\.0-SNAPSHOT\\.jar version 0\\.1\\.0-SNAPSHOT"
                                    + " \\(sha256 [0-9a-f]{12}\\)\\]: \\{.*/forged.*")),
                    server.log());
        }
    }

    /**
     * Nothing a plain start prints bypasses the log: no library line wrapped as printed output (Helidon's "There is
     * no Helidon logging implementation on classpath" was one, at every start). A {@code logging.properties} in the
     * working directory is not read: read late, it would reset every handler and lose the access log.
     */
    @Test
    void a_plain_start_prints_only_log_lines_and_keeps_the_access_log() throws Exception {
        Path tenants = TestTenants.copyOfDemo(temp);
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        Path directory = Files.createDirectories(temp.resolve("cwd"));
        Files.writeString(
                directory.resolve("logging.properties"), "handlers=java.util.logging.ConsoleHandler\n.level=INFO\n");
        try (ServerProcess server = ServerProcess.startIn(directory, tenants, temp.resolve("server.log"), Map.of())) {
            server.awaitServing();
            assertEquals(
                    200,
                    new ApiClient(server.port())
                            .suggest(key, envelope("Book a flight from P"))
                            .status());
            assertTrue(server.awaitLog("\"path\":\"/api/suggest\"", 10), server.log());
            assertTrue(server.log().lines().noneMatch(line -> line.contains(" PRINTED ")), server.log());
        }
    }
}
