package dev.autocomplete.bench.quality;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The learning simulation's day as the operator console should report it (issue 18, docs/benchmarks.md): the
 * simulation's own record of the pick events it sent (the param each filled, the characters the user typed for it
 * before the pick, the option's length) against {@code GET /admin/api/analytics} of the server it ran, plus one
 * span that matches nothing typed in {@link #UNMATCHED_SESSIONS} sessions. Not thread-safe.
 */
final class SimulatedDay {

    static final String UNMATCHED = "zzqx";
    static final int UNMATCHED_SESSIONS = 50;
    private static final double SAVING_TOLERANCE = 0.02;
    private static final int TOP = 10;
    private static final long WAIT_MILLIS = 60_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private long sent;
    private long typed;
    private long length;
    /** Picks per param type and option text (as offered). */
    private final Map<String, Map<String, Integer>> picks = new TreeMap<>();

    /** Notes one pick event the simulation sent. */
    void sent(SimulatedClient.PickSent pick) {
        sent++;
        typed += Math.min(pick.typed(), pick.option().length());
        length += pick.option().length();
        picks.computeIfAbsent(pick.type(), t -> new TreeMap<>()).merge(pick.option(), 1, Integer::sum);
    }

    long sent() {
        return sent;
    }

    /** 1 - typed / length over the picks sent, as the analytics define keystroke saving in the wild. */
    double saving() {
        return 1.0 - (double) typed / length;
    }

    /** Types {@link #UNMATCHED} with the official client in sessions of their own, no pick. */
    static void typeUnmatched(Function<ObjectNode, JsonNode> transport) {
        for (int i = 0; i < UNMATCHED_SESSIONS; i++) {
            SimulatedClient client = new SimulatedClient(transport, SimulatedClient.Kind.OFFICIAL);
            client.open();
            client.beginValue();
            UNMATCHED.chars().forEach(c -> client.type((char) c));
        }
    }

    /**
     * Reads the analytics of the product (waiting up to a minute for the picks to be written), prints them beside the
     * simulation's own figures, and returns whether they agree: picks as sent and as credited, keystroke saving within
     * {@link #SAVING_TOLERANCE}, each param's top picks in the simulation's order (ties in any order), and
     * {@link #UNMATCHED} listed with {@link #UNMATCHED_SESSIONS}.
     */
    boolean check(HttpClient http, int managementPort, String tenant, String product) throws Exception {
        JsonNode data = analytics(http, managementPort, tenant, product);
        long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000L;
        while ((data.path("picks").asLong() < sent || unmatchedCount(data) < UNMATCHED_SESSIONS)
                && System.nanoTime() < deadline) {
            Thread.sleep(1_000);
            data = analytics(http, managementPort, tenant, product);
        }
        long credited = credited(http, managementPort);
        List<String> problems = new ArrayList<>();
        System.out.printf(
                Locale.ROOT,
                "Analytics of the day (GET /admin/api/analytics?tenant=%s&product=%s&days=1) "
                        + "against the simulation's own record:%n%n",
                tenant,
                product);
        System.out.println("| figure | analytics | simulation |");
        System.out.println("|---|---|---|");
        long picked = data.path("picks").asLong();
        System.out.printf(
                Locale.ROOT,
                "| picks | %d | %d sent, %d credited (autocomplete_learning_events_total) |%n",
                picked,
                sent,
                credited);
        if (picked != sent || picked != credited) {
            problems.add("picks: analytics " + picked + ", sent " + sent + ", credited " + credited);
        }
        double theirs = data.path("keystroke_saving").asDouble(Double.NaN);
        System.out.printf(
                Locale.ROOT,
                "| keystroke saving in the wild | %.3f | %.3f (%d characters typed for %d "
                        + "characters of options) |%n",
                theirs,
                saving(),
                typed,
                length);
        if (!(Math.abs(theirs - saving()) <= SAVING_TOLERANCE)) {
            problems.add(
                    String.format(Locale.ROOT, "keystroke saving: analytics %.3f, simulation %.3f", theirs, saving()));
        }
        Map<String, List<JsonNode>> top = new LinkedHashMap<>();
        data.path("top_picks").forEach(p -> top.computeIfAbsent(p.path("type").asText(), t -> new ArrayList<>())
                .add(p));
        for (Map.Entry<String, Map<String, Integer>> param : picks.entrySet()) {
            List<Map.Entry<String, Integer>> ours =
                    new ArrayList<>(param.getValue().entrySet());
            ours.sort(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
                    .thenComparing(Map.Entry.comparingByKey()));
            ours = ours.subList(0, Math.min(TOP, ours.size()));
            List<JsonNode> served = top.getOrDefault(param.getKey(), List.of());
            System.out.printf(Locale.ROOT, "| top %s picks | %s | %s |%n", param.getKey(), render(served), ours);
            problems.addAll(compareTop(param.getKey(), param.getValue(), ours, served));
        }
        long unmatched = unmatchedCount(data);
        System.out.printf(
                Locale.ROOT,
                "| unmatched '%s' | %d | typed in %d sessions |%n%n",
                UNMATCHED,
                unmatched,
                UNMATCHED_SESSIONS);
        if (unmatched != UNMATCHED_SESSIONS) {
            problems.add("unmatched '" + UNMATCHED + "': " + unmatched + ", typed " + UNMATCHED_SESSIONS + " times");
        }
        if (problems.isEmpty()) {
            System.out.println("Analytics agree with the simulation.");
        } else {
            System.out.println("Analytics DISAGREE with the simulation:");
            problems.forEach(p -> System.out.println("- " + p));
        }
        System.out.println();
        return problems.isEmpty();
    }

    /**
     * The served top picks against the simulation's counts: the same counts in the same order, each text counted as
     * the simulation counted it (options tied on count may come in any order, and either may make the tenth place).
     */
    private static List<String> compareTop(
            String type, Map<String, Integer> counts, List<Map.Entry<String, Integer>> ours, List<JsonNode> served) {
        List<String> problems = new ArrayList<>();
        List<Integer> ourCounts = ours.stream().map(Map.Entry::getValue).toList();
        List<Integer> servedCounts =
                served.stream().map(p -> p.path("count").asInt()).toList();
        if (!ourCounts.equals(servedCounts)) {
            problems.add("top " + type + " picks: counts " + servedCounts + ", simulation " + ourCounts);
        }
        for (JsonNode pick : served) {
            int count = counts.getOrDefault(pick.path("text").asText(), 0);
            if (count != pick.path("count").asInt()) {
                problems.add("top " + type + " pick '" + pick.path("text").asText() + "': " + pick.path("count")
                        + ", simulation " + count);
            }
        }
        return problems;
    }

    private static String render(List<JsonNode> served) {
        List<String> out = new ArrayList<>();
        served.forEach(
                p -> out.add(p.path("text").asText() + "=" + p.path("count").asInt()));
        return out.toString();
    }

    private static long unmatchedCount(JsonNode data) {
        for (JsonNode span : data.path("unmatched")) {
            if (span.path("text").asText().equals(UNMATCHED)) {
                return span.path("count").asLong();
            }
        }
        return 0;
    }

    private static JsonNode analytics(HttpClient http, int port, String tenant, String product)
            throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/admin/api/analytics?tenant=" + tenant
                                + "&product=" + product + "&days=1"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("analytics: HTTP " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body()).path("data");
    }

    /** The server's count of credited pick events, from its metrics. */
    private static long credited(HttpClient http, int port) throws IOException, InterruptedException {
        String metrics = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/observe/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        return metrics.lines()
                .filter(l -> l.startsWith("autocomplete_learning_events_total{") && l.contains("outcome=\"credited\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
