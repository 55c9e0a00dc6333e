package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.config.LearningSettings;
import dev.autocomplete.server.config.ServerSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The analytics JSON on the management listener after simulated traffic on the demo's travel product: suggest
 * requests in sessions, honest and forged pick events posted as the official client posts them, spans that match
 * nothing. The figures must be what the simulation itself counted.
 */
class AnalyticsTest {

    private static final String ORIGIN = "Book a flight from {{ORIGIN_1}}";

    @RegisterExtension
    static final DemoServer demo = new DemoServer()
            .withSettings(settings -> settings.withLearning(new LearningSettings(
                    Duration.ofDays(14), Duration.ofSeconds(1), 20_000, 1_000_000, 1_000_000, 10_000)));

    /**
     * A server whose clock reads 10:30 UTC: a report by day over a window of whole hours passes for whole days only
     * when it is read during the 23:00 hour.
     */
    @RegisterExtension
    static final DemoServer morning =
            new DemoServer().withSettings(settings -> settings.withClock(at("2026-03-10T10:30:00Z")));

    private static TestClock at(String instant) {
        TestClock clock = new TestClock();
        clock.set(instant);
        return clock;
    }

    /** A server that keeps no unmatched spans ({@code analytics.keep-unmatched: false}). */
    @RegisterExtension
    static final DemoServer discreet = new DemoServer().withSettings(settings -> settings.withKeepUnmatched(false));

    /** A server with a second travel key allowed two requests at once and one a second after. */
    @RegisterExtension
    static final DemoServer strict = new DemoServer().withKey("slow", "travel", "--rate", "1/s", "--burst", "2");

    /** What the simulation sent and measured. */
    private static final class Simulation {
        int requests;
        final Set<String> sessions = new HashSet<>();
        final Set<String> readySessions = new HashSet<>();
        int honestPicks;
        long typed;
        long length;

        ApiClient.Reply destination(DemoServer server, String session, String typed) {
            ObjectNode body = fill(envelope(ORIGIN + typed), "{{ORIGIN_1}}", "origin", "Paris");
            ((ObjectNode) body.path("meta")).put("session_id", session);
            requests++;
            sessions.add(session);
            return server.suggestOk("travel", body);
        }

        void ready(DemoServer server, String session) {
            ObjectNode body = envelope("Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}}");
            fill(body, "{{ORIGIN_1}}", "origin", "Paris");
            fill(body, "{{DESTINATION_1}}", "destination", "London");
            ((ObjectNode) body.path("meta")).put("session_id", session);
            requests++;
            sessions.add(session);
            readySessions.add(session);
            assertTrue(server.suggestOk("travel", body).data().path("is_ready").asBoolean());
        }

        /** An honest pick: the letters typed for the param against the option's length, as the simulation sees them. */
        void honest(DemoServer server, String session, String typed, String option) {
            pick(server, session, typed, option);
            honestPicks++;
            this.typed += typed.length();
            this.length += option.length();
        }
    }

    /** Posts the official client's event for a pick of {@code option} after {@code typed}; asserts the 204. */
    private static void pick(DemoServer server, String session, String typed, String option) {
        ObjectNode event = ApiClient.JSON
                .createObjectNode()
                .put("source", "full-sdk")
                .put("session_id", session)
                .put("type", "option")
                .put("at", "2026-11-25T10:00:00Z");
        event.putObject("query_data")
                .put("raw_query", ORIGIN + " to " + typed)
                .put("selected_option", option)
                .putArray("other_options");
        ApiClient.Reply reply = server.api()
                .post("/api/telemetry/events", server.key("travel"), event.toString(), "application/json", Map.of());
        assertEquals(204, reply.status(), reply.raw());
    }

    private static String session() {
        return UUID.randomUUID().toString();
    }

    static ApiClient management(DemoServer server) {
        return ApiClient.management(server.server().managementPort());
    }

    /**
     * The figures once they hold still: a request is counted as its answer leaves, a moment after the client has
     * it, so they are read until two reads 100 ms apart agree.
     */
    private static JsonNode analytics(DemoServer server) {
        return analytics(server, "travel");
    }

