package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.config.LearningSettings;
import dev.autocomplete.server.learning.Learning;
import dev.autocomplete.server.protocol.Offered;
import dev.autocomplete.spi.toolkit.TextFolding;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 17's million random events: whatever pick events arrive (honest picks of options the server offered, forged
 * ones for options never shown, repeats, pills, from ever new sessions and client addresses), the memory learning
 * keeps stays bounded. One million events go through learning's intake in the server's process (over HTTP it would
 * take too long), with random offers recorded for their sessions and random suggest traffic over HTTP recording
 * offers too; the heap retained after a full GC grows by at most 32 MiB.
 */
class LearningMemoryTest {

    private static final int EVENTS = 1_000_000;
    private static final long BOUND = 32L << 20;
    private static final String DESTINATION = "Book a flight from {{ORIGIN_1}} to ";

    /** The default learning settings, applied every second so that the priors are rebuilt while events flow. */
    @RegisterExtension
    static final DemoServer demo = new DemoServer()
            .withSettings(settings -> settings.withLearning(new LearningSettings(
                    LearningSettings.DEFAULTS.halfLife(),
                    Duration.ofSeconds(1),
                    LearningSettings.DEFAULTS.sessions(),
                    LearningSettings.DEFAULTS.picksPerAddressHour(),
                    LearningSettings.DEFAULTS.picksPerKeyHour(),
                    LearningSettings.DEFAULTS.queue())));

    @Test
    @Timeout(120)
    void a_million_random_events_grow_the_retained_heap_by_at_most_32_mib() throws Exception {
        List<String> cities = cities();
        Learning learning = demo.server().learning();
        Random random = new Random(17);
        Map<Learning.Outcome, Integer> outcomes = new EnumMap<>(Learning.Outcome.class);
        // Warm up: the code paths, the store's connection and a first priors, not the bounded memories.
        send(learning, cities, random, 2_000, outcomes);
        settle(learning);
        long before = retainedHeap();
        long generation = learning.priors("demo", "travel").generation();

        long start = System.nanoTime();
        send(learning, cities, random, EVENTS, outcomes);
        settle(learning);
        long after = retainedHeap();
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;

        String report = String.format(
                "retained heap %.1f -> %.1f MiB (%+.1f MiB), %d s, sessions remembered %d, " + "outcomes %s",
                before / 1048576.0,
                after / 1048576.0,
                (after - before) / 1048576.0,
                seconds,
                learning.sessions(),
                outcomes);
        System.out.println("LearningMemoryTest: " + report);
        // The events were real work: picks were credited and applied, forged and repeated ones refused.
        assertTrue(outcomes.getOrDefault(Learning.Outcome.CREDITED, 0) > 10_000, report);
        assertTrue(outcomes.getOrDefault(Learning.Outcome.NOT_OFFERED, 0) > 100_000, report);
        assertTrue(outcomes.getOrDefault(Learning.Outcome.REPEATED, 0) > 10_000, report);
        assertTrue(learning.priors("demo", "travel").generation() > generation, report);
        assertTrue(after - before <= BOUND, report);
        assertEquals(0, learning.queued(), report);
    }

