package dev.autocomplete.server.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A suggest answer's body: {@code data} written once, {@code meta} per request, whatever its values hold. */
class JsonBodiesTest {

    private final ObjectMapper json = new ObjectMapper();
    private final JsonBodies bodies = new JsonBodies(json);
    private final SuggestResponse answer = new SuggestResponse("Book a fl", null, List.of(), false, null, null, null);

    private JsonNode meta(String requestId, String requestAt, String sessionId) throws Exception {
        byte[] body = bodies.suggestResponse(answer.withEnvelope(requestId, requestAt, sessionId));
        JsonNode tree = json.readTree(body);
        assertEquals("Book a fl", tree.path("data").path("raw_query").asText());
        assertEquals(List.of("data", "meta"), List.copyOf(iterable(tree)));
        return tree.path("meta");
    }

    private static List<String> iterable(JsonNode tree) {
        List<String> names = new java.util.ArrayList<>();
        tree.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void plain_ascii_meta_is_written_as_jackson_would_write_it() throws Exception {
        String id = "0f7dad57-d0ea-422f-b21e-1c48199f1036";
        byte[] body = bodies.suggestResponse(answer.withEnvelope(id, "2026-12-01T18:08:50Z", "s-1"));
        byte[] data = json.writeValueAsBytes(json.readTree(body).path("data"));
        String expected = "{\"data\":" + new String(data, java.nio.charset.StandardCharsets.UTF_8)
                + ",\"meta\":{\"request_id\":\"" + id
                + "\",\"request_at\":\"2026-12-01T18:08:50Z\",\"session_id\":\"s-1\"}}";
        assertArrayEquals(expected.getBytes(java.nio.charset.StandardCharsets.UTF_8), body, new String(body));
    }

    @Test
    void a_session_id_that_needs_escaping_or_is_not_ascii_is_still_valid_json_with_the_same_text() throws Exception {
        for (String sessionId : List.of("quote\"d", "back\\slash", "caf\u00e9", "tab\there", "\ud83d\ude00")) {
            JsonNode meta = meta("0f7dad57-d0ea-422f-b21e-1c48199f1036", "2026-12-01T18:08:50Z", sessionId);
            assertEquals(sessionId, meta.path("session_id").asText());
            assertEquals("2026-12-01T18:08:50Z", meta.path("request_at").asText());
        }
    }

    @Test
    void a_missing_meta_value_is_written_as_null() throws Exception {
        JsonNode meta = meta("0f7dad57-d0ea-422f-b21e-1c48199f1036", "2026-12-01T18:08:50Z", null);
        assertTrue(meta.path("session_id").isNull(), meta.toString());
    }

    @Test
    void data_holds_every_field_and_text_as_it_was_whatever_characters_it_has() throws Exception {
        String odd =
                "a \"quote\", a back\\slash, a tab\t, a newline\n, \u0001, caf\u00e9, \u2708, \ud83d\ude00, lone \ud800!";
        SuggestResponse rich = new SuggestResponse(
                odd,
                List.of(
                        new SuggestResponse.InputSegment("text", "Book a flight from ", "completed", null),
                        new SuggestResponse.InputSegment("origin", odd, "identified", "catalog")),
                List.of(
                        new SuggestResponse.Suggestion(
                                "destination",
                                "To",
                                true,
                                List.of(
                                        new SuggestResponse.Option(odd, true),
                                        new SuggestResponse.Option("Porto", false))),
                        new SuggestResponse.Suggestion("date", "On", false, List.of())),
                true,
                null,
                null,
                null);
        JsonNode data = json.readTree(bodies.suggestResponse(rich.withEnvelope("r", "t", "s")))
                .path("data");

        com.fasterxml.jackson.databind.node.ObjectNode expected = json.createObjectNode();
        expected.put("raw_query", odd);
        com.fasterxml.jackson.databind.node.ArrayNode input = expected.putArray("input");
        input.addObject().put("type", "text").put("text", "Book a flight from ").put("state", "completed");
        input.addObject()
                .put("type", "origin")
                .put("text", odd)
                .put("state", "identified")
                .put("source", "catalog");
        com.fasterxml.jackson.databind.node.ArrayNode suggestions = expected.putArray("suggestions");
        com.fasterxml.jackson.databind.node.ObjectNode destination = suggestions
                .addObject()
                .put("type", "destination")
                .put("text", "To")
                .put("required", true);
        destination.putArray("options").addObject().put("text", odd).put("is_tappable", true);
        ((com.fasterxml.jackson.databind.node.ArrayNode) destination.get("options"))
                .addObject()
                .put("text", "Porto")
                .put("is_tappable", false);
        suggestions.addObject().put("type", "date").put("text", "On").put("required", false);
        expected.put("is_ready", true);
        assertEquals(expected, data);

        JsonNode none = json.readTree(bodies.suggestResponse(
                        new SuggestResponse("", null, List.of(), false, null, null, null).withEnvelope("r", "t", "s")))
                .path("data");
        assertEquals("{\"raw_query\":\"\",\"input\":null,\"suggestions\":[],\"is_ready\":false}", none.toString());
    }

    /**
     * A kept answer's {@code data} is written once ({@link SuggestResponse#written()}) and shared by every envelope made
     * from it: each body is the one a fresh answer gets, and the written bytes are not part of the response's value.
     */
    @Test
    void a_written_answer_sends_what_a_fresh_one_sends_under_each_envelope() throws Exception {
        SuggestResponse fresh = new SuggestResponse(
                "Fly from caf\u00e9",
                null,
                List.of(
                        new SuggestResponse.Suggestion("placeholder", "Where to?", false, List.of()),
                        new SuggestResponse.Suggestion(
                                "origin", "From", true, List.of(new SuggestResponse.Option("Caf\u00e9 City", true)))),
                false,
                null,
                null,
                null);
        SuggestResponse kept = fresh.written();
        assertTrue(kept.data() != null && fresh.data() == null);
        assertSame(kept, kept.written());
        assertEquals(fresh, kept);
        for (String id : List.of("r1", "r2")) {
            assertEquals(
                    new String(bodies.suggestResponse(fresh.withEnvelope(id, "t", "s")), StandardCharsets.UTF_8),
                    new String(bodies.suggestResponse(kept.withEnvelope(id, "t", "s")), StandardCharsets.UTF_8));
            assertSame(kept.data(), kept.withEnvelope(id, "t", "s").data());
        }
        // What analytics counts as unmatched: the first param's suggestion when it offers nothing, the placeholder
        // aside.
        assertNull(fresh.unmatchedParam());
        assertEquals(
                "origin",
                new SuggestResponse(
                                "",
                                null,
                                List.of(
                                        new SuggestResponse.Suggestion("placeholder", "Where to?", false, List.of()),
                                        new SuggestResponse.Suggestion("origin", "From", true, List.of()),
                                        new SuggestResponse.Suggestion(
                                                "date",
                                                "On",
                                                false,
                                                List.of(new SuggestResponse.Option("Today", true)))),
                                false,
                                null,
                                null,
                                null)
                        .unmatchedParam());
    }
}
