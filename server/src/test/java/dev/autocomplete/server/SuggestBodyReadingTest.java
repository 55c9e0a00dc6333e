package dev.autocomplete.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The suggest body is read in one streaming pass: what a tree would have made of it does not depend on the
 * order of the fields, duplicate keys, unknown fields or where the JSON goes wrong. Raw bodies, over HTTP.
 */
class SuggestBodyReadingTest {

    private static final String REQUEST_ID = "\"request_id\":\"6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61\"";
    private static final String REQUEST_AT = "\"request_at\":\"2026-11-22T10:15:30Z\"";
    private static final String META = "\"meta\":{" + REQUEST_ID + "," + REQUEST_AT + "}";
    private static final String RAW_QUERY = "\"raw_query\":\"Book a flight from {{ORIGIN_1}} to \"";
    private static final String PARAMS =
            "\"completed_params\":[{\"type\":\"origin\",\"placeholder\":\"{{ORIGIN_1}}\"," + "\"text\":\"Paris\"}]";
    private static final String DATA = "\"data\":{" + RAW_QUERY + "," + PARAMS + "}";
    private static final String LISBON_FIRST = "\"additional_context\":{\"destination\":\"Lisbon\"}";

    @RegisterExtension
    static final DemoServer demo = new DemoServer();

    private static String travelKey;
    private static JsonNode plainAnswer;

    @BeforeAll
    static void keys() throws Exception {
        travelKey = demo.key("travel");
        plainAnswer = ok(object(META, DATA));
    }

    @Test
    void meta_after_data_reads_the_same_as_meta_first() {
        assertEquals(plainAnswer, ok(object(DATA, META)));
        assertEquals(plainAnswer, ok(object(META, "\"data\":{" + PARAMS + "," + RAW_QUERY + "}")));
        assertEquals(plainAnswer, ok(object(DATA, "\"meta\":{" + REQUEST_AT + "," + REQUEST_ID + "}")));
    }

    @Test
    void unknown_objects_and_arrays_are_skipped_at_every_level() {
        String junk = "{\"a\":[1,2.5,-3e4,{\"b\":[[],{}]},null,true,\"x\"],\"c\":{\"d\":{\"e\":\"f\"}}}";
        String body = object(
                "\"first\":" + junk,
                "\"meta\":{\"extra\":" + junk + "," + REQUEST_ID + ",\"more\":[" + junk + "]," + REQUEST_AT + "}",
                "\"between\":[" + junk + "," + junk + "]",
                "\"data\":{\"x\":" + junk + "," + RAW_QUERY + ",\"completed_params\":[{\"kind\":" + junk
                        + ",\"type\":\"origin\",\"placeholder\":\"{{ORIGIN_1}}\",\"text\":\"Paris\",\"z\":[]}],"
                        + "\"identified_params\":[{\"type\":\"origin\",\"n\":" + junk + ",\"value\":\"Paris\"}],"
                        + "\"y\":[" + junk + "]}",
                "\"last\":" + junk);
        assertEquals(plainAnswer, ok(body));
    }

