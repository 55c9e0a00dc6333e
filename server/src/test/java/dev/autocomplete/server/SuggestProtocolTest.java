package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static dev.autocomplete.server.ApiClient.fill;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.config.ServerSettings;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The rules of docs/protocol.md §2 to §7, over HTTP. */
class SuggestProtocolTest {

    private static final Pattern UUID_V4 =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

    @RegisterExtension
    static final DemoServer demo = new DemoServer();

    private static ApiClient api;
    private static String travelKey;
    private static String secretKey;

    @BeforeAll
    static void keys() throws Exception {
        api = demo.api();
        travelKey = demo.key("travel");
        secretKey = demo.key("secret");
    }

    private static ApiClient.Reply travel(ObjectNode body) {
        return api.suggest(travelKey, body);
    }

    private static void assertError(ApiClient.Reply reply, int status, String code) {
        assertEquals(status, reply.status(), reply.raw());
        assertEquals(code, reply.errorCode(), reply.raw());
        assertTrue(reply.json().path("error").path("message").isTextual(), reply.raw());
        assertTrue(reply.header("Content-Type").startsWith("application/json"), reply.header("Content-Type"));
    }

    @Test
    void echoes_request_id_and_request_at_exactly_as_sent() {
        ObjectNode body = envelope("");
        String requestId = "ABCDEF01-2345-6789-ABCD-EF0123456789";
        ((ObjectNode) body.get("meta")).put("request_id", requestId).put("request_at", "2026-11-22T10:15:30.123-05:00");
        ApiClient.Reply reply = travel(body);
        assertEquals(200, reply.status(), reply.raw());
        assertEquals(requestId, reply.json().path("meta").path("request_id").asText());
        assertEquals(
                "2026-11-22T10:15:30.123-05:00",
                reply.json().path("meta").path("request_at").asText());
        assertNotNull(reply.header("Date"));
    }

