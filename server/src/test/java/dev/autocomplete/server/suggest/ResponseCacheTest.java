package dev.autocomplete.server.suggest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.server.engines.GuardedEngine;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestRequestReader;
import dev.autocomplete.server.protocol.SuggestResponse;
import dev.autocomplete.server.reading.Localized;
import dev.autocomplete.server.reading.ProductModel;
import dev.autocomplete.server.tenant.EngineLimits;
import dev.autocomplete.server.tenant.Product;
import dev.autocomplete.spi.Ask;
import dev.autocomplete.spi.Engine;
import dev.autocomplete.spi.Option;
import dev.autocomplete.spi.SpanMatch;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What the response cache keys on, and what it never caches. */
class ResponseCacheTest {

    private static final LocalDate TODAY = LocalDate.of(2026, 11, 22);

    private static Product product(boolean cacheable) {
        Engine engine = new Engine() {
            @Override
            public Set<String> paramTypes() {
                return Set.of("city");
            }

            @Override
            public boolean cacheable() {
                return cacheable;
            }

            @Override
            public List<SpanMatch> match(Ask ask, List<String> spans) {
                return spans.stream().map(s -> SpanMatch.NONE).toList();
            }

            @Override
            public List<Option> options(Ask ask, String typed) {
                return List.of();
            }
        };
        GuardedEngine guarded = new GuardedEngine(
                "t",
                "travel",
                "catalog",
                engine,
                ResponseCacheTest.class.getClassLoader(),
                5,
                Duration.ofSeconds(30),
                false,
                null);
        ProductModel model = new ProductModel(Localized.of("Go"), List.of());
        return new Product(
                UUID.randomUUID(),
                "travel",
                10,
                java.time.ZoneOffset.UTC,
                model,
                List.of(guarded),
                Map.of("city", guarded),
                EngineLimits.DEFAULTS);
    }

    private static final Product CACHEABLE = product(true);

    private static final SuggestRequestReader READER = new SuggestRequestReader(new ObjectMapper());

