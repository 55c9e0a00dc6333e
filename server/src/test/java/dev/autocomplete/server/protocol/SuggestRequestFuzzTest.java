package dev.autocomplete.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.autocomplete.server.Fuzz;
import dev.autocomplete.server.config.ServerSettings;
import dev.autocomplete.server.wiring.AutocompleteServer;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Generated bodies against the suggest request reader and the body writer: whatever the bytes, the reader
 * answers a {@link SuggestRequest} or the protocol's 400, never another exception; UTF-8 is judged as the
 * JDK's strict decoder judges it; {@code additional_context} is measured on compact UTF-8; what the writer
 * writes is JSON that reads back the same. Bounded tries, so it runs in every build.
 */
class SuggestRequestFuzzTest {

    private static final ObjectMapper JSON =
            AutocompleteServer.jsonMapper(ServerSettings.defaults().limits());
    private static final SuggestRequestReader READER = new SuggestRequestReader(JSON);
    private static final Set<String> BAD_REQUEST_CODES = Set.of(
            "INVALID_JSON",
            "INVALID_REQUEST",
            "INVALID_REQUEST_ID",
            "INVALID_REQUEST_AT",
            "INVALID_SESSION_ID",
            "RAW_QUERY_TOO_LONG",
            "INVALID_COMPLETED_PARAMS",
            "ADDITIONAL_CONTEXT_TOO_LARGE");

    private static final String VALID = "{\"data\":{\"raw_query\":\"Book a flight from {{ORIGIN_1}} to Lis\","
            + "\"completed_params\":[{\"type\":\"origin\",\"placeholder\":\"{{ORIGIN_1}}\",\"text\":\"Paris\"},"
            + "{\"type\":\"date\",\"placeholder\":\"\"}],\"additional_context\":{\"destination\":[\"Lisbon\",1.5e3]},"
            + "\"identified_params\":[{\"type\":\"destination\",\"value\":\"Lis\"}],"
            + "\"recently_suggested\":[{\"type\":\"destination\",\"text\":\"To\"}]},"
            + "\"meta\":{\"request_id\":\"6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61\",\"request_at\":\"2026-11-22T10:15:30Z\","
            + "\"session_id\":\"9b2f6c1e-4d3a-4f5b-8c7d-2e1f0a9b8c7d\",\"language\":\"fr-CA\",\"client_version\":\"1\"}}";

    /**
     * The property every body must have: read, or refused with one of the protocol's 400 codes. And its cache key
     * ({@link SuggestRequestReader#keyed}, which never throws) reads its envelope and echo as the full read does: a hit
     * for a body read is that body's request.
     */
    private static void readsOrRefuses(byte[] body) {
        SuggestRequestReader.Keyed keyed = READER.keyed(body);
        try {
            SuggestRequest read = READER.read(body);
            if (keyed != null) {
                assertEquals(read, keyed.request(read));
            }
        } catch (ApiException refused) {
            assertEquals(400, refused.status(), refused.code());
            assertTrue(BAD_REQUEST_CODES.contains(refused.code()), refused.code());
        }
    }

    @Test
    void a_valid_body_is_read() {
        SuggestRequest request = READER.read(VALID.getBytes(StandardCharsets.UTF_8));
        assertEquals("Book a flight from {{ORIGIN_1}} to Lis", request.rawQuery());
    }

    @Test
    void mutated_valid_bodies_are_read_or_refused_with_a_400() {
        byte[] valid = VALID.getBytes(StandardCharsets.UTF_8);
        Fuzz.check(3_000, random -> mutate(random, valid), Fuzz::show, SuggestRequestFuzzTest::readsOrRefuses);
    }

    @Test
    void generated_envelopes_with_any_value_in_any_field_are_read_or_refused_with_a_400() {
        Fuzz.check(
                3_000,
                random -> JSON.valueToTree(envelope(random)).toString().getBytes(StandardCharsets.UTF_8),
                Fuzz::show,
                SuggestRequestFuzzTest::readsOrRefuses);
    }

