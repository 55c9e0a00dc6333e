package dev.autocomplete.server.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
}