    /**
     * A body as a client sends it: {@code context} is a JSON object or null, {@code requestId} the last digit of its
     * UUID, {@code language} a tag or null; {@code echo} the {@code identified_params} member or null for none.
     */
    private static byte[] body(String raw, String context, String requestId, String language, String echo) {
        String data = "{\"raw_query\":\"" + raw + "\",\"completed_params\":[]"
                + (echo == null ? "" : ",\"identified_params\":" + echo)
                + (context == null ? "" : ",\"additional_context\":" + context) + "}";
        String meta = "{\"request_id\":\"6e5d4c3b-2a19-4807-9f6e-5d4c3b2a190" + requestId + "\","
                + "\"request_at\":\"2026-11-22T10:00:00Z\""
                + (language == null ? "" : ",\"language\":\"" + language + "\"") + "}";
        return ("{\"data\":" + data + ",\"meta\":" + meta + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] request(String raw, String context, String requestId, String language) {
        return body(raw, context, requestId, language, null);
    }

    /** The request a body reads as: the kept one with this body's envelope on a hit, else read whole. */
    private static SuggestRequest lookUp(
            ResponseCache cache, Product product, byte[] body, LocalDate today, AtomicInteger calls) {
        SuggestRequestReader.Keyed keyed = READER.keyed(body);
        ResponseCache.Lookup lookup = cache.find(product, keyed, today, 0);
        if (lookup.hit() != null) {
            assertNotNull(lookup.hit().response().data(), "a kept answer's data is written when it is kept");
            return keyed.request(lookup.hit().request());
        }
        calls.incrementAndGet();
        SuggestRequest request = READER.read(body);
        SuggestResponse fresh = new SuggestResponse("", null, List.of(), false, null, null, null);
        SuggestResponse sent = cache.put(lookup, request, fresh);
        assertEquals(lookup.key() != null, sent.data() != null, "written only when kept");
        assertEquals(fresh, sent);
        return request;
    }

    @Test
    void a_request_that_differs_only_in_meta_ids_is_a_hit() {
        ResponseCache cache = new ResponseCache(100);
        AtomicInteger calls = new AtomicInteger();
        lookUp(cache, CACHEABLE, request("lon", null, "a", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("lon", null, "b", "en"), TODAY, calls);
        assertEquals(1, calls.get());
    }

    @Test
    void a_hit_reads_as_its_own_body_envelope_and_echo_included() {
        ResponseCache cache = new ResponseCache(100);
        AtomicInteger calls = new AtomicInteger();
        SuggestRequest first = lookUp(cache, CACHEABLE, body("lon", null, "a", "en", null), TODAY, calls);
        SuggestRequest second = lookUp(
                cache,
                CACHEABLE,
                body("lon", null, "b", "en", "[{\"type\":\"city\",\"value\":\"Lon\"}]"),
                TODAY,
                calls);
        assertEquals(1, calls.get(), "identified_params shape no answer");
        assertEquals(READER.read(body("lon", null, "b", "en", "[{\"type\":\"city\",\"value\":\"Lon\"}]")), second);
        assertEquals(List.of(), first.identifiedEcho());
        assertEquals("6e5d4c3b-2a19-4807-9f6e-5d4c3b2a190b", second.requestId());
    }

    @Test
    void a_body_whose_envelope_or_echo_would_be_refused_is_read_whole_and_refused_as_before() {
        ResponseCache cache = new ResponseCache(100);
        AtomicInteger calls = new AtomicInteger();
        lookUp(cache, CACHEABLE, body("lon", null, "a", "en", null), TODAY, calls);
        byte[] badId = body("lon", null, "a", "en", null);
        String text = new String(badId, StandardCharsets.UTF_8).replace("5d4c3b2a190a", "5d4c3b2a190");
        byte[] badEcho = body("lon", null, "a", "en", "[{\"type\":\"city\"}]");
        byte[] twoMetas = new String(body("lon", null, "a", "en", null), StandardCharsets.UTF_8)
                .replace("}}", "},\"meta\":{\"request_id\":\"nope\"}}")
                .getBytes(StandardCharsets.UTF_8);
        for (byte[] refused : List.of(text.getBytes(StandardCharsets.UTF_8), badEcho, twoMetas)) {
            assertNull(READER.keyed(refused), new String(refused, StandardCharsets.UTF_8));
            ApiException error = assertThrows(ApiException.class, () -> READER.read(refused));
            assertTrue(Set.of("INVALID_REQUEST_ID", "INVALID_REQUEST").contains(error.code()), error.code());
        }
        assertEquals(1, calls.get());
    }

    @Test
    void data_sent_otherwise_is_another_key_and_an_echo_anywhere_is_none() {
        ResponseCache cache = new ResponseCache(100);
        AtomicInteger calls = new AtomicInteger();
        lookUp(cache, CACHEABLE, body("lon", "{\"a\":\"1\",\"b\":\"2\"}", "a", "en", null), TODAY, calls);
        lookUp(cache, CACHEABLE, body("lon", "{\"b\":\"2\",\"a\":\"1\"}", "a", "en", null), TODAY, calls);
        assertEquals(2, calls.get(), "the bytes as sent: one client sends one order");
        String meta =
                ",\"meta\":{\"request_id\":\"6e5d4c3b-2a19-4807-9f6e-5d4c3b2a190a\",\"request_at\":\"2026-11-22T10:00:00Z\"}}";
        for (String data : List.of(
                "{\"raw_query\":\"lon\",\"x\":1}",
                "{\"identified_params\":[],\"raw_query\":\"lon\",\"x\":1}",
                "{\"raw_query\":\"lon\", \"identified_params\" : null ,\"x\":1}",
                "{\"raw_query\":\"lon\",\"x\":1,\"identified_params\":[{\"type\":\"city\",\"value\":\"Lon\"}]}")) {
            SuggestRequestReader.Keyed keyed =
                    READER.keyed(("{\"data\":" + data + meta).getBytes(StandardCharsets.UTF_8));
            assertEquals(
                    data.contains(" ") ? "{\"raw_query\":\"lon\" ,\"x\":1}" : "{\"raw_query\":\"lon\",\"x\":1}",
                    new String(keyed.data(), StandardCharsets.UTF_8),
                    data);
        }
        byte[] alone =
                "{\"data\":{ \"identified_params\":[] },\"meta\":{\"request_id\":\"6e5d4c3b-2a19-4807-9f6e-5d4c3b2a190a\",\"request_at\":\"2026-11-22T10:00:00Z\"}}"
                        .getBytes(StandardCharsets.UTF_8);
        assertEquals("{  }", new String(READER.keyed(alone).data(), StandardCharsets.UTF_8));
    }

    @Test
    void query_context_language_and_today_each_shape_the_key() {
        ResponseCache cache = new ResponseCache(100);
        AtomicInteger calls = new AtomicInteger();
        String lyon = "{\"home_city\":\"Lyon\"}";
        lookUp(cache, CACHEABLE, request("lon", null, "a", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("lond", null, "a", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("lon", lyon, "a", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("lon", null, "a", "fr"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("lon", null, "a", "en"), TODAY.plusDays(1), calls);
        assertEquals(5, calls.get());
    }

    @Test
    void uncacheable_engines_and_a_zero_size_cache_always_compute() {
        AtomicInteger calls = new AtomicInteger();
        ResponseCache cache = new ResponseCache(100);
        Product live = product(false);
        lookUp(cache, live, request("to", null, "a", null), TODAY, calls);
        lookUp(cache, live, request("to", null, "a", null), TODAY, calls);
        ResponseCache off = new ResponseCache(0);
        lookUp(off, CACHEABLE, request("to", null, "a", null), TODAY, calls);
        lookUp(off, CACHEABLE, request("to", null, "a", null), TODAY, calls);
        assertEquals(4, calls.get());
    }

    @Test
    void the_answer_asked_for_least_recently_goes_first_and_the_size_stays_bounded() {
        ResponseCache cache = new ResponseCache(4);
        AtomicInteger calls = new AtomicInteger();
        lookUp(cache, CACHEABLE, request("a", null, "1", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("b", null, "1", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("a", null, "2", "en"), TODAY, calls); // a asked again
        lookUp(cache, CACHEABLE, request("c", null, "1", "en"), TODAY, calls);
        lookUp(cache, CACHEABLE, request("d", null, "1", "en"), TODAY, calls);
        assertEquals(4, calls.get());
        lookUp(cache, CACHEABLE, request("a", null, "3", "en"), TODAY, calls);
        assertEquals(4, calls.get(), "a, asked lately, is kept");
        lookUp(cache, CACHEABLE, request("b", null, "2", "en"), TODAY, calls);
        assertEquals(5, calls.get(), "b, asked least recently, went first");
        for (int i = 0; i < 1_000; i++) {
            lookUp(cache, CACHEABLE, request("q" + i, null, "1", "en"), TODAY, calls);
            assertTrue(cache.size() <= 4, "kept " + cache.size());
        }
        assertEquals(1_005, calls.get(), "1,007 lookups: two hits (a, asked again), the rest computed");
    }

    @Test
    void padded_bodies_are_kept_within_the_byte_budget_and_small_ones_still_fill_the_rest() {
        // A client may pad data with members the reader skips, up to the body limit, and every distinct body is a
        // new key holding all of its data: the entry count alone let 20,000 of them take over a gigabyte.
        long budget = 1 << 20;
        ResponseCache cache = new ResponseCache(20_000, budget);
        AtomicInteger calls = new AtomicInteger();
        String pad = "x".repeat(60_000);
        long padded = 0;
        for (int i = 0; i < 200; i++) {
            byte[] body = ("{\"data\":{\"raw_query\":\"to\",\"completed_params\":[],\"pad\":\"" + pad + i + "\"},"
                            + "\"meta\":{\"request_id\":\"6e5d4c3b-2a19-4807-9f6e-5d4c3b2a1901\","
                            + "\"request_at\":\"2026-11-22T10:00:00Z\"}}")
                    .getBytes(StandardCharsets.UTF_8);
            padded = ResponseCache.weight(READER.keyed(body).data().length);
            lookUp(cache, CACHEABLE, body, TODAY, calls);
            assertTrue(cache.size() * padded <= budget + padded, "kept " + cache.size() + " padded answers");
        }
        assertEquals(200, calls.get());
        assertTrue(cache.size() >= 2, "the budget still keeps padded answers: " + cache.size());

        for (int i = 0; i < 1_000; i++) {
            lookUp(cache, CACHEABLE, request("q" + i, null, "1", "en"), TODAY, calls);
        }
        long small = ResponseCache.weight(
                READER.keyed(request("q999", null, "1", "en")).data().length);
        assertTrue(cache.size() * small <= budget + small, "kept " + cache.size());
        assertTrue(cache.size() >= budget / small / 2, "small answers fill the budget: " + cache.size());
        lookUp(cache, CACHEABLE, request("q999", null, "2", "en"), TODAY, calls);
        assertEquals(1_200, calls.get(), "the latest small answer is a hit");
    }
}
