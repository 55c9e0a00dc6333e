package dev.autocomplete.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.server.LogLines;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestResponse;
import dev.autocomplete.spi.AdditionalContext;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link AccessLog}: one JSON line per request with what may be logged, and no line lost. */
class AccessLogTest {

    private static final String REQUEST_ID = "0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a";
    private static final String SESSION = "6e5d4c3b-2a19-4807-9f6e-5d4c3b2a1908";
    private static final String CONTEXT_SECRET = "context-secret-4711";

    private final ObjectMapper json = new ObjectMapper();
    private LogLines captured;

    /** Lines reach this test only, not the console: one test writes eighteen thousand. */
    @BeforeEach
    void captureLines() {
        captured = LogLines.quiet(AccessLog.LOGGER);
    }

    @AfterEach
    void releaseLines() {
        captured.close();
    }

    private static SuggestRequest body(String rawQuery) {
        AdditionalContext context = new AdditionalContext(
                new AdditionalContext.Fields(Map.of("note", new AdditionalContext.Text(CONTEXT_SECRET))));
        return new SuggestRequest(
                rawQuery,
                Map.of("{{CITY_1}}", new SuggestRequest.Fill("city", "Paris \"Nord\"")),
                Set.of(),
                context,
                List.of(),
                List.of(),
                REQUEST_ID,
                "2026-03-01T10:00:00Z",
                SESSION,
                null);
    }

    private static AccessLog.Entry entry(SuggestRequest body, boolean logQuery) {
        return new AccessLog.Entry(
                "POST",
                "/api/suggest",
                "demo",
                "travel",
                body,
                null,
                200,
                null,
                12_345_678,
                2_500_000,
                "timeout",
                logQuery,
                null);
    }

    private List<JsonNode> written(AccessLog.Entry... entries) throws Exception {
        try (AccessLog log = new AccessLog()) {
            for (AccessLog.Entry entry : entries) {
                log.write(entry);
            }
        }
        List<JsonNode> parsed = new java.util.ArrayList<>();
        for (String line : captured.lines()) {
            assertFalse(line.contains("\n"), "one line: " + line);
            parsed.add(json.readTree(line));
        }
        return parsed;
    }

    @Test
    void a_line_holds_the_requests_facts_as_json() throws Exception {
        JsonNode line = written(entry(body("Fly from {{CITY_1}}"), false)).getFirst();

        assertTrue(
                line.path("time").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z"),
                line.toString());
        assertEquals(REQUEST_ID, line.path("request_id").asText());
        assertEquals(SESSION, line.path("session_id").asText());
        assertEquals("POST", line.path("method").asText());
        assertEquals("/api/suggest", line.path("path").asText());
        assertEquals("demo", line.path("tenant").asText());
        assertEquals("travel", line.path("product").asText());
        assertEquals(200, line.path("status").asInt());
        assertTrue(line.path("error").isNull());
        assertEquals(12.35, line.path("duration_ms").asDouble());
        assertEquals(2.5, line.path("engine_ms").asDouble());
        assertEquals("timeout", line.path("fallback").asText());
    }

    @Test
    void the_query_and_picked_texts_appear_only_for_a_tenant_that_logs_queries_and_the_context_never()
            throws Exception {
        List<JsonNode> lines =
                written(entry(body("Fly from {{CITY_1}}"), false), entry(body("Fly \"from\"\n{{CITY_1}}\u0001"), true));

        assertFalse(lines.get(0).has("raw_query"), lines.get(0).toString());
        assertFalse(lines.get(0).has("params"));
        assertEquals(
                "Fly \"from\"\n{{CITY_1}}\u0001", lines.get(1).path("raw_query").asText(), "escaped, read back");
        assertEquals(
                "Paris \"Nord\"", lines.get(1).path("params").path("{{CITY_1}}").asText());
        assertTrue(
                captured.lines().stream().noneMatch(line -> line.contains(CONTEXT_SECRET)),
                captured.lines().toString());
    }

