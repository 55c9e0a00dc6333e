package dev.autocomplete.server;

import static dev.autocomplete.server.ApiClient.envelope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the server reads as input, over HTTP: {@code additional_context} measured on compact UTF-8, bodies that
 * are not UTF-8 or hold no JSON value, the {@code Authorization} header in the forms the protocol refuses
 * (protocol notes 8 and 15), and the headers that keep API answers out of caches and sniffers.
 */
class StrictInputTest {

    @RegisterExtension
    static final DemoServer demo = new DemoServer();

    private static final String EMOJI = "\uD83D\uDE00";
    private static final String META = "\"meta\":{\"request_id\":\"6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61\","
            + "\"request_at\":\"2026-11-22T10:15:30Z\"}";

    private static ApiClient.Reply withContext(String contextJson) {
        String body = "{\"data\":{\"raw_query\":\"\",\"additional_context\":" + contextJson + "}," + META + "}";
        return demo.api().post("/api/suggest", demo.key("travel"), body, "application/json", Map.of());
    }

    @Test
    void additional_context_is_measured_as_compact_utf8_so_characters_outside_the_bmp_count_four_bytes() {
        // 9 + 400 × 4 + 2 = 1,611 bytes; escaped surrogates would make it 4,811.
        ApiClient.Reply emoji = withContext("{\"note\": \"" + EMOJI.repeat(400) + "\"}");
        assertEquals(200, emoji.status(), emoji.raw());
        ApiClient.Reply escaped = withContext("{\"note\": \"" + "\\ud83d\\ude00".repeat(400) + "\"}");
        assertEquals(200, escaped.status(), escaped.raw());

        // Exactly 2000: {"note":" (9) + 300 emoji (1200) + 250 × é (500) + 289 slashes + "} (2); whitespace is free.
        String exact = "{ \"note\" :  \"" + EMOJI.repeat(300) + "é".repeat(250) + "/".repeat(289) + "\" }";
        ApiClient.Reply limit = withContext(exact);
        assertEquals(200, limit.status(), limit.raw());
        ApiClient.Reply over = withContext(exact.replace("\" }", "/\" }"));
        assertEquals(400, over.status(), over.raw());
        assertEquals("ADDITIONAL_CONTEXT_TOO_LARGE", over.errorCode());
        assertTrue(over.json().path("error").path("message").asText().contains("2001 bytes"), over.raw());
    }