    /**
     * Bodies of one {@code data} written with and without {@code identified_params} (first, in the middle, last, null,
     * spaced), with other envelopes, duplicate members and other top-level members: any two that have one cache key
     * and are both read read alike but for their envelope and echo, so a hit answers as the full read would.
     */
    @Test
    void bodies_of_one_cache_key_read_alike_but_for_their_envelope_and_echo() {
        List<String> queries = List.of("Lis", "Lis ", "Book {{ORIGIN_1}} to Po");
        List<String> echoes = List.of(
                "",
                "\"identified_params\":[]",
                "\"identified_params\" : null",
                "\"identified_params\":[{\"type\":\"destination\",\"value\":\"Po\"}]",
                "\"identified_params\":[{\"type\":\"destination\"}]",
                "\"identified_params\":{}");
        List<String> metas = List.of(
                "\"request_id\":\"6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61\",\"request_at\":\"2026-11-22T10:15:30Z\"",
                "\"request_id\":\"6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a62\",\"request_at\":\"2026-11-22T10:15:31+01:00\","
                        + "\"session_id\":\"9b2f6c1e-4d3a-4f5b-8c7d-2e1f0a9b8c7d\",\"language\":\"fr-CA\"",
                "\"request_id\":\"nope\",\"request_at\":\"2026-11-22T10:15:30Z\"");
        java.util.Map<String, SuggestRequest> byKey = new java.util.HashMap<>();
        int[] hits = new int[1];
        Fuzz.check(
                2_000,
                random -> {
                    String query = queries.get(random.nextInt(queries.size()));
                    java.util.List<String> members = new java.util.ArrayList<>(List.of(
                            "\"raw_query\":\"" + query + "\"",
                            "\"completed_params\":[{\"type\":\"origin\",\"placeholder\":\"{{ORIGIN_1}}\",\"text\":\"Paris\"}]",
                            "\"additional_context\":{\"home\":\"PT\"}"));
                    members = members.subList(0, 1 + random.nextInt(3));
                    String echo = echoes.get(random.nextInt(echoes.size()));
                    if (!echo.isEmpty()) {
                        members.add(random.nextInt(members.size() + 1), echo);
                    }
                    String comma = random.nextInt(4) == 0 ? " , " : ",";
                    String data = "{" + String.join(comma, members) + "}";
                    String meta = "{" + metas.get(random.nextInt(metas.size())) + "}";
                    String body =
                            switch (random.nextInt(4)) {
                                case 0 -> "{\"meta\":" + meta + ",\"data\":" + data + "}";
                                case 1 -> "{\"data\":" + data + ",\"other\":[1,{\"meta\":2}],\"meta\":" + meta + "}";
                                case 2 -> "{\"data\":" + data + ",\"meta\":" + meta + ",\"meta\":" + meta + "}";
                                default -> "{\"data\":" + data + ",\"meta\":" + meta + "}";
                            };
                    return body.getBytes(StandardCharsets.UTF_8);
                },
                Fuzz::show,
                body -> {
                    readsOrRefuses(body);
                    SuggestRequestReader.Keyed keyed = READER.keyed(body);
                    SuggestRequest read;
                    try {
                        read = READER.read(body);
                    } catch (ApiException refused) {
                        return;
                    }
                    if (keyed == null) {
                        return;
                    }
                    String key = HexFormat.of().formatHex(keyed.data()) + "/" + keyed.language();
                    SuggestRequest first = byKey.putIfAbsent(key, read);
                    if (first != null) {
                        hits[0]++;
                        assertEquals(read, keyed.request(first), new String(body, StandardCharsets.UTF_8));
                    }
                });
        assertTrue(hits[0] > 100, "bodies met a kept key " + hits[0] + " times");
    }

