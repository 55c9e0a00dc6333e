package dev.autocomplete.bench.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.bench.BenchTenants;
import dev.autocomplete.bench.SyntheticCatalog;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * End to end with {@code wrk} on loopback: a mixed keystroke workload (journeys of people typing an origin,
 * picking it, then typing a destination, over a million synthesized places) against the real server, and
 * the same bodies against a bare Helidon endpoint answering a canned body of the same size, in one run: both
 * warmed until the JIT is quiet, then full-speed rounds alternating between the two (throughput and the JVM's
 * CPU per request), then the real server at half its median throughput, three times, for latency.
 * With {@code nocache} the response cache is off, so every request reads the query and looks the catalog up.
 * Usage: {@code WrkBenchmark repoRoot [seconds] [connections] [rounds] [cache|nocache]}.
 */
public final class WrkBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern P50 = Pattern.compile("\\s50%\\s+([0-9.]+)(us|ms|s)");
    private static final Pattern P99 = Pattern.compile("\\s99%\\s+([0-9.]+)(us|ms|s)");

    private WrkBenchmark() {}

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int connections = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 5;
        boolean cached = args.length <= 4 || !args[4].equals("nocache");
        boolean events = args.length > 5 && args[5].equals("events");
        boolean control = args.length > 6 && args[6].equals("control");
        Path work = repo.resolve("benchmarks/target/wrk");
        Path tenant = work.resolve("tenants/bench");
        // Each run starts from an empty store: picks credited by an earlier `events` run would otherwise be learned
        // priors here, and every later run would read them.
        deleteTree(work.resolve("data"));
        Files.createDirectories(tenant.resolve("data"));
        // The catalog engine refuses two options that fold to one text.
        List<SyntheticCatalog.Option> places = SyntheticCatalog.distinct(SyntheticCatalog.generate(repo, 1_000_000));
        SyntheticCatalog.write(places, tenant.resolve("data/places.csv"));
        Files.writeString(tenant.resolve("tenant.yaml"), """
                display_name: Bench
                catalogs:
                  places: {file: data/places.csv}
                products:
                  - id: 7a1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61
                    slug: travel
                    # Cache misses of the cold engine must not time out on a busy 2-core machine.
                    engine_budget_ms: 2000
                    prompt: Book a flight from
                    intents:
                      - name: book_flight
                        phrases: [Book a flight from]
                        params:
                          - {type: origin, label: From, required: true, cues: [from], catalog: places}
                          - {type: destination, label: To, required: true, cues: [to], catalog: places}
                """);
        Files.deleteIfExists(tenant.resolve("keys.yaml"));
        String key = BenchTenants.createKey(work.resolve("tenants"), "bench", "travel");
        List<String> bodies = journeys(places, 400, new Random(11), events);
        Path script = work.resolve("keystrokes.lua");
        writeScript(script, bodies, key);

        ServerSettings settings = cached
                ? ServerSettings.defaults()
                : ServerSettings.read(null, Map.of(ServerSettings.environmentName("cache.max-entries"), "0"));
        if (events) {
            EventsMix.run(settings, work, script, bodies, key, seconds, connections, rounds, control);
            return;
        }
        try (AutocompleteServer server = AutocompleteServer.start(
                settings.with("127.0.0.1", 0, work.resolve("tenants")).withManagement("127.0.0.1", 0))) {
            byte[] typical = post(server.port(), key, bodies.get(bodies.size() / 2));
            System.out.printf(
                    Locale.ROOT,
                    "%d distinct request bodies; canned response %d bytes; response cache %s%n",
                    bodies.size(),
                    typical.length,
                    cached ? "on" : "off");
            // Fill the response cache one body at a time.
            for (String body : bodies) {
                post(server.port(), key, body);
            }
            try (BareServer baseline = new BareServer(typical)) {
                warm("server", server.port(), script, connections);
                warm("bare", baseline.port(), script, connections);
                // Rounds alternate between the two, so the machine's other load weighs on both alike.
                List<Double> serverRates = new ArrayList<>();
                List<Double> bareRates = new ArrayList<>();
                List<Double> ratios = new ArrayList<>();
                List<Double> cpuRatios = new ArrayList<>();
                List<Double> serverCpu = new ArrayList<>();
                for (int round = 1; round <= rounds; round++) {
                    Measure real = measure(server.port(), script, seconds, connections);
                    Measure bare = measure(baseline.port(), script, seconds, connections);
                    serverRates.add(real.rate());
                    bareRates.add(bare.rate());
                    ratios.add(real.rate() / bare.rate());
                    cpuRatios.add(real.cpuMicros() / bare.cpuMicros());
                    serverCpu.add(real.cpuMicros());
                    System.out.printf(
                            Locale.ROOT,
                            "round %d: server %.0f req/s (%.1f us CPU/request), bare %.0f req/s "
                                    + "(%.1f us CPU/request): %.1f%% of bare%n",
                            round,
                            real.rate(),
                            real.cpuMicros(),
                            bare.rate(),
                            bare.cpuMicros(),
                            100 * real.rate() / bare.rate());
                }
                double real = median(serverRates);
                // wrk paces a connection by whole milliseconds: use enough connections for a ~10 ms gap each.
                int paced = Math.max(connections, (int) Math.ceil(10 * (real / 2) / 1000));
                List<Double> p50s = new ArrayList<>();
                List<Double> p99s = new ArrayList<>();
                for (int round = 1; round <= 3; round++) {
                    String half = wrk(server.port(), script, seconds, paced, real / 2);
                    p50s.add(millis(P50, half));
                    p99s.add(millis(P99, half));
                    System.out.printf(
                            Locale.ROOT,
                            "half load %d (%.0f req/s offered over %d connections): %.0f req/s, "
                                    + "p50 %.2f ms, p99 %.2f ms%n",
                            round,
                            real / 2,
                            paced,
                            rate(half),
                            millis(P50, half),
                            millis(P99, half));
                }
                // A fallback (engine timeout, open circuit) is a cheap answer: a run with any is not a measure.
                double fallbacks = fallbacks(server.managementPort());
                if (fallbacks > 0) {
                    throw new IllegalStateException(fallbacks + " fallback answers: the engine timed out under load");
                }
                System.out.printf(
                        Locale.ROOT,
                        "medians of %d rounds: bare Helidon %.0f req/s, server %.0f req/s; "
                                + "server/bare per round: median %.1f%% (min %.1f%%, max %.1f%%); CPU per request server/bare: "
                                + "median %.2f%n",
                        rounds,
                        median(bareRates),
                        real,
                        100 * median(ratios),
                        100
                                * ratios.stream()
                                        .mapToDouble(Double::doubleValue)
                                        .min()
                                        .orElseThrow(),
                        100
                                * ratios.stream()
                                        .mapToDouble(Double::doubleValue)
                                        .max()
                                        .orElseThrow(),
                        median(cpuRatios));
                System.out.printf(
                        Locale.ROOT,
                        "server CPU per request: median %.1f us, so %.0f requests a second per "
                                + "core of the server's CPU%n",
                        median(serverCpu),
                        1e6 / median(serverCpu));
                System.out.printf(
                        Locale.ROOT, "half load: median p50 %.2f ms, median p99 %.2f ms%n", median(p50s), median(p99s));
            }
        }
    }

    /** A round's throughput and the JVM's CPU time per answered request, in microseconds. */
    record Measure(double rate, double cpuMicros) {}

    static Measure measure(int port, Path script, int seconds, int connections)
            throws IOException, InterruptedException {
        long cpuBefore = PROCESS.getProcessCpuTime();
        double rate = rate(wrk(port, script, seconds, connections, 0));
        long cpuNanos = PROCESS.getProcessCpuTime() - cpuBefore;
        return new Measure(rate, cpuNanos / 1000.0 / (rate * seconds));
    }

    /**
     * Runs wrk in 5 s rounds until the JIT compiler is quiet (under 150 ms of compilation in a round, after
     * at least three rounds): compiling the request path took up to a third of the CPU for a minute.
     */
    static void warm(String name, int port, Path script, int connections) throws IOException, InterruptedException {
        warm(name, port, script, connections, 0);
    }

    /** {@link #warm(String, int, Path, int)} with wrk paced to {@code offered} requests a second (0: as fast as it can). */
    static void warm(String name, int port, Path script, int connections, double offered)
            throws IOException, InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        for (int round = 1; round <= 24; round++) {
            long before = jit.getTotalCompilationTime();
            double rate = rate(wrk(port, script, 5, connections, offered));
            long compiling = jit.getTotalCompilationTime() - before;
            if (round >= 3 && compiling < 150) {
                System.out.printf(
                        Locale.ROOT,
                        "%s warmed up in %d rounds of 5 s (last: %.0f req/s, %d ms of JIT)%n",
                        name,
                        round,
                        rate,
                        compiling);
                return;
            }
        }
        System.out.printf(Locale.ROOT, "%s: the JIT was still compiling after 24 rounds of 5 s%n", name);
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** Journeys over the synthesized places: type an origin letter by letter, pick it, then a destination. */
    public static List<String> journeys(List<SyntheticCatalog.Option> places, int count, Random random) {
        return journeys(places, count, random, false);
    }

    /** The journeys; with {@code sessions}, each journey's requests carry a session id of its own, as clients send. */
    static List<String> journeys(List<SyntheticCatalog.Option> places, int count, Random random, boolean sessions) {
        List<String> bodies = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            String origin = places.get(random.nextInt(20_000)).text();
            String destination = places.get(random.nextInt(20_000)).text();
            String session = sessions
                    ? new UUID(
                                    random.nextLong() & ~0xF000L | 0x4000L,
                                    random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L)
                            .toString()
                    : null; // version 4
            bodies.add(body("", null, null, session));
            for (int i = 1; i <= Math.min(6, origin.length()); i++) {
                bodies.add(body(origin.substring(0, i), null, null, session));
            }
            for (int i = 1; i <= Math.min(6, destination.length()); i++) {
                bodies.add(body("{{ORIGIN_1}} " + destination.substring(0, i), "{{ORIGIN_1}}", origin, session));
            }
            bodies.add(body("{{ORIGIN_1}} to {{DESTINATION_1}}", "{{ORIGIN_1}}", origin, session));
        }
        return bodies;
    }

    private static String body(String raw, String token, String text, String session) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode data = body.putObject("data").put("raw_query", raw);
        var params = data.putArray("completed_params");
        if (token != null) {
            params.addObject().put("placeholder", token).put("type", "origin").put("text", text);
        }
        if (raw.contains("{{DESTINATION_1}}")) {
            params.addObject()
                    .put("placeholder", "{{DESTINATION_1}}")
                    .put("type", "destination")
                    .put("text", "Paris, FR");
        }
        ObjectNode meta = body.putObject("meta")
                .put("request_id", UUID.randomUUID().toString())
                .put("request_at", "2026-11-22T10:15:30Z")
                .put("language", "en-US");
        if (session != null) {
            meta.put("session_id", session);
        }
        return body.toString();
    }

    private static void writeScript(Path script, List<String> bodies, String key) throws IOException {
        writeScript(script, bodies, key, "/api/suggest");
    }

    /** A wrk script sending {@code bodies} in turn to {@code path}, each connection from a random place. */
    static void writeScript(Path script, List<String> bodies, String key, String path) throws IOException {
        StringBuilder lua = new StringBuilder();
        lua.append("-- Generated by WrkBenchmark: keystroke bodies, sent in turn by every connection.\n");
        lua.append("local bodies = {\n");
        for (String body : bodies) {
            lua.append("  [==[").append(body).append("]==],\n");
        }
        lua.append("}\n");
        lua.append("local headers = {[\"Content-Type\"] = \"application/json\", [\"Authorization\"] = \"Bearer ")
                .append(key)
                .append("\"}\n");
        lua.append("""
                local i = 0
                local gap = tonumber(os.getenv("WRK_DELAY_MS") or "0")
                local owed = 0
                setup = function(thread) thread:set("offset", math.random(#bodies)) end
                request = function()
                  i = i + 1
                  return wrk.format("POST", "PATH", headers, bodies[(i + (offset or 0)) % #bodies + 1])
                end
                -- wrk waits whole milliseconds: a fractional gap is paid as whole ones, the rest carried over
                delay = function() owed = owed + gap; local whole = math.floor(owed); owed = owed - whole; return whole end
                """.replace("PATH", path));
        Files.writeString(script, lua.toString());
    }

    /** Runs wrk; a positive {@code rate} paces every connection to offer that many requests per second. */
    static String wrk(int port, Path script, int seconds, int connections, double rate)
            throws IOException, InterruptedException {
        return wrkWithGap(port, script, seconds, connections, rate > 0 ? connections * 1000 / rate : 0);
    }

    /** Runs wrk; each connection waits {@code gapMillis} (fractional: carried over) after each answer. */
    static String wrkWithGap(int port, Path script, int seconds, int connections, double gapMillis)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(
                "wrk",
                "--latency",
                "-t2",
                "-c" + connections,
                "-d" + seconds + "s",
                "-s",
                script.toString(),
                "http://127.0.0.1:" + port + "/api/suggest");
        builder.environment().put("WRK_DELAY_MS", String.format(Locale.ROOT, "%.3f", Math.max(0, gapMillis)));
        builder.redirectErrorStream(true);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("wrk failed: " + out);
        }
        // Errors (a 429 from the rate limiter, say) are cheaper than answers: a run with any is not a measure.
        if (out.contains("Non-2xx or 3xx responses")) {
            throw new IllegalStateException("wrk saw error responses: " + out);
        }
        return out;
    }

    /** The CPU time the benchmark's process (the server's JVM) has used, in nanoseconds. */
    static long processCpuNanos() {
        return PROCESS.getProcessCpuTime();
    }

    static double rate(String wrkOutput) {
        Matcher m = RPS.matcher(wrkOutput);
        if (!m.find()) {
            throw new IllegalStateException("no Requests/sec in: " + wrkOutput);
        }
        return Double.parseDouble(m.group(1));
    }

    private static double millis(Pattern percentile, String wrkOutput) {
        Matcher m = percentile.matcher(wrkOutput);
        if (!m.find()) {
            throw new IllegalStateException("no latency percentile in: " + wrkOutput);
        }
        double value = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "us" -> value / 1000;
            case "s" -> value * 1000;
            default -> value;
        };
    }

    /** The sum of {@code autocomplete_fallbacks_total} at {@code /observe/metrics} (the management port). */
    private static double fallbacks(int port) throws IOException, InterruptedException {
        String metrics = HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/observe/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        return metrics.lines()
                .filter(line -> line.startsWith("autocomplete_fallbacks_total"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    static byte[] post(int port, String key, String body) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/suggest"))
                        .header("Authorization", "Bearer " + key)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    "HTTP " + response.statusCode() + ": " + new String(response.body(), StandardCharsets.UTF_8));
        }
        return response.body();
    }
}
