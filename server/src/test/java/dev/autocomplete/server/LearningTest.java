package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.config.LearningSettings;
import dev.autocomplete.server.reading.Priors;
import dev.autocomplete.server.tenant.EngineLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Learning from picks over HTTP on the demo tenant: the official client's pick events re-rank options for the next
 * users (after the same first letters, and with nothing typed), and only honest picks count: options the server
 * offered that session lately, once per session, within the hourly caps.
 */
class LearningTest {

    private static final String ORIGIN = "Book a flight from {{ORIGIN_1}}";

    /**
     * A tenant beside the demo: one param that learns, one that does not ({@code learn: false}), and a date param told
     * to learn ({@code learn: true}) although its engine's options are of the moment.
     */
    private static final String LAB = """
            display_name: Lab
            products:
              - id: 9d2b6c1e-7f3a-4e8b-a1c2-3d4e5f6a7b8c
                slug: shop
                prompt: Buy
                intents:
                  - name: buy
                    phrases: [Buy]
                    params:
                      - type: fruit
                        required: true
                        options: [Apple, Apricot, Avocado, Banana, Blueberry, Cherry]
                      - type: color
                        required: true
                        cues: [in]
                        learn: false
                        options: [Red, Green, Blue, Yellow, Black, White]
              - id: 4f1c2b3a-5d6e-4f70-8a9b-0c1d2e3f4a5b
                slug: deli
                prompt: Eat
                intents:
                  - name: eat
                    phrases: [Eat]
                    params:
                      - type: cheese
                        required: true
                        options: [Brie, Burrata, Bel Paese, Cheddar, Comte, Edam]
                      - type: day
                        cues: [on]
                        engine: date
                        learn: true
              - id: 6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d
                slug: dine
                prompt: Dine
                max_options: 4
                intents:
                  - name: dine
                    phrases: [Dine]
                    params:
                      - type: place
                        required: true
                        context_attributes:
                          city: {from: city, mode: filter}
                        options:
                          - {text: Alpha Grill, attributes: {city: Berlin}}
                          - {text: Bistro Blau, attributes: {city: Berlin}}
                          - {text: Curry Corner, attributes: {city: Berlin}}
                          - {text: Deli Dorf, attributes: {city: Berlin}}
                          - {text: Eden Eck, attributes: {city: Berlin}}
                          - {text: Green Garden, attributes: {city: Munich}}
            """;

    @RegisterExtension
    static final DemoServer demo = new DemoServer()
            .withTenant("lab", Map.of("lab/tenant.yaml", LAB), "shop", "deli", "dine")
            .withSettings(settings -> settings.withLearning(new LearningSettings(
                    Duration.ofDays(14), Duration.ofSeconds(1), 20_000, 1_000_000, 1_000_000, 10_000)));

    /**
     * A server whose client addresses may have three picks credited an hour, with no cap of ranked picks per address
     * and option; its clock stands still mid-hour, so the hour cannot turn (and the counts start afresh) while the test
     * runs.
     */
    @RegisterExtension
    static final DemoServer capped = new DemoServer()
            .withClock(java.time.Clock.fixed(java.time.Instant.parse("2026-11-25T10:30:00Z"), java.time.ZoneOffset.UTC))
            .withSettings(settings -> settings.withLearning(
                    new LearningSettings(Duration.ofDays(14), Duration.ofSeconds(1), 20_000, 3, 1_000_000, 10_000)
                            .withPicksPerAddressOptionDay(0)));

    /**
     * A server behind a proxy on loopback with the default cap of ranked picks per address and option (one a day) and
     * room for many picks an hour; its clock stands still mid-day.
     */
    @RegisterExtension
    static final DemoServer daily = new DemoServer()
            .withClock(java.time.Clock.fixed(java.time.Instant.parse("2026-11-25T10:30:00Z"), java.time.ZoneOffset.UTC))
            .withSettings(settings -> settings.withTrustedProxies(List.of("127.0.0.1"))
                    .withLearning(new LearningSettings(
                            Duration.ofDays(14), Duration.ofSeconds(1), 20_000, 1_000, 1_000_000, 10_000)));

    /**
     * A server where an option needs two ranked picks before learning moves it ({@code learning.min-picks: 2}), with no
     * cap of ranked picks per address and option (so that two picks from loopback count as two).
     */
    @RegisterExtension
    static final DemoServer twoPicks = new DemoServer()
            .withSettings(settings -> settings.withLearning(
                    new LearningSettings(Duration.ofDays(14), Duration.ofSeconds(1), 20_000, 1_000, 1_000_000, 10_000)
                            .withPicksPerAddressOptionDay(0)
                            .withMinPicks(2)));

