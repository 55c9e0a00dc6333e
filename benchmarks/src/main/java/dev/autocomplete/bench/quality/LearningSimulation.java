package dev.autocomplete.bench.quality;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.bench.BenchTenants;
import dev.autocomplete.server.config.LearningSettings;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
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
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The keystroke simulator's learning mode (issue 17, docs/benchmarks.md): a travel agency whose users fly to forty
 * favourite destinations. The destination's keystroke saving is measured over fresh journeys before any learning,
 * then 2,000 journeys of the official client post its pick events, learning is left to apply at its default
 * interval, and fresh journeys are measured again. Everything goes over HTTP to a real server on loopback, whose
 * only non-default setting lifts the per-address hourly cap on credited picks (one process on loopback plays
 * thousands of users). After the training journeys, {@link SimulatedDay} checks the server's analytics of them.
 */
final class LearningSimulation {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FAVOURITES = 40;
    private static final int FROM_RANK = 400;
    private static final int TO_RANK = 2_500;
    private static final double ZIPF = 1.1;
    private static final int MEASURED = 150;
    private static final int TRAINING = 2_000;
    /** How long after the last event the probes watch the ranking change. */
    private static final long WATCH_MILLIS = 65_000;

    private static final String DESTINATION = "destination";

    private LearningSimulation() {}