    /**
     * The keystroke shape's one pass ({@link KeyedScan}) finds what the streaming parser finds: for every body it takes
     * whose {@code data} is a JSON object, the same key, envelope and echo; a body it takes whose {@code data} is not
     * one has a key no valid body has. Bodies of that shape (no {@code identified_params}) mutated and spaced, and
     * generated envelopes; it must take most of the unmutated ones.
     */
    @Test
    void the_keystroke_shapes_one_pass_finds_what_the_parser_finds() {
        String plain = "{\"data\":{\"raw_query\":\"Book a flight from {{ORIGIN_1}} to L\\\"is\\\\\","
                + "\"completed_params\":[{\"type\":\"origin\",\"placeholder\":\"{{ORIGIN_1}}\",\"text\":\"Par]}is\"}],"
                + "\"additional_context\":{\"a\":[{\"b\":null},1.5e3,\"}\"]}},"
                + "\"meta\":{\"request_id\":\"6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61\",\"request_at\":\"2026-11-22T10:15:30Z\","
                + "\"session_id\":\"9b2f6c1e-4d3a-4f5b-8c7d-2e1f0a9b8c7d\",\"language\":\"fr-CA\",\"x\":null}}";
        byte[] valid = plain.getBytes(StandardCharsets.UTF_8);
        int[] taken = new int[2];
        Fuzz.check(
                6_000,
                random -> switch (random.nextInt(4)) {
                    case 0 -> mutate(random, valid);
                    case 1 ->
                        plain.replace( // names repeated in meta: the last one counts
                                        "\"meta\":{",
                                        "\"meta\":{\"language\":\"de\",\"request_id\":\"00000000-0000-4000-8000-000000000000\",")
                                .getBytes(StandardCharsets.UTF_8);
                    case 2 -> { // whitespace around every name, colon, comma and bracket outside strings
                        String[] spaces = {"", " ", "\n\t", "\r\n  "};
                        yield plain.replace(
                                        "\",\"",
                                        "\"" + Fuzz.oneOf(random, spaces) + "," + Fuzz.oneOf(random, spaces) + "\"")
                                .replace("\":", "\"" + Fuzz.oneOf(random, spaces) + ":" + Fuzz.oneOf(random, spaces))
                                .replace("{\"", "{" + Fuzz.oneOf(random, spaces) + "\"")
                                .replace("\"}", "\"" + Fuzz.oneOf(random, spaces) + "}")
                                .replace(
                                        "},\"",
                                        "}" + Fuzz.oneOf(random, spaces) + "," + Fuzz.oneOf(random, spaces) + "\"")
                                .replace("}}", "}" + Fuzz.oneOf(random, spaces) + "}" + Fuzz.oneOf(random, spaces))
                                .getBytes(StandardCharsets.UTF_8);
                    }
                    default -> {
                        ObjectNode body = envelope(random);
                        if (body.path("data") instanceof ObjectNode data) {
                            data.remove("identified_params");
                        }
                        yield JSON.valueToTree(body).toString().getBytes(StandardCharsets.UTF_8);
                    }
                },
                Fuzz::show,
                body -> {
                    if (!Utf8.isWellFormed(body)) {
                        return;
                    }
                    KeyedScan.Found found = KeyedScan.scan(
                            body,
                            KeyedScan.names("request_id", "request_at", "session_id", "language", "client_version"));
                    taken[1]++;
                    if (found == null) {
                        return;
                    }
                    taken[0]++;
                    SuggestRequestReader.Keyed fast = READER.keyed(body);
                    SuggestRequestReader.Keyed parsed = READER.parsedKey(body);
                    byte[] data = java.util.Arrays.copyOfRange(body, found.dataStart(), found.dataEnd());
                    boolean object;
                    try {
                        object = JSON.readTree(data).isObject();
                    } catch (java.io.IOException e) {
                        object = false;
                    }
                    if (!object) {
                        if (fast != null) {
                            assertThrows(ApiException.class, () -> READER.read(body), Fuzz.show(body));
                        }
                        return;
                    }
                    String shown = Fuzz.show(body);
                    assertEquals(parsed == null, fast == null, shown);
                    if (fast != null) {
                        assertEquals(
                                HexFormat.of().formatHex(parsed.data()),
                                HexFormat.of().formatHex(fast.data()),
                                shown);
                        assertEquals(parsed.hash(), fast.hash(), shown);
                        assertEquals(parsed.echo(), fast.echo(), shown);
                        assertEquals(parsed.requestId(), fast.requestId(), shown);
                        assertEquals(parsed.requestAt(), fast.requestAt(), shown);
                        assertEquals(parsed.sessionId(), fast.sessionId(), shown);
                        assertEquals(parsed.language(), fast.language(), shown);
                    }
                });
        assertTrue(taken[0] > taken[1] / 4, "the one pass took " + taken[0] + " of " + taken[1]);
    }

