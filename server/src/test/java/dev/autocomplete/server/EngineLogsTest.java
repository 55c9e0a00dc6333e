package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code autocomplete serve}, in its own JVM, logs about a plug-in engine (testing/engines/test-faulty, from
 * its JAR in the tenant's engines/): which build of each engine JAR a (re)load took, and its failures, the lines
 * it held back counted kind by kind.
 */
class EngineLogsTest {

    private static final String POM = "META-INF/maven/dev.autocomplete/engine-test-faulty/pom.properties";

    @TempDir
    Path temp;

    @Test
    void a_load_and_a_reload_log_each_engine_jars_name_and_version() throws Exception {
        Path tenants = EngineMetricsTest.tenants(temp, "");
        Path jar = tenants.resolve("faulty/engines/engine-test-faulty.jar");
        try (ServerProcess server = ServerProcess.start(tenants, temp.resolve("server.log"), Map.of())) {
            server.awaitServing();
            // As built: the version of the Maven pom.properties in the JAR.
            assertTrue(
                    server.awaitLog(
                            "Tenant loaded: faulty; engine JARs: engine-test-faulty.jar version " + "0.1.0-SNAPSHOT",
                            10),
                    server.log());

            // And its content's digest, which tells two builds of one version apart.
            String built = digestLogged(server.log());
            EngineJarFiles.withEntry(
                    jar, POM, "groupId=dev.autocomplete\nartifactId=engine-test-faulty\n" + "version=2.3.4\n", jar);
            assertTrue(
                    server.awaitLog("Tenant reloaded: faulty; engine JARs: engine-test-faulty.jar version 2.3.4", 30),
                    server.log());
            String rebuilt = digestLogged(server.log().substring(server.log().indexOf("version 2.3.4")));
            assertFalse(built.equals(rebuilt), built + " for two different JARs");

            EngineJarFiles.withEntry(jar, POM, "", jar);
            assertTrue(
                    server.awaitLog("Tenant reloaded: faulty; engine JARs: engine-test-faulty.jar version unknown", 30),
                    server.log());

            // A version is the JAR's text: a line break in it cannot forge a log line.
            EngineJarFiles.withEntry(jar, POM, "version=2.3.5\\nINFO Tenant loaded: forged\n", jar);
            assertTrue(
                    server.awaitLog("engine-test-faulty.jar version 2.3.5?INFO Tenant loaded: forged", 30),
                    server.log());
            assertFalse(
                    server.log().lines().anyMatch(line -> line.startsWith("INFO Tenant loaded: forged")), server.log());
        }
    }

    /** The first JAR digest logged in {@code log}: {@code (sha256 } and 12 hex digits. */
    private static String digestLogged(String log) {
        java.util.regex.Matcher digest =
                java.util.regex.Pattern.compile("\\(sha256 ([0-9a-f]{12})\\)").matcher(log);
        assertTrue(digest.find(), log);
        return digest.group(1);
    }

    @Test
    void the_failure_lines_an_engine_held_back_are_counted_as_errors_and_timeouts_apart() throws Exception {
        Path tenants = EngineMetricsTest.tenants(temp, "");
        String key = TestTenants.createKey(tenants, "faulty", "public", "shop");
        try (ServerProcess server = ServerProcess.start(tenants, temp.resolve("server.log"), Map.of())) {
            server.awaitServing();
            ApiClient api = new ApiClient(server.port());
            long first = System.nanoTime();
            // 'throw' makes the faulty engine throw; 'slow' makes it answer after the product's 500 ms budget.
            for (String typed : List.of("throw", "throw", "slow", "throw", "slow")) {
                assertEquals(200, api.suggest(key, envelope("Find a " + typed)).status());
            }
            // One failure line per engine every 10 s: the next one, after that, counts those held back.
            Thread.sleep(Math.max(0, 10_500 - (System.nanoTime() - first) / 1_000_000));
            assertEquals(200, api.suggest(key, envelope("Find a throw")).status());

            // Which build failed, as the load line names it (the failure lines did not: an engine author's trial).
            Pattern counted = Pattern.compile("Engine 'faulty' of faulty/shop \\[engine-test-faulty\\.jar version"
                    + " 0\\.1\\.0-SNAPSHOT \\(sha256 [0-9a-f]{12}\\)\\] failed in \\w+: threw "
                    + "java\\.lang\\.IllegalStateException at .* \\(held back since the last line: \\d+ errors and 2"
                    + " timeouts\\)");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!counted.matcher(server.log()).find() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(counted.matcher(server.log()).find(), server.log());
        }
    }
}