    static JsonNode analytics(DemoServer server, String product) {
        JsonNode last = null;
        for (int i = 0; i < 50; i++) {
            server.server().learning().flush();
            server.server().analytics().flush();
            ApiClient.Reply reply =
                    management(server).get("/admin/api/analytics?tenant=demo&product=" + product + "&days=1");
            assertEquals(200, reply.status(), reply.raw());
            if (reply.data().equals(last)) {
                return last;
            }
            last = reply.data();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return last;
    }

    @Test
    void the_figures_are_what_the_simulated_users_did() throws Exception {
        Simulation sim = new Simulation();
        // Who picks what: one option five times, another three times, a third once, each after its own letters.
        List<String> plan = new ArrayList<>();
        String porto = sim.destination(demo, session(), " to Po")
                .options("destination")
                .getFirst();
        String london = sim.destination(demo, session(), " to Lo")
                .options("destination")
                .getFirst();
        String madrid = sim.destination(demo, session(), " to Ma")
                .options("destination")
                .get(1);
        for (int i = 0; i < 9; i++) {
            plan.add(i < 5 ? "Po" : i < 8 ? "Lo" : "Ma");
        }
        for (String typed : plan) {
            String option = typed.equals("Po") ? porto : typed.equals("Lo") ? london : madrid;
            String session = session();
            List<String> offered =
                    sim.destination(demo, session, " to " + typed).options("destination");
            assertTrue(offered.contains(option), option + " in " + offered);
            sim.honest(demo, session, typed, option);
            pick(demo, session, typed, option); // the same pick again in the session: not counted twice
        }
        // One more of London, sent back as a script may write it: one option with the others, shown as offered.
        String shouted = session();
        assertTrue(
                sim.destination(demo, shouted, " to Lo").options("destination").contains(london));
        sim.honest(demo, shouted, "Lo", london.toUpperCase(java.util.Locale.ROOT));
        // Forged picks: options the session was never offered, and a session that asked nothing.
        String shown = session();
        sim.destination(demo, shown, " to Zu");
        pick(demo, shown, "Lo", "Lomé");
        pick(demo, session(), "Po", porto);
        for (int i = 0; i < 4; i++) {
            sim.ready(demo, session());
        }
        // A span that matches nothing, typed 50 times over ten sessions.
        List<String> typists = List.of(
                session(), session(), session(), session(), session(), session(), session(), session(), session(),
                session());
        for (int i = 0; i < 50; i++) {
            ApiClient.Reply reply = sim.destination(demo, typists.get(i % 10), " to Zzqx");
            assertEquals(List.of(), reply.options("destination"), reply.raw());
        }
        // Typing steps (`zz`, `zzq` on the way to `zzqx`: an operator trial saw bl, blor and blorp for one typist) are
        // absorbed by a longer span typed at least as often; a span typed more often than its extension stays.
        sim.destination(demo, typists.get(0), " to Zz");
        sim.destination(demo, typists.get(0), " to Zzq");
        for (int i = 0; i < 3; i++) {
            sim.destination(demo, typists.get(i), " to Qwq");
        }
        sim.destination(demo, typists.get(3), " to Qwqx");

        JsonNode data = analytics(demo);
        assertEquals(sim.requests, data.path("requests").asInt(), data.toString());
        assertEquals(sim.sessions.size(), data.path("sessions").asDouble(), 2, "sessions, counted approximately");
        assertEquals(sim.readySessions.size(), data.path("ready_sessions").asInt(), data.toString());
        assertEquals(sim.honestPicks, data.path("picks").asInt(), "honest picks, once each");
        double saving = 1 - (double) sim.typed / sim.length;
        assertEquals(saving, data.path("keystroke_saving").asDouble(), 0.02, data.toString());
        List<String> top = new ArrayList<>();
        data.path("top_picks")
                .forEach(p -> top.add(p.path("type").asText() + ":"
                        + p.path("text").asText() + "=" + p.path("count").asInt()));
        assertEquals(
                List.of("destination:" + porto + "=5", "destination:" + london + "=4", "destination:" + madrid + "=1"),
                top,
                "the options as they were offered, most picked first");
        assertEquals("zzqx", data.path("unmatched").get(0).path("text").asText(), data.toString());
        assertEquals(50, data.path("unmatched").get(0).path("count").asInt(), data.toString());
        List<String> unmatched = new ArrayList<>();
        data.path("unmatched")
                .forEach(u -> unmatched.add(
                        u.path("text").asText() + "=" + u.path("count").asInt()));
        assertEquals(List.of("zzqx=50", "qwq=3", "qwqx=1"), unmatched, data.toString());
        assertNotNull(data.path("p50_ms").numberValue(), data.toString());
        assertNotNull(data.path("p99_ms").numberValue(), data.toString());
        int seriesRequests = 0;
        int seriesPicks = 0;
        for (JsonNode point : data.path("series")) {
            seriesRequests += point.path("requests").asInt();
            seriesPicks += point.path("picks").asInt();
        }
        assertEquals(24, data.path("series").size(), "a day by hour");
        assertEquals(sim.requests, seriesRequests);
        assertEquals(sim.honestPicks, seriesPicks);
        assertFalse(data.toString().contains("Paris"), "no query text beyond the folded spans and options");
    }

    @Test
    void with_keep_unmatched_false_no_span_is_kept() {
        for (int i = 0; i < 3; i++) {
            ObjectNode body = fill(envelope(ORIGIN + " to Zzqx"), "{{ORIGIN_1}}", "origin", "Paris");
            discreet.suggestOk("travel", body);
        }
        JsonNode data = analytics(discreet);
        assertEquals(3, data.path("requests").asInt(), data.toString());
        assertEquals(0, data.path("unmatched").size(), data.toString());
        assertFalse(data.path("unmatched_kept").asBoolean());
    }

    @Test
    void by_day_a_report_has_a_point_for_each_whole_utc_day_today_last() {
        JsonNode data = management(morning)
                .get("/admin/api/analytics?tenant=demo&product=travel&days=7")
                .data();
        assertEquals("2026-03-04T00:00:00Z", data.path("from").asText(), data.toString());
        assertEquals("2026-03-10T11:00:00Z", data.path("to").asText(), "today so far, this hour included");
        assertEquals("day", data.path("granularity").asText(), data.toString());
        JsonNode series = data.path("series");
        assertEquals(7, series.size(), "seven days, not the last hours of an eighth: " + data);
        assertEquals(data.path("from").asText(), series.get(0).path("at").asText());
        for (JsonNode point : series) {
            assertTrue(point.path("at").asText().endsWith("T00:00:00Z"), point.toString());
        }
        java.time.Instant lastHour =
                java.time.Instant.parse(data.path("to").asText()).minusSeconds(3600);
        assertEquals(
                lastHour.truncatedTo(java.time.temporal.ChronoUnit.DAYS).toString(),
                series.get(6).path("at").asText(),
                "today is the last point");
    }

    @Test
    void bad_parameters_are_refused_with_a_clear_error() {
        ApiClient admin = management(demo);
        assertEquals(
                "INVALID_REQUEST",
                admin.get("/admin/api/analytics?tenant=demo&product=travel&days=0")
                        .errorCode());
        assertEquals(
                "INVALID_REQUEST",
                admin.get("/admin/api/analytics?tenant=demo&product=travel&days=x")
                        .errorCode());
        assertEquals(
                "NOT_FOUND",
                admin.get("/admin/api/analytics?tenant=nobody&product=travel&days=1")
                        .errorCode());
        assertEquals(
                "NOT_FOUND",
                admin.get("/admin/api/analytics?tenant=demo&product=none&days=1")
                        .errorCode());
        // A parameter left out is the caller's mistake, named as such: not a product called ''.
        for (String query : List.of("tenant=demo", "product=travel", "")) {
            ApiClient.Reply reply = admin.get("/admin/api/analytics?" + query);
            assertEquals(400, reply.status(), query + ": " + reply.raw());
            assertTrue(reply.raw().contains("?tenant=T&product=P"), reply.raw());
        }
    }

    @Test
    void the_console_answers_nothing_on_the_public_port_and_its_listener_is_loopback_by_default() {
        for (String path : List.of(
                "/admin",
                "/admin/",
                "/admin/api/analytics?tenant=demo&product=travel&days=1",
                "/admin/api/overview",
                "/admin/api/keys")) {
            ApiClient.Reply reply = demo.api().get(path);
            assertEquals(404, reply.status(), path + ": " + reply.raw());
            assertEquals("NOT_FOUND", reply.errorCode());
        }
        assertEquals(
                404,
                demo.api()
                        .post(
                                "/admin/api/try-key",
                                null,
                                "{\"tenant\":\"demo\",\"product\":\"travel\"}",
                                "application/json",
                                Map.of())
                        .status());
        assertEquals("127.0.0.1", ServerSettings.defaults().management().host());
    }

    /** {@code endpoint status code=count} of each refusal in a list of them, in its order. */
    static List<String> refusals(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(r ->
                out.add(r.path("endpoint").asText() + " " + r.path("status").asInt() + " "
                        + r.path("code").asText() + "=" + r.path("count").asLong()));
        return out;
    }

    /**
     * An operator trial: a client sending bad bodies, or past its key's rate limit, showed in the analytics as a
     * product with fewer requests and no reason. Refused requests are counted for their product by endpoint, status
     * and code; those refused before a key named a product are no product's, and the overview shows them.
     */
    @Test
    void refused_requests_are_counted_for_their_product_by_code_and_those_of_no_known_key_for_no_product()
            throws Exception {
        ApiClient api = strict.api();
        String travel = strict.key("travel");
        String secretQuery = "Book a flight from Zanzibarxq";
        for (int i = 0; i < 3; i++) {
            ApiClient.Reply bad = api.post(
                    "/api/suggest",
                    travel,
                    "{\"data\": {\"raw_query\": \"" + secretQuery,
                    "application/json",
                    Map.of());
            assertEquals(400, bad.status(), bad.raw());
            assertEquals("INVALID_JSON", bad.errorCode());
        }
        ApiClient.Reply plain =
                api.post("/api/suggest", travel, envelope(secretQuery).toString(), "text/plain", Map.of());
        assertEquals(415, plain.status(), plain.raw());
        assertEquals("UNSUPPORTED_MEDIA_TYPE", plain.errorCode());
        ApiClient.Reply event = api.post("/api/telemetry/events", travel, "[1,", "application/json", Map.of());
        assertEquals(400, event.status(), event.raw());
        String eventCode = event.errorCode();
        // Past the slow key's burst: its answered requests count as requests, its 429s as refusals.
        int answered = 0;
        int limited = 0;
        for (int i = 0; i < 6; i++) {
            ApiClient.Reply reply = api.suggest(strict.key("slow"), envelope("Book a flight from "));
            if (reply.status() == 429) {
                assertEquals("RATE_LIMITED", reply.errorCode(), reply.raw());
                limited++;
            } else {
                assertEquals(200, reply.status(), reply.raw());
                answered++;
            }
        }
        assertTrue(limited >= 3, limited + " of 6 refused");
        // Another product's refusal is its own.
        assertEquals(
                400,
                api.post("/api/suggest", strict.key("workspace"), "{", "application/json", Map.of())
                        .status());
        // Refused before any product is known: an unknown key twice, none once. Nobody's in the analytics.
        String unknown = "pk_v1_" + "Q".repeat(40);
        for (int i = 0; i < 2; i++) {
            ApiClient.Reply reply = api.suggest(unknown, envelope("Book"));
            assertEquals(401, reply.status(), reply.raw());
        }
        ApiClient.Reply none = api.post("/api/suggest", null, "{", "application/json", Map.of());
        assertEquals(401, none.status(), none.raw());

        JsonNode data = analytics(strict);
        List<String> byCode = refusals(data.path("refused_by_code"));
        assertEquals(
                Set.of(
                        "suggest 400 INVALID_JSON=3",
                        "suggest 429 RATE_LIMITED=" + limited,
                        "suggest 415 UNSUPPORTED_MEDIA_TYPE=1",
                        "telemetry 400 " + eventCode + "=1"),
                new HashSet<>(byCode),
                data.toString());
        assertEquals(4, byCode.size(), byCode.toString());
        for (int i = 1; i < byCode.size(); i++) {
            long before = data.path("refused_by_code").get(i - 1).path("count").asLong();
            assertTrue(
                    before >= data.path("refused_by_code").get(i).path("count").asLong(), "most first: " + byCode);
        }
        assertEquals(3 + 1 + 1 + limited, data.path("refused").asInt(), data.toString());
        assertEquals(answered, data.path("requests").asInt(), "refusals are not requests: " + data);
        int seriesRefused = 0;
        for (JsonNode point : data.path("series")) {
            seriesRefused += point.path("refused").asInt();
        }
        assertEquals(3 + 1 + 1 + limited, seriesRefused, data.toString());
        String text = data.toString();
        assertFalse(text.contains("INVALID_CREDENTIALS") || text.contains("MISSING_CREDENTIALS"), text);
        assertFalse(text.contains("Zanzibar") || text.contains("pk_v1_"), "never a query or a key: " + text);

        JsonNode workspace = analytics(strict, "workspace");
        assertEquals(List.of("suggest 400 INVALID_JSON=1"), refusals(workspace.path("refused_by_code")));
        assertEquals(1, workspace.path("refused").asInt());

        JsonNode server = management(strict).get("/admin/api/overview").data().path("server");
        List<String> nobody = refusals(server.path("refused_without_tenant"));
        assertTrue(nobody.contains("suggest 401 INVALID_CREDENTIALS=2"), nobody.toString());
        assertTrue(nobody.stream().anyMatch(r -> r.startsWith("suggest 401 ") && r.endsWith("=1")), nobody.toString());
        assertFalse(server.toString().contains(unknown.substring(0, 12)), "never a key: " + server);
    }
}
