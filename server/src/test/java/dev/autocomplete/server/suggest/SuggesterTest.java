package dev.autocomplete.server.suggest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.autocomplete.server.auth.Caller;
import dev.autocomplete.server.engines.EngineOutcome;
import dev.autocomplete.server.engines.EngineRunner;
import dev.autocomplete.server.protocol.ApiException;
import dev.autocomplete.server.protocol.SuggestRequest;
import dev.autocomplete.server.protocol.SuggestRequestReader;
import dev.autocomplete.server.protocol.SuggestResponse;
import dev.autocomplete.server.protocol.Uuids;
import dev.autocomplete.server.tenant.TenantRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Suggester} over a real tenant, engine runner and response cache: the answers and what is cached. */
class SuggesterTest {

    private static final String SESSION = "6e5d4c3b-2a19-4807-9f6e-5d4c3b2a1908";
    private static final SuggestRequestReader READER = new SuggestRequestReader(new ObjectMapper());

    @TempDir
    Path temp;

    /** Each lookup in the cache: true for a hit. */
    private final List<Boolean> lookups = new CopyOnWriteArrayList<>();

    private final List<EngineOutcome> engineCalls = new CopyOnWriteArrayList<>();
    private TenantRegistry registry;
    private Suggester suggester;
    private Caller caller;

    @BeforeEach
    void load() {
        registry = Kitchen.load(temp);
        suggester = new Suggester(new EngineRunner(), new ResponseCache(100), java.time.Clock.systemUTC());
        caller = Kitchen.caller(registry);
    }

    @AfterEach
    void close() {
        registry.close();
    }

    private SuggestResponse suggest(SuggestRequest request) {
        Suggester.Outcome outcome = suggester.suggest(caller, Kitchen.body(request), READER, () -> "127.0.0.1");
        if (outcome.cache() != Suggester.CacheLookup.NONE) {
            lookups.add(outcome.cache() == Suggester.CacheLookup.HIT);
        }
        if (outcome.cache() != Suggester.CacheLookup.HIT) {
            engineCalls.add(outcome.engine());
        }
        return outcome.response();
    }

    private static SuggestResponse.Suggestion suggestion(SuggestResponse response, String type) {
        return response.suggestions().stream()
                .filter(s -> s.type().equals(type))
                .findFirst()
                .orElse(null);
    }

    @Test
    void the_answer_carries_the_request_envelope_and_a_new_version_4_session_when_none_was_sent() {
        SuggestResponse minted = suggest(Kitchen.request("Eat "));
        SuggestResponse kept = suggest(Kitchen.request("Eat ", Set.of(), SESSION));

        assertEquals(Kitchen.REQUEST_ID, minted.requestId());
        assertEquals("2026-03-01T10:00:00Z", minted.requestAt());
        assertTrue(Uuids.isUuidV4(minted.sessionId()), minted.sessionId());
        assertNotEquals(minted.sessionId(), suggest(Kitchen.request("Eat ")).sessionId());
        assertEquals(SESSION, kept.sessionId());
    }

    /** {@code Eat {{FRUIT_1}} } with the token filled by a pick of {@code Apple}. */
    private static SuggestRequest applePicked(Set<String> dismissed) {
        SuggestRequest typed = Kitchen.request("Eat {{FRUIT_1}} ", dismissed, null);
        return new SuggestRequest(
                typed.rawQuery(),
                Map.of("{{FRUIT_1}}", new SuggestRequest.Fill("fruit", "Apple")),
                dismissed,
                typed.additionalContext(),
                List.of(),
                List.of(),
                typed.requestId(),
                typed.requestAt(),
                null,
                null);
    }

    @Test
    void the_required_param_comes_first_with_its_options_cut_to_the_products_limit() {
        SuggestResponse response = suggest(Kitchen.request("Eat "));

        assertEquals("Eat ", response.rawQuery());
        assertNull(response.input(), "no tokens, no input segments");
        assertFalse(response.ready());
        SuggestResponse.Suggestion fruit = suggestion(response, "fruit");
        assertTrue(fruit != null && fruit.required(), response.suggestions().toString());
        assertEquals(List.of(new SuggestResponse.Option("Apple", true)), fruit.options(), "max_options 1");
    }

    @Test
    void once_the_required_param_is_picked_the_answer_is_ready_and_offers_the_optional_one() {
        SuggestResponse response = suggest(applePicked(Set.of()));

        assertTrue(response.ready(), response.toString());
        assertNull(suggestion(response, "fruit"), "a filled param is not offered again");
        SuggestResponse.Suggestion size = suggestion(response, "size");
        assertTrue(size != null && !size.required(), response.suggestions().toString());
        assertEquals(List.of(new SuggestResponse.Option("Small", true)), size.options());
        assertEquals(
                List.of("intent", "fruit"),
                response.input().stream()
                        .map(SuggestResponse.InputSegment::type)
                        .toList());
    }

    @Test
    void a_dismissed_optional_param_is_left_out_and_a_dismissed_required_one_stays() {
        assertNull(suggestion(suggest(applePicked(Set.of("size"))), "size"));
        SuggestResponse response = suggest(Kitchen.request("Eat ", Set.of("fruit"), null));
        assertTrue(suggestion(response, "fruit") != null, response.suggestions().toString());
    }

    @Test
    void a_second_identical_request_is_answered_from_the_cache_under_its_own_envelope() {
        SuggestResponse first = suggest(Kitchen.request("Eat "));
        SuggestResponse second = suggest(Kitchen.request("Eat ", Set.of(), SESSION));

        assertEquals(List.of(false, true), lookups);
        assertEquals(1, engineCalls.size(), "the engines were asked once");
        assertEquals(first.suggestions(), second.suggestions());
        assertEquals(SESSION, second.sessionId());
    }

    @Test
    void an_answer_an_engine_failed_in_is_not_cached() {
        suggest(Kitchen.request("Eat throw"));
        suggest(Kitchen.request("Eat throw"));

        assertEquals(List.of(false, false), lookups);
        assertEquals(List.of(EngineOutcome.ERROR, EngineOutcome.ERROR), engineCalls);
    }

    @Test
    void a_reading_past_the_budget_answers_with_the_products_fallback_which_is_not_cached() {
        SuggestResponse response = suggest(Kitchen.request("Eat hang"));

        assertEquals(
                List.of(new SuggestResponse.Suggestion(
                        "placeholder",
                        "Try again soon",
                        false,
                        List.of(new SuggestResponse.Option("Eat an apple", false)))),
                response.suggestions());
        assertFalse(response.ready());
        assertEquals(Kitchen.REQUEST_ID, response.requestId());
        suggest(Kitchen.request("Eat hang"));
        assertEquals(List.of(false, false), lookups);
    }

    @Test
    void a_body_refused_for_its_data_is_looked_up_by_its_key_but_counted_as_no_miss() {
        suggest(Kitchen.request("Eat "));
        byte[] refused = new String(Kitchen.body(Kitchen.request("Eat ")), java.nio.charset.StandardCharsets.UTF_8)
                .replace("\"raw_query\":\"Eat \"", "\"raw_query\":7")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertNotNull(READER.keyed(refused), "its envelope is fine: the cache is asked");
        ApiException error =
                assertThrows(ApiException.class, () -> suggester.suggest(caller, refused, READER, () -> "127.0.0.1"));
        assertEquals("INVALID_REQUEST", error.code());
        suggest(Kitchen.request("Eat "));
        assertEquals(List.of(false, true), lookups, "a miss, then a hit: the refused body counted neither");
    }
}