    @Test
    void the_session_of_the_answer_is_logged_when_the_server_minted_it() throws Exception {
        SuggestRequest noSession = new SuggestRequest(
                "",
                Map.of(),
                Set.of(),
                AdditionalContext.NONE,
                List.of(),
                List.of(),
                REQUEST_ID,
                "2026-03-01T10:00:00Z",
                null,
                null);
        SuggestResponse answer =
                new SuggestResponse("", null, List.of(), false, REQUEST_ID, "2026-03-01T10:00:00Z", SESSION);
        JsonNode line = written(new AccessLog.Entry(
                        "POST",
                        "/api/suggest",
                        "demo",
                        "travel",
                        noSession,
                        answer,
                        200,
                        null,
                        1,
                        0,
                        null,
                        false,
                        null))
                .getFirst();

        assertEquals(SESSION, line.path("session_id").asText());
    }

    @Test
    void a_refused_request_has_no_tenant_and_names_its_error() throws Exception {
        JsonNode line = written(new AccessLog.Entry(
                        "POST",
                        "/api/suggest",
                        null,
                        null,
                        null,
                        null,
                        401,
                        "INVALID_CREDENTIALS",
                        1,
                        0,
                        null,
                        false,
                        null))
                .getFirst();

        assertEquals(401, line.path("status").asInt());
        assertEquals("INVALID_CREDENTIALS", line.path("error").asText());
        assertTrue(line.path("tenant").isNull() && line.path("request_id").isNull(), line.toString());
    }

    /**
     * Many requests' threads at once, while the writer takes what they queued: every line written once, whole, and
     * each thread's in its order.
     */
    @Test
    void lines_of_many_threads_are_written_once_whole_and_in_each_threads_order() throws Exception {
        int threads = 6;
        int each = 3_000;
        try (AccessLog log = new AccessLog()) {
            writeFromThreads(log, threads, each, null, 500); // across the writer's batches
        }
        assertEachThreadsLinesInOrder(captured.lines(), threads, each, null);
    }