    @Test
    void generates_a_uuid_v4_session_id_when_absent_or_null_and_echoes_a_given_one() {
        ApiClient.Reply absent = travel(envelope(""));
        assertTrue(UUID_V4.matcher(absent.json().path("meta").path("session_id").asText())
                .matches());

        ObjectNode withNull = envelope("");
        ((ObjectNode) withNull.get("meta")).putNull("session_id");
        String minted = travel(withNull).json().path("meta").path("session_id").asText();
        assertTrue(UUID_V4.matcher(minted).matches());
        assertNotEquals(absent.json().path("meta").path("session_id").asText(), minted, "every minted id is new");

        String session = UUID.randomUUID().toString();
        ObjectNode given = envelope("");
        ((ObjectNode) given.get("meta")).put("session_id", session);
        assertEquals(
                session, travel(given).json().path("meta").path("session_id").asText());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "not-a-uuid",
                "6f1c2a8e-3b4d-1e5f-9a7b-1c2d3e4f5a61",
                "6f1c2a8e-3b4d-4e5f-7a7b-1c2d3e4f5a61",
                "6f1c2a8e3b4d4e5f9a7b1c2d3e4f5a61"
            })
    void rejects_session_id_that_is_not_uuid_v4(String session) {
        ObjectNode body = envelope("");
        ((ObjectNode) body.get("meta")).put("session_id", session);
        assertError(travel(body), 400, "INVALID_SESSION_ID");
    }

    @Test
    void rejects_session_id_of_the_wrong_json_type() {
        ObjectNode body = envelope("");
        ((ObjectNode) body.get("meta")).put("session_id", 42);
        assertError(travel(body), 400, "INVALID_SESSION_ID");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "123", "6f1c2a8e-3b4d-4e5f-9a7b", "zzzzzzzz-3b4d-4e5f-9a7b-1c2d3e4f5a61"})
    void rejects_missing_or_malformed_request_id(String requestId) {
        ObjectNode body = envelope("");
        ((ObjectNode) body.get("meta")).put("request_id", requestId);
        assertError(travel(body), 400, "INVALID_REQUEST_ID");
        ((ObjectNode) body.get("meta")).remove("request_id");
        assertError(travel(body), 400, "INVALID_REQUEST_ID");
    }

    @Test
    void accepts_a_request_id_of_any_uuid_version() {
        ObjectNode body = envelope("");
        ((ObjectNode) body.get("meta")).put("request_id", "6f1c2a8e-3b4d-1e5f-0a7b-1c2d3e4f5a61");
        assertEquals(200, travel(body).status());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "yesterday", "2026-11-22T10:15:30", "2026-11-22"})
    void rejects_request_at_without_a_zone_or_unparseable(String at) {
        ObjectNode body = envelope("");
        ((ObjectNode) body.get("meta")).put("request_at", at);
        assertError(travel(body), 400, "INVALID_REQUEST_AT");
    }

    @Test
    void rejects_missing_request_at() {
        ObjectNode body = envelope("");
        ((ObjectNode) body.get("meta")).remove("request_at");
        assertError(travel(body), 400, "INVALID_REQUEST_AT");
    }

    @Test
    void ignores_unknown_fields_anywhere_including_the_official_clients_extras() {
        ObjectNode body = envelope("Book a flight from {{ORIGIN_1}}");
        fill(body, "{{ORIGIN_1}}", "origin", "Paris");
        ((ObjectNode) body.path("data").path("completed_params").get(0)).putNull("kind");
        ((ObjectNode) body.get("data")).put("contact_account_count", 3).put("surprise", true);
        ((ObjectNode) body.get("meta"))
                .put("client_version", "1.2.3")
                .put("language", "en-US")
                .put("extra", 1);
        body.put("top_level_extra", "x");
        ApiClient.Reply reply = travel(body);
        assertEquals(200, reply.status(), reply.raw());
        assertEquals("destination", reply.suggestionTypes().getFirst());
    }

    @Test
    void rejects_known_fields_of_the_wrong_type() {
        ObjectNode rawNotString = envelope("");
        ((ObjectNode) rawNotString.get("data")).put("raw_query", 5);
        assertError(travel(rawNotString), 400, "INVALID_REQUEST");

        ObjectNode missingRaw = envelope("");
        ((ObjectNode) missingRaw.get("data")).remove("raw_query");
        assertError(travel(missingRaw), 400, "INVALID_REQUEST");

        ObjectNode languageNumber = envelope("");
        ((ObjectNode) languageNumber.get("meta")).put("language", 7);
        assertError(travel(languageNumber), 400, "INVALID_REQUEST");

        ObjectNode dataNotObject = envelope("");
        dataNotObject.put("data", "nope");
        assertError(travel(dataNotObject), 400, "INVALID_REQUEST");

        ObjectNode noMeta = envelope("");
        noMeta.remove("meta");
        assertError(travel(noMeta), 400, "INVALID_REQUEST");

        ObjectNode paramsNotArray = envelope("");
        ((ObjectNode) paramsNotArray.get("data")).put("completed_params", "x");
        assertError(travel(paramsNotArray), 400, "INVALID_COMPLETED_PARAMS");
    }

    @Test
    void ignores_a_malformed_language_tag() {
        ObjectNode body = envelope("");
        ((ObjectNode) body.get("meta")).put("language", "not a tag!!");
        assertEquals(200, travel(body).status());
    }

    @Test
    void refuses_invalid_json_and_a_body_that_is_not_an_object() {
        assertError(
                api.post("/api/suggest", travelKey, "{\"data\": ", "application/json", Map.of()), 400, "INVALID_JSON");
        assertError(api.post("/api/suggest", travelKey, "", "application/json", Map.of()), 400, "INVALID_JSON");
        assertError(api.post("/api/suggest", travelKey, "{} {}", "application/json", Map.of()), 400, "INVALID_JSON");
        assertError(api.post("/api/suggest", travelKey, "[1,2]", "application/json", Map.of()), 400, "INVALID_REQUEST");
    }

    @Test
    void refuses_a_body_that_is_not_json_by_media_type() {
        assertError(
                api.post("/api/suggest", travelKey, envelope("").toString(), "text/plain", Map.of()),
                415,
                "UNSUPPORTED_MEDIA_TYPE");
        assertError(
                api.post("/api/suggest", travelKey, envelope("").toString(), null, Map.of()),
                415,
                "UNSUPPORTED_MEDIA_TYPE");
        assertEquals(
                200,
                api.post(
                                "/api/suggest",
                                travelKey,
                                envelope("").toString(),
                                "application/json; charset=utf-8",
                                Map.of())
                        .status());
    }

    @Test
    void refuses_a_body_over_the_size_limit_with_413() {
        String padding = "x".repeat((int) ServerSettings.defaults().limits().bodyBytes() + 10);
        ObjectNode body = envelope("");
        ((ObjectNode) body.get("data")).put("padding", padding);
        assertError(travel(body), 413, "PAYLOAD_TOO_LARGE");
        assertEquals(200, travel(envelope("")).status(), "the server keeps serving");
    }

    @Test
    void answers_unknown_paths_with_404_and_other_methods_with_405() {
        assertError(api.post("/api/nothing", travelKey, "{}", "application/json", Map.of()), 404, "NOT_FOUND");
        ApiClient.Reply get = api.send(HttpRequest.newBuilder(URI.create(api.base() + "/api/suggest"))
                .GET()
                .build());
        assertError(get, 405, "METHOD_NOT_ALLOWED");
    }

    @Test
    void requires_credentials() {
        assertError(
                api.post("/api/suggest", null, envelope("").toString(), "application/json", Map.of()),
                401,
                "MISSING_CREDENTIALS");
        assertError(api.suggest("pk_v1_definitelyNotAKey", envelope("")), 401, "INVALID_CREDENTIALS");
        String forged = travelKey.substring(0, travelKey.length() - 8) + "AAAAAAAA";
        ApiClient.Reply reply = api.suggest(forged, envelope(""));
        assertError(reply, 401, "INVALID_CREDENTIALS");
        assertFalse(reply.raw().contains(forged), "error bodies never echo the credential");
        assertError(
                api.post(
                        "/api/suggest",
                        null,
                        envelope("").toString(),
                        "application/json",
                        Map.of("Authorization", "Token " + travelKey)),
                401,
                "INVALID_CREDENTIALS");
    }

    @Test
    void a_secret_key_uses_x_app_identifier_else_the_default_product() {
        ApiClient.Reply byDefault = api.suggest(secretKey, envelope(""));
        assertEquals(
                "Book a flight from",
                byDefault.data().path("suggestions").get(0).path("text").asText());
        ApiClient.Reply bySlug = api.post(
                "/api/suggest",
                secretKey,
                envelope("").toString(),
                "application/json",
                Map.of("X-App-Identifier", "workspace"));
        assertEquals(
                "Create an",
                bySlug.data().path("suggestions").get(0).path("text").asText());
        ApiClient.Reply byId = api.post(
                "/api/suggest",
                secretKey,
                envelope("").toString(),
                "application/json",
                Map.of("X-App-Identifier", "0b7e4d2c-5a6f-4c3b-8d9e-2f1a3b4c5d72"));
        assertEquals(
                "Create an", byId.data().path("suggestions").get(0).path("text").asText());
        assertError(
                api.post(
                        "/api/suggest",
                        secretKey,
                        envelope("").toString(),
                        "application/json",
                        Map.of("X-App-Identifier", "no-such-product")),
                404,
                "PRODUCT_NOT_FOUND");
    }

    @Test
    void input_is_null_without_placeholders_and_is_ready_is_always_present() {
        ApiClient.Reply reply = travel(envelope("Book a flight from Par"));
        assertTrue(reply.data().has("input"));
        assertTrue(reply.data().get("input").isNull());
        assertTrue(reply.data().get("is_ready").isBoolean());
        assertEquals("Book a flight from Par", reply.data().path("raw_query").asText());
    }

    @Test
    void empty_completed_params_with_no_placeholders_is_the_initial_request() {
        ApiClient.Reply reply = travel(envelope(""));
        assertEquals(200, reply.status());
        JsonNode first = reply.data().path("suggestions").get(0);
        assertEquals("placeholder", first.path("type").asText());
        assertFalse(first.path("required").asBoolean());
        assertFalse(first.has("options"), "options are omitted when empty");
        for (JsonNode suggestion : reply.data().path("suggestions")) {
            assertTrue(suggestion.has("required"));
            suggestion
                    .path("options")
                    .forEach(o -> assertTrue(o.path("is_tappable").isBoolean()));
        }
    }

    @Test
    void a_skipped_entry_dismisses_an_optional_param_but_not_a_required_one() {
        ObjectNode body = envelope("{{ORIGIN_1}} {{DESTINATION_1}} ");
        fill(body, "{{ORIGIN_1}}", "origin", "Paris");
        fill(body, "{{DESTINATION_1}}", "destination", "London");
        fill(body, "", "date", "skipped");
        ((ObjectNode) body.path("data").path("completed_params").get(2)).putNull("kind");
        ApiClient.Reply reply = travel(body);
        assertEquals(200, reply.status(), reply.raw());
        assertFalse(
                reply.suggestionTypes().contains("date"),
                reply.suggestionTypes().toString());
        assertTrue(reply.suggestionTypes().contains("cabin"));
        assertEquals(3, reply.data().path("input").size(), "a skipped entry has no position in the query");

        ObjectNode requiredSkip = envelope("{{ORIGIN_1}} ");
        fill(requiredSkip, "{{ORIGIN_1}}", "origin", "Paris");
        fill(requiredSkip, "", "destination", "skipped");
        ApiClient.Reply still = travel(requiredSkip);
        assertEquals("destination", still.suggestionTypes().getFirst());
        assertTrue(still.data().path("suggestions").get(0).path("required").asBoolean());
    }

    @Test
    void a_masked_param_counts_as_filled_without_its_text() {
        ObjectNode body = envelope("Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}}");
        fill(body, "{{ORIGIN_1}}", "origin", null);
        fill(body, "{{DESTINATION_1}}", "destination", null);
        ApiClient.Reply reply = travel(body);
        assertEquals(200, reply.status(), reply.raw());
        assertTrue(reply.data().path("is_ready").asBoolean());
        assertEquals(
                "completed", reply.data().path("input").get(1).path("state").asText());
    }

    @Test
    void a_token_without_an_entry_is_read_by_its_name_and_needs_confirmation() {
        ApiClient.Reply reply = travel(envelope("Book a flight from {{ORIGIN_1}} to "));
        assertEquals(200, reply.status(), reply.raw());
        JsonNode token = reply.data().path("input").get(1);
        assertEquals("origin", token.path("type").asText());
        assertEquals("{{ORIGIN_1}}", token.path("text").asText());
        assertEquals("need_confirmation", token.path("state").asText());
        assertEquals("destination", reply.suggestionTypes().getFirst());

        ObjectNode unknown = envelope("{{SPACESHIP_2}} ");
        JsonNode entry = travel(unknown).data().path("input").get(1);
        assertEquals("spaceship", entry.path("type").asText());
        assertEquals("need_confirmation", entry.path("state").asText());
    }

    @Test
    void an_entry_of_a_type_the_product_lacks_needs_confirmation_and_one_in_another_case_fills_that_type() {
        ObjectNode unknown = envelope("Book a flight from {{ORIGINS_1}} to ");
        fill(unknown, "{{ORIGINS_1}}", "origins", "Paris");
        ApiClient.Reply lacking = travel(unknown);
        assertEquals(200, lacking.status(), lacking.raw());
        JsonNode token = lacking.data().path("input").get(1);
        assertEquals("origins", token.path("type").asText());
        assertEquals("need_confirmation", token.path("state").asText(), lacking.raw());
        assertEquals("origin", lacking.suggestionTypes().getFirst(), "nothing filled: origin is still asked");

        ObjectNode cased = envelope("Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}}");
        fill(cased, "{{ORIGIN_1}}", "Origin", "Paris");
        fill(cased, "{{DESTINATION_1}}", "destination", "London");
        ApiClient.Reply filled = travel(cased);
        assertEquals(200, filled.status(), filled.raw());
        assertEquals("origin", filled.data().path("input").get(1).path("type").asText(), filled.raw());
        assertEquals(
                "completed", filled.data().path("input").get(1).path("state").asText());
        assertTrue(filled.data().path("is_ready").asBoolean(), filled.raw());
    }

    @Test
    void treats_malformed_tokens_as_literal_text() {
        ApiClient.Reply reply = travel(envelope("Book a flight from {{city}} {{ORIGIN_0}}"));
        assertEquals(200, reply.status(), reply.raw());
        assertTrue(reply.data().get("input").isNull());
    }

    @Test
    void ignores_a_stale_entry_whose_token_is_not_in_the_query() {
        ObjectNode body = envelope("Book a flight from ");
        fill(body, "{{ORIGIN_1}}", "origin", "Paris");
        ApiClient.Reply reply = travel(body);
        assertEquals(200, reply.status(), reply.raw());
        assertTrue(reply.data().get("input").isNull());
        assertEquals("origin", reply.suggestionTypes().getFirst());
    }

    @Test
    void rejects_invalid_completed_params() {
        ObjectNode noType = envelope("{{ORIGIN_1}}");
        fill(noType, "{{ORIGIN_1}}", "", "Paris");
        assertError(travel(noType), 400, "INVALID_COMPLETED_PARAMS");

        ObjectNode notAToken = envelope("{{ORIGIN_1}}");
        fill(notAToken, "ORIGIN_1", "origin", "Paris");
        assertError(travel(notAToken), 400, "INVALID_COMPLETED_PARAMS");

        ObjectNode wrongName = envelope("{{ORIGIN_1}}");
        fill(wrongName, "{{ORIGIN_1}}", "destination", "Paris");
        assertError(travel(wrongName), 400, "INVALID_COMPLETED_PARAMS");

        ObjectNode twice = envelope("{{ORIGIN_1}}");
        fill(twice, "{{ORIGIN_1}}", "origin", "Paris");
        fill(twice, "{{ORIGIN_1}}", "origin", "Lyon");
        assertError(travel(twice), 400, "INVALID_COMPLETED_PARAMS");

        ObjectNode entryNotObject = envelope("");
        ((com.fasterxml.jackson.databind.node.ArrayNode)
                        entryNotObject.path("data").path("completed_params"))
                .add(1);
        assertError(travel(entryNotObject), 400, "INVALID_COMPLETED_PARAMS");
    }

    @Test
    void accepts_a_type_minted_with_whitespace_runs() {
        ObjectNode body = envelope("{{DEPARTURE_DATE_1}} ");
        fill(body, "{{DEPARTURE_DATE_1}}", "departure  date", "Today");
        assertEquals(200, travel(body).status());
    }

    @Test
    void rejects_identified_and_recently_suggested_entries_without_string_fields() {
        ObjectNode identified = envelope("");
        ((ObjectNode) identified.get("data"))
                .putArray("identified_params")
                .addObject()
                .put("type", "origin");
        assertError(travel(identified), 400, "INVALID_REQUEST");

        ObjectNode recent = envelope("");
        ((ObjectNode) recent.get("data"))
                .putArray("recently_suggested")
                .addObject()
                .put("type", "origin")
                .put("text", 3);
        assertError(travel(recent), 400, "INVALID_REQUEST");

        ObjectNode fine = envelope("lon");
        ((ObjectNode) fine.get("data"))
                .putArray("recently_suggested")
                .addObject()
                .put("type", "destination")
                .put("text", "To");
        ((ObjectNode) fine.get("data"))
                .putArray("identified_params")
                .addObject()
                .put("type", "origin")
                .put("value", "Par");
        assertEquals(200, travel(fine).status());
    }

    @Test
    void additional_context_of_exactly_2000_compact_bytes_is_accepted_and_2001_refused() {
        assertEquals(200, travel(withContextOfSize(2000)).status());
        assertError(travel(withContextOfSize(2001)), 400, "ADDITIONAL_CONTEXT_TOO_LARGE");
    }

    @Test
    void additional_context_size_counts_utf8_bytes_of_the_compact_form_not_whitespace() {
        // {"k":"é..."}: 8 bytes of structure, each é is 2 bytes.
        String accents = "é".repeat(996);
        String body = envelope("")
                .toString()
                .replace(
                        "\"completed_params\":[]",
                        "\"completed_params\":[], \"additional_context\" :   {  \"k\" :  \"" + accents + "\"   }");
        assertEquals(
                200,
                api.post("/api/suggest", travelKey, body, "application/json", Map.of())
                        .status());
        String tooBig = body.replace(accents, accents + "é");
        ApiClient.Reply reply = api.post("/api/suggest", travelKey, tooBig, "application/json", Map.of());
        assertError(reply, 400, "ADDITIONAL_CONTEXT_TOO_LARGE");
        assertFalse(reply.raw().contains("éé"), "the error never echoes the context");
    }

    /**
     * Numbers count as written (a hostile trial: {@code 1e400} answered 500, and {@code 1e300} was measured as the 7 bytes
     * of {@code 1.0E300}); strings as their compact escapes; nested arrays and objects their commas.
     */
    @Test
    void additional_context_numbers_count_as_written_even_beyond_a_double() {
        for (String number : new String[] {"1e400", "-1e400", "1e999999999", "1E+2", "0.5e-400"}) {
            ApiClient.Reply reply = contextBody("{\"n\":" + number + "}");
            assertEquals(200, reply.status(), number + ": " + reply.raw());
        }
        // An exponent beyond what a decimal holds (a second hostile trial: 500 and a stack trace, in an array too).
        for (String number : new String[] {"1e99999999999", "-1e-99999999999", "[1e99999999999]"}) {
            ApiClient.Reply reply = contextBody("{\"n\":" + number + "}");
            assertError(reply, 400, "INVALID_JSON");
            assertTrue(reply.raw().contains("exponent"), reply.raw());
        }
        // [1e300,1e300,...]: 333 numbers of 5 bytes, 332 commas, 2 brackets = 1999 bytes; one more "0" makes 2000.
        String numbers = String.join(",", java.util.Collections.nCopies(333, "1e300"));
        assertEquals(1999, ("[" + numbers + "]").length());
        assertEquals(200, contextBody("[" + numbers + "]").status());
        assertEquals(200, contextBody("[" + numbers + "0]").status());
        assertError(contextBody("[" + numbers + "00]"), 400, "ADDITIONAL_CONTEXT_TOO_LARGE");
        // Objects in arrays and escapes: {"a":[{"b":"\u0041/\/"},{"c":[true,null,1]}]} is {"a":[{"b":"A//"},...]}.
        String nested = "{\"a\":[{\"b\":\"\\u0041/\\/\"},{\"c\":[true,null,1]}],\"d\":\"";
        int structure = "{\"a\":[{\"b\":\"A//\"},{\"c\":[true,null,1]}],\"d\":\"\"}".length();
        assertEquals(
                200, contextBody(nested + "x".repeat(2000 - structure) + "\"}").status());
        assertError(contextBody(nested + "x".repeat(2001 - structure) + "\"}"), 400, "ADDITIONAL_CONTEXT_TOO_LARGE");
    }

    private ApiClient.Reply contextBody(String context) {
        String body = envelope("")
                .toString()
                .replace("\"completed_params\":[]", "\"completed_params\":[],\"additional_context\":" + context);
        return api.post("/api/suggest", travelKey, body, "application/json", Map.of());
    }

    @Test
    void empty_additional_context_forms_mean_none() {
        for (String empty : new String[] {"null", "{}", "[]", "\"\""}) {
            String body = envelope("")
                    .toString()
                    .replace("\"completed_params\":[]", "\"completed_params\":[],\"additional_context\":" + empty);
            assertEquals(
                    200,
                    api.post("/api/suggest", travelKey, body, "application/json", Map.of())
                            .status(),
                    empty);
        }
    }

    @Test
    void options_named_by_additional_context_come_first_keeping_their_order() {
        ObjectNode body = envelope("");
        ObjectNode context = ((ObjectNode) body.get("data")).putObject("additional_context");
        context.putArray("favourites").add("lisbon").add("Sao Paulo");
        ApiClient.Reply reply = travel(body);
        assertEquals(
                "São Paulo",
                reply.options("origin").get(0),
                reply.options("origin").toString());
        assertEquals("Lisbon", reply.options("origin").get(1));

        ObjectNode scoped = envelope("");
        ((ObjectNode) scoped.get("data"))
                .putObject("additional_context")
                .put("destination", "Lisbon")
                .put("cabin", "Business");
        ApiClient.Reply scopedReply = travel(scoped);
        assertEquals("Lisbon", scopedReply.options("destination").getFirst());
        assertNotEquals("Lisbon", scopedReply.options("origin").getFirst(), "a param key scopes its values");

        ObjectNode ready = envelope("Book a flight from {{ORIGIN_1}} to {{DESTINATION_1}} ");
        fill(ready, "{{ORIGIN_1}}", "origin", "Paris");
        fill(ready, "{{DESTINATION_1}}", "destination", "London");
        ((ObjectNode) ready.get("data")).putObject("additional_context").put("cabin", "Business");
        ApiClient.Reply optional = travel(ready);
        assertEquals("Business", optional.options("cabin").getFirst(), optional.raw());
    }

    private static ObjectNode withContextOfSize(int bytes) {
        ObjectNode body = envelope("");
        // {"note":"..."} is 11 bytes of structure.
        ((ObjectNode) body.get("data")).putObject("additional_context").put("note", "a".repeat(bytes - 11));
        return body;
    }
}
