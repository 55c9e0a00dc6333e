package dev.autocomplete.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.config.LearningSettings;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * {@code benchmarks/run wrk ... events} (issue 17): the suggest CPU per request with pick events flowing at 1,000 a
 * second against the same load without them, in alternating rounds on one server. The keystroke journeys carry a
 * session id each (as the official client sends); a second wrk posts the official client's pick events, half honest
 * (an option the server offered that journey's session, with the raw_query it was offered for) and half forged
 * (sessions never seen, options never offered, ids that are no UUIDs, pills never shown). The per-address cap on
 * credited picks is lifted (all events come from loopback), so honest picks are credited, written and applied as
 * they would be from many users.
 */
final class EventsMix {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int EVENTS_PER_SECOND = 1_000;
    private static final int EVENT_CONNECTIONS = 10;

    private EventsMix() {}

    static void run(
            ServerSettings base,
            Path work,
            Path script,
            List<String> bodies,
            String key,
            int seconds,
            int connections,
            int rounds,
            boolean control)
            throws Exception {
        LearningSettings defaults = LearningSettings.DEFAULTS;
        ServerSettings settings = base.with("127.0.0.1", 0, work.resolve("tenants"))
                .withManagement("127.0.0.1", 0)
                .withLearning(new LearningSettings(
                                defaults.halfLife(),
                                // -Dbench.apply-seconds (e.g. through JAVA_TOOL_OPTIONS) applies learning more or less
                                // often
                                // than the default, to tell the applies' cache refills from the events' own cost.
                                Duration.ofSeconds(Long.getLong(
                                        "bench.apply-seconds",
                                        defaults.applyInterval().toSeconds())),
                                defaults.sessions(),
                                100_000_000,
                                defaults.picksPerKeyHour(),
                                defaults.queue())
                        .withPicksPerAddressOptionDay(0));
        try (AutocompleteServer server = AutocompleteServer.start(settings)) {
            // Fill the response cache one body at a time; what each answer offered makes the honest events.
            List<String> events = new ArrayList<>();
            Random random = new Random(17);
            for (String body : bodies) {
                JsonNode request = JSON.readTree(body);
                JsonNode answer = JSON.readTree(WrkBenchmark.post(server.port(), key, body));
                honest(request, answer, events);
            }
            int honest = events.size();
            for (int i = 0; i < honest; i++) {
                events.add(forged(JSON.readTree(bodies.get(random.nextInt(bodies.size()))), random));
            }
            java.util.Collections.shuffle(events, random);
            Path eventScript = work.resolve("events.lua");
            WrkBenchmark.writeScript(eventScript, events, key, "/api/telemetry/events");
            System.out.printf(
                    Locale.ROOT,
                    "%d distinct request bodies in %d sessions; %d pick events (%d honest, %d "
                            + "forged) posted at %d a second over %d connections in the rounds with events; "
                            + "learning.picks-per-address-hour lifted to %d, learning.picks-per-address-option-day off, "
                            + "learning.apply-seconds %d%n",
                    bodies.size(),
                    bodies.stream()
                            .map(b -> b.replaceAll(".*\"session_id\":\"([^\"]+)\".*", "$1"))
                            .distinct()
                            .count(),
                    events.size(),
                    honest,
                    events.size() - honest,
                    EVENTS_PER_SECOND,
                    EVENT_CONNECTIONS,
                    settings.learning().picksPerAddressHour(),
                    settings.learning().applyInterval().toSeconds());

            WrkBenchmark.warm("server", server.port(), script, connections);
            // As many suggest requests a second alone, for what any request costs at that pace (a request arriving
            // alone wakes the server; under load it does not); before any pick is credited, so all from the cache.
            WrkBenchmark.Measure suggestsAlone = paced(server.port(), script, seconds);
            System.out.printf(
                    Locale.ROOT,
                    "suggest requests alone at the events' pace: %.0f/s, %.1f us CPU/request%n",
                    suggestsAlone.rate(),
                    suggestsAlone.cpuMicros());
            // The event path warmed as the suggest path is: cold, half the CPU of the first events went to the JIT.
            WrkBenchmark.warm("event path", server.port(), eventScript, EVENT_CONNECTIONS, EVENTS_PER_SECOND);
            // The events alone, for what one costs the server.
            WrkBenchmark.Measure alone = paced(server.port(), eventScript, seconds);
            System.out.printf(
                    Locale.ROOT, "events alone: %.0f events/s, %.1f us CPU/event%n", alone.rate(), alone.cpuMicros());
            // The control: the second flow posts suggest requests instead of events, at the same pace, on as many
            // connections of their own; what any 1,000 requests a second cost the suggest load, events or not.
            Path flowScript = control ? script : eventScript;
            WrkBenchmark.Measure flowAlone = control ? suggestsAlone : alone;
            if (control) {
                System.out.println("control: in the rounds 'with events', the second flow posts suggest requests");
            }
            List<Double> without = new ArrayList<>();
            List<Double> with = new ArrayList<>();
            List<Double> ratios = new ArrayList<>();
            List<Double> net = new ArrayList<>();
            // Round 0 is not counted: it sets the busy flow's pace (answers take longer under load).
            Pace busyPace = new Pace(alonePace.gap);
            for (int round = 0; round <= rounds; round++) {
                WrkBenchmark.Measure quiet = WrkBenchmark.measure(server.port(), script, seconds, connections);
                CompletableFuture<String> flow =
                        CompletableFuture.supplyAsync(() -> busyPace.run(server.port(), flowScript, seconds + 2));
                Thread.sleep(1_000);
                WrkBenchmark.Measure busy = WrkBenchmark.measure(server.port(), script, seconds, connections);
                String eventsOut = flow.get();
                double eventRate = WrkBenchmark.rate(eventsOut);
                if (round == 0) {
                    System.out.printf(Locale.ROOT, "round 0 (pace, not counted): %.0f events/s%n", eventRate);
                    continue;
                }
                // The events' own share of the CPU, at what one costs alone, taken out: the suggest path's cost.
                double suggestOnly = busy.cpuMicros() - eventRate * flowAlone.cpuMicros() / busy.rate();
                without.add(quiet.cpuMicros());
                with.add(busy.cpuMicros());
                ratios.add(busy.cpuMicros() / quiet.cpuMicros());
                net.add(suggestOnly / quiet.cpuMicros());
                System.out.printf(
                        Locale.ROOT,
                        "round %d: without events %.0f req/s, %.1f us CPU/request; with %.0f "
                                + "events/s %.0f req/s, %.1f us CPU/request (%.1f us without the events' own): %.3fx (%.3fx)%n",
                        round,
                        quiet.rate(),
                        quiet.cpuMicros(),
                        eventRate,
                        busy.rate(),
                        busy.cpuMicros(),
                        suggestOnly,
                        busy.cpuMicros() / quiet.cpuMicros(),
                        suggestOnly / quiet.cpuMicros());
            }
            System.out.printf(
                    Locale.ROOT,
                    "medians of %d rounds: CPU per suggest request without events %.1f us, with "
                            + "events %.1f us; with/without per round: median %.3fx (min %.3fx, max %.3fx); without the "
                            + "events' own CPU: median %.3fx%n",
                    rounds,
                    WrkBenchmark.median(without),
                    WrkBenchmark.median(with),
                    WrkBenchmark.median(ratios),
                    ratios.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                    ratios.stream().mapToDouble(Double::doubleValue).max().orElseThrow(),
                    WrkBenchmark.median(net));
            System.out.println(outcomes(server.managementPort()));
        }
    }

    /** The official client's events for picks of the first three options an answer offered its session. */
    private static void honest(JsonNode request, JsonNode answer, List<String> events) {
        String session = request.path("meta").path("session_id").asText();
        for (JsonNode suggestion : answer.path("data").path("suggestions")) {
            if (suggestion.path("type").asText().equals("placeholder")) {
                continue;
            }
            List<String> offered = new ArrayList<>();
            suggestion.path("options").forEach(o -> offered.add(o.path("text").asText()));
            for (int i = 0; i < Math.min(3, offered.size()); i++) {
                events.add(event(
                        session,
                        "option",
                        request.path("data").path("raw_query").asText(),
                        offered.get(i),
                        offered));
            }
            return;
        }
    }

    /** A forged event: a session never seen, an option never offered, an id that is no UUID, or a pill. */
    private static String forged(JsonNode request, Random random) {
        String session = request.path("meta").path("session_id").asText();
        String raw = request.path("data").path("raw_query").asText();
        String made = "Nowhere " + Long.toHexString(random.nextLong());
        return switch (random.nextInt(4)) {
            case 0 -> event(new UUID(random.nextLong(), random.nextLong()).toString(), "option", raw, made, List.of());
            case 1 -> event(session, "option", raw, made, List.of());
            case 2 -> event("session-" + random.nextInt(), "option", raw, made, List.of());
            default -> event(new UUID(random.nextLong(), random.nextLong()).toString(), "pill", raw, "To", List.of());
        };
    }

    private static String event(String session, String type, String rawQuery, String selected, List<String> shown) {
        ObjectNode event = JSON.createObjectNode()
                .put("source", "full-sdk")
                .put("session_id", session)
                .put("type", type)
                .put("at", "2026-11-25T10:00:00.000Z");
        ObjectNode data = event.putObject("query_data")
                .put("raw_query", rawQuery)
                .put(type.equals("pill") ? "selected_pill" : "selected_option", selected);
        var others = data.putArray(type.equals("pill") ? "other_pills" : "other_options");
        shown.stream().filter(text -> !text.equals(selected)).forEach(others::add);
        return event.toString();
    }

    /** The pace of the flows run alone; the busy rounds start from it. */
    private static final Pace alonePace = new Pace(EVENT_CONNECTIONS * 1000.0 / EVENTS_PER_SECOND);

    /**
     * The script's requests alone at {@link #EVENTS_PER_SECOND}, and the JVM's CPU per request; a first run of
     * 5 s, not measured, sets the pace.
     */
    private static WrkBenchmark.Measure paced(int port, Path script, int seconds) {
        alonePace.run(port, script, 5);
        long before = WrkBenchmark.processCpuNanos();
        double rate = WrkBenchmark.rate(alonePace.run(port, script, seconds));
        long cpu = WrkBenchmark.processCpuNanos() - before;
        return new WrkBenchmark.Measure(rate, cpu / 1000.0 / (rate * seconds));
    }

    /**
     * Paces a flow to {@link #EVENTS_PER_SECOND} over {@link #EVENT_CONNECTIONS} connections. wrk waits its gap
     * after each answer, so the answer's own time and wrk's millisecond timer lengthen every period (a gap of
     * 10 ms gave 765 to 920 events a second): each run's achieved rate shortens the next run's gap by what the
     * period overran.
     */
    private static final class Pace {
        private volatile double gap;

        Pace(double gap) {
            this.gap = gap;
        }

        String run(int port, Path script, int seconds) {
            try {
                String out = WrkBenchmark.wrkWithGap(port, script, seconds, EVENT_CONNECTIONS, gap);
                double period = EVENT_CONNECTIONS * 1000.0 / WrkBenchmark.rate(out);
                gap = Math.max(0, gap - (period - EVENT_CONNECTIONS * 1000.0 / EVENTS_PER_SECOND));
                return out;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** The server's count of pick events by outcome, from its metrics. */
    private static String outcomes(int managementPort) throws IOException, InterruptedException {
        String metrics = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/observe/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
                .body();
        StringBuilder out = new StringBuilder("pick events by outcome (autocomplete_learning_events_total):");
        metrics.lines()
                .filter(l -> l.startsWith("autocomplete_learning_events_total{"))
                .forEach(l -> out.append(' ').append(l.replaceAll(".*outcome=\"([a-z_]+)\".*} ", "$1=")));
        return out.toString();
    }
}