    /**
     * Writes {@code each} lines from each of {@code threads} virtual threads, line i of thread t with the path
     * {@code /t<t>/<i>} and {@code tenant}, pausing 25 ms every {@code pauseEvery} lines (0: never); returns once all
     * were written.
     */
    private static void writeFromThreads(AccessLog log, int threads, int each, String tenant, int pauseEvery)
            throws InterruptedException {
        List<Thread> requests = new java.util.ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            requests.add(Thread.ofVirtual().start(() -> {
                for (int i = 0; i < each; i++) {
                    log.write(new AccessLog.Entry(
                            "GET",
                            "/t" + thread + "/" + i,
                            tenant,
                            null,
                            null,
                            null,
                            200,
                            null,
                            1,
                            0,
                            null,
                            false,
                            null));
                    if (pauseEvery > 0 && i % pauseEvery == 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(25_000_000);
                    }
                }
            }));
        }
        for (Thread request : requests) {
            request.join();
        }
    }

    /** Every line {@link #writeFromThreads} wrote, once, whole, and each thread's in the order it wrote them. */
    private void assertEachThreadsLinesInOrder(List<String> lines, int threads, int each, String tenant)
            throws Exception {
        assertEquals(threads * each, lines.size());
        int[] next = new int[threads];
        for (String text : lines) {
            JsonNode line = json.readTree(text);
            String[] path = line.path("path").asText().split("/");
            int thread = Integer.parseInt(path[1].substring(1));
            assertEquals(next[thread]++, Integer.parseInt(path[2]), "thread " + thread + "'s lines in order");
            assertEquals(tenant == null ? "" : tenant, line.path("tenant").asText(""));
        }
    }

    /**
     * The path a server without handlers of the operator's takes: lines appended to the {@link AccessLog.LineHandler}'s
     * buffer by the requests' threads and written out by the writer, here to an output slower than the lines come
     * (so the requests write out themselves beyond {@link AccessLog#BUFFER_BYTES}): none lost, each whole, each
     * thread's in order.
     */
    @Test
    void lines_through_the_line_buffer_are_written_once_whole_and_in_order_even_when_the_output_is_slow()
            throws Exception {
        java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
        Set<String> writers = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.io.OutputStream slow = new java.io.OutputStream() {
            @Override
            public synchronized void write(int b) {
                written.write(b);
            }

            @Override
            public synchronized void write(byte[] bytes, int offset, int length) {
                java.util.concurrent.locks.LockSupport.parkNanos(length * 50L); // a console that lags: 20 MB a second
                writers.add(
                        Thread.currentThread().isVirtual()
                                ? "request"
                                : Thread.currentThread().getName());
                written.write(bytes, offset, length);
            }
        };
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(AccessLog.LOGGER);
        java.util.logging.Handler[] before = logger.getHandlers();
        boolean parents = logger.getUseParentHandlers();
        for (java.util.logging.Handler handler : before) {
            logger.removeHandler(handler);
        }
        AccessLog.LineHandler lines = new AccessLog.LineHandler(new java.io.PrintStream(slow, false));
        logger.addHandler(lines);
        logger.setUseParentHandlers(false);
        int threads = 4;
        String padding = "p".repeat(200);
        int each =
                AccessLog.BUFFER_BYTES / 250 / threads * 3; // three times what the buffer holds before a request writes
        try (AccessLog log = new AccessLog()) {
            writeFromThreads(log, threads, each, padding, 0);
        } finally {
            logger.removeHandler(lines);
            for (java.util.logging.Handler handler : before) {
                logger.addHandler(handler);
            }
            logger.setUseParentHandlers(parents);
        }
        assertEachThreadsLinesInOrder(
                written.toString(java.nio.charset.StandardCharsets.UTF_8)
                        .lines()
                        .toList(),
                threads,
                each,
                padding);
        assertTrue(captured.lines().isEmpty(), "the handlers of before saw none of it");
        assertTrue(
                writers.containsAll(Set.of("access-log", "request")),
                "written out by the writer, and by requests once full (and by close): " + writers);
    }

    /**
     * A handler added while the log runs (the operator's configuration read late, a test's capture) gets the lines
     * written from then on, also those a request appended to the line buffer before the writer noticed it.
     */
    @Test
    void a_handler_added_while_the_log_runs_gets_the_lines_written_since() throws Exception {
        java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(AccessLog.LOGGER);
        captured.close(); // the logger as a server's without handlers of the operator's: the line handler alone
        boolean parents = logger.getUseParentHandlers();
        java.util.logging.Handler[] before = logger.getHandlers();
        for (java.util.logging.Handler handler : before) {
            logger.removeHandler(handler);
        }
        AccessLog.LineHandler lines = new AccessLog.LineHandler(new java.io.PrintStream(written, true));
        logger.addHandler(lines);
        logger.setUseParentHandlers(false);
        try (AccessLog log = new AccessLog()) {
            captured = LogLines.quiet(AccessLog.LOGGER); // now two handlers: the buffer is no longer the only way out
            log.write(new AccessLog.Entry("GET", "/t0/0", null, null, null, null, 200, null, 1, 0, null, false, null));
            writeFromThreads(log, 2, 1_000, null, 250);
        } finally {
            logger.removeHandler(lines);
            for (java.util.logging.Handler handler : before) {
                logger.addHandler(handler);
            }
        }
        List<String> seen = new java.util.ArrayList<>(captured.lines());
        captured.close();
        logger.setUseParentHandlers(parents);
        captured = LogLines.quiet(AccessLog.LOGGER); // for the test's end, as the others'

        assertEquals("/t0/0", json.readTree(seen.removeFirst()).path("path").asText());
        assertEachThreadsLinesInOrder(seen, 2, 1_000, null);
        assertEquals(
                2_001,
                written.toString(java.nio.charset.StandardCharsets.UTF_8)
                        .lines()
                        .count(),
                "and the line handler, still one of the logger's, wrote each once");
    }

    @Test
    void every_line_is_written_by_close_even_beyond_the_queue() throws Exception {
        int count = AccessLog.QUEUE_CAPACITY + 2_000;
        AccessLog.Entry[] entries = new AccessLog.Entry[count];
        for (int i = 0; i < count; i++) {
            entries[i] = new AccessLog.Entry(
                    "GET", "/ready/" + i, null, null, null, null, 200, null, 1, 0, null, false, null);
        }
        List<JsonNode> lines = written(entries);

        assertEquals(count, lines.size());
        assertEquals(
                count,
                lines.stream()
                        .map(line -> line.path("path").asText())
                        .distinct()
                        .count());
    }

    @Test
    void text_beyond_ascii_is_written_as_utf8_and_a_lone_surrogate_escaped_so_every_text_reads_back() throws Exception {
        for (String query :
                List.of("Caf\u00e9 \u2708 \ud83d\ude00 {{CITY_1}} \u0000 \u007f", "Fly \ud800 to", "\udc00")) {
            byte[] line = AccessLog.format(entry(body(query), true), java.time.Instant.parse("2026-03-01T10:00:00.5Z"));
            JsonNode read = json.readTree(line);
            assertEquals(query, read.path("raw_query").asText());
            assertEquals("2026-03-01T10:00:00.500Z", read.path("time").asText());
            assertEquals(12.35, read.path("duration_ms").asDouble());
            assertEquals(
                    "Paris \"Nord\"", read.path("params").path("{{CITY_1}}").asText());
        }
    }

    @Test
    void the_time_is_written_as_an_instant_prints_it() throws Exception {
        java.util.Random random = new java.util.Random(3);
        List<java.time.Instant> times = new java.util.ArrayList<>(List.of(
                java.time.Instant.parse("2026-03-01T10:00:00Z"),
                java.time.Instant.parse("2026-03-01T10:00:00.000000005Z"),
                java.time.Instant.parse("2026-03-01T10:00:00.120Z"),
                java.time.Instant.parse("2026-03-01T10:00:00.000120Z"),
                java.time.Instant.parse("2026-03-01T23:59:59.999999999Z")));
        for (int i = 0; i < 2_000; i++) {
            times.add(java.time.Instant.ofEpochSecond(
                    random.nextLong(4_000_000_000L), random.nextInt(4) == 0 ? 0 : random.nextInt(1_000_000_000)));
        }
        for (java.time.Instant time : times) {
            JsonNode line = json.readTree(AccessLog.format(entry(body("x"), false), time));
            assertEquals(time.toString(), line.path("time").asText());
        }
    }

    /** More combinations than the writer keeps written: each line still names its own. */
    @Test
    void each_line_names_its_own_method_path_tenant_and_product() throws Exception {
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 300; i++) {
                String tenant = "tenant-" + i % 37;
                String product = i % 3 == 0 ? "" : "p\u00e9\"" + i % 11;
                String path = i % 2 == 0 ? "/api/suggest" : "/api/telemetry/events";
                String method = i % 5 == 0 ? "GET" : "POST";
                AccessLog.Entry entry = new AccessLog.Entry(
                        method, path, tenant, product, null, null, 401, "INVALID_API_KEY", 1, 0, null, false, null);
                JsonNode line = json.readTree(AccessLog.format(entry, java.time.Instant.EPOCH));
                assertEquals(method, line.path("method").asText());
                assertEquals(path, line.path("path").asText());
                assertEquals(tenant, line.path("tenant").asText());
                assertEquals(product, line.path("product").asText());
                assertTrue(line.path("request_id").isNull(), line.toString());
            }
        }
    }

    @Test
    void durations_are_written_to_two_decimals_as_a_double_prints_them() {
        long[] nanos = {
            0,
            4_999,
            5_000,
            10_000,
            50_000,
            100_000,
            1_000_000,
            1_230_000,
            12_345_678,
            999_999_999,
            1_000_000_000,
            86_400_000_000_000L,
            9_999_999_995_000_000L,
            10_000_000_000_000_000L,
            Long.MAX_VALUE,
            -40_000
        };
        java.util.Random random = new java.util.Random(7);
        List<Long> all = new java.util.ArrayList<>();
        for (long n : nanos) {
            all.add(n);
        }
        for (int i = 0; i < 20_000; i++) {
            all.add(random.nextLong(2_000_000_000L));
        }
        for (long n : all) {
            dev.autocomplete.server.protocol.JsonText line = new dev.autocomplete.server.protocol.JsonText(32);
            AccessLog.hundredths(line, n);
            assertEquals(
                    Double.toString(Math.round(n / 10_000.0) / 100.0),
                    new String(line.bytes(), java.nio.charset.StandardCharsets.US_ASCII),
                    n + " ns");
        }
    }
}
