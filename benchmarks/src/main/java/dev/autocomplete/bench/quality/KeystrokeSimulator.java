package dev.autocomplete.bench.quality;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.bench.BenchTenants;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The quality benchmark: simulated users of the official client type target queries on the demo products
 * against a real server on loopback, and the report gives keystroke saving, success@1/@5 per param and
 * the ready share, without and with one typo per word of 4+ letters.
 *
 * <p>Usage: {@code KeystrokeSimulator [repoRoot] [seed]} (see docs/benchmarks.md).
 */
public final class KeystrokeSimulator {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int TRAVEL_QUERIES = 150;
    private static final int WORKSPACE_QUERIES = 100;
    private static final int TAP_WITHIN = 5;
    /** The baseline shows as many options as the demo products do (the default max_options). */
    private static final int BASELINE_OPTIONS = 10;

    /** Totals for one group (a product, or all). */
    static final class Tally {
        long characters;
        long actions;
        int queries;
        int readyWithIntended;
        final Map<String, int[]> perParam = new LinkedHashMap<>(); // type -> {count, success@1, success@5}
        /** Per param type: characters of its values, and the keys and taps spent on them (with the space before). */
        final Map<String, long[]> keysPerParam = new LinkedHashMap<>();

        final List<String> misses = new ArrayList<>();

        void add(Tally other) {
            characters += other.characters;
            actions += other.actions;
            queries += other.queries;
            readyWithIntended += other.readyWithIntended;
            misses.addAll(other.misses);
            other.perParam.forEach((type, counts) -> {
                int[] mine = perParam.computeIfAbsent(type, t -> new int[3]);
                for (int i = 0; i < 3; i++) {
                    mine[i] += counts[i];
                }
            });
            other.keysPerParam.forEach((type, keys) -> {
                long[] mine = keysPerParam.computeIfAbsent(type, t -> new long[2]);
                mine[0] += keys[0];
                mine[1] += keys[1];
            });
        }

        /** The keystroke saving of one param type's values alone. */
        double saving(String type) {
            long[] keys = keysPerParam.getOrDefault(type, new long[2]);
            return 1.0 - (double) keys[1] / keys[0];
        }

        double saving() {
            return 1.0 - (double) actions / characters;
        }

        double readyShare() {
            return (double) readyWithIntended / queries;
        }

        double successAt(int index) {
            int count = 0;
            int hits = 0;
            for (int[] c : perParam.values()) {
                count += c[0];
                hits += c[index];
            }
            return (double) hits / count;
        }
    }