    @Test
    void random_bytes_are_read_or_refused_with_a_400() {
        Fuzz.check(
                2_000,
                random -> {
                    byte[] bytes = new byte[random.nextInt(64)];
                    random.nextBytes(bytes);
                    return bytes;
                },
                Fuzz::show,
                SuggestRequestFuzzTest::readsOrRefuses);
    }

    @Test
    void utf8_is_judged_as_the_jdk_strict_decoder_judges_it_and_ill_formed_bodies_are_invalid_json() {
        Fuzz.check(
                20_000,
                SuggestRequestFuzzTest::utf8ish,
                bytes -> "hex " + HexFormat.of().formatHex(bytes),
                bytes -> {
                    boolean strict = decodesStrictly(bytes);
                    assertEquals(strict, Utf8.isWellFormed(bytes));
                    if (!strict) {
                        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
                        body.writeBytes("{\"data\":{\"raw_query\":\"".getBytes(StandardCharsets.UTF_8));
                        body.writeBytes(bytes);
                        body.writeBytes("\"}}".getBytes(StandardCharsets.UTF_8));
                        ApiException refused = assertThrows(ApiException.class, () -> READER.read(body.toByteArray()));
                        assertEquals("INVALID_JSON", refused.code());
                    }
                });
    }

    @Test
    void additional_context_is_refused_exactly_when_its_compact_utf8_is_over_2000_bytes() {
        Fuzz.check(1_000, SuggestRequestFuzzTest::context, JsonNode::toString, context -> {
            // The oracle: Jackson's text output (no escaping of non-ASCII or '/'), encoded as UTF-8.
            int size;
            try {
                size = JSON.writeValueAsString(context).getBytes(StandardCharsets.UTF_8).length;
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new AssertionError(e);
            }
            ObjectNode body = validEnvelope();
            ((ObjectNode) body.path("data")).set("additional_context", context);
            try {
                READER.read(body.toString().getBytes(StandardCharsets.UTF_8));
                assertTrue(size <= SuggestRequestReader.MAX_CONTEXT_BYTES, size + " bytes accepted");
            } catch (ApiException refused) {
                assertEquals("ADDITIONAL_CONTEXT_TOO_LARGE", refused.code(), refused.getMessage());
                assertTrue(refused.getMessage().contains(" " + size + " bytes"), size + ": " + refused.getMessage());
                assertTrue(size > SuggestRequestReader.MAX_CONTEXT_BYTES, size + " bytes refused");
            }
        });
    }

