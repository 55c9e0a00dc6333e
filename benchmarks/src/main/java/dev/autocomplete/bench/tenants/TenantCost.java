package dev.autocomplete.bench.tenants;

import dev.autocomplete.bench.BenchTenants;
import dev.autocomplete.bench.SyntheticCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a tenant costs a server: heap, start-up time and idle CPU. Writes three tenants directories (one small
 * tenant; {@code small} small tenants; one small and {@code large} large ones), each tenant shaped like the demo
 * (a travel product over a places catalog plus inline options and the date engine, a workspace product over a
 * contacts catalog) with its own product ids and a public key made by the real command line; a small tenant's
 * places catalog has 200 options, a large one's 10,000 (distinct slices of the synthesized million). Each
 * directory is served by {@code java -Xmx... -jar server/target/autocomplete.jar serve} in its own process,
 * which is timed from its start until {@code /ready} answers 200, left idle (its CPU read from
 * {@code /proc/PID/stat}), and its live heap read with {@code jcmd PID GC.class_histogram} (a full GC first);
 * then every tenant gets three suggest requests and the live heap is read again. The cost of one tenant is the
 * difference to the one-tenant server, divided by the tenants added; the result is the median of the runs.
 * Usage: {@code TenantCost repoRoot [small] [large] [xmx] [idleSeconds] [runs]}. Linux only (/proc, jcmd).
 */
public final class TenantCost {

    static final int SMALL_PLACES = 200;
    static final int LARGE_PLACES = 10_000;
    private static final int CONTACTS = 50;
    private static final int SETTLE_SECONDS = 15;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern TOTAL = Pattern.compile("(?m)^Total\\s+(\\d+)\\s+(\\d+)\\s*$");
    private static final Pattern SERVING = Pattern.compile("Serving (\\d+) tenant");

    private TenantCost() {}

    /** One scenario: a tenants directory and how many small and large tenants it holds. */
    record Scenario(String name, int small, int large, Path tenants, Map<String, String> keys) {
        int count() {
            return small + large;
        }
    }

    /** What one server run measured. */
    record Measure(double readyMillis, long liveBytes, long touchedBytes, long rssBytes, double idleCpuShare) {}

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        int small = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int large = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        String xmx = args.length > 3 ? args[3] : "2g";
        int idleSeconds = args.length > 4 ? Integer.parseInt(args[4]) : 60;
        int runs = args.length > 5 ? Integer.parseInt(args[5]) : 3;
        Path jar = repo.resolve("server/target/autocomplete.jar");
        Path work = repo.resolve("benchmarks/target/tenant-cost");
        deleteTree(work);
        // Enough for distinct slices up to the synthesized million; past it, slices repeat (still separate copies).
        int wanted = Math.max(SMALL_PLACES * small, SMALL_PLACES + LARGE_PLACES * large) + LARGE_PLACES;
        List<SyntheticCatalog.Option> places =
                SyntheticCatalog.distinct(SyntheticCatalog.generate(repo, Math.min(wanted, 1_000_000)));
        List<Scenario> scenarios = List.of(
                write(work, "one", 1, 0, places),
                write(work, "small", small, 0, places),
                write(work, "large", 1, large, places));
        System.out.printf(
                Locale.ROOT,
                "%s; -Xmx%s; %d s idle; %d runs; load average %s%n",
                jar,
                xmx,
                idleSeconds,
                runs,
                loadAverage());

        Map<String, List<Measure>> measures = new LinkedHashMap<>();
        for (int run = 1; run <= runs; run++) {
            for (Scenario scenario : scenarios) {
                Measure m = serve(jar, xmx, scenario, work, idleSeconds);
                measures.computeIfAbsent(scenario.name(), k -> new ArrayList<>())
                        .add(m);
                System.out.printf(
                        Locale.ROOT,
                        "run %d, %s (%d tenants): ready in %.0f ms; live heap %.1f MB idle, "
                                + "%.1f MB after 3 requests a tenant; RSS %.0f MB; idle CPU %.2f%% of a core; load average %s%n",
                        run,
                        scenario.name(),
                        scenario.count(),
                        m.readyMillis(),
                        m.liveBytes() / 1e6,
                        m.touchedBytes() / 1e6,
                        m.rssBytes() / 1e6,
                        100 * m.idleCpuShare(),
                        loadAverage());
            }
        }