    private KeystrokeSimulator() {}

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        if (args.length > 1 && (args[1].equals("learn") || args[1].equals("day"))) {
            boolean agreed = LearningSimulation.run(
                    repo, args.length > 2 ? Long.parseLong(args[2]) : 42L, args[1].equals("day"));
            if (!agreed) {
                System.exit(1);
            }
            return;
        }
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 42L;
        Path temp = Files.createTempDirectory("autocomplete-sim");
        try {
            Path tenants = temp.resolve("tenants");
            copyTree(repo.resolve("tenants/demo"), tenants.resolve("demo"));
            Files.deleteIfExists(tenants.resolve("demo/keys.yaml"));
            // A simulated user sends a request per keystroke, with no pause: lift the key's rate limit.
            Map<String, String> keys = Map.of(
                    "travel",
                    BenchTenants.createKey(tenants, "demo", "travel"),
                    "workspace",
                    BenchTenants.createKey(tenants, "demo", "workspace"));
            List<TargetQueries.Target> targets =
                    TargetQueries.generate(repo.resolve("tenants/demo"), TRAVEL_QUERIES, WORKSPACE_QUERIES, seed);
            PrefixBaseline baseline = new PrefixBaseline(tenants.resolve("demo"), BASELINE_OPTIONS);
            try (AutocompleteServer server = AutocompleteServer.start(
                    ServerSettings.defaults().with("127.0.0.1", 0, tenants).withManagement("127.0.0.1", 0))) {
                HttpClient http = HttpClient.newHttpClient();
                System.out.printf(
                        Locale.ROOT,
                        "Keystroke simulator: %d target queries (%d travel, %d workspace), " + "seed %d%n%n",
                        targets.size(),
                        TRAVEL_QUERIES,
                        WORKSPACE_QUERIES,
                        seed);
                Map<String, Map<String, Tally>> runs = new LinkedHashMap<>();
                String trace = System.getProperty("bench.trace", "");
                for (boolean typos : new boolean[] {false, true}) {
                    for (Run run : Run.values()) {
                        Random typoRandom = new Random(seed + 1);
                        Map<String, Tally> byProduct = new LinkedHashMap<>();
                        for (TargetQueries.Target target : targets) {
                            Function<ObjectNode, JsonNode> transport =
                                    body -> post(http, server.port(), keys.get(target.product()), body);
                            if (run == Run.BASELINE) {
                                transport = baseline.around(target.product(), transport);
                            }
                            Tally tally = byProduct.computeIfAbsent(target.product(), p -> new Tally());
                            SimulatedClient client = new SimulatedClient(transport, run.client);
                            if (!trace.isEmpty() && target.toString().contains(trace)) {
                                System.out.printf(
                                        Locale.ROOT,
                                        "trace (%s, %s): %s%n",
                                        run.title,
                                        typos ? "typos" : "no typos",
                                        target);
                                client.trace();
                            }
                            simulate(target, client, typos ? typoRandom : null, tally);
                        }
                        String title =
                                (typos ? "With one typo per word of 4+ letters" : "Without typos") + ", " + run.title;
                        report(title, byProduct);
                        runs.put(title, byProduct);
                    }
                }
                summary(runs);
            }
        } finally {
            deleteTree(temp);
        }
    }

    /** The simulated clients, and the official one against the baseline's matching. */
    private enum Run {
        OFFICIAL(SimulatedClient.Kind.OFFICIAL, "official client (gated, echoes)"),
        EVERY_KEYSTROKE(SimulatedClient.Kind.EVERY_KEYSTROKE, "client asking at every keystroke, no echoes"),
        BASELINE(SimulatedClient.Kind.OFFICIAL, "official client, baseline (plain prefix match by population)");

        final SimulatedClient.Kind client;
        final String title;

        Run(SimulatedClient.Kind client, String title) {
            this.client = client;
            this.title = title;
        }
    }

    /** One simulated user typing one target query; adds its counts to {@code tally}. */
    static void simulate(TargetQueries.Target target, SimulatedClient client, Random typos, Tally tally) {
        client.open();
        List<String> missed = new ArrayList<>();
        List<TargetQueries.Value> typedOut = new ArrayList<>();
        for (TargetQueries.Value value : target.values()) {
            String typed = typos == null ? value.text() : TargetQueries.withTypos(value.text(), typos);
            tally.characters += value.text().length();
            int[] counts = tally.perParam.computeIfAbsent(value.type(), t -> new int[3]);
            counts[0]++;
            long actionsBefore = tally.actions;
            int bestRank = Integer.MAX_VALUE;
            if (!client.text().isEmpty() && !client.text().endsWith(" ")) {
                client.type(' ');
                tally.actions++;
            }
            client.beginValue();
            int next = 0;
            int before = client.completed().size();
            String wrongPromotion = null;
            while (true) {
                if (typedInFull(client, value)) {
                    bestRank = 0; // typed out in full: promoted by the client, or read as completed by the server
                    break;
                }
                if (client.kind() == SimulatedClient.Kind.OFFICIAL
                        && client.completed().size() > before) {
                    // The official client promoted another option (typing "Bo" on the way to "Borivli"): the user
                    // removes the pill and types the rest; the value is a miss.
                    tally.actions += 1 + typed.length() - next;
                    wrongPromotion = client.completed().getLast().text();
                    break;
                }
                List<SimulatedClient.Option> visible =
                        value.type().equals(client.activeType()) ? client.visibleOptions() : List.of();
                int rank = rankOf(visible, value.text());
                bestRank = Math.min(bestRank, rank);
                if (rank < TAP_WITHIN) {
                    client.tap(visible.get(rank));
                    tally.actions++;
                    break;
                }
                if (next >= typed.length()) {
                    break;
                }
                client.type(typed.charAt(next++));
                tally.actions++;
            }
            long[] keys = tally.keysPerParam.computeIfAbsent(value.type(), t -> new long[2]);
            keys[0] += value.text().length();
            keys[1] += tally.actions - actionsBefore;
            if (wrongPromotion != null) {
                missed.add(value.type() + ": the client promoted '" + wrongPromotion + "'");
            } else if (bestRank >= TAP_WITHIN && next == typed.length()) {
                typedOut.add(value); // typed out in full: a success if the final answer reads it as completed
            } else if (bestRank >= TAP_WITHIN) {
                missed.add(value.type() + " '" + typed + "' not in the first " + TAP_WITHIN);
            }
            if (bestRank < 1) {
                counts[1]++;
            }
            if (bestRank < TAP_WITHIN) {
                counts[2]++;
            }
        }
        boolean ready = client.check();
        for (TargetQueries.Value value : typedOut) {
            if (settled(client, value)) {
                int[] counts = tally.perParam.get(value.type());
                counts[1]++;
                counts[2]++;
            } else {
                missed.add(value.type() + " '" + value.text() + "' typed out, not in the first " + TAP_WITHIN
                        + ", not read as completed");
            }
        }
        boolean intended = target.values().stream().allMatch(v -> settled(client, v));
        tally.queries++;
        if (ready && intended) {
            tally.readyWithIntended++;
        } else {
            missed.add((ready ? "ready" : "not ready") + (intended ? "" : ", intended values not all completed")
                    + ": completed " + client.settled());
        }
        if (!missed.isEmpty()) {
            tally.misses.add(target + ": " + String.join("; ", missed));
        }
    }

    /**
     * Whether the value is now held as completed without a tap: the official client promotes an option typed
     * out in full itself; the other client relies on the server reading it as a completed identified param.
     */
    private static boolean typedInFull(SimulatedClient client, TargetQueries.Value value) {
        return client.completed().stream()
                .anyMatch(p -> p.type().equals(value.type()) && p.text().equalsIgnoreCase(value.text()));
    }

    /** Whether the value is a pill, or an identified param the last answer read as completed. */
    private static boolean settled(SimulatedClient client, TargetQueries.Value value) {
        return client.settled().stream()
                .anyMatch(p -> p.type().equals(value.type()) && p.text().equalsIgnoreCase(value.text()));
    }

    private static int rankOf(List<SimulatedClient.Option> options, String text) {
        for (int i = 0; i < options.size(); i++) {
            if (options.get(i).tappable() && options.get(i).text().equals(text)) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }

    /** Prints one run's tables. */
    private static void report(String title, Map<String, Tally> byProduct) {
        Tally all = new Tally();
        byProduct.values().forEach(all::add);
        System.out.println("## " + title);
        System.out.println();
        System.out.println("| group | queries | keystroke saving | success@1 | success@5 | ready share |");
        System.out.println("|---|---|---|---|---|---|");
        byProduct.forEach((product, t) -> row(product, t));
        row("all", all);
        System.out.println();
        System.out.println("| param | values | success@1 | success@5 |");
        System.out.println("|---|---|---|---|");
        all.perParam.forEach((type, c) -> System.out.printf(
                Locale.ROOT, "| %s | %d | %.3f | %.3f |%n", type, c[0], (double) c[1] / c[0], (double) c[2] / c[0]));
        System.out.println();
        if (!all.misses.isEmpty()) {
            System.out.println("Queries not ready with the intended values, or with a value never in the first "
                    + TAP_WITHIN + ":");
            all.misses.forEach(miss -> System.out.println("- " + miss));
            System.out.println();
        }
    }

    /** Every run per product and overall, each measured in this run. */
    private static void summary(Map<String, Map<String, Tally>> runs) {
        System.out.println("## Summary");
        System.out.println();
        System.out.println("| run | group | keystroke saving | success@1 | success@5 | ready share |");
        System.out.println("|---|---|---|---|---|---|");
        runs.forEach((title, byProduct) -> {
            Tally all = new Tally();
            byProduct.values().forEach(all::add);
            Map<String, Tally> rows = new LinkedHashMap<>(byProduct);
            rows.put("all", all);
            rows.forEach((group, t) -> System.out.printf(
                    Locale.ROOT,
                    "| %s | %s | %.3f | %.3f | %.3f | %.3f |%n",
                    title,
                    group,
                    t.saving(),
                    t.successAt(1),
                    t.successAt(2),
                    t.readyShare()));
        });
        System.out.println();
    }

    private static void row(String group, Tally t) {
        System.out.printf(
                Locale.ROOT,
                "| %s | %d | %.3f | %.3f | %.3f | %.3f |%n",
                group,
                t.queries,
                t.saving(),
                t.successAt(1),
                t.successAt(2),
                t.readyShare());
    }

    static JsonNode post(HttpClient http, int port, String key, ObjectNode body) {
        HttpResponse<String> response = send(http, port, "/api/suggest", key, body);
        if (response.statusCode() != 200) {
            throw new IllegalStateException("HTTP " + response.statusCode() + ": " + response.body());
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** POSTs a JSON body to {@code path} of the server on loopback with the key, as the official client does. */
    static HttpResponse<String> send(HttpClient http, int port, String path, String key, ObjectNode body) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .header("Authorization", "Bearer " + key)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                    .build();
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.toList()) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }

    static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : new ArrayList<>(
                    paths.sorted(java.util.Comparator.reverseOrder()).toList())) {
                Files.deleteIfExists(path);
            }
        }
    }
}
