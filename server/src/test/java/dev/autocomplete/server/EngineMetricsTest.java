package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a plug-in engine (testing/engines/test-faulty, loaded from its JAR in a tenant's engines/) shows on the
 * management listener's {@code /observe/metrics} of a real server: the counters it publishes through its context,
 * with tenant and engine labels and the server's limits on them; and its calls and time by engine name, so that a
 * slow plug-in is blamed on itself (there, in the log and in health), never on the core's catalogs next to it.
 */
class EngineMetricsTest {

    /** A product whose {@code thing} the faulty engine serves, next to a {@code size} from a catalog. */
    private static final String YAML = """
            display_name: Faulty
            engines:
              faulty:
                cacheable: false
            %s
            catalogs:
              sizes: {file: data/sizes.csv}
            products:
              - id: 66666666-6666-4666-8666-666666666666
                slug: shop
                prompt: Find
                engine_budget_ms: 500
                circuit:
                  failures: 1000
                intents:
                  - name: find
                    phrases: [Find]
                    params:
                      - type: size
                        label: Size
                        catalog: sizes
                      - type: thing
                        label: Thing
                        cues: [a, an]
                        engine: faulty
            """;

    @TempDir
    Path temp;

    /** The demo tenants plus {@code faulty}, whose engine config gets {@code engineKeys} (indented under it). */
    private Path tenants(String engineKeys) throws Exception {
        return tenants(temp, engineKeys);
    }

    /** As above, under {@code base}: the tenants directory of {@link #YAML} with the faulty engine's JAR. */
    static Path tenants(Path base, String engineKeys) throws Exception {
        Path tenants = TestTenants.copyOfDemo(base);
        Path tenant = Files.createDirectories(tenants.resolve("faulty"));
        Files.createDirectories(tenant.resolve("engines"));
        Files.copy(
                EngineIsolationTest.engineJar("autocomplete.test.faultyEngineJar"),
                tenant.resolve("engines/engine-test-faulty.jar"));
        Files.createDirectories(tenant.resolve("data"));
        Files.writeString(tenant.resolve("data/sizes.csv"), "text,weight\nSmall,2\nLarge,1\n");
        Files.writeString(
                tenant.resolve("tenant.yaml"),
                YAML.formatted(engineKeys.indent(4).stripTrailing()));
        return tenants;
    }

    private static String metrics(AutocompleteServer server) {
        ApiClient.Reply reply = ApiClient.management(server.managementPort()).get("/observe/metrics");
        assertEquals(200, reply.status(), reply.raw());
        return reply.raw();
    }

    /** The value of the series named exactly {@code series} (name and labels), or -1 when it is absent. */
    static double value(String metrics, String series) {
        Matcher matcher =
                Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(metrics);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : -1;
    }

    @Test
    void counters_an_engine_publishes_are_on_metrics_with_its_tenant_and_engine() throws Exception {
        Path tenants = tenants("");
        String key = TestTenants.createKey(tenants, "faulty", "public", "shop");
        try (AutocompleteServer server = TestServers.start(tenants)) {
            assertTrue(
                    server.tenants().tenant("faulty").isPresent(),
                    server.tenants().problems().toString());
            String before = metrics(server);
            ApiClient api = new ApiClient(server.port());
            for (int i = 0; i < 3; i++) {
                assertEquals(200, api.suggest(key, envelope("Find Small a ")).status());
            }

            String text = metrics(server);
            String series = "autocomplete_engine_options_asked_total{engine=\"faulty\",tenant=\"faulty\"}";
            // Three requests, one options question each (and whatever the tenant's warm-up asked before).
            assertEquals(3, value(text, series) - value(before, series), text);
            assertTrue(
                    text.contains("# HELP autocomplete_engine_options_asked_total Option lists asked of the faulty"
                            + " engine"),
                    text);
            assertEquals(
                    3,
                    value(
                            text,
                            "autocomplete_engine_calls_total{engine=\"faulty\",outcome=\"ok\","
                                    + "product=\"shop\",tenant=\"faulty\"}"),
                    text);
        }
    }

    @Test
    void an_engine_gets_at_most_32_counters_and_only_well_formed_names() throws Exception {
        Path many = tenants("extra_counters: 32");
        TestTenants.Cli validate = TestTenants.cli("validate", "--tenants", many.toString());
        assertEquals(1, validate.exit(), validate.err());
        // The param that names the engine: its line in tenant.yaml.
        // Reported on the line of the param that names the engine.
        Pattern beyond = Pattern.compile("faulty/tenant\\.yaml:\\d+: products\\[0]\\.intents\\[0]\\.params\\[1]: "
                + "engine 'faulty' asked for counter 'extra_32' beyond its 32 counters");
        assertTrue(beyond.matcher(validate.err()).find(), validate.err());

        Map<String, String> why = Map.of(
                "Bad-Name",
                "must be lower-case letters",
                "calls",
                "is one of the server's own engine metrics",
                "hits_total",
                "must not end in '_total' (none of [_total, _created, _bucket, _info]; the server adds"
                        + " _total): name it 'hits'",
                "hits_info",
                "must not end in '_info'",
                "x".repeat(41),
                "must be lower-case letters");
        for (Map.Entry<String, String> each : why.entrySet()) {
            String name = each.getKey();
            Path bad = tenants(Files.createTempDirectory(temp, "bad"), "counter_name: '" + name + "'");
            TestTenants.Cli refused = TestTenants.cli("validate", "--tenants", bad.toString());
            assertEquals(1, refused.exit(), name + ": " + refused.err());
            assertTrue(refused.err().contains("counter name '" + name + "' " + each.getValue()), refused.err());
        }
    }

    @Test
    void a_slow_plugin_is_blamed_on_itself_in_metrics_logs_and_health_never_on_the_catalogs() throws Exception {
        Path tenants = tenants("");
        String key = TestTenants.createKey(tenants, "faulty", "public", "shop");
        try (CapturedLog log = CapturedLog.of(dev.autocomplete.server.engines.EngineRunner.class.getName());
                AutocompleteServer server = TestServers.start(tenants)) {
            ApiClient api = new ApiClient(server.port());
            for (int i = 0; i < 3; i++) {
                // 'slow' makes the faulty engine answer after 2 s: past the product's 500 ms budget.
                ApiClient.Reply reply = api.suggest(key, envelope("Find Large a slow"));
                assertEquals(200, reply.status(), reply.raw());
            }

            String text = metrics(server);
            assertEquals(
                    3,
                    value(
                            text,
                            "autocomplete_engine_calls_total{engine=\"faulty\",outcome=\"timeout\","
                                    + "product=\"shop\",tenant=\"faulty\"}"),
                    text);
            // The catalogs were asked too (the size first), and answered.
            assertEquals(
                    3,
                    value(
                            text,
                            "autocomplete_engine_calls_total{engine=\"catalogs\",outcome=\"ok\","
                                    + "product=\"shop\",tenant=\"faulty\"}"),
                    text);
            assertEquals(
                    -1,
                    value(
                            text,
                            "autocomplete_engine_calls_total{engine=\"catalogs\",outcome=\"timeout\","
                                    + "product=\"shop\",tenant=\"faulty\"}"),
                    text);
            assertEquals(
                    3,
                    value(
                            text,
                            "autocomplete_fallbacks_total{product=\"shop\",reason=\"timeout\"," + "tenant=\"faulty\"}"),
                    text);
            double slow = value(
                    text,
                    "autocomplete_engine_seconds_total{engine=\"faulty\",product=\"shop\"," + "tenant=\"faulty\"}");
            assertTrue(slow >= 3 * 0.4, "the faulty engine's time: " + slow + "\n" + text);
            double catalogs = value(
                    text,
                    "autocomplete_engine_seconds_total{engine=\"catalogs\",product=\"shop\"," + "tenant=\"faulty\"}");
            assertTrue(catalogs < 0.2, "the catalogs' time: " + catalogs + "\n" + text);

            JsonNode health = ApiClient.management(server.managementPort())
                    .get("/observe/health")
                    .json();
            String shown = health.toString();
            for (JsonNode check : health.path("checks")) {
                if (check.path("name").asText().equals("tenant:faulty")) {
                    JsonNode engines =
                            check.path("data").path("products").path("shop").path("engines");
                    assertEquals(
                            "closed", engines.path("catalogs").path("circuit").asText(), shown);
                    shown = null;
                }
            }
            assertFalse(shown != null, "no check of tenant faulty: " + health);

            List<String> timeouts = log.messages().stream()
                    .filter(line -> line.startsWith("Reading for faulty/shop"))
                    .toList();
            // Three timeouts, one line: at most one every 10 s (it was one a request, an engine author's trial found).
            assertEquals(1, timeouts.size(), log.messages().toString());
            for (String line : timeouts) {
                assertTrue(
                        line.matches("Reading for faulty/shop did not finish within 500 ms; blamed on engine faulty"
                                + " \\[engine-test-faulty\\.jar version 0\\.1\\.0-SNAPSHOT \\(sha256 [0-9a-f]{12}\\)\\]"
                                + " \\(catalogs [0-9.]+ ms, faulty [0-9.]+ ms\\)"),
                        line);
            }
        }
    }
}