        Measure one = medians(measures.get("one"));
        Measure many = medians(measures.get("small"));
        Measure big = medians(measures.get("large"));
        System.out.printf(Locale.ROOT, "medians of %d runs:%n", runs);
        for (var entry : List.of(Map.entry("one", one), Map.entry("small", many), Map.entry("large", big))) {
            Measure m = entry.getValue();
            System.out.printf(
                    Locale.ROOT,
                    "  %-5s ready %.0f ms, live heap %.1f MB idle / %.1f MB touched, RSS %.0f MB,"
                            + " idle CPU %.2f%%%n",
                    entry.getKey(),
                    m.readyMillis(),
                    m.liveBytes() / 1e6,
                    m.touchedBytes() / 1e6,
                    m.rssBytes() / 1e6,
                    100 * m.idleCpuShare());
        }
        report("small tenant", SMALL_PLACES + CONTACTS, one, many, small - 1);
        report("large tenant", LARGE_PLACES + CONTACTS, one, big, large);
        if (large > 0) {
            double perOption = (double) (big.liveBytes() - one.liveBytes()) / large / (LARGE_PLACES + CONTACTS);
            System.out.printf(
                    Locale.ROOT,
                    "  large tenants' heap per catalog option, everything included: %.0f bytes%n",
                    perOption);
        }
    }

    private static void report(String kind, int options, Measure one, Measure many, int added) {
        if (added <= 0) {
            return;
        }
        double idle = (double) (many.liveBytes() - one.liveBytes()) / added;
        double touched = (double) (many.touchedBytes() - one.touchedBytes()) / added;
        double ready = (many.readyMillis() - one.readyMillis()) / added;
        System.out.printf(
                Locale.ROOT,
                "  per %s (%d catalog options): live heap %.1f KB idle (%.0f a GiB), %.1f KB "
                        + "touched (%.0f a GiB); start-up %.1f ms; idle CPU %.4f%% of a core%n",
                kind,
                options,
                idle / 1024,
                (1L << 30) / idle,
                touched / 1024,
                (1L << 30) / touched,
                ready,
                100 * (many.idleCpuShare() - one.idleCpuShare()) / added);
    }

    /** Writes the tenants of a scenario and a public key for each tenant's travel product. */
    private static Scenario write(Path work, String name, int small, int large, List<SyntheticCatalog.Option> places)
            throws IOException {
        Path tenants = work.resolve(name).resolve("tenants");
        Files.createDirectories(tenants);
        Map<String, String> keys = new LinkedHashMap<>();
        int from = 0;
        for (int i = 0; i < small + large; i++) {
            boolean isLarge = i >= small;
            String id = (isLarge ? "l" : "s") + String.format(Locale.ROOT, "%04d", i);
            int size = isLarge ? LARGE_PLACES : SMALL_PLACES;
            // Each tenant its own options, as real tenants have.
            List<SyntheticCatalog.Option> own = places.subList(from, from + size);
            from = (from + size) % (places.size() - LARGE_PLACES);
            writeTenant(tenants.resolve(id), id, own);
            keys.put(id, BenchTenants.createKey(tenants, id, "travel"));
        }
        return new Scenario(name, small, large, tenants, keys);
    }

    static void writeTenant(Path directory, String id, List<SyntheticCatalog.Option> places) throws IOException {
        Files.createDirectories(directory.resolve("data"));
        SyntheticCatalog.write(places, directory.resolve("data/places.csv"));
        StringBuilder contacts = new StringBuilder("text,weight\n");
        for (int c = 0; c < CONTACTS; c++) {
            contacts.append("Contact ")
                    .append(id)
                    .append('-')
                    .append(c)
                    .append(',')
                    .append(CONTACTS - c)
                    .append('\n');
        }
        Files.writeString(directory.resolve("data/contacts.csv"), contacts);
        Files.writeString(directory.resolve("tenant.yaml"), """
                display_name: Tenant %s
                default_product: travel
                catalogs:
                  places: {file: data/places.csv}
                  contacts: {file: data/contacts.csv}
                products:
                  - id: %s
                    slug: travel
                    prompt: Book a flight from
                    intents:
                      - name: book_flight
                        phrases: [Book a flight from, Book a flight, Fly from]
                        params:
                          - {type: origin, label: From, required: true, cues: [from], catalog: places}
                          - {type: destination, label: To, required: true, cues: [to], catalog: places}
                          - {type: date, label: Date, cues: [on], engine: date}
                          - {type: cabin, label: Cabin, cues: [in], options: [Economy, Premium economy, Business, First]}
                  - id: %s
                    slug: workspace
                    prompt: Create a
                    intents:
                      - name: create
                        phrases: [Create a, Create an, New]
                        params:
                          - {type: type, label: type, required: true, options: [email, automation, insight]}
                          - {type: contact, label: contact, required: true, cues: [to], catalog: contacts}
                          - {type: topic, label: topic, cues: [about], options: [Project update, Invoice, Weekly report]}
                """.formatted(
                        id, productId(id, "travel"), productId(id, "workspace")));
    }

    /** Product ids are unique across tenants (the server refuses a product id of two tenants). */
    private static UUID productId(String tenant, String slug) {
        return UUID.nameUUIDFromBytes((tenant + "/" + slug).getBytes(StandardCharsets.UTF_8));
    }

    private static Measure serve(Path jar, String xmx, Scenario scenario, Path work, int idleSeconds)
            throws IOException, InterruptedException {
        int port = freePort();
        Path data = work.resolve(scenario.name()).resolve("data");
        Path log = work.resolve(scenario.name()).resolve("server.log");
        ProcessBuilder builder = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + xmx,
                "-jar",
                jar.toString(),
                "serve",
                "--tenants",
                scenario.tenants().toString(),
                "--data-dir",
                data.toString(),
                "--port",
                Integer.toString(port),
                "--management-port",
                "0");
        builder.environment().put("AUTOCOMPLETE_SERVER_SHUTDOWN_GRACE_SECONDS", "1");
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        long start = System.nanoTime();
        Process process = builder.start();
        try {
            double ready = awaitReady(process, port, start);
            String out = Files.readString(log);
            Matcher serving = SERVING.matcher(out);
            if (!serving.find() || Integer.parseInt(serving.group(1)) != scenario.count() || out.contains("Skipped:")) {
                throw new IllegalStateException("not every tenant loaded; see " + log);
            }
            Thread.sleep(SETTLE_SECONDS * 1000L);
            long pid = process.pid();
            long before = cpuTicks(pid);
            Thread.sleep(idleSeconds * 1000L);
            long ticks = cpuTicks(pid) - before;
            double idleShare = ticks / (double) clockTicks() / idleSeconds;
            long live = liveHeap(pid, work.resolve(scenario.name()).resolve("histogram-idle.txt"));
            long rss = rss(pid);
            touch(port, scenario.keys());
            long touched = liveHeap(pid, work.resolve(scenario.name()).resolve("histogram-touched.txt"));
            return new Measure(ready, live, touched, rss, idleShare);
        } finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    private static double awaitReady(Process process, int port, long start) throws InterruptedException {
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ready"))
                .timeout(Duration.ofSeconds(5))
                .build();
        while (System.nanoTime() - start < TimeUnit.MINUTES.toNanos(10)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the server exited with " + process.exitValue());
            }
            try {
                if (HTTP.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return (System.nanoTime() - start) / 1e6;
                }
            } catch (IOException notYet) {
                // Not listening yet.
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("not ready after 10 minutes");
    }

    /** Three keystrokes on every tenant's travel product, as a user starting to type would send. */
    private static void touch(int port, Map<String, String> keys) throws IOException, InterruptedException {
        for (String key : keys.values()) {
            for (String raw : List.of("", "Pa", "Book a flight from Lo")) {
                String body = "{\"data\":{\"raw_query\":\"" + raw + "\"},\"meta\":{\"request_id\":\""
                        + UUID.randomUUID() + "\",\"request_at\":\"2026-11-22T10:15:30Z\"}}";
                HttpResponse<String> response = HTTP.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/suggest"))
                                .header("Authorization", "Bearer " + key)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    throw new IllegalStateException("HTTP " + response.statusCode() + ": " + response.body());
                }
            }
        }
    }

    /** Bytes of live objects after a full GC, from {@code jcmd PID GC.class_histogram}; the output is kept. */
    private static long liveHeap(long pid, Path keep) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process process = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.class_histogram")
                .redirectErrorStream(true)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        Files.writeString(
                keep,
                out.lines().limit(40).reduce("", (a, b) -> a + b + "\n")
                        + out.lines()
                                .filter(l -> l.startsWith("Total"))
                                .findFirst()
                                .orElse("") + "\n");
        Matcher total = TOTAL.matcher(out);
        if (!total.find()) {
            throw new IllegalStateException(
                    "no Total in jcmd's histogram: " + out.lines().limit(5).toList());
        }
        return Long.parseLong(total.group(2));
    }

    private static long cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // Fields after the command name, which may hold spaces, in parentheses.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static long clockTicks() throws IOException, InterruptedException {
        Process process = new ProcessBuilder("getconf", "CLK_TCK").start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        process.waitFor();
        return Long.parseLong(out);
    }

    private static long rss(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IllegalStateException("no VmRSS for " + pid);
    }

    private static String loadAverage() throws IOException {
        String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return parts[0] + " " + parts[1] + " " + parts[2];
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static Measure medians(List<Measure> runs) {
        return new Measure(
                median(runs.stream().map(Measure::readyMillis).toList()),
                (long) median(runs.stream().map(m -> (double) m.liveBytes()).toList()),
                (long) median(runs.stream().map(m -> (double) m.touchedBytes()).toList()),
                (long) median(runs.stream().map(m -> (double) m.rssBytes()).toList()),
                median(runs.stream().map(Measure::idleCpuShare).toList()));
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