    /**
     * Runs the simulation; with {@code dayOnly}, only the training journeys and the analytics check (no measurement
     * before and after, no watch). Returns whether the server's analytics agreed with the simulation (issue 18).
     */
    static boolean run(Path repo, long seed, boolean dayOnly) throws Exception {
        Path demo = repo.resolve("tenants/demo");
        List<String> favourites = TargetQueries.favourites(demo, FAVOURITES, FROM_RANK, TO_RANK, new Random(seed));
        List<TargetQueries.Target> before =
                TargetQueries.journeys(demo, favourites, ZIPF, MEASURED, new Random(seed + 1));
        List<TargetQueries.Target> training =
                TargetQueries.journeys(demo, favourites, ZIPF, TRAINING, new Random(seed + 2));
        List<TargetQueries.Target> after =
                TargetQueries.journeys(demo, favourites, ZIPF, MEASURED, new Random(seed + 3));
        Path temp = Files.createTempDirectory("autocomplete-learn");
        try {
            Path tenants = temp.resolve("tenants");
            KeystrokeSimulator.copyTree(demo, tenants.resolve("demo"));
            Files.deleteIfExists(tenants.resolve("demo/keys.yaml"));
            String key = BenchTenants.createKey(tenants, "demo", "travel");
            LearningSettings defaults = LearningSettings.DEFAULTS;
            LearningSettings learning = new LearningSettings(
                            defaults.halfLife(),
                            defaults.applyInterval(),
                            defaults.sessions(),
                            100_000_000,
                            defaults.picksPerKeyHour(),
                            defaults.queue())
                    .withPicksPerAddressOptionDay(0);
            try (AutocompleteServer server = AutocompleteServer.start(ServerSettings.defaults()
                    .with("127.0.0.1", 0, tenants)
                    .withManagement("127.0.0.1", 0)
                    .withLearning(learning))) {
                HttpClient http = HttpClient.newHttpClient();
                Function<ObjectNode, JsonNode> transport =
                        body -> KeystrokeSimulator.post(http, server.port(), key, body);
                System.out.printf(
                        Locale.ROOT,
                        "Learning simulation, seed %d: %d favourite destinations (cities ranked "
                                + "%d to %d by population, Zipf exponent %.1f), most popular first: %s%n",
                        seed,
                        FAVOURITES,
                        FROM_RANK,
                        TO_RANK,
                        ZIPF,
                        favourites);
                System.out.printf(
                        Locale.ROOT,
                        "Server: learning.apply-seconds %d (default), "
                                + "learning.picks-per-address-hour %d (lifted from %d: one process on loopback plays every "
                                + "user), learning.picks-per-address-option-day off (from %d, for the same reason), "
                                + "learning.picks-per-key-hour %d (default)%n%n",
                        learning.applyInterval().toSeconds(),
                        learning.picksPerAddressHour(),
                        defaults.picksPerAddressHour(),
                        defaults.picksPerAddressOptionDay(),
                        learning.picksPerKeyHour());

                Map<String, KeystrokeSimulator.Tally> results = new LinkedHashMap<>();
                for (SimulatedClient.Kind kind :
                        dayOnly ? new SimulatedClient.Kind[0] : SimulatedClient.Kind.values()) {
                    results.put("before learning, journeys A|" + kind, measure(before, transport, kind));
                    results.put("before learning, journeys B (control)|" + kind, measure(after, transport, kind));
                }
                String probeOrigin = "Shanghai";
                List<String> probes = probes(favourites);
                String beforeTraining = probe(http, server.port(), key, probeOrigin, probes);

                AtomicInteger accepted = new AtomicInteger();
                AtomicInteger refused = new AtomicInteger();
                SimulatedDay day = new SimulatedDay();
                long trainingStart = System.nanoTime();
                for (TargetQueries.Target target : training) {
                    SimulatedClient client = new SimulatedClient(transport, SimulatedClient.Kind.OFFICIAL);
                    client.onPick(pick -> {
                        day.sent(pick);
                        int status = KeystrokeSimulator.send(
                                        http, server.port(), "/api/telemetry/events", key, pick.event())
                                .statusCode();
                        (status == 204 ? accepted : refused).incrementAndGet();
                    });
                    KeystrokeSimulator.simulate(target, client, null, new KeystrokeSimulator.Tally());
                }
                long lastEvent = System.nanoTime();
                System.out.printf(
                        Locale.ROOT,
                        "Training: %d journeys of the official client in %.1f s, %d pick "
                                + "events accepted (204), %d refused%n",
                        TRAINING,
                        (lastEvent - trainingStart) / 1e9,
                        accepted.get(),
                        refused.get());
                SimulatedDay.typeUnmatched(transport);
                if (dayOnly) {
                    System.out.println(outcomes(http, server.managementPort()));
                    return day.check(http, server.managementPort(), "demo", "travel");
                }

                // Watch the ranking after the last event: the time of the last change is when learning showed.
                String seen = probe(http, server.port(), key, probeOrigin, probes);
                long lastChange = -1;
                int changes = 0;
                while (System.nanoTime() - lastEvent < WATCH_MILLIS * 1_000_000L) {
                    Thread.sleep(250);
                    String now = probe(http, server.port(), key, probeOrigin, probes);
                    if (!now.equals(seen)) {
                        lastChange = System.nanoTime();
                        changes++;
                        seen = now;
                    }
                }
                System.out.printf(
                        Locale.ROOT,
                        "Learning visible: the probe answers (destination after %s, nothing "
                                + "typed and the first letter of the 10 most popular favourites) changed %d time(s) after the "
                                + "last event, the last %s after it (watched for %d s); they differ from before training: %s%n",
                        probeOrigin,
                        changes,
                        lastChange < 0 ? "never" : String.format(Locale.ROOT, "%.1f s", (lastChange - lastEvent) / 1e9),
                        WATCH_MILLIS / 1000,
                        !seen.equals(beforeTraining));
                System.out.println(outcomes(http, server.managementPort()));
                System.out.println();
                boolean agreed = day.check(http, server.managementPort(), "demo", "travel");

                for (SimulatedClient.Kind kind : SimulatedClient.Kind.values()) {
                    results.put("after learning, journeys B|" + kind, measure(after, transport, kind));
                }
                report(results);
                return agreed;
            }
        } finally {
            KeystrokeSimulator.deleteTree(temp);
        }
    }