    @Test
    void of_duplicate_keys_the_last_wins() {
        assertEquals(plainAnswer, ok(object("\"meta\":{\"request_id\":\"nope\"}", META, DATA)));
        assertEquals(plainAnswer, ok(object(META, "\"data\":{\"raw_query\":5," + PARAMS + "," + RAW_QUERY + "}")));
        assertEquals(plainAnswer, ok(object(META, "\"data\":5", DATA)));
        assertError(
                object(META, DATA, "\"meta\":{\"request_id\":\"nope\"}"),
                "INVALID_REQUEST_ID",
                "meta.request_id must be a UUID (8-4-4-4-12 hex).");
        assertError(object(META, DATA, "\"data\":[]"), "INVALID_REQUEST", "data must be an object.");

        String session = "6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61";
        String given = "\"meta\":{" + REQUEST_ID + "," + REQUEST_AT + ",\"session_id\":\"" + session + "\"";
        assertEquals(
                session,
                reply(object(given + ",\"session_id\":\"bad\",\"session_id\":\"" + session + "\"}", DATA))
                        .json()
                        .path("meta")
                        .path("session_id")
                        .asText());
        assertNotEquals(
                session,
                reply(object(given + ",\"session_id\":null}", DATA))
                        .json()
                        .path("meta")
                        .path("session_id")
                        .asText(),
                "a later null leaves no session id");

        String context = "\"data\":{" + RAW_QUERY + "," + LISBON_FIRST + "," + PARAMS;
        assertEquals(plainAnswer, ok(object(META, context + ",\"additional_context\":{}}")));
        assertEquals(
                ok(object(META, "\"data\":{" + RAW_QUERY + "," + PARAMS + "," + LISBON_FIRST + "}")),
                ok(object(
                        META,
                        "\"data\":{" + RAW_QUERY + ",\"additional_context\":{\"destination\":\"Rome\"}," + PARAMS + ","
                                + LISBON_FIRST + "}")));
    }

    @Test
    void trailing_garbage_or_invalid_json_anywhere_is_invalid_json_before_any_other_check() {
        String valid = object(META, DATA);
        assertEquals(plainAnswer, ok(valid + " \n\t"));
        for (String tail : new String[] {" x", " {}", "]", "}", ",", " null", "\"\""}) {
            assertError(valid + tail, "INVALID_JSON", "The body is not valid JSON.");
        }
        assertError("[1,2] x", "INVALID_JSON", "The body is not valid JSON.");
        assertError(
                object("\"meta\":5", "\"data\":{\"raw_query\":5,\"x\":[1,]}"),
                "INVALID_JSON",
                "The body is not valid JSON.");
        assertError(object(META, DATA, "\"x\":{\"y\":tru}"), "INVALID_JSON", "The body is not valid JSON.");
        assertError(" ", "INVALID_JSON", "The body is not valid JSON."); // whitespace holds no JSON value
        assertError("[{}]", "INVALID_REQUEST", "The body must be a JSON object with 'data' and 'meta'.");
        // JSON past the reader's limits says which (a 1001-digit number read as plain invalid JSON: a hostile trial).
        assertError(
                object(META, DATA, "\"x\":0." + "1".repeat(1001)),
                "INVALID_JSON",
                "The body is JSON holding a number of more than 1000 digits.");
        assertError(
                object(META, DATA, "\"x\":" + "[".repeat(2000) + "]".repeat(2000)),
                "INVALID_JSON",
                "The body is JSON nested deeper than limits.json-depth allows.");
    }

    @Test
    void additional_context_is_read_wherever_it_stands() {
        JsonNode lisbonFirst = ok(object(META, "\"data\":{" + RAW_QUERY + "," + PARAMS + "," + LISBON_FIRST + "}"));
        assertNotEquals(plainAnswer, lisbonFirst, "the context changes the answer");
        assertEquals(lisbonFirst, ok(object(META, "\"data\":{" + LISBON_FIRST + "," + RAW_QUERY + "," + PARAMS + "}")));
        assertEquals(lisbonFirst, ok(object("\"data\":{" + RAW_QUERY + "," + LISBON_FIRST + "," + PARAMS + "}", META)));

        String tooLarge = "\"additional_context\":{\"note\":\"" + "a".repeat(2000) + "\"}";
        assertError(
                object(META, "\"data\":{" + tooLarge + ",\"raw_query\":5}"),
                "INVALID_REQUEST",
                "data.raw_query must be a string (it may be empty).");
        assertError(
                object(META, "\"data\":{" + tooLarge + "," + RAW_QUERY + ",\"completed_params\":[7]}"),
                "INVALID_COMPLETED_PARAMS",
                "data.completed_params[0] must be an object.");
        assertError(
                object(META, "\"data\":{" + RAW_QUERY + ",\"identified_params\":[7]," + tooLarge + "}"),
                "ADDITIONAL_CONTEXT_TOO_LARGE",
                "data.additional_context is 2011 bytes as compact JSON; the limit is 2000.");
    }

