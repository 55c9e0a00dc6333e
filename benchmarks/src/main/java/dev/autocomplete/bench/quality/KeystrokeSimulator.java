package dev.autocomplete.bench.quality;

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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.autocomplete.bench.BenchTenants;
import dev.autocomplete.engine.catalog.PrefixBaseline;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;

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

        void add(Tally other) {
            characters += other.characters;
            actions += other.actions;
            queries += other.queries;
            readyWithIntended += other.readyWithIntended;
            other.perParam.forEach((type, counts) -> {
                int[] mine = perParam.computeIfAbsent(type, t -> new int[3]);
                for (int i = 0; i < 3; i++) {
                    mine[i] += counts[i];
                }
            });
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

    private KeystrokeSimulator() {
    }

    public static void main(String[] args) throws Exception {
        Path repo = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 42L;
        Path temp = Files.createTempDirectory("autocomplete-sim");
        try {
            Path tenants = temp.resolve("tenants");
            copyTree(repo.resolve("tenants/demo"), tenants.resolve("demo"));
            Files.deleteIfExists(tenants.resolve("demo/keys.yaml"));
            // A simulated user sends a request per keystroke, with no pause: lift the key's rate limit.
            Map<String, String> keys = Map.of("travel", BenchTenants.createKey(tenants, "demo", "travel"),
                    "workspace", BenchTenants.createKey(tenants, "demo", "workspace"));
            List<TargetQueries.Target> targets =
                    TargetQueries.generate(repo.resolve("tenants/demo"), TRAVEL_QUERIES, WORKSPACE_QUERIES, seed);
            PrefixBaseline baseline = new PrefixBaseline(tenants.resolve("demo"), BASELINE_OPTIONS);
            try (AutocompleteServer server = AutocompleteServer.start(ServerSettings.defaults()
                    .with("127.0.0.1", 0, tenants).withManagement("127.0.0.1", 0))) {
                HttpClient http = HttpClient.newHttpClient();
                System.out.printf(Locale.ROOT, "Keystroke simulator: %d target queries (%d travel, %d workspace), "
                        + "seed %d%n%n", targets.size(), TRAVEL_QUERIES, WORKSPACE_QUERIES, seed);
                Map<String, Tally> overall = new LinkedHashMap<>();
                for (boolean typos : new boolean[] {false, true}) {
                    for (boolean plain : new boolean[] {false, true}) {
                        Random typoRandom = new Random(seed + 1);
                        Map<String, Tally> byProduct = new LinkedHashMap<>();
                        for (TargetQueries.Target target : targets) {
                            Function<ObjectNode, JsonNode> transport = body -> post(http, server.port(),
                                    keys.get(target.product()), body);
                            if (plain) {
                                transport = baseline.around(target.product(), transport);
                            }
                            Tally tally = byProduct.computeIfAbsent(target.product(), p -> new Tally());
                            simulate(target, transport, typos ? typoRandom : null, tally);
                        }
                        String title = (typos ? "With one typo per word of 4+ letters" : "Without typos")
                                + (plain ? ", baseline (plain prefix match by population)" : "");
                        overall.put(title, report(title, byProduct));
                    }
                }
                summary(overall);
            }
        } finally {
            deleteTree(temp);
        }
    }

    /** One simulated user typing one target query; adds its counts to {@code tally}. */
    static void simulate(TargetQueries.Target target, Function<ObjectNode, JsonNode> transport, Random typos,
            Tally tally) {
        SimulatedClient client = new SimulatedClient(transport);
        client.open();
        for (TargetQueries.Value value : target.values()) {
            String typed = typos == null ? value.text() : TargetQueries.withTypos(value.text(), typos);
            tally.characters += value.text().length();
            int[] counts = tally.perParam.computeIfAbsent(value.type(), t -> new int[3]);
            counts[0]++;
            int bestRank = Integer.MAX_VALUE;
            if (!client.text().isEmpty() && !client.text().endsWith(" ")) {
                client.type(' ');
                tally.actions++;
            }
            int next = 0;
            int before = client.completed().size();
            while (true) {
                if (client.completed().size() > before) {
                    bestRank = 0; // typed out in full: the client promoted the option itself
                    break;
                }
                List<SimulatedClient.Option> visible = value.type().equals(client.activeType())
                        ? client.visibleOptions() : List.of();
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
            if (bestRank < 1) {
                counts[1]++;
            }
            if (bestRank < TAP_WITHIN) {
                counts[2]++;
            }
        }
        boolean ready = client.check();
        boolean intended = target.values().stream().allMatch(v -> client.completed().stream()
                .anyMatch(p -> p.type().equals(v.type()) && p.text().equalsIgnoreCase(v.text())));
        tally.queries++;
        if (ready && intended) {
            tally.readyWithIntended++;
        }
    }

    private static int rankOf(List<SimulatedClient.Option> options, String text) {
        for (int i = 0; i < options.size(); i++) {
            if (options.get(i).tappable() && options.get(i).text().equals(text)) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }

    /** Prints one run's tables; returns its overall tally. */
    private static Tally report(String title, Map<String, Tally> byProduct) {
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
        all.perParam.forEach((type, c) -> System.out.printf(Locale.ROOT, "| %s | %d | %.3f | %.3f |%n", type, c[0],
                (double) c[1] / c[0], (double) c[2] / c[0]));
        System.out.println();
        return all;
    }

    /** Ours beside the baseline, overall, each pair measured in this run. */
    private static void summary(Map<String, Tally> overall) {
        System.out.println("## Summary (all queries)");
        System.out.println();
        System.out.println("| run | keystroke saving | success@1 | success@5 | ready share |");
        System.out.println("|---|---|---|---|---|");
        overall.forEach((title, t) -> System.out.printf(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f |%n", title,
                t.saving(), t.successAt(1), t.successAt(2), t.readyShare()));
        System.out.println();
    }

    private static void row(String group, Tally t) {
        System.out.printf(Locale.ROOT, "| %s | %d | %.3f | %.3f | %.3f | %.3f |%n", group, t.queries, t.saving(),
                t.successAt(1), t.successAt(2), t.readyShare());
    }

    private static JsonNode post(HttpClient http, int port, String key, ObjectNode body) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/suggest"))
                    .header("Authorization", "Bearer " + key)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("HTTP " + response.statusCode() + ": " + response.body());
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }


    private static void copyTree(Path from, Path to) throws IOException {
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

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : new ArrayList<>(paths.sorted(java.util.Comparator.reverseOrder()).toList())) {
                Files.deleteIfExists(path);
            }
        }
    }
}