    private static KeystrokeSimulator.Tally measure(
            List<TargetQueries.Target> targets, Function<ObjectNode, JsonNode> transport, SimulatedClient.Kind kind) {
        KeystrokeSimulator.Tally tally = new KeystrokeSimulator.Tally();
        for (TargetQueries.Target target : targets) {
            KeystrokeSimulator.simulate(target, new SimulatedClient(transport, kind), null, tally);
        }
        return tally;
    }

    private static void report(Map<String, KeystrokeSimulator.Tally> results) {
        System.out.println("| phase | client | destination keystroke saving | destination success@1 | "
                + "destination success@5 | origin keystroke saving | ready share |");
        System.out.println("|---|---|---|---|---|---|---|");
        results.forEach((title, tally) -> {
            String[] parts = title.split("\\|");
            int[] c = tally.perParam.get(DESTINATION);
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f |%n",
                    parts[0],
                    parts[1].equals("OFFICIAL") ? "official" : "every keystroke",
                    tally.saving(DESTINATION),
                    (double) c[1] / c[0],
                    (double) c[2] / c[0],
                    tally.saving("origin"),
                    tally.readyShare());
        });
        System.out.println();
        for (SimulatedClient.Kind kind : SimulatedClient.Kind.values()) {
            double a = results.get("before learning, journeys A|" + kind).saving(DESTINATION);
            double b =
                    results.get("before learning, journeys B (control)|" + kind).saving(DESTINATION);
            double learned = results.get("after learning, journeys B|" + kind).saving(DESTINATION);
            System.out.printf(
                    Locale.ROOT,
                    "%s: destination saving after - before %+.3f (fresh journeys B against "
                            + "A), %+.3f on the same journeys B; B against A without learning %+.3f%n",
                    kind == SimulatedClient.Kind.OFFICIAL ? "official client" : "every keystroke",
                    learned - a,
                    learned - b,
                    b - a);
        }
    }

    /** What the probes type for the destination: nothing, and the first letter of the most popular favourites. */
    private static List<String> probes(List<String> favourites) {
        List<String> probes = new ArrayList<>(List.of(""));
        favourites.subList(0, 10).forEach(f -> {
            if (!probes.contains(f.substring(0, 1))) {
                probes.add(f.substring(0, 1));
            }
        });
        return probes;
    }

    /** The destination options the server offers after the origin for each probe, each in a fresh session. */
    private static String probe(HttpClient http, int port, String key, String origin, List<String> typed) {
        StringBuilder out = new StringBuilder();
        for (String letters : typed) {
            ObjectNode body = JSON.createObjectNode();
            ObjectNode data = body.putObject("data").put("raw_query", "{{ORIGIN_1}} " + letters);
            data.putArray("completed_params")
                    .addObject()
                    .put("placeholder", "{{ORIGIN_1}}")
                    .put("type", "origin")
                    .put("text", origin)
                    .putNull("kind");
            body.putObject("meta")
                    .put("request_id", UUID.randomUUID().toString())
                    .put("request_at", "2026-11-22T10:15:30Z")
                    .put("session_id", UUID.randomUUID().toString())
                    .put("language", "en-US");
            JsonNode answer = KeystrokeSimulator.post(http, port, key, body);
            for (JsonNode suggestion : answer.path("data").path("suggestions")) {
                if (suggestion.path("type").asText().equals(DESTINATION)) {
                    suggestion
                            .path("options")
                            .forEach(o -> out.append(o.path("text").asText()).append(','));
                }
            }
            out.append('|');
        }
        return out.toString();
    }

    /** The server's count of pick events by outcome, from its metrics. */
    private static String outcomes(HttpClient http, int managementPort) throws Exception {
        HttpResponse<String> metrics = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/observe/metrics"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        StringBuilder out = new StringBuilder("Pick events by outcome (autocomplete_learning_events_total):");
        metrics.body()
                .lines()
                .filter(l -> l.startsWith("autocomplete_learning_events_total{"))
                .forEach(l -> out.append(' ').append(l.replaceAll(".*outcome=\"([a-z_]+)\".*} ", "$1=")));
        return out.toString();
    }
}