    /** A suggest body whose raw_query holds these bytes, as they are. */
    private static byte[] suggestWith(byte[] inQuery) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes("{\"data\":{\"raw_query\":\"Book a flight from ".getBytes(StandardCharsets.UTF_8));
        body.writeBytes(inQuery);
        body.writeBytes(("\"}," + META + "}").getBytes(StandardCharsets.UTF_8));
        return body.toByteArray();
    }

    private static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    /** Every kind of ill-formed UTF-8 (Unicode table 3-7), each inside an otherwise valid body. */
    static final List<String> INVALID_UTF8 = List.of(
            "c0 bc",
            "c1 bf",
            "c0 80", // overlong 2-byte forms of '<', U+007F and NUL
            "e0 80 af",
            "e0 9f bf", // overlong 3-byte forms of '/' and U+07FF
            "f0 80 80 af",
            "f0 8f bf bf", // overlong 4-byte forms of '/' and U+FFFF
            "ed a0 80",
            "ed bf bf",
            "ed a0 bd ed b8 80", // surrogates, alone and as a CESU-8 pair
            "c3",
            "e2 82",
            "f0 9f 98",
            "e2 41",
            "f0 9f 41 80", // truncated sequences
            "f4 90 80 80", // past U+10FFFF
            "f5 80 80 80",
            "f8 88 80 80 80",
            "fc 84 80 80 80 80",
            "fe",
            "ff", // bytes F5 to FF
            "80",
            "bf",
            "c3 a9 a9"); // lone continuation bytes

    @Test
    void every_kind_of_invalid_utf8_is_invalid_json_on_every_endpoint() {
        ApiClient api = demo.api();
        for (String hex : INVALID_UTF8) {
            ApiClient.Reply suggest = api.postBytes("/api/suggest", demo.key("travel"), suggestWith(bytes(hex)));
            assertEquals(400, suggest.status(), hex + ": " + suggest.raw());
            assertEquals("INVALID_JSON", suggest.errorCode(), hex);

            byte[] event = ("{\"type\":\"x\",\"query_data\":\"" + "\u0000".repeat(0)).getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream telemetry = new ByteArrayOutputStream();
            telemetry.writeBytes(event);
            telemetry.writeBytes(bytes(hex));
            telemetry.writeBytes("\"}".getBytes(StandardCharsets.UTF_8));
            assertEquals(
                    "INVALID_JSON",
                    api.postBytes("/api/telemetry/events", demo.key("travel"), telemetry.toByteArray())
                            .errorCode(),
                    hex);

            ByteArrayOutputStream token = new ByteArrayOutputStream();
            token.writeBytes("{\"product_id\":\"6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61\",\"x\":\""
                    .getBytes(StandardCharsets.UTF_8));
            token.writeBytes(bytes(hex));
            token.writeBytes("\"}".getBytes(StandardCharsets.UTF_8));
            assertEquals(
                    "INVALID_JSON",
                    api.postBytes("/api/auth/token", demo.key("secret"), token.toByteArray())
                            .errorCode(),
                    hex);
        }
        // Ill-formed at the very end of the body, outside any string.
        byte[] valid = suggestWith(new byte[0]);
        byte[] truncated = java.util.Arrays.copyOf(valid, valid.length + 1);
        truncated[valid.length] = (byte) 0xc3;
        assertEquals(
                "INVALID_JSON",
                api.postBytes("/api/suggest", demo.key("travel"), truncated).errorCode());
    }

    @Test
    void well_formed_utf8_at_every_boundary_is_read() {
        // U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFD, U+10000, U+10FFFF
        String hex = "c2 80 df bf e0 a0 80 ed 9f bf ee 80 80 ef bf bd f0 90 80 80 f4 8f bf bf";
        ApiClient.Reply reply = demo.api().postBytes("/api/suggest", demo.key("travel"), suggestWith(bytes(hex)));
        assertEquals(200, reply.status(), reply.raw());
        assertEquals(
                "Book a flight from " + new String(bytes(hex), StandardCharsets.UTF_8),
                reply.data().path("raw_query").asText());
    }

    @Test
    void a_utf16_body_is_invalid_json_rather_than_decoded_as_utf16() {
        byte[] utf16 = envelope("").toString().getBytes(StandardCharsets.UTF_16LE);
        ApiClient.Reply reply = demo.api().postBytes("/api/suggest", demo.key("travel"), utf16);
        assertEquals(400, reply.status(), reply.raw());
        assertEquals("INVALID_JSON", reply.errorCode());
    }

    @Test
    void a_body_of_whitespace_is_invalid_json_on_every_endpoint() {
        ApiClient api = demo.api();
        for (String blank : List.of(" ", "\n", " \t\r\n ")) {
            assertEquals(
                    "INVALID_JSON",
                    api.post("/api/suggest", demo.key("travel"), blank, "application/json", Map.of())
                            .errorCode());
            assertEquals(
                    "INVALID_JSON",
                    api.post("/api/telemetry/events", demo.key("travel"), blank, "application/json", Map.of())
                            .errorCode());
            assertEquals(
                    "INVALID_JSON",
                    api.post("/api/auth/token", demo.key("secret"), blank, "application/json", Map.of())
                            .errorCode());
        }
    }

    private static ApiClient.Reply suggestWithAuthorization(String authorization) {
        return demo.api()
                .post(
                        "/api/suggest",
                        null,
                        envelope("").toString(),
                        "application/json",
                        Map.of("Authorization", authorization));
    }

    @Test
    void an_authorization_header_without_a_known_scheme_is_an_invalid_credential() {
        String key = demo.key("travel");
        for (String header : List.of(key, "Token " + key, "bearer" + key, "Basic!" + key, "pk_v1_", "Digest x=1")) {
            ApiClient.Reply reply = suggestWithAuthorization(header);
            assertEquals(401, reply.status(), header + ": " + reply.raw());
            assertEquals("INVALID_CREDENTIALS", reply.errorCode(), header);
        }
        for (String header : List.of("Bearer", "Basic", "Bearer    ", "  ")) {
            ApiClient.Reply reply = suggestWithAuthorization(header);
            assertEquals(401, reply.status(), header + ": " + reply.raw());
            assertEquals("MISSING_CREDENTIALS", reply.errorCode(), "'" + header + "'");
        }
        assertEquals(200, suggestWithAuthorization("bEaReR " + key).status(), "the scheme is case-insensitive");
        assertEquals(
                "INVALID_SECRET_KEY",
                demo.api()
                        .post(
                                "/api/auth/token",
                                null,
                                "{\"product_id\":\"6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61\"}",
                                "application/json",
                                Map.of("Authorization", demo.key("secret")))
                        .errorCode());
    }

    @Test
    void a_token_whose_claims_overflow_a_date_is_an_invalid_credential_whoever_signed_it() {
        // {} . {"iat": Long.MAX_VALUE, ...} . a signature with no secret of this server: the JWT library throws
        // DateTimeException while decoding, before checking the signature.
        String payload = java.util.Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString("{\"tenant\":\"demo\",\"product\":\"x\",\"key\":\"k\",\"iat\":9223372036854775807}"
                        .getBytes(StandardCharsets.UTF_8));
        ApiClient.Reply reply = demo.api().suggest("at_v1_e30." + payload + ".c2lnbmF0dXJl", envelope(""));
        assertEquals(401, reply.status(), reply.raw());
        assertEquals("INVALID_CREDENTIALS", reply.errorCode());
    }

    /** Sends a request of raw lines on a new connection and reads its answer. */
    private static String raw(String path, List<String> headers, byte[] body) throws Exception {
        int port = URI.create(demo.api().base()).getPort();
        try (RawConnection connection = new RawConnection(port)) {
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                            + "Content-Length: " + body.length + "\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            for (String header : headers) {
                request.writeBytes((header + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            }
            request.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            request.writeBytes(body);
            connection.send(request.toByteArray());
            return connection.readResponse();
        }
    }

    @Test
    void two_authorization_headers_are_refused_whichever_comes_first() throws Exception {
        byte[] body = envelope("").toString().getBytes(StandardCharsets.UTF_8);
        String key = "Authorization: Bearer " + demo.key("travel");
        for (List<String> headers : List.of(
                List.of(key, key),
                List.of(key, "Authorization: Bearer pk_v1_other"),
                List.of("Authorization: Bearer pk_v1_other", key),
                List.of(key, "authorization: "),
                List.of(key + ", Bearer " + demo.key("travel")))) {
            String answer = raw("/api/suggest", headers, body);
            assertTrue(answer.startsWith("HTTP/1.1 400"), headers + ": " + answer);
            assertTrue(answer.contains("\"INVALID_REQUEST\""), answer);
        }
        String secret = "Authorization: Bearer " + demo.key("secret");
        String token = raw(
                "/api/auth/token",
                List.of(secret, secret),
                "{\"product_id\":\"6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61\"}".getBytes(StandardCharsets.UTF_8));
        assertTrue(token.startsWith("HTTP/1.1 400"), token);
        assertTrue(token.contains("\"INVALID_REQUEST\""), token);
    }

    @Test
    void abusive_headers_get_a_json_4xx_never_a_5xx() throws Exception {
        byte[] body = envelope("").toString().getBytes(StandardCharsets.UTF_8);
        String key = demo.key("travel");
        List<List<String>> abuses = List.of(
                List.of("Authorization: Bearer " + key + "\u00e9"), // a byte outside ASCII
                List.of("Authorization: Bearer " + "x".repeat(12_000)),
                List.of("Authorization: Basic !!!not-base64"),
                List.of("Authorization: Basic "
                        + java.util.Base64.getEncoder().encodeToString(new byte[] {(byte) 0xff})),
                List.of("Authorization: Bearer " + key, "Content-Length: 5"), // two lengths that disagree
                List.of("Authorization: Bearer " + key, "Transfer-Encoding: chunked"), // and a chunked body
                List.of("Authorization: Bearer a\u0000b"),
                List.of("Authorization : Bearer " + key),
                List.of("Bad Header Name: x", "Authorization: Bearer " + key));
        for (List<String> headers : abuses) {
            String answer = raw("/api/suggest", headers, body);
            int status = Integer.parseInt(answer.substring(9, 12));
            String shown = headers.toString()
                    .substring(0, Math.min(120, headers.toString().length()));
            assertTrue(status >= 400 && status < 500, shown + ": " + answer);
            assertTrue(answer.contains("{\"error\":{\"code\":"), shown + ": " + answer);
        }
    }

    private static void assertSecurityHeaders(ApiClient.Reply reply, String what) {
        assertEquals("nosniff", reply.header("X-Content-Type-Options"), what + ": " + reply.headers());
        assertEquals("no-store", reply.header("Cache-Control"), what + ": " + reply.headers());
    }

    @Test
    void every_api_answer_and_every_error_says_nosniff_and_no_store() throws Exception {
        ApiClient api = demo.api();
        String travel = demo.key("travel");
        assertSecurityHeaders(api.suggest(travel, envelope("")), "200 suggest");
        ObjectNode badId = envelope("");
        ((ObjectNode) badId.path("meta")).put("request_id", "nope");
        assertSecurityHeaders(api.suggest(travel, badId), "400 suggest");
        assertSecurityHeaders(api.suggest("pk_v1_nope", envelope("")), "401 suggest");
        assertSecurityHeaders(api.post("/api/suggest", travel, "{}", "text/plain", Map.of()), "415 suggest");
        assertSecurityHeaders(
                api.send(HttpRequest.newBuilder(URI.create(api.base() + "/api/suggest"))
                        .GET()
                        .build()),
                "405 suggest");
        assertSecurityHeaders(
                api.send(HttpRequest.newBuilder(URI.create(api.base() + "/api/suggest"))
                        .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                        .header("Origin", "https://app.example.com")
                        .header("Access-Control-Request-Method", "POST")
                        .build()),
                "204 preflight");
        assertSecurityHeaders(
                api.post("/api/telemetry/events", travel, "{\"type\":\"x\"}", "application/json", Map.of()),
                "204 telemetry");
        assertSecurityHeaders(AccessTokenTest.mint(api, demo.key("secret"), AccessTokenTest.TRAVEL_ID), "200 token");
        assertSecurityHeaders(AccessTokenTest.mint(api, "sk_v1_nope", AccessTokenTest.TRAVEL_ID), "401 token");
        assertSecurityHeaders(
                api.send(HttpRequest.newBuilder(URI.create(api.base() + "/api/nothing-here"))
                        .GET()
                        .build()),
                "404 under /api");
        assertSecurityHeaders(
                api.send(HttpRequest.newBuilder(URI.create(api.base() + "/nothing-here"))
                        .GET()
                        .build()),
                "404 elsewhere");

        // Refused by Helidon before routing (a malformed request line): the same headers.
        int port = URI.create(api.base()).getPort();
        try (RawConnection connection = new RawConnection(port)) {
            connection.send("POST /api/suggest HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n");
            String answer = connection.readResponse().toLowerCase(java.util.Locale.ROOT);
            assertTrue(answer.startsWith("http/1.1 400"), answer);
            assertTrue(answer.contains("x-content-type-options: nosniff"), answer);
            assertTrue(answer.contains("cache-control: no-store"), answer);
        }
    }
}