    /**
     * Sends {@code count} random events: a third in sessions the server was just offered destinations in (their pick,
     * once or twice, or a city it was not offered), the others forged (never offered sessions, made-up options,
     * pills, ids that are no UUIDs); every client address new. Every 2,000 events, a suggest over HTTP in a new
     * session records what the server offered it, and a pick among those follows.
     */
    private static void send(
            Learning learning, List<String> cities, Random random, int count, Map<Learning.Outcome, Integer> outcomes) {
        Learning.ProductRef travel = new Learning.ProductRef("demo", "travel");
        Function<String, String> labels = label -> label.equals("Destination") ? "destination" : null;
        for (int i = 0; i < count; i++) {
            String session = i % 2_000 == 0
                    ? UUID.randomUUID().toString()
                    : new UUID(random.nextLong(), random.nextLong()).toString();
            String city = cities.get(random.nextInt(cities.size()));
            String typed = city.substring(0, Math.min(city.length(), random.nextInt(4)));
            ObjectNode event;
            if (i % 2_000 == 0) {
                ObjectNode body = fill(envelope(DESTINATION + typed), "{{ORIGIN_1}}", "origin", "Paris");
                ((ObjectNode) body.path("meta")).put("session_id", session);
                List<String> offered = demo.suggestOk("travel", body).options("destination");
                event = pick(
                        session,
                        DESTINATION + typed,
                        offered.isEmpty() ? city : offered.get(random.nextInt(offered.size())));
            } else if (i % 3 == 0) {
                long[] hashes = new long[10];
                hashes[0] = Offered.hash(TextFolding.fold(city));
                for (int h = 1; h < hashes.length; h++) {
                    hashes[h] = Offered.hash(TextFolding.fold(cities.get(random.nextInt(cities.size()))));
                }
                String client = address(random);
                learning.offered(
                        travel,
                        session,
                        Offered.of(List.of(new Offered.Offer("destination", true, hashes))),
                        () -> client);
                String selected = random.nextInt(10) == 0 ? cities.get(random.nextInt(cities.size())) : city;
                event = pick(session, DESTINATION + typed, selected);
                if (random.nextBoolean()) {
                    count(
                            outcomes,
                            learning.event(
                                    travel,
                                    true,
                                    "key-" + random.nextInt(4),
                                    address(random),
                                    event,
                                    labels,
                                    type -> true));
                }
            } else {
                event = switch (random.nextInt(4)) {
                    case 0 -> pick(session, DESTINATION + typed, city);
                    case 1 -> pick(session, DESTINATION, randomText(random));
                    case 2 -> pick("not-a-session-" + i, DESTINATION + typed, city);
                    default -> pill(session);
                };
            }
            count(
                    outcomes,
                    learning.event(
                            travel, true, "key-" + random.nextInt(4), address(random), event, labels, type -> true));
        }
    }

    private static ObjectNode pick(String session, String rawQuery, String option) {
        ObjectNode event = ApiClient.JSON
                .createObjectNode()
                .put("source", "full-sdk")
                .put("session_id", session)
                .put("type", "option")
                .put("at", "2026-11-25T10:00:00.000Z");
        event.putObject("query_data")
                .put("raw_query", rawQuery)
                .put("selected_option", option)
                .putArray("other_options")
                .add("Lisbon")
                .add("Porto");
        return event;
    }

    private static ObjectNode pill(String session) {
        ObjectNode event = ApiClient.JSON
                .createObjectNode()
                .put("source", "full-sdk")
                .put("session_id", session)
                .put("type", "pill")
                .put("at", "2026-11-25T10:00:00.000Z");
        event.putObject("query_data")
                .put("raw_query", "Book a flight")
                .put("selected_pill", "Destination")
                .putArray("other_pills")
                .add("Origin");
        return event;
    }

    private static String randomText(Random random) {
        char[] text = new char[5 + random.nextInt(36)];
        for (int i = 0; i < text.length; i++) {
            text[i] = (char) ('a' + random.nextInt(26));
        }
        return new String(text);
    }

    /** A client address never seen before, most likely: an IPv4 or IPv6 address drawn at random. */
    private static String address(Random random) {
        return random.nextBoolean()
                ? random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256) + "."
                        + random.nextInt(256)
                : "2001:db8:" + Integer.toHexString(random.nextInt(65536)) + ":"
                        + Integer.toHexString(random.nextInt(65536)) + "::"
                        + Integer.toHexString(random.nextInt(65536));
    }

    private static void count(Map<Learning.Outcome, Integer> outcomes, Learning.Outcome outcome) {
        outcomes.merge(outcome, 1, Integer::sum);
    }

    /** Writes what is queued and applies it, as the learning thread does on its own. */
    private static void settle(Learning learning) {
        learning.flush();
        learning.apply();
    }

    /** The heap in use after full collections: the least of a few, so that nothing collectable is counted. */
    private static long retainedHeap() throws InterruptedException {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
            least = Math.min(
                    least,
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return least;
    }

    private static List<String> cities() throws IOException {
        List<String> lines = Files.readAllLines(demo.temp().resolve("tenants/demo/data/cities.csv"));
        List<String> cities = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            cities.add(
                    line.startsWith("\"")
                            ? line.substring(1, line.indexOf('"', 1))
                            : line.substring(0, line.indexOf(',')));
        }
        return cities;
    }
}