    @Test
    void with_invalid_fields_in_both_meta_and_data_the_same_error_wins_in_any_order() {
        String badData = "\"data\":{\"raw_query\":5,\"completed_params\":\"x\"}";
        String badMeta = "\"meta\":{\"request_id\":\"nope\",\"session_id\":\"bad\"}";
        for (String body : new String[] {object(badMeta, badData), object(badData, badMeta)}) {
            assertError(body, "INVALID_REQUEST_ID", "meta.request_id must be a UUID (8-4-4-4-12 hex).");
        }
        String badSession = "\"meta\":{\"session_id\":7," + REQUEST_ID + "," + REQUEST_AT + "}";
        assertError(object(badData, badSession), "INVALID_SESSION_ID", "meta.session_id must be a UUID version 4.");
        String badLanguage = "\"meta\":{\"client_version\":1,\"language\":[]," + REQUEST_ID + "," + REQUEST_AT + "}";
        assertError(object(badData, badLanguage), "INVALID_REQUEST", "meta.language must be a string.");
        assertError(object("\"data\":\"x\"", badMeta), "INVALID_REQUEST", "data must be an object.");
        assertError(
                object(
                        "\"data\":{\"recently_suggested\":{},\"identified_params\":5,\"completed_params\":[{}],"
                                + RAW_QUERY + "}",
                        META),
                "INVALID_COMPLETED_PARAMS",
                "data.completed_params[0].type must be a non-empty string.");
        assertError(
                object(
                        "\"data\":{\"recently_suggested\":{},\"identified_params\":[{\"type\":\"a\"}]," + RAW_QUERY
                                + "}",
                        META),
                "INVALID_REQUEST",
                "data.identified_params[0] needs string 'type' and 'value'.");
    }

    @Test
    void a_string_over_the_length_limit_is_refused_even_in_an_unknown_field() throws Exception {
        Path tenants = TestTenants.copyOfDemo(demo.temp().resolve("short-strings"));
        String key = TestTenants.createKey(tenants, "demo", "public", "travel");
        ServerSettings settings = ServerSettings.read(null, Map.of("AUTOCOMPLETE_LIMITS_JSON_STRING_BYTES", "1024"))
                .with("127.0.0.1", 0, tenants)
                .withManagement("127.0.0.1", 0);
        try (AutocompleteServer server = AutocompleteServer.start(settings)) {
            ApiClient api = new ApiClient(server.port());
            String fits = object(META, DATA, "\"x\":{\"y\":[\"" + "a".repeat(1000) + "\"]}");
            assertEquals(
                    200,
                    api.post("/api/suggest", key, fits, "application/json", Map.of())
                            .status());
            String tooLong = object(META, DATA, "\"x\":{\"y\":[\"" + "a".repeat(1100) + "\"]}");
            ApiClient.Reply reply = api.post("/api/suggest", key, tooLong, "application/json", Map.of());
            assertEquals(400, reply.status(), reply.raw());
            assertEquals("INVALID_JSON", reply.errorCode(), reply.raw());
        }
    }

    private static String object(String... members) {
        return "{" + String.join(",", members) + "}";
    }

    private static ApiClient.Reply reply(String body) {
        return demo.api().post("/api/suggest", travelKey, body, "application/json", Map.of());
    }

    /** The answer's data, asserting a 200. */
    private static JsonNode ok(String body) {
        ApiClient.Reply reply = reply(body);
        assertEquals(200, reply.status(), reply.raw());
        return reply.json().path("data");
    }

    private static void assertError(String body, String code, String message) {
        ApiClient.Reply reply = reply(body);
        assertEquals(400, reply.status(), reply.raw());
        assertEquals(code, reply.errorCode(), reply.raw());
        assertEquals(message, reply.json().path("error").path("message").asText(), reply.raw());
    }
}