    @Test
    void written_errors_and_answers_read_back_as_the_same_json() {
        JsonBodies bodies = new JsonBodies(JSON);
        Fuzz.check(
                2_000,
                random -> new SuggestResponse(
                        Fuzz.text(random, 30),
                        random.nextBoolean()
                                ? null
                                : List.of(new SuggestResponse.InputSegment(
                                        Fuzz.text(random, 8),
                                        Fuzz.text(random, 8),
                                        "completed",
                                        random.nextBoolean() ? null : "selected")),
                        List.of(new SuggestResponse.Suggestion(
                                Fuzz.text(random, 8),
                                Fuzz.text(random, 8),
                                random.nextBoolean(),
                                List.of(new SuggestResponse.Option(Fuzz.text(random, 12), random.nextBoolean())))),
                        random.nextBoolean(),
                        Fuzz.text(random, 36),
                        Fuzz.text(random, 25),
                        Fuzz.text(random, 36)),
                SuggestResponse::toString,
                response -> {
                    JsonNode written = readBack(bodies.suggestResponse(response));
                    assertEquals(
                            response.rawQuery(),
                            written.path("data").path("raw_query").asText());
                    assertEquals(
                            response.requestAt(),
                            written.path("meta").path("request_at").asText());
                    assertEquals(
                            response.suggestions()
                                    .getFirst()
                                    .options()
                                    .getFirst()
                                    .text(),
                            written.path("data")
                                    .path("suggestions")
                                    .get(0)
                                    .path("options")
                                    .get(0)
                                    .path("text")
                                    .asText());
                    JsonNode error = readBack(bodies.error(response.requestId(), response.sessionId()));
                    assertEquals(
                            response.requestId(),
                            error.path("error").path("code").asText());
                    assertEquals(
                            response.sessionId(),
                            error.path("error").path("message").asText());
                });
    }

    private static JsonNode readBack(byte[] written) {
        assertTrue(
                Utf8.isWellFormed(written), () -> "not UTF-8: " + HexFormat.of().formatHex(written));
        try {
            return JSON.readTree(written);
        } catch (java.io.IOException e) {
            throw new AssertionError("not JSON: " + new String(written, StandardCharsets.UTF_8), e);
        }
    }