    /**
     * A server behind a proxy on loopback ({@code limits.trusted-proxies}), with one pick an hour per client and
     * a memory of 100 sessions of which a client may name 20 new ones an hour; its clock stands still mid-hour.
     */
    @RegisterExtension
    static final DemoServer proxied = new DemoServer()
            .withClock(java.time.Clock.fixed(java.time.Instant.parse("2026-11-25T10:30:00Z"), java.time.ZoneOffset.UTC))
            .withSettings(settings -> settings.withTrustedProxies(List.of("127.0.0.1"))
                    .withLearning(new LearningSettings(
                            Duration.ofDays(14), Duration.ofSeconds(1), 100, 1, 1_000_000, 10_000, 20, 1)));

    /** The travel product's answer for a query typed after picking Paris as the origin, in a session. */
    private static ApiClient.Reply destination(DemoServer server, String session, String typed) {
        ObjectNode body = fill(envelope(ORIGIN + typed), "{{ORIGIN_1}}", "origin", "Paris");
        ((ObjectNode) body.path("meta")).put("session_id", session);
        return answered(() -> server.api().suggest(server.key("travel"), body));
    }

    /**
     * A 200 that is the product's reading, not its fallback: on a loaded machine a reading can run past the travel
     * product's 200 ms budget (a cold first request, a collection), and the fallback offers no option, which these
     * tests would read as "nothing offered" or "the ranking changed". Asked again every 100 ms, within 15 s.
     */
    private static ApiClient.Reply answered(Supplier<ApiClient.Reply> ask) {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (true) {
            ApiClient.Reply reply = ask.get();
            assertEquals(200, reply.status(), reply.raw());
            boolean fallback = reply.suggestionTypes().equals(List.of("placeholder"))
                    && reply.data()
                            .path("suggestions")
                            .path(0)
                            .path("text")
                            .asText()
                            .equals(EngineLimits.DEFAULT_FALLBACK_PROMPT);
            if (!fallback || System.nanoTime() > deadline) {
                return reply;
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // a loaded machine is not asked again at once
        }
    }

    /** Posts the official client's event for a pick of {@code option} after {@code typed}; asserts the 204. */
    private static void pick(DemoServer server, String session, String typed, String option) {
        pick(server, "travel", session, ORIGIN + typed, option);
    }

    private static void pick(DemoServer server, String key, String session, String rawQuery, String option) {
        pick(server, key, session, rawQuery, option, Map.of());
    }

    private static void pick(
            DemoServer server,
            String key,
            String session,
            String rawQuery,
            String option,
            Map<String, String> headers) {
        ObjectNode event = ApiClient.JSON
                .createObjectNode()
                .put("source", "full-sdk")
                .put("session_id", session)
                .put("type", "option")
                .put("at", "2026-11-25T10:00:00Z");
        event.putObject("query_data")
                .put("raw_query", rawQuery)
                .put("selected_option", option)
                .putArray("other_options");
        ApiClient.Reply reply = server.api()
                .post("/api/telemetry/events", server.key(key), event.toString(), "application/json", headers);
        assertEquals(204, reply.status(), reply.raw());
    }

    private static ApiClient.Reply suggest(DemoServer server, String key, String session, ObjectNode body) {
        ((ObjectNode) body.path("meta")).put("session_id", session);
        return answered(() -> server.api().suggest(server.key(key), body));
    }

    private static String session() {
        return UUID.randomUUID().toString();
    }

    private static void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 15 s: " + what);
            }
            Thread.sleep(100);
        }
    }

    /**
     * Waits until the honest picks other tests of this class posted are written and applied: no pick queued, and the
     * travel priors unchanged across more than two apply intervals. Without it, a pick that lands one batch after the
     * test that posted it stopped waiting would look learned from this test's forged events.
     */
    private static void settle(DemoServer server) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            boolean empty = server.server().learning().queued() == 0;
            long generation = priors(server).generation();
            Thread.sleep(2_500); // more than two apply intervals, and a flush between them
            if (empty
                    && server.server().learning().queued() == 0
                    && priors(server).generation() == generation) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("learning did not settle within 20 s");
            }
        }
    }

    private static Priors priors(DemoServer server) {
        return server.server().learning().priors("demo", "travel");
    }

    @Test
    void what_users_picked_after_typing_two_letters_comes_first_for_the_next_one_typing_them() throws Exception {
        List<String> before = destination(demo, session(), " to Po").options("destination");
        String picked = before.getLast();
        assertNotEquals(before.getFirst(), picked, before.toString());

        for (int i = 0; i < 2; i++) {
            String session = session();
            destination(demo, session, " to Po");
            pick(demo, session, " to Po", picked);
        }

        // The same query again, as the next user types it: the cached answer must not hide what was learned.
        waitFor(picked + " first after 'Po'", () -> destination(demo, session(), " to Po")
                .options("destination")
                .getFirst()
                .equals(picked));
        List<String> after = destination(demo, session(), " to Po").options("destination");
        assertEquals(before.size(), after.size(), after.toString());
        assertTrue(after.containsAll(before.subList(0, before.size() - 1)), "the others stay: " + after);
    }

    /**
     * configuration.md, "Ranking": once letters are typed, a pick made with nothing typed counts half, so it lifts the
     * engine's third for those letters (½ + ⅓) above its second (½), not above its first (1). Its credit decays from the
     * moment it is made, and half of it was always just under the ½ that learning needs to change an order at all.
     */
    @Test
    void a_pick_made_with_nothing_typed_counts_half_once_letters_are_typed() throws Exception {
        List<String> before =
                suggest(demo, "lab/deli", session(), envelope("Eat B")).options("cheese");
        assertEquals(3, before.size(), before.toString());
        String third = before.get(2);
        String session = session();
        assertTrue(suggest(demo, "lab/deli", session, envelope("Eat "))
                .options("cheese")
                .contains(third));
        pick(demo, "lab/deli", session, "Eat ", third);
        // With nothing typed it scores 1 + ⅓ and passes the first: learning has been applied once that shows.
        waitFor(third + " first with nothing typed", () -> suggest(demo, "lab/deli", session(), envelope("Eat "))
                .options("cheese")
                .getFirst()
                .equals(third));
        assertEquals(
                List.of(before.get(0), third, before.get(1)),
                suggest(demo, "lab/deli", session(), envelope("Eat B")).options("cheese"));
    }

    /**
     * A client that sends no session id gets one made up for the answer; sent back with a pick, it is that answer's
     * session: what the answer offered is credited, and nothing else is.
     */
    @Test
    void a_session_the_server_made_up_is_honest_when_the_client_sends_it_back() throws Exception {
        ObjectNode body = fill(envelope(ORIGIN + " to Ka"), "{{ORIGIN_1}}", "origin", "Paris");
        ApiClient.Reply reply = answered(() -> demo.api().suggest(demo.key("travel"), body));
        String session = reply.json().path("meta").path("session_id").asText();
        assertTrue(session.matches("[0-9a-f-]{36}"), reply.raw());
        String offered = reply.options("destination").getLast();
        String folded = dev.autocomplete.spi.toolkit.TextFolding.fold(offered);
        pick(demo, session, " to Ka", "Zürich"); // not offered to it
        pick(demo, session, " to Ka", offered);
        waitFor(offered + " credited", () -> priors(demo).credit("destination", "", folded) > 0);
        assertEquals(0.0, priors(demo).credit("destination", "", "zurich"), "Zürich was not offered");
    }

    @Test
    void options_picked_often_appear_with_nothing_typed_and_after_one_letter() throws Exception {
        List<String> withY = destination(demo, session(), " to Yo").options("destination");
        String favourite = withY.getLast();
        List<String> empty = destination(demo, session(), "").options("destination");
        assertFalse(empty.contains(favourite), empty.toString());
        for (int i = 0; i < 3; i++) {
            String session = session();
            destination(demo, session, " to Yo");
            pick(demo, session, " to Yo", favourite);
        }
        waitFor(favourite + " in the first five with nothing typed", () -> destination(demo, session(), "")
                .options("destination")
                .subList(0, 5)
                .contains(favourite));
        String letter = favourite.substring(0, 1);
        assertEquals(
                favourite,
                destination(demo, session(), " to " + letter)
                        .options("destination")
                        .getFirst());
    }

    @Test
    void forged_events_for_options_never_shown_change_nothing() throws Exception {
        settle(demo);
        long generation = priors(demo).generation();
        List<String> empty = destination(demo, session(), "").options("destination");
        assertFalse(empty.isEmpty(), "destinations with nothing typed");
        // One session that was shown the destinations for "Zu", and picks among the ones it was not shown.
        String shown = session();
        destination(demo, shown, " to Zu");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                int n = i;
                sent.add(pool.submit(() -> {
                    String session = n % 2 == 0 ? shown : session();
                    pick(demo, session, " to Lo", n % 3 == 0 ? "London" : "Lomé");
                }));
            }
            for (Future<?> each : sent) {
                each.get();
            }
        } finally {
            pool.shutdown();
        }
        Thread.sleep(2_500); // more than two apply intervals
        assertEquals(generation, priors(demo).generation(), "nothing was learned");
        assertEquals(0.0, priors(demo).credit("destination", "", "london"), "London was not credited");
        assertEquals(empty, destination(demo, session(), "").options("destination"), "the ranking is the same");
    }

    @Test
    void a_session_counts_each_option_once_and_an_address_its_hourly_share() throws Exception {
        List<String> offered = destination(capped, session(), " to Ma").options("destination");
        String option = offered.get(2);
        String folded = dev.autocomplete.spi.toolkit.TextFolding.fold(option);
        String session = session();
        destination(capped, session, " to Ma");
        for (int i = 0; i < 5; i++) {
            pick(capped, session, " to Ma", option);
        }
        waitFor("the pick credited", () -> priors(capped).credit("destination", "", folded) > 0);
        assertEquals(1.0, priors(capped).credit("destination", "", folded), 0.01, "once per session");
        // Four more honest sessions from the same address: the cap of three an hour lets two more through. Each
        // event names another client in X-Forwarded-For, which counts for nothing from a connection of no trusted
        // proxy (this server trusts none).
        for (int i = 0; i < 4; i++) {
            String another = session();
            destination(capped, another, " to Ma");
            pick(capped, "travel", another, ORIGIN + " to Ma", option, Map.of("X-Forwarded-For", "198.51.100." + i));
        }
        waitFor("two more credited", () -> priors(capped).credit("destination", "", folded) > 2.5);
        Thread.sleep(2_500);
        assertEquals(3.0, priors(capped).credit("destination", "", folded), 0.01, "three picks an hour an address");
    }

    /**
     * Behind a trusted proxy each client has its own hourly share of picks, named by the proxy in
     * {@code X-Forwarded-For} (read from the right, so what a client wrote there itself is not believed): before,
     * every client shared the proxy's address, and with it one share.
     */
    @Test
    void behind_a_trusted_proxy_each_client_has_its_own_hourly_share_of_picks() throws Exception {
        List<String> offered = destination(proxied, session(), " to Ma").options("destination");
        String option = offered.get(1);
        String folded = dev.autocomplete.spi.toolkit.TextFolding.fold(option);
        for (String client : List.of("198.51.100.1", "198.51.100.2", "2001:db8:5:6::1")) {
            String session = session();
            destination(proxied, session, " to Ma");
            pick(proxied, "travel", session, ORIGIN + " to Ma", option, Map.of("X-Forwarded-For", client));
        }
        waitFor("three clients' picks credited", () -> priors(proxied).credit("destination", "", folded) > 2.5);
        // Over their share: the first client again (its own header, then a forged one the proxy appended to), and
        // another address of the same IPv6 /64.
        for (String forwarded : List.of("198.51.100.1", "203.0.113.99, 198.51.100.1", "2001:db8:5:6::abcd")) {
            String session = session();
            destination(proxied, session, " to Ma");
            pick(proxied, "travel", session, ORIGIN + " to Ma", option, Map.of("X-Forwarded-For", forwarded));
        }
        Thread.sleep(2_500); // more than two apply intervals
        assertEquals(3.0, priors(proxied).credit("destination", "", folded), 0.01, "one pick an hour a client");
    }

    /**
     * One client picking an option in session after session (a script with the public key, each session shown the
     * option first, so every pick is honest) lifts it as much as one pick: an option's ranking counts each client
     * address once a day. Every pick is still counted as a pick (analytics); before, each session's pick was ranked,
     * up to the address's hourly share (200 by default), so one address could put any option first.
     */
    @Test
    void one_client_picking_an_option_in_many_sessions_ranks_it_as_one_pick_a_day() throws Exception {
        List<String> offered = destination(daily, session(), " to Ma").options("destination");
        String option = offered.get(3);
        String folded = dev.autocomplete.spi.toolkit.TextFolding.fold(option);
        double notRanked = learningEvents(daily, "not_ranked", "travel");
        double credited = learningEvents(daily, "credited", "travel");
        for (String client : List.of("198.51.100.7", "198.51.100.7", "198.51.100.7", "198.51.100.7", "198.51.100.8")) {
            String session = session();
            destination(daily, session, " to Ma");
            pick(daily, "travel", session, ORIGIN + " to Ma", option, Map.of("X-Forwarded-For", client));
        }
        waitFor("two clients' picks credited", () -> priors(daily).credit("destination", "", folded) > 1.5);
        Thread.sleep(2_500); // more than two apply intervals
        assertEquals(2.0, priors(daily).credit("destination", "", folded), 0.01, "one pick a day a client");
        assertEquals(credited + 2, learningEvents(daily, "credited", "travel"));
        assertEquals(notRanked + 3, learningEvents(daily, "not_ranked", "travel"));
    }

    /**
     * A client naming new sessions by the hundred (a script with the public key) cannot push an honest user's session
     * out of the honest-pick memory: beyond its share of 20 new sessions an hour, its sessions share the table of
     * made-up ones. Before, 300 named sessions from anyone pushed out every other one, so honest picks stopped
     * counting.
     */
    @Test
    void a_flood_of_named_sessions_from_one_client_leaves_an_honest_session_its_pick() throws Exception {
        String honest = session();
        ObjectNode body = fill(envelope(ORIGIN + " to Ro"), "{{ORIGIN_1}}", "origin", "Paris");
        ((ObjectNode) body.path("meta")).put("session_id", honest);
        ApiClient.Reply offered = answered(() -> proxied.api()
                .post(
                        "/api/suggest",
                        proxied.key("travel"),
                        body.toString(),
                        "application/json",
                        Map.of("X-Forwarded-For", "192.0.2.10")));
        String option = offered.options("destination").getFirst();
        for (int i = 0; i < 300; i++) {
            ObjectNode flood = fill(envelope(ORIGIN + " to R"), "{{ORIGIN_1}}", "origin", "Paris");
            ((ObjectNode) flood.path("meta")).put("session_id", session());
            ApiClient.Reply reply = proxied.api()
                    .post(
                            "/api/suggest",
                            proxied.key("travel"),
                            flood.toString(),
                            "application/json",
                            Map.of("X-Forwarded-For", "203.0.113.7"));
            assertEquals(200, reply.status(), reply.raw());
        }
        String folded = dev.autocomplete.spi.toolkit.TextFolding.fold(option);
        pick(proxied, "travel", honest, ORIGIN + " to Ro", option, Map.of("X-Forwarded-For", "192.0.2.10"));
        waitFor("the honest pick credited", () -> priors(proxied).credit("destination", "", folded) > 0);
    }

    @Test
    void options_the_context_supplied_are_never_credited_and_catalog_ones_are() throws Exception {
        String raw = "Create a {{TYPE_1}} to ";
        String session = session();
        ObjectNode body = fill(envelope(raw), "{{TYPE_1}}", "type", "email");
        ((ObjectNode) body.path("data"))
                .putObject("additional_context")
                .putArray("contact")
                .add("Zed Zebrowski");
        List<String> offered = suggest(demo, "workspace", session, body).options("contact");
        assertEquals("Zed Zebrowski", offered.getFirst(), "the context's contact is offered: " + offered);
        String catalogContact = offered.getLast();
        pick(demo, "workspace", session, raw, "Zed Zebrowski");
        String other = session();
        suggest(demo, "workspace", other, fill(envelope(raw), "{{TYPE_1}}", "type", "email"));
        pick(demo, "workspace", other, raw, catalogContact);
        Priors workspace = demo.server().learning().priors("demo", "workspace");
        waitFor(
                "the catalog contact credited",
                () -> demo.server()
                                .learning()
                                .priors("demo", "workspace")
                                .credit("contact", "", dev.autocomplete.spi.toolkit.TextFolding.fold(catalogContact))
                        > 0);
        assertNotEquals(
                workspace.generation(),
                demo.server().learning().priors("demo", "workspace").generation());
        assertEquals(0.0, demo.server().learning().priors("demo", "workspace").credit("contact", "", "zed zebrowski"));
    }

    /**
     * Picks Reykjavík, in a session of its own, from the empty travel query's origins, where the context {@code key:
     * value} put it first; it is not among them without context (asked in {@code plain}, whose list is returned).
     */
    private static List<String> pickReykjavikPutFirstBy(String key, String value, String plain) throws Exception {
        String raw = "Book a flight from ";
        List<String> engines = suggest(demo, "travel", plain, envelope(raw)).options("origin");
        assertFalse(engines.contains("Reykjavík"), engines.toString());
        String session = session();
        ObjectNode withContext = envelope(raw);
        ((ObjectNode) withContext.path("data")).putObject("additional_context").put(key, value);
        List<String> offered = suggest(demo, "travel", session, withContext).options("origin");
        assertEquals("Reykjavík", offered.getFirst(), offered.toString());
        pick(demo, "travel", session, raw, "Reykjavík");
        return engines;
    }

    /**
     * The same for an option its attributes put first ({@code context_attributes}, {@code mode: boost}): a hostile
     * trial's one pick of Reykjavík, boosted by {@code home_country: IS}, was credited and moved it into every user's
     * list.
     */
    @Test
    void a_catalog_option_the_context_attributes_boosted_is_never_credited() throws Exception {
        double notOffered = learningEvents("not_offered");
        pickReykjavikPutFirstBy("home_country", "IS", session());
        waitFor("the boosted pick refused", () -> learningEvents("not_offered") == notOffered + 1);
        assertEquals(0.0, priors(demo).credit("origin", "", "reykjavik"), "the boosted city is not credited");
    }

    /**
     * The same for an option offered only because the context's attributes filtered the others out ({@code mode:
     * filter}): an operator trial's one pick of a small Munich restaurant, offered to a Munich user with nothing typed,
     * came second for every user without a city. A pick from a filtered list of an option the list without the context
     * shows too is still credited.
     */
    @Test
    void an_option_offered_only_because_the_context_filtered_the_others_out_is_never_credited() throws Exception {
        List<String> plain =
                suggest(demo, "lab/dine", session(), envelope("Dine ")).options("place");
        assertFalse(plain.contains("Green Garden"), plain.toString());
        String munich = session();
        ObjectNode inMunich = envelope("Dine ");
        ((ObjectNode) inMunich.path("data")).putObject("additional_context").put("city", "Munich");
        assertEquals(
                List.of("Green Garden"),
                suggest(demo, "lab/dine", munich, inMunich).options("place"));
        pick(demo, "lab/dine", munich, "Dine ", "Green Garden");
        String berlin = session();
        ObjectNode inBerlin = envelope("Dine ");
        ((ObjectNode) inBerlin.path("data")).putObject("additional_context").put("city", "Berlin");
        List<String> berliners = suggest(demo, "lab/dine", berlin, inBerlin).options("place");
        assertTrue(berliners.contains("Deli Dorf"), berliners.toString());
        pick(demo, "lab/dine", berlin, "Dine ", "Deli Dorf"); // written after the Munich pick: once it is credited
        waitFor(
                "Deli Dorf credited",
                () -> demo.server().learning().priors("lab", "dine").credit("place", "", "deli dorf") > 0);
        assertEquals(0.0, demo.server().learning().priors("lab", "dine").credit("place", "", "green garden"));
    }

    /**
     * protocol-notes §20: options that came from the context never count. A catalog's option offered only because the
     * context named it ({@code home_city}, nothing typed) is one: a pick of it says what that user's context holds.
     */
    @Test
    void a_catalog_option_offered_only_because_the_context_named_it_is_never_credited() throws Exception {
        String raw = "Book a flight from ";
        String plain = session();
        List<String> engines = pickReykjavikPutFirstBy("home_city", "Reykjavík", plain);
        // A pick of what the engine offered, in a session without context: credited, once both are handled.
        String catalogCity = engines.get(engines.size() - 2);
        pick(demo, "travel", plain, raw, catalogCity);
        waitFor(
                catalogCity + " credited",
                () -> priors(demo).credit("origin", "", dev.autocomplete.spi.toolkit.TextFolding.fold(catalogCity))
                        > 0);
        assertEquals(0.0, priors(demo).credit("origin", "", "reykjavik"), "the context's city is not credited");
    }

    /**
     * A date engine's options are of the moment (an end-user trial saw "tomorrow monday 7 december", folded, offered
     * to French users the next day): a date param learns nothing by default, while the origin picked in the same
     * session is credited. The date's pick is still an honest pick, counted for analytics (picks, keystrokes saved):
     * an operator trial saw it counted {@code not_offered} and missing from the console's picks.
     */
    @Test
    void a_picked_date_is_not_learned_while_a_picked_city_is() throws Exception {
        double notLearned = learningEvents("not_learned");
        String session = session();
        String raw = "Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}} on ";
        ObjectNode body = fill(envelope(raw), "{{ORIGIN_1}}", "origin", "Paris");
        fill(body, "{{DESTINATION_1}}", "destination", "London");
        List<String> dates = suggest(demo, "travel", session, body).options("date");
        assertTrue(dates.size() >= 3, dates.toString());
        String date = dates.get(2);
        String another = session(); // picks are written in order: once this one's city is credited, the date was read
        List<String> origins = suggest(demo, "travel", another, envelope("Book a flight from "))
                .options("origin");
        String city = origins.getLast();
        pick(demo, "travel", session, raw, date);
        pick(demo, "travel", another, "Book a flight from ", city);
        waitFor(
                city + " credited",
                () -> priors(demo).credit("origin", "", dev.autocomplete.spi.toolkit.TextFolding.fold(city)) > 0);
        assertEquals(
                0.0,
                priors(demo).credit("date", "", dev.autocomplete.spi.toolkit.TextFolding.fold(date)),
                date + " is not learned");
        waitFor(date + " counted as an honest pick not learned", () -> learningEvents("not_learned") == notLearned + 1);
    }

    /**
     * A hostile trial moved an option into everyone's list with one pick from one client. With {@code learning.min-picks:
     * 2}, one pick of the engine's tenth origin is credited and moves nothing; a second moves it first.
     */
    @Test
    void with_min_picks_two_one_pick_moves_nothing_and_a_second_moves_it_first() throws Exception {
        String raw = "Book a flight from ";
        List<String> before =
                suggest(twoPicks, "travel", session(), envelope(raw)).options("origin");
        String tenth = before.getLast();
        String folded = dev.autocomplete.spi.toolkit.TextFolding.fold(tenth);
        String first = session();
        suggest(twoPicks, "travel", first, envelope(raw));
        pick(twoPicks, "travel", first, raw, tenth);
        waitFor(tenth + " credited once", () -> priors(twoPicks).credit("origin", "", folded) > 0.9);
        Thread.sleep(2_500); // two apply intervals more: nothing else is on its way
        assertEquals(
                before,
                suggest(twoPicks, "travel", session(), envelope(raw)).options("origin"),
                "one pick moves nothing");

        String second = session();
        suggest(twoPicks, "travel", second, envelope(raw));
        pick(twoPicks, "travel", second, raw, tenth);
        waitFor(tenth + " first after a second pick", () -> suggest(twoPicks, "travel", session(), envelope(raw))
                .options("origin")
                .getFirst()
                .equals(tenth));
    }

    /** {@code learn: true} in tenant.yaml overrides an engine that says its options are of the moment. */
    @Test
    void a_date_param_with_learn_true_learns() throws Exception {
        String session = session();
        String raw = "Eat {{CHEESE_1}} on ";
        ObjectNode body = fill(envelope(raw), "{{CHEESE_1}}", "cheese", "Brie");
        List<String> days = suggest(demo, "lab/deli", session, body).options("day");
        assertTrue(days.size() >= 3, days.toString());
        String day = days.get(2);
        pick(demo, "lab/deli", session, raw, day);
        waitFor(
                day + " credited",
                () -> demo.server()
                                .learning()
                                .priors("lab", "deli")
                                .credit("day", "", dev.autocomplete.spi.toolkit.TextFolding.fold(day))
                        > 0);
    }

    @Test
    void a_param_with_learn_false_is_never_re_ranked_and_the_cli_forgets_what_was_learned() throws Exception {
        String session = session();
        assertEquals(
                "Apple",
                suggest(demo, "lab/shop", session, envelope("Buy "))
                        .options("fruit")
                        .getFirst());
        pick(demo, "lab/shop", session, "Buy ", "Cherry");
        ObjectNode colors = fill(envelope("Buy {{FRUIT_1}} in "), "{{FRUIT_1}}", "fruit", "Cherry");
        assertEquals(
                "Red",
                suggest(demo, "lab/shop", session, colors).options("color").getFirst());
        pick(demo, "lab/shop", session, "Buy {{FRUIT_1}} in ", "White");
        waitFor("Cherry first", () -> suggest(demo, "lab/shop", session(), envelope("Buy "))
                .options("fruit")
                .getFirst()
                .equals("Cherry"));
        ObjectNode again = fill(envelope("Buy {{FRUIT_1}} in "), "{{FRUIT_1}}", "fruit", "Cherry");
        assertEquals(
                "Red",
                suggest(demo, "lab/shop", session(), again).options("color").getFirst());
        assertEquals(0.0, demo.server().learning().priors("lab", "shop").credit("color", "", "white"));

        TestTenants.Cli reset = TestTenants.cli(
                "learning", "reset", "--tenants", demo.tenants().toString(), "--tenant", "lab", "--product", "shop");
        assertEquals(0, reset.exit(), reset.err());
        assertTrue(reset.out().contains("Forgot"), reset.out());
        waitFor("Apple first again", () -> suggest(demo, "lab/shop", session(), envelope("Buy "))
                .options("fruit")
                .getFirst()
                .equals("Apple"));
        // A misspelt name forgets nothing and says so (an operator trial saw "Forgot 0" and exit 0).
        TestTenants.Cli product = TestTenants.cli(
                "learning", "reset", "--tenants", demo.tenants().toString(), "--tenant", "lab", "--product", "shpo");
        assertEquals(2, product.exit(), product.out());
        assertTrue(
                product.err().contains("No product 'shpo'") && product.err().contains("its products: shop, deli"),
                product.err());
        TestTenants.Cli tenant =
                TestTenants.cli("learning", "reset", "--tenants", demo.tenants().toString(), "--tenant", "lba");
        assertEquals(2, tenant.exit(), tenant.out());
        assertTrue(tenant.err().contains("No tenant 'lba'"), tenant.err());
    }

    @Test
    void a_pill_counts_when_its_label_in_any_language_names_a_param_the_session_was_offered() throws Exception {
        String session = session();
        ApiClient.Reply offered = destination(demo, session, " ");
        assertTrue(
                offered.raw().contains("{\"type\":\"destination\",\"text\":\"To\""),
                "the destination's pill is offered: " + offered.raw());
        double pills = learningEvents("pill");
        double notOffered = learningEvents("not_offered");
        // The destination's label in French, then in English: the same param, counted once for the session.
        pill(session, "Arrivée");
        pill(session, "to");
        pill(session, "Klasse"); // the cabin's label: a pill this session was not offered
        pill(session(), "To"); // a session never offered anything
        waitFor(
                "one pill and two not offered",
                () -> learningEvents("pill") == pills + 1 && learningEvents("not_offered") == notOffered + 2);
    }

    @Test
    void a_pick_event_in_another_shape_than_the_clients_is_counted_malformed() throws Exception {
        String session = session();
        List<String> offered = destination(demo, session, " to Ka").options("destination");
        double malformed = learningEvents("malformed");
        double ignored = learningEvents("ignored");
        for (String selected : List.of(
                "{\"text\": \"" + offered.getFirst() + "\"}",
                "42",
                "\"  \"",
                "null",
                "[\"" + offered.getFirst() + "\"]",
                // Punctuation alone folds to nothing: it answered 500 (a hostile trial), as the empty hash is the
                // suggestion's own mark in the session's offers.
                "\"!!!\"",
                "\"¿ ?\"")) {
            String event = "{\"source\":\"full-sdk\",\"session_id\":\"" + session + "\",\"type\":\"option\","
                    + "\"query_data\":{\"raw_query\":\"" + ORIGIN + " to Ka\",\"selected_option\":" + selected + "}}";
            ApiClient.Reply reply =
                    demo.api().post("/api/telemetry/events", demo.key("travel"), event, "application/json", Map.of());
            assertEquals(204, reply.status(), reply.raw());
        }
        waitFor("seven malformed", () -> learningEvents("malformed") == malformed + 7);
        assertEquals(ignored, learningEvents("ignored"), "not another kind of event");
    }

    @Test
    void an_option_picked_for_two_params_of_one_session_counts_once_and_an_overlong_query_not_at_all()
            throws Exception {
        String session = session();
        List<String> origins = suggest(demo, "travel", session, envelope("Book a flight from Ma"))
                .options("origin");
        List<String> destinations = destination(demo, session, " to Ma").options("destination");
        String both = origins.stream()
                .filter(destinations::contains)
                .findFirst()
                .orElseThrow(() -> new AssertionError(origins + " and " + destinations + " share no option"));
        double credited = learningEvents("credited");
        double repeated = learningEvents("repeated");
        pick(demo, "travel", session, "Book a flight from Ma", both);
        pick(demo, session, " to Ma", both);
        waitFor(
                "one credited, one repeated",
                () -> learningEvents("credited") == credited + 1 && learningEvents("repeated") == repeated + 1);

        // A raw_query longer than a suggest request may send (1,000 characters) was offered nothing: malformed,
        // and never read (folding each of its tails cost seconds of CPU an event).
        double malformed = learningEvents("malformed");
        String another = session();
        destination(demo, another, " to Ma");
        pick(demo, "travel", another, ORIGIN + " to " + "a ".repeat(600) + "Ma", both);
        waitFor("malformed", () -> learningEvents("malformed") == malformed + 1);
    }

    @Test
    void a_session_offered_an_option_by_one_product_makes_no_pick_of_it_honest_for_another() throws Exception {
        String session = session();
        String offered =
                destination(demo, session, " to Lo").options("destination").getFirst();
        double notOffered = learningEvents("not_offered", "workspace");
        ObjectNode event = ApiClient.JSON
                .createObjectNode()
                .put("source", "full-sdk")
                .put("session_id", session)
                .put("type", "option");
        event.putObject("query_data").put("raw_query", "Create an email to Lo").put("selected_option", offered);
        assertEquals(
                204,
                demo.api()
                        .post(
                                "/api/telemetry/events",
                                demo.key("workspace"),
                                event.toString(),
                                "application/json",
                                Map.of())
                        .status());
        waitFor(
                "not offered to the workspace session",
                () -> learningEvents("not_offered", "workspace") == notOffered + 1);
    }

    private static void pill(String session, String label) {
        ObjectNode event = ApiClient.JSON
                .createObjectNode()
                .put("source", "full-sdk")
                .put("session_id", session)
                .put("type", "pill")
                .put("at", "2026-11-25T10:00:00Z");
        event.putObject("query_data")
                .put("raw_query", ORIGIN + " ")
                .put("selected_pill", label)
                .putArray("other_pills");
        ApiClient.Reply reply = demo.api()
                .post("/api/telemetry/events", demo.key("travel"), event.toString(), "application/json", Map.of());
        assertEquals(204, reply.status(), reply.raw());
    }

    /** The demo travel product's count of pick events with this outcome, from the metrics. */
    private static double learningEvents(String outcome) {
        return learningEvents(outcome, "travel");
    }

    /** A demo product's count of pick events with this outcome, from the metrics. */
    private static double learningEvents(String outcome, String product) {
        return learningEvents(demo, outcome, product);
    }

    private static double learningEvents(DemoServer server, String outcome, String product) {
        String line = "autocomplete_learning_events_total{outcome=\"" + outcome + "\",product=\"" + product
                + "\",tenant=\"demo\"} ";
        return ApiClient.management(server.server().managementPort())
                .get("/observe/metrics")
                .raw()
                .lines()
                .filter(l -> l.startsWith(line))
                .mapToDouble(l -> Double.parseDouble(l.substring(line.length())))
                .sum();
    }
}