    private static boolean decodesStrictly(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /** Bytes near UTF-8: ASCII, lead bytes of every kind and continuation bytes, at the edges of their ranges. */
    private static byte[] utf8ish(SplittableRandom random) {
        byte[] bytes = new byte[random.nextInt(1, 24)];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte)
                    switch (random.nextInt(6)) {
                        case 0 -> random.nextInt(0x20, 0x80);
                        case 1, 2 -> random.nextInt(0x80, 0xc0);
                        case 3 ->
                            Fuzz.oneOf(
                                    random, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed,
                                    0xef, 0xf0, 0xf4, 0xf5, 0xff);
                        default -> random.nextInt(0xc0, 0x100);
                    };
        }
        return bytes;
    }

    /** Random bytes changed here and there: flipped, inserted, deleted, or interesting tokens spliced in. */
    private static byte[] mutate(SplittableRandom random, byte[] valid) {
        StringBuilder hex = new StringBuilder(HexFormat.of().formatHex(valid));
        int mutations = random.nextInt(1, 6);
        for (int m = 0; m < mutations; m++) {
            int at = random.nextInt(hex.length() / 2 + 1) * 2;
            String splice = HexFormat.of()
                    .formatHex(Fuzz.oneOf(
                                    random,
                                    "{",
                                    "}",
                                    "[",
                                    "]",
                                    "\"",
                                    "\\",
                                    "\\u",
                                    ":",
                                    ",",
                                    "null",
                                    "1e400",
                                    "-0",
                                    "\\ud800",
                                    "\uD83D\uDE00",
                                    "{{A_1}}",
                                    "\u0000",
                                    "tru")
                            .getBytes(StandardCharsets.UTF_8));
            switch (random.nextInt(4)) {
                case 0 -> {
                    if (at < hex.length()) {
                        hex.replace(at, at + 2, String.format("%02x", random.nextInt(256)));
                    }
                }
                case 1 -> hex.insert(at, String.format("%02x", random.nextInt(256)));
                case 2 -> hex.delete(at, Math.min(hex.length(), at + 2 * random.nextInt(1, 16)));
                default -> hex.insert(at, splice);
            }
        }
        return HexFormat.of().parseHex(hex);
    }

    /** A valid envelope as a mutable tree. */
    private static ObjectNode validEnvelope() {
        try {
            return (ObjectNode) JSON.readTree(VALID);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /** An envelope whose known fields each hold, at random, nothing, null, a fitting value or any other value. */
    private static ObjectNode envelope(SplittableRandom random) {
        ObjectNode body = validEnvelope();
        for (String container : List.of("data", "meta")) {
            ObjectNode fields = (ObjectNode) body.path(container);
            for (String name : List.copyOf(iterable(fields.fieldNames()))) {
                switch (random.nextInt(4)) {
                    case 0 -> fields.remove(name);
                    case 1 -> fields.set(name, value(random, 3));
                    default -> {}
                }
            }
        }
        if (random.nextInt(10) == 0) {
            body.set(Fuzz.oneOf(random, "data", "meta"), value(random, 2));
        }
        return body;
    }

    private static <T> List<T> iterable(java.util.Iterator<T> iterator) {
        List<T> items = new java.util.ArrayList<>();
        iterator.forEachRemaining(items::add);
        return items;
    }

    /** Any JSON value, nested at most {@code depth} levels. */
    private static JsonNode value(SplittableRandom random, int depth) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        return switch (random.nextInt(depth > 0 ? 9 : 6)) {
            case 0 -> nodes.nullNode();
            case 1 -> nodes.booleanNode(random.nextBoolean());
            case 2 -> nodes.numberNode(random.nextLong());
            case 3 -> nodes.numberNode(Fuzz.oneOf(random, 0.5, -0.0, 1e300, Double.MIN_VALUE));
            case 4 ->
                nodes.textNode(Fuzz.oneOf(
                        random,
                        "",
                        "{{ORIGIN_1}}",
                        "6f1c2a8e-3b4d-4e5f-9a7b-1c2d3e4f5a61",
                        "2026-11-22T10:15:30Z",
                        "origin",
                        "x-\u0000-\uD800"));
            case 5 -> nodes.textNode(Fuzz.text(random, 40));
            case 6, 7 -> {
                ArrayNode array = nodes.arrayNode();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(random.nextBoolean() ? entry(random, depth - 1) : value(random, depth - 1));
                }
                yield array;
            }
            default -> entry(random, depth - 1);
        };
    }

    /** An object with the field names the reader looks for inside entries, holding any values. */
    private static ObjectNode entry(SplittableRandom random, int depth) {
        ObjectNode entry = JsonNodeFactory.instance.objectNode();
        for (int i = random.nextInt(4); i > 0; i--) {
            entry.set(
                    Fuzz.oneOf(random, "type", "placeholder", "text", "value", "other", Fuzz.text(random, 5)),
                    value(random, Math.max(0, depth)));
        }
        return entry;
    }

    /** A context whose compact size lands anywhere from well under to well over the limit. */
    private static JsonNode context(SplittableRandom random) {
        ObjectNode context = JsonNodeFactory.instance.objectNode();
        int target = random.nextInt(1_500, 2_500);
        StringBuilder approximate = new StringBuilder();
        // Roughly the compact size so far (a control character counts as its short escape): only to spread sizes.
        for (int size = 0; size < target - 40; ) {
            int codePoint =
                    switch (random.nextInt(5)) {
                        case 0 -> random.nextInt(0x20, 0x7f);
                        case 1 -> random.nextInt(0x80, 0x800);
                        case 2 -> random.nextInt(0x800, 0xd800);
                        case 3 -> random.nextInt(0x10000, 0x110000);
                        default -> Fuzz.oneOf(random, (int) '"', (int) '\\', (int) '/', 0x0a, 0x01);
                    };
            approximate.appendCodePoint(codePoint);
            size += codePoint < 0x20
                    ? 2
                    : new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
        }
        context.put("note", approximate.toString());
        for (int i = random.nextInt(12); i > 0; i--) {
            context.put("k" + i, Fuzz.oneOf(random, "/", "é", "\uD83D\uDE00"));
        }
        return context;
    }
}
